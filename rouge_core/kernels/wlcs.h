/* ROUGE-W: the weighted-LCS dynamic programme (rouge_core.families.wlcs), in both forms. */
#ifndef ROUGE_KERNELS_WLCS_H
#define ROUGE_KERNELS_WLCS_H

#include <math.h>

#include "tokens.h"

/* Python's float ** float for x >= 0 and finite w != 0. */
static inline double py_pow(double x, double w) {
    if (x == 0.0) return 0.0;
    if (x == 1.0) return 1.0;
    return pow(x, w);
}

/* ROUGE-1.5.5's ROUGE-W statistics (rouge_core.families.wlcs.wlcs_rouge155 without evidence): hits,
 * and the reference base, the sum of f(|r_i|). -1 on no memory. */
int wlcs_rouge155_stats(const Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, double w, double *hits_out,
                        double *base_out);

/* Lin's ROUGE-W: the DP value over the whole token lists. -1 on no memory. */
int wlcs_paper_value(const Tok *c, const i32 *rows, isize nr, double w, double *value);

/* rouge_core.families.wlcs.wlcs_alignment: the DP value of `rows` (candidate ids or -1) against c's
 * tokens and the aligned (ref index, cand index) pairs, appended to `pairs` in order. */
int wlcs_alignment(const Tok *c, const i32 *rows, isize nr, double w, double *value, IVec *pairs);

/* rouge_core.families.wlcs._first_partners: per reference token (r's sentences, rows its candidate
 * ids), the candidate position its sentence's DP first aligns it to, as cstart[sentence] +
 * column, or -1; out has r->n entries. */
int wlcs_first_partners(const Tok *c, const Tok *r, const i32 *rows, const i32 *cstart, double w, i32 *out);

#endif
