/* n-grams and skip-bigrams (grams.h). */
#include "grams.h"

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

/* The slot of `key`, NULL when absent. */
static inline GSlot *gt_find(const GTable *t, u64 key) {
    size_t h = (size_t)mix64(key) & t->mask;
    for (;;) {
        GSlot *e = &t->s[h];
        if (e->key == key) return e;
        if (!e->key) return NULL;
        h = (h + 1) & t->mask;
    }
}

/* A reference gram: counted when the candidate has it. */
static inline void gt_probe_pair(GTable *t, u64 key) {
    GSlot *e = gt_find(t, key);
    if (e) e->rc++;
}

static long long gt_clipped(const GTable *t) {
    long long hits = 0;
    for (size_t k = 0; k <= t->mask; k++) {
        const GSlot *e = &t->s[k];
        if (e->key) hits += e->cc < e->rc ? e->cc : e->rc;
    }
    return hits;
}

/* Rolling hashes of the n-grams of ids[0..len): the window at i hashes ids[i..i+n). */
static const u64 GRAM_BASE = 0x100000001B3ULL;

/* A bigram of candidate ids (a, b) in a GramBuf: empty unless stamped with the current call. */
typedef struct {
    uint32_t stamp;
    i32 a, b, cc, rc;
} BSlot;

void grambuf_free(GramBuf *g) {
    free(g->slots);
    memset(g, 0, sizeof(*g));
}

size_t grambuf_bytes(const GramBuf *g) { return (size_t)g->cap * sizeof(BSlot); }

static inline size_t bigram_slot(i32 a, i32 b, int shift) {
    return (size_t)((((u64)(uint32_t)a << 32) | (uint32_t)b) * 0x9E3779B97F4A7C15ULL >> shift);
}

/* Clipped bigram hits: the candidate's bigrams of tokens both sides have, counted in a table
 * of at least twice their number (no growing: at most nc - 1 of them), then each reference
 * bigram found there is a hit while the candidate has more of it than the reference so far
 * (min(cc, rc) summed without a pass over the table). */
static long long bigram_hits(const Tok *c, const i32 *rows, isize nr, const i32 *ref_count, GramBuf *g) {
    isize nc = c->n;
    const i32 *ids = c->ids;
    isize size = 16;
    int bits = 4;
    while (size < 2 * (nc - 1)) size *= 2, bits++;
    if (size > g->cap || !g->slots) {
        free(g->slots);
        g->slots = xcalloc((size_t)size, sizeof(BSlot));
        g->cap = g->slots ? size : 0;
        g->stamp = 0;
        if (!g->slots) return -1;
    }
    if (++g->stamp == 0) { /* the stamps wrapped: every slot is cleared once */
        memset(g->slots, 0, (size_t)g->cap * sizeof(BSlot));
        g->stamp = 1;
    }
    BSlot *t = g->slots;
    const uint32_t stamp = g->stamp;
    const size_t mask = (size_t)size - 1;
    const int shift = 64 - bits;
    for (isize i = 0; i + 1 < nc; i++) {
        i32 a = ids[i], b = ids[i + 1];
        if (ref_count[a] <= 0 || ref_count[b] <= 0) continue;
        size_t h = bigram_slot(a, b, shift);
        for (;;) {
            BSlot *e = &t[h];
            if (e->stamp != stamp) {
                e->stamp = stamp;
                e->a = a;
                e->b = b;
                e->cc = 1;
                e->rc = 0;
                break;
            }
            if (e->a == a && e->b == b) {
                e->cc++;
                break;
            }
            h = (h + 1) & mask;
        }
    }
    long long hits = 0;
    for (isize j = 0; j + 1 < nr; j++) {
        i32 a = rows[j], b = rows[j + 1];
        if (a < 0 || b < 0) continue;
        size_t h = bigram_slot(a, b, shift);
        for (;;) {
            BSlot *e = &t[h];
            if (e->stamp != stamp) break;
            if (e->a == a && e->b == b) {
                if (e->rc < e->cc) {
                    e->rc++;
                    hits++;
                }
                break;
            }
            h = (h + 1) & mask;
        }
    }
    return hits;
}

long long ngram_hits(const Tok *c, const i32 *rows, isize nr, const i32 *ref_count, isize n, GramBuf *buf) {
    isize nc = c->n;
    if (n > nc || n > nr) return 0;
    if (n == 1) {
        long long hits = 0;
        for (isize v = 0; v < c->nv; v++) {
            i32 a = c->counts[v], b = ref_count[v];
            hits += a < b ? a : b;
        }
        return hits;
    }
    if (n == 2) return bigram_hits(c, rows, nr, ref_count, buf); /* the pair of ids is the key */
    isize ct = nc - n + 1;
    u64 top = 1; /* GRAM_BASE^(n-1) */
    for (isize k = 1; k < n; k++) top *= GRAM_BASE;
    GTable t;
    if (gt_init(&t, (size_t)(ct < 1 << 20 ? ct : 1 << 20)) < 0) return -1;
    /* candidate grams of common tokens only */
    const i32 *ids = c->ids;
    isize missing = 0;
    u64 h = 0;
    for (isize k = 0; k < n; k++) {
        missing += ref_count[ids[k]] == 0;
        h = h * GRAM_BASE + (u64)(uint32_t)ids[k];
    }
    for (isize i = 0;; i++) {
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
        h = (h - (u64)(uint32_t)ids[i] * top) * GRAM_BASE + (u64)(uint32_t)ids[i + n];
    }
    isize rt = nr - n + 1;
    missing = 0;
    h = 0;
    for (isize k = 0; k < n; k++) {
        missing += rows[k] < 0;
        h = h * GRAM_BASE + (u64)(uint32_t)rows[k];
    }
    for (isize j = 0;; j++) {
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
        h = (h - (u64)(uint32_t)rows[j] * top) * GRAM_BASE + (u64)(uint32_t)rows[j + n];
    }
    long long hits = gt_clipped(&t);
    free(t.s);
    return hits;
}

/* Skip-bigrams of a token list of n tokens with at most `distance` tokens in the gap
 * (distance < 0: unlimited), plus with `unigrams` ROUGE-1.5.5's unigrams of every position
 * but the last: how many (rouge_core.families.skipgram.skip_bigram_counts's total). */
static long long skip_total(isize n, long long distance, int unigrams) {
    long long total = unigrams && n > 1 ? n - 1 : 0;
    long long reach = distance < 0 ? n : distance + 1;
    long long last = reach < n - 1 ? reach : n - 1;
    for (long long gap = 1; gap <= last; gap++) total += n - gap;
    return total;
}

/* Skip-bigram (and SU) hits. src: the candidate's ids, rsrc: the reference's as candidate
 * ids (-1: not in the candidate), each with the start token in front when the form asks;
 * common: per candidate id, whether the reference has it. */
static long long skip_hits(const i32 *src, isize n, const i32 *rsrc, isize nr, const char *common, long long distance,
                           int unigrams) {
    GTable t;
    long long hits = -1;
    i32 *cpos = NULL, *rpos = NULL;
    long long reach = distance;
    isize guess = n * (distance < 0 || distance > 8 ? 8 : distance + 1) + n;
    if (gt_init(&t, (size_t)(guess < (1 << 22) ? guess : (1 << 22))) < 0) return -1;
    /* the positions of the tokens that can be part of a hit */
    cpos = xmalloc((size_t)n * sizeof(i32));
    rpos = xmalloc((size_t)nr * sizeof(i32));
    if (!cpos || !rpos) goto done;
    isize mc = 0, mr = 0;
    for (isize i = 0; i < n; i++)
        if (common[src[i]]) cpos[mc++] = (i32)i;
    for (isize i = 0; i < nr; i++)
        if (rsrc[i] >= 0) rpos[mr++] = (i32)i;
    if (unigrams) {
        for (isize k = 0; k < mc && cpos[k] < n - 1; k++)
            if (gt_count_side(&t, pair_key(src[cpos[k]], -1), 0) < 0) goto done;
    }
    for (isize k = 0; k < mc; k++) {
        i32 a = src[cpos[k]];
        long long limit = reach < 0 ? (long long)n : (long long)cpos[k] + reach + 1;
        for (isize q = k + 1; q < mc && cpos[q] <= limit; q++)
            if (gt_count_side(&t, pair_key(a, src[cpos[q]]), 0) < 0) goto done;
    }
    if (unigrams) {
        for (isize k = 0; k < mr && rpos[k] < nr - 1; k++) gt_probe_pair(&t, pair_key(rsrc[rpos[k]], -1));
    }
    for (isize k = 0; k < mr; k++) {
        i32 a = rsrc[rpos[k]];
        long long limit = reach < 0 ? (long long)nr : (long long)rpos[k] + reach + 1;
        for (isize q = k + 1; q < mr && rpos[q] <= limit; q++) gt_probe_pair(&t, pair_key(a, rsrc[rpos[q]]));
    }
    hits = gt_clipped(&t);
done:
    FREE_ALL(t.s, cpos, rpos);
    return hits;
}

/* The start token's id in t's vocabulary, or -1. */
static i32 start_id(const Tok *t) {
    Term st = term_make((const unsigned char *)SPEC_START_TOKEN, (isize)strlen(SPEC_START_TOKEN));
    return tok_find(t, &st);
}

int skip_stats(const Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, long long distance, int form,
               long long *hits, long long *cand_total, long long *ref_total) {
    isize nc = c->n, nr = r->n;
    if (form != SU_START) {
        char *common = xmalloc((size_t)c->nv + 1);
        if (!common) return -1;
        for (isize v = 0; v < c->nv; v++) common[v] = ref_count[v] > 0;
        int unigrams = form == SU_ROUGE155;
        *hits = skip_hits(c->ids, nc, rows, nr, common, distance, unigrams);
        free(common);
        *cand_total = skip_total(nc, distance, unigrams);
        *ref_total = skip_total(nr, distance, unigrams);
        return *hits < 0 ? -1 : 0;
    }
    /* MATLAB's form: a start token in front of each non-empty side; the start token is the
     * string "<s>", so a typed "<s>" token is the same gram item */
    i32 start = start_id(c);
    isize nv = c->nv;
    if (start < 0) start = (i32)nv++;
    i32 ref_start = start_id(r);
    isize sc = nc ? nc + 1 : 0, sr = nr ? nr + 1 : 0;
    i32 *src = xmalloc((size_t)(sc + 1) * sizeof(i32));
    i32 *rsrc = xmalloc((size_t)(sr + 1) * sizeof(i32));
    char *common = xcalloc((size_t)nv + 1, 1);
    *hits = -1;
    if (src && rsrc && common) {
        if (nc) {
            src[0] = start;
            memcpy(src + 1, c->ids, (size_t)nc * sizeof(i32));
        }
        if (nr) {
            rsrc[0] = start;
            for (isize i = 0; i < nr; i++) rsrc[i + 1] = (ref_start >= 0 && r->ids[i] == ref_start) ? start : rows[i];
        }
        for (isize i = 0; i < sr; i++)
            if (rsrc[i] >= 0) common[rsrc[i]] = 1;
        *hits = skip_hits(src, sc, rsrc, sr, common, distance, 0);
    }
    FREE_ALL(src, rsrc, common);
    *cand_total = skip_total(sc, distance, 0);
    *ref_total = skip_total(sr, distance, 0);
    return *hits < 0 ? -1 : 0;
}

/* --- evidence ------------------------------------------------------------------------------ */

void ngram_evidence_free(NgramEvidence *e) {
    FREE_ALL(e->match.v, e->starts.v);
    memset(e, 0, sizeof(*e));
}

typedef struct {
    u64 key;
    i32 first, cc, rc, chead, ctail, rhead, rtail;
} NSlot;

/* Append the positions linked from `head` through next[] (-1 ends), `count` of them. */
static void push_chain(IVec *out, i32 head, const i32 *next, i32 count) {
    for (i32 p = head, k = 0; p >= 0 && k < count; p = next[p], k++) out->v[out->n++] = p;
}

/* The slot of the window at `at` of `seq` (ids hashed to `key`) in `tab`, whose slots hold
 * candidate windows; NULL when the table lacks it (`insert`: made for a candidate window). */
static NSlot *nslot(NSlot *tab, size_t mask, const i32 *ids, u64 key, const i32 *window, isize n, int insert,
                    isize at) {
    size_t q = (size_t)key & mask;
    for (;;) {
        NSlot *e = &tab[q];
        if (!e->key) {
            if (!insert) return NULL;
            e->key = key;
            e->first = (i32)at;
            e->chead = e->rhead = e->rtail = -1;
            return e;
        }
        if (e->key == key && memcmp(ids + e->first, window, (size_t)n * sizeof(i32)) == 0) return e;
        q = (q + 1) & mask;
    }
}

/* The hash of window[0..n) (-1 in it: a token the candidate lacks) and whether it is made of
 * tokens the other side has (common[id] > 0, or for reference rows id >= 0). */
static u64 window_key(const i32 *window, isize n, const i32 *ref_count, int *common) {
    u64 h = 0;
    *common = 1;
    for (isize k = 0; k < n; k++) {
        *common &= ref_count ? ref_count[window[k]] > 0 : window[k] >= 0;
        h = h * GRAM_BASE + (u64)(uint32_t)window[k];
    }
    return mix64(h) | 1;
}

int ngram_evidence(const Tok *c, const i32 *rows, isize nr, const i32 *ref_count, isize n, NgramEvidence *e) {
    const i32 *ids = c->ids;
    isize nc = c->n;
    if (n > nc || n > nr) return 0;
    isize ct = nc - n + 1, rt = nr - n + 1;
    size_t size = 16;
    while (size < 2 * (size_t)ct) size *= 2;
    NSlot *tab = xcalloc(size, sizeof(NSlot));
    i32 *slot_of = xmalloc((size_t)ct * sizeof(i32)); /* per candidate window: its slot, -1 */
    i32 *cnext = xmalloc((size_t)ct * sizeof(i32)), *rnext = xmalloc((size_t)rt * sizeof(i32));
    int rc = -1;
    if (!tab || !slot_of || !cnext || !rnext) goto done;
    size_t mask = size - 1;
    for (isize i = 0; i < ct; i++) {
        slot_of[i] = -1;
        cnext[i] = -1;
        int common;
        u64 key = window_key(ids + i, n, ref_count, &common);
        if (!common) continue;
        NSlot *s = nslot(tab, mask, ids, key, ids + i, n, 1, i);
        if (s->cc++ == 0)
            s->chead = (i32)i;
        else
            cnext[s->ctail] = (i32)i;
        s->ctail = (i32)i;
        slot_of[i] = (i32)(s - tab);
    }
    for (isize j = 0; j < rt; j++) {
        rnext[j] = -1;
        int common;
        u64 key = window_key(rows + j, n, NULL, &common);
        if (!common) continue;
        NSlot *s = nslot(tab, mask, ids, key, rows + j, n, 0, j);
        if (!s) continue;
        if (s->rc++ == 0)
            s->rhead = (i32)j;
        else
            rnext[s->rtail] = (i32)j;
        s->rtail = (i32)j;
    }
    for (isize i = 0; i < ct; i++) {
        if (slot_of[i] < 0) continue;
        NSlot *s = &tab[slot_of[i]];
        if (s->first != i || s->rc == 0) continue;
        if (ivec_reserve(&e->match, 3) < 0 || ivec_reserve(&e->starts, (isize)s->cc + s->rc) < 0) goto done;
        e->match.v[e->match.n++] = (i32)i;
        e->match.v[e->match.n++] = s->cc;
        e->match.v[e->match.n++] = s->rc;
        push_chain(&e->starts, s->chead, cnext, s->cc);
        push_chain(&e->starts, s->rhead, rnext, s->rc);
    }
    rc = 0;
done:
    FREE_ALL(tab, slot_of, cnext, rnext);
    return rc;
}

/* Every gram of a token list (joint ids) in reading order, `key` bound to each in turn; the
 * body runs in a do-while(0), so `continue` goes on to the next gram. */
#define FOR_EACH_GRAM(src, n, reach, unigrams, ...)                                        \
    for (isize i_ = 0; i_ + 1 < (n); i_++) {                                               \
        if (unigrams) {                                                                    \
            u64 key = pair_key((src)[i_], -1);                                             \
            do {                                                                           \
                __VA_ARGS__                                                                \
            } while (0);                                                                   \
        }                                                                                  \
        isize last_ = (reach) < 0 || i_ + (reach) >= (n) - 1 ? (n) - 1 : i_ + (reach);     \
        for (isize j_ = i_ + 1; j_ <= last_; j_++) {                                       \
            u64 key = pair_key((src)[i_], (src)[j_]);                                      \
            do {                                                                           \
                __VA_ARGS__                                                                \
            } while (0);                                                                   \
        }                                                                                  \
    }

/* The row of the gram of slot `g` (its first time only: g->pos marks it). */
static void push_row(SkipEvidence *e, GSlot *g) {
    g->pos = 1;
    i32 *out = e->rows.v + e->rows.n;
    out[0] = (i32)(g->key >> 32) - 1;
    out[1] = (i32)(g->key & 0xffffffffu) - 1;
    out[2] = g->cc;
    out[3] = g->rc;
    e->rows.n += 4;
}

int skip_evidence(const Tok *c, const Tok *r, const i32 *rows, long long distance, int form, SkipEvidence *e) {
    isize nc = c->n, nr = r->n, nvc = c->nv;
    /* joint ids of the reference's tokens, with room for the start token in front */
    i32 *rjoint = xmalloc((size_t)(nr + 2) * sizeof(i32));
    i32 *csrc = xmalloc((size_t)(nc + 2) * sizeof(i32));
    GTable tab = {0}; /* both sides' grams: cc, rc their counts, pos set once the gram's row is made */
    int rc = -1;
    e->start_fresh = -1;
    if (!rjoint || !csrc) goto done;
    for (isize i = 0; i < nr; i++) rjoint[i + 1] = rows[i] >= 0 ? rows[i] : (i32)(nvc + r->ids[i]);
    for (isize i = 0; i < nc; i++) csrc[i + 1] = c->ids[i];
    int unigrams = form == SU_ROUGE155;
    i32 *cs = csrc + 1, *rs = rjoint + 1;
    isize sc = nc, sr = nr;
    if (form == SU_START) {
        i32 cstart = start_id(c), rstart = start_id(r);
        i32 start = cstart >= 0 ? cstart : (rstart >= 0 ? (i32)(nvc + rstart) : (i32)(nvc + r->nv));
        if (cstart < 0 && rstart < 0) e->start_fresh = start;
        if (nc) {
            csrc[0] = start;
            cs = csrc;
            sc = nc + 1;
        }
        if (nr) {
            rjoint[0] = start;
            rs = rjoint;
            sr = nr + 1;
        }
    }
    long long reach = distance < 0 ? -1 : distance + 1;
    if (gt_init(&tab, (size_t)((sc + sr) * (reach < 0 || reach > 8 ? 8 : reach) + 8)) < 0) goto done;
    int failed = 0;
    FOR_EACH_GRAM(cs, sc, reach, unigrams, failed |= gt_count_side(&tab, key, 0) < 0;)
    FOR_EACH_GRAM(rs, sr, reach, unigrams, failed |= gt_count_side(&tab, key, 1) < 0;)
    if (failed || ivec_reserve(&e->rows, 4 * (isize)tab.used) < 0) goto done; /* a row per distinct gram */
    FOR_EACH_GRAM(rs, sr, reach, unigrams, {
        GSlot *g = gt_find(&tab, key);
        if (!g->pos) push_row(e, g);
    })
    FOR_EACH_GRAM(cs, sc, reach, unigrams, {
        GSlot *g = gt_find(&tab, key);
        if (!g->pos) push_row(e, g); /* every reference gram has its row: g->rc is 0 here */
    })
    rc = 0;
done:
    FREE_ALL(rjoint, csrc, tab.s);
    return rc;
}
