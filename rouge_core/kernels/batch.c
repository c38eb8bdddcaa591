/* Batches (batch.h). */
#include "batch.h"

/* A text of the batch tokenized into one of this thread's reused Toks (*into: w->kept[0] for
 * a candidate, w->kept[1] for a reference), stemmed with the job's table and this thread's
 * copy of it (the words before stemming in w->spare). NULL with *rc -1 on no memory, 1 when
 * its stem function failed. */
static Tok *batch_tokens(const BatchJob *job, const BItem *it, KWork *w, Tok **into, int *rc) {
    *rc = -1;
    if (!job->stems) return *into = tokenize_text_into(*into, it->text, it->len, job->rule);
    Tok *t = w->spare = tokenize_text_into(w->spare, it->text, it->len, job->rule);
    if (!t) return NULL;
    int code;
    Tok *stemmed = *into = tok_stemmed_into(*into, t, job->stems, &w->stems, job->miss, job->miss_ctx, &code);
    if (!stemmed && code < -1) *rc = 1;
    return stemmed;
}

/* The references' texts are only looked up in the candidate's vocabulary (probe_text, as
 * score_texts does: no Tok or join of their own) unless they are stemmed or a method reads a
 * reference's own terms (MATLAB's skip-bigrams with a start token). */
static int batch_probes(const BatchJob *job) {
    if (job->stems) return 0;
    for (isize k = 0; k < job->np; k++)
        if (job->plans[k].code == K_SKIP && job->plans[k].b == SU_START) return 0;
    return 1;
}

/* Score one pair; values: np * nrefs * BATCH_VALUES doubles. A shared document is only read:
 * the candidate's layout is private to the call (built in the thread's reused w->lay). The
 * texts go into the thread's reused Toks (and probe), so a pair allocates nothing once they
 * have grown to the batch's texts. -1 on no memory; 1: the pair is left to the caller. */
static int batch_pair(const BatchJob *job, const BItem *cand, const BItem *refs, isize nrefs, double *values, KWork *w,
                      int probes) {
    int rc = -1;
    const Tok *cv = cand->tok ? cand->tok : batch_tokens(job, cand, w, &w->kept[0], &rc);
    if (!cv) return rc;
    rc = -1;
    Tok view = *cv; /* the candidate, with a private layout (built in w->lay if a method needs it) */
    view.layout = NULL;
    w->view = &view;
    if (kwork_ready(w, cv) < 0) goto done;
    for (isize i = 0; i < nrefs; i++) {
        Tok probed;
        const Tok *rv;
        const i32 *rows, *ref_count;
        if (refs[i].tok || !probes) {
            int why = -1;
            rv = refs[i].tok ? refs[i].tok : batch_tokens(job, &refs[i], w, &w->kept[1], &why);
            if (!rv) {
                if (why > 0) rc = why;
                goto done;
            }
            if (kwork_join(w, cv, rv) < 0) goto done;
            rows = w->rows;
            ref_count = w->ref_count;
        } else {
            Probe *p = &w->probe;
            if (probe_text(p, cv, refs[i].text, refs[i].len, job->rule) < 0) goto done;
            probed = probe_view(p);
            rv = &probed;
            rows = p->rows;
            ref_count = p->counts + 1;
        }
        for (isize k = 0; k < job->np; k++) {
            KStats s;
            if (pair_stats(&view, rv, rows, ref_count, &job->plans[k], w, &s) < 0) goto done;
            double *out = values + (k * nrefs + i) * BATCH_VALUES;
            out[BV_HITS] = s.hits;
            out[BV_CAND_TOTAL] = s.ct;
            out[BV_REF_TOTAL] = s.rt;
            out[BV_EXPONENT] = s.exponent;
            out[BV_REF_BASE] = s.base;
            score_ratios(&s, job->empty_nan, &out[BV_PRECISION], &out[BV_RECALL]);
        }
    }
    rc = 0;
done:
    w->view = NULL;
    return rc;
}

int batch_run(BatchJob *job, isize limit, int *more) {
    KWork *w = kwork_acquire();
    int failed = w == NULL, probes = batch_probes(job);
    __atomic_add_fetch(&job->running, 1, __ATOMIC_ACQ_REL);
    for (isize taken = 0; !failed && (limit < 0 || taken < limit); taken++) {
        if (__atomic_load_n(&job->failed, __ATOMIC_ACQUIRE) || __atomic_load_n(&job->cancelled, __ATOMIC_ACQUIRE))
            break;
        isize b = __atomic_fetch_add(&job->next, 1, __ATOMIC_ACQ_REL);
        if (b >= job->nblocks) break;
        isize end = (b + 1) * job->block < job->n ? (b + 1) * job->block : job->n;
        for (isize p = b * job->block; p < end && !failed; p++) {
            if (job->skip[p]) continue;
            const BItem *pair = &job->items[job->first[p]];
            int rc = batch_pair(job, pair, pair + 1, job->count[p], job->values + job->offsets[p], w, probes);
            failed = rc < 0;
            if (rc > 0) job->left[p] = 1;
        }
        if (failed)
            __atomic_store_n(&job->failed, 1, __ATOMIC_RELEASE);
        else
            __atomic_store_n(&job->done[b], 1, __ATOMIC_RELEASE);
    }
    kwork_release(w);
    failed = __atomic_load_n(&job->failed, __ATOMIC_ACQUIRE) || failed;
    *more = __atomic_load_n(&job->next, __ATOMIC_ACQUIRE) < job->nblocks && !batch_cancelled(job);
    __atomic_sub_fetch(&job->running, 1, __ATOMIC_ACQ_REL);
    return failed ? -1 : 0;
}

isize batch_done(BatchJob *job) {
    isize from = __atomic_load_n(&job->done_from, __ATOMIC_ACQUIRE), seen = from;
    while (from < job->nblocks && __atomic_load_n(&job->done[from], __ATOMIC_ACQUIRE)) from++;
    /* keep the furthest count any caller found */
    while (from > seen && !__atomic_compare_exchange_n(&job->done_from, &seen, from, 0, __ATOMIC_ACQ_REL,
                                                       __ATOMIC_ACQUIRE)) {
    }
    isize blocks = from > seen ? from : seen;
    isize pairs = blocks * job->block;
    return pairs < job->n ? pairs : job->n;
}

void batch_cancel(BatchJob *job) { __atomic_store_n(&job->cancelled, 1, __ATOMIC_RELEASE); }

int batch_cancelled(const BatchJob *job) { return __atomic_load_n(&job->cancelled, __ATOMIC_ACQUIRE); }

int batch_finished(BatchJob *job) {
    if (__atomic_load_n(&job->running, __ATOMIC_ACQUIRE) != 0) return 0;
    isize blocks = job->block ? (batch_done(job) + job->block - 1) / job->block : 0;
    return blocks >= job->nblocks;
}

void batch_stats(const KPlan *k, const double *values, KStats *s) {
    s->hits = values[BV_HITS];
    s->ct = values[BV_CAND_TOTAL];
    s->rt = values[BV_REF_TOTAL];
    s->exponent = values[BV_EXPONENT];
    s->base = values[BV_REF_BASE];
    s->floats = k->code == K_WLCS_PAPER || k->code == K_WLCS_ROUGE155;
    s->base_kind = k->code == K_WLCS_PAPER ? BASE_INT : k->code == K_WLCS_ROUGE155 ? BASE_FLOAT : BASE_NONE;
}
