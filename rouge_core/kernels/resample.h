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

/* The corpus bootstrap (rouge_core.corpora.corpus.bootstrap_corpus), reproducing its NumPy code
 * bit for bit: the resampled indices numpy's default_rng(seed).integers(0, n, size=(rows, n))
 * draws (PCG64, Lemire's bounded 32-bit method), and per resample and method the sums numpy's
 * pairwise summation gives of the gathered P, R and F (NaN taken as 0, as nanmean does, and
 * counted) and of the gathered hits, candidate and reference totals. */

/* numpy's PCG64 bit generator: its 128-bit LCG state and increment, and the buffered upper half
 * of the last 64-bit output (has_uint32, uinteger), as bit_generator.state gives them. */
typedef struct {
    unsigned __int128 state, inc;
    int has_uint32;
    uint32_t uinteger;
} Pcg64State;

/* One method's columns: the three counts (hits, candidate total, reference total), each of the
 * side_kind SIDE_U32 (uint32), SIDE_F64 (double), SIDE_U16 (uint16) or SIDE_U8 (uint8), pair i's
 * at sides[j][i * stride[j]] (the methods' whole counts are kept pair by pair in one array, in
 * the narrowest of the three integer types every count fits: one pair's are one or two cache
 * lines), and P, R, F as doubles,
 * or NULL where they are derived from the counts as rouge_core.corpora.corpus_stats.derive_scores
 * derives them, F by spec_f_measure at the method's alpha. */
enum { SIDE_U32 = 0, SIDE_F64 = 1, SIDE_U16 = 2, SIDE_U8 = 3 };

typedef struct {
    const void *sides[3];
    int side_kind[3];
    isize stride[3];
    const double *scores[3];
    double alpha;
} BootColumn;

enum { BOOT_SUMS = 6 }; /* per method: P, R, F (NaN as 0), hits, candidate, reference */

/* `rows` resamples of n pairs (1 <= n < 2**32) drawn from *rng (advanced): per resample r and
 * method m, sums[(r * methods + m) * 6 + k] (k: P, R, F, hits, cand, ref) and
 * counts[(r * methods + m) * 3 + j] (P, R, F values that are not NaN). empty_nan: a zero
 * total gives NaN, not 0. threads: 1 or 2 (the same numbers).
 * -1 on no memory. */
int bootstrap_sums(Pcg64State *rng, isize n, isize rows, const BootColumn *columns, int methods, int empty_nan,
                   int threads, double *sums, int64_t *counts);

#endif
