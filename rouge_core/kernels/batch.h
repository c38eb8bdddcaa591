/* Batches: a job's pairs scored by any number of threads at once (rouge_core.corpora.batch). Each
 * thread's run takes blocks of `block` pairs in turn until none is left, writing each pair's
 * values at its own offset, so the runs share no working memory and the values stay in input
 * order however the blocks were shared out. Per (pair, plan, reference) a pair's values are
 * the BATCH_VALUES doubles of spec.h (hits, totals, exponent, reference base, P, R). */
#ifndef ROUGE_KERNELS_BATCH_H
#define ROUGE_KERNELS_BATCH_H

#include "pair.h"
#include "stems.h"

/* A text of a pair: UTF-8 text to tokenize, or a document already tokenized (read only). */
typedef struct {
    const unsigned char *text;
    isize len;
    const Tok *tok;
} BItem;

typedef struct {
    /* set by whoever makes the job, then only read */
    const KPlan *plans;
    isize np;
    const BItem *items;         /* per pair: the candidate, then its references */
    const isize *first, *count; /* per pair: its first item, its reference count */
    const char *skip;           /* per pair: left to the caller (no values) */
    const long long *offsets;   /* per pair: where its values start */
    double *values;
    isize n, block, nblocks;
    int rule, empty_nan; /* rule: how the tokenizer finds words (WORDS_*) */
    StemTable *stems;    /* or NULL: the words of the texts tokenized here are stemmed through it, */
    StemMiss miss;       /* a word it lacks by miss(miss_ctx, ...) */
    void *miss_ctx;
    char *left;          /* per pair: left to the caller by a run (its stem function failed) */
    /* shared by the runs (atomic) */
    isize next;      /* the next block to take */
    isize running;   /* runs under way */
    int failed;      /* a run ran out of memory: the others stop */
    int cancelled;   /* no run takes another block */
    char *done;      /* per block */
    isize done_from; /* blocks done in a row from the first */
} BatchJob;

/* Score blocks (at most `limit`; -1: until none is left); *more: blocks are left to take.
 * No GIL needed; any number of threads may run one job. -1 on no memory (the job fails). */
int batch_run(BatchJob *job, isize limit, int *more);

/* Pairs scored in a row from the first (every block up to there done). */
isize batch_done(BatchJob *job);

/* Runs take no further block (the caller gave up). */
void batch_cancel(BatchJob *job);
int batch_cancelled(const BatchJob *job);

/* Every block done and no run under way: the values are complete. */
int batch_finished(BatchJob *job);

/* The statistics of plan k stored in one (pair, plan, reference)'s values. */
void batch_stats(const KPlan *k, const double *values, KStats *s);

#endif
