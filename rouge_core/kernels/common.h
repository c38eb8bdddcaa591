/* rouge_core/kernels: the compiled kernels of rouge_core, in plain C (no Python.h): they work
 * on int32 token-id arrays and the structs declared in these headers, and keep no state
 * between calls but what the caller hands them (per-call or per-thread work buffers), so any
 * number of threads may run them at once. The binding (rouge_core/_native.c) converts Python
 * objects to these arrays and back. Each kernel reproduces a pure-Python module of rouge_core
 * bit for bit (the file says which): same integer counts, same float operations in the same
 * order, same tie-breaks.
 *
 *   common.h   types, allocation, growable arrays, hashing, bit tricks
 *   spec.h     constants shared with Python (generated from rouge_core/kernels/kernel_spec.py)
 *   tokens.c   documents as id arrays (Tok), the tokenizers of rouge-score and ROUGE-1.5.5, lookups
 *   lcs.c      the bit-parallel LCS (Lay), rouge-score's union-LCS traceback
 *   grams.c    n-gram and skip-bigram counting, and their evidence
 *   wlcs.c     ROUGE-W's weighted-LCS sweeps
 *   pair.c     one method's statistics on one pair, the precision/recall rules, work buffers
 *   batch.c    batches: many pairs scored by several threads at once
 *   stems.c    a table of stems per word type shared by every thread (stemming on the compiled path)
 *   jieba.c    jieba's default Chinese word cut on a copy of jieba's tables (the multilingual profile)
 */
#ifndef ROUGE_KERNELS_COMMON_H
#define ROUGE_KERNELS_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

typedef int32_t i32;
typedef uint64_t u64;
typedef ptrdiff_t isize; /* sizes and indices (Py_ssize_t on every platform CPython runs on) */

#define ISIZE_MAX PTRDIFF_MAX

static inline void *xmalloc(size_t n) { return malloc(n ? n : 1); }
static inline void *xcalloc(size_t n, size_t k) { return calloc(n ? n : 1, k ? k : 1); }

/* free() of each pointer given (a struct's arrays, in one line). */
static inline void free_each(void *const *ptrs, size_t n) {
    for (size_t k = 0; k < n; k++) free(ptrs[k]);
}
#define FREE_ALL(...) free_each((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* *buf with room for `need` elements of `size` bytes (its contents are not kept); NULL on no
 * memory. Buffers grow, never shrink. */
static inline void *grow_buffer(void **buf, isize *cap, isize need, size_t size) {
    if (need > *cap || !*buf) {
        isize grown = need > 2 * *cap ? need : 2 * *cap;
        if (grown < 1) grown = 1;
        free(*buf);
        *buf = xmalloc((size_t)grown * size);
        *cap = *buf ? grown : 0;
    }
    return *buf;
}

/* *buf grown to hold `need` elements of `size` bytes, its contents kept (doubling). -1 on no
 * memory. */
static inline int grow_kept(void **buf, isize *cap, isize need, size_t size) {
    if (need <= *cap) return 0;
    isize grown = *cap ? 2 * *cap : 64;
    while (grown < need) grown *= 2;
    void *v = realloc(*buf, (size_t)grown * size);
    if (!v) return -1;
    *buf = v;
    *cap = grown;
    return 0;
}

/* `*slot` set to `fresh` unless another thread set it first: returns the pointer in place
 * (a lazily built part of a shared object; the loser frees its own copy). */
static inline void *publish(void **slot, void *fresh) {
    void *expected = NULL;
    if (__atomic_compare_exchange_n(slot, &expected, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return fresh;
    return expected;
}

static inline void *load_published(void *const *slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }

/* A growable int32 array. */
typedef struct {
    i32 *v;
    isize n, cap;
} IVec;

int ivec_push(IVec *a, i32 x);
int ivec_reserve(IVec *a, isize more);
void ivec_reverse(IVec *a, isize from);

/* A growable u64 array, taken in rows of W words. */
typedef struct {
    u64 *v;
    isize n, cap;
} UVec;

int uvec_push_words(UVec *a, const u64 *w, isize W);

static inline u64 mix64(u64 h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline u64 bitrev64(u64 x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

static inline void setbit(u64 *v, isize k) { v[k >> 6] |= (u64)1 << (k & 63); }

/* s = a + b + carry_in over 64-bit words, returning the carry out (one adc on x86-64). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
static inline unsigned char add_carry(unsigned char carry, u64 a, u64 b, u64 *s) {
    unsigned long long out;
    carry = _addcarry_u64(carry, a, b, &out);
    *s = out;
    return carry;
}
#else
static inline unsigned char add_carry(unsigned char carry, u64 a, u64 b, u64 *s) {
    u64 t = a + b;
    unsigned char c1 = t < a;
    u64 r = t + carry;
    *s = r;
    return c1 | (r < t);
}
#endif

static inline isize popcount_vec(const u64 *v, isize W) {
    isize n = 0;
    for (isize w = 0; w < W; w++) n += __builtin_popcountll(v[w]);
    return n;
}

#endif
