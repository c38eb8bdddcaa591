/* rouge_core/kernels/spec.h: what the kernels, the binding and the Python side share.
 * Written by `python -m rouge_core.kernels.kernel_spec` from rouge_core/kernels/kernel_spec.py and the
 * definitions it names: do not edit (tests/core/test_kernel_spec.py checks it is current). */
#ifndef ROUGE_KERNELS_SPEC_H
#define ROUGE_KERNELS_SPEC_H

#include <math.h>

#define SPEC_W_ROUNDING 1e-11
#define SPEC_START_TOKEN "<s>"
#define SPEC_RULES "1ee5c73ab464cacc"

enum {
    K_NGRAM = 1,
    K_LCS = 2,
    K_UNION_LCS = 3,
    K_WLCS_PAPER = 4,
    K_WLCS_ROUGE155 = 5,
    K_SKIP = 6,
    WORDS_KEEP_CASE = 0,
    WORDS_LOWER_ASCII = 1,
    WORDS_LOWER_UNICODE = 2,
    SU_NONE = 0,
    SU_ROUGE155 = 1,
    SU_START = 2,
    BV_HITS = 0,
    BV_CAND_TOTAL = 1,
    BV_REF_TOTAL = 2,
    BV_EXPONENT = 3,
    BV_REF_BASE = 4,
    BV_PRECISION = 5,
    BV_RECALL = 6,
    BATCH_VALUES = 7,
    W155_BLOCKS_PER = 8,
    W155_BLOCKS_MORE = 4,
    REC_STATS = 0,
    REC_SCORE = 1,
    REC_REFERENCE_SCORE = 2,
    REC_METHOD_SCORE = 3,
    REC_NGRAM_MATCH = 4,
    REC_SKIP_ROW = 5,
    REC_DOCUMENT = 6,
    RECORD_KINDS = 7,
};

/* rouge_core.stats:Stats */
enum {
    STATS_HITS = 0,
    STATS_CAND_TOTAL = 1,
    STATS_REF_TOTAL = 2,
    STATS_EXPONENT = 3,
    STATS_REF_BASE = 4,
    STATS_FIELDS = 5,
};
/* rouge_core.stats:Score */
enum {
    SCORE_PRECISION = 0,
    SCORE_RECALL = 1,
    SCORE_FMEASURE = 2,
    SCORE_FIELDS = 3,
};
/* rouge_core.scorer.scoring:ReferenceScore */
enum {
    REFERENCE_SCORE_INDEX = 0,
    REFERENCE_SCORE_STATS = 1,
    REFERENCE_SCORE_SCORE = 2,
    REFERENCE_SCORE_EVIDENCE = 3,
    REFERENCE_SCORE_FIELDS = 4,
};
/* rouge_core.scorer.scoring:MethodScore */
enum {
    METHOD_SCORE_METHOD = 0,
    METHOD_SCORE_SCORE = 1,
    METHOD_SCORE_PER_REFERENCE = 2,
    METHOD_SCORE_CHOSEN = 3,
    METHOD_SCORE_REASON = 4,
    METHOD_SCORE_STATS = 5,
    METHOD_SCORE_SIGNATURE = 6,
    METHOD_SCORE_FIELDS = 7,
};
/* rouge_core.families.ngram:NgramMatch */
enum {
    NGRAM_MATCH_NGRAM = 0,
    NGRAM_MATCH_CAND_COUNT = 1,
    NGRAM_MATCH_REF_COUNT = 2,
    NGRAM_MATCH_MATCHED = 3,
    NGRAM_MATCH_CAND_STARTS = 4,
    NGRAM_MATCH_REF_STARTS = 5,
    NGRAM_MATCH_FIELDS = 6,
};
/* rouge_core.families.skipgram:SkipBigramRow */
enum {
    SKIP_ROW_GRAM = 0,
    SKIP_ROW_CAND_COUNT = 1,
    SKIP_ROW_REF_COUNT = 2,
    SKIP_ROW_MATCHED = 3,
    SKIP_ROW_FIELDS = 4,
};
/* rouge_core.text.tokenize:_NativeDocument */
enum {
    DOCUMENT_TEXT = 0,
    DOCUMENT_LCS_VIEW = 1,
    DOCUMENT_LAZY_ARGS = 2,
    DOCUMENT_MEMO = 3,
    DOCUMENT_FIELDS = 4,
};

/* Each record kind's field names, in order (REC_* indexes), NULL-terminated. */
#define SPEC_RECORD_FIELDS \
    { \
    {"hits", "cand_total", "ref_total", "exponent", "ref_base", NULL}, \
    {"precision", "recall", "fmeasure", NULL}, \
    {"index", "stats", "score", "evidence", NULL}, \
    {"method", "score", "per_reference", "chosen", "reason", "stats", "signature", NULL}, \
    {"ngram", "cand_count", "ref_count", "matched", "cand_starts", "ref_starts", NULL}, \
    {"gram", "cand_count", "ref_count", "matched", NULL}, \
    {"text", "lcs_view", "_lazy_args", "_memo", NULL} \
    }
#define SPEC_MAX_FIELDS 7

/* Every constant above, for rouge_core._native.SPEC: X(name, value) for numbers, S(name, text)
 * for strings. */
#define SPEC_CONSTANTS(X, F, S) \
    F("W_ROUNDING", SPEC_W_ROUNDING) \
    S("START_TOKEN", SPEC_START_TOKEN) \
    S("RULES", SPEC_RULES) \
    X("K_NGRAM", K_NGRAM) \
    X("K_LCS", K_LCS) \
    X("K_UNION_LCS", K_UNION_LCS) \
    X("K_WLCS_PAPER", K_WLCS_PAPER) \
    X("K_WLCS_ROUGE155", K_WLCS_ROUGE155) \
    X("K_SKIP", K_SKIP) \
    X("WORDS_KEEP_CASE", WORDS_KEEP_CASE) \
    X("WORDS_LOWER_ASCII", WORDS_LOWER_ASCII) \
    X("WORDS_LOWER_UNICODE", WORDS_LOWER_UNICODE) \
    X("SU_NONE", SU_NONE) \
    X("SU_ROUGE155", SU_ROUGE155) \
    X("SU_START", SU_START) \
    X("BV_HITS", BV_HITS) \
    X("BV_CAND_TOTAL", BV_CAND_TOTAL) \
    X("BV_REF_TOTAL", BV_REF_TOTAL) \
    X("BV_EXPONENT", BV_EXPONENT) \
    X("BV_REF_BASE", BV_REF_BASE) \
    X("BV_PRECISION", BV_PRECISION) \
    X("BV_RECALL", BV_RECALL) \
    X("BATCH_VALUES", BATCH_VALUES) \
    X("W155_BLOCKS_PER", W155_BLOCKS_PER) \
    X("W155_BLOCKS_MORE", W155_BLOCKS_MORE) \
    X("REC_STATS", REC_STATS) \
    X("REC_SCORE", REC_SCORE) \
    X("REC_REFERENCE_SCORE", REC_REFERENCE_SCORE) \
    X("REC_METHOD_SCORE", REC_METHOD_SCORE) \
    X("REC_NGRAM_MATCH", REC_NGRAM_MATCH) \
    X("REC_SKIP_ROW", REC_SKIP_ROW) \
    X("REC_DOCUMENT", REC_DOCUMENT) \
    X("RECORD_KINDS", RECORD_KINDS)

/* rouge_core.stats:f_measure, in C (kernel_spec.c_function) */
static inline double spec_f_measure(double precision, double recall, double alpha) {
    if (((precision != precision) || (recall != recall))) {
        return NAN;
    }
    double denominator = (((1.0 - alpha) * precision) + (alpha * recall));
    return ((denominator > 0.0) ? ((precision * recall) / denominator) : 0.0);
}

#endif
