/* The candidate's sentences side by side in one bit vector (Lay: rouge_core.families.bitparallel_lcs's
 * CandidateLayout), the bit-parallel LCS over it, and rouge-score's union-LCS traceback.
 *
 * Bits 0..width-1: per non-empty sentence a guard bit, then one bit per token; W words hold
 * bits 0..width (the last carry lands at bit width). The traceback runs in the mirrored
 * domain, bit k -> 64 W - 1 - k, where a walk to the left through a run of "go left" bits is
 * the carry of an addition (see bitparallel_lcs's docstring). */
#ifndef ROUGE_KERNELS_LCS_H
#define ROUGE_KERNELS_LCS_H

#include "tokens.h"

struct Lay {
    isize W, width, nv, nsent, nspans;
    u64 *masks;     /* nv * W: per candidate id, its columns */
    i32 *cnt;       /* nv: per candidate id, its columns in the layout */
    u64 *rmasks;    /* nv * W: the same mirrored (built on the first traceback: lay_reversed_masks) */
    u64 *full;      /* W: every token bit (guards clear) */
    u64 *every;     /* W: bits 0..width-1 */
    u64 *start_rev; /* W: mirrored, each sentence's last column (where its walk starts) */
    i32 *columns;   /* 2 * (width + 1): per bit its sentence (-1 for a guard) and column (lay_columns) */
    i32 *span_sent, *span_lo, *span_len; /* nspans: sentence index, first token bit, length */
    /* A thread's Lay rebuilt pair after pair (lay_build_into; private to the thread): the room
     * its buffers have, kept from build to build (rmasks and columns point into their rooms
     * once built, NULL before). Zero for a Lay of lay_build. */
    int reused;
    isize cap_masks, cap_cnt, cap_W, cap_spans, cap_rmasks, cap_columns;
    u64 *rmasks_room;
    i32 *columns_room;
};

void lay_free(Lay *l);
Lay *lay_build(const Tok *t);

/* t's layout built into `l`, a private Lay reused from pair to pair (zeroed before its first
 * use): its buffers grow and are kept, so a thread allocates nothing once they hold its
 * largest candidate. -1 on no memory (l stays valid for lay_clear). */
int lay_build_into(Lay *l, const Tok *t);

/* l's buffers freed (a reused Lay: never lay_free, whose vectors are separate blocks), l zeroed. */
void lay_clear(Lay *l);

/* The bytes a reused Lay's buffers hold. */
size_t lay_bytes(const Lay *l);

/* t's layout, built on first use and kept with t (safe when several threads ask at once). */
Lay *tok_layout(Tok *t);

/* The mirrored masks / the per-bit columns, built on first use (thread-safe as tok_layout).
 * -1 on no memory. */
int lay_reversed_masks(Lay *l);
int lay_columns(Lay *l);

static inline i32 lay_col_sent(const Lay *l, isize bit) { return l->columns[2 * bit]; }
static inline i32 lay_col_pos(const Lay *l, isize bit) { return l->columns[2 * bit + 1]; }

/* LCS of the candidate tokens (as one sequence) with `rows` (candidate ids, -1 for a token
 * the candidate lacks); work: W words. */
isize lay_lcs_length(const Lay *l, const i32 *rows, isize nrows, u64 *work);

/* LCS of `rows` with each candidate sentence: out[s] for every sentence (0 when empty). */
void lay_sentence_lengths(const Lay *l, const i32 *rows, isize nrows, u64 *work, isize *out);

/* ROUGE-1 hits of `rows` against the candidate's counts; seen: nv counters, zero on entry and
 * on exit. */
isize lay_unigram_hits(const Lay *l, const i32 *rows, isize nrows, i32 *seen);

/* Working memory of the traceback, grown on demand (zero it first). */
typedef struct {
    u64 *left;  /* rows * W */
    i32 *key;   /* rows: reference position */
    i32 *id;    /* rows: candidate id */
    char *any;  /* rows: the go-left mask is not zero */
    isize cap, cap_words; /* rows held; words held by `left` */
    u64 *v, *x, *p, *rl, *d; /* W + 1 each */
    isize W;                 /* the vectors' width */
} TraceBuf;

void trace_free(TraceBuf *b);
int trace_width(TraceBuf *b, isize W); /* vectors of at least W words; -1 on no memory */

/* rouge-score's traceback of one reference sentence (its rows: candidate ids or -1, at
 * reference positions first..first+nrows-1) against every candidate sentence at once.
 * Appends the positions where some candidate sentence's walk takes the diagonal to `found`,
 * bottom row first; with `diag` (not NULL), also each such row's walker bits (mirrored), W
 * words per found row. -1 on no memory. */
int lay_traceback(Lay *l, const i32 *rows, isize first, isize nrows, TraceBuf *b, IVec *found, UVec *diag);

/* The traceback of every sentence of `bounds` (m sentences, last first as the pure path):
 * found positions ascending; with `diag`, the walker bits of each found row, ascending too. */
int lay_trace_sentences(Lay *l, const i32 *rows, const i32 *bounds, isize m, IVec *found, UVec *diag);

/* Summary-level LCS hits: each found position's candidate id counted while the layout has an
 * unused occurrence of it; seen: nv counters, zero on entry and on exit. */
isize lay_clipped_hits(const Lay *l, const i32 *rows, const IVec *found, i32 *seen);

/* Union-LCS hits of the reference (rows; sentences of r) against the candidate. */
isize union_hits(Lay *l, const Tok *r, const i32 *rows, TraceBuf *b, IVec *found, i32 *seen);

/* (sentence, reference index - offset, column) per walker bit of lay_trace_sentences' found
 * rows (CandidateLayout._record's order), appended to `out` as triples. */
int lay_alignments(Lay *l, const IVec *found, const UVec *diag, isize offset, IVec *out);

/* Working memory of compact_lcs (zero it first). */
typedef struct {
    i32 *shared;
    u64 *masks, *row;
    isize shared_cap, masks_cap, row_cap;
} CompactBuf;

void compact_free(CompactBuf *w);

/* The LCS length of candidate c and the reference `rows` (ref_count: per candidate id, how
 * often the reference has it), over only the candidate tokens the reference has: the others
 * can be on no common subsequence. -1 on no memory. */
isize compact_lcs(const Tok *c, const i32 *rows, isize nr, const i32 *ref_count, CompactBuf *w);

/* rouge_core.families.lcs.sentence_lcs's evidence: the aligned (cand index, ref index) pairs of
 * rouge-score's traceback over the whole token lists, appended to `pairs`. */
int lcs_alignment(const Tok *c, const i32 *rows, isize nr, IVec *pairs);

/* rouge_core.families.lcs.union_lcs's evidence, per reference sentence s:
 *   groups[sent_groups[s] .. sent_groups[s + 1]): (candidate sentence, first pair, pair count)
 *       triples, by candidate sentence, of the aligned (cand index, ref index) pairs in `pairs`;
 *   unions[sent_unions[s] ..]: the union of their reference positions, ascending;
 *   counted[sent_counted[s] ..]: the union positions that count as hits (clipped in reading
 *       order while both sides have an unused occurrence). */
typedef struct {
    IVec groups, pairs, unions, counted;
    i32 *sent_groups, *sent_unions, *sent_counted; /* nsent + 1 each */
} UnionEvidence;

void union_evidence_free(UnionEvidence *e);
int union_evidence(Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, UnionEvidence *e);

#endif
