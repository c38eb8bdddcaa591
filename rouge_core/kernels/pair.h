/* One method's statistics on one (candidate, reference) pair (rouge_core.families.methods: Family.compute
 * without evidence), the precision and recall they give (rouge_core.stats.Stats.precision /
 * recall, rouge_core.scorer.scoring.score_from_stats's empty="nan" rule), and the working memory of
 * the kernels: per thread, handed to each call. */
#ifndef ROUGE_KERNELS_PAIR_H
#define ROUGE_KERNELS_PAIR_H

#include "grams.h"
#include "lcs.h"
#include "stems.h"

/* A method's kernel (Family.native_plan): code K_*, then per kernel: N a = n; S/SU a =
 * distance (-1: unlimited), b = unigram form (SU_*); W w = the weight. */
typedef struct {
    int code;
    long long a, b;
    double w;
} KPlan;

/* NULL when `k` is a plan the kernels run, else what is wrong with it. */
const char *kplan_problem(const KPlan *k);

enum { BASE_NONE = 0, BASE_INT = 1, BASE_FLOAT = 2 };

/* rouge_core.stats.Stats: hits, totals, exponent and ref_base (BASE_NONE: None, BASE_INT: an
 * int |r| (the paper's ROUGE-W), BASE_FLOAT: the float sum of f(|r_i|) (ROUGE-1.5.5's)). */
typedef struct {
    double hits, ct, rt, exponent, base;
    int floats; /* ROUGE-W: float statistics; the others count */
    int base_kind;
} KStats;

/* The working memory of a thread's kernel calls: buffers grow, never shrink (beyond a
 * bound, they are freed when released). */
typedef struct {
    TraceBuf trace;
    IVec found;
    i32 *seen; /* candidate nv counters, kept at zero */
    isize seen_cap;
    CompactBuf compact;
    Probe probe;           /* score_texts's references */
    GramBuf grams;         /* bigram counts */
    i32 *rows, *ref_count; /* join's output: per reference token, per candidate id */
    isize rows_cap, ref_count_cap;
    i32 *join_map;         /* join's per reference term, its candidate id */
    isize join_map_cap;
    u64 joined[2];         /* the serials of the Toks joined there (0: none) */
    Tok *spare;            /* score_texts's candidate when no Tokens are kept, a batch's text before
                              stemming: its buffers reused */
    Tok *kept[2];          /* a batch's candidate (stemmed) and reference (stemmed, or when not probed):
                              their buffers reused from pair to pair */
    StemCache stems;       /* this thread's copy of the stems it met (a batch's) */
    Lay lay;               /* the layout of a batch's candidate (its private view, `view`): rebuilt pair
                              after pair in the same buffers */
    const Tok *view;       /* that candidate while a batch scores it (its layout is `lay`), or NULL */
    int busy, temporary;
} KWork;

/* This thread's working memory (a fresh one when this thread's is in use: a call made while
 * another runs, e.g. from a callback); give it back with kwork_release. NULL on no memory. */
KWork *kwork_acquire(void);
void kwork_release(KWork *w);

/* Make `w` ready for candidate c. -1 on no memory. */
int kwork_ready(KWork *w, const Tok *c);

/* join(c, r) into w's rows and ref_count (kept: the same pair again is not joined again). -1 on
 * no memory. */
int kwork_join(KWork *w, const Tok *c, const Tok *r);

/* The statistics of plan k on candidate c and reference r (rows: r's tokens as candidate
 * ids, ref_count: per candidate id its count in r). The layout a method needs is built on
 * first use: kept with c (tok_layout), or in w->lay when c is w->view. -1 on no memory. */
int pair_stats(Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, const KPlan *k, KWork *w, KStats *out);

/* Precision and recall of the statistics (NaN over an empty side when empty_nan). */
void score_ratios(const KStats *s, int empty_nan, double *precision, double *recall);

#endif
