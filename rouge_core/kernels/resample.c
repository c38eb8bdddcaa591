/* Resampling sums of the paired significance tests, reproducing rouge_core/corpora/significance.py's
 * reference loops bit for bit: each resample's terms added in order as Python's sum() adds
 * them (resample.h). */
#include <math.h>

#include "resample.h"

/* MT19937 as CPython's _randommodule.c (genrand_uint32). */
static uint32_t mt_next(MTState *st) {
    enum { N = 624, M = 397 };
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t *mt = st->mt, y;
    if (st->pos >= N) {
        int kk;
        for (kk = 0; kk < N - M; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + M] ^ (y >> 1) ^ mag01[y & 0x1u];
        }
        for (; kk < N - 1; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 0x1u];
        }
        y = (mt[N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ mag01[y & 0x1u];
        st->pos = 0;
    }
    y = mt[st->pos++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

void mt_below(MTState *st, uint32_t n, i32 *out, isize count) {
    int k = 0;
    while (k < 32 && (n >> k)) k++;
    for (isize i = 0; i < count;) { /* a rejected draw is overwritten by the next (no branch to mispredict) */
        uint32_t r = mt_next(st) >> (32 - k);
        out[i] = (i32)r;
        i += r < n;
    }
}

void mt_halves(MTState *st, unsigned char *out, isize count) {
    for (isize i = 0; i < count; i++) {
        out[i] = (unsigned char)(mt_next(st) >> 31);
        (void)mt_next(st);
    }
}

/* Python's `x ** 2` of a finite float: CPython's float_pow hands |x| to the C library's pow
 * (0 stays 0). Not x * x: the two differ in the last bit for about one value in a thousand. */
static double python_square(double x) { return x == 0.0 ? 0.0 : pow(fabs(x), 2.0); }

/* Python's sum() of n floats (resample.h's modes). */
static double python_sum(const double *x, isize n, int mode) {
    double sum = 0.0, comp = 0.0; /* sum() starts from the int 0: 0 + x0 is 0.0 + x0 */
    if (n > 0) sum += x[0];
    if (mode == SUM_PLAIN) {
        for (isize i = 1; i < n; i++) sum += x[i];
        return sum;
    }
    for (isize i = 1; i < n; i++) { /* Neumaier, as CPython 3.12's builtin_sum */
        double t = sum + x[i];
        if (fabs(sum) >= fabs(x[i]))
            comp += (sum - t) + x[i];
        else
            comp += (x[i] - t) + sum;
        sum = t;
    }
    return comp != 0.0 && isfinite(comp) ? sum + comp : sum;
}

int resample_sums(const double *values, isize n, isize rows, const i32 *index, const unsigned char *negate,
                  const double *centres, int mode, double *out) {
    double *terms = xmalloc((size_t)n * sizeof(double));
    if (!terms) return -1;
    for (isize r = 0; r < rows; r++) {
        const isize at = r * n;
        if (index)
            for (isize i = 0; i < n; i++) terms[i] = values[index[at + i]];
        else
            memcpy(terms, values, (size_t)n * sizeof(double));
        if (negate) /* -x flips the sign bit: done without a branch on each flag */
            for (isize i = 0; i < n; i++) {
                uint64_t bits;
                memcpy(&bits, &terms[i], sizeof bits);
                bits ^= (uint64_t)(negate[at + i] != 0) << 63;
                memcpy(&terms[i], &bits, sizeof bits);
            }
        if (centres)
            for (isize i = 0; i < n; i++) terms[i] = python_square(terms[i] - centres[r]);
        out[r] = python_sum(terms, n, mode);
    }
    free(terms);
    return 0;
}
