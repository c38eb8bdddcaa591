/* ROUGE-W: the weighted-LCS dynamic programme (wlcs.h; rouge_core.families.wlcs._python_alignment and
 * rouge_core.families.wlcs._first_partners).
 *
 * Rows are reference tokens, columns candidate tokens. A match cell continues the diagonal
 * run k: c = (c_diag + f(k+1)) - f(k); any other cell is max(up, left), the up value winning
 * ties. Two rows of values are kept (linear memory); for a traceback, one bit per cell says
 * up (1) or left (0) where the tokens differ (every match cell is a diagonal move), so the
 * alignment is the pure path's, tie-breaks included, at 1/8 byte a cell. */
#include "wlcs.h"

#include <math.h>

typedef struct {
    double *gn, *go; /* gn[k] = f(k+1), go[k] = f(k), k < len */
    isize len;
} Gains;

static int gains_init(Gains *g, double w, isize longest) {
    g->len = longest + 1;
    g->gn = xmalloc((size_t)g->len * sizeof(double));
    g->go = xmalloc((size_t)g->len * sizeof(double));
    if (!g->gn || !g->go) {
        FREE_ALL(g->gn, g->go);
        g->gn = g->go = NULL;
        return -1;
    }
    /* float(k) ** w as Python computes it (0 ** w = 0, 1 ** w = 1, else the C library's pow) */
    for (isize k = 0; k < g->len; k++) {
        g->go[k] = k == 0 ? 0.0 : (k == 1 ? 1.0 : pow((double)k, w));
        g->gn[k] = k == 0 ? 1.0 : pow((double)(k + 1), w);
    }
    return 0;
}

static void gains_free(Gains *g) {
    FREE_ALL(g->gn, g->go);
}

/* Columns per candidate id (CSR): cols[start[id] .. start[id + 1]) ascending, 1-based. */
typedef struct {
    i32 *start, *cols;
} Columns;

static int columns_init(Columns *cs, const i32 *cand, isize nc, isize nv) {
    cs->start = xcalloc((size_t)nv + 2, sizeof(i32));
    cs->cols = xmalloc((size_t)nc * sizeof(i32));
    if (!cs->start || !cs->cols) {
        FREE_ALL(cs->start, cs->cols);
        cs->start = cs->cols = NULL;
        return -1;
    }
    for (isize j = 0; j < nc; j++) cs->start[cand[j] + 2]++;
    for (isize v = 0; v < nv; v++) cs->start[v + 2] += cs->start[v + 1];
    for (isize j = 0; j < nc; j++) cs->cols[cs->start[cand[j] + 1]++] = (i32)(j + 1);
    return 0;
}

static void columns_free(Columns *cs) {
    FREE_ALL(cs->start, cs->cols);
}

typedef struct {
    double *v;        /* one row of values, updated in place */
    i32 *rp, *rr;     /* run lengths: of the row above, of this row (at match columns) */
    i32 *dp, *dc;     /* the columns where the row above / this row decreases, ascending */
    isize cap;
} WlcsBuf;

static void wbuf_free(WlcsBuf *b) {
    FREE_ALL(b->v, b->rp, b->rr, b->dp, b->dc);
    memset(b, 0, sizeof(*b));
}

static int wbuf_reserve(WlcsBuf *b, isize nc) {
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
static void wbuf_done(WlcsBuf *b, i32 *rp, i32 *rr, i32 *dp, i32 *dc, isize width) {
    memset(b->v, 0, (size_t)(width + 1) * sizeof(double));
    memset(rp, 0, (size_t)(width + 1) * sizeof(i32));
    memset(rr, 0, (size_t)(width + 1) * sizeof(i32));
    b->rp = rp;
    b->rr = rr;
    b->dp = dp;
    b->dc = dc;
}

/* bits from..to-1 of `row` set */
static inline void set_bit_range(u64 *row, isize from, isize to) {
    if (from >= to) return;
    isize a = from >> 6, z = (to - 1) >> 6;
    u64 first = ~(u64)0 << (from & 63), last = ~(u64)0 >> (63 - ((to - 1) & 63));
    if (a == z) {
        row[a] |= first & last;
        return;
    }
    row[a] |= first;
    for (isize w = a + 1; w < z; w++) row[w] = ~(u64)0;
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
static inline double running_max(double *v, isize from, isize to, double left, const i32 **drop,
                                 const i32 *dend, u64 *brow) {
    while (from < to) {
        while (*drop < dend && **drop <= from) (*drop)++;
        isize piece = (*drop < dend && **drop < to) ? **drop : to; /* [from, piece) never decreases */
        isize lo = from, hi = piece;                           /* the first v[j] >= left */
        if (hi - lo > 16) {
            while (lo < hi) {
                isize mid = lo + (hi - lo) / 2;
                if (v[mid] >= left)
                    hi = mid;
                else
                    lo = mid + 1;
            }
        } else {
            while (lo < hi && v[lo] < left) lo++;
        }
        for (isize j = from; j < lo; j++) v[j] = left;
        if (lo < piece) {
            if (brow) set_bit_range(brow, lo, piece);
            left = v[piece - 1];
        }
        from = piece;
    }
    return left;
}

/* The match columns of candidate id `id` (none for -1): [*m, *mend). */
__attribute__((always_inline)) static inline void columns_of(const Columns *cs, i32 id, const i32 **m, const i32 **mend) {
    *m = *mend = NULL;
    if (id >= 0) {
        *m = cs->cols + cs->start[id];
        *mend = cs->cols + cs->start[id + 1];
    }
}

/* runs[j] = 0 at id's match columns within the block (lo, lo + nc]: a row's runs are kept at
 * its own match columns only, so clearing those resets the row. */
__attribute__((always_inline)) static inline void clear_runs(i32 *runs, const Columns *cs, i32 id, isize lo, isize nc) {
    const i32 *q, *end;
    columns_of(cs, id, &q, &end);
    for (; q < end; q++) {
        isize j = *q - lo;
        if (j >= 1 && j <= nc) runs[j] = 0;
    }
}

/* A match cell's value: the diagonal run k = rp[j - 1] continues, c = (diag + f(k+1)) - f(k). */
__attribute__((always_inline)) static inline double match_value(const i32 *rp, const double *gn, const double *go,
                                                               isize j, double diag) {
    i32 k = rp[j - 1];
    return (diag + gn[k]) - go[k];
}

static double wlcs_sweep(const i32 *ref, isize nr, const i32 *cand, isize nc, const Columns *cs,
                         isize lo, const Gains *g, WlcsBuf *b, u64 *bits, isize bw) {
    double *v = b->v; /* the row above, then this row */
    i32 *rp = b->rp, *rr = b->rr, *dp = b->dp, *dc = b->dc;
    isize ndp = 0; /* the zero row never decreases */
    const double *gn = g->gn, *go = g->go;
    i32 prev_id = -1, prev2_id = -1;
    (void)cand;
    for (isize i = 0; i < nr; i++) {
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
                isize j = *q - lo;
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
                    isize j = *q - lo;
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
        isize ndc = 0;
        isize j = 1;
        for (;;) {
            isize mj = (m < mend && *m - lo <= nc) ? *m - lo : nc + 1;
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

/* One step of a traceback from cell (i, j): diagonal on a match, else up or left as the cell's
 * bit says. */
__attribute__((always_inline)) static inline void trace_step(int match, const u64 *bits, isize bw, isize *i, isize *j) {
    if (match) {
        (*i)--;
        (*j)--;
    } else if ((bits[(*i - 1) * bw + (*j >> 6)] >> (*j & 63)) & 1) {
        (*i)--;
    } else {
        (*j)--;
    }
}

static int wlcs_trace(const i32 *ref, isize nr, const i32 *cand, isize nc, const u64 *bits, isize bw,
                      IVec *out) {
    isize start = out->n;
    isize i = nr, j = nc;
    while (i > 0 && j > 0) {
        int match = ref[i - 1] >= 0 && ref[i - 1] == cand[j - 1];
        if (match && (ivec_push(out, (i32)(j - 1)) < 0 || ivec_push(out, (i32)(i - 1)) < 0)) return -1;
        trace_step(match, bits, bw, &i, &j);
    }
    /* reverse to ascending order (pairs were pushed as (c, r), reversed they read (r, c)) */
    for (isize a = start, e = out->n - 1; a < e; a++, e--) {
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
    isize width;
    i32 *col0;         /* per candidate sentence: its zero column (then its tokens) */
    Columns cs;        /* match columns (1-based positions in `ids`) per candidate id */
} Padded;

static void padded_free(Padded *p) {
    FREE_ALL(p->ids, p->col0);
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
    isize at = 0;
    for (isize t = 0; t < c->nsent; t++) {
        p->col0[t] = (i32)at;
        p->ids[at++] = -1;
        for (isize i = c->bounds[2 * t]; i < c->bounds[2 * t + 1]; i++) p->ids[at++] = c->ids[i];
    }
    p->width = at;
    for (isize j = 0; j < at; j++)
        if (p->ids[j] >= 0) p->cs.start[p->ids[j] + 2]++;
    for (isize v = 0; v < c->nv; v++) p->cs.start[v + 2] += p->cs.start[v + 1];
    for (isize j = 0; j < at; j++)
        if (p->ids[j] >= 0) p->cs.cols[p->cs.start[p->ids[j] + 1]++] = (i32)j;
    return 0;
}

/* Rows `ref` (candidate ids or -1) over the padded columns; bits: rows x bw words, zeroed,
 * 1 where a cell (not a match, not a zero column) moves up. Buffers as wlcs_sweep's. */
static void wlcs_sweep_padded(const i32 *ref, isize nr, const Padded *p, isize nsent, const Gains *g,
                              WlcsBuf *b, u64 *bits, isize bw) {
    double *v = b->v; /* the row above, then this row (wlcs_sweep); zero columns stay 0 */
    i32 *rp = b->rp, *rr = b->rr, *dp = b->dp, *dc = b->dc;
    isize ndp = 0;
    const double *gn = g->gn, *go = g->go;
    const Columns *cs = &p->cs;
    isize width = p->width;
    i32 prev_id = -1, prev2_id = -1;
    for (isize i = 0; i < nr; i++) {
        i32 id = ref[i];
        const i32 *m, *mend;
        columns_of(cs, id, &m, &mend);
        clear_runs(rr, cs, prev2_id, 0, width);
        u64 *brow = bits + i * bw;
        if (m == mend && ndp == 0) {
            /* no match over a row above that never decreases within a block: every cell moves
             * up and keeps its value (as in wlcs_sweep; the zero columns' bits are never read) */
            clear_runs(rp, cs, prev_id, 0, width);
            set_bit_range(brow, 0, width);
            prev_id = prev2_id = -1;
            continue;
        }
        isize t = 0, j = 0, ndc = 0;
        double left = 0.0, held = 0.0;
        const i32 *drop = dp, *dend = dp + ndp;
        for (;;) {
            isize next0 = t < nsent ? p->col0[t] : width;
            isize mj = m < mend ? *m : width;
            isize stop = next0 < mj ? next0 : mj;
            double diag = stop - 1 >= j ? v[stop - 1] : held; /* the row above at stop - 1 */
            left = running_max(v, j, stop, left, &drop, dend, brow);
            j = stop;
            if (stop >= width) break;
            if (stop == next0) { /* a zero column (always 0): the next block starts */
                held = 0.0;
                left = 0.0;
                t++;
            } else {
                double value = match_value(rp, gn, go, j, diag);
                if (value < left) dc[ndc++] = (i32)j;
                held = v[j];
                v[j] = left = value;
                rr[j] = rp[j - 1] + 1;
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

/* Per candidate id, the candidate sentences holding it, ascending, each once (CSR):
 * sent[start[id] .. start[id + 1]). */
typedef struct {
    i32 *start, *sent;
} SentencesOf;

static void sentences_of_free(SentencesOf *so) {
    FREE_ALL(so->start, so->sent);
}

static int sentences_of_init(SentencesOf *so, const Tok *c) {
    so->start = xcalloc((size_t)c->nv + 2, sizeof(i32));
    so->sent = xmalloc((size_t)c->n * sizeof(i32));
    i32 *last = xmalloc((size_t)c->nv * sizeof(i32)); /* the last sentence counted per id */
    if (!so->start || !so->sent || !last) {
        sentences_of_free(so);
        free(last);
        return -1;
    }
    for (isize pass = 0; pass < 2; pass++) {
        for (isize v = 0; v < c->nv; v++) last[v] = -1;
        for (isize t = 0; t < c->nsent; t++)
            for (isize j = c->bounds[2 * t]; j < c->bounds[2 * t + 1]; j++) {
                i32 id = c->ids[j];
                if (last[id] == t) continue;
                last[id] = (i32)t;
                if (pass == 0)
                    so->start[id + 2]++;
                else
                    so->sent[so->start[id + 1]++] = (i32)t;
            }
        if (pass == 0)
            for (isize v = 0; v < c->nv; v++) so->start[v + 2] += so->start[v + 1];
    }
    free(last);
    return 0;
}

/* Working memory for one (reference sentence, candidate sentence) DP: the two sentences in
 * ids local to the candidate sentence (so its match columns are a small CSR), the traceback
 * bits, the sweep's rows. */
typedef struct {
    i32 *local;       /* per candidate id: its local id while a block is set up, else -1 */
    i32 *cand, *ref;  /* the block's candidate sentence and reference rows, local ids (-1: none) */
    Columns cs;       /* local id -> its 1-based columns in the candidate sentence */
    u64 *bits;
    isize bits_cap;
    WlcsBuf b;
} BlockBuf;

static void block_free(BlockBuf *k) {
    FREE_ALL(k->local, k->cand, k->ref, k->bits);
    columns_free(&k->cs);
    wbuf_free(&k->b);
}

static int block_init(BlockBuf *k, const Tok *c, isize longest_c, isize longest_r) {
    memset(k, 0, sizeof(*k));
    k->local = xmalloc((size_t)c->nv * sizeof(i32));
    k->cand = xmalloc((size_t)longest_c * sizeof(i32));
    k->ref = xmalloc((size_t)longest_r * sizeof(i32));
    k->cs.start = xmalloc((size_t)(longest_c + 2) * sizeof(i32));
    k->cs.cols = xmalloc((size_t)longest_c * sizeof(i32));
    if (!k->local || !k->cand || !k->ref || !k->cs.start || !k->cs.cols || wbuf_reserve(&k->b, longest_c) < 0) {
        block_free(k);
        return -1;
    }
    for (isize v = 0; v < c->nv; v++) k->local[v] = -1;
    return 0;
}

/* Reference sentence `ref` (nr rows, candidate ids or -1) against candidate sentence t: its
 * DP (wlcs_sweep, the path's own DP over a whole pair) traced back; every aligned reference
 * position q without a partner gets the candidate position. -1 on no memory. */
static int block_partners(BlockBuf *k, const Tok *c, isize t, const i32 *ref, isize nr, const Gains *g,
                          i32 *partner) {
    isize ca = c->bounds[2 * t], nc = c->bounds[2 * t + 1] - ca;
    isize nloc = 0;
    for (isize j = 0; j < nc; j++) {
        i32 id = c->ids[ca + j];
        if (k->local[id] < 0) k->local[id] = (i32)nloc++;
        k->cand[j] = k->local[id];
    }
    for (isize i = 0; i < nr; i++) k->ref[i] = ref[i] >= 0 ? k->local[ref[i]] : -1;
    for (isize j = 0; j < nc; j++) k->local[c->ids[ca + j]] = -1;
    i32 *start = k->cs.start;
    memset(start, 0, (size_t)(nloc + 2) * sizeof(i32));
    for (isize j = 0; j < nc; j++) start[k->cand[j] + 2]++;
    for (isize v = 0; v < nloc; v++) start[v + 2] += start[v + 1];
    for (isize j = 0; j < nc; j++) k->cs.cols[start[k->cand[j] + 1]++] = (i32)(j + 1);
    isize bw = nc / 64 + 1;
    if (!grow_buffer((void **)&k->bits, &k->bits_cap, nr * bw, sizeof(u64))) return -1;
    memset(k->bits, 0, (size_t)(nr * bw) * sizeof(u64));
    wlcs_sweep(k->ref, nr, k->cand, nc, &k->cs, 0, g, &k->b, k->bits, bw);
    isize i = nr, j = nc;
    while (i > 0 && j > 0) {
        int match = k->ref[i - 1] >= 0 && k->ref[i - 1] == k->cand[j - 1];
        if (match && partner[i - 1] < 0) partner[i - 1] = (i32)(ca + j - 1);
        trace_step(match, k->bits, bw, &i, &j);
    }
    return 0;
}

/* Every candidate sentence at once: the sentences side by side (Padded), one sweep of a
 * reference sentence's rows, then each block traced. Built on first use. */
typedef struct {
    int ready;
    Padded p;
    WlcsBuf b;
    u64 *bits; /* longest reference sentence x bw words */
    isize bw;
} AllBlocks;

static void all_blocks_free(AllBlocks *a) {
    if (!a->ready) return;
    padded_free(&a->p);
    wbuf_free(&a->b);
    free(a->bits);
    a->ready = 0;
}

static int all_blocks_partners(AllBlocks *a, const Tok *c, isize longest_r, const i32 *ref, isize nr,
                               const Gains *g, i32 *partner) {
    if (!a->ready) {
        memset(a, 0, sizeof(*a));
        if (padded_init(&a->p, c) < 0) return -1;
        a->bw = a->p.width / 64 + 1;
        a->bits = xmalloc((size_t)(longest_r * a->bw + 1) * sizeof(u64));
        a->ready = 1;
        if (!a->bits || wbuf_reserve(&a->b, a->p.width) < 0) return -1;
    }
    isize bw = a->bw;
    memset(a->bits, 0, (size_t)(nr * bw) * sizeof(u64));
    wlcs_sweep_padded(ref, nr, &a->p, c->nsent, g, &a->b, a->bits, bw);
    for (isize t = 0; t < c->nsent; t++) {
        isize c0 = a->p.col0[t], len = c->bounds[2 * t + 1] - c->bounds[2 * t];
        isize i = nr, j = c0 + len;
        while (i > 0 && j > c0) {
            int match = ref[i - 1] >= 0 && ref[i - 1] == a->p.ids[j];
            if (match && partner[i - 1] < 0) partner[i - 1] = (i32)(c->bounds[2 * t] + (j - c0 - 1));
            trace_step(match, a->bits, bw, &i, &j);
        }
    }
    return 0;
}

/* ROUGE-1.5.5's form: per reference sentence, every position aligned by its DP against some
 * candidate sentence -> the candidate position from the first such sentence
 * (rouge_core.families.wlcs._first_partners). partner: r->n entries (-1: none).
 *
 * A block (reference sentence, candidate sentence t) can only partner a position whose token
 * t holds and that has no partner yet: the candidate sentences are visited in order, and only
 * those holding the token of some such position; a sentence's search ends when no position
 * is left that a later sentence could partner. On prose, where the common words are partnered
 * early, that is a few dozen blocks per reference sentence instead of all of them. A block
 * visited alone costs more than its share of one sweep over every candidate sentence
 * (all_blocks_partners), so a reference sentence that needs more than an eighth of the
 * candidate sentences goes on with that sweep (which partners in the same order, so the
 * partners set so far stand): never much over its cost. */
static int wlcs_partners(const Tok *c, const Tok *r, const i32 *rows, const Gains *g, i32 *partner) {
    SentencesOf so = {0};
    BlockBuf k;
    AllBlocks all = {0};
    isize longest_r = tok_longest_sentence(r);
    isize most_blocks = c->nsent / W155_BLOCKS_PER + W155_BLOCKS_MORE; /* visited one by one before the sweep */
    i32 *open = xmalloc((size_t)(longest_r + 1) * sizeof(i32));   /* positions still to partner */
    i32 *cursor = xmalloc((size_t)(longest_r + 1) * sizeof(i32)); /* each one's next sentence in so */
    int rc = -1;
    if (!open || !cursor) {
        FREE_ALL(open, cursor);
        return -1;
    }
    if (sentences_of_init(&so, c) < 0) {
        FREE_ALL(open, cursor);
        return -1;
    }
    if (block_init(&k, c, tok_longest_sentence(c), longest_r) < 0) goto no_block;
    for (isize i = 0; i < r->n; i++) partner[i] = -1;
    for (isize s = 0; s < r->nsent; s++) {
        isize ra = r->bounds[2 * s], nr = r->bounds[2 * s + 1] - ra;
        const i32 *ref = rows + ra;
        i32 *part = partner + ra;
        isize nopen = 0, visited = 0;
        for (isize q = 0; q < nr; q++)
            if (ref[q] >= 0) {
                open[nopen] = (i32)q;
                cursor[nopen++] = so.start[ref[q]];
            }
        isize t = 0;
        for (;;) {
            isize next = c->nsent, kept = 0;
            for (isize u = 0; u < nopen; u++) {
                i32 q = open[u];
                if (part[q] >= 0) continue;
                i32 cur = cursor[u], end = so.start[ref[q] + 1];
                while (cur < end && so.sent[cur] < t) cur++;
                if (cur == end) continue;
                open[kept] = q;
                cursor[kept++] = cur;
                if (so.sent[cur] < next) next = so.sent[cur];
            }
            nopen = kept;
            if (nopen == 0) break;
            if (++visited > most_blocks) {
                if (all_blocks_partners(&all, c, longest_r, ref, nr, g, part) < 0) goto done;
                break;
            }
            if (block_partners(&k, c, next, ref, nr, g, part) < 0) goto done;
            t = next + 1;
        }
    }
    rc = 0;
done:
    block_free(&k);
    all_blocks_free(&all);
no_block:
    sentences_of_free(&so);
    FREE_ALL(open, cursor);
    return rc;
}

/* ROUGE-1.5.5's ROUGE-W statistics (rouge_core.families.wlcs.wlcs_rouge155 without evidence):
 * hits, and the reference base sum of f(|r_i|). */
int wlcs_rouge155_stats(const Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, double w,
                               double *hits_out, double *base_out) {
    Gains g;
    isize longest = tok_longest_sentence(r);
    if (gains_init(&g, w, longest) < 0) return -1;
    i32 *partner = xmalloc((size_t)r->n * sizeof(i32));
    i32 *cleft = xmalloc((size_t)c->nv * sizeof(i32));
    i32 *rleft = xmalloc((size_t)c->nv * sizeof(i32));
    int rc = -1;
    if (!partner || !cleft || !rleft || wlcs_partners(c, r, rows, &g, partner) < 0) goto done;
    memcpy(cleft, c->counts, (size_t)c->nv * sizeof(i32));
    memcpy(rleft, ref_count, (size_t)c->nv * sizeof(i32));
    double hits = 0.0, base = 0.0;
    for (isize s = 0; s < r->nsent; s++) {
        isize ra = r->bounds[2 * s], len = r->bounds[2 * s + 1] - ra;
        base += py_pow((double)len, w);
        isize current = 0;
        for (isize q = 0; q < len; q++) {
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
    FREE_ALL(partner, cleft, rleft);
    return rc;
}

/* Lin's ROUGE-W: the DP value over the whole token lists (no traceback: two rows). */
int wlcs_paper_value(const Tok *c, const i32 *rows, isize nr, double w, double *value) {
    isize nc = c->n;
    isize longest = nr < nc ? nr : nc;
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

int wlcs_alignment(const Tok *c, const i32 *rows, isize nr, double w, double *value, IVec *pairs) {
    isize nc = c->n, bw = nc / 64 + 1;
    Gains g = {0};
    Columns cs = {0};
    WlcsBuf b = {0};
    u64 *bits = NULL;
    int rc = -1;
    if (gains_init(&g, w, nr < nc ? nr : nc) < 0 || columns_init(&cs, c->ids, nc, c->nv) < 0 ||
        wbuf_reserve(&b, nc) < 0 || !(bits = xcalloc((size_t)(nr * bw + 1), sizeof(u64))))
        goto done;
    *value = wlcs_sweep(rows, nr, c->ids, nc, &cs, 0, &g, &b, bits, bw);
    rc = wlcs_trace(rows, nr, c->ids, nc, bits, bw, pairs);
done:
    gains_free(&g);
    columns_free(&cs);
    wbuf_free(&b);
    free(bits);
    return rc;
}

int wlcs_first_partners(const Tok *c, const Tok *r, const i32 *rows, const i32 *cstart, double w, i32 *out) {
    Gains g;
    if (gains_init(&g, w, tok_longest_sentence(r)) < 0) return -1;
    int rc = wlcs_partners(c, r, rows, &g, out);
    gains_free(&g);
    if (rc < 0) return -1;
    for (isize i = 0; i < r->n; i++) {
        i32 pos = out[i];
        if (pos < 0) continue;
        /* the candidate position: its sentence's given start + the column within it */
        isize lo = 0, hi = c->nsent - 1; /* the last sentence starting at or before pos */
        while (lo < hi) {
            isize mid = (lo + hi + 1) / 2;
            if (c->bounds[2 * mid] <= pos)
                lo = mid;
            else
                hi = mid - 1;
        }
        isize t = lo;
        while (c->bounds[2 * t + 1] <= pos) t++; /* past empty sentences starting there */
        out[i] = (i32)(cstart[t] + (pos - c->bounds[2 * t]));
    }
    return 0;
}
