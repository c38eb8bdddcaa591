/* n-grams (rouge_core.families.ngram) and skip-bigrams (rouge_core.families.skipgram): hits, totals, evidence.
 *
 * Only grams made of tokens both sides have can be hits, so only those are counted; the
 * totals follow from the lengths. */
#ifndef ROUGE_KERNELS_GRAMS_H
#define ROUGE_KERNELS_GRAMS_H

#include "tokens.h"

/* A bigram table kept between calls (a thread's KWork): slots are stamped with the call that
 * filled them, so a new call starts empty without clearing them. */
typedef struct {
    void *slots;
    isize cap;   /* slots */
    uint32_t stamp;   /* the current call's stamp (0: none yet) */
} GramBuf;

void grambuf_free(GramBuf *g);
size_t grambuf_bytes(const GramBuf *g);

/* n-gram hits; rows: the reference's tokens as candidate ids (-1: not in the candidate),
 * ref_count: per candidate id, its count in the reference; buf: bigrams' table (kept between
 * calls). -1 on no memory. */
long long ngram_hits(const Tok *c, const i32 *rows, isize nr, const i32 *ref_count, isize n, GramBuf *buf);

/* Skip-bigram statistics (rouge_core.families.skipgram.skip_stats) of distance (< 0: unlimited) and
 * unigram form (SU_*): hits and both totals. -1 on no memory. */
int skip_stats(const Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, long long distance, int form,
               long long *hits, long long *cand_total, long long *ref_total);

/* rouge_core.families.ngram.ngram_evidence: every n-gram on both sides, by first candidate position.
 * match: per gram, (first candidate position, candidate count, reference count); starts: per
 * gram, its candidate start positions, then its reference ones. */
typedef struct {
    IVec match, starts;
} NgramEvidence;

void ngram_evidence_free(NgramEvidence *e);
int ngram_evidence(const Tok *c, const i32 *rows, isize nr, const i32 *ref_count, isize n, NgramEvidence *e);

/* rouge_core.families.skipgram.skip_stats's evidence rows: the reference's grams in reading order, then
 * the candidate's others in theirs. rows: per row, (first item, second item or -1 for a
 * unigram, candidate count, reference count), items as joint ids: a candidate id, the
 * candidate's vocabulary size + a reference-only id, or `start_fresh` (the start token
 * neither side has; -1 when one has it). */
typedef struct {
    IVec rows;
    i32 start_fresh;
} SkipEvidence;

int skip_evidence(const Tok *c, const Tok *r, const i32 *rows, long long distance, int form, SkipEvidence *e);

#endif
