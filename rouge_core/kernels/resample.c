/* Resampling sums of the paired significance tests, reproducing rouge_core/significance.py's
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
    for (isize i = 0; i < count; i++) {
        uint32_t r;
        do r = mt_next(st) >> (32 - k);
        while (r >= n);
        out[i] = (i32)r;
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

void resample_sums(const double *values, isize n, isize rows, const i32 *index, const unsigned char *negate,
                   const double *centres, int mode, double *out) {
    for (isize r = 0; r < rows; r++) {
        const isize at = r * n;
        double sum = 0.0, comp = 0.0; /* sum() starts from the int 0: 0 + x0 is 0.0 + x0 */
        for (isize i = 0; i < n; i++) {
            double x = values[index ? index[at + i] : i];
            if (negate && negate[at + i]) x = -x;
            if (centres) x = python_square(x - centres[r]);
            if (i == 0 || mode == SUM_PLAIN) {
                sum += x;
                continue;
            }
            double t = sum + x; /* Neumaier, as CPython 3.12's builtin_sum */
            if (fabs(sum) >= fabs(x))
                comp += (sum - t) + x;
            else
                comp += (x - t) + sum;
            sum = t;
        }
        out[r] = comp != 0.0 && isfinite(comp) ? sum + comp : sum;
    }
}
