/* Resampling sums of the paired significance tests (resample.c). */
#ifndef ROUGE_KERNELS_RESAMPLE_H
#define ROUGE_KERNELS_RESAMPLE_H

#include "common.h"

/* How Python's built-in sum() adds floats: one rounding per addition (CPython 3.11 and
 * earlier) or Neumaier's compensated summation (3.12 and later). */
enum { SUM_PLAIN = 0, SUM_COMPENSATED = 1 };

/* Python's random.Random: the Mersenne Twister MT19937, its state as random.Random.getstate()
 * gives it (624 words and the position of the next word). */
typedef struct {
    uint32_t mt[624];
    uint32_t pos;
} MTState;

/* `count` values of random.Random.randrange(n) (0 < n < 2**31) into out: getrandbits(k) (the top
 * k = bit_length(n) bits of one word), drawn again while it is n or more. */
void mt_below(MTState *st, uint32_t n, i32 *out, isize count);

/* `count` flags of random.Random.random() >= 0.5 into out (1 or 0): random() reads two words,
 * and is 0.5 or more exactly when the first is 2**31 or more. */
void mt_halves(MTState *st, unsigned char *out, isize count);

/* Per row r of `rows`, the float Python's sum() gives of the row's n terms, into out[r]. Term i
 * of row r is values[index[r * n + i]] (values[i] without an index), negated where
 * negate[r * n + i] is non-zero (when given), and, when centres is given, (term - centres[r])
 * ** 2 as Python's float power computes it (the C library's pow). -1 on no memory. */
int resample_sums(const double *values, isize n, isize rows, const i32 *index, const unsigned char *negate,
                   const double *centres, int mode, double *out);

#endif
