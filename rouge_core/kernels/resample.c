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

/* ------------------------------------------------------------------------------------------
 * The corpus bootstrap (resample.h's bootstrap_sums)
 * ---------------------------------------------------------------------------------------- */

#include <pthread.h>

/* numpy/random/src/pcg64/pcg64.h: the 128-bit LCG step, then the XSL-RR output of the new state;
 * next_uint32 hands out the low half of a 64-bit output and keeps the high half for the next call. */
static inline uint64_t pcg64_next64(Pcg64State *g) {
    const unsigned __int128 mult = ((unsigned __int128)2549297995355413924ULL << 64) | 4865540595714422341ULL;
    g->state = g->state * mult + g->inc;
    const uint64_t folded = (uint64_t)(g->state >> 64) ^ (uint64_t)g->state;
    const unsigned rot = (unsigned)(g->state >> 122);
    return (folded >> rot) | (folded << ((64 - rot) & 63));
}

static inline uint32_t pcg64_next32(Pcg64State *g) {
    if (g->has_uint32) {
        g->has_uint32 = 0;
        return g->uinteger;
    }
    const uint64_t next = pcg64_next64(g);
    g->has_uint32 = 1;
    g->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)next;
}

/* numpy/random/src/distributions/distributions.c, random_bounded_uint64_fill with off 0 and
 * rng = n - 1: no draw at all for n == 1, the plain 32-bit output for n == 2**32 (not reached:
 * n < 2**32), else buffered_bounded_lemire_uint32. */
static void pcg64_below(Pcg64State *g, uint32_t n, uint32_t *out, isize count) {
    if (n == 1) {
        memset(out, 0, (size_t)count * sizeof *out);
        return;
    }
    const uint32_t threshold = (uint32_t)((UINT32_MAX - (n - 1)) % n);
    for (isize i = 0; i < count; i++) {
        uint64_t m = (uint64_t)pcg64_next32(g) * n;
        uint32_t leftover = (uint32_t)m;
        if (leftover < n)
            while (leftover < threshold) {
                m = (uint64_t)pcg64_next32(g) * n;
                leftover = (uint32_t)m;
            }
        out[i] = (uint32_t)(m >> 32);
    }
}

typedef struct {
    const BootColumn *columns;
    int methods;
    int empty_nan;
    /* when every method's counts are whole numbers of one type (uint32 or uint16) in one array,
     * pair by pair (corpus_stats' CorpusStatistics._interleave): pair i's row at rows + i *
     * row_bytes, count k (method k / 3's count k % 3) the item offset[k] of it (items of `item`
     * bytes: uint8, uint16 or uint32); else NULL */
    const unsigned char *rows;
    isize row_bytes;
    int item;
    isize *offset;
    isize *dest; /* where count k of a row goes in gather_block's scratch */
    int columns_to_fetch; /* a method's P, R, F given, or its counts not in the rows: prefetch_pair's loop */
    /* with rows: per count k, the first count read from the same item of a row (k itself if
     * none before it is: corpus_stats keeps a count equal to another once), and per stream of
     * pairwise_sums the earlier stream holding the same values (-1: none); else NULL */
    const isize *first;
    const int *same_stream;
} Gather;

enum { PW_BLOCK = 128 }; /* numpy's PW_BLOCKSIZE */

static inline size_t side_bytes(int kind) {
    return kind == SIDE_F64 ? 8 : kind == SIDE_U16 ? 2 : kind == SIDE_U8 ? 1 : 4;
}

static inline double side_at(const BootColumn *c, int j, uint32_t i) {
    const size_t at = (size_t)i * (size_t)c->stride[j];
    switch (c->side_kind[j]) {
    case SIDE_F64: return ((const double *)c->sides[j])[at];
    case SIDE_U16: return (double)((const uint16_t *)c->sides[j])[at];
    case SIDE_U8: return (double)((const unsigned char *)c->sides[j])[at];
    default: return (double)((const uint32_t *)c->sides[j])[at];
    }
}

enum { PREFETCH_AHEAD = 24 }; /* indices: random reads miss the caches; ask for them early */

static inline void prefetch_pair(const Gather *g, uint32_t at) {
    if (g->rows) { /* a row is one or two cache lines */
        const unsigned char *row = g->rows + (size_t)at * (size_t)g->row_bytes;
        __builtin_prefetch(row);
        __builtin_prefetch(row + g->row_bytes - 1);
    }
    if (!g->columns_to_fetch) return; /* summaries' case: the rows hold everything (no loop per pair) */
    for (int m = 0; m < g->methods; m++) {
        const BootColumn *c = &g->columns[m];
        for (int j = 0; j < 3; j++) {
            if (!g->rows) {
                const size_t item = side_bytes(c->side_kind[j]);
                __builtin_prefetch((const unsigned char *)c->sides[j] + (size_t)at * (size_t)c->stride[j] * item);
            }
            if (c->scores[j]) __builtin_prefetch(c->scores[j] + at);
        }
    }
}

/* Two doubles at a time (GCC's and Clang's vector extensions: SSE2 on x86-64): each lane is
 * rounded as the scalar operation rounds it, as NumPy's SIMD loops are. */
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2i __attribute__((vector_size(16)));

static inline v2d load2(const double *a) {
    v2d v;
    memcpy(&v, a, sizeof v);
    return v;
}

static inline v2d select2(v2i mask, v2d yes, v2d no) { return (v2d)(((v2i)yes & mask) | ((v2i)no & ~mask)); }

/* Four doubles at a time: one AVX2 register in the AVX2 clone of a function (WIDE_CLONES), two
 * SSE2 registers in the default one; each lane rounded as the scalar operation rounds it (no
 * FMA: setup.py compiles with -ffp-contract=off, and the avx2 target does not enable FMA). */
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4i __attribute__((vector_size(32)));

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define WIDE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define WIDE_CLONES
#endif

/* macros, not functions: a function returning a v4d outside an AVX2 clone changes the ABI */
#define LOAD4(to, a) memcpy(&(to), (a), sizeof(v4d))
#define SELECT4(mask, yes, no) ((v4d)(((v4i)(yes) & (mask)) | ((v4i)(no) & ~(mask))))

/* P, R and F of `count` gathered counts (corpus_stats.derive_scores, elementwise: _ratio_of, then
 * _f_of): P and R four lanes at a time, F by spec.h's spec_f_measure (stats.f_measure's rule,
 * written once) on each. */
WIDE_CLONES
static void derive_block(const Gather *g, double alpha, const double *hits, const double *cand, const double *ref, double *p,
                         double *r, double *f, isize count) {
    const double zero = g->empty_nan ? NAN : 0.0;
    const v4d zero4 = {zero, zero, zero, zero}, nothing = {0.0, 0.0, 0.0, 0.0};
    isize i = 0;
    for (; i + 4 <= count; i += 4) {
        v4d h, c, rf;
        LOAD4(h, hits + i);
        LOAD4(c, cand + i);
        LOAD4(rf, ref + i);
        const v4d pi = SELECT4(c > nothing, h / c, zero4), ri = SELECT4(rf > nothing, h / rf, zero4);
        memcpy(p + i, &pi, sizeof pi);
        memcpy(r + i, &ri, sizeof ri);
    }
    for (; i < count; i++) {
        p[i] = cand[i] > 0 ? hits[i] / cand[i] : zero;
        r[i] = ref[i] > 0 ? hits[i] / ref[i] : zero;
    }
    for (i = 0; i < count; i++) f[i] = spec_f_measure(p[i], r[i], alpha);
}

/* NaN replaced by 0 (nanmean's _replace_nan); returns how many were not NaN. */
static int64_t not_nan_as_zero(double *v, isize count) {
    v2i seen2 = {0, 0};
    const v2d nothing = {0.0, 0.0};
    isize i = 0;
    for (; i + 2 <= count; i += 2) {
        const v2d x = load2(v + i);
        const v2i defined = x == x;
        seen2 -= defined; /* a true lane is -1 */
        const v2d y = select2(defined, x, nothing);
        memcpy(v + i, &y, sizeof y);
    }
    int64_t seen = seen2[0] + seen2[1];
    for (; i < count; i++) {
        const int defined = v[i] == v[i];
        seen += defined;
        v[i] = defined ? v[i] : 0.0;
    }
    return seen;
}

/* The gathered values of `count` indices into scratch: value k of index i at scratch[k * PW_BLOCK
 * + i] (per method: P, R, F, hits, candidate, reference), NaN replaced by 0 (nanmean's
 * _replace_nan) and the values that are not NaN counted. idx[count .. ahead) are the indices
 * that follow (prefetched: random reads miss the caches). */
static void gather_block(const Gather *g, const uint32_t *idx, isize count, isize ahead, double *scratch,
                         int64_t *counts) {
    const int sides = 3 * g->methods;
    if (g->rows) { /* the rows first (their reads overlap), then each count of them in turn */
        const unsigned char *row[PW_BLOCK];
        for (isize i = 0; i < count; i++) {
            if (i + PREFETCH_AHEAD < ahead) prefetch_pair(g, idx[i + PREFETCH_AHEAD]);
            row[i] = g->rows + (size_t)idx[i] * (size_t)g->row_bytes;
        }
        for (int k = 0; k < sides; k++) {
            double *out = scratch + g->dest[k];
            const isize at = g->offset[k];
            if (g->first[k] != k) { /* the same item as an earlier count's: its doubles copied */
                memcpy(out, scratch + g->dest[g->first[k]], (size_t)count * sizeof(double));
                continue;
            }
            if (g->item == 1)
                for (isize i = 0; i < count; i++) out[i] = (double)row[i][at];
            else if (g->item == 2)
                for (isize i = 0; i < count; i++) out[i] = (double)((const uint16_t *)row[i])[at];
            else
                for (isize i = 0; i < count; i++) out[i] = (double)((const uint32_t *)row[i])[at];
        }
    }
    for (isize i = 0; i < count; i++) {
        if (!g->rows && i + PREFETCH_AHEAD < ahead) prefetch_pair(g, idx[i + PREFETCH_AHEAD]);
        const uint32_t at = idx[i];
        for (int m = 0; m < g->methods; m++) {
            const BootColumn *c = &g->columns[m];
            double *out = scratch + (size_t)m * BOOT_SUMS * PW_BLOCK;
            if (!g->rows)
                for (int j = 0; j < 3; j++) out[(3 + j) * PW_BLOCK + i] = side_at(c, j, at);
            if (c->scores[0])
                for (int j = 0; j < 3; j++) out[j * PW_BLOCK + i] = c->scores[j][at];
        }
    }
    for (int m = 0; m < g->methods; m++) {
        double *out = scratch + (size_t)m * BOOT_SUMS * PW_BLOCK;
        if (!g->columns[m].scores[0]) {
            derive_block(g, g->columns[m].alpha, out + 3 * PW_BLOCK, out + 4 * PW_BLOCK, out + 5 * PW_BLOCK, out, out + PW_BLOCK,
                         out + 2 * PW_BLOCK, count);
            if (!g->empty_nan) { /* whole counts: no NaN */
                for (int j = 0; j < 3; j++) counts[3 * m + j] += count;
                continue;
            }
        }
        for (int j = 0; j < 3; j++) counts[3 * m + j] += not_nan_as_zero(out + j * PW_BLOCK, count);
    }
}

/* numpy's pairwise_sum (loops_utils.h) of a block of at most PW_BLOCK values: its eight partial
 * sums r[0..7] held four to a register (each lane adds as numpy's r[j] += a[i + j] adds; GCC kept
 * the array r in memory, a store and a load on every addition's path). */
WIDE_CLONES
static double leaf_sum(const double *a, isize n) {
    if (n < 8) {
        double res = 0.;
        for (isize i = 0; i < n; i++) res += a[i];
        return res;
    }
    v4d r03, r47, x03, x47;
    LOAD4(r03, a);
    LOAD4(r47, a + 4);
    isize i;
    for (i = 8; i < n - (n % 8); i += 8) {
        LOAD4(x03, a + i);
        LOAD4(x47, a + i + 4);
        r03 += x03;
        r47 += x47;
    }
    double res = ((r03[0] + r03[1]) + (r03[2] + r03[3])) + ((r47[0] + r47[1]) + (r47[2] + r47[3]));
    for (; i < n; i++) res += a[i];
    return res;
}

/* numpy's pairwise_sum of every stream over the indices idx[0..n): blocks of up to PW_BLOCK
 * summed as leaf_sum does, larger ranges split at n / 2 rounded down to a multiple of 8. */
static void pairwise_sums(const Gather *g, const uint32_t *idx, isize n, isize ahead, double *res, double *scratch,
                          int64_t *counts) {
    const int streams = g->methods * BOOT_SUMS;
    if (n <= PW_BLOCK) {
        gather_block(g, idx, n, ahead, scratch, counts);
        for (int k = 0; k < streams; k++) /* a stream of the same values as an earlier one: the same sum */
            res[k] = g->same_stream && g->same_stream[k] >= 0 ? res[g->same_stream[k]]
                                                              : leaf_sum(scratch + (size_t)k * PW_BLOCK, n);
        return;
    }
    isize n2 = n / 2;
    n2 -= n2 % 8;
    double left[streams];
    pairwise_sums(g, idx, n2, ahead, left, scratch, counts);
    pairwise_sums(g, idx + n2, n - n2, ahead - n2, res, scratch, counts);
    for (int k = 0; k < streams; k++) res[k] = left[k] + res[k];
}

typedef struct {
    const Gather *g;
    const uint32_t *idx;
    isize n;
    double *res, *scratch;
    int64_t *counts;
} Half;

static void *half_run(void *arg) {
    Half *h = arg;
    pairwise_sums(h->g, h->idx, h->n, h->n, h->res, h->scratch, h->counts);
    return NULL;
}

int bootstrap_sums(Pcg64State *rng, isize n, isize rows, const BootColumn *columns, int methods, int empty_nan,
                   int threads, double *sums, int64_t *counts) {
    Gather g = {columns, methods, empty_nan, NULL, 0, 0, NULL, NULL, 1, NULL, NULL};
    isize *offset = xmalloc((size_t)methods * 3 * sizeof(isize) * 3);
    int *same_stream = xmalloc((size_t)methods * BOOT_SUMS * sizeof(int));
    if (!offset || !same_stream) {
        free(offset);
        free(same_stream);
        return -1;
    }
    isize *dest = offset + (size_t)methods * 3, *first = offset + (size_t)methods * 6;
    for (int k = 0; k < methods * 3; k++) /* method k / 3's count k % 3 */
        dest[k] = ((isize)(k / 3) * BOOT_SUMS + 3 + k % 3) * PW_BLOCK;
    /* one array, pair by pair: every count uint32 (or every one uint16) with the same stride,
     * within one row of the first */
    const int kind = columns[0].side_kind[0];
    const size_t item = side_bytes(kind);
    const unsigned char *base = NULL;
    int packed = kind != SIDE_F64;
    for (int m = 0; m < methods && packed; m++)
        for (int j = 0; j < 3; j++) {
            packed = packed && columns[m].side_kind[j] == kind && columns[m].stride[j] == columns[0].stride[0];
            if (packed && (!base || (const unsigned char *)columns[m].sides[j] < base)) base = columns[m].sides[j];
        }
    for (int m = 0; m < methods && packed; m++)
        for (int j = 0; j < 3; j++) {
            const unsigned char *at = columns[m].sides[j];
            const isize apart = (isize)(at - base);
            packed = packed && apart % (isize)item == 0 && apart / (isize)item < columns[0].stride[0];
            if (packed) offset[3 * m + j] = apart / (isize)item;
        }
    if (packed)
        g.rows = base, g.row_bytes = columns[0].stride[0] * (isize)item, g.item = (int)item, g.offset = offset,
        g.dest = dest;
    if (packed) {
        g.columns_to_fetch = 0;
        for (int m = 0; m < methods; m++) g.columns_to_fetch |= columns[m].scores[0] != NULL;
        for (int s = 0; s < methods * BOOT_SUMS; s++) same_stream[s] = -1;
        for (int k = 0; k < methods * 3; k++) {
            first[k] = k;
            for (int e = 0; e < k; e++)
                if (offset[e] == offset[k]) {
                    first[k] = e;
                    same_stream[(k / 3) * BOOT_SUMS + 3 + k % 3] = (e / 3) * BOOT_SUMS + 3 + e % 3;
                    break;
                }
        }
        g.first = first, g.same_stream = same_stream;
    }
    const int streams = methods * BOOT_SUMS;
    /* two index buffers: the next resample is drawn while the current one is gathered */
    uint32_t *idx[2] = {xmalloc((size_t)n * sizeof(uint32_t)), rows > 1 ? xmalloc((size_t)n * sizeof(uint32_t)) : NULL};
    double *scratch = xmalloc(2 * (size_t)streams * PW_BLOCK * sizeof(double));
    double *left = xmalloc((size_t)streams * sizeof(double));
    int64_t *left_counts = xmalloc((size_t)methods * 3 * sizeof(int64_t));
    int rc = -1;
    if (!idx[0] || (rows > 1 && !idx[1]) || !scratch || !left || !left_counts) goto done;
    /* the two halves of numpy's first split, one per thread (their sums are added as numpy adds
     * them, so the numbers do not depend on the threads) */
    isize n2 = n / 2;
    n2 -= n2 % 8;
    const int split = threads > 1 && n > PW_BLOCK;
    if (rows > 0) pcg64_below(rng, (uint32_t)n, idx[0], n);
    for (isize r = 0; r < rows; r++) {
        const uint32_t *cur = idx[r & 1];
        double *res = sums + (size_t)r * streams;
        int64_t *cnt = counts + (size_t)r * methods * 3;
        memset(cnt, 0, (size_t)methods * 3 * sizeof(int64_t));
        if (!split) {
            if (r + 1 < rows) pcg64_below(rng, (uint32_t)n, idx[(r + 1) & 1], n);
            pairwise_sums(&g, cur, n, n, res, scratch, cnt);
            continue;
        }
        memset(left_counts, 0, (size_t)methods * 3 * sizeof(int64_t));
        Half first = {&g, cur, n2, left, scratch + (size_t)streams * PW_BLOCK, left_counts};
        pthread_t worker;
        const int started = pthread_create(&worker, NULL, half_run, &first) == 0;
        if (!started) half_run(&first);
        if (r + 1 < rows) pcg64_below(rng, (uint32_t)n, idx[(r + 1) & 1], n);
        pairwise_sums(&g, cur + n2, n - n2, n - n2, res, scratch, cnt);
        if (started) pthread_join(worker, NULL);
        for (int k = 0; k < streams; k++) res[k] = left[k] + res[k];
        for (int k = 0; k < methods * 3; k++) cnt[k] += left_counts[k];
    }
    rc = 0;
done:
    free(idx[0]);
    free(idx[1]);
    free(scratch);
    free(left);
    free(left_counts);
    free(offset);
    free(same_stream);
    return rc;
}
