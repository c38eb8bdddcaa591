/* One method on one pair, and the kernels' working memory (pair.h). */
#include "pair.h"

#include <math.h>
#include <pthread.h>

#include "grams.h"
#include "wlcs.h"

const char *kplan_problem(const KPlan *k) {
    switch (k->code) {
    case K_NGRAM:
        return k->a >= 1 ? NULL : "n must be at least 1";
    case K_LCS:
    case K_UNION_LCS:
        return NULL;
    case K_WLCS_PAPER:
    case K_WLCS_ROUGE155:
        return k->w >= 1.0 && k->w <= 5.0 ? NULL : "w must be in [1, 5]";
    case K_SKIP:
        return k->b >= SU_NONE && k->b <= SU_START ? NULL : "unknown unigram form";
    }
    return "unknown kernel";
}

/* --- working memory, one per thread ---------------------------------------------------------- */

static pthread_key_t work_key;
static pthread_once_t work_once = PTHREAD_ONCE_INIT;

static void kwork_free(KWork *w) {
    trace_free(&w->trace);
    compact_free(&w->compact);
    probe_free(&w->probe);
    grambuf_free(&w->grams);
    tok_free(w->spare);
    tok_free(w->kept[0]);
    tok_free(w->kept[1]);
    stem_cache_free(&w->stems);
    lay_clear(&w->lay);
    FREE_ALL(w->found.v, w->seen, w->rows, w->ref_count, w->join_map, w);
}

static void kwork_destroy(void *w) { kwork_free(w); }

static void make_work_key(void) {
    if (pthread_key_create(&work_key, kwork_destroy) != 0) work_key = (pthread_key_t)-1;
}

KWork *kwork_acquire(void) {
    pthread_once(&work_once, make_work_key);
    KWork *w = pthread_getspecific(work_key);
    if (!w) {
        w = xcalloc(1, sizeof(KWork));
        if (!w) return NULL;
        if (pthread_setspecific(work_key, w) != 0) w->temporary = 1;
    }
    if (w->busy) {
        w = xcalloc(1, sizeof(KWork));
        if (!w) return NULL;
        w->temporary = 1;
    }
    w->busy = 1;
    return w;
}

/* Buffers larger than this are freed when the work is released (a long text's masks are not
 * kept by a thread that scores short ones afterwards). */
enum { KEEP_BYTES = 1 << 20 };

/* A thread's copy of the stems is kept up to this (about 100,000 word types): a batch's next
 * call is stemmed without the shared table's lock from its first text. */
enum { KEEP_STEM_BYTES = 1 << 24 };

void kwork_release(KWork *w) {
    if (!w) return;
    if (w->temporary) {
        kwork_free(w);
        return;
    }
    w->busy = 0;
    if ((size_t)w->compact.masks_cap * sizeof(u64) > KEEP_BYTES) compact_free(&w->compact);
    if ((size_t)w->trace.cap_words * sizeof(u64) > KEEP_BYTES) trace_free(&w->trace);
    if ((size_t)w->probe.buf_cap > KEEP_BYTES) probe_free(&w->probe);
    if (grambuf_bytes(&w->grams) > KEEP_BYTES) grambuf_free(&w->grams);
    if ((size_t)w->join_map_cap * sizeof(i32) > KEEP_BYTES) {
        free(w->join_map);
        w->join_map = NULL;
        w->join_map_cap = 0;
    }
    Tok **kept[] = {&w->spare, &w->kept[0], &w->kept[1]};
    for (size_t k = 0; k < sizeof(kept) / sizeof(*kept); k++) {
        Tok *t = *kept[k];
        if (t && t->layout) { /* the candidate's bit masks serve one call: the next one tokenizes afresh */
            lay_free(t->layout);
            t->layout = NULL;
        }
        if (t && (size_t)t->cap_buf + (size_t)t->cap_tokens * sizeof(i32) + (size_t)t->cap_sent * 2 * sizeof(i32) +
                         (size_t)t->cap_vocab * (2 * sizeof(i32) + sizeof(Term)) + (t->tmask + 1) * sizeof(u64) >
                     KEEP_BYTES) {
            tok_free(*kept[k]);
            *kept[k] = NULL;
        }
    }
    if (stem_cache_bytes(&w->stems) > KEEP_STEM_BYTES) stem_cache_free(&w->stems);
    if (lay_bytes(&w->lay) > KEEP_BYTES) lay_clear(&w->lay);
    w->view = NULL;
}

int kwork_ready(KWork *w, const Tok *c) {
    if (trace_width(&w->trace, 1) < 0) return -1;
    if (c->nv + 1 > w->seen_cap) {
        free(w->seen);
        w->seen_cap = c->nv + 1 > 2 * w->seen_cap ? c->nv + 1 : 2 * w->seen_cap;
        w->seen = xcalloc((size_t)w->seen_cap, sizeof(i32));
        if (!w->seen) {
            w->seen_cap = 0;
            return -1;
        }
    }
    return 0;
}

int kwork_join(KWork *w, const Tok *c, const Tok *r) {
    if (c->serial && w->joined[0] == c->serial && w->joined[1] == r->serial) return 0;
    w->joined[0] = w->joined[1] = 0;
    if (!grow_buffer((void **)&w->rows, &w->rows_cap, r->n + 1, sizeof(i32)) ||
        !grow_buffer((void **)&w->ref_count, &w->ref_count_cap, c->nv + 1, sizeof(i32)) ||
        !grow_buffer((void **)&w->join_map, &w->join_map_cap, r->nv + 1, sizeof(i32)) ||
        join(c, r, w->rows, w->ref_count, w->join_map) < 0)
        return -1;
    w->joined[0] = c->serial;
    w->joined[1] = r->serial;
    return 0;
}

/* The layout of w->view, a batch's private candidate view, in w's reused Lay. */
static Lay *view_layout(KWork *w, Tok *c) {
    if (c->layout) return c->layout;
    if (lay_build_into(&w->lay, c) < 0) return NULL;
    return c->layout = &w->lay;
}

/* --- statistics ------------------------------------------------------------------------------ */

static void counts(KStats *out, double hits, double ct, double rt) {
    out->hits = hits;
    out->ct = ct;
    out->rt = rt;
}

int pair_stats(Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, const KPlan *k, KWork *w, KStats *out) {
    isize nc = c->n, nr = r->n;
    out->exponent = 1.0;
    out->floats = 0;
    out->base = 0.0;
    out->base_kind = BASE_NONE;
    switch (k->code) {
    case K_NGRAM: {
        isize n = (isize)k->a;
        long long hits = ngram_hits(c, rows, nr, ref_count, n, &w->grams);
        if (hits < 0) return -1;
        counts(out, (double)hits, (double)(nc - n + 1 > 0 ? nc - n + 1 : 0), (double)(nr - n + 1 > 0 ? nr - n + 1 : 0));
        return 0;
    }
    case K_LCS:
        if (!load_published((void *const *)&c->layout)) { /* the layout is built for union LCS and evidence only */
            isize hits = compact_lcs(c, rows, nr, ref_count, &w->compact);
            if (hits < 0) return -1;
            counts(out, (double)hits, (double)nc, (double)nr);
            return 0;
        }
        /* fall through */
    case K_UNION_LCS: {
        Lay *l = c == w->view ? view_layout(w, c) : tok_layout(c); /* built on the first method that needs it */
        if (!l || trace_width(&w->trace, l->W) < 0) return -1;
        isize hits = k->code == K_LCS ? lay_lcs_length(l, rows, nr, w->trace.v)
                                      : union_hits(l, r, rows, &w->trace, &w->found, w->seen);
        if (hits < 0) return -1;
        counts(out, (double)hits, (double)nc, (double)nr);
        return 0;
    }
    case K_WLCS_PAPER:
    case K_WLCS_ROUGE155: {
        double hits, base;
        if (k->code == K_WLCS_PAPER) {
            if (wlcs_paper_value(c, rows, nr, k->w, &hits) < 0) return -1;
            base = (double)nr;
            out->base_kind = BASE_INT;
        } else {
            if (wlcs_rouge155_stats(c, r, rows, ref_count, k->w, &hits, &base) < 0) return -1;
            out->base_kind = BASE_FLOAT;
        }
        out->floats = 1;
        counts(out, hits, py_pow((double)nc, k->w), py_pow(base, k->w));
        out->exponent = 1.0 / k->w;
        out->base = base;
        return 0;
    }
    case K_SKIP: {
        long long hits, ct, rt;
        if (skip_stats(c, r, rows, ref_count, k->a, (int)k->b, &hits, &ct, &rt) < 0) return -1;
        counts(out, (double)hits, (double)ct, (double)rt);
        return 0;
    }
    }
    return -1;
}

/* rouge_core.stats._ratio: the same operations. */
static double ratio_of(double hits, double total, double exponent) {
    if (total <= 0) return 0.0;
    double ratio = hits / total;
    if (exponent == 1.0) return ratio;
    ratio = py_pow(ratio, exponent);
    return ratio < 1.0 - SPEC_W_ROUNDING ? ratio : 1.0;
}

void score_ratios(const KStats *s, int empty_nan, double *precision, double *recall) {
    *precision = ratio_of(s->hits, s->ct, s->exponent);
    *recall = ratio_of(s->hits, s->rt, s->exponent);
    if (empty_nan) {
        if (s->ct <= 0) *precision = NAN;
        if (s->rt <= 0) *recall = NAN;
    }
}
