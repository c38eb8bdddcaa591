/* The bit-parallel LCS and rouge-score's union-LCS traceback (lcs.h; rouge_core.families.bitparallel_lcs
 * and rouge_core.families.lcs). */
#include "lcs.h"

void lay_free(Lay *l) {
    if (!l) return;
    FREE_ALL(l->masks, l->cnt, l->rmasks, l->full, l->every, l->start_rev, l->columns, l->span_sent, l->span_lo,
             l->span_len, l);
}

/* The layout's shape: its width in bits and its non-empty sentences. */
static void lay_shape(const Tok *t, isize *width, isize *nspans) {
    *width = *nspans = 0;
    for (isize s = 0; s < t->nsent; s++) {
        isize len = t->bounds[2 * s + 1] - t->bounds[2 * s];
        if (len > 0) {
            *width += len + 1;
            (*nspans)++;
        }
    }
}

/* The bits of t's tokens set in l's buffers (allocated to the shape and zeroed). */
static void lay_fill(Lay *l, const Tok *t) {
    isize W = l->W, top = 64 * W - 1;
    isize pos = 0, k = 0;
    for (isize s = 0; s < t->nsent; s++) {
        isize a = t->bounds[2 * s], b = t->bounds[2 * s + 1];
        if (b <= a) continue;
        l->span_sent[k] = (i32)s;
        l->span_lo[k] = (i32)(pos + 1);
        l->span_len[k] = (i32)(b - a);
        k++;
        for (isize i = a; i < b; i++) {
            isize bit = pos + 1 + (i - a);
            setbit(l->masks + (isize)t->ids[i] * W, bit);
            l->cnt[t->ids[i]]++;
            setbit(l->full, bit);
        }
        isize end = pos + (b - a);
        setbit(l->start_rev, top - end);
        pos = end + 1;
    }
    for (isize bit = 0; bit < l->width; bit++) setbit(l->every, bit);
}

static void lay_set_shape(Lay *l, const Tok *t, isize width, isize nspans) {
    l->W = width / 64 + 1;
    l->width = width;
    l->nv = t->nv;
    l->nsent = t->nsent;
    l->nspans = nspans;
}

Lay *lay_build(const Tok *t) {
    Lay *l = xcalloc(1, sizeof(Lay));
    if (!l) return NULL;
    isize width, nspans;
    lay_shape(t, &width, &nspans);
    lay_set_shape(l, t, width, nspans);
    isize W = l->W;
    l->masks = xcalloc((size_t)(t->nv * W), sizeof(u64));
    l->cnt = xcalloc((size_t)t->nv, sizeof(i32));
    l->full = xcalloc((size_t)W, sizeof(u64));
    l->every = xcalloc((size_t)W, sizeof(u64));
    l->start_rev = xcalloc((size_t)W, sizeof(u64));
    l->span_sent = xmalloc((size_t)nspans * sizeof(i32));
    l->span_lo = xmalloc((size_t)nspans * sizeof(i32));
    l->span_len = xmalloc((size_t)nspans * sizeof(i32));
    if (!l->masks || !l->cnt || !l->full || !l->every || !l->start_rev || !l->span_sent || !l->span_lo ||
        !l->span_len) {
        lay_free(l);
        return NULL;
    }
    lay_fill(l, t);
    return l;
}

int lay_build_into(Lay *l, const Tok *t) {
    isize width, nspans;
    lay_shape(t, &width, &nspans);
    l->reused = 1;
    l->rmasks = NULL; /* built again on first use, into their rooms */
    l->columns = NULL;
    isize W = width / 64 + 1, unused;
    /* the three W-word vectors share one room: full, every, start_rev */
    if (!grow_buffer((void **)&l->masks, &l->cap_masks, t->nv * W + 1, sizeof(u64)) ||
        !grow_buffer((void **)&l->cnt, &l->cap_cnt, t->nv + 1, sizeof(i32)) ||
        !grow_buffer((void **)&l->full, &l->cap_W, 3 * W, sizeof(u64)))
        return -1;
    unused = l->cap_spans;
    if (!grow_buffer((void **)&l->span_sent, &unused, nspans + 1, sizeof(i32))) return -1;
    unused = l->cap_spans;
    if (!grow_buffer((void **)&l->span_lo, &unused, nspans + 1, sizeof(i32))) return -1;
    if (!grow_buffer((void **)&l->span_len, &l->cap_spans, nspans + 1, sizeof(i32))) return -1;
    lay_set_shape(l, t, width, nspans);
    l->every = l->full + W;
    l->start_rev = l->full + 2 * W;
    memset(l->masks, 0, (size_t)(t->nv * W) * sizeof(u64));
    memset(l->cnt, 0, (size_t)t->nv * sizeof(i32));
    memset(l->full, 0, (size_t)(3 * W) * sizeof(u64));
    lay_fill(l, t);
    return 0;
}

void lay_clear(Lay *l) {
    FREE_ALL(l->masks, l->cnt, l->full, l->span_sent, l->span_lo, l->span_len, l->rmasks_room, l->columns_room);
    memset(l, 0, sizeof(*l));
}

size_t lay_bytes(const Lay *l) {
    return (size_t)(l->cap_masks + l->cap_W + l->cap_rmasks) * sizeof(u64) +
           (size_t)(l->cap_cnt + 3 * l->cap_spans + l->cap_columns) * sizeof(i32);
}

Lay *tok_layout(Tok *t) {
    Lay *l = load_published((void *const *)&t->layout);
    if (l) return l;
    l = lay_build(t);
    if (!l) return NULL;
    Lay *kept = publish((void **)&t->layout, l);
    if (kept != l) lay_free(l);
    return kept;
}

int lay_columns(Lay *l) {
    if (load_published((void *const *)&l->columns)) return 0;
    isize need = 2 * (l->width + 1);
    i32 *columns = l->reused ? grow_buffer((void **)&l->columns_room, &l->cap_columns, need, sizeof(i32))
                             : xmalloc((size_t)need * sizeof(i32));
    if (!columns) return -1;
    for (isize k = 0; k < l->nspans; k++) {
        isize lo = l->span_lo[k];
        columns[2 * (lo - 1)] = columns[2 * (lo - 1) + 1] = -1; /* the guard */
        for (isize c = 0; c < l->span_len[k]; c++) {
            columns[2 * (lo + c)] = l->span_sent[k];
            columns[2 * (lo + c) + 1] = (i32)c;
        }
    }
    if (l->reused) /* private to its thread */
        l->columns = columns;
    else if (publish((void **)&l->columns, columns) != columns)
        free(columns);
    return 0;
}

int lay_reversed_masks(Lay *l) {
    if (load_published((void *const *)&l->rmasks)) return 0;
    isize W = l->W;
    u64 *rmasks = l->reused ? grow_buffer((void **)&l->rmasks_room, &l->cap_rmasks, l->nv * W + 1, sizeof(u64))
                            : xmalloc((size_t)(l->nv * W) * sizeof(u64));
    if (!rmasks) return -1;
    for (isize v = 0; v < l->nv; v++) {
        const u64 *m = l->masks + v * W;
        u64 *r = rmasks + v * W;
        for (isize w = 0; w < W; w++) r[w] = bitrev64(m[W - 1 - w]);
    }
    if (l->reused)
        l->rmasks = rmasks;
    else if (publish((void **)&l->rmasks, rmasks) != rmasks)
        free(rmasks);
    return 0;
}

/* One row of the Allison-Dix / Hyyro update: v = ((v + u) | (v - u)) & keep, u = v & m. */
static inline void lcs_row(u64 *v, const u64 *m, const u64 *keep, isize W) {
    unsigned char carry = 0;
    for (isize w = 0; w < W; w++) {
        u64 vw = v[w], u = vw & m[w], s;
        carry = add_carry(carry, vw, u, &s);
        v[w] = (s | (vw ^ u)) & keep[w];
    }
}

/* lcs_row with every bit below the top word kept (`every`): only the top word is masked. */
static inline void lcs_row_every(u64 *v, const u64 *m, u64 top_keep, isize W) {
    unsigned char carry = 0;
    isize w = 0;
    for (; w + 1 < W; w++) {
        u64 vw = v[w], u = vw & m[w], s;
        carry = add_carry(carry, vw, u, &s);
        v[w] = s | (vw ^ u);
    }
    u64 vw = v[w], u = vw & m[w], s;
    add_carry(carry, vw, u, &s);
    v[w] = (s | (vw ^ u)) & top_keep;
}

isize lay_lcs_length(const Lay *l, const i32 *rows, isize nrows, u64 *work) {
    isize W = l->W;
    memcpy(work, l->every, (size_t)W * sizeof(u64));
    u64 top_keep = l->every[W - 1];
    for (isize i = 0; i < nrows; i++)
        if (rows[i] >= 0) lcs_row_every(work, l->masks + (isize)rows[i] * W, top_keep, W);
    return l->width - popcount_vec(work, W);
}

void lay_sentence_lengths(const Lay *l, const i32 *rows, isize nrows, u64 *work, isize *out) {
    isize W = l->W;
    memcpy(work, l->full, (size_t)W * sizeof(u64));
    for (isize i = 0; i < nrows; i++)
        if (rows[i] >= 0) lcs_row(work, l->masks + (isize)rows[i] * W, l->full, W);
    for (isize s = 0; s < l->nsent; s++) out[s] = 0;
    for (isize k = 0; k < l->nspans; k++) {
        isize lo = l->span_lo[k], len = l->span_len[k], ones = 0;
        for (isize b = lo; b < lo + len; b++) ones += (work[b >> 6] >> (b & 63)) & 1;
        out[l->span_sent[k]] = len - ones;
    }
}

/* Count ids[k] (candidate ids, -1 for none) while the layout has an unused occurrence. */
static isize clipped_count(const Lay *l, const i32 *ids, isize n, i32 *seen) {
    isize hits = 0;
    for (isize k = 0; k < n; k++) {
        i32 id = ids[k];
        if (id >= 0 && seen[id] < l->cnt[id]) {
            seen[id]++;
            hits++;
        }
    }
    for (isize k = 0; k < n; k++)
        if (ids[k] >= 0) seen[ids[k]] = 0;
    return hits;
}

isize lay_unigram_hits(const Lay *l, const i32 *rows, isize nrows, i32 *seen) {
    return clipped_count(l, rows, nrows, seen);
}

void trace_free(TraceBuf *b) {
    FREE_ALL(b->left, b->key, b->id, b->any, b->v, b->x, b->p, b->rl, b->d);
    memset(b, 0, sizeof(*b));
}

int trace_width(TraceBuf *b, isize W) {
    if (W <= b->W && b->v) return 0;
    u64 **vectors[] = {&b->v, &b->x, &b->p, &b->rl, &b->d};
    int ok = 1;
    for (size_t k = 0; k < sizeof(vectors) / sizeof(*vectors); k++) {
        free(*vectors[k]);
        *vectors[k] = xmalloc((size_t)(W + 1) * sizeof(u64));
        ok &= *vectors[k] != NULL;
    }
    if (!ok) {
        trace_free(b);
        return -1;
    }
    b->W = W;
    return 0;
}

static int trace_reserve(TraceBuf *b, isize rows, isize W) {
    /* the rows of one traceback: nothing is kept from the last */
    if (!grow_buffer((void **)&b->left, &b->cap_words, rows * W, sizeof(u64))) return -1;
    if (rows <= b->cap) return 0;
    isize cap = rows > 2 * b->cap ? rows : 2 * b->cap, unused = b->cap;
    if (!grow_buffer((void **)&b->key, &unused, cap, sizeof(i32))) return -1;
    unused = b->cap;
    if (!grow_buffer((void **)&b->id, &unused, cap, sizeof(i32))) return -1;
    unused = b->cap;
    if (!grow_buffer((void **)&b->any, &unused, cap, 1)) return -1;
    b->cap = cap;
    return 0;
}

int lay_traceback(Lay *l, const i32 *rows, isize first, isize nrows, TraceBuf *b, IVec *found, UVec *diag) {
    isize W = l->W;
    if (lay_reversed_masks(l) < 0) return -1;
    if (trace_width(b, W) < 0 || trace_reserve(b, nrows, W) < 0) return -1;
    u64 *v = b->v, *x = b->x;
    memcpy(v, l->full, (size_t)W * sizeof(u64));
    isize kept = 0;
    for (isize i = 0; i < nrows; i++) {
        i32 id = rows[i];
        if (id < 0) continue;
        const u64 *m = l->masks + (isize)id * W;
        u64 *left = b->left + kept * W;
        unsigned char carry = 0;
        for (isize w = 0; w < W; w++) {
            u64 vw = v[w], u = vw & m[w], s;
            carry = add_carry(carry, vw, u, &s);
            u64 xw = vw ^ u;
            x[w] = s ^ xw; /* the carries into each bit */
            v[w] = (s | xw) & l->full[w];
        }
        u64 any = 0;
        for (isize w = 0; w < W; w++) {
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
    for (isize k = kept - 1; k >= 0; k--) {
        if (b->any[k]) {
            const u64 *left = b->left + k * W;
            for (isize w = 0; w < W; w++) rl[w] = bitrev64(left[W - 1 - w]);
            unsigned char carry = 0;
            for (isize w = 0; w < W; w++) {
                u64 s;
                carry = add_carry(carry, rl[w], p[w], &s);
                x[w] = s & ~rl[w];
            }
        } else {
            memcpy(x, p, (size_t)W * sizeof(u64));
        }
        const u64 *rm = l->rmasks + (isize)b->id[k] * W;
        u64 anyd = 0;
        for (isize w = 0; w < W; w++) {
            d[w] = x[w] & rm[w];
            anyd |= d[w];
        }
        if (anyd) {
            if (ivec_push(found, b->key[k]) < 0) return -1;
            if (diag && uvec_push_words(diag, d, W) < 0) return -1;
            u64 prev = 0;
            for (isize w = 0; w < W; w++) {
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

int lay_trace_sentences(Lay *l, const i32 *rows, const i32 *bounds, isize m, IVec *found, UVec *diag) {
    TraceBuf b = {0};
    int rc = 0;
    for (isize k = m - 1; k >= 0 && rc == 0; k--) {
        isize a = bounds[2 * k], e = bounds[2 * k + 1];
        rc = lay_traceback(l, rows + a, a, e - a, &b, found, diag);
    }
    trace_free(&b);
    if (rc < 0) return -1;
    /* rows were appended bottom-up: reverse */
    ivec_reverse(found, 0);
    if (diag) {
        isize W = l->W;
        for (isize a = 0, e = found->n - 1; a < e; a++, e--)
            for (isize w = 0; w < W; w++) {
                u64 t = diag->v[a * W + w];
                diag->v[a * W + w] = diag->v[e * W + w];
                diag->v[e * W + w] = t;
            }
    }
    return 0;
}

isize lay_clipped_hits(const Lay *l, const i32 *rows, const IVec *found, i32 *seen) {
    isize hits = 0;
    for (isize k = 0; k < found->n; k++) {
        i32 id = rows[found->v[k]];
        if (seen[id] < l->cnt[id]) {
            seen[id]++;
            hits++;
        }
    }
    for (isize k = 0; k < found->n; k++) seen[rows[found->v[k]]] = 0;
    return hits;
}

isize union_hits(Lay *l, const Tok *r, const i32 *rows, TraceBuf *b, IVec *found, i32 *seen) {
    found->n = 0;
    for (isize s = 0; s < r->nsent; s++) {
        isize a = r->bounds[2 * s], e = r->bounds[2 * s + 1];
        if (lay_traceback(l, rows + a, a, e - a, b, found, NULL) < 0) return -1;
    }
    return lay_clipped_hits(l, rows, found, seen);
}

/* The walker bits of found row k, from the low mirrored end: the body runs with `col` bound
 * to each one's bit in the layout. */
#define FOR_EACH_WALKER(l, diag, k, col, ...)                                             \
    do {                                                                                 \
        isize W_ = (l)->W, top_ = 64 * W_ - 1;                                           \
        const u64 *d_ = (diag)->v + (k) * W_;                                            \
        for (isize w_ = 0; w_ < W_; w_++)                                                \
            for (u64 bits_ = d_[w_]; bits_; bits_ &= bits_ - 1) {                        \
                isize col = top_ - (64 * w_ + __builtin_ctzll(bits_));                   \
                __VA_ARGS__                                                              \
            }                                                                            \
    } while (0)

int lay_alignments(Lay *l, const IVec *found, const UVec *diag, isize offset, IVec *out) {
    if (lay_columns(l) < 0) return -1;
    for (isize k = 0; k < found->n; k++) {
        if (ivec_reserve(out, 3 * popcount_vec(diag->v + k * l->W, l->W)) < 0) return -1;
        FOR_EACH_WALKER(l, diag, k, col, {
            out->v[out->n++] = lay_col_sent(l, col);
            out->v[out->n++] = (i32)(found->v[k] - offset);
            out->v[out->n++] = lay_col_pos(l, col);
        });
    }
    return 0;
}

void compact_free(CompactBuf *w) {
    FREE_ALL(w->shared, w->masks, w->row);
    memset(w, 0, sizeof(*w));
}

isize compact_lcs(const Tok *c, const i32 *rows, isize nr, const i32 *ref_count, CompactBuf *w) {
    i32 *shared = grow_buffer((void **)&w->shared, &w->shared_cap, c->nv + 1, sizeof(i32));
    if (!shared) return -1;
    isize ns = 0, width = 0;
    for (isize v = 0; v < c->nv; v++) shared[v] = ref_count[v] > 0 ? (i32)ns++ : -1;
    for (isize i = 0; i < c->n; i++) width += shared[c->ids[i]] >= 0;
    if (!width) return 0;
    isize W = (width + 63) / 64;
    u64 *masks = grow_buffer((void **)&w->masks, &w->masks_cap, ns * W, sizeof(u64));
    u64 *row = grow_buffer((void **)&w->row, &w->row_cap, W, sizeof(u64));
    if (!masks || !row) return -1;
    memset(masks, 0, (size_t)(ns * W) * sizeof(u64));
    isize bit = 0;
    for (isize i = 0; i < c->n; i++) {
        i32 s = shared[c->ids[i]];
        if (s >= 0) setbit(masks + (isize)s * W, bit++);
    }
    u64 top_keep = width % 64 ? ((u64)1 << (width % 64)) - 1 : ~(u64)0;
    for (isize k = 0; k + 1 < W; k++) row[k] = ~(u64)0;
    row[W - 1] = top_keep;
    for (isize i = 0; i < nr; i++)
        if (rows[i] >= 0) lcs_row_every(row, masks + (isize)shared[rows[i]] * W, top_keep, W);
    return width - popcount_vec(row, W);
}

int lcs_alignment(const Tok *c, const i32 *rows, isize nr, IVec *pairs) {
    /* the candidate as one sentence: its own layout when it is one already */
    i32 whole[2] = {0, (i32)c->n};
    Tok view = *c;
    view.nsent = 1;
    view.bounds = whole;
    view.layout = NULL;
    int own = !(c->nsent == 1 && c->bounds[0] == 0 && c->bounds[1] == c->n);
    Lay *l = own ? lay_build(&view) : tok_layout((Tok *)c);
    TraceBuf b = {0};
    IVec found = {0};
    UVec diag = {0};
    int rc = -1;
    if (!l || lay_columns(l) < 0 || lay_traceback(l, rows, 0, nr, &b, &found, &diag) < 0 ||
        ivec_reserve(pairs, 2 * found.n) < 0)
        goto done;
    /* rows were found bottom-up, one walker bit each (a single sentence) */
    for (isize k = found.n - 1; k >= 0; k--) {
        isize col = -1;
        FOR_EACH_WALKER(l, &diag, k, bit, {
            if (col < 0) col = bit;
        });
        pairs->v[pairs->n++] = lay_col_pos(l, col);
        pairs->v[pairs->n++] = found.v[k];
    }
    rc = 0;
done:
    trace_free(&b);
    FREE_ALL(found.v, diag.v);
    if (own) lay_free(l);
    return rc;
}

void union_evidence_free(UnionEvidence *e) {
    FREE_ALL(e->groups.v, e->pairs.v, e->unions.v, e->counted.v, e->sent_groups, e->sent_unions, e->sent_counted);
    memset(e, 0, sizeof(*e));
}

int union_evidence(Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, UnionEvidence *e) {
    Lay *l = tok_layout(c);
    if (!l || lay_columns(l) < 0) return -1;
    TraceBuf b = {0};
    IVec found = {0};
    UVec diag = {0};
    int rc = -1;
    i32 *count = xcalloc((size_t)c->nsent + 1, sizeof(i32)); /* pairs per candidate sentence */
    i32 *fill = xcalloc((size_t)c->nsent + 1, sizeof(i32));
    /* per candidate id, the occurrences not yet counted on each side */
    i32 *cand_left = xmalloc((size_t)(c->nv + 1) * sizeof(i32)), *ref_left = xmalloc((size_t)(c->nv + 1) * sizeof(i32));
    e->sent_groups = xmalloc((size_t)(r->nsent + 1) * sizeof(i32));
    e->sent_unions = xmalloc((size_t)(r->nsent + 1) * sizeof(i32));
    e->sent_counted = xmalloc((size_t)(r->nsent + 1) * sizeof(i32));
    if (!count || !fill || !cand_left || !ref_left || !e->sent_groups || !e->sent_unions || !e->sent_counted) goto done;
    memcpy(cand_left, c->counts, (size_t)c->nv * sizeof(i32));
    memcpy(ref_left, ref_count, (size_t)c->nv * sizeof(i32));
    for (isize s = 0; s < r->nsent; s++) {
        e->sent_groups[s] = (i32)e->groups.n;
        e->sent_unions[s] = (i32)e->unions.n;
        e->sent_counted[s] = (i32)e->counted.n;
        isize ra = r->bounds[2 * s], re = r->bounds[2 * s + 1];
        found.n = 0;
        diag.n = 0;
        if (lay_traceback(l, rows + ra, ra, re - ra, &b, &found, &diag) < 0) goto done;
        /* rows were found bottom-up: walk them top-down, pairs grouped by candidate sentence */
        isize npairs = 0;
        for (isize k = found.n - 1; k >= 0; k--)
            FOR_EACH_WALKER(l, &diag, k, col, {
                count[lay_col_sent(l, col)]++;
                npairs++;
            });
        isize base = e->pairs.n, at = base;
        if (ivec_reserve(&e->pairs, 2 * npairs) < 0) goto done;
        for (isize t = 0; t < c->nsent; t++) {
            if (!count[t]) continue;
            if (ivec_reserve(&e->groups, 3) < 0) goto done;
            e->groups.v[e->groups.n++] = (i32)t;
            e->groups.v[e->groups.n++] = (i32)(at / 2);
            e->groups.v[e->groups.n++] = count[t];
            fill[t] = (i32)at;
            at += 2 * count[t];
        }
        for (isize k = found.n - 1; k >= 0; k--)
            FOR_EACH_WALKER(l, &diag, k, col, {
                i32 t = lay_col_sent(l, col);
                e->pairs.v[fill[t]++] = c->bounds[2 * t] + lay_col_pos(l, col);
                e->pairs.v[fill[t]++] = found.v[k];
            });
        e->pairs.n = at;
        for (isize t = 0; t < c->nsent; t++) count[t] = 0;
        /* the union ascending, and the positions that count: clipped in reading order */
        if (ivec_reserve(&e->unions, found.n) < 0 || ivec_reserve(&e->counted, found.n) < 0) goto done;
        for (isize k = found.n - 1; k >= 0; k--) {
            i32 pos = found.v[k], id = rows[pos];
            e->unions.v[e->unions.n++] = pos;
            if (cand_left[id] > 0 && ref_left[id] > 0) {
                cand_left[id]--;
                ref_left[id]--;
                e->counted.v[e->counted.n++] = pos;
            }
        }
    }
    e->sent_groups[r->nsent] = (i32)e->groups.n;
    e->sent_unions[r->nsent] = (i32)e->unions.n;
    e->sent_counted[r->nsent] = (i32)e->counted.n;
    rc = 0;
done:
    trace_free(&b);
    FREE_ALL(found.v, diag.v, count, fill, cand_left, ref_left);
    return rc;
}
