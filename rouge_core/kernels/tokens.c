/* Documents as token-id arrays (tokens.h). */
#include "tokens.h"

#include "lcs.h"
#include "lowering.h" /* written at build time from Python's str.lower() (kernel_spec.lowerings) */

int ivec_push(IVec *a, i32 x) {
    if (a->n == a->cap && ivec_reserve(a, 1) < 0) return -1;
    a->v[a->n++] = x;
    return 0;
}

int ivec_reserve(IVec *a, isize more) { return grow_kept((void **)&a->v, &a->cap, a->n + more, sizeof(i32)); }

void ivec_reverse(IVec *a, isize from) {
    for (isize lo = from, hi = a->n - 1; lo < hi; lo++, hi--) {
        i32 t = a->v[lo];
        a->v[lo] = a->v[hi];
        a->v[hi] = t;
    }
}

int uvec_push_words(UVec *a, const u64 *w, isize W) {
    if (grow_kept((void **)&a->v, &a->cap, a->n + W, sizeof(u64)) < 0) return -1;
    memcpy(a->v + a->n, w, (size_t)W * sizeof(u64));
    a->n += W;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * hashing: a term's bytes in 8-byte words (little-endian order), mixed
 * ---------------------------------------------------------------------------------------- */

static inline u64 tail_word(const unsigned char *p, size_t n) {
    u64 w = 0;
    for (size_t k = 0; k < n; k++) w |= (u64)p[k] << (8 * k);
    return w;
}

/* One multiply, its high half folded into the low: the table index takes low bits, the slot
 * tag the high 32 (terms are compared in full on a tag match). */
static inline u64 hash_finish(u64 h, u64 w) {
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}

static u64 hash_bytes(const unsigned char *p, size_t n) {
    u64 h = ((u64)n * 0x9E3779B97F4A7C15ULL) ^ 1u;
    while (n > 8) {
        h = (h ^ tail_word(p, 8)) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    return hash_finish(h, tail_word(p, n));
}

static inline u64 head_of(const unsigned char *p, size_t bytes) { return tail_word(p, bytes < 8 ? bytes : 8); }

/* A mask of the low min(n, 8) bytes of a word, without a branch (short words vary in length
 * unpredictably). */
static inline u64 low_bytes(size_t n) { return (((u64)1 << ((8 * n) & 63)) - 1) | -(u64)(n >= 8); }

/* hash_bytes and head_of of data that may be read up to 8 bytes past its end (the
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
    return hash_bytes(p, n);
#endif
}

Term term_make(const unsigned char *data, isize len) {
    Term q = {data, len, hash_bytes(data, (size_t)len), head_of(data, (size_t)len)};
    return q;
}

/* ------------------------------------------------------------------------------------------
 * Tok
 * ---------------------------------------------------------------------------------------- */

void tok_free(Tok *t) {
    if (!t) return;
    lay_free(t->layout);
    FREE_ALL(t->ids, t->counts, t->terms, t->first, t->table, t->bounds, t->buf, t);
}

static inline int term_eq(const Term *a, const Term *b) { return term_equal(a, b); }

/* term_eq for terms found under the same hash tag whose data may be read past its end
 * (tok_probe): the head word, then the rest of longer terms. */
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

i32 tok_find(const Tok *t, const Term *q) { return tok_lookup(t, q, 0); }

isize tok_longest_sentence(const Tok *t) {
    isize longest = 0;
    for (isize s = 0; s < t->nsent; s++) {
        isize len = t->bounds[2 * s + 1] - t->bounds[2 * s];
        if (len > longest) longest = len;
    }
    return longest;
}

/* Builder state: vocabulary growing as tokens arrive. */
typedef struct {
    Tok *t;
    isize cap_tokens, cap_vocab, cap_sent;
    isize most_tokens, most_types; /* past either the build stops (tokenize_text_capped) */
    isize stopped_at;              /* then the byte of the text read where the word past them starts */
    int padded; /* every term's data may be read 8 bytes past its end (the tokenizer's buffer) */
    int over;   /* the build stopped at most_tokens (TOKENS_OVER) or most_types (TYPES_OVER) */
} TokBuild;

static u64 LAST_SERIAL; /* the last serial handed to a thread (atomic) */
enum { SERIALS_TAKEN = 1024 };
static _Thread_local u64 serial_next, serial_end; /* this thread's serials still to give */

/* A serial unique in the process: each thread takes them SERIALS_TAKEN at a time, so that the
 * threads of a batch do not pass the counter's cache line between cores for every text. */
static u64 new_serial(void) {
    if (serial_next == serial_end) {
        serial_end = __atomic_add_fetch(&LAST_SERIAL, SERIALS_TAKEN, __ATOMIC_RELAXED);
        serial_next = serial_end - SERIALS_TAKEN;
    }
    return ++serial_next;
}

static int tb_init(TokBuild *b, isize expect_tokens) {
    Tok *t = xcalloc(1, sizeof(Tok));
    if (!t) return -1;
    t->serial = new_serial();
    b->t = t;
    b->padded = 0;
    b->most_tokens = b->most_types = ISIZE_MAX;
    b->stopped_at = 0;
    b->over = 0;
    b->cap_tokens = expect_tokens > 16 ? expect_tokens : 16;
    b->cap_vocab = b->cap_tokens / 2 > 16 ? b->cap_tokens / 2 : 16;
    b->cap_sent = 4;
    t->ids = xmalloc((size_t)b->cap_tokens * sizeof(i32));
    t->counts = xmalloc((size_t)b->cap_vocab * sizeof(i32));
    t->first = xmalloc((size_t)b->cap_vocab * sizeof(i32));
    t->terms = xmalloc((size_t)b->cap_vocab * sizeof(Term));
    size_t slots = 32;
    while (slots < 2 * (size_t)b->cap_vocab) slots *= 2;
    t->tmask = slots - 1;
    t->table = xcalloc(slots, sizeof(u64));
    t->bounds = xmalloc((size_t)b->cap_sent * 2 * sizeof(i32));
    if (!t->ids || !t->counts || !t->first || !t->terms || !t->table || !t->bounds) {
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
    for (isize id = 0; id < t->nv; id++) {
        size_t s = (size_t)t->terms[id].hash & mask;
        while (table[s]) s = (s + 1) & mask;
        table[s] = slot_of_id(t->terms[id].hash, (i32)id);
    }
    free(t->table);
    t->table = table;
    t->tmask = mask;
    return 0;
}

static int tb_grow_vocab(TokBuild *b) {
    Tok *t = b->t;
    isize cap = 2 * b->cap_vocab;
    i32 *counts = realloc(t->counts, (size_t)cap * sizeof(i32));
    if (counts) t->counts = counts;
    i32 *first = realloc(t->first, (size_t)cap * sizeof(i32));
    if (first) t->first = first;
    Term *terms = realloc(t->terms, (size_t)cap * sizeof(Term));
    if (terms) t->terms = terms;
    if (!counts || !first || !terms) return -1;
    b->cap_vocab = cap;
    return 0;
}

/* Append one token with term `q` (its data must outlive the Tok). */
__attribute__((always_inline)) static inline int tb_add(TokBuild *b, const Term *q) {
    Tok *t = b->t;
    if (t->n >= b->most_tokens) {
        b->over = TOKENS_OVER;
        b->stopped_at = (isize)(q->data - t->buf);
        return -1;
    }
    if (t->n == b->cap_tokens) {
        isize cap = 2 * b->cap_tokens;
        i32 *ids = realloc(t->ids, (size_t)cap * sizeof(i32));
        if (!ids) return -1;
        t->ids = ids;
        b->cap_tokens = cap;
    }
    size_t s = 0;
    i32 id = tok_probe(t, q, b->padded, &s);
    if (id < 0) {
        if (t->nv >= b->most_types) {
            b->over = TYPES_OVER;
            b->stopped_at = (isize)(q->data - t->buf);
            return -1;
        }
        if (t->nv == b->cap_vocab && tb_grow_vocab(b) < 0) return -1;
        id = (i32)t->nv++;
        t->terms[id] = *q;
        t->counts[id] = 0;
        t->first[id] = (i32)t->n;
        t->table[s] = slot_of_id(q->hash, id);
        if ((size_t)t->nv * 2 > t->tmask + 1 && tb_rehash(t) < 0) return -1;
    }
    t->counts[id]++;
    t->ids[t->n++] = id;
    return 0;
}

/* bounds[2 * n] = start, bounds[2 * n + 1] = end: one sentence appended to a growing array. */
static int push_sentence(i32 **bounds, isize *n, isize *cap, isize start, isize end) {
    if (*n == *cap) {
        isize grown = 2 * *cap;
        i32 *v = realloc(*bounds, (size_t)grown * 2 * sizeof(i32));
        if (!v) return -1;
        *bounds = v;
        *cap = grown;
    }
    (*bounds)[2 * *n] = (i32)start;
    (*bounds)[2 * *n + 1] = (i32)end;
    (*n)++;
    return 0;
}

Tok *tok_from_terms(const TermRef *terms, isize n, const i32 *bounds, isize nsent) {
    TokBuild b;
    if (tb_init(&b, n) < 0) return NULL;
    for (isize i = 0; i < n; i++) {
        Term q = term_make(terms[i].data, terms[i].len);
        if (tb_add(&b, &q) < 0) goto fail;
    }
    for (isize k = 0; k < nsent; k++)
        if (push_sentence(&b.t->bounds, &b.t->nsent, &b.cap_sent, bounds[2 * k], bounds[2 * k + 1]) < 0) goto fail;
    return b.t;
fail:
    tok_free(b.t);
    return NULL;
}

static int tb_reuse(TokBuild *b, Tok *t, isize expect_tokens, isize buf_bytes);

Tok *tok_mapped_terms_into(Tok *spare, const Tok *t, const Term *to, i32 *origin, isize *kept_before) {
    TokBuild b;
    isize *own = kept_before ? NULL : xmalloc((size_t)(t->n + 1) * sizeof(isize));
    if (!kept_before) kept_before = own; /* per token: kept tokens before it */
    int reused = kept_before && spare && tb_reuse(&b, spare, t->n, 0) == 0;
    if (!reused) {
        tok_free(spare);
        if (!kept_before || tb_init(&b, t->n) < 0) {
            free(own);
            return NULL;
        }
    }
    b.t->padded = 0; /* the new terms' data is the caller's */
    for (isize i = 0; i < t->n; i++) {
        i32 v = t->ids[i];
        kept_before[i] = b.t->n;
        if (!to[v].data) continue;
        isize before = b.t->nv;
        if (tb_add(&b, &to[v]) < 0) goto fail;
        if (b.t->nv > before) origin[before] = v;
    }
    kept_before[t->n] = b.t->n;
    for (isize k = 0; k < t->nsent; k++)
        if (push_sentence(&b.t->bounds, &b.t->nsent, &b.cap_sent, kept_before[t->bounds[2 * k]],
                          kept_before[t->bounds[2 * k + 1]]) < 0)
            goto fail;
    free(own);
    /* the room the build ended with, for the next reuse */
    b.t->cap_tokens = b.cap_tokens;
    b.t->cap_vocab = b.cap_vocab;
    b.t->cap_sent = b.cap_sent;
    return b.t;
fail:
    free(own);
    tok_free(b.t);
    return NULL;
}

Tok *tok_mapped_terms(const Tok *t, const Term *to, i32 *origin) { return tok_mapped_terms_into(NULL, t, to, origin, NULL); }

Tok *tok_mapped(const Tok *t, const TermRef *to, i32 *origin) {
    Term *q = xcalloc((size_t)t->nv + 1, sizeof(Term));
    if (!q) return NULL;
    for (isize v = 0; v < t->nv; v++)
        if (to[v].data) q[v] = term_make(to[v].data, to[v].len);
    Tok *out = tok_mapped_terms(t, q, origin);
    free(q);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * the tokenizers of rouge-score and ROUGE-1.5.5
 * ---------------------------------------------------------------------------------------- */

__attribute__((always_inline)) static inline int tb_word(TokBuild *b, const unsigned char *data, isize len) {
    Term q = {data, len, 0, 0};
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
#else
/* Per byte: 0 separator, 1 newline, else the byte of the word (lower-cased if asked). */
static inline unsigned char word_byte(unsigned char c, int lowercase) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) return c;
    if (c >= 'A' && c <= 'Z') return lowercase ? (unsigned char)(c + 32) : c;
    return c == '\n' ? 1 : 0;
}
#endif

/* Where the scanner's words and sentences go: into a vocabulary being built (tokenize_text),
 * or looked up in a candidate's (probe_text). */
enum { SCAN_BUILD = 0, SCAN_PROBE = 1 };

__attribute__((always_inline)) static inline int scan_word(int mode, TokBuild *b, Probe *p, const unsigned char *data,
                                                           isize len) {
    if (mode == SCAN_BUILD) return tb_word(b, data, len);
    Term q = {data, len, 0, 0};
    q.hash = hash_padded(data, (size_t)len, &q.head);
    i32 id = tok_lookup(p->c, &q, p->padded);
    p->rows[p->n++] = id;
    p->counts[id + 1]++; /* no branch: a token the candidate lacks counts in slot 0 */
    return 0;
}

__attribute__((always_inline)) static inline isize scan_tokens(int mode, TokBuild *b, Probe *p) {
    return mode == SCAN_BUILD ? b->t->n : p->n;
}

__attribute__((always_inline)) static inline int scan_sentence(int mode, TokBuild *b, Probe *p, isize start,
                                                               isize end) {
    if (mode == SCAN_BUILD) return push_sentence(&b->t->bounds, &b->t->nsent, &b->cap_sent, start, end);
    return push_sentence(&p->bounds, &p->nsent, &p->cap_sent, start, end);
}

/* The tokenizers' scan of UTF-8 `text` (tokens.h; bytes >= 0x80 are separators, as the SSE2
 * compares are signed); `buf` has room for len + 80 bytes (the words are written there,
 * lower-cased if asked, and read up to 8 bytes past their end). */
__attribute__((always_inline)) static inline int scan_words(int mode, TokBuild *b, Probe *p, const unsigned char *text,
                                                            isize len, int lowercase, unsigned char *buf) {
    isize line_start = 0, s_start = 0, word = -1;
#if defined(__SSE2__)
    /* 64 bytes at a time: bit masks of word bytes and newlines, then one step per event
     * (a word's end, a newline, a word's start) in text order */
    unsigned char tail[64];
    u64 carry = 0; /* the last byte of the previous block was a word byte */
    for (isize base = 0; base < len; base += 64) {
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
            isize at = base + e;
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
    isize i = 0;
    (void)word;
    for (;;) {
        /* separators; a newline or the end closes the line */
        unsigned char k = 0;
        while (i < len && (k = word_byte(text[i], lowercase)) == 0) i++;
        if (i >= len || k == 1) {
            if (i > line_start && scan_sentence(mode, b, p, s_start, scan_tokens(mode, b, p)) < 0) return -1;
            if (i >= len) return 0;
            i++;
            line_start = i;
            s_start = scan_tokens(mode, b, p);
            continue;
        }
        isize w = i;
        while (i < len && (k = word_byte(text[i], lowercase)) > 1) buf[i++] = k;
        if (scan_word(mode, b, p, buf + w, i - w) < 0) return -1;
    }
#endif
    if (len > line_start && scan_sentence(mode, b, p, s_start, scan_tokens(mode, b, p)) < 0) return -1;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * rouge-score's str.lower(): the code points whose lower case holds [a-z0-9]
 * ---------------------------------------------------------------------------------------- */

const char *const LOWERING_VERSION = LOWERING_UNICODE;
const Lowering LOWERING_ENTRIES[] = LOWERING_TABLE;
const int LOWERING_ENTRY_COUNT = LOWERING_COUNT;

/* The entry of the lowering table whose code point starts at p (left bytes on), or NULL. */
static const Lowering *lowering_at(const unsigned char *p, isize left) {
    for (int k = 0; k < LOWERING_COUNT; k++) {
        const Lowering *l = &LOWERING_ENTRIES[k];
        if (left >= l->len && p[0] == (unsigned char)l->utf8[0] && memcmp(p, l->utf8, (size_t)l->len) == 0) return l;
    }
    return NULL;
}

/* Where the first code point of the lowering table stands in text, or -1 (one memchr pass per
 * entry: most texts hold none). */
static isize first_lowering(const unsigned char *text, isize len) {
    isize first = -1;
    for (int k = 0; k < LOWERING_COUNT; k++) {
        const Lowering *l = &LOWERING_ENTRIES[k];
        isize end = first >= 0 ? first : len;
        for (const unsigned char *p = text; p < text + end;) {
            p = memchr(p, (unsigned char)l->utf8[0], (size_t)(text + end - p));
            if (!p) break;
            if (lowering_at(p, text + len - p) == l) {
                first = p - text;
                break;
            }
            p++;
        }
    }
    return first;
}

/* text (len bytes, a code point of the table first at `at`) with each code point of the table
 * replaced by its lower case, into out (room for len bytes: a lower case is never longer than
 * its UTF-8, lowerings() checks it): the length written. */
static isize apply_lowerings(const unsigned char *text, isize len, isize at, unsigned char *out) {
    memcpy(out, text, (size_t)at);
    isize o = at;
    for (isize i = at; i < len;) {
        const Lowering *l = text[i] >= 0x80 ? lowering_at(text + i, len - i) : NULL;
        if (l) {
            memcpy(out + o, l->ascii, (size_t)l->ascii_len);
            o += l->ascii_len;
            i += l->len;
        } else {
            out[o++] = text[i++];
        }
    }
    return o;
}

/* The bytes the scanner reads for `rule`: the text itself, or under WORDS_LOWER_UNICODE a
 * text holding code points of the lowering table, a copy with each replaced by its lower case
 * (in *copy, NULL when none: the caller frees it); *len becomes the copy's length. NULL on no
 * memory. */
static const unsigned char *words_source(const unsigned char *text, isize *len, int rule, unsigned char **copy) {
    *copy = NULL;
    isize at = rule == WORDS_LOWER_UNICODE ? first_lowering(text, *len) : -1;
    if (at < 0) return text;
    if (!(*copy = xmalloc((size_t)*len))) return NULL;
    *len = apply_lowerings(text, *len, at, *copy);
    return *copy;
}

/* Make `b` build into `t` (a Tok of the tokenizer no longer in use) for about expect_tokens
 * tokens and buf_bytes of term data, its buffers reused: -1 (t untouched) when they have less
 * room than tb_init would give, or on no memory. */
static int tb_reuse(TokBuild *b, Tok *t, isize expect_tokens, isize buf_bytes) {
    isize cap_tokens = expect_tokens > 16 ? expect_tokens : 16;
    isize cap_vocab = cap_tokens / 2 > 16 ? cap_tokens / 2 : 16;
    size_t slots = 32;
    while (slots < 2 * (size_t)cap_vocab) slots *= 2;
    if (t->cap_tokens < cap_tokens || t->cap_vocab < cap_vocab || t->cap_sent < 4 || t->cap_buf < buf_bytes) return -1;
    if (t->tmask + 1 < slots || t->tmask + 1 > 4 * slots) { /* a table far larger would cost its clearing */
        u64 *table = xcalloc(slots, sizeof(u64));
        if (!table) return -1;
        free(t->table);
        t->table = table;
        t->tmask = slots - 1;
    } else {
        memset(t->table, 0, (t->tmask + 1) * sizeof(u64));
    }
    lay_free(t->layout);
    t->layout = NULL;
    t->n = t->nv = t->nsent = 0;
    t->serial = new_serial();
    b->t = t;
    b->padded = 0;
    b->most_tokens = b->most_types = ISIZE_MAX;
    b->stopped_at = 0;
    b->over = 0;
    b->cap_tokens = t->cap_tokens;
    b->cap_vocab = t->cap_vocab;
    b->cap_sent = t->cap_sent;
    return 0;
}

static Tok *tokenize_reusing(Tok *spare, const unsigned char *text, isize len, int rule, isize most_tokens,
                             isize most_types, int *over, isize *stopped_at) {
    unsigned char *copy;
    const unsigned char *source = words_source(text, &len, rule, &copy);
    TokBuild b;
    int reused = source && spare && tb_reuse(&b, spare, len / 4 + 8, len + 80) == 0;
    if (!reused) {
        tok_free(spare);
        if (!source || tb_init(&b, len / 4 + 8) < 0) {
            free(copy);
            return NULL;
        }
    }
    b.padded = 1;
    b.most_tokens = most_tokens;
    b.most_types = most_types;
    Tok *t = b.t;
    t->padded = 1;
    if (!reused) {
        t->buf = xmalloc((size_t)len + 80);
        t->cap_buf = len + 80;
    }
    if (!t->buf || scan_words(SCAN_BUILD, &b, NULL, source, len, rule != WORDS_KEEP_CASE, t->buf) < 0) {
        if (over) {
            *over = b.over;
            *stopped_at = b.stopped_at;
        }
        tok_free(t);
        t = NULL;
    } else { /* the room the build ended with, for tokenize_text_into */
        t->cap_tokens = b.cap_tokens;
        t->cap_vocab = b.cap_vocab;
        t->cap_sent = b.cap_sent;
    }
    free(copy);
    return t;
}

Tok *tokenize_text(const unsigned char *text, isize len, int rule) {
    return tokenize_reusing(NULL, text, len, rule, ISIZE_MAX, ISIZE_MAX, NULL, NULL);
}

Tok *tokenize_text_capped(const unsigned char *text, isize len, int rule, isize most_tokens, isize most_types,
                          int *over, isize *stopped_at) {
    *over = 0;
    *stopped_at = 0;
    return tokenize_reusing(NULL, text, len, rule, most_tokens, most_types, over, stopped_at);
}

Tok *tokenize_text_into(Tok *spare, const unsigned char *text, isize len, int rule) {
    return tokenize_reusing(spare, text, len, rule, ISIZE_MAX, ISIZE_MAX, NULL, NULL);
}

Tok *tokenize_text_into_capped(Tok *spare, const unsigned char *text, isize len, int rule, isize most_tokens,
                               int *over) {
    isize stopped_at;
    *over = 0;
    return tokenize_reusing(spare, text, len, rule, most_tokens, ISIZE_MAX, over, &stopped_at);
}

void probe_free(Probe *p) {
    FREE_ALL(p->rows, p->counts, p->bounds, p->buf, p->lowered);
    memset(p, 0, sizeof(*p));
}

/* Make `p` ready for a text of `len` bytes against candidate c (counts zeroed). */
static int probe_ready(Probe *p, const Tok *c, isize len) {
    isize words = len / 2 + 1; /* words are separated: at most one per two bytes */
    if (!grow_buffer((void **)&p->rows, &p->rows_cap, words, sizeof(i32)) ||
        !grow_buffer((void **)&p->counts, &p->counts_cap, c->nv + 1, sizeof(i32)) ||
        !grow_buffer((void **)&p->buf, &p->buf_cap, len + 80, 1))
        return -1;
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

int probe_text(Probe *p, const Tok *c, const unsigned char *text, isize len, int rule) {
    isize at = rule == WORDS_LOWER_UNICODE ? first_lowering(text, len) : -1;
    if (at >= 0) { /* as words_source, into the probe's own buffer */
        if (!grow_buffer((void **)&p->lowered, &p->lowered_cap, len, 1)) return -1;
        len = apply_lowerings(text, len, at, p->lowered);
        text = p->lowered;
    }
    if (probe_ready(p, c, len) < 0) return -1;
    return scan_words(SCAN_PROBE, NULL, p, text, len, rule != WORDS_KEEP_CASE, p->buf);
}

Tok probe_view(const Probe *p) {
    Tok t;
    memset(&t, 0, sizeof(t));
    t.n = p->n;
    t.nsent = p->nsent;
    t.bounds = p->bounds;
    return t;
}

int join(const Tok *c, const Tok *r, i32 *out, i32 *ref_count, i32 *map) {
    i32 *own = map ? NULL : xmalloc((size_t)r->nv * sizeof(i32));
    if (!map && !(map = own)) return -1;
    int padded = c->padded && r->padded; /* both from the tokenizer: short terms compare as words */
    for (isize v = 0; v < r->nv; v++) map[v] = tok_lookup(c, &r->terms[v], padded);
    if (ref_count) {
        memset(ref_count, 0, (size_t)c->nv * sizeof(i32));
        for (isize v = 0; v < r->nv; v++)
            if (map[v] >= 0) ref_count[map[v]] = r->counts[v];
    }
    for (isize i = 0; i < r->n; i++) out[i] = map[r->ids[i]];
    free(own);
    return 0;
}
