/* rouge_core._native: compiled kernels for rouge_core, equal bit for bit to the pure-Python
 * reference (rouge_core's .py modules): same integer counts, same float operations in the
 * same order, same tie-breaks.
 *
 * Texts are token-id arrays here (`Tok`): each document numbers its distinct terms in order
 * of first occurrence, and a pair of documents is joined by looking the reference's distinct
 * terms up in the candidate's vocabulary (a term is compared by its string data: CPython
 * keeps every str in its narrowest kind, so equal strings have equal kind and bytes).
 *
 *   Tokens      one document: ids, counts per id, sentence bounds; built from a tuple of
 *               str terms or by the ASCII tokenizers of rouge-score / ROUGE-1.5.5
 *   Layout      rouge_core.bitparallel_lcs.CandidateLayout with the same interface (the
 *               bit-parallel LCS rows and rouge-score's union-LCS traceback)
 *   ngram / lcs / union_lcs / skip / wlcs_*   the statistics of one pair
 *   score_pair  every method on one pair, with the result records built here
 *   score_texts score_pair on ASCII texts, each reference only looked up in the candidate's
 *               vocabulary (probe_ascii)
 *   batch_job   many pairs, scored by several threads at once with the GIL released
 *
 * The calls made with the GIL held keep their working memory from call to call (SHARED_WORK,
 * SHARED_PROBE: never used once the GIL is released); the batch runs, which release it, each
 * work on their own buffers, so threads may run kernels at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

typedef int32_t i32;
typedef uint64_t u64;

/* ------------------------------------------------------------------------------------------
 * small helpers
 * ---------------------------------------------------------------------------------------- */

static void *xmalloc(size_t n) { return malloc(n ? n : 1); }
static void *xcalloc(size_t n, size_t k) { return calloc(n ? n : 1, k ? k : 1); }

static inline u64 mix64(u64 h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* A term's hash: its bytes in 8-byte words (little-endian order), mixed. */
static inline u64 tail_word(const unsigned char *p, size_t n) {
    u64 w = 0;
    for (size_t k = 0; k < n; k++) w |= (u64)p[k] << (8 * k);
    return w;
}

static inline u64 head_word(const unsigned char *p) { return tail_word(p, 8); }

/* One multiply, its high half folded into the low: the table index takes low bits, the slot
 * tag the high 32 (terms are compared in full on a tag match). */
static inline u64 hash_finish(u64 h, u64 w) {
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}

static u64 hash_bytes(const unsigned char *p, size_t n, int kind) {
    u64 h = ((u64)n * 0x9E3779B97F4A7C15ULL) ^ (u64)kind;
    while (n > 8) {
        h = (h ^ head_word(p)) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    return hash_finish(h, tail_word(p, n));
}

/* A term's first 8 bytes (fewer: zero-filled) as one word: most terms compare in one step. */
static inline u64 head_of(const unsigned char *p, size_t bytes) { return tail_word(p, bytes < 8 ? bytes : 8); }

/* A mask of the low min(n, 8) bytes of a word, without a branch (short words vary in length
 * unpredictably). */
static inline u64 low_bytes(size_t n) { return (((u64)1 << ((8 * n) & 63)) - 1) | -(u64)(n >= 8); }

/* hash_bytes and head_of of kind-1 data that may be read up to 8 bytes past its end (the
 * tokenizer's buffer has that room). */
static inline u64 hash_padded(const unsigned char *p, size_t n, u64 *head) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    u64 h = ((u64)n * 0x9E3779B97F4A7C15ULL) ^ 1u;
    u64 w;
    memcpy(&w, p, 8);
    *head = w & low_bytes(n);
    while (n > 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    memcpy(&w, p, 8);
    return hash_finish(h, w & low_bytes(n));
#else
    *head = head_of(p, n);
    return hash_bytes(p, n, 1);
#endif
}

static inline u64 bitrev64(u64 x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

/* A growable int32 array. */
typedef struct {
    i32 *v;
    Py_ssize_t n, cap;
} IVec;

static int ivec_push(IVec *a, i32 x) {
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 64;
        i32 *v = realloc(a->v, (size_t)cap * sizeof(i32));
        if (!v) return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Tok: one tokenized document
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    const unsigned char *data; /* the term's string data (kind bytes per character) */
    Py_ssize_t len;            /* characters */
    int kind;                  /* 1, 2 or 4 (PyUnicode kinds) */
    u64 hash;
    u64 head;                  /* head_of(data) */
} Term;

static inline Term term_make(const unsigned char *data, Py_ssize_t len, int kind) {
    size_t bytes = (size_t)len * (size_t)kind;
    Term q = {data, len, kind, hash_bytes(data, bytes, kind), head_of(data, bytes)};
    return q;
}

typedef struct Lay Lay;

typedef struct {
    Py_ssize_t n;    /* tokens */
    i32 *ids;        /* n: the id of each token */
    Py_ssize_t nv;   /* distinct terms */
    i32 *counts;     /* nv */
    Term *terms;     /* nv */
    u64 *table;      /* hash slots: (hash >> 32) << 32 | (id + 1), 0 empty */
    size_t tmask;
    Py_ssize_t nsent;
    i32 *bounds;     /* 2 * nsent: [start, end) token indices */
    unsigned char *buf; /* owned term data (the tokenizer's lower-cased copy), or NULL */
    int padded;      /* term data may be read 8 bytes past its end (it lives in buf) */
    Lay *layout;     /* the candidate bit masks, built on first use */
} Tok;

static void lay_free(Lay *l);

static void tok_free(Tok *t) {
    if (!t) return;
    free(t->ids);
    free(t->counts);
    free(t->terms);
    free(t->table);
    free(t->bounds);
    free(t->buf);
    if (t->layout) lay_free(t->layout);
    free(t);
}

static inline int term_eq(const Term *a, const Term *b) {
    if (a->head != b->head || a->len != b->len || a->kind != b->kind || a->hash != b->hash) return 0;
    size_t n = (size_t)a->len * (size_t)a->kind;
    return n <= 8 || memcmp(a->data + 8, b->data + 8, n - 8) == 0;
}

/* term_eq for kind-1 terms found under the same hash tag (tok_probe): the head word, then
 * the rest of longer terms. */
__attribute__((always_inline)) static inline int term_eq_padded(const Term *a, const Term *b) {
    if (a->head != b->head || a->len != b->len) return 0;
    size_t n = (size_t)a->len;
    return n <= 8 || memcmp(a->data + 8, b->data + 8, n - 8) == 0;
}

static inline u64 slot_of_id(u64 hash, i32 id) { return (hash & 0xffffffff00000000ULL) | (u64)(uint32_t)(id + 1); }

/* The id of `q` in t's vocabulary, or -1 with *slot the empty slot where it would go;
 * `padded`: both terms may be read past their end. */
__attribute__((always_inline)) static inline i32 tok_probe(const Tok *t, const Term *q, int padded, size_t *slot) {
    size_t mask = t->tmask;
    size_t s = (size_t)q->hash & mask;
    u64 high = q->hash & 0xffffffff00000000ULL;
    for (;;) {
        u64 e = t->table[s];
        if (!e) {
            *slot = s;
            return -1;
        }
        if ((e & 0xffffffff00000000ULL) == high) {
            i32 id = (i32)(uint32_t)e - 1;
            if (padded ? term_eq_padded(&t->terms[id], q) : term_eq(&t->terms[id], q)) return id;
        }
        s = (s + 1) & mask;
    }
}

static inline i32 tok_lookup(const Tok *t, const Term *q, int padded) {
    size_t slot;
    return tok_probe(t, q, padded, &slot);
}

static i32 tok_find(const Tok *t, const Term *q) { return tok_lookup(t, q, 0); }

/* Builder state: vocabulary growing as tokens arrive. */
typedef struct {
    Tok *t;
    Py_ssize_t cap_tokens, cap_vocab, cap_sent;
    int padded; /* every term's data may be read 8 bytes past its end (the tokenizer's buffer) */
} TokBuild;

static int tb_init(TokBuild *b, Py_ssize_t expect_tokens) {
    Tok *t = xcalloc(1, sizeof(Tok));
    if (!t) return -1;
    b->t = t;
    b->padded = 0;
    b->cap_tokens = expect_tokens > 16 ? expect_tokens : 16;
    b->cap_vocab = b->cap_tokens / 2 > 16 ? b->cap_tokens / 2 : 16;
    b->cap_sent = 4;
    t->ids = xmalloc((size_t)b->cap_tokens * sizeof(i32));
    t->counts = xmalloc((size_t)b->cap_vocab * sizeof(i32));
    t->terms = xmalloc((size_t)b->cap_vocab * sizeof(Term));
    size_t slots = 32;
    while (slots < 2 * (size_t)b->cap_vocab) slots *= 2;
    t->tmask = slots - 1;
    t->table = xcalloc(slots, sizeof(u64));
    t->bounds = xmalloc((size_t)b->cap_sent * 2 * sizeof(i32));
    if (!t->ids || !t->counts || !t->terms || !t->table || !t->bounds) {
        tok_free(t);
        b->t = NULL;
        return -1;
    }
    return 0;
}

static int tb_rehash(Tok *t) {
    size_t size = (t->tmask + 1) * 2;
    u64 *table = xcalloc(size, sizeof(u64));
    if (!table) return -1;
    size_t mask = size - 1;
    for (Py_ssize_t id = 0; id < t->nv; id++) {
        size_t s = (size_t)t->terms[id].hash & mask;
        while (table[s]) s = (s + 1) & mask;
        table[s] = slot_of_id(t->terms[id].hash, (i32)id);
    }
    free(t->table);
    t->table = table;
    t->tmask = mask;
    return 0;
}

/* Append one token with term `q` (its data must outlive the Tok). */
__attribute__((always_inline)) static inline int tb_add(TokBuild *b, const Term *q) {
    Tok *t = b->t;
    if (t->n == b->cap_tokens) {
        Py_ssize_t cap = 2 * b->cap_tokens;
        i32 *ids = realloc(t->ids, (size_t)cap * sizeof(i32));
        if (!ids) return -1;
        t->ids = ids;
        b->cap_tokens = cap;
    }
    size_t s = 0;
    i32 id = tok_probe(t, q, b->padded, &s);
    if (id < 0) {
        if (t->nv == b->cap_vocab) {
            Py_ssize_t cap = 2 * b->cap_vocab;
            i32 *counts = realloc(t->counts, (size_t)cap * sizeof(i32));
            if (counts) t->counts = counts;
            Term *terms = realloc(t->terms, (size_t)cap * sizeof(Term));
            if (terms) t->terms = terms;
            if (!counts || !terms) return -1;
            b->cap_vocab = cap;
        }
        id = (i32)t->nv++;
        t->terms[id] = *q;
        t->counts[id] = 0;
        t->table[s] = slot_of_id(q->hash, id);
        if ((size_t)t->nv * 2 > t->tmask + 1 && tb_rehash(t) < 0) return -1;
    }
    t->counts[id]++;
    t->ids[t->n++] = id;
    return 0;
}

static int tb_sentence(TokBuild *b, Py_ssize_t start, Py_ssize_t end) {
    Tok *t = b->t;
    if (t->nsent == b->cap_sent) {
        Py_ssize_t cap = 2 * b->cap_sent;
        i32 *bounds = realloc(t->bounds, (size_t)cap * 2 * sizeof(i32));
        if (!bounds) return -1;
        t->bounds = bounds;
        b->cap_sent = cap;
    }
    t->bounds[2 * t->nsent] = (i32)start;
    t->bounds[2 * t->nsent + 1] = (i32)end;
    t->nsent++;
    return 0;
}

/* Per byte: 0 separator, 1 newline, else the byte of the word (lower-cased in LOWER). */
static unsigned char WORD_BYTE[256], LOWER_BYTE[256];

static void init_byte_tables(void) {
    for (int c = 0; c < 256; c++) {
        int alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        WORD_BYTE[c] = alnum ? (unsigned char)c : (c == '\n' ? 1 : 0);
        LOWER_BYTE[c] = alnum ? (unsigned char)((c >= 'A' && c <= 'Z') ? c + 32 : c) : WORD_BYTE[c];
    }
}

__attribute__((always_inline)) static inline int tb_word(TokBuild *b, const unsigned char *data, Py_ssize_t len) {
    Term q = {data, len, 1, 0, 0};
    q.hash = hash_padded(data, (size_t)len, &q.head);
    return tb_add(b, &q);
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* 16 bytes: their [A-Za-z0-9] and newline bits; the word bytes (lower-cased if asked) go to out. */
static inline void classify16(const unsigned char *p, unsigned char *out, int lowercase, unsigned *alnum,
                              unsigned *newline) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    __m128i letter =
        _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
    __m128i word = lowercase ? _mm_or_si128(v, _mm_and_si128(letter, _mm_set1_epi8(0x20))) : v;
    _mm_storeu_si128((__m128i *)out, word);
    *alnum = (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, letter));
    *newline = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
}
#endif

/* A reference tokenized against a candidate's vocabulary, without one of its own
 * (probe_ascii): per token the candidate id or -1 (join's rows), per candidate id its count
 * (join's ref_count), the sentence bounds. Its buffers grow, never shrink. */
typedef struct {
    const Tok *c;
    int padded;       /* c's terms come from the tokenizer: short terms compare as words */
    i32 *rows;        /* n, room for every word the text can hold */
    Py_ssize_t n, rows_cap;
    i32 *counts;      /* c->nv + 1: counts[0] takes the tokens c lacks, counts + 1 is ref_count */
    Py_ssize_t counts_cap;
    i32 *bounds;      /* 2 * nsent */
    Py_ssize_t nsent, cap_sent;
    unsigned char *buf; /* the lower-cased words being looked up (padded as the tokenizer's) */
    Py_ssize_t buf_cap;
} Probe;

static void probe_free(Probe *p) {
    free(p->rows);
    free(p->counts);
    free(p->bounds);
    free(p->buf);
    memset(p, 0, sizeof(*p));
}

/* Make `p` ready for a text of `len` bytes against candidate c (counts zeroed). */
static int probe_ready(Probe *p, const Tok *c, Py_ssize_t len) {
    Py_ssize_t words = len / 2 + 1; /* words are separated: at most one per two bytes */
    if (words > p->rows_cap) {
        free(p->rows);
        p->rows_cap = words > 2 * p->rows_cap ? words : 2 * p->rows_cap;
        p->rows = xmalloc((size_t)p->rows_cap * sizeof(i32));
        if (!p->rows) return p->rows_cap = 0, -1;
    }
    if (c->nv + 1 > p->counts_cap) {
        free(p->counts);
        p->counts_cap = c->nv + 1 > 2 * p->counts_cap ? c->nv + 1 : 2 * p->counts_cap;
        p->counts = xmalloc((size_t)p->counts_cap * sizeof(i32));
        if (!p->counts) return p->counts_cap = 0, -1;
    }
    if (len + 80 > p->buf_cap) {
        free(p->buf);
        p->buf_cap = len + 80 > 2 * p->buf_cap ? len + 80 : 2 * p->buf_cap;
        p->buf = xmalloc((size_t)p->buf_cap);
        if (!p->buf) return p->buf_cap = 0, -1;
    }
    if (!p->bounds) {
        p->cap_sent = 16;
        p->bounds = xmalloc((size_t)p->cap_sent * 2 * sizeof(i32));
        if (!p->bounds) return p->cap_sent = 0, -1;
    }
    memset(p->counts, 0, (size_t)(c->nv + 1) * sizeof(i32));
    p->c = c;
    p->padded = c->padded;
    p->n = 0;
    p->nsent = 0;
    return 0;
}

/* The reference's view for the kernels (pair_stats reads only its length and sentences). */
static Tok probe_view(const Probe *p) {
    Tok t;
    memset(&t, 0, sizeof(t));
    t.n = p->n;
    t.nsent = p->nsent;
    t.bounds = p->bounds;
    return t;
}

/* Where the ASCII scanner's words and sentences go: into a vocabulary being built
 * (tokenize_ascii), or looked up in a candidate's (probe_ascii). */
enum { SCAN_BUILD = 0, SCAN_PROBE = 1 };

__attribute__((always_inline)) static inline int scan_word(int mode, TokBuild *b, Probe *p, const unsigned char *data,
                                                           Py_ssize_t len) {
    if (mode == SCAN_BUILD) return tb_word(b, data, len);
    Term q = {data, len, 1, 0, 0};
    q.hash = hash_padded(data, (size_t)len, &q.head);
    i32 id = tok_lookup(p->c, &q, p->padded);
    p->rows[p->n++] = id;
    p->counts[id + 1]++; /* no branch: a token the candidate lacks counts in slot 0 */
    return 0;
}

__attribute__((always_inline)) static inline Py_ssize_t scan_tokens(int mode, TokBuild *b, Probe *p) {
    return mode == SCAN_BUILD ? b->t->n : p->n;
}

__attribute__((always_inline)) static inline int scan_sentence(int mode, TokBuild *b, Probe *p, Py_ssize_t start,
                                                               Py_ssize_t end) {
    if (mode == SCAN_BUILD) return tb_sentence(b, start, end);
    if (p->nsent == p->cap_sent) {
        Py_ssize_t cap = 2 * p->cap_sent;
        i32 *bounds = realloc(p->bounds, (size_t)cap * 2 * sizeof(i32));
        if (!bounds) return -1;
        p->bounds = bounds;
        p->cap_sent = cap;
    }
    p->bounds[2 * p->nsent] = (i32)start;
    p->bounds[2 * p->nsent + 1] = (i32)end;
    p->nsent++;
    return 0;
}

/* The ASCII tokenizers (rouge-score's and ROUGE-1.5.5's on ASCII text), as
 * rouge_core.tokenize._lazy_document: words are runs of [A-Za-z0-9] (lower-cased if asked),
 * one sentence per line, empty lines skipped (a line of separators only is an empty
 * sentence). `text` must be ASCII; `buf` has room for len + 80 bytes (the words are written
 * there, lower-cased if asked, and read up to 8 bytes past their end). No GIL needed. */
__attribute__((always_inline)) static inline int scan_ascii(int mode, TokBuild *b, Probe *p, const unsigned char *text,
                                                            Py_ssize_t len, int lowercase, unsigned char *buf) {
    Py_ssize_t line_start = 0, s_start = 0, word = -1;
#if defined(__SSE2__)
    /* 64 bytes at a time: bit masks of word bytes and newlines, then one step per event
     * (a word's end, a newline, a word's start) in text order */
    unsigned char tail[64];
    u64 carry = 0; /* the last byte of the previous block was a word byte */
    for (Py_ssize_t base = 0; base < len; base += 64) {
        const unsigned char *src = text + base;
        if (len - base < 64) {
            memset(tail, ' ', 64);
            memcpy(tail, src, (size_t)(len - base));
            src = tail;
        }
        u64 alnum = 0, newline = 0;
        for (int k = 0; k < 4; k++) {
            unsigned a, nl;
            classify16(src + 16 * k, buf + base + 16 * k, lowercase, &a, &nl);
            alnum |= (u64)a << (16 * k);
            newline |= (u64)nl << (16 * k);
        }
        u64 before = (alnum << 1) | carry;
        u64 starts = alnum & ~before, ends = ~alnum & before;
        carry = alnum >> 63;
        if (!newline && base + 64 <= len) {
            /* no line ends here (the common block): words start and end by turns */
            if (word >= 0 && ends) { /* the word open from the last block */
                int q = __builtin_ctzll(ends);
                if (scan_word(mode, b, p, buf + word, base + q - word) < 0) return -1;
                ends &= ends - 1;
                word = -1;
            }
            while (starts) {
                int at = __builtin_ctzll(starts);
                starts &= starts - 1;
                if (!ends) { /* runs on into the next block */
                    word = base + at;
                    break;
                }
                int q = __builtin_ctzll(ends);
                ends &= ends - 1;
                if (scan_word(mode, b, p, buf + base + at, q - at) < 0) return -1;
            }
            continue;
        }
        u64 events = starts | ends | newline;
        while (events) {
            int e = __builtin_ctzll(events);
            u64 bit = (u64)1 << e;
            events &= events - 1;
            Py_ssize_t at = base + e;
            if (at >= len) break;
            if (ends & bit) {
                if (scan_word(mode, b, p, buf + word, at - word) < 0) return -1;
                word = -1;
            }
            if (newline & bit) {
                if (at > line_start && scan_sentence(mode, b, p, s_start, scan_tokens(mode, b, p)) < 0) return -1;
                line_start = at + 1;
                s_start = scan_tokens(mode, b, p);
            }
            if (starts & bit) word = at;
        }
    }
    if (word >= 0 && scan_word(mode, b, p, buf + word, len - word) < 0) return -1;
#else
    const unsigned char *table = lowercase ? LOWER_BYTE : WORD_BYTE;
    Py_ssize_t i = 0;
    (void)word;
    for (;;) {
        /* separators; a newline or the end closes the line */
        unsigned char k = 0;
        while (i < len && (k = table[text[i]]) == 0) i++;
        if (i >= len || k == 1) {
            if (i > line_start && scan_sentence(mode, b, p, s_start, scan_tokens(mode, b, p)) < 0) return -1;
            if (i >= len) return 0;
            i++;
            line_start = i;
            s_start = scan_tokens(mode, b, p);
            continue;
        }
        Py_ssize_t w = i;
        while (i < len && (k = table[text[i]]) > 1) buf[i++] = k;
        if (scan_word(mode, b, p, buf + w, i - w) < 0) return -1;
    }
#endif
    if (len > line_start && scan_sentence(mode, b, p, s_start, scan_tokens(mode, b, p)) < 0) return -1;
    return 0;
}

static Tok *tokenize_ascii(const unsigned char *text, Py_ssize_t len, int lowercase) {
    TokBuild b;
    if (tb_init(&b, len / 4 + 8) < 0) return NULL;
    b.padded = 1;
    Tok *t = b.t;
    t->padded = 1;
    t->buf = xmalloc((size_t)len + 80);
    if (!t->buf || scan_ascii(SCAN_BUILD, &b, NULL, text, len, lowercase, t->buf) < 0) {
        tok_free(t);
        return NULL;
    }
    return t;
}

/* The words of an ASCII text looked up in candidate c's vocabulary, into `p`: what
 * tokenize_ascii and join give, without building the text's own vocabulary. No GIL needed. */
static int probe_ascii(Probe *p, const Tok *c, const unsigned char *text, Py_ssize_t len, int lowercase) {
    if (probe_ready(p, c, len) < 0) return -1;
    return scan_ascii(SCAN_PROBE, NULL, p, text, len, lowercase, p->buf);
}

static int term_of_str(PyObject *s, Term *q) {
    if (!PyUnicode_Check(s)) return -1;
    if (PyUnicode_READY(s) < 0) return -1;
    *q = term_make(PyUnicode_DATA(s), PyUnicode_GET_LENGTH(s), PyUnicode_KIND(s));
    return 0;
}

/* A Tok over a tuple of str terms (kept alive by the caller) and (start, end) bounds. */
static Tok *tok_from_terms(PyObject *terms, PyObject *bounds) {
    Py_ssize_t n = PyTuple_GET_SIZE(terms);
    TokBuild b;
    if (tb_init(&b, n) < 0) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Term q;
        if (term_of_str(PyTuple_GET_ITEM(terms, i), &q) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "terms must be strings");
            goto fail;
        }
        if (tb_add(&b, &q) < 0) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    if (bounds != NULL) {
        PyObject *seq = PySequence_Fast(bounds, "bounds must be a sequence");
        if (!seq) goto fail;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t k = 0; k < m; k++) {
            PyObject *pair = PySequence_Fast_ITEMS(seq)[k];
            Py_ssize_t a, e;
            if (!PyArg_ParseTuple(pair, "nn", &a, &e)) {
                Py_DECREF(seq);
                goto fail;
            }
            if (a < 0 || e < a || e > n) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "sentence bounds out of range");
                goto fail;
            }
            if (tb_sentence(&b, a, e) < 0) {
                Py_DECREF(seq);
                PyErr_NoMemory();
                goto fail;
            }
        }
        Py_DECREF(seq);
    }
    return b.t;
fail:
    tok_free(b.t);
    return NULL;
}

/* ------------------------------------------------------------------------------------------
 * joining two documents
 * ---------------------------------------------------------------------------------------- */

/* Per reference token, the candidate id of its term or -1 (`out` has r->n entries); also
 * per candidate id, how often the reference has it (`ref_count`, c->nv entries, may be NULL). */
static int join(const Tok *c, const Tok *r, i32 *out, i32 *ref_count) {
    i32 *map = xmalloc((size_t)r->nv * sizeof(i32));
    if (!map) return -1;
    int padded = c->padded && r->padded; /* both from the tokenizer: short terms compare as words */
    for (Py_ssize_t v = 0; v < r->nv; v++) map[v] = tok_lookup(c, &r->terms[v], padded);
    if (ref_count) {
        memset(ref_count, 0, (size_t)c->nv * sizeof(i32));
        for (Py_ssize_t v = 0; v < r->nv; v++)
            if (map[v] >= 0) ref_count[map[v]] = r->counts[v];
    }
    for (Py_ssize_t i = 0; i < r->n; i++) out[i] = map[r->ids[i]];
    free(map);
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Lay: the candidate's sentences side by side in one bit vector (rouge_core.bitparallel_lcs)
 *
 * Bits 0..width-1: per non-empty sentence a guard bit, then one bit per token; W words hold
 * bits 0..width (the last carry lands at bit width). The traceback runs in the mirrored
 * domain, bit k -> 64 W - 1 - k, where a walk to the left through a run of "go left" bits is
 * the carry of an addition (see bitparallel_lcs's docstring).
 * ---------------------------------------------------------------------------------------- */

struct Lay {
    Py_ssize_t W, width, nv, nsent, nspans;
    u64 *masks;      /* nv * W: per candidate id, its columns */
    i32 *cnt;        /* nv: per candidate id, its columns in the layout */
    u64 *rmasks;     /* nv * W: the same mirrored (built on the first traceback) */
    u64 *full;       /* W: every token bit (guards clear) */
    u64 *every;      /* W: bits 0..width-1 */
    u64 *start_rev;  /* W: mirrored, each sentence's last column (where its walk starts) */
    i32 *col_sent;   /* width: sentence index of each bit, -1 for a guard */
    i32 *col_pos;    /* width: column within the sentence */
    i32 *span_sent, *span_lo, *span_len; /* nspans: sentence index, first token bit, length */
};

static void lay_free(Lay *l) {
    if (!l) return;
    free(l->masks);
    free(l->cnt);
    free(l->rmasks);
    free(l->full);
    free(l->every);
    free(l->start_rev);
    free(l->col_sent);
    free(l->col_pos);
    free(l->span_sent);
    free(l->span_lo);
    free(l->span_len);
    free(l);
}

static inline void setbit(u64 *v, Py_ssize_t k) { v[k >> 6] |= (u64)1 << (k & 63); }

static Lay *lay_build(const Tok *t) {
    Lay *l = xcalloc(1, sizeof(Lay));
    if (!l) return NULL;
    Py_ssize_t width = 0, nspans = 0;
    for (Py_ssize_t s = 0; s < t->nsent; s++) {
        Py_ssize_t len = t->bounds[2 * s + 1] - t->bounds[2 * s];
        if (len > 0) {
            width += len + 1;
            nspans++;
        }
    }
    Py_ssize_t W = width / 64 + 1;
    l->W = W;
    l->width = width;
    l->nv = t->nv;
    l->nsent = t->nsent;
    l->nspans = nspans;
    l->masks = xcalloc((size_t)(t->nv * W), sizeof(u64));
    l->cnt = xcalloc((size_t)t->nv, sizeof(i32));
    l->full = xcalloc((size_t)W, sizeof(u64));
    l->every = xcalloc((size_t)W, sizeof(u64));
    l->start_rev = xcalloc((size_t)W, sizeof(u64));
    l->span_sent = xmalloc((size_t)(nspans ? nspans : 1) * sizeof(i32));
    l->span_lo = xmalloc((size_t)(nspans ? nspans : 1) * sizeof(i32));
    l->span_len = xmalloc((size_t)(nspans ? nspans : 1) * sizeof(i32));
    if (!l->masks || !l->cnt || !l->full || !l->every || !l->start_rev || !l->span_sent ||
        !l->span_lo || !l->span_len) {
        lay_free(l);
        return NULL;
    }
    Py_ssize_t top = 64 * W - 1;
    Py_ssize_t pos = 0, k = 0;
    for (Py_ssize_t s = 0; s < t->nsent; s++) {
        Py_ssize_t a = t->bounds[2 * s], b = t->bounds[2 * s + 1];
        if (b <= a) continue;
        l->span_sent[k] = (i32)s;
        l->span_lo[k] = (i32)(pos + 1);
        l->span_len[k] = (i32)(b - a);
        k++;
        for (Py_ssize_t i = a; i < b; i++) {
            Py_ssize_t bit = pos + 1 + (i - a);
            setbit(l->masks + (Py_ssize_t)t->ids[i] * W, bit);
            l->cnt[t->ids[i]]++;
            setbit(l->full, bit);
        }
        Py_ssize_t end = pos + (b - a);
        setbit(l->start_rev, top - end);
        pos = end + 1;
    }
    for (Py_ssize_t bit = 0; bit < width; bit++) setbit(l->every, bit);
    return l;
}

/* Per bit: its sentence (-1 for a guard) and column within it; built for alignments only. */
static int lay_columns(Lay *l) {
    if (l->col_sent) return 0;
    Py_ssize_t width = l->width;
    i32 *sent = xmalloc((size_t)(width + 1) * sizeof(i32)), *pos = xmalloc((size_t)(width + 1) * sizeof(i32));
    if (!sent || !pos) {
        free(sent);
        free(pos);
        return -1;
    }
    for (Py_ssize_t k = 0; k < l->nspans; k++) {
        Py_ssize_t lo = l->span_lo[k];
        sent[lo - 1] = pos[lo - 1] = -1; /* the guard */
        for (Py_ssize_t c = 0; c < l->span_len[k]; c++) {
            sent[lo + c] = l->span_sent[k];
            pos[lo + c] = (i32)c;
        }
    }
    l->col_sent = sent;
    l->col_pos = pos;
    return 0;
}

static int lay_reversed_masks(Lay *l) {
    if (l->rmasks) return 0;
    Py_ssize_t W = l->W;
    l->rmasks = xmalloc((size_t)(l->nv * W) * sizeof(u64));
    if (!l->rmasks) return -1;
    for (Py_ssize_t v = 0; v < l->nv; v++) {
        const u64 *m = l->masks + v * W;
        u64 *r = l->rmasks + v * W;
        for (Py_ssize_t w = 0; w < W; w++) r[w] = bitrev64(m[W - 1 - w]);
    }
    return 0;
}

static Lay *tok_layout(Tok *t) {
    if (!t->layout) t->layout = lay_build(t);
    return t->layout;
}

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

/* One row of the Allison-Dix / Hyyro update: v = ((v + u) | (v - u)) & keep, u = v & m. */
static inline void lcs_row(u64 *v, const u64 *m, const u64 *keep, Py_ssize_t W) {
    unsigned char carry = 0;
    for (Py_ssize_t w = 0; w < W; w++) {
        u64 vw = v[w], u = vw & m[w], s;
        carry = add_carry(carry, vw, u, &s);
        v[w] = (s | (vw ^ u)) & keep[w];
    }
}

/* lcs_row with every bit below the top word kept (`every`): only the top word is masked. */
static inline void lcs_row_every(u64 *v, const u64 *m, u64 top_keep, Py_ssize_t W) {
    unsigned char carry = 0;
    Py_ssize_t w = 0;
    for (; w + 1 < W; w++) {
        u64 vw = v[w], u = vw & m[w], s;
        carry = add_carry(carry, vw, u, &s);
        v[w] = s | (vw ^ u);
    }
    u64 vw = v[w], u = vw & m[w], s;
    add_carry(carry, vw, u, &s);
    v[w] = (s | (vw ^ u)) & top_keep;
}

static inline Py_ssize_t popcount_vec(const u64 *v, Py_ssize_t W) {
    Py_ssize_t n = 0;
    for (Py_ssize_t w = 0; w < W; w++) n += __builtin_popcountll(v[w]);
    return n;
}

/* LCS of the candidate tokens (as one sequence) with the rows `rows` (candidate ids, -1 for
 * a token the candidate lacks). */
static Py_ssize_t lay_lcs_length(const Lay *l, const i32 *rows, Py_ssize_t nrows, u64 *work) {
    Py_ssize_t W = l->W;
    memcpy(work, l->every, (size_t)W * sizeof(u64));
    u64 top_keep = l->every[W - 1];
    for (Py_ssize_t i = 0; i < nrows; i++)
        if (rows[i] >= 0) lcs_row_every(work, l->masks + (Py_ssize_t)rows[i] * W, top_keep, W);
    return l->width - popcount_vec(work, W);
}

/* LCS of `rows` with each candidate sentence: out[s] for every sentence (0 when empty). */
static void lay_sentence_lengths(const Lay *l, const i32 *rows, Py_ssize_t nrows, u64 *work, Py_ssize_t *out) {
    Py_ssize_t W = l->W;
    memcpy(work, l->full, (size_t)W * sizeof(u64));
    for (Py_ssize_t i = 0; i < nrows; i++)
        if (rows[i] >= 0) lcs_row(work, l->masks + (Py_ssize_t)rows[i] * W, l->full, W);
    for (Py_ssize_t s = 0; s < l->nsent; s++) out[s] = 0;
    for (Py_ssize_t k = 0; k < l->nspans; k++) {
        Py_ssize_t lo = l->span_lo[k], len = l->span_len[k], ones = 0;
        for (Py_ssize_t b = lo; b < lo + len; b++) ones += (work[b >> 6] >> (b & 63)) & 1;
        out[l->span_sent[k]] = len - ones;
    }
}

/* rouge-score's traceback of one reference sentence (its rows: candidate ids or -1, at
 * reference positions first..first+nrows-1) against every candidate sentence at once.
 * Appends the positions where some candidate sentence's walk takes the diagonal to `found`,
 * bottom row first; with `diag` (not NULL), also each such row's walker bits (mirrored),
 * W words per found row. `buf` holds nrows * W words for the rows' go-left masks. */
typedef struct {
    u64 *left;   /* rows * W */
    i32 *key;    /* rows: reference position */
    i32 *id;     /* rows: candidate id */
    char *any;   /* rows: the go-left mask is not zero */
    Py_ssize_t cap, cap_words; /* rows held; words held by `left` */
    u64 *v, *x, *p, *rl, *d; /* W + 1 each */
    Py_ssize_t W;            /* the vectors' width */
} TraceBuf;

static void trace_free(TraceBuf *b) {
    free(b->left);
    free(b->key);
    free(b->id);
    free(b->any);
    free(b->v);
    free(b->x);
    free(b->p);
    free(b->rl);
    free(b->d);
    memset(b, 0, sizeof(*b));
}

/* Vectors of at least W words (a zeroed TraceBuf grows on demand). */
static int trace_width(TraceBuf *b, Py_ssize_t W) {
    if (W <= b->W && b->v) return 0;
    free(b->v);
    free(b->x);
    free(b->p);
    free(b->rl);
    free(b->d);
    b->W = 0;
    b->v = xmalloc((size_t)(W + 1) * sizeof(u64));
    b->x = xmalloc((size_t)(W + 1) * sizeof(u64));
    b->p = xmalloc((size_t)(W + 1) * sizeof(u64));
    b->rl = xmalloc((size_t)(W + 1) * sizeof(u64));
    b->d = xmalloc((size_t)(W + 1) * sizeof(u64));
    if (!b->v || !b->x || !b->p || !b->rl || !b->d) {
        trace_free(b);
        return -1;
    }
    b->W = W;
    return 0;
}

static int trace_init(TraceBuf *b, Py_ssize_t W) {
    memset(b, 0, sizeof(*b));
    return trace_width(b, W);
}

static int trace_reserve(TraceBuf *b, Py_ssize_t rows, Py_ssize_t W) {
    if (rows * W > b->cap_words) {
        Py_ssize_t words = rows * W > 2 * b->cap_words ? rows * W : 2 * b->cap_words;
        u64 *left = realloc(b->left, (size_t)words * sizeof(u64));
        if (!left) return -1;
        b->left = left;
        b->cap_words = words;
    }
    if (rows <= b->cap) return 0;
    Py_ssize_t cap = rows > 2 * b->cap ? rows : 2 * b->cap;
    i32 *key = realloc(b->key, (size_t)cap * sizeof(i32));
    if (key) b->key = key;
    i32 *id = realloc(b->id, (size_t)cap * sizeof(i32));
    if (id) b->id = id;
    char *any = realloc(b->any, (size_t)cap);
    if (any) b->any = any;
    if (!key || !id || !any) return -1;
    b->cap = cap;
    return 0;
}

/* found: positions (IVec), diag: IVec-like u64 storage (may be NULL). Returns -1 on no memory. */
typedef struct {
    u64 *v;
    Py_ssize_t n, cap;
} UVec;

static int uvec_push_words(UVec *a, const u64 *w, Py_ssize_t W) {
    if (a->n + W > a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 64;
        while (cap < a->n + W) cap *= 2;
        u64 *v = realloc(a->v, (size_t)cap * sizeof(u64));
        if (!v) return -1;
        a->v = v;
        a->cap = cap;
    }
    memcpy(a->v + a->n, w, (size_t)W * sizeof(u64));
    a->n += W;
    return 0;
}

static int lay_traceback(Lay *l, const i32 *rows, Py_ssize_t first, Py_ssize_t nrows, TraceBuf *b, IVec *found,
                         UVec *diag) {
    Py_ssize_t W = l->W;
    if (lay_reversed_masks(l) < 0) return -1;
    if (trace_width(b, W) < 0 || trace_reserve(b, nrows, W) < 0) return -1;
    u64 *v = b->v, *x = b->x;
    memcpy(v, l->full, (size_t)W * sizeof(u64));
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < nrows; i++) {
        i32 id = rows[i];
        if (id < 0) continue;
        const u64 *m = l->masks + (Py_ssize_t)id * W;
        u64 *left = b->left + kept * W;
        unsigned char carry = 0;
        for (Py_ssize_t w = 0; w < W; w++) {
            u64 vw = v[w], u = vw & m[w], s;
            carry = add_carry(carry, vw, u, &s);
            u64 xw = vw ^ u;
            x[w] = s ^ xw; /* the carries into each bit */
            v[w] = (s | xw) & l->full[w];
        }
        u64 any = 0;
        for (Py_ssize_t w = 0; w < W; w++) {
            u64 next = (w + 1 < W) ? x[w + 1] : 0;
            u64 lw = ((x[w] >> 1) | (next << 63)) & ~m[w];
            left[w] = lw;
            any |= lw;
        }
        b->key[kept] = (i32)(first + i);
        b->id[kept] = id;
        b->any[kept] = any != 0;
        kept++;
    }
    u64 *p = b->p, *rl = b->rl, *d = b->d;
    memcpy(p, l->start_rev, (size_t)W * sizeof(u64));
    for (Py_ssize_t k = kept - 1; k >= 0; k--) {
        if (b->any[k]) {
            const u64 *left = b->left + k * W;
            for (Py_ssize_t w = 0; w < W; w++) rl[w] = bitrev64(left[W - 1 - w]);
            unsigned char carry = 0;
            for (Py_ssize_t w = 0; w < W; w++) {
                u64 s;
                carry = add_carry(carry, rl[w], p[w], &s);
                x[w] = s & ~rl[w];
            }
        } else {
            memcpy(x, p, (size_t)W * sizeof(u64));
        }
        const u64 *rm = l->rmasks + (Py_ssize_t)b->id[k] * W;
        u64 anyd = 0;
        for (Py_ssize_t w = 0; w < W; w++) {
            d[w] = x[w] & rm[w];
            anyd |= d[w];
        }
        if (anyd) {
            if (ivec_push(found, b->key[k]) < 0) return -1;
            if (diag && uvec_push_words(diag, d, W) < 0) return -1;
            u64 prev = 0;
            for (Py_ssize_t w = 0; w < W; w++) {
                u64 dw = d[w];
                p[w] = (x[w] ^ dw) | (dw << 1) | prev;
                prev = dw >> 63;
            }
        } else {
            memcpy(p, x, (size_t)W * sizeof(u64));
        }
    }
    return 0;
}

/* Summary-level LCS hits of the reference (rows: candidate ids or -1 per reference token;
 * sentences from `ref`) against the candidate: sum over candidate ids of
 * min(times on the union LCS, times in the candidate). */
static Py_ssize_t union_hits(Lay *l, const Tok *r, const i32 *rows, TraceBuf *b, IVec *found, i32 *scratch) {
    found->n = 0;
    for (Py_ssize_t s = 0; s < r->nsent; s++) {
        Py_ssize_t a = r->bounds[2 * s], e = r->bounds[2 * s + 1];
        if (lay_traceback(l, rows + a, a, e - a, b, found, NULL) < 0) return -1;
    }
    /* scratch: l->nv counters, all zero on entry and on exit; clipped by the layout's counts */
    Py_ssize_t hits = 0;
    for (Py_ssize_t k = 0; k < found->n; k++) {
        i32 id = rows[found->v[k]];
        if (scratch[id] < l->cnt[id]) {
            scratch[id]++;
            hits++;
        }
    }
    for (Py_ssize_t k = 0; k < found->n; k++) scratch[rows[found->v[k]]] = 0;
    return hits;
}

/* ------------------------------------------------------------------------------------------
 * gram tables: n-grams (rouge_core.ngram) and skip-bigrams (rouge_core.skipgram)
 *
 * Only grams made of tokens both sides have can be hits, so only those are counted; the
 * totals follow from the lengths.
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    u64 key;   /* skip-bigrams: the gram; n-grams: its hash (0: empty slot) */
    i32 pos;   /* n-grams: where the gram starts in the candidate; skip-bigram evidence: its row is made */
    i32 cc, rc;
} GSlot;

typedef struct {
    GSlot *s;
    size_t mask, used;
} GTable;

static int gt_init(GTable *t, size_t expect) {
    size_t size = 16;
    while (size < 2 * expect) size *= 2;
    t->s = xcalloc(size, sizeof(GSlot));
    t->mask = size - 1;
    t->used = 0;
    return t->s ? 0 : -1;
}

static int gt_grow(GTable *t) {
    size_t size = 2 * (t->mask + 1), mask = size - 1;
    GSlot *s = xcalloc(size, sizeof(GSlot));
    if (!s) return -1;
    for (size_t k = 0; k <= t->mask; k++) {
        if (!t->s[k].key) continue;
        size_t h = (size_t)mix64(t->s[k].key) & mask;
        while (s[h].key) h = (h + 1) & mask;
        s[h] = t->s[k];
    }
    free(t->s);
    t->s = s;
    t->mask = mask;
    return 0;
}

static inline u64 pair_key(i32 a, i32 b) { return ((u64)(uint32_t)(a + 1) << 32) | (uint32_t)(b + 1); }

/* Count a gram with key `key` (skip-bigrams: the key says everything) on one side: the
 * candidate's (cc) or, in a table of both sides' grams, the reference's (rc). */
static inline int gt_count_side(GTable *t, u64 key, int ref) {
    size_t h = (size_t)mix64(key) & t->mask;
    for (;;) {
        GSlot *e = &t->s[h];
        if (e->key == key) {
            if (ref)
                e->rc++;
            else
                e->cc++;
            return 0;
        }
        if (!e->key) {
            e->key = key;
            e->cc = !ref;
            e->rc = ref;
            if (++t->used * 2 > t->mask + 1) return gt_grow(t);
            return 0;
        }
        h = (h + 1) & t->mask;
    }
}

/* Count a candidate gram. */
static inline int gt_count_pair(GTable *t, u64 key) { return gt_count_side(t, key, 0); }

static inline void gt_probe_pair(GTable *t, u64 key) {
    size_t h = (size_t)mix64(key) & t->mask;
    for (;;) {
        GSlot *e = &t->s[h];
        if (e->key == key) {
            e->rc++;
            return;
        }
        if (!e->key) return;
        h = (h + 1) & t->mask;
    }
}

static long long gt_clipped(const GTable *t) {
    long long hits = 0;
    for (size_t k = 0; k <= t->mask; k++) {
        const GSlot *e = &t->s[k];
        if (e->key) hits += e->cc < e->rc ? e->cc : e->rc;
    }
    return hits;
}

/* n-gram hits; rows: the reference's tokens as candidate ids (-1: not in the candidate),
 * ref_count: per candidate id, its count in the reference. Returns -1 on no memory. */
static long long ngram_hits(const Tok *c, const i32 *rows, Py_ssize_t nr, const i32 *ref_count, Py_ssize_t n) {
    Py_ssize_t nc = c->n;
    if (n > nc || n > nr) return 0;
    if (n == 1) {
        long long hits = 0;
        for (Py_ssize_t v = 0; v < c->nv; v++) {
            i32 a = c->counts[v], b = ref_count[v];
            hits += a < b ? a : b;
        }
        return hits;
    }
    if (n == 2) { /* bigrams: the pair of ids is the key */
        size_t common = 0;
        for (Py_ssize_t i = 0; i + 1 < nc; i++) common += ref_count[c->ids[i]] > 0 && ref_count[c->ids[i + 1]] > 0;
        GTable t;
        if (gt_init(&t, common) < 0) return -1;
        for (Py_ssize_t i = 0; i + 1 < nc; i++)
            if (ref_count[c->ids[i]] > 0 && ref_count[c->ids[i + 1]] > 0 &&
                gt_count_pair(&t, pair_key(c->ids[i], c->ids[i + 1])) < 0) {
                free(t.s);
                return -1;
            }
        for (Py_ssize_t j = 0; j + 1 < nr; j++)
            if (rows[j] >= 0 && rows[j + 1] >= 0) gt_probe_pair(&t, pair_key(rows[j], rows[j + 1]));
        long long hits = gt_clipped(&t);
        free(t.s);
        return hits;
    }
    Py_ssize_t ct = nc - n + 1;
    const u64 B = 0x100000001B3ULL;
    u64 top = 1; /* B^(n-1) */
    for (Py_ssize_t k = 1; k < n; k++) top *= B;
    GTable t;
    if (gt_init(&t, (size_t)(ct < 1 << 20 ? ct : 1 << 20)) < 0) return -1;
    /* candidate grams of common tokens only */
    const i32 *ids = c->ids;
    Py_ssize_t missing = 0;
    u64 h = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        missing += ref_count[ids[k]] == 0;
        h = h * B + (u64)(uint32_t)ids[k];
    }
    for (Py_ssize_t i = 0;; i++) {
        if (!missing) {
            u64 key = h | 1; /* never 0 */
            size_t s = (size_t)mix64(key) & t.mask;
            for (;;) {
                GSlot *e = &t.s[s];
                if (!e->key) {
                    e->key = key;
                    e->pos = (i32)i;
                    e->cc = 1;
                    if (++t.used * 2 > t.mask + 1 && gt_grow(&t) < 0) {
                        free(t.s);
                        return -1;
                    }
                    break;
                }
                if (e->key == key && memcmp(ids + e->pos, ids + i, (size_t)n * sizeof(i32)) == 0) {
                    e->cc++;
                    break;
                }
                s = (s + 1) & t.mask;
            }
        }
        if (i + 1 >= ct) break;
        missing += (ref_count[ids[i + n]] == 0) - (ref_count[ids[i]] == 0);
        h = (h - (u64)(uint32_t)ids[i] * top) * B + (u64)(uint32_t)ids[i + n];
    }
    Py_ssize_t rt = nr - n + 1;
    missing = 0;
    h = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        missing += rows[k] < 0;
        h = h * B + (u64)(uint32_t)rows[k];
    }
    for (Py_ssize_t j = 0;; j++) {
        if (!missing) {
            u64 key = h | 1;
            size_t s = (size_t)mix64(key) & t.mask;
            for (;;) {
                GSlot *e = &t.s[s];
                if (!e->key) break;
                if (e->key == key && memcmp(ids + e->pos, rows + j, (size_t)n * sizeof(i32)) == 0) {
                    e->rc++;
                    break;
                }
                s = (s + 1) & t.mask;
            }
        }
        if (j + 1 >= rt) break;
        missing += (rows[j + n] < 0) - (rows[j] < 0);
        h = (h - (u64)(uint32_t)rows[j] * top) * B + (u64)(uint32_t)rows[j + n];
    }
    long long hits = gt_clipped(&t);
    free(t.s);
    return hits;
}

/* Skip-bigrams of a token list of n tokens with at most `distance` tokens in the gap
 * (distance < 0: unlimited), plus with `unigrams` ROUGE-1.5.5's unigrams of every position
 * but the last: how many (rouge_core.skipgram.skip_bigram_counts's total). */
static long long skip_total(Py_ssize_t n, long long distance, int unigrams) {
    long long total = unigrams && n > 1 ? n - 1 : 0;
    long long reach = distance < 0 ? n : distance + 1;
    long long last = reach < n - 1 ? reach : n - 1;
    for (long long gap = 1; gap <= last; gap++) total += n - gap;
    return total;
}

enum { SU_NONE = 0, SU_ROUGE155 = 1, SU_START = 2 };

/* Skip-bigram (and SU) hits. src: the candidate's ids, rsrc: the reference's as candidate
 * ids (-1: not in the candidate), each with the start token in front when the form asks;
 * common: per candidate id, whether the reference has it. */
static long long skip_hits(const i32 *src, Py_ssize_t n, const i32 *rsrc, Py_ssize_t nr, const char *common,
                           long long distance, int unigrams) {
    GTable t;
    long long hits = -1;
    i32 *cpos = NULL, *rpos = NULL;
    long long reach = distance;
    Py_ssize_t guess = n * (distance < 0 || distance > 8 ? 8 : distance + 1) + n;
    if (gt_init(&t, (size_t)(guess < (1 << 22) ? guess : (1 << 22))) < 0) return -1;
    /* the positions of the tokens that can be part of a hit */
    cpos = xmalloc((size_t)n * sizeof(i32));
    rpos = xmalloc((size_t)nr * sizeof(i32));
    if (!cpos || !rpos) goto done;
    Py_ssize_t mc = 0, mr = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (common[src[i]]) cpos[mc++] = (i32)i;
    for (Py_ssize_t i = 0; i < nr; i++)
        if (rsrc[i] >= 0) rpos[mr++] = (i32)i;
    if (unigrams) {
        for (Py_ssize_t k = 0; k < mc && cpos[k] < n - 1; k++)
            if (gt_count_pair(&t, pair_key(src[cpos[k]], -1)) < 0) goto done;
    }
    for (Py_ssize_t k = 0; k < mc; k++) {
        i32 a = src[cpos[k]];
        long long limit = reach < 0 ? (long long)n : (long long)cpos[k] + reach + 1;
        for (Py_ssize_t q = k + 1; q < mc && cpos[q] <= limit; q++)
            if (gt_count_pair(&t, pair_key(a, src[cpos[q]])) < 0) goto done;
    }
    if (unigrams) {
        for (Py_ssize_t k = 0; k < mr && rpos[k] < nr - 1; k++) gt_probe_pair(&t, pair_key(rsrc[rpos[k]], -1));
    }
    for (Py_ssize_t k = 0; k < mr; k++) {
        i32 a = rsrc[rpos[k]];
        long long limit = reach < 0 ? (long long)nr : (long long)rpos[k] + reach + 1;
        for (Py_ssize_t q = k + 1; q < mr && rpos[q] <= limit; q++) gt_probe_pair(&t, pair_key(a, rsrc[rpos[q]]));
    }
    hits = gt_clipped(&t);
done:
    free(t.s);
    free(cpos);
    free(rpos);
    return hits;
}

/* ------------------------------------------------------------------------------------------
 * ROUGE-W: the weighted-LCS dynamic programme (rouge_core.wlcs._python_alignment)
 *
 * Rows are reference tokens, columns candidate tokens. A match cell continues the diagonal
 * run k: c = (c_diag + f(k+1)) - f(k); any other cell is max(up, left), the up value winning
 * ties. Two rows of values are kept (linear memory); for a traceback, one bit per cell says
 * up (1) or left (0) where the tokens differ (every match cell is a diagonal move), so the
 * alignment is the pure path's, tie-breaks included, at 1/8 byte a cell.
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    double *gn, *go; /* gn[k] = f(k+1), go[k] = f(k), k < len */
    Py_ssize_t len;
} Gains;

static int gains_init(Gains *g, double w, Py_ssize_t longest) {
    g->len = longest + 1;
    g->gn = xmalloc((size_t)g->len * sizeof(double));
    g->go = xmalloc((size_t)g->len * sizeof(double));
    if (!g->gn || !g->go) {
        free(g->gn);
        free(g->go);
        return -1;
    }
    /* float(k) ** w as Python computes it (0 ** w = 0, 1 ** w = 1, else the C library's pow) */
    for (Py_ssize_t k = 0; k < g->len; k++) {
        g->go[k] = k == 0 ? 0.0 : (k == 1 ? 1.0 : pow((double)k, w));
        g->gn[k] = k == 0 ? 1.0 : pow((double)(k + 1), w);
    }
    return 0;
}

static void gains_free(Gains *g) {
    free(g->gn);
    free(g->go);
}

static inline double py_pow(double x, double w) {
    /* Python's float ** float for x >= 0 and finite w != 0 */
    if (x == 0.0) return 0.0;
    if (x == 1.0) return 1.0;
    return pow(x, w);
}

/* Columns per candidate id (CSR): cols[start[id] .. start[id + 1]) ascending, 1-based. */
typedef struct {
    i32 *start, *cols;
} Columns;

static int columns_init(Columns *cs, const i32 *cand, Py_ssize_t nc, Py_ssize_t nv) {
    cs->start = xcalloc((size_t)nv + 2, sizeof(i32));
    cs->cols = xmalloc((size_t)nc * sizeof(i32));
    if (!cs->start || !cs->cols) {
        free(cs->start);
        free(cs->cols);
        return -1;
    }
    for (Py_ssize_t j = 0; j < nc; j++) cs->start[cand[j] + 2]++;
    for (Py_ssize_t v = 0; v < nv; v++) cs->start[v + 2] += cs->start[v + 1];
    for (Py_ssize_t j = 0; j < nc; j++) cs->cols[cs->start[cand[j] + 1]++] = (i32)(j + 1);
    return 0;
}

static void columns_free(Columns *cs) {
    free(cs->start);
    free(cs->cols);
}

typedef struct {
    double *v;        /* one row of values, updated in place */
    i32 *rp, *rr;     /* run lengths: of the row above, of this row (at match columns) */
    i32 *dp, *dc;     /* the columns where the row above / this row decreases, ascending */
    Py_ssize_t cap;
} WlcsBuf;

static void wbuf_free(WlcsBuf *b) {
    free(b->v);
    free(b->rp);
    free(b->rr);
    free(b->dp);
    free(b->dc);
    memset(b, 0, sizeof(*b));
}

static int wbuf_reserve(WlcsBuf *b, Py_ssize_t nc) {
    if (nc + 1 <= b->cap) return 0;
    wbuf_free(b);
    b->cap = nc + 1;
    b->v = xcalloc((size_t)b->cap, sizeof(double));
    b->rp = xcalloc((size_t)b->cap, sizeof(i32));
    b->rr = xcalloc((size_t)b->cap, sizeof(i32));
    b->dp = xmalloc((size_t)b->cap * sizeof(i32));
    b->dc = xmalloc((size_t)b->cap * sizeof(i32));
    if (!b->v || !b->rp || !b->rr || !b->dp || !b->dc) {
        wbuf_free(b);
        return -1;
    }
    return 0;
}

/* The row's run lengths and decreases become the row above's (the arrays swap roles). */
static inline void next_row(i32 **rp, i32 **rr, i32 **dp, i32 **dc) {
    i32 *t = *rp;
    *rp = *rr;
    *rr = t;
    t = *dp;
    *dp = *dc;
    *dc = t;
}

/* After a sweep over columns [0, width]: the rows zero again for the next sweep, the arrays
 * kept in their current roles. */
static void wbuf_done(WlcsBuf *b, i32 *rp, i32 *rr, i32 *dp, i32 *dc, Py_ssize_t width) {
    memset(b->v, 0, (size_t)(width + 1) * sizeof(double));
    memset(rp, 0, (size_t)(width + 1) * sizeof(i32));
    memset(rr, 0, (size_t)(width + 1) * sizeof(i32));
    b->rp = rp;
    b->rr = rr;
    b->dp = dp;
    b->dc = dc;
}

/* bits from..to-1 of `row` set */
static inline void set_bit_range(u64 *row, Py_ssize_t from, Py_ssize_t to) {
    if (from >= to) return;
    Py_ssize_t a = from >> 6, z = (to - 1) >> 6;
    u64 first = ~(u64)0 << (from & 63), last = ~(u64)0 >> (63 - ((to - 1) & 63));
    if (a == z) {
        row[a] |= first & last;
        return;
    }
    row[a] |= first;
    for (Py_ssize_t w = a + 1; w < z; w++) row[w] = ~(u64)0;
    row[z] |= last;
}

/* The cells of a row between two matches, [from, to), in place: `v` holds the row above there
 * on entry and the running maximum v[j] = max(left, v[j]) on exit, each cell's move "up" (a
 * bit in brow, if given) where the row above is >= left; returns the last cell's value.
 *
 * The row above decreases only at its own match columns (a match worth less than the cell to
 * its left), listed in `*drop` .. `dend` (ascending; the cursor advances). Between two such
 * columns it never decreases, so there the maximum is `left` up to the first v[j] >= left
 * and the row above itself from there on, every cell from there moving up: only the cells
 * before that point change, and they are the only ones written (the values are those of a
 * compare-per-cell loop, found by a search and stored by a fill). */
static inline double running_max(double *v, Py_ssize_t from, Py_ssize_t to, double left, const i32 **drop,
                                 const i32 *dend, u64 *brow) {
    while (from < to) {
        while (*drop < dend && **drop <= from) (*drop)++;
        Py_ssize_t piece = (*drop < dend && **drop < to) ? **drop : to; /* [from, piece) never decreases */
        Py_ssize_t lo = from, hi = piece;                           /* the first v[j] >= left */
        if (hi - lo > 16) {
            while (lo < hi) {
                Py_ssize_t mid = lo + (hi - lo) / 2;
                if (v[mid] >= left)
                    hi = mid;
                else
                    lo = mid + 1;
            }
        } else {
            while (lo < hi && v[lo] < left) lo++;
        }
        for (Py_ssize_t j = from; j < lo; j++) v[j] = left;
        if (lo < piece) {
            if (brow) set_bit_range(brow, lo, piece);
            left = v[piece - 1];
        }
        from = piece;
    }
    return left;
}

static double wlcs_sweep(const i32 *ref, Py_ssize_t nr, const i32 *cand, Py_ssize_t nc, const Columns *cs,
                         Py_ssize_t lo, const Gains *g, WlcsBuf *b, u64 *bits, Py_ssize_t bw) {
    double *v = b->v; /* the row above, then this row */
    i32 *rp = b->rp, *rr = b->rr, *dp = b->dp, *dc = b->dc;
    Py_ssize_t ndp = 0; /* the zero row never decreases */
    const double *gn = g->gn, *go = g->go;
    i32 prev_id = -1, prev2_id = -1;
    (void)cand;
    for (Py_ssize_t i = 0; i < nr; i++) {
        i32 id = ref[i];
        const i32 *m = NULL, *mend = NULL;
        if (id >= 0) {
            m = cs->cols + cs->start[id];
            mend = cs->cols + cs->start[id + 1];
            /* only the columns of this block: (lo, lo + nc] in 1-based candidate columns */
            while (m < mend && *m <= lo) m++;
        }
        int matches = m < mend && *m - lo <= nc;
        /* rr holds the runs of two rows back at that row's match columns: clear them */
        if (prev2_id >= 0) {
            const i32 *q = cs->cols + cs->start[prev2_id], *qend = cs->cols + cs->start[prev2_id + 1];
            for (; q < qend; q++) {
                Py_ssize_t j = *q - lo;
                if (j >= 1 && j <= nc) rr[j] = 0;
            }
        }
        u64 *brow = bits ? bits + i * bw : NULL;
        if (!matches && ndp == 0) {
            /* A row without a match is the running maximum of the row above; over a row
             * that never decreases that is the row itself, every cell's move "up" (up >= left):
             * keep the values, clear the runs. */
            if (prev_id >= 0) {
                const i32 *q = cs->cols + cs->start[prev_id], *qend = cs->cols + cs->start[prev_id + 1];
                for (; q < qend; q++) {
                    Py_ssize_t j = *q - lo;
                    if (j >= 1 && j <= nc) rp[j] = 0;
                }
            }
            if (brow) set_bit_range(brow, 1, nc + 1);
            prev_id = prev2_id = -1;
            continue;
        }
        double left = 0.0;
        double held = 0.0; /* the row above's value at the last match column (overwritten there) */
        const i32 *drop = dp, *dend = dp + ndp;
        Py_ssize_t ndc = 0;
        Py_ssize_t j = 1;
        for (;;) {
            Py_ssize_t mj = (m < mend && *m - lo <= nc) ? *m - lo : nc + 1;
            if (mj > nc) {
                running_max(v, j, mj, left, &drop, dend, brow);
                break;
            }
            double diag = mj - 1 >= j ? v[mj - 1] : held; /* the row above at mj - 1, before this row writes it */
            left = running_max(v, j, mj, left, &drop, dend, brow);
            i32 k = rp[mj - 1];
            double value = (diag + gn[k]) - go[k];
            if (value < left) dc[ndc++] = (i32)mj;
            held = v[mj];
            v[mj] = left = value;
            rr[mj] = k + 1;
            j = mj + 1;
            m++;
        }
        next_row(&rp, &rr, &dp, &dc);
        ndp = ndc;
        prev2_id = prev_id;
        prev_id = id;
    }
    double value = nr > 0 && nc > 0 ? v[nc] : 0.0;
    wbuf_done(b, rp, rr, dp, dc, nc);
    return value;
}

/* Trace back over the bits: appends (ref index, cand index) pairs in order to `out` (pairs
 * as 2 ints; reversed at the end). */
static int wlcs_trace(const i32 *ref, Py_ssize_t nr, const i32 *cand, Py_ssize_t nc, const u64 *bits, Py_ssize_t bw,
                      IVec *out) {
    Py_ssize_t start = out->n;
    Py_ssize_t i = nr, j = nc;
    while (i > 0 && j > 0) {
        if (ref[i - 1] >= 0 && ref[i - 1] == cand[j - 1]) {
            if (ivec_push(out, (i32)(j - 1)) < 0 || ivec_push(out, (i32)(i - 1)) < 0) return -1;
            i--;
            j--;
        } else if ((bits[(i - 1) * bw + (j >> 6)] >> (j & 63)) & 1) {
            i--;
        } else {
            j--;
        }
    }
    /* reverse to ascending order (pairs were pushed as (c, r), reversed they read (r, c)) */
    for (Py_ssize_t a = start, e = out->n - 1; a < e; a++, e--) {
        i32 tmp = out->v[a];
        out->v[a] = out->v[e];
        out->v[e] = tmp;
    }
    return 0;
}

/* The candidate sentences side by side, each behind a zero column (id -1): one sweep of a
 * reference sentence's rows computes its DP against every candidate sentence at once (a
 * zero column restarts the values, as the column 0 of a block's own DP). */
typedef struct {
    i32 *ids;          /* width: candidate ids, -1 at each sentence's zero column */
    Py_ssize_t width;
    i32 *col0;         /* per candidate sentence: its zero column (then its tokens) */
    Columns cs;        /* match columns (1-based positions in `ids`) per candidate id */
} Padded;

static void padded_free(Padded *p) {
    free(p->ids);
    free(p->col0);
    columns_free(&p->cs);
}

static int padded_init(Padded *p, const Tok *c) {
    memset(p, 0, sizeof(*p));
    p->width = c->n + c->nsent;
    p->ids = xmalloc((size_t)(p->width + 1) * sizeof(i32));
    p->col0 = xmalloc((size_t)(c->nsent + 1) * sizeof(i32));
    p->cs.start = xcalloc((size_t)c->nv + 2, sizeof(i32));
    p->cs.cols = xmalloc((size_t)(c->n + 1) * sizeof(i32));
    if (!p->ids || !p->col0 || !p->cs.start || !p->cs.cols) {
        padded_free(p);
        return -1;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t t = 0; t < c->nsent; t++) {
        p->col0[t] = (i32)at;
        p->ids[at++] = -1;
        for (Py_ssize_t i = c->bounds[2 * t]; i < c->bounds[2 * t + 1]; i++) p->ids[at++] = c->ids[i];
    }
    p->width = at;
    for (Py_ssize_t j = 0; j < at; j++)
        if (p->ids[j] >= 0) p->cs.start[p->ids[j] + 2]++;
    for (Py_ssize_t v = 0; v < c->nv; v++) p->cs.start[v + 2] += p->cs.start[v + 1];
    for (Py_ssize_t j = 0; j < at; j++)
        if (p->ids[j] >= 0) p->cs.cols[p->cs.start[p->ids[j] + 1]++] = (i32)j;
    return 0;
}

/* Rows `ref` (candidate ids or -1) over the padded columns; bits: rows x bw words, zeroed,
 * 1 where a cell (not a match, not a zero column) moves up. Buffers as wlcs_sweep's. */
static void wlcs_sweep_padded(const i32 *ref, Py_ssize_t nr, const Padded *p, Py_ssize_t nsent, const Gains *g,
                              WlcsBuf *b, u64 *bits, Py_ssize_t bw) {
    double *v = b->v; /* the row above, then this row (wlcs_sweep); zero columns stay 0 */
    i32 *rp = b->rp, *rr = b->rr, *dp = b->dp, *dc = b->dc;
    Py_ssize_t ndp = 0;
    const double *gn = g->gn, *go = g->go;
    const Columns *cs = &p->cs;
    Py_ssize_t width = p->width;
    i32 prev_id = -1, prev2_id = -1;
    for (Py_ssize_t i = 0; i < nr; i++) {
        i32 id = ref[i];
        const i32 *m = NULL, *mend = NULL;
        if (id >= 0) {
            m = cs->cols + cs->start[id];
            mend = cs->cols + cs->start[id + 1];
        }
        if (prev2_id >= 0)
            for (const i32 *q = cs->cols + cs->start[prev2_id]; q < cs->cols + cs->start[prev2_id + 1]; q++) rr[*q] = 0;
        u64 *brow = bits + i * bw;
        if (m == mend && ndp == 0) {
            /* no match over a row above that never decreases within a block: every cell moves
             * up and keeps its value (as in wlcs_sweep; the zero columns' bits are never read) */
            if (prev_id >= 0)
                for (const i32 *q = cs->cols + cs->start[prev_id]; q < cs->cols + cs->start[prev_id + 1]; q++) rp[*q] = 0;
            set_bit_range(brow, 0, width);
            prev_id = prev2_id = -1;
            continue;
        }
        Py_ssize_t t = 0, j = 0, ndc = 0;
        double left = 0.0, held = 0.0;
        const i32 *drop = dp, *dend = dp + ndp;
        for (;;) {
            Py_ssize_t next0 = t < nsent ? p->col0[t] : width;
            Py_ssize_t mj = m < mend ? *m : width;
            Py_ssize_t stop = next0 < mj ? next0 : mj;
            double diag = stop - 1 >= j ? v[stop - 1] : held; /* the row above at stop - 1 */
            left = running_max(v, j, stop, left, &drop, dend, brow);
            j = stop;
            if (stop >= width) break;
            if (stop == next0) { /* a zero column (always 0): the next block starts */
                held = 0.0;
                left = 0.0;
                t++;
            } else {
                i32 k = rp[j - 1];
                double value = (diag + gn[k]) - go[k];
                if (value < left) dc[ndc++] = (i32)j;
                held = v[j];
                v[j] = left = value;
                rr[j] = k + 1;
                m++;
            }
            j++;
        }
        next_row(&rp, &rr, &dp, &dc);
        ndp = ndc;
        prev2_id = prev_id;
        prev_id = id;
    }
    wbuf_done(b, rp, rr, dp, dc, width);
}

/* ROUGE-1.5.5's form: per reference sentence, every position aligned by its DP against some
 * candidate sentence -> the candidate position from the first such sentence
 * (rouge_core.wlcs._first_partners). partner: r->n entries (-1: none). */
static int wlcs_partners(const Tok *c, const Tok *r, const i32 *rows, const Gains *g, i32 *partner) {
    Padded p;
    WlcsBuf b = {0};
    u64 *bits = NULL;
    int rc = -1;
    if (padded_init(&p, c) < 0) return -1;
    Py_ssize_t longest_r = 0;
    for (Py_ssize_t s = 0; s < r->nsent; s++) {
        Py_ssize_t len = r->bounds[2 * s + 1] - r->bounds[2 * s];
        if (len > longest_r) longest_r = len;
    }
    Py_ssize_t bw = p.width / 64 + 1;
    if (wbuf_reserve(&b, p.width) < 0) goto done;
    bits = xmalloc((size_t)(longest_r * bw + 1) * sizeof(u64));
    if (!bits) goto done;
    for (Py_ssize_t i = 0; i < r->n; i++) partner[i] = -1;
    for (Py_ssize_t s = 0; s < r->nsent; s++) {
        Py_ssize_t ra = r->bounds[2 * s], nr = r->bounds[2 * s + 1] - ra;
        if (nr <= 0) continue;
        memset(bits, 0, (size_t)(nr * bw) * sizeof(u64));
        const i32 *ref = rows + ra;
        wlcs_sweep_padded(ref, nr, &p, c->nsent, g, &b, bits, bw);
        for (Py_ssize_t t = 0; t < c->nsent; t++) {
            Py_ssize_t c0 = p.col0[t], len = c->bounds[2 * t + 1] - c->bounds[2 * t];
            Py_ssize_t i = nr, j = c0 + len;
            while (i > 0 && j > c0) {
                if (ref[i - 1] >= 0 && ref[i - 1] == p.ids[j]) {
                    if (partner[ra + i - 1] < 0) partner[ra + i - 1] = (i32)(c->bounds[2 * t] + (j - c0 - 1));
                    i--;
                    j--;
                } else if ((bits[(i - 1) * bw + (j >> 6)] >> (j & 63)) & 1) {
                    i--;
                } else {
                    j--;
                }
            }
        }
    }
    rc = 0;
done:
    padded_free(&p);
    wbuf_free(&b);
    free(bits);
    return rc;
}

/* ROUGE-1.5.5's ROUGE-W statistics (rouge_core.wlcs.wlcs_rouge155 without evidence):
 * hits, and the reference base sum of f(|r_i|). */
static int wlcs_rouge155_stats(const Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, double w,
                               double *hits_out, double *base_out) {
    Py_ssize_t longest = 0;
    for (Py_ssize_t s = 0; s < r->nsent; s++) {
        Py_ssize_t len = r->bounds[2 * s + 1] - r->bounds[2 * s];
        if (len > longest) longest = len;
    }
    Gains g;
    if (gains_init(&g, w, longest) < 0) return -1;
    i32 *partner = xmalloc((size_t)r->n * sizeof(i32));
    i32 *cleft = xmalloc((size_t)c->nv * sizeof(i32));
    i32 *rleft = xmalloc((size_t)c->nv * sizeof(i32));
    int rc = -1;
    if (!partner || !cleft || !rleft || wlcs_partners(c, r, rows, &g, partner) < 0) goto done;
    memcpy(cleft, c->counts, (size_t)c->nv * sizeof(i32));
    memcpy(rleft, ref_count, (size_t)c->nv * sizeof(i32));
    double hits = 0.0, base = 0.0;
    for (Py_ssize_t s = 0; s < r->nsent; s++) {
        Py_ssize_t ra = r->bounds[2 * s], len = r->bounds[2 * s + 1] - ra;
        base += py_pow((double)len, w);
        Py_ssize_t current = 0;
        for (Py_ssize_t q = 0; q < len; q++) {
            if (partner[ra + q] < 0) continue;
            i32 id = rows[ra + q];
            if (!(cleft[id] > 0 && rleft[id] > 0)) continue;
            cleft[id]--;
            rleft[id]--;
            current++;
            if (q + 1 == len || partner[ra + q + 1] < 0) {
                hits += py_pow((double)current, w);
                current = 0;
            }
        }
    }
    *hits_out = hits;
    *base_out = base;
    rc = 0;
done:
    gains_free(&g);
    free(partner);
    free(cleft);
    free(rleft);
    return rc;
}

/* Lin's ROUGE-W: the DP value over the whole token lists (no traceback: two rows). */
static int wlcs_paper_value(const Tok *c, const i32 *rows, Py_ssize_t nr, double w, double *value) {
    Py_ssize_t nc = c->n;
    Py_ssize_t longest = nr < nc ? nr : nc;
    Gains g;
    Columns cs;
    WlcsBuf b = {0};
    if (gains_init(&g, w, longest) < 0) return -1;
    if (columns_init(&cs, c->ids, nc, c->nv) < 0) {
        gains_free(&g);
        return -1;
    }
    int rc = -1;
    if (wbuf_reserve(&b, nc) == 0) {
        *value = wlcs_sweep(rows, nr, c->ids, nc, &cs, 0, &g, &b, NULL, 0);
        rc = 0;
    }
    gains_free(&g);
    columns_free(&cs);
    wbuf_free(&b);
    return rc;
}

/* ------------------------------------------------------------------------------------------
 * Python objects: Tokens (a Tok), Layout (CandidateLayout's interface)
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Tok *tok;
    PyObject *owner;   /* what the terms' data lives in (the term tuple), or NULL */
    PyObject *terms;   /* the terms as a tuple of str (built on demand) */
    PyObject **strs;   /* per id, its str (built on demand) */
    /* the last join with a candidate, reused by the methods that read this reference */
    PyObject *joined;  /* the candidate Tokens, or NULL */
    i32 *rows;         /* n: candidate id per token, -1 for none */
    i32 *ref_count;    /* candidate nv: this document's count of each candidate id */
} TokensObject;

static PyTypeObject TokensType;

static void Tokens_dealloc(TokensObject *self) {
    if (self->strs) {
        for (Py_ssize_t v = 0; v < self->tok->nv; v++) Py_XDECREF(self->strs[v]);
        free(self->strs);
    }
    tok_free(self->tok);
    Py_XDECREF(self->owner);
    Py_XDECREF(self->terms);
    Py_XDECREF(self->joined);
    free(self->rows);
    free(self->ref_count);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static TokensObject *tokens_wrap(Tok *t, PyObject *owner) {
    TokensObject *o = PyObject_New(TokensObject, &TokensType);
    if (!o) {
        tok_free(t);
        return NULL;
    }
    o->tok = t;
    Py_XINCREF(owner);
    o->owner = owner;
    o->terms = NULL;
    o->strs = NULL;
    o->joined = NULL;
    o->rows = NULL;
    o->ref_count = NULL;
    return o;
}

static PyObject *term_str(TokensObject *self, i32 id) {
    if (!self->strs) {
        self->strs = xcalloc((size_t)self->tok->nv, sizeof(PyObject *));
        if (!self->strs) return PyErr_NoMemory();
    }
    PyObject *s = self->strs[id];
    if (!s) {
        const Term *q = &self->tok->terms[id];
        s = PyUnicode_FromKindAndData(q->kind, q->data, q->len);
        if (!s) return NULL;
        self->strs[id] = s;
    }
    return s;
}

/* A tuple of the terms of candidate ids ids[0..n). */
static PyObject *gram_tuple(TokensObject *c, const i32 *ids, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *s = term_str(c, ids[k]);
        if (!s) {
            Py_DECREF(t);
            return NULL;
        }
        Py_INCREF(s);
        PyTuple_SET_ITEM(t, k, s);
    }
    return t;
}

static PyObject *Tokens_terms(TokensObject *self, PyObject *unused) {
    if (!self->terms) {
        self->terms = gram_tuple(self, self->tok->ids, self->tok->n);
        if (!self->terms) return NULL;
    }
    Py_INCREF(self->terms);
    return self->terms;
}

/* `t` (a tuple of ints, str or such tuples; may be NULL) no longer tracked by the cyclic
 * garbage collector. It cannot be part of a cycle, and the collector would untrack it on its
 * first pass anyway (CPython's _PyTuple_MaybeUntrack); untracking it here spares that pass
 * over the tens of thousands of tuples evidence makes. */
static inline PyObject *untracked(PyObject *t) {
    if (t) PyObject_GC_UnTrack(t);
    return t;
}

/* (a, b) as a tuple of ints, without Py_BuildValue's format parsing (evidence makes many). */
static PyObject *int_pair(long a, long b) {
    PyObject *t = PyTuple_New(2);
    if (!t) return NULL;
    PyObject *x = PyLong_FromLong(a), *y = PyLong_FromLong(b);
    if (!x || !y) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, x);
    PyTuple_SET_ITEM(t, 1, y);
    return t;
}

/* The pairs (flat[2k], flat[2k + 1]), k < npairs, as int tuples in a list (as_list) or a tuple. */
static PyObject *int_pairs(const i32 *flat, Py_ssize_t npairs, int as_list) {
    PyObject *out = as_list ? PyList_New(npairs) : PyTuple_New(npairs);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < npairs; k++) {
        PyObject *pair = int_pair(flat[2 * k], flat[2 * k + 1]);
        if (!pair) {
            Py_DECREF(out);
            return NULL;
        }
        if (as_list)
            PyList_SET_ITEM(out, k, pair);
        else
            PyTuple_SET_ITEM(out, k, pair);
    }
    return out;
}

static PyObject *bounds_tuple(const Tok *t) { return int_pairs(t->bounds, t->nsent, 0); }

static PyObject *Tokens_bounds(TokensObject *self, PyObject *unused) { return bounds_tuple(self->tok); }

static Py_ssize_t Tokens_len(TokensObject *self) { return self->tok->n; }

static PyObject *Tokens_get_distinct(TokensObject *self, void *closure) { return PyLong_FromSsize_t(self->tok->nv); }

static PyObject *Tokens_get_sentences(TokensObject *self, void *closure) {
    return PyLong_FromSsize_t(self->tok->nsent);
}

static PyMethodDef Tokens_methods[] = {
    {"terms", (PyCFunction)Tokens_terms, METH_NOARGS, "The terms, a tuple of str."},
    {"bounds", (PyCFunction)Tokens_bounds, METH_NOARGS, "The sentence bounds, (start, end) token indices."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Tokens_getset[] = {
    {"distinct", (getter)Tokens_get_distinct, NULL, "how many distinct terms", NULL},
    {"sentences", (getter)Tokens_get_sentences, NULL, "how many sentences", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods Tokens_as_sequence = {.sq_length = (lenfunc)Tokens_len};

static PyTypeObject TokensType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_core._native.Tokens",
    .tp_basicsize = sizeof(TokensObject),
    .tp_dealloc = (destructor)Tokens_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One tokenized document: token ids, counts and sentence bounds.",
    .tp_methods = Tokens_methods,
    .tp_getset = Tokens_getset,
    .tp_as_sequence = &Tokens_as_sequence,
};

static PyObject *py_tokens(PyObject *mod, PyObject *args) {
    PyObject *terms, *bounds;
    if (!PyArg_ParseTuple(args, "O!O", &PyTuple_Type, &terms, &bounds)) return NULL;
    Tok *t = tok_from_terms(terms, bounds);
    if (!t) return NULL;
    TokensObject *o = tokens_wrap(t, terms);
    if (o) {
        Py_INCREF(terms);
        o->terms = terms;
    }
    return (PyObject *)o;
}

static PyObject *py_tokenize_ascii(PyObject *mod, PyObject *args) {
    PyObject *text;
    int lowercase;
    if (!PyArg_ParseTuple(args, "Up", &text, &lowercase)) return NULL;
    if (!PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_ValueError, "tokenize_ascii needs ASCII text");
        return NULL;
    }
    Tok *t = tokenize_ascii(PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), lowercase);
    if (!t) return PyErr_NoMemory();
    return (PyObject *)tokens_wrap(t, NULL);
}

/* The attribute names a native_document sets, interned once (module init). */
static PyObject *NAME_TEXT, *NAME_LCS_VIEW, *NAME_LAZY_ARGS, *NAME_MEMO;

/* A `cls` instance (a Document subclass of rouge_core.tokenize) of an ASCII text: the text, no
 * `-b` view, the tokenizer's settings and a memo holding, under `key`, the Tokens when given
 * (rouge_core.tokenize._NativeDocument reads its terms and sentence bounds from there on
 * demand). Made as `object.__new__(cls)` then `object.__setattr__` per attribute, as the
 * frozen dataclass's own __init__ does: the object's storage (a managed dict with inline
 * values since Python 3.13) stays CPython's business. */
static PyObject *native_document(PyTypeObject *cls, PyObject *text, PyObject *lazy_args, PyObject *key,
                                 PyObject *tokens) {
    static PyObject *no_args = NULL;
    if (!no_args && !(no_args = PyTuple_New(0))) return NULL;
    PyObject *memo = PyDict_New();
    PyObject *obj = NULL;
    if (!memo || (tokens && PyDict_SetItem(memo, key, tokens) < 0)) goto done;
    obj = PyBaseObject_Type.tp_new(cls, no_args, NULL);
    if (obj && (PyObject_GenericSetAttr(obj, NAME_TEXT, text) < 0 ||
                PyObject_GenericSetAttr(obj, NAME_LCS_VIEW, Py_None) < 0 ||
                PyObject_GenericSetAttr(obj, NAME_LAZY_ARGS, lazy_args) < 0 ||
                PyObject_GenericSetAttr(obj, NAME_MEMO, memo) < 0))
        Py_CLEAR(obj);
done:
    Py_XDECREF(memo);
    return obj;
}

/* ascii_document(cls, lowercase, lazy_args, key, text) -> native_document of the text,
 * tokenized here. */
static PyObject *py_ascii_document(PyObject *mod, PyObject *args) {
    PyTypeObject *cls;
    PyObject *text, *lazy_args, *key;
    int lowercase;
    if (!PyArg_ParseTuple(args, "O!pOOU", &PyType_Type, &cls, &lowercase, &lazy_args, &key, &text)) return NULL;
    if (!PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_ValueError, "ascii_document needs ASCII text");
        return NULL;
    }
    Tok *t = tokenize_ascii(PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), lowercase);
    if (!t) return PyErr_NoMemory();
    TokensObject *tokens = tokens_wrap(t, NULL);
    if (!tokens) return NULL;
    PyObject *obj = native_document(cls, text, lazy_args, key, (PyObject *)tokens);
    Py_DECREF(tokens);
    return obj;
}

/* The reference's tokens as candidate ids, and its counts per candidate id: computed once
 * per (candidate, reference) and kept on the reference until another candidate asks. */
static int tokens_join(TokensObject *c, TokensObject *r) {
    if (r->joined == (PyObject *)c) return 0;
    i32 *rows = xmalloc((size_t)r->tok->n * sizeof(i32));
    i32 *ref_count = xmalloc((size_t)c->tok->nv * sizeof(i32));
    if (!rows || !ref_count || join(c->tok, r->tok, rows, ref_count) < 0) {
        free(rows);
        free(ref_count);
        PyErr_NoMemory();
        return -1;
    }
    free(r->rows);
    free(r->ref_count);
    r->rows = rows;
    r->ref_count = ref_count;
    Py_INCREF(c);
    Py_XSETREF(r->joined, (PyObject *)c);
    return 0;
}

/* A sequence of terms (str; anything else matches nothing) as candidate ids. */
static i32 *rows_of_seq(const Tok *c, PyObject *seq, Py_ssize_t *n_out) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of terms");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    i32 *rows = xmalloc((size_t)n * sizeof(i32));
    if (!rows) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        Term q;
        if (PyUnicode_Check(items[i]) && term_of_str(items[i], &q) == 0)
            rows[i] = tok_find(c, &q);
        else
            rows[i] = -1;
    }
    Py_DECREF(fast);
    *n_out = n;
    return rows;
}

/* --- Layout ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    TokensObject *tokens;
    Lay *lay; /* owned by tokens->tok */
} LayoutObject;

static PyTypeObject LayoutType;

static void Layout_dealloc(LayoutObject *self) {
    Py_XDECREF(self->tokens);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static LayoutObject *layout_of_tokens(TokensObject *tokens) {
    Lay *l = tok_layout(tokens->tok);
    if (!l) {
        PyErr_NoMemory();
        return NULL;
    }
    LayoutObject *o = PyObject_New(LayoutObject, &LayoutType);
    if (!o) return NULL;
    Py_INCREF(tokens);
    o->tokens = tokens;
    o->lay = l;
    return o;
}

static PyObject *Layout_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *cand, *bounds;
    static char *kwlist[] = {"cand", "bounds", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &cand, &bounds)) return NULL;
    PyObject *terms = PySequence_Tuple(cand);
    if (!terms) return NULL;
    Tok *t = tok_from_terms(terms, bounds);
    if (!t) {
        Py_DECREF(terms);
        return NULL;
    }
    TokensObject *tokens = tokens_wrap(t, terms);
    if (tokens) {
        tokens->terms = terms; /* the reference moves here */
    } else {
        Py_DECREF(terms);
        return NULL;
    }
    LayoutObject *o = layout_of_tokens(tokens);
    Py_DECREF(tokens);
    return (PyObject *)o;
}

static PyObject *py_layout_of(PyObject *mod, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, &TokensType)) {
        PyErr_SetString(PyExc_TypeError, "layout_of needs Tokens");
        return NULL;
    }
    return (PyObject *)layout_of_tokens((TokensObject *)arg);
}

static PyObject *Layout_lcs_length(LayoutObject *self, PyObject *seq) {
    Py_ssize_t n;
    i32 *rows = rows_of_seq(self->tokens->tok, seq, &n);
    if (!rows) return NULL;
    u64 *work = xmalloc((size_t)self->lay->W * sizeof(u64));
    if (!work) {
        free(rows);
        return PyErr_NoMemory();
    }
    Py_ssize_t len = lay_lcs_length(self->lay, rows, n, work);
    free(rows);
    free(work);
    return PyLong_FromSsize_t(len);
}

static PyObject *Layout_sentence_lcs_lengths(LayoutObject *self, PyObject *seq) {
    Py_ssize_t n;
    i32 *rows = rows_of_seq(self->tokens->tok, seq, &n);
    if (!rows) return NULL;
    Lay *l = self->lay;
    u64 *work = xmalloc((size_t)l->W * sizeof(u64));
    Py_ssize_t *out = xmalloc((size_t)l->nsent * sizeof(Py_ssize_t));
    PyObject *list = NULL;
    if (!work || !out) {
        PyErr_NoMemory();
        goto done;
    }
    lay_sentence_lengths(l, rows, n, work, out);
    list = PyList_New(l->nsent);
    if (!list) goto done;
    for (Py_ssize_t s = 0; s < l->nsent; s++) {
        PyObject *v = PyLong_FromSsize_t(out[s]);
        if (!v) {
            Py_CLEAR(list);
            goto done;
        }
        PyList_SET_ITEM(list, s, v);
    }
done:
    free(rows);
    free(work);
    free(out);
    return list;
}

static PyObject *Layout_unigram_hits(LayoutObject *self, PyObject *seq) {
    Py_ssize_t n;
    Lay *l = self->lay;
    i32 *rows = rows_of_seq(self->tokens->tok, seq, &n);
    if (!rows) return NULL;
    i32 *seen = xcalloc((size_t)l->nv, sizeof(i32));
    if (!seen) {
        free(rows);
        return PyErr_NoMemory();
    }
    long long hits = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        i32 id = rows[i];
        if (id >= 0 && seen[id] < l->cnt[id]) {
            seen[id]++;
            hits++;
        }
    }
    free(rows);
    free(seen);
    return PyLong_FromLongLong(hits);
}

/* Parse (start, end) bounds into an int array (2 per sentence). */
static i32 *bounds_of(PyObject *bounds, Py_ssize_t limit, Py_ssize_t *m_out) {
    PyObject *seq = PySequence_Fast(bounds, "bounds must be a sequence of (start, end)");
    if (!seq) return NULL;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    i32 *out = xmalloc((size_t)(2 * m) * sizeof(i32));
    if (!out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t a, e;
        if (!PyArg_ParseTuple(PySequence_Fast_ITEMS(seq)[k], "nn", &a, &e)) goto fail;
        if (a < 0 || e < a || e > limit) {
            PyErr_SetString(PyExc_ValueError, "sentence bounds out of range");
            goto fail;
        }
        out[2 * k] = (i32)a;
        out[2 * k + 1] = (i32)e;
    }
    Py_DECREF(seq);
    *m_out = m;
    return out;
fail:
    Py_DECREF(seq);
    free(out);
    return NULL;
}

/* The traceback of every sentence of `bounds` (last first, as the pure path): found
 * positions ascending; with `diag`, the walker bits of each found row, ascending too. */
static int layout_trace(Lay *l, const i32 *rows, const i32 *bounds, Py_ssize_t m, IVec *found, UVec *diag) {
    TraceBuf b;
    if (trace_init(&b, l->W) < 0) return -1;
    for (Py_ssize_t k = m - 1; k >= 0; k--) {
        Py_ssize_t a = bounds[2 * k], e = bounds[2 * k + 1];
        if (lay_traceback(l, rows + a, a, e - a, &b, found, diag) < 0) {
            trace_free(&b);
            return -1;
        }
    }
    trace_free(&b);
    /* reverse: rows were appended bottom-up */
    for (Py_ssize_t a = 0, e = found->n - 1; a < e; a++, e--) {
        i32 t = found->v[a];
        found->v[a] = found->v[e];
        found->v[e] = t;
    }
    if (diag) {
        Py_ssize_t W = l->W, rowsn = found->n;
        u64 *tmp = xmalloc((size_t)W * sizeof(u64));
        if (!tmp) return -1;
        for (Py_ssize_t a = 0, e = rowsn - 1; a < e; a++, e--) {
            memcpy(tmp, diag->v + a * W, (size_t)W * sizeof(u64));
            memcpy(diag->v + a * W, diag->v + e * W, (size_t)W * sizeof(u64));
            memcpy(diag->v + e * W, tmp, (size_t)W * sizeof(u64));
        }
        free(tmp);
    }
    return 0;
}

static PyObject *ivec_list(const IVec *v) {
    PyObject *list = PyList_New(v->n);
    if (!list) return NULL;
    for (Py_ssize_t k = 0; k < v->n; k++) {
        PyObject *x = PyLong_FromLong(v->v[k]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, x);
    }
    return list;
}

/* Evidence builds many small objects that hold no cycles: the cyclic garbage collector is
 * paused meanwhile (it would scan them again and again as they accumulate), and the ints
 * 0..n-1 are made once per call. */
typedef struct {
    PyObject **v;
    Py_ssize_t n;
    int gc_was_enabled;
} Ints;

static int ints_init(Ints *t, Py_ssize_t n) {
    t->gc_was_enabled = PyGC_Disable();
    t->n = n;
    t->v = xcalloc((size_t)n + 1, sizeof(PyObject *));
    if (!t->v) {
        if (t->gc_was_enabled) PyGC_Enable();
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* A new reference to the int k (k < n). */
static PyObject *ints_get(Ints *t, Py_ssize_t k) {
    if (k < 0 || k >= t->n) return PyLong_FromSsize_t(k);
    if (!t->v[k]) {
        t->v[k] = PyLong_FromSsize_t(k);
        if (!t->v[k]) return NULL;
    }
    Py_INCREF(t->v[k]);
    return t->v[k];
}

static void ints_free(Ints *t) {
    if (t->v)
        for (Py_ssize_t k = 0; k < t->n; k++) Py_XDECREF(t->v[k]);
    free(t->v);
    t->v = NULL;
    if (t->gc_was_enabled) PyGC_Enable();
}

static PyObject *ints_pair(Ints *t, Py_ssize_t a, Py_ssize_t b) {
    PyObject *x = ints_get(t, a), *y = ints_get(t, b);
    PyObject *pair = x && y ? PyTuple_New(2) : NULL;
    if (!pair) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        return NULL;
    }
    PyTuple_SET_ITEM(pair, 0, x);
    PyTuple_SET_ITEM(pair, 1, y);
    return pair;
}

/* alignments[s_index].append((i - offset, column)) for each walker bit, as
 * CandidateLayout._record does (bits from the low mirrored end). */
static int record_alignments(Lay *l, const IVec *found, const UVec *diag, Py_ssize_t offset, PyObject *alignments) {
    Py_ssize_t W = l->W, top = 64 * W - 1;
    if (lay_columns(l) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < found->n; k++) {
        const u64 *d = diag->v + k * W;
        for (Py_ssize_t w = 0; w < W; w++) {
            u64 bits = d[w];
            while (bits) {
                int low = __builtin_ctzll(bits);
                bits &= bits - 1;
                Py_ssize_t q = 64 * w + low, col = top - q;
                PyObject *key = PyLong_FromLong(l->col_sent[col]);
                if (!key) return -1;
                PyObject *list = PyDict_GetItemWithError(alignments, key);
                if (!list) {
                    if (PyErr_Occurred()) {
                        Py_DECREF(key);
                        return -1;
                    }
                    list = PyList_New(0);
                    if (!list || PyDict_SetItem(alignments, key, list) < 0) {
                        Py_XDECREF(list);
                        Py_DECREF(key);
                        return -1;
                    }
                    Py_DECREF(list);
                }
                Py_DECREF(key);
                PyObject *pair = int_pair((long)(found->v[k] - offset), l->col_pos[col]);
                if (!pair || PyList_Append(list, pair) < 0) {
                    Py_XDECREF(pair);
                    return -1;
                }
                Py_DECREF(pair);
            }
        }
    }
    return 0;
}

static PyObject *layout_positions(LayoutObject *self, PyObject *ref, PyObject *bounds, PyObject *alignments) {
    Py_ssize_t n, m;
    Lay *l = self->lay;
    i32 *rows = rows_of_seq(self->tokens->tok, ref, &n);
    if (!rows) return NULL;
    i32 *bnd = bounds ? bounds_of(bounds, n, &m) : NULL;
    i32 single[2] = {0, (i32)n};
    if (!bounds) {
        bnd = single;
        m = 1;
    } else if (!bnd) {
        free(rows);
        return NULL;
    }
    IVec found = {0};
    UVec diag = {0};
    PyObject *out = NULL;
    int want = alignments != NULL && alignments != Py_None;
    if (layout_trace(l, rows, bnd, m, &found, want ? &diag : NULL) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (want && m > 0 && record_alignments(l, &found, &diag, bnd[0], alignments) < 0) goto done;
    out = ivec_list(&found);
done:
    free(rows);
    if (bnd != single) free(bnd);
    free(found.v);
    free(diag.v);
    return out;
}

static PyObject *Layout_union_positions(LayoutObject *self, PyObject *args) {
    PyObject *ref, *alignments = NULL;
    if (!PyArg_ParseTuple(args, "O|O", &ref, &alignments)) return NULL;
    return layout_positions(self, ref, NULL, alignments);
}

static PyObject *Layout_union_positions_of(LayoutObject *self, PyObject *args) {
    PyObject *ref, *bounds, *alignments = NULL;
    if (!PyArg_ParseTuple(args, "OO|O", &ref, &bounds, &alignments)) return NULL;
    return layout_positions(self, ref, bounds, alignments);
}

static PyObject *Layout_alignments(LayoutObject *self, PyObject *ref) {
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    PyObject *pos = layout_positions(self, ref, NULL, out);
    if (!pos) {
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(pos);
    return out;
}

static PyObject *Layout_union_hits(LayoutObject *self, PyObject *args) {
    PyObject *ref, *bounds;
    if (!PyArg_ParseTuple(args, "OO", &ref, &bounds)) return NULL;
    Py_ssize_t n, m;
    Lay *l = self->lay;
    i32 *rows = rows_of_seq(self->tokens->tok, ref, &n);
    if (!rows) return NULL;
    i32 *bnd = bounds_of(bounds, n, &m);
    if (!bnd) {
        free(rows);
        return NULL;
    }
    IVec found = {0};
    PyObject *out = NULL;
    i32 *seen = xcalloc((size_t)l->nv, sizeof(i32));
    if (!seen || layout_trace(l, rows, bnd, m, &found, NULL) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    long long hits = 0;
    for (Py_ssize_t k = 0; k < found.n; k++) {
        i32 id = rows[found.v[k]];
        if (seen[id] < l->cnt[id]) {
            seen[id]++;
            hits++;
        }
    }
    out = PyLong_FromLongLong(hits);
done:
    free(rows);
    free(bnd);
    free(found.v);
    free(seen);
    return out;
}

static PyObject *Layout_get_sentences(LayoutObject *self, void *closure) { return PyLong_FromSsize_t(self->lay->nsent); }

static PyMethodDef Layout_methods[] = {
    {"lcs_length", (PyCFunction)Layout_lcs_length, METH_O, "LCS of seq with the candidate tokens as one sequence."},
    {"sentence_lcs_lengths", (PyCFunction)Layout_sentence_lcs_lengths, METH_O, "LCS of seq with each sentence."},
    {"unigram_hits", (PyCFunction)Layout_unigram_hits, METH_O, "ROUGE-1 hits of seq against the candidate."},
    {"union_positions", (PyCFunction)Layout_union_positions, METH_VARARGS, "Union LCS positions of one sentence."},
    {"union_positions_of", (PyCFunction)Layout_union_positions_of, METH_VARARGS, "Union LCS positions per sentence."},
    {"union_hits", (PyCFunction)Layout_union_hits, METH_VARARGS, "Summary-level LCS hits."},
    {"alignments", (PyCFunction)Layout_alignments, METH_O, "Aligned pairs per candidate sentence."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Layout_getset[] = {
    {"sentences", (getter)Layout_get_sentences, NULL, "how many sentences", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject LayoutType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_core._native.Layout",
    .tp_basicsize = sizeof(LayoutObject),
    .tp_dealloc = (destructor)Layout_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "rouge_core.bitparallel_lcs.CandidateLayout, compiled: Layout(cand, bounds).",
    .tp_methods = Layout_methods,
    .tp_getset = Layout_getset,
    .tp_new = Layout_new,
};

/* ------------------------------------------------------------------------------------------
 * the statistics of one method on one pair (rouge_core.methods: Family.compute without
 * evidence), and the scores they give (rouge_core.scoring.score_from_stats)
 * ---------------------------------------------------------------------------------------- */

enum { K_NGRAM = 1, K_LCS = 2, K_UNION = 3, K_WPAPER = 4, K_W155 = 5, K_SKIP = 6 };

typedef struct {
    int code;
    long long a, b; /* N: n; S/SU: distance (-1: unlimited), unigram form */
    double w;       /* W: the weight */
} KPlan;

typedef struct {
    double hits, ct, rt, exponent;
    int floats;    /* ROUGE-W: float statistics; the others count */
    double base;   /* ROUGE-W: Stats.ref_base, the reference total before its weighting */
    int base_kind; /* BASE_NONE (None), BASE_INT (|r|, the paper's form), BASE_FLOAT (Σ f(|r_i|)) */
} KStats;
enum { BASE_NONE = 0, BASE_INT = 1, BASE_FLOAT = 2 };

/* Per-call working memory for one candidate. */
typedef struct {
    TraceBuf trace;
    IVec found;
    i32 *scratch; /* candidate nv counters, kept at zero */
    Py_ssize_t scratch_n;
    /* compact_lcs: per candidate id its shared index, the shared ids' bit masks, the row */
    i32 *shared;
    u64 *masks, *row;
    Py_ssize_t shared_cap, masks_cap, row_cap;
} KWork;

/* *buf with room for `need` elements of `size` bytes (its contents are not kept). */
static void *grow_buffer(void **buf, Py_ssize_t *cap, Py_ssize_t need, size_t size) {
    if (need > *cap) {
        Py_ssize_t grown = need > 2 * *cap ? need : 2 * *cap;
        free(*buf);
        *buf = xmalloc((size_t)grown * size);
        *cap = *buf ? grown : 0;
    }
    return *buf;
}

/* The LCS length of candidate c and the reference `rows` (candidate ids, -1 for a token the
 * candidate lacks; ref_count: per candidate id, how often the reference has it), with the
 * bit-parallel row update over only the candidate tokens the reference has: the others can be
 * on no common subsequence, so leaving them out changes no length, and the rows are fewer
 * words long than the candidate layout's (which this does not build). -1 on no memory. */
static Py_ssize_t compact_lcs(const Tok *c, const i32 *rows, Py_ssize_t nr, const i32 *ref_count, KWork *w) {
    i32 *shared = grow_buffer((void **)&w->shared, &w->shared_cap, c->nv + 1, sizeof(i32));
    if (!shared) return -1;
    Py_ssize_t ns = 0, width = 0;
    for (Py_ssize_t v = 0; v < c->nv; v++) shared[v] = ref_count[v] > 0 ? (i32)ns++ : -1;
    for (Py_ssize_t i = 0; i < c->n; i++) width += shared[c->ids[i]] >= 0;
    if (!width) return 0;
    Py_ssize_t W = (width + 63) / 64;
    u64 *masks = grow_buffer((void **)&w->masks, &w->masks_cap, ns * W, sizeof(u64));
    u64 *row = grow_buffer((void **)&w->row, &w->row_cap, W, sizeof(u64));
    if (!masks || !row) return -1;
    memset(masks, 0, (size_t)(ns * W) * sizeof(u64));
    Py_ssize_t bit = 0;
    for (Py_ssize_t i = 0; i < c->n; i++) {
        i32 s = shared[c->ids[i]];
        if (s >= 0) setbit(masks + (Py_ssize_t)s * W, bit++);
    }
    u64 top_keep = width % 64 ? ((u64)1 << (width % 64)) - 1 : ~(u64)0;
    for (Py_ssize_t k = 0; k + 1 < W; k++) row[k] = ~(u64)0;
    row[W - 1] = top_keep;
    for (Py_ssize_t i = 0; i < nr; i++)
        if (rows[i] >= 0) lcs_row_every(row, masks + (Py_ssize_t)shared[rows[i]] * W, top_keep, W);
    return width - popcount_vec(row, W);
}

/* Make `k` (zeroed at first) ready for candidate c: buffers grow, never shrink (the trace
 * buffers to a layout's width when a method needs one). */
static int kwork_ready(KWork *k, const Tok *c) {
    if (trace_width(&k->trace, 1) < 0) return -1;
    if (c->nv + 1 > k->scratch_n) {
        free(k->scratch);
        k->scratch_n = c->nv + 1 > 2 * k->scratch_n ? c->nv + 1 : 2 * k->scratch_n;
        k->scratch = xcalloc((size_t)k->scratch_n, sizeof(i32));
        if (!k->scratch) {
            k->scratch_n = 0;
            return -1;
        }
    }
    return 0;
}

static void kwork_free(KWork *k) {
    trace_free(&k->trace);
    free(k->found.v);
    free(k->scratch);
    free(k->shared);
    free(k->masks);
    free(k->row);
    memset(k, 0, sizeof(*k));
}

/* The working memory of the calls made with the GIL held (never released in between, and
 * not used while Python code runs): kept from call to call. */
static KWork SHARED_WORK;

static const unsigned char START_TOKEN[] = "<s>";

/* Skip-bigram statistics (rouge_core.skipgram.skip_stats). */
static int skip_stats_ids(const Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, long long distance,
                          int form, KStats *out) {
    Py_ssize_t nc = c->n, nr = r->n;
    if (form != SU_START) {
        char *common = xmalloc((size_t)c->nv + 1);
        if (!common) return -1;
        for (Py_ssize_t v = 0; v < c->nv; v++) common[v] = ref_count[v] > 0;
        int unigrams = form == SU_ROUGE155;
        long long hits = skip_hits(c->ids, nc, rows, nr, common, distance, unigrams);
        free(common);
        if (hits < 0) return -1;
        out->hits = (double)hits;
        out->ct = (double)skip_total(nc, distance, unigrams);
        out->rt = (double)skip_total(nr, distance, unigrams);
        return 0;
    }
    /* MATLAB's form: a start token in front of each non-empty side; the start token is the
     * string "<s>", so a typed "<s>" token is the same gram item */
    Term st = term_make(START_TOKEN, 3, 1);
    i32 start = tok_find(c, &st);
    Py_ssize_t nv = c->nv;
    if (start < 0) start = (i32)nv++;
    i32 ref_start = tok_find(r, &st);
    Py_ssize_t sc = nc ? nc + 1 : 0, sr = nr ? nr + 1 : 0;
    i32 *src = xmalloc((size_t)(sc + 1) * sizeof(i32));
    i32 *rsrc = xmalloc((size_t)(sr + 1) * sizeof(i32));
    char *common = xcalloc((size_t)nv + 1, 1);
    long long hits = -1;
    if (!src || !rsrc || !common) goto done;
    if (nc) {
        src[0] = start;
        memcpy(src + 1, c->ids, (size_t)nc * sizeof(i32));
    }
    if (nr) {
        rsrc[0] = start;
        for (Py_ssize_t i = 0; i < nr; i++) rsrc[i + 1] = (ref_start >= 0 && r->ids[i] == ref_start) ? start : rows[i];
    }
    for (Py_ssize_t i = 0; i < sr; i++)
        if (rsrc[i] >= 0) common[rsrc[i]] = 1;
    hits = skip_hits(src, sc, rsrc, sr, common, distance, 0);
done:
    free(src);
    free(rsrc);
    free(common);
    if (hits < 0) return -1;
    out->hits = (double)hits;
    out->ct = (double)skip_total(sc, distance, 0);
    out->rt = (double)skip_total(sr, distance, 0);
    return 0;
}

/* No GIL needed. Returns -1 on no memory. */
static int pair_stats(Tok *c, Tok *r, const i32 *rows, const i32 *ref_count, const KPlan *k, KWork *work,
                      KStats *out) {
    Py_ssize_t nc = c->n, nr = r->n;
    out->exponent = 1.0;
    out->floats = 0;
    out->base = 0.0;
    out->base_kind = BASE_NONE;
    switch (k->code) {
    case K_NGRAM: {
        Py_ssize_t n = (Py_ssize_t)k->a;
        long long hits = ngram_hits(c, rows, nr, ref_count, n);
        if (hits < 0) return -1;
        out->hits = (double)hits;
        out->ct = (double)(nc - n + 1 > 0 ? nc - n + 1 : 0);
        out->rt = (double)(nr - n + 1 > 0 ? nr - n + 1 : 0);
        return 0;
    }
    case K_LCS:
        if (!c->layout) { /* the layout is built for union LCS and evidence only */
            Py_ssize_t hits = compact_lcs(c, rows, nr, ref_count, work);
            if (hits < 0) return -1;
            out->hits = (double)hits;
            out->ct = (double)nc;
            out->rt = (double)nr;
            return 0;
        }
        /* fall through */
    case K_UNION: {
        Lay *l = tok_layout(c); /* built on the first method that needs it */
        if (!l || trace_width(&work->trace, l->W) < 0) return -1;
        Py_ssize_t hits;
        if (k->code == K_LCS) {
            hits = lay_lcs_length(l, rows, nr, work->trace.v);
        } else {
            hits = union_hits(l, r, rows, &work->trace, &work->found, work->scratch);
            if (hits < 0) return -1;
        }
        out->hits = (double)hits;
        out->ct = (double)nc;
        out->rt = (double)nr;
        return 0;
    }
    case K_WPAPER: {
        double value;
        if (wlcs_paper_value(c, rows, nr, k->w, &value) < 0) return -1;
        out->floats = 1;
        out->hits = value;
        out->ct = py_pow((double)nc, k->w);
        out->rt = py_pow((double)nr, k->w);
        out->exponent = 1.0 / k->w;
        out->base = (double)nr;
        out->base_kind = BASE_INT;
        return 0;
    }
    case K_W155: {
        double hits, base;
        if (wlcs_rouge155_stats(c, r, rows, ref_count, k->w, &hits, &base) < 0) return -1;
        out->floats = 1;
        out->hits = hits;
        out->ct = py_pow((double)nc, k->w);
        out->rt = py_pow(base, k->w);
        out->exponent = 1.0 / k->w;
        out->base = base;
        out->base_kind = BASE_FLOAT;
        return 0;
    }
    case K_SKIP:
        return skip_stats_ids(c, r, rows, ref_count, k->a, (int)k->b, out);
    }
    return -1;
}

/* rouge_core.stats: Stats.precision / recall (_ratio) and f_measure, the same operations. */
#define W_ROUNDING 1e-11 /* rouge_core.stats.W_ROUNDING */
static double ratio_of(double hits, double total, double exponent) {
    if (total <= 0) return 0.0;
    double ratio = hits / total;
    if (exponent == 1.0) return ratio;
    ratio = py_pow(ratio, exponent);
    return ratio < 1.0 - W_ROUNDING ? ratio : 1.0;
}

static double f_measure(double p, double r, double alpha) {
    if (p != p || r != r) return Py_NAN;
    if (alpha == 0.5) {
        double total = p + r;
        return total > 0 ? 2 * p * r / total : 0.0;
    }
    double denominator = (1 - alpha) * p + alpha * r;
    return denominator > 0 ? p * r / denominator : 0.0;
}

static void score_of(const KStats *s, double alpha, int empty_nan, double *p, double *r, double *f) {
    *p = ratio_of(s->hits, s->ct, s->exponent);
    *r = ratio_of(s->hits, s->rt, s->exponent);
    if (empty_nan) {
        if (s->ct <= 0) *p = Py_NAN;
        if (s->rt <= 0) *r = Py_NAN;
    }
    *f = f_measure(*p, *r, alpha);
}

/* ------------------------------------------------------------------------------------------
 * result records (rouge_core.stats.Stats / Score, rouge_core.scoring.ReferenceScore /
 * MethodScore; the evidence rows), slotted dataclasses made here as their __init__ makes them
 * (it only stores the fields): allocated, then each field stored through its slot's descriptor
 * (what `self.field = value` does), never by writing into the object's memory
 * ---------------------------------------------------------------------------------------- */

#define RECORD_FIELDS 8

typedef struct {
    PyTypeObject *type;
    PyObject *field[RECORD_FIELDS]; /* the class's descriptor of each field */
    descrsetfunc set[RECORD_FIELDS]; /* and its __set__ */
    int nfields;
} Record;

static Record R_STATS, R_SCORE, R_REFSCORE, R_METHODSCORE;
static PyObject *ONLY_REFERENCE; /* the reason a single reference is chosen */
static PyObject *FLOAT_ONE;      /* Stats.exponent's default */
static int records_ready = 0;

static void record_clear(Record *rec) {
    for (int k = 0; k < rec->nfields; k++) Py_CLEAR(rec->field[k]);
    Py_CLEAR(rec->type);
    rec->nfields = 0;
}

static int record_init(Record *rec, PyObject *cls, const char *const *names) {
    record_clear(rec);
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "expected a class");
        return -1;
    }
    rec->type = (PyTypeObject *)cls;
    Py_INCREF(cls);
    for (int k = 0; names[k]; k++) {
        if (k == RECORD_FIELDS) {
            PyErr_SetString(PyExc_TypeError, "too many fields");
            return -1;
        }
        PyObject *d = PyObject_GetAttrString(cls, names[k]);
        if (!d) return -1;
        descrsetfunc set = Py_TYPE(d)->tp_descr_set;
        if (!set) { /* a class default, not a slot: the field would not be stored on the instance */
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", ((PyTypeObject *)cls)->tp_name, names[k]);
            return -1;
        }
        rec->field[k] = d;
        rec->set[k] = set;
        rec->nfields++;
    }
    return 0;
}

/* A new record with its fields (references stolen; NULL values are an error). */
static PyObject *record_new(const Record *rec, PyObject **values) {
    int ok = 1;
    for (int k = 0; k < rec->nfields; k++) ok &= values[k] != NULL;
    PyObject *obj = ok ? rec->type->tp_alloc(rec->type, 0) : NULL;
    for (int k = 0; k < rec->nfields; k++) {
        if (obj && rec->set[k](rec->field[k], obj, values[k]) < 0) Py_CLEAR(obj);
        Py_XDECREF(values[k]);
    }
    return obj;
}

static PyObject *py_configure(PyObject *mod, PyObject *args) {
    PyObject *stats, *score, *refscore, *methodscore, *only;
    if (!PyArg_ParseTuple(args, "OOOOU", &stats, &score, &refscore, &methodscore, &only)) return NULL;
    static const char *const f_stats[] = {"hits", "cand_total", "ref_total", "exponent", "ref_base", NULL};
    static const char *const f_score[] = {"precision", "recall", "fmeasure", NULL};
    static const char *const f_ref[] = {"index", "stats", "score", "evidence", NULL};
    static const char *const f_method[] = {"method", "score", "per_reference", "chosen", "reason", "stats",
                                           "signature", NULL};
    if (record_init(&R_STATS, stats, f_stats) < 0 || record_init(&R_SCORE, score, f_score) < 0 ||
        record_init(&R_REFSCORE, refscore, f_ref) < 0 || record_init(&R_METHODSCORE, methodscore, f_method) < 0)
        return NULL;
    Py_INCREF(only);
    Py_XSETREF(ONLY_REFERENCE, only);
    records_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *number(double v, int floats) {
    return floats ? PyFloat_FromDouble(v) : PyLong_FromLongLong((long long)v);
}

static PyObject *base_value(const KStats *s) {
    if (s->base_kind == BASE_NONE) Py_RETURN_NONE;
    return s->base_kind == BASE_INT ? PyLong_FromLongLong((long long)s->base) : PyFloat_FromDouble(s->base);
}

static PyObject *stats_record(const KStats *s) {
    PyObject *v[5] = {number(s->hits, s->floats), number(s->ct, s->floats), number(s->rt, s->floats),
                      s->exponent == 1.0 ? (Py_INCREF(FLOAT_ONE), FLOAT_ONE) : PyFloat_FromDouble(s->exponent),
                      base_value(s)};
    return record_new(&R_STATS, v);
}

/* ReferenceScore(index, stats, score, None); the score from `score_fn(stats)` when given (the
 * rounding forms), else `prf` (P, R, F computed already) or computed here. New references to
 * the Stats and the Score are left in *stats_out and *score_out. */
static PyObject *refscore_record(Py_ssize_t index, const KStats *s, const double *prf, double alpha, int empty_nan,
                                 PyObject *score_fn, PyObject **stats_out, PyObject **score_out) {
    PyObject *stats = stats_record(s);
    if (!stats) return NULL;
    PyObject *score;
    if (score_fn != Py_None) {
        score = PyObject_CallOneArg(score_fn, stats);
    } else {
        double v3[3];
        if (!prf) {
            score_of(s, alpha, empty_nan, &v3[0], &v3[1], &v3[2]);
            prf = v3;
        }
        PyObject *v[3] = {PyFloat_FromDouble(prf[0]), PyFloat_FromDouble(prf[1]), PyFloat_FromDouble(prf[2])};
        score = record_new(&R_SCORE, v);
    }
    if (!score) {
        Py_DECREF(stats);
        return NULL;
    }
    *stats_out = stats;
    *score_out = score;
    Py_INCREF(stats);
    Py_INCREF(score);
    Py_INCREF(Py_None);
    PyObject *v[4] = {PyLong_FromSsize_t(index), stats, score, Py_None};
    return record_new(&R_REFSCORE, v);
}

/* The records of one plan against every reference: with one reference, its MethodScore (the
 * reference chosen as the only one) stored in `out` (a dict) under the plan's name; with
 * several, the tuple of ReferenceScores stored at `out`[k] (a list). prf: per reference, P R F
 * computed already (or NULL). */
typedef struct Plan Plan;
static int plan_records(const Plan *plan, Py_ssize_t k, const KStats *stats, const double *prf, Py_ssize_t nrefs,
                        double alpha, int empty_nan, PyObject *score_fn, PyObject *out);

/* Plans: a tuple of (code, a, b, w, method, name, signature). */
struct Plan {
    KPlan k;
    PyObject *method, *name, *sig; /* borrowed */
};

static int plan_records(const Plan *plan, Py_ssize_t k, const KStats *stats, const double *prf, Py_ssize_t nrefs,
                        double alpha, int empty_nan, PyObject *score_fn, PyObject *out) {
    PyObject *per = PyTuple_New(nrefs), *st0 = NULL, *sc0 = NULL;
    if (!per) return -1;
    for (Py_ssize_t i = 0; i < nrefs; i++) {
        PyObject *st, *sc;
        PyObject *ref = refscore_record(i, &stats[i], prf ? prf + 3 * i : NULL, alpha, empty_nan, score_fn, &st, &sc);
        if (!ref) {
            Py_XDECREF(st0);
            Py_XDECREF(sc0);
            Py_DECREF(per);
            return -1;
        }
        if (i == 0) {
            st0 = st;
            sc0 = sc;
        } else {
            Py_DECREF(st);
            Py_DECREF(sc);
        }
        PyTuple_SET_ITEM(per, i, ref);
    }
    if (nrefs != 1) {
        Py_XDECREF(st0);
        Py_XDECREF(sc0);
        PyList_SET_ITEM(out, k, per);
        return 0;
    }
    Py_INCREF(plan->method);
    Py_INCREF(ONLY_REFERENCE);
    Py_INCREF(plan->sig);
    PyObject *v[7] = {plan->method, sc0, per, PyLong_FromLong(0), ONLY_REFERENCE, st0, plan->sig};
    PyObject *ms = record_new(&R_METHODSCORE, v);
    int rc = ms ? PyDict_SetItem(out, plan->name, ms) : -1;
    Py_XDECREF(ms);
    return rc;
}

typedef struct {
    PyObject_HEAD
    Plan *p;
    Py_ssize_t n;
    PyObject *source; /* the tuple the plans were read from (their objects live there) */
} PlansObject;

static PyTypeObject PlansType;

static Plan *plans_parse(PyObject *plans, Py_ssize_t *n_out);

/* The plans of a Plans object (not copied: *owned = 0) or parsed from a tuple (*owned = 1). */
static Plan *plans_get(PyObject *obj, Py_ssize_t *n_out, int *owned) {
    if (Py_IS_TYPE(obj, &PlansType)) {
        *owned = 0;
        *n_out = ((PlansObject *)obj)->n;
        return ((PlansObject *)obj)->p;
    }
    *owned = 1;
    return plans_parse(obj, n_out);
}

static void Plans_dealloc(PlansObject *self) {
    free(self->p);
    Py_XDECREF(self->source);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Plans_iter(PlansObject *self) { return PyObject_GetIter(self->source); }

static Py_ssize_t Plans_len(PlansObject *self) { return self->n; }

static PySequenceMethods Plans_as_sequence = {.sq_length = (lenfunc)Plans_len};

static PyTypeObject PlansType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_core._native.Plans",
    .tp_basicsize = sizeof(PlansObject),
    .tp_dealloc = (destructor)Plans_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Methods planned for score_pair / batch_job, read once (iterates over the plan tuples).",
    .tp_iter = (getiterfunc)Plans_iter,
    .tp_as_sequence = &Plans_as_sequence,
};

static PyObject *py_plans(PyObject *mod, PyObject *arg) {
    Py_ssize_t n;
    Plan *p = plans_parse(arg, &n);
    if (!p) return NULL;
    PlansObject *o = PyObject_New(PlansObject, &PlansType);
    if (!o) {
        free(p);
        return NULL;
    }
    o->p = p;
    o->n = n;
    Py_INCREF(arg);
    o->source = arg;
    return (PyObject *)o;
}

static Plan *plans_parse(PyObject *plans, Py_ssize_t *n_out) {
    if (!PyTuple_Check(plans)) {
        PyErr_SetString(PyExc_TypeError, "plans must be a tuple");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(plans);
    Plan *out = xmalloc((size_t)n * sizeof(Plan));
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        Plan *p = &out[k];
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(plans, k), "iLLdOOO", &p->k.code, &p->k.a, &p->k.b, &p->k.w, &p->method,
                              &p->name, &p->sig)) {
            free(out);
            return NULL;
        }
    }
    *n_out = n;
    return out;
}

/* score_pair(plans, cand, refs, alpha, empty_nan, score_fn[, max_side]): every planned method on one
 * candidate (Tokens) against its references (a tuple of Tokens). With one reference, a dict
 * {name: MethodScore} (the reference chosen as the only one); otherwise, per plan, the tuple
 * of its ReferenceScores (rouge_core.scoring combines them). */
/* score_pair's records from the statistics per (plan, reference): a dict of MethodScore by
 * name for one reference, else per plan a tuple of ReferenceScore (combined in Python). */
static PyObject *pair_records(const Plan *plans, Py_ssize_t np, const KStats *stats, Py_ssize_t nrefs, double alpha,
                              int empty_nan, PyObject *score_fn) {
    PyObject *out = nrefs == 1 ? PyDict_New() : PyList_New(np);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < np; k++) {
        if (plan_records(&plans[k], k, &stats[k * nrefs], NULL, nrefs, alpha, empty_nan, score_fn, out) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static PyObject *py_score_pair(PyObject *mod, PyObject *args) {
    PyObject *plans_obj, *cand_obj, *refs, *score_fn;
    double alpha;
    int empty_nan;
    Py_ssize_t max_side = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "OO!O!dpO|n", &plans_obj, &TokensType, &cand_obj, &PyTuple_Type, &refs, &alpha,
                          &empty_nan, &score_fn, &max_side))
        return NULL;
    /* a side above max_side tokens or sentences: the caller estimates the cost first */
    {
        Tok *c = ((TokensObject *)cand_obj)->tok;
        int over = c->n > max_side || c->nsent > max_side;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(refs) && !over; i++) {
            PyObject *ro = PyTuple_GET_ITEM(refs, i);
            if (PyObject_TypeCheck(ro, &TokensType)) {
                Tok *r = ((TokensObject *)ro)->tok;
                over = r->n > max_side || r->nsent > max_side;
            }
        }
        if (over) Py_RETURN_NONE;
    }
    if (!records_ready) {
        PyErr_SetString(PyExc_RuntimeError, "rouge_core._native.configure was not called");
        return NULL;
    }
    Py_ssize_t np, nrefs = PyTuple_GET_SIZE(refs);
    int plans_owned;
    Plan *plans = plans_get(plans_obj, &np, &plans_owned);
    if (!plans) return NULL;
    TokensObject *cand = (TokensObject *)cand_obj;
    Tok *c = cand->tok;
    PyObject *out = NULL;
    KStats *stats = xmalloc((size_t)(np * (nrefs ? nrefs : 1)) * sizeof(KStats));
    KWork *work = &SHARED_WORK;
    if (!stats || kwork_ready(work, c) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nrefs; i++) {
        PyObject *ro = PyTuple_GET_ITEM(refs, i);
        if (!PyObject_TypeCheck(ro, &TokensType)) {
            PyErr_SetString(PyExc_TypeError, "references must be Tokens");
            goto done;
        }
        TokensObject *ref = (TokensObject *)ro;
        if (tokens_join(cand, ref) < 0) goto done;
        for (Py_ssize_t k = 0; k < np; k++) {
            if (pair_stats(c, ref->tok, ref->rows, ref->ref_count, &plans[k].k, work, &stats[k * nrefs + i]) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        }
    }
    out = pair_records(plans, np, stats, nrefs, alpha, empty_nan, score_fn);
done:
    free(stats);
    if (plans_owned) free(plans);
    return out;
}

/* The working memory of score_texts's references (used with the GIL held, as SHARED_WORK). */
static Probe SHARED_PROBE;

/* score_texts(cand_cls, ref_cls, lowercase, lazy_args, key, plans, cand, refs, alpha,
 *             empty_nan, score_fn, max_side) -> (cand document, reference documents, records)
 *
 * score_pair on ASCII texts (cand: str, refs: a tuple of str) under the ASCII tokenizers: the
 * candidate is tokenized (its Document, a cand_cls, holds its Tokens); each reference is only
 * looked up in the candidate's vocabulary (probe_ascii: no vocabulary, Tokens or join of its
 * own), and its Document (a ref_cls) tokenizes it when someone reads it. None when a side has
 * more than max_side tokens or sentences (its cost must be estimated first); NotImplemented
 * when a method reads the reference's own terms (MATLAB's skip-bigrams with a start token). */
static PyObject *py_score_texts(PyObject *mod, PyObject *args) {
    PyTypeObject *cand_cls, *ref_cls;
    PyObject *lazy_args, *key, *plans_obj, *cand_text, *refs, *score_fn;
    int lowercase, empty_nan;
    double alpha;
    Py_ssize_t max_side;
    if (!PyArg_ParseTuple(args, "O!O!pOOOUO!dpOn", &PyType_Type, &cand_cls, &PyType_Type, &ref_cls, &lowercase,
                          &lazy_args, &key, &plans_obj, &cand_text, &PyTuple_Type, &refs, &alpha, &empty_nan,
                          &score_fn, &max_side))
        return NULL;
    if (!records_ready) {
        PyErr_SetString(PyExc_RuntimeError, "rouge_core._native.configure was not called");
        return NULL;
    }
    Py_ssize_t nrefs = PyTuple_GET_SIZE(refs);
    int ascii = PyUnicode_IS_ASCII(cand_text);
    for (Py_ssize_t i = 0; i < nrefs && ascii; i++) {
        PyObject *r = PyTuple_GET_ITEM(refs, i);
        ascii = PyUnicode_Check(r) && PyUnicode_IS_ASCII(r);
    }
    if (!ascii || !nrefs) {
        PyErr_SetString(PyExc_ValueError, "score_texts needs ASCII str texts and at least one reference");
        return NULL;
    }
    Py_ssize_t np;
    int plans_owned;
    Plan *plans = plans_get(plans_obj, &np, &plans_owned);
    if (!plans) return NULL;
    PyObject *out = NULL, *records = NULL, *ref_docs = NULL, *cand_doc = NULL;
    TokensObject *cand = NULL;
    KStats *stats = NULL;
    for (Py_ssize_t k = 0; k < np; k++)
        if (plans[k].k.code == K_SKIP && plans[k].k.b == SU_START) {
            out = Py_NotImplemented;
            Py_INCREF(out);
            goto done;
        }
    Tok *c = tokenize_ascii(PyUnicode_1BYTE_DATA(cand_text), PyUnicode_GET_LENGTH(cand_text), lowercase);
    if (!c) {
        PyErr_NoMemory();
        goto done;
    }
    cand = tokens_wrap(c, NULL);
    if (!cand) goto done;
    if (c->n > max_side || c->nsent > max_side) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    stats = xmalloc((size_t)(np * nrefs) * sizeof(KStats));
    if (!stats || kwork_ready(&SHARED_WORK, c) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nrefs; i++) {
        PyObject *r = PyTuple_GET_ITEM(refs, i);
        Probe *p = &SHARED_PROBE;
        if (probe_ascii(p, c, PyUnicode_1BYTE_DATA(r), PyUnicode_GET_LENGTH(r), lowercase) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if (p->n > max_side || p->nsent > max_side) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        Tok view = probe_view(p);
        for (Py_ssize_t k = 0; k < np; k++) {
            if (pair_stats(c, &view, p->rows, p->counts + 1, &plans[k].k, &SHARED_WORK, &stats[k * nrefs + i]) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        }
    }
    records = pair_records(plans, np, stats, nrefs, alpha, empty_nan, score_fn);
    cand_doc = records ? native_document(cand_cls, cand_text, lazy_args, key, (PyObject *)cand) : NULL;
    ref_docs = cand_doc ? PyTuple_New(nrefs) : NULL;
    if (!ref_docs) goto done;
    for (Py_ssize_t i = 0; i < nrefs; i++) {
        PyObject *d = native_document(ref_cls, PyTuple_GET_ITEM(refs, i), lazy_args, key, NULL);
        if (!d) goto done;
        PyTuple_SET_ITEM(ref_docs, i, d);
    }
    out = PyTuple_Pack(3, cand_doc, ref_docs, records);
done:
    Py_XDECREF(records);
    Py_XDECREF(ref_docs);
    Py_XDECREF(cand_doc);
    Py_XDECREF(cand);
    free(stats);
    if (plans_owned) free(plans);
    return out;
}

/* --- one method at a time (Family.compute) ------------------------------------------------ */

static int pair_args(PyObject *args, const char *fmt, TokensObject **c, TokensObject **r, void *a, void *b) {
    PyObject *co, *ro;
    if (!PyArg_ParseTuple(args, fmt, &TokensType, &co, &TokensType, &ro, a, b)) return -1;
    *c = (TokensObject *)co;
    *r = (TokensObject *)ro;
    return tokens_join(*c, *r);
}

static PyObject *stats_tuple(int rc, const KStats *s) {
    if (rc < 0) return PyErr_NoMemory();
    return Py_BuildValue("(NNN)", number(s->hits, s->floats), number(s->ct, s->floats), number(s->rt, s->floats));
}

static PyObject *run_one(TokensObject *c, TokensObject *r, KPlan *k) {
    if (kwork_ready(&SHARED_WORK, c->tok) < 0) return PyErr_NoMemory();
    KStats s;
    int rc = pair_stats(c->tok, r->tok, r->rows, r->ref_count, k, &SHARED_WORK, &s);
    return stats_tuple(rc, &s);
}

static PyObject *py_ngram(PyObject *mod, PyObject *args) {
    TokensObject *c, *r;
    long long n;
    int unused = 0;
    if (pair_args(args, "O!O!L|i", &c, &r, &n, &unused) < 0) return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be at least 1");
        return NULL;
    }
    KPlan k = {K_NGRAM, n, 0, 0.0};
    return run_one(c, r, &k);
}

static PyObject *py_lcs(PyObject *mod, PyObject *args) {
    TokensObject *c, *r;
    int a = 0, b = 0;
    if (pair_args(args, "O!O!|ii", &c, &r, &a, &b) < 0) return NULL;
    KPlan k = {K_LCS, 0, 0, 0.0};
    return run_one(c, r, &k);
}

static PyObject *py_union_lcs(PyObject *mod, PyObject *args) {
    TokensObject *c, *r;
    int a = 0, b = 0;
    if (pair_args(args, "O!O!|ii", &c, &r, &a, &b) < 0) return NULL;
    KPlan k = {K_UNION, 0, 0, 0.0};
    return run_one(c, r, &k);
}

static PyObject *py_skip(PyObject *mod, PyObject *args) {
    TokensObject *c, *r;
    long long distance;
    int form;
    if (pair_args(args, "O!O!Li", &c, &r, &distance, &form) < 0) return NULL;
    if (form < SU_NONE || form > SU_START) {
        PyErr_SetString(PyExc_ValueError, "unknown unigram form");
        return NULL;
    }
    KPlan k = {K_SKIP, distance, form, 0.0};
    return run_one(c, r, &k);
}

static PyObject *py_wlcs(PyObject *mod, PyObject *args) {
    TokensObject *c, *r;
    double w;
    int rouge155;
    if (pair_args(args, "O!O!dp", &c, &r, &w, &rouge155) < 0) return NULL;
    if (!(w >= 1.0 && w <= 5.0)) {
        PyErr_SetString(PyExc_ValueError, "w must be in [1, 5]");
        return NULL;
    }
    KPlan k = {rouge155 ? K_W155 : K_WPAPER, 0, 0, w};
    return run_one(c, r, &k);
}

/* stats(plan, cand, ref) -> Stats: one method's statistics on one pair (plan: code, a, b, w). */
static PyObject *py_stats(PyObject *mod, PyObject *args) {
    PyObject *co, *ro;
    KPlan k;
    if (!PyArg_ParseTuple(args, "(iLLd)O!O!", &k.code, &k.a, &k.b, &k.w, &TokensType, &co, &TokensType, &ro))
        return NULL;
    if (!records_ready) {
        PyErr_SetString(PyExc_RuntimeError, "rouge_core._native.configure was not called");
        return NULL;
    }
    if (k.code < K_NGRAM || k.code > K_SKIP || (k.code == K_NGRAM && k.a < 1) ||
        ((k.code == K_WPAPER || k.code == K_W155) && !(k.w >= 1.0 && k.w <= 5.0)) ||
        (k.code == K_SKIP && (k.b < SU_NONE || k.b > SU_START))) {
        PyErr_SetString(PyExc_ValueError, "bad kernel plan");
        return NULL;
    }
    TokensObject *c = (TokensObject *)co, *r = (TokensObject *)ro;
    if (tokens_join(c, r) < 0) return NULL;
    if (kwork_ready(&SHARED_WORK, c->tok) < 0) return PyErr_NoMemory();
    KStats s;
    int rc = pair_stats(c->tok, r->tok, r->rows, r->ref_count, &k, &SHARED_WORK, &s);
    if (rc < 0) return PyErr_NoMemory();
    return stats_record(&s);
}

/* --- evidence ------------------------------------------------------------------------------ */

static Record R_NGRAM_MATCH, R_SKIP_ROW;
static int evidence_ready = 0;

static PyObject *py_configure_evidence(PyObject *mod, PyObject *args) {
    PyObject *match, *row;
    if (!PyArg_ParseTuple(args, "OO", &match, &row)) return NULL;
    static const char *const f_match[] = {"ngram", "cand_count", "ref_count", "matched", "cand_starts", "ref_starts",
                                          NULL};
    static const char *const f_row[] = {"gram", "cand_count", "ref_count", "matched", NULL};
    if (record_init(&R_NGRAM_MATCH, match, f_match) < 0 || record_init(&R_SKIP_ROW, row, f_row) < 0) return NULL;
    evidence_ready = 1;
    Py_RETURN_NONE;
}

static int evidence_args(PyObject *args, const char *fmt, TokensObject **c, TokensObject **r, void *a, void *b) {
    if (!evidence_ready || !records_ready) {
        PyErr_SetString(PyExc_RuntimeError, "rouge_core._native.configure_evidence was not called");
        return -1;
    }
    return pair_args(args, fmt, c, r, a, b);
}

/* Positions linked from `head` through next[] (-1 ends), as a tuple of ints. */
static PyObject *chain_tuple(Ints *ints, i32 head, const i32 *next, i32 count) {
    PyObject *t = PyTuple_New(count);
    if (!t) return NULL;
    Py_ssize_t k = 0;
    for (i32 p = head; p >= 0 && k < count; p = next[p], k++) {
        PyObject *v = ints_get(ints, p);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, v);
    }
    return t;
}

typedef struct {
    u64 key;
    i32 first, cc, rc, chead, ctail, rhead, rtail;
} NSlot;

/* ngram_evidence(cand, ref, n) -> the NgramMatch records of rouge_core.ngram.ngram_evidence:
 * every n-gram on both sides, by first candidate position, with its start positions. */
static PyObject *py_ngram_evidence(PyObject *mod, PyObject *args) {
    TokensObject *co, *ro;
    long long n;
    int unused = 0;
    if (evidence_args(args, "O!O!L|i", &co, &ro, &n, &unused) < 0) return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be at least 1");
        return NULL;
    }
    Tok *c = co->tok, *r = ro->tok;
    const i32 *ids = c->ids, *rows = ro->rows, *ref_count = ro->ref_count;
    Py_ssize_t nc = c->n, nr = r->n;
    if (n > nc || n > nr) return PyTuple_New(0);
    Py_ssize_t ct = nc - n + 1, rt = nr - n + 1;
    size_t size = 16;
    while (size < 2 * (size_t)ct) size *= 2;
    NSlot *tab = xcalloc(size, sizeof(NSlot));
    i32 *slot_of = xmalloc((size_t)ct * sizeof(i32)); /* per candidate window: its slot, -1 */
    i32 *cnext = xmalloc((size_t)ct * sizeof(i32)), *rnext = xmalloc((size_t)rt * sizeof(i32));
    PyObject *out = NULL, *list = NULL;
    Ints ints = {0};
    if (!tab || !slot_of || !cnext || !rnext) {
        PyErr_NoMemory();
        goto done;
    }
    size_t mask = size - 1;
    const u64 B = 0x100000001B3ULL;
    for (Py_ssize_t i = 0; i < ct; i++) {
        slot_of[i] = -1;
        cnext[i] = -1;
        int common = 1;
        u64 h = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            common &= ref_count[ids[i + k]] > 0;
            h = h * B + (u64)(uint32_t)ids[i + k];
        }
        if (!common) continue;
        u64 key = mix64(h) | 1;
        size_t q = (size_t)key & mask;
        for (;;) {
            NSlot *e = &tab[q];
            if (!e->key) {
                e->key = key;
                e->first = (i32)i;
                e->cc = 1;
                e->chead = e->ctail = (i32)i;
                e->rhead = e->rtail = -1;
                break;
            }
            if (e->key == key && memcmp(ids + e->first, ids + i, (size_t)n * sizeof(i32)) == 0) {
                e->cc++;
                cnext[e->ctail] = (i32)i;
                e->ctail = (i32)i;
                break;
            }
            q = (q + 1) & mask;
        }
        slot_of[i] = (i32)q;
    }
    for (Py_ssize_t j = 0; j < rt; j++) {
        rnext[j] = -1;
        int common = 1;
        u64 h = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            common &= rows[j + k] >= 0;
            h = h * B + (u64)(uint32_t)rows[j + k];
        }
        if (!common) continue;
        u64 key = mix64(h) | 1;
        size_t q = (size_t)key & mask;
        for (;;) {
            NSlot *e = &tab[q];
            if (!e->key) break;
            if (e->key == key && memcmp(ids + e->first, rows + j, (size_t)n * sizeof(i32)) == 0) {
                if (e->rc++ == 0)
                    e->rhead = (i32)j;
                else
                    rnext[e->rtail] = (i32)j;
                e->rtail = (i32)j;
                break;
            }
            q = (q + 1) & mask;
        }
    }
    list = PyList_New(0);
    if (!list || ints_init(&ints, (nc > nr ? nc : nr) + 1) < 0) goto done;
    for (Py_ssize_t i = 0; i < ct; i++) {
        if (slot_of[i] < 0) continue;
        NSlot *e = &tab[slot_of[i]];
        if (e->first != i || e->rc == 0) continue;
        PyObject *v[6] = {untracked(gram_tuple(co, ids + i, n)), PyLong_FromLong(e->cc), PyLong_FromLong(e->rc),
                          PyLong_FromLong(e->cc < e->rc ? e->cc : e->rc),
                          untracked(chain_tuple(&ints, e->chead, cnext, e->cc)),
                          untracked(chain_tuple(&ints, e->rhead, rnext, e->rc))};
        PyObject *m = record_new(&R_NGRAM_MATCH, v);
        if (!m || PyList_Append(list, m) < 0) {
            Py_XDECREF(m);
            goto done;
        }
        Py_DECREF(m);
    }
    out = PyList_AsTuple(list);
done:
    if (ints.v) ints_free(&ints);
    Py_XDECREF(list);
    free(tab);
    free(slot_of);
    free(cnext);
    free(rnext);
    return out;
}

/* Skip-bigram evidence counts every gram of a side in a GTable: cc the count, rc a mark set
 * once the gram's row is made. */
static GSlot *gt_find(const GTable *t, u64 key) {
    size_t h = (size_t)mix64(key) & t->mask;
    for (;;) {
        GSlot *e = &t->s[h];
        if (e->key == key) return e;
        if (!e->key) return NULL;
        h = (h + 1) & t->mask;
    }
}

/* Every gram of a token list (joint ids) in reading order, `key` bound to each in turn; the
 * body runs in a do-while(0), so `continue` goes on to the next gram. */
#define FOR_EACH_GRAM(src, n, reach, unigrams, ...)                                        \
    for (Py_ssize_t i_ = 0; i_ + 1 < (n); i_++) {                                          \
        if (unigrams) {                                                                    \
            u64 key = pair_key((src)[i_], -1);                                             \
            do {                                                                           \
                __VA_ARGS__                                                                \
            } while (0);                                                                   \
        }                                                                                  \
        Py_ssize_t last_ = (reach) < 0 || i_ + (reach) >= (n) - 1 ? (n) - 1 : i_ + (reach); \
        for (Py_ssize_t j_ = i_ + 1; j_ <= last_; j_++) {                                  \
            u64 key = pair_key((src)[i_], (src)[j_]);                                      \
            do {                                                                           \
                __VA_ARGS__                                                                \
            } while (0);                                                                   \
        }                                                                                  \
    }

/* The str of a joint id: a candidate id, a reference-only id (nvc + reference id), or the
 * start token. */
typedef struct {
    TokensObject *c, *r;
    Py_ssize_t nvc;
    i32 start_fresh; /* the joint id of a start token neither side has, or -1 */
    PyObject *start;  /* "<s>" */
} Joint;

static PyObject *joint_str(const Joint *j, i32 id) {
    if (id == j->start_fresh) return j->start;
    if (id < j->nvc) return term_str(j->c, id);
    return term_str(j->r, (i32)(id - j->nvc));
}

static PyObject *joint_gram(const Joint *j, u64 key) {
    i32 a = (i32)(key >> 32) - 1, b = (i32)(key & 0xffffffffu) - 1;
    PyObject *sa = joint_str(j, a), *sb = b >= 0 ? joint_str(j, b) : NULL;
    if (!sa || (b >= 0 && !sb)) return NULL;
    return untracked(b >= 0 ? PyTuple_Pack(2, sa, sb) : PyTuple_Pack(1, sa));
}

/* skip_evidence(cand, ref, distance, form, start) -> rows: rouge_core.skipgram.skip_stats's
 * evidence rows: the reference's grams in reading order, then the candidate's others in
 * theirs, as SkipBigramRow records. `start`: the start token str. */
static PyObject *py_skip_evidence(PyObject *mod, PyObject *args) {
    TokensObject *co, *ro;
    long long distance;
    int form;
    PyObject *start;
    if (!evidence_ready || !records_ready) {
        PyErr_SetString(PyExc_RuntimeError, "rouge_core._native.configure_evidence was not called");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!LiU", &TokensType, &co, &TokensType, &ro, &distance, &form, &start) ||
        tokens_join(co, ro) < 0)
        return NULL;
    if (form < SU_NONE || form > SU_START) {
        PyErr_SetString(PyExc_ValueError, "unknown unigram form");
        return NULL;
    }
    Tok *c = co->tok, *r = ro->tok;
    Py_ssize_t nc = c->n, nr = r->n, nvc = c->nv;
    Joint joint = {co, ro, nvc, -1, start};
    /* joint ids of the reference's tokens */
    i32 *rjoint = xmalloc((size_t)(nr + 2) * sizeof(i32));
    i32 *csrc = xmalloc((size_t)(nc + 2) * sizeof(i32));
    GTable tab = {0}; /* both sides' grams: cc, rc their counts, pos set once the gram's row is made */
    PyObject *rows = NULL;
    Ints ints = {0};
    if (!rjoint || !csrc) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nr; i++) rjoint[i + 1] = ro->rows[i] >= 0 ? ro->rows[i] : (i32)(nvc + r->ids[i]);
    for (Py_ssize_t i = 0; i < nc; i++) csrc[i + 1] = c->ids[i];
    int unigrams = form == SU_ROUGE155;
    i32 *cs = csrc + 1, *rs = rjoint + 1;
    Py_ssize_t sc = nc, sr = nr;
    if (form == SU_START) {
        Term st = term_make(START_TOKEN, 3, 1);
        i32 cstart = tok_find(c, &st), rstart = tok_find(r, &st);
        i32 start_id = cstart >= 0 ? cstart : (rstart >= 0 ? (i32)(nvc + rstart) : (i32)(nvc + r->nv));
        if (cstart < 0 && rstart < 0) joint.start_fresh = start_id;
        if (nc) {
            csrc[0] = start_id;
            cs = csrc;
            sc = nc + 1;
        }
        if (nr) {
            rjoint[0] = start_id;
            rs = rjoint;
            sr = nr + 1;
        }
    }
    long long reach = distance < 0 ? -1 : distance + 1;
    if (gt_init(&tab, (size_t)((sc + sr) * (reach < 0 || reach > 8 ? 8 : reach) + 8)) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int failed = 0;
    FOR_EACH_GRAM(cs, sc, reach, unigrams, if (gt_count_pair(&tab, key) < 0) failed = 1;)
    FOR_EACH_GRAM(rs, sr, reach, unigrams, if (gt_count_side(&tab, key, 1) < 0) failed = 1;)
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    rows = PyTuple_New((Py_ssize_t)tab.used); /* a row per distinct gram */
    if (!rows || ints_init(&ints, 1) < 0) goto done;
    Py_ssize_t made = 0;
    FOR_EACH_GRAM(rs, sr, reach, unigrams, {
        if (failed) continue;
        GSlot *e = gt_find(&tab, key);
        if (e->pos) continue;
        e->pos = 1;
        PyObject *v[4] = {joint_gram(&joint, key), PyLong_FromLong(e->cc), PyLong_FromLong(e->rc),
                          PyLong_FromLong(e->cc < e->rc ? e->cc : e->rc)};
        PyObject *row = record_new(&R_SKIP_ROW, v);
        if (row)
            PyTuple_SET_ITEM(rows, made++, row);
        else
            failed = 1;
    })
    FOR_EACH_GRAM(cs, sc, reach, unigrams, {
        if (failed) continue;
        GSlot *e = gt_find(&tab, key);
        if (e->pos) continue; /* every reference gram has its row: e->rc is 0 here */
        e->pos = 1;
        PyObject *v[4] = {joint_gram(&joint, key), PyLong_FromLong(e->cc), PyLong_FromLong(0), PyLong_FromLong(0)};
        PyObject *row = record_new(&R_SKIP_ROW, v);
        if (row)
            PyTuple_SET_ITEM(rows, made++, row);
        else
            failed = 1;
    })
    if (failed) Py_CLEAR(rows);
done:
    if (ints.v) ints_free(&ints);
    free(rjoint);
    free(csrc);
    free(tab.s);
    return rows;
}

/* union_evidence(cand, ref) -> sentences: rouge_core.lcs.union_lcs's evidence, per reference
 * sentence (alignments, union, counted): the aligned pairs of rouge-score's
 * traceback with each candidate sentence, as ((cand sentence, ((cand index, ref index), ...)),
 * ...) by candidate sentence; the sorted reference positions of their union; and the union
 * positions that counted as hits, clipped as the pure loop clips them (a union token counts
 * while both sides still have an unused occurrence of it). */
static PyObject *py_union_evidence(PyObject *mod, PyObject *args) {
    TokensObject *co, *ro;
    int a_ = 0, b_ = 0;
    if (pair_args(args, "O!O!|ii", &co, &ro, &a_, &b_) < 0) return NULL;
    Tok *c = co->tok, *r = ro->tok;
    Lay *l = tok_layout(c);
    if (!l || lay_reversed_masks(l) < 0 || lay_columns(l) < 0) return PyErr_NoMemory();
    Py_ssize_t W = l->W, top = 64 * W - 1;
    TraceBuf b;
    IVec found = {0}, counted = {0};
    UVec diag = {0};
    Ints ints = {0};
    i32 *count = xcalloc((size_t)c->nsent + 1, sizeof(i32)); /* pairs per candidate sentence */
    i32 *fill = xcalloc((size_t)c->nsent + 1, sizeof(i32));
    /* per candidate id, the occurrences not yet counted on each side */
    i32 *cand_left = xmalloc((size_t)(c->nv + 1) * sizeof(i32)), *ref_left = xmalloc((size_t)(c->nv + 1) * sizeof(i32));
    PyObject *sentences = PyTuple_New(r->nsent), **lists = NULL;
    if (!sentences || !count || !fill || !cand_left || !ref_left || trace_init(&b, W) < 0) {
        Py_XDECREF(sentences);
        free(count);
        free(fill);
        free(cand_left);
        free(ref_left);
        return PyErr_NoMemory();
    }
    memcpy(cand_left, c->counts, (size_t)c->nv * sizeof(i32));
    memcpy(ref_left, ro->ref_count, (size_t)c->nv * sizeof(i32));
    lists = xcalloc((size_t)c->nsent + 1, sizeof(PyObject *));
    if (!lists) goto fail;
    if (ints_init(&ints, (c->n > r->n ? c->n : r->n) + 1) < 0) goto fail;
    for (Py_ssize_t s = 0; s < r->nsent; s++) {
        Py_ssize_t ra = r->bounds[2 * s], re = r->bounds[2 * s + 1];
        found.n = 0;
        diag.n = 0;
        if (lay_traceback(l, ro->rows + ra, ra, re - ra, &b, &found, &diag) < 0) {
            PyErr_NoMemory();
            goto fail;
        }
        /* rows were found bottom-up: walk them top-down */
        for (Py_ssize_t k = found.n - 1; k >= 0; k--) {
            const u64 *d = diag.v + k * W;
            for (Py_ssize_t w = 0; w < W; w++)
                for (u64 bits = d[w]; bits; bits &= bits - 1) count[l->col_sent[top - (64 * w + __builtin_ctzll(bits))]]++;
        }
        Py_ssize_t nonempty = 0;
        for (Py_ssize_t t = 0; t < c->nsent; t++) {
            if (!count[t]) continue;
            nonempty++;
            lists[t] = PyTuple_New(count[t]);
            if (!lists[t]) goto fail;
        }
        for (Py_ssize_t k = found.n - 1; k >= 0; k--) {
            const u64 *d = diag.v + k * W;
            i32 rpos = found.v[k];
            for (Py_ssize_t w = 0; w < W; w++)
                for (u64 bits = d[w]; bits; bits &= bits - 1) {
                    Py_ssize_t col = top - (64 * w + __builtin_ctzll(bits));
                    i32 t = l->col_sent[col];
                    PyObject *pair = untracked(ints_pair(&ints, c->bounds[2 * t] + l->col_pos[col], rpos));
                    if (!pair) goto fail;
                    PyTuple_SET_ITEM(lists[t], fill[t]++, pair);
                }
        }
        PyObject *alignments = PyTuple_New(nonempty);
        if (!alignments) goto fail;
        Py_ssize_t at = 0;
        for (Py_ssize_t t = 0; t < c->nsent; t++) {
            if (!count[t]) continue;
            PyObject *index = ints_get(&ints, t), *item = index ? PyTuple_New(2) : NULL;
            if (!item) {
                Py_XDECREF(index);
                Py_DECREF(alignments);
                goto fail;
            }
            PyTuple_SET_ITEM(item, 0, index);
            PyTuple_SET_ITEM(item, 1, untracked(lists[t]));
            lists[t] = NULL;
            PyTuple_SET_ITEM(alignments, at++, untracked(item));
            count[t] = fill[t] = 0;
        }
        /* the union ascending, and the positions that count: clipped in reading order */
        PyObject *union_ = PyTuple_New(found.n), *sentence = union_ ? PyTuple_New(3) : NULL;
        if (!sentence) {
            Py_DECREF(alignments);
            Py_XDECREF(union_);
            goto fail;
        }
        PyTuple_SET_ITEM(sentence, 0, untracked(alignments));
        PyTuple_SET_ITEM(sentence, 1, untracked(union_));
        PyTuple_SET_ITEM(sentences, s, sentence);
        counted.n = 0;
        for (Py_ssize_t k = 0; k < found.n; k++) {
            i32 pos = found.v[found.n - 1 - k], id = ro->rows[pos];
            PyObject *v = ints_get(&ints, pos);
            if (!v) goto fail;
            PyTuple_SET_ITEM(union_, k, v);
            if (cand_left[id] > 0 && ref_left[id] > 0) {
                cand_left[id]--;
                ref_left[id]--;
                if (ivec_push(&counted, pos) < 0) {
                    PyErr_NoMemory();
                    goto fail;
                }
            }
        }
        PyObject *hit = PyTuple_New(counted.n);
        if (!hit) goto fail;
        for (Py_ssize_t k = 0; k < counted.n; k++) {
            PyObject *v = ints_get(&ints, counted.v[k]);
            if (!v) {
                Py_DECREF(hit);
                goto fail;
            }
            PyTuple_SET_ITEM(hit, k, v);
        }
        PyTuple_SET_ITEM(sentence, 2, untracked(hit));
        untracked(sentence);
    }
    goto done;
fail:
    Py_CLEAR(sentences);
    if (lists)
        for (Py_ssize_t t = 0; t < c->nsent; t++) Py_XDECREF(lists[t]);
done:
    if (ints.v) ints_free(&ints);
    trace_free(&b);
    free(found.v);
    free(counted.v);
    free(diag.v);
    free(count);
    free(fill);
    free(cand_left);
    free(ref_left);
    free(lists);
    return untracked(sentences);
}

/* lcs_evidence(cand, ref) -> (pairs, lcs): rouge_core.lcs.sentence_lcs with evidence, the
 * aligned (cand index, ref index) pairs of rouge-score's traceback over the whole token lists
 * (by reference index) and the candidate's terms along them. */
static PyObject *py_lcs_evidence(PyObject *mod, PyObject *args) {
    TokensObject *co, *ro;
    int a_ = 0, b_ = 0;
    if (pair_args(args, "O!O!|ii", &co, &ro, &a_, &b_) < 0) return NULL;
    Tok *c = co->tok, *r = ro->tok;
    /* the candidate as one sentence: its own layout when it is one already */
    i32 whole[2] = {0, (i32)c->n};
    Tok view = *c;
    view.nsent = 1;
    view.bounds = whole;
    view.layout = NULL;
    int own = !(c->nsent == 1 && c->bounds[0] == 0 && c->bounds[1] == c->n);
    Lay *l = own ? lay_build(&view) : tok_layout(c);
    if (!l || lay_columns(l) < 0) {
        if (own) lay_free(l);
        return PyErr_NoMemory();
    }
    Py_ssize_t W = l->W, top = 64 * W - 1;
    TraceBuf b;
    IVec found = {0};
    UVec diag = {0};
    Ints ints = {0};
    PyObject *pairs = NULL, *lcs = NULL, *out = NULL;
    if (trace_init(&b, W) < 0 || lay_traceback(l, ro->rows, 0, r->n, &b, &found, &diag) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    pairs = PyTuple_New(found.n);
    lcs = PyTuple_New(found.n);
    if (!pairs || !lcs || ints_init(&ints, (c->n > r->n ? c->n : r->n) + 1) < 0) goto done;
    /* rows were found bottom-up, one walker bit each (a single sentence) */
    for (Py_ssize_t k = 0; k < found.n; k++) {
        Py_ssize_t row = found.n - 1 - k, col = -1;
        const u64 *d = diag.v + row * W;
        for (Py_ssize_t w = 0; w < W && col < 0; w++)
            if (d[w]) col = top - (64 * w + __builtin_ctzll(d[w]));
        i32 cpos = l->col_pos[col];
        PyObject *pair = untracked(ints_pair(&ints, cpos, found.v[row])), *term = term_str(co, c->ids[cpos]);
        if (!pair || !term) {
            Py_XDECREF(pair);
            goto done;
        }
        Py_INCREF(term);
        PyTuple_SET_ITEM(pairs, k, pair);
        PyTuple_SET_ITEM(lcs, k, term);
    }
    out = PyTuple_Pack(2, untracked(pairs), untracked(lcs));
done:
    if (ints.v) ints_free(&ints);
    Py_XDECREF(pairs);
    Py_XDECREF(lcs);
    trace_free(&b);
    free(found.v);
    free(diag.v);
    if (own) lay_free(l);
    return out;
}

/* wlcs_alignment(ref, cand, w): the DP value and the aligned (ref, cand) index pairs
 * (rouge_core.wlcs.wlcs_alignment), one bit a cell for the traceback. */
static PyObject *py_wlcs_alignment(PyObject *mod, PyObject *args) {
    PyObject *ref_seq, *cand_seq;
    double w;
    if (!PyArg_ParseTuple(args, "OOd", &ref_seq, &cand_seq, &w)) return NULL;
    if (!(w >= 1.0 && w <= 5.0)) {
        PyErr_SetString(PyExc_ValueError, "w must be in [1, 5]");
        return NULL;
    }
    PyObject *cand_terms = PySequence_Tuple(cand_seq);
    if (!cand_terms) return NULL;
    Tok *c = tok_from_terms(cand_terms, NULL);
    if (!c) {
        Py_DECREF(cand_terms);
        return NULL;
    }
    Py_ssize_t nr, nc = c->n;
    i32 *rows = rows_of_seq(c, ref_seq, &nr);
    PyObject *out = NULL;
    Gains g = {0};
    Columns cs = {0};
    WlcsBuf b = {0};
    IVec pairs = {0};
    u64 *bits = NULL;
    Py_ssize_t bw = nc / 64 + 1;
    if (!rows) goto done;
    if (gains_init(&g, w, nr < nc ? nr : nc) < 0 || columns_init(&cs, c->ids, nc, c->nv) < 0 ||
        wbuf_reserve(&b, nc) < 0 || !(bits = xcalloc((size_t)(nr * bw + 1), sizeof(u64)))) {
        PyErr_NoMemory();
        goto done;
    }
    double value;
    Py_BEGIN_ALLOW_THREADS
    value = wlcs_sweep(rows, nr, c->ids, nc, &cs, 0, &g, &b, bits, bw);
    Py_END_ALLOW_THREADS
    if (wlcs_trace(rows, nr, c->ids, nc, bits, bw, &pairs) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *list = int_pairs(pairs.v, pairs.n / 2, 1);
    if (!list) goto done;
    out = Py_BuildValue("(dN)", value, list);
done:
    free(rows);
    if (g.gn) gains_free(&g);
    if (cs.start) columns_free(&cs);
    wbuf_free(&b);
    free(pairs.v);
    free(bits);
    tok_free(c);
    Py_DECREF(cand_terms);
    return out;
}

/* first_partners(ref_sentences, cand_sentences, cand_starts, w): rouge_core.wlcs._first_partners. */
static PyObject *py_first_partners(PyObject *mod, PyObject *args) {
    PyObject *ref_sents, *cand_sents, *starts;
    double w;
    if (!PyArg_ParseTuple(args, "OOOd", &ref_sents, &cand_sents, &starts, &w)) return NULL;
    if (!(w >= 1.0 && w <= 5.0)) {
        PyErr_SetString(PyExc_ValueError, "w must be in [1, 5]");
        return NULL;
    }
    PyObject *out = NULL, *cand_terms = NULL, *rs = NULL, *cs_ = NULL, *st = NULL;
    Tok *c = NULL, *r = NULL;
    i32 *rows = NULL, *partner = NULL, *cstart = NULL;
    Gains g = {0};
    rs = PySequence_Fast(ref_sents, "ref_sentences must be a sequence");
    cs_ = PySequence_Fast(cand_sents, "cand_sentences must be a sequence");
    st = PySequence_Fast(starts, "cand_starts must be a sequence");
    if (!rs || !cs_ || !st) goto done;
    if (PySequence_Fast_GET_SIZE(st) != PySequence_Fast_GET_SIZE(cs_)) {
        PyErr_SetString(PyExc_ValueError, "one start per candidate sentence");
        goto done;
    }
    /* the candidate: its sentences one after the other */
    Py_ssize_t ncs = PySequence_Fast_GET_SIZE(cs_), nrs = PySequence_Fast_GET_SIZE(rs);
    cand_terms = PyList_New(0);
    PyObject *cb = PyList_New(0);
    if (!cand_terms || !cb) {
        Py_XDECREF(cb);
        goto done;
    }
    cstart = xmalloc((size_t)(ncs + 1) * sizeof(i32));
    if (!cstart) {
        Py_DECREF(cb);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t t = 0; t < ncs; t++) {
        Py_ssize_t a = PyList_GET_SIZE(cand_terms);
        PyObject *sent = PySequence_Fast_ITEMS(cs_)[t];
        PyObject *ext = PySequence_InPlaceConcat(cand_terms, sent);
        if (!ext) {
            Py_DECREF(cb);
            goto done;
        }
        Py_DECREF(ext);
        PyObject *pair = Py_BuildValue("(nn)", a, PyList_GET_SIZE(cand_terms));
        if (!pair || PyList_Append(cb, pair) < 0) {
            Py_XDECREF(pair);
            Py_DECREF(cb);
            goto done;
        }
        Py_DECREF(pair);
        Py_ssize_t s0 = PyLong_AsSsize_t(PySequence_Fast_ITEMS(st)[t]);
        if (s0 == -1 && PyErr_Occurred()) {
            Py_DECREF(cb);
            goto done;
        }
        cstart[t] = (i32)s0;
    }
    PyObject *ct = PyList_AsTuple(cand_terms);
    Py_SETREF(cand_terms, ct);
    if (!cand_terms) {
        Py_DECREF(cb);
        goto done;
    }
    c = tok_from_terms(cand_terms, cb);
    Py_DECREF(cb);
    if (!c) goto done;
    /* the reference: as candidate ids, sentence after sentence */
    r = xcalloc(1, sizeof(Tok));
    IVec rv = {0};
    if (!r) {
        PyErr_NoMemory();
        goto done;
    }
    r->bounds = xmalloc((size_t)(2 * nrs + 1) * sizeof(i32));
    if (!r->bounds) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t s = 0; s < nrs; s++) {
        Py_ssize_t n;
        i32 *part = rows_of_seq(c, PySequence_Fast_ITEMS(rs)[s], &n);
        if (!part) {
            free(rv.v);
            goto done;
        }
        r->bounds[2 * s] = (i32)rv.n;
        for (Py_ssize_t i = 0; i < n; i++)
            if (ivec_push(&rv, part[i]) < 0) {
                free(part);
                free(rv.v);
                PyErr_NoMemory();
                goto done;
            }
        free(part);
        r->bounds[2 * s + 1] = (i32)rv.n;
    }
    r->nsent = nrs;
    r->n = rv.n;
    rows = rv.v;
    Py_ssize_t longest = 0;
    for (Py_ssize_t s = 0; s < nrs; s++)
        if (r->bounds[2 * s + 1] - r->bounds[2 * s] > longest) longest = r->bounds[2 * s + 1] - r->bounds[2 * s];
    partner = xmalloc((size_t)(r->n + 1) * sizeof(i32));
    if (!partner || gains_init(&g, w, longest) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = wlcs_partners(c, r, rows, &g, partner);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyList_New(nrs);
    if (!out) goto done;
    for (Py_ssize_t s = 0; s < nrs; s++) {
        PyObject *d = PyDict_New();
        if (!d) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, s, d);
        Py_ssize_t a = r->bounds[2 * s], e = r->bounds[2 * s + 1];
        for (Py_ssize_t i = a; i < e; i++) {
            if (partner[i] < 0) continue;
            /* the candidate position: the sentence's given start + the column within it */
            i32 pos = partner[i];
            Py_ssize_t lo = 0, hi = ncs - 1; /* the last sentence starting at or before pos */
            while (lo < hi) {
                Py_ssize_t mid = (lo + hi + 1) / 2;
                if (c->bounds[2 * mid] <= pos) lo = mid;
                else hi = mid - 1;
            }
            Py_ssize_t t = lo;
            while (c->bounds[2 * t + 1] <= pos) t++; /* past empty sentences starting there */
            PyObject *key = PyLong_FromSsize_t(i - a);
            PyObject *val = PyLong_FromSsize_t((Py_ssize_t)cstart[t] + (pos - c->bounds[2 * t]));
            if (!key || !val || PyDict_SetItem(d, key, val) < 0) {
                Py_XDECREF(key);
                Py_XDECREF(val);
                Py_CLEAR(out);
                goto done;
            }
            Py_DECREF(key);
            Py_DECREF(val);
        }
    }
done:
    Py_XDECREF(rs);
    Py_XDECREF(cs_);
    Py_XDECREF(st);
    Py_XDECREF(cand_terms);
    tok_free(c);
    if (r) {
        r->ids = NULL;
        tok_free(r);
    }
    free(rows);
    free(partner);
    free(cstart);
    if (g.gn) gains_free(&g);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * batches: many pairs per call, the GIL released while they are scored
 * ---------------------------------------------------------------------------------------- */

enum { BATCH_VALUES = 7 }; /* per (pair, plan, reference): hits, cand total, ref total, P, R, F, ref base */

typedef struct {
    const unsigned char *text; /* ASCII text to tokenize, or NULL */
    Py_ssize_t len;
    Tok *tok; /* a Tokens object's document (read only), or NULL */
} BItem;

/* A run's own working memory, kept from pair to pair: buffers grow, never shrink. */
typedef struct {
    KWork k;
    i32 *rows, *ref_count; /* join's output: per reference token, per candidate id */
    Py_ssize_t rows_cap, ref_count_cap;
} BWork;

/* *buf with room for `need` ints (its contents are not kept), or NULL on no memory. */
static i32 *bwork_ints(i32 **buf, Py_ssize_t *cap, Py_ssize_t need) {
    if (need > *cap) {
        Py_ssize_t grown = need > 2 * *cap ? need : 2 * *cap;
        free(*buf);
        *buf = xmalloc((size_t)grown * sizeof(i32));
        *cap = *buf ? grown : 0;
    }
    return *buf;
}

static void bwork_free(BWork *w) {
    kwork_free(&w->k);
    free(w->rows);
    free(w->ref_count);
    memset(w, 0, sizeof(*w));
}

/* Score one pair without the GIL; values: nplans * nrefs * BATCH_VALUES doubles. A shared
 * document (a Tokens object's) is only read: the candidate's layout is private to the call. */
static int batch_pair(const BItem *cand, const BItem *refs, Py_ssize_t nrefs, const Plan *plans, Py_ssize_t np,
                      int lowercase, double alpha, int empty_nan, double *values, BWork *work) {
    Tok *own = cand->tok ? NULL : tokenize_ascii(cand->text, cand->len, lowercase);
    const Tok *cv = cand->tok ? cand->tok : own;
    if (!cv) return -1;
    int rc = -1;
    Tok view = *cv; /* the candidate, with a private layout (built if a method needs it) */
    view.layout = NULL;
    i32 *ref_count = bwork_ints(&work->ref_count, &work->ref_count_cap, cv->nv + 1);
    if (!ref_count || kwork_ready(&work->k, cv) < 0) goto done;
    for (Py_ssize_t i = 0; i < nrefs; i++) {
        Tok *r = refs[i].tok ? NULL : tokenize_ascii(refs[i].text, refs[i].len, lowercase);
        const Tok *rv = refs[i].tok ? refs[i].tok : r;
        if (!rv) goto done;
        i32 *rows = bwork_ints(&work->rows, &work->rows_cap, rv->n + 1);
        if (!rows || join(cv, rv, rows, ref_count) < 0) {
            tok_free(r);
            goto done;
        }
        for (Py_ssize_t k = 0; k < np; k++) {
            KStats s;
            if (pair_stats(&view, (Tok *)rv, rows, ref_count, &plans[k].k, &work->k, &s) < 0) {
                tok_free(r);
                goto done;
            }
            double *out = values + (k * nrefs + i) * BATCH_VALUES;
            out[0] = s.hits;
            out[1] = s.ct;
            out[2] = s.rt;
            score_of(&s, alpha, empty_nan, &out[3], &out[4], &out[5]);
            out[6] = s.base;
        }
        tok_free(r);
    }
    rc = 0;
done:
    lay_free(view.layout);
    tok_free(own); /* its layout pointer was never set */
    return rc;
}

/* BatchJob: a batch's pairs, read once with the GIL held, then scored by any number of
 * threads at once: each call of run() releases the GIL and takes blocks of `block` pairs in
 * turn until none is left, writing each pair's values at its own offset (so threads share no
 * working memory and the results stay in input order however the blocks were shared out).
 *
 * batch_job(plans, candidates, references, tokenize, lowercase, max_chars, max_refs, alpha,
 *           empty_nan, block) -> BatchJob
 *
 * candidates: a list of str or Tokens; references: a list of lists (or tuples) of them. A str
 * is tokenized by the run that scores it (ASCII text, when `tokenize`); a pair with another
 * kind of text, a text longer than max_chars (its cost must be checked first), no reference or
 * more than max_refs references is left out and listed in `unscored`, for the caller to score
 * its own way. Once every block is done, result() gives (values, offsets, unscored): values,
 * doubles, per pair, per plan, per reference: hits, candidate total, reference total, P, R, F,
 * reference base; offsets: int64, where each pair's values start (-1 for a left-out pair). */
typedef struct {
    PyObject_HEAD
    PyObject *plans_obj; /* the plans' owner (their method objects live there) */
    Plan *plans;
    Py_ssize_t np;
    int plans_owned;
    PyObject **texts; /* every text read, held until the job goes (the lists may change meanwhile) */
    Py_ssize_t ntexts;
    BItem *items;     /* per pair: the candidate, then its references */
    Py_ssize_t *first, *count;
    char *skip;
    PyObject *values, *offsets, *unscored; /* bytes written by the runs, bytes, list */
    Py_ssize_t n, block, nblocks;
    int lowercase, empty_nan;
    double alpha;
    /* shared by the runs, under `lock` */
    PyThread_type_lock lock;
    Py_ssize_t next;      /* the next block to take */
    Py_ssize_t running;   /* runs under way */
    int failed;           /* a run ran out of memory: the others stop */
    int cancelled;        /* cancel(): no run takes another block */
    char *done;           /* per block */
    Py_ssize_t done_from; /* blocks done in a row from the first (job_done_from) */
} BatchJobObject;

static PyTypeObject BatchJobType;

static void BatchJob_dealloc(BatchJobObject *self) {
    for (Py_ssize_t i = 0; i < self->ntexts; i++) Py_DECREF(self->texts[i]);
    free(self->texts);
    Py_XDECREF(self->plans_obj);
    if (self->plans_owned) free(self->plans);
    free(self->items);
    free(self->first);
    free(self->count);
    free(self->skip);
    free(self->done);
    Py_XDECREF(self->values);
    Py_XDECREF(self->offsets);
    Py_XDECREF(self->unscored);
    if (self->lock) PyThread_free_lock(self->lock);
    PyObject_Free(self);
}

static PyObject *py_batch_job(PyObject *mod, PyObject *args) {
    PyObject *plans_obj, *cands, *refs;
    int tokenize, lowercase, empty_nan;
    Py_ssize_t max_chars, max_refs, block;
    double alpha;
    if (!PyArg_ParseTuple(args, "OO!O!ppnndpn", &plans_obj, &PyList_Type, &cands, &PyList_Type, &refs, &tokenize,
                          &lowercase, &max_chars, &max_refs, &alpha, &empty_nan, &block))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(cands);
    if (PyList_GET_SIZE(refs) != n) {
        PyErr_SetString(PyExc_ValueError, "one reference list per candidate");
        return NULL;
    }
    if (block < 1) {
        PyErr_SetString(PyExc_ValueError, "block must be at least 1");
        return NULL;
    }
    BatchJobObject *job = PyObject_New(BatchJobObject, &BatchJobType);
    if (!job) return NULL;
    memset((char *)job + sizeof(PyObject), 0, sizeof(*job) - sizeof(PyObject));
    job->plans = plans_get(plans_obj, &job->np, &job->plans_owned);
    if (!job->plans) goto fail;
    Py_INCREF(plans_obj);
    job->plans_obj = plans_obj;
    job->n = n;
    job->block = block;
    job->nblocks = (n + block - 1) / block;
    job->lowercase = lowercase;
    job->empty_nan = empty_nan;
    job->alpha = alpha;
    job->lock = PyThread_allocate_lock();
    job->unscored = PyList_New(0);
    job->first = xmalloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    job->count = xmalloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    job->skip = xcalloc((size_t)n + 1, 1);
    job->done = xcalloc((size_t)job->nblocks + 1, 1);
    job->offsets = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((n + 1) * sizeof(long long)));
    if (!job->lock || !job->unscored || !job->first || !job->count || !job->skip || !job->done || !job->offsets) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto fail;
    }
    Py_ssize_t total_items = 0;
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *rl = PyList_GET_ITEM(refs, p);
        Py_ssize_t nr = PyList_Check(rl) ? PyList_GET_SIZE(rl) : (PyTuple_Check(rl) ? PyTuple_GET_SIZE(rl) : -1);
        if (nr < 0 || nr > max_refs || nr == 0) job->skip[p] = 1;
        job->count[p] = nr < 0 ? 0 : nr;
        total_items += 1 + job->count[p];
    }
    job->items = xcalloc((size_t)total_items + 1, sizeof(BItem));
    job->texts = xmalloc((size_t)(total_items + 1) * sizeof(PyObject *));
    if (!job->items || !job->texts) {
        PyErr_NoMemory();
        goto fail;
    }
    long long *offsets = (long long *)PyBytes_AS_STRING(job->offsets);
    Py_ssize_t at = 0;
    long long value_at = 0;
    for (Py_ssize_t p = 0; p < n; p++) {
        job->first[p] = at;
        PyObject *rl = PyList_GET_ITEM(refs, p);
        for (Py_ssize_t i = -1; i < job->count[p] && !job->skip[p]; i++) {
            PyObject *o = i < 0 ? PyList_GET_ITEM(cands, p)
                                : (PyList_Check(rl) ? PyList_GET_ITEM(rl, i) : PyTuple_GET_ITEM(rl, i));
            BItem *it = &job->items[at + i + 1];
            if (PyObject_TypeCheck(o, &TokensType)) {
                it->tok = ((TokensObject *)o)->tok;
            } else if (tokenize && PyUnicode_CheckExact(o) && PyUnicode_IS_ASCII(o) &&
                       PyUnicode_GET_LENGTH(o) <= max_chars) {
                it->text = PyUnicode_1BYTE_DATA(o);
                it->len = PyUnicode_GET_LENGTH(o);
            } else {
                job->skip[p] = 1;
                break;
            }
            Py_INCREF(o);
            job->texts[job->ntexts++] = o;
        }
        at += 1 + job->count[p];
        if (job->skip[p]) {
            PyObject *idx = PyLong_FromSsize_t(p);
            if (!idx || PyList_Append(job->unscored, idx) < 0) {
                Py_XDECREF(idx);
                goto fail;
            }
            Py_DECREF(idx);
            offsets[p] = -1;
        } else {
            offsets[p] = value_at;
            value_at += (long long)job->np * job->count[p] * BATCH_VALUES;
        }
    }
    offsets[n] = value_at;
    job->values = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(value_at * sizeof(double)));
    if (!job->values) goto fail;
    return (PyObject *)job;
fail:
    Py_DECREF(job);
    return NULL;
}

/* job.run(blocks=-1) -> True while blocks are left to take: scores blocks (at most `blocks`;
 * -1: until none is left) with the GIL released. Any number of threads may run one job. */
static PyObject *BatchJob_run(BatchJobObject *self, PyObject *args) {
    Py_ssize_t limit = -1;
    if (!PyArg_ParseTuple(args, "|n", &limit)) return NULL;
    double *values = (double *)PyBytes_AS_STRING(self->values);
    const long long *offsets = (const long long *)PyBytes_AS_STRING(self->offsets);
    int failed = 0, more;
    Py_BEGIN_ALLOW_THREADS
    BWork work; /* this run's own */
    memset(&work, 0, sizeof(work));
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    self->running++;
    for (Py_ssize_t taken = 0; limit < 0 || taken < limit; taken++) {
        if (self->failed || self->cancelled || self->next >= self->nblocks) break;
        Py_ssize_t b = self->next++;
        PyThread_release_lock(self->lock);
        Py_ssize_t end = (b + 1) * self->block < self->n ? (b + 1) * self->block : self->n;
        for (Py_ssize_t p = b * self->block; p < end && !failed; p++) {
            if (self->skip[p]) continue;
            const BItem *pair = &self->items[self->first[p]];
            if (batch_pair(pair, pair + 1, self->count[p], self->plans, self->np, self->lowercase, self->alpha,
                           self->empty_nan, values + offsets[p], &work) < 0)
                failed = 1;
        }
        PyThread_acquire_lock(self->lock, WAIT_LOCK);
        if (failed) self->failed = 1;
        else self->done[b] = 1;
    }
    self->running--;
    failed = self->failed;
    more = self->next < self->nblocks && !self->cancelled;
    PyThread_release_lock(self->lock);
    bwork_free(&work);
    Py_END_ALLOW_THREADS
    if (failed) return PyErr_NoMemory();
    return PyBool_FromLong(more);
}

/* Blocks done in a row from the first; called with `lock` held. */
static Py_ssize_t job_done_from(BatchJobObject *self) {
    while (self->done_from < self->nblocks && self->done[self->done_from]) self->done_from++;
    return self->done_from;
}

/* job.done() -> how many pairs from the first are scored (every block up to there is done). */
static PyObject *BatchJob_done(BatchJobObject *self, PyObject *unused) {
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    job_done_from(self);
    PyThread_release_lock(self->lock);
    Py_ssize_t pairs = self->done_from * self->block;
    return PyLong_FromSsize_t(pairs < self->n ? pairs : self->n);
}

/* job.cancel(): the runs stop after the blocks they are scoring (the caller gave up: an error,
 * an interrupt, a page that reruns), so no thread goes on with a batch nobody waits for. */
static PyObject *BatchJob_cancel(BatchJobObject *self, PyObject *unused) {
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    self->cancelled = 1;
    PyThread_release_lock(self->lock);
    Py_RETURN_NONE;
}

/* job.result() -> (values, offsets, unscored), once every block is done and no run is under way. */
static PyObject *BatchJob_result(BatchJobObject *self, PyObject *unused) {
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    int finished = job_done_from(self) == self->nblocks && self->running == 0;
    PyThread_release_lock(self->lock);
    if (!finished) {
        PyErr_SetString(PyExc_RuntimeError, self->cancelled ? "the batch job was cancelled"
                                                            : "the batch job is not finished: run() it until no block is left");
        return NULL;
    }
    return PyTuple_Pack(3, self->values, self->offsets, self->unscored);
}

static PyMethodDef BatchJob_methods[] = {
    {"run", (PyCFunction)BatchJob_run, METH_VARARGS, "run(blocks=-1) -> True while blocks are left (GIL released)"},
    {"done", (PyCFunction)BatchJob_done, METH_NOARGS, "done() -> pairs scored in a row from the first"},
    {"cancel", (PyCFunction)BatchJob_cancel, METH_NOARGS, "cancel(): runs take no further block"},
    {"result", (PyCFunction)BatchJob_result, METH_NOARGS, "result() -> (values, offsets, unscored)"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef BatchJob_members[] = {
    {"blocks", T_PYSSIZET, offsetof(BatchJobObject, nblocks), READONLY, "blocks of pairs the runs take in turn"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject BatchJobType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rouge_core._native.BatchJob",
    .tp_basicsize = sizeof(BatchJobObject),
    .tp_dealloc = (destructor)BatchJob_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A batch's pairs, scored by the threads that call run() (see batch_job).",
    .tp_methods = BatchJob_methods,
    .tp_members = BatchJob_members,
};

/* batch_records(plans_for, values, offsets, counts, alpha, empty_nan, score_fn): the result
 * records of a BatchJob's pairs, as score_pair returns them (None for a left-out pair).
 * counts: each pair's reference count; plans_for[count]: the plans of a pair with that many
 * references (the same kernels in the same order; their signatures name the count). */
static PyObject *py_batch_records(PyObject *mod, PyObject *args) {
    PyObject *plans_for, *counts, *score_fn;
    Py_buffer vb, ob;
    double alpha;
    int empty_nan;
    if (!PyArg_ParseTuple(args, "O!y*y*O!dpO", &PyTuple_Type, &plans_for, &vb, &ob, &PyList_Type, &counts, &alpha,
                          &empty_nan, &score_fn))
        return NULL;
    PyObject *out = NULL;
    int gc_was_enabled = 0;
    if (!records_ready) {
        PyErr_SetString(PyExc_RuntimeError, "rouge_core._native.configure was not called");
        goto done;
    }
    const double *values = vb.buf;
    const long long *offsets = ob.buf;
    Py_ssize_t n = PyList_GET_SIZE(counts);
    if (ob.len < (Py_ssize_t)((n + 1) * sizeof(long long))) {
        PyErr_SetString(PyExc_ValueError, "offsets too short");
        goto done;
    }
    out = PyList_New(n);
    if (!out) goto done;
    /* many records and no cycles among them: the collector waits (as for evidence) */
    gc_was_enabled = PyGC_Disable();
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *item;
        Py_ssize_t nrefs = PyLong_AsSsize_t(PyList_GET_ITEM(counts, p));
        if (nrefs < 0 && PyErr_Occurred()) {
            Py_CLEAR(out);
            goto done;
        }
        if (offsets[p] < 0) {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(out, p, Py_None);
            continue;
        }
        if (nrefs >= PyTuple_GET_SIZE(plans_for) || !Py_IS_TYPE(PyTuple_GET_ITEM(plans_for, nrefs), &PlansType)) {
            PyErr_SetString(PyExc_ValueError, "no plans for this reference count");
            Py_CLEAR(out);
            goto done;
        }
        PlansObject *po = (PlansObject *)PyTuple_GET_ITEM(plans_for, nrefs);
        const Plan *plans = po->p;
        Py_ssize_t np = po->n;
        if ((offsets[p] + (long long)np * nrefs * BATCH_VALUES) * (long long)sizeof(double) > (long long)vb.len) {
            PyErr_SetString(PyExc_ValueError, "values too short");
            Py_CLEAR(out);
            goto done;
        }
        const double *base = values + offsets[p];
        item = nrefs == 1 ? PyDict_New() : PyList_New(np);
        if (!item) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, p, item);
        KStats *st = xmalloc((size_t)(nrefs + 1) * sizeof(KStats));
        double *prf = xmalloc((size_t)(3 * nrefs + 3) * sizeof(double));
        for (Py_ssize_t k = 0; k < np && st && prf; k++) {
            int floats = plans[k].k.code == K_WPAPER || plans[k].k.code == K_W155;
            int base_kind = plans[k].k.code == K_WPAPER ? BASE_INT : plans[k].k.code == K_W155 ? BASE_FLOAT : BASE_NONE;
            for (Py_ssize_t i = 0; i < nrefs; i++) {
                const double *v = base + (k * nrefs + i) * BATCH_VALUES;
                st[i] = (KStats){v[0], v[1], v[2], floats ? 1.0 / plans[k].k.w : 1.0, floats, v[6], base_kind};
                memcpy(prf + 3 * i, v + 3, 3 * sizeof(double)); /* computed with the statistics */
            }
            if (plan_records(&plans[k], k, st, prf, nrefs, alpha, empty_nan, score_fn, item) < 0) {
                free(st);
                free(prf);
                Py_CLEAR(out);
                goto done;
            }
        }
        if (!st || !prf) {
            PyErr_NoMemory();
            Py_CLEAR(out);
        }
        free(st);
        free(prf);
        if (!out) goto done;
    }
done:
    if (gc_was_enabled) PyGC_Enable();
    PyBuffer_Release(&vb);
    PyBuffer_Release(&ob);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * module
 * ---------------------------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"tokens", py_tokens, METH_VARARGS, "tokens(terms: tuple[str], bounds) -> Tokens"},
    {"tokenize_ascii", py_tokenize_ascii, METH_VARARGS, "tokenize_ascii(text, lowercase) -> Tokens (ASCII text)"},
    {"ascii_document", py_ascii_document, METH_VARARGS, "ascii_document(cls, lowercase, lazy_args, key, text)"},
    {"layout_of", py_layout_of, METH_O, "layout_of(tokens) -> Layout of the document's sentences"},
    {"ngram", py_ngram, METH_VARARGS, "ngram(cand, ref, n) -> (hits, cand total, ref total)"},
    {"lcs", py_lcs, METH_VARARGS, "lcs(cand, ref) -> (LCS length, |cand|, |ref|)"},
    {"union_lcs", py_union_lcs, METH_VARARGS, "union_lcs(cand, ref) -> (union LCS hits, |cand|, |ref|)"},
    {"skip", py_skip, METH_VARARGS, "skip(cand, ref, distance, form) -> (hits, cand total, ref total)"},
    {"wlcs", py_wlcs, METH_VARARGS, "wlcs(cand, ref, w, rouge155) -> (hits, cand total, ref total)"},
    {"wlcs_alignment", py_wlcs_alignment, METH_VARARGS, "wlcs_alignment(ref, cand, w) -> (value, pairs)"},
    {"first_partners", py_first_partners, METH_VARARGS,
     "first_partners(ref_sentences, cand_sentences, cand_starts, w) -> list of dicts"},
    {"stats", py_stats, METH_VARARGS, "stats(plan, cand, ref) -> Stats of one method on one pair"},
    {"plans", py_plans, METH_O, "plans(tuple of (kernel, a, b, w, method, name, signature)) -> Plans"},
    {"configure_evidence", py_configure_evidence, METH_VARARGS, "configure_evidence(NgramMatch, SkipBigramRow)"},
    {"ngram_evidence", py_ngram_evidence, METH_VARARGS, "ngram_evidence(cand, ref, n) -> NgramMatch records"},
    {"skip_evidence", py_skip_evidence, METH_VARARGS,
     "skip_evidence(cand, ref, distance, form, start) -> SkipBigramRow records"},
    {"lcs_evidence", py_lcs_evidence, METH_VARARGS, "lcs_evidence(cand, ref) -> (aligned (cand, ref) pairs, LCS terms)"},
    {"union_evidence", py_union_evidence, METH_VARARGS,
     "union_evidence(cand, ref) -> per reference sentence (alignments, union, counted)"},
    {"configure", py_configure, METH_VARARGS, "configure(Stats, Score, ReferenceScore, MethodScore, reason)"},
    {"score_pair", py_score_pair, METH_VARARGS, "score_pair(plans, cand, refs, alpha, empty_nan, score_fn[, max_side]) -> records, or None above max_side"},
    {"score_texts", py_score_texts, METH_VARARGS,
     "score_texts(cand_cls, ref_cls, lowercase, lazy_args, key, plans, cand, refs, alpha, empty_nan, score_fn, max_side)"
     " -> (cand document, reference documents, records), None above max_side, NotImplemented"},
    {"batch_job", py_batch_job, METH_VARARGS,
     "batch_job(plans, cands, refs, tokenize, lowercase, max_chars, max_refs, alpha, empty_nan, block) -> BatchJob"},
    {"batch_records", py_batch_records, METH_VARARGS, "batch_records(plans_for, values, offsets, counts, alpha, empty_nan, score_fn)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "rouge_core._native",
    "Compiled kernels of rouge_core (see rouge_core.native); the same numbers as the pure path, bit for bit.", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    init_byte_tables();
    if (PyType_Ready(&TokensType) < 0 || PyType_Ready(&LayoutType) < 0 || PyType_Ready(&PlansType) < 0 ||
        PyType_Ready(&BatchJobType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    FLOAT_ONE = PyFloat_FromDouble(1.0);
    NAME_TEXT = PyUnicode_InternFromString("text");
    NAME_LCS_VIEW = PyUnicode_InternFromString("lcs_view");
    NAME_LAZY_ARGS = PyUnicode_InternFromString("_lazy_args");
    NAME_MEMO = PyUnicode_InternFromString("_memo");
    if (!NAME_TEXT || !NAME_LCS_VIEW || !NAME_LAZY_ARGS || !NAME_MEMO) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&TokensType);
    Py_INCREF(&LayoutType);
    if (!FLOAT_ONE || PyModule_AddObject(m, "Tokens", (PyObject *)&TokensType) < 0 ||
        PyModule_AddObject(m, "Layout", (PyObject *)&LayoutType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
