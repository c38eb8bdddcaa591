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

/* ROUGE-1.5.5's form: per reference sentence, every position aligned by its DP against some
 * candidate sentence -> the candidate position from the first such sentence
 * (rouge_core.families.wlcs._first_partners). partner: r->n entries (-1: none). */
static int wlcs_partners(const Tok *c, const Tok *r, const i32 *rows, const Gains *g, i32 *partner) {
    Padded p;
    WlcsBuf b = {0};
    u64 *bits = NULL;
    int rc = -1;
    if (padded_init(&p, c) < 0) return -1;
    isize longest_r = tok_longest_sentence(r);
    isize bw = p.width / 64 + 1;
    if (wbuf_reserve(&b, p.width) < 0) goto done;
    bits = xmalloc((size_t)(longest_r * bw + 1) * sizeof(u64));
    if (!bits) goto done;
    for (isize i = 0; i < r->n; i++) partner[i] = -1;
    for (isize s = 0; s < r->nsent; s++) {
        isize ra = r->bounds[2 * s], nr = r->bounds[2 * s + 1] - ra;
        if (nr <= 0) continue;
        memset(bits, 0, (size_t)(nr * bw) * sizeof(u64));
        const i32 *ref = rows + ra;
        wlcs_sweep_padded(ref, nr, &p, c->nsent, g, &b, bits, bw);
        for (isize t = 0; t < c->nsent; t++) {
            isize c0 = p.col0[t], len = c->bounds[2 * t + 1] - c->bounds[2 * t];
            isize i = nr, j = c0 + len;
            while (i > 0 && j > c0) {
                int match = ref[i - 1] >= 0 && ref[i - 1] == p.ids[j];
                if (match && partner[ra + i - 1] < 0) partner[ra + i - 1] = (i32)(c->bounds[2 * t] + (j - c0 - 1));
                trace_step(match, bits, bw, &i, &j);
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
