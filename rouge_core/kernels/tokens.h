/* Documents as token-id arrays: each document numbers its distinct terms in order of first
 * occurrence (Tok); a pair is joined by looking the reference's distinct terms up in the
 * candidate's vocabulary. Terms are compared by their UTF-8 bytes (equal strings, equal
 * bytes). Also the tokenizers of rouge-score and ROUGE-1.5.5 on UTF-8 text
 * (rouge_core.text.words._split_rouge_score / _split_rouge155, as rouge_core.text.tokenize uses them),
 * building a vocabulary or only looking words up in a candidate's (Probe). */
#ifndef ROUGE_KERNELS_TOKENS_H
#define ROUGE_KERNELS_TOKENS_H

#include "common.h"

typedef struct {
    const unsigned char *data; /* the term's UTF-8 bytes (not owned) */
    isize len;                 /* bytes */
    u64 hash;
    u64 head; /* the first 8 bytes (fewer: zero-filled), most terms compare in one step */
} Term;

typedef struct Lay Lay;

typedef struct {
    isize n;         /* tokens */
    i32 *ids;        /* n: the id of each token */
    isize nv;        /* distinct terms */
    i32 *counts;     /* nv */
    Term *terms;     /* nv */
    i32 *first;      /* nv: the token where each term first occurs */
    u64 *table;      /* hash slots: (hash >> 32) << 32 | (id + 1), 0 empty */
    size_t tmask;
    isize nsent;
    i32 *bounds;        /* 2 * nsent: [start, end) token indices */
    unsigned char *buf; /* owned term data (the tokenizer's lower-cased copy), or NULL */
    int padded;         /* term data may be read 8 bytes past its end (it lives in buf) */
    Lay *layout;        /* the candidate bit masks, built on first use (tok_layout) */
    u64 serial;         /* unique in the process (a join of two Toks is known by their serials) */
    isize cap_tokens, cap_vocab, cap_sent, cap_buf; /* room of ids, counts/first/terms, bounds, buf
                                                       (tokenize_text_into reuses a Tok's buffers) */
} Tok;

/* A term as bytes, for tok_from_terms. */
typedef struct {
    const unsigned char *data;
    isize len;
} TermRef;

Term term_make(const unsigned char *data, isize len);

/* Two terms the same (their bytes; the hash and head word compared first). */
static inline int term_equal(const Term *a, const Term *b) {
    if (a->head != b->head || a->len != b->len || a->hash != b->hash) return 0;
    size_t n = (size_t)a->len;
    return n <= 8 || memcmp(a->data + 8, b->data + 8, n - 8) == 0;
}
void tok_free(Tok *t);
i32 tok_find(const Tok *t, const Term *q);

/* A Tok of n terms (their data must outlive it) in the sentences `bounds` (2 per sentence,
 * checked by the caller). NULL on no memory. */
Tok *tok_from_terms(const TermRef *terms, isize n, const i32 *bounds, isize nsent);

/* t's tokens with each term replaced by `to[id]` (data NULL: the token is dropped), in the
 * same sentences (a sentence may become empty): a stemmer and a stopword list applied once per
 * distinct term. origin (room for t->nv) gets, per id of the new Tok, the id of t it came from
 * first. The new terms' data must outlive the Tok. NULL on no memory. */
Tok *tok_mapped(const Tok *t, const TermRef *to, i32 *origin);

/* tok_mapped with the new terms made already (hash and head set, term_make; data NULL: the
 * token is dropped), so that nothing is hashed again. */
Tok *tok_mapped_terms(const Tok *t, const Term *to, i32 *origin);

/* tok_mapped_terms into `spare` (a Tok made by this function, tok_mapped_terms or the
 * tokenizer, no longer in use: its buffers reused, its term data buffer `buf` left to the
 * caller), or into a new Tok when spare is NULL or too small (spare is then freed).
 * kept_before: room for t->n + 1 (NULL: allocated here). NULL on no memory (spare freed). */
Tok *tok_mapped_terms_into(Tok *spare, const Tok *t, const Term *to, i32 *origin, isize *kept_before);

/* The tokenizers of rouge-score and ROUGE-1.5.5 on UTF-8 `text`: words are runs of
 * [A-Za-z0-9] (every other byte separates them: non-ASCII characters are bytes >= 0x80),
 * kept as written (WORDS_KEEP_CASE), with A-Z lower-cased (WORDS_LOWER_ASCII), or after
 * Python's str.lower() of the text (WORDS_LOWER_UNICODE: the code points of the lowering
 * table, lowering.h, become their lower case first); one sentence per line ('\n'), empty
 * lines skipped (a line of separators only is an empty sentence). NULL on no memory. */
Tok *tokenize_text(const unsigned char *text, isize len, int rule);

/* tokenize_text stopping once the text has more than most_tokens tokens or most_types word
 * types: NULL with *over TOKENS_OVER or TYPES_OVER and *stopped_at the byte where the word past
 * them starts (in the text read: rouge-score's lower-casing of a few code points can shorten
 * it), what it had built freed, so that a text too long for a call's cost bound costs no more
 * than the bound allows to find out; NULL with *over 0 on no memory. */
enum { TOKENS_OVER = 1, TYPES_OVER = 2 };
Tok *tokenize_text_capped(const unsigned char *text, isize len, int rule, isize most_tokens, isize most_types,
                          int *over, isize *stopped_at);

/* tokenize_text into `spare` (a Tok tokenize_text or this function made, no longer in use:
 * its buffers are reused, so a loop over summary-sized texts allocates nothing), or into a new
 * Tok when spare is NULL or its room does not fit this text (spare is then freed). The Tok
 * has a new serial, no layout. NULL on no memory (spare freed). */
Tok *tokenize_text_into(Tok *spare, const unsigned char *text, isize len, int rule);

/* tokenize_text_into stopping once the text has more than most_tokens tokens: NULL with *over
 * TOKENS_OVER (spare freed), as tokenize_text_capped. */
Tok *tokenize_text_into_capped(Tok *spare, const unsigned char *text, isize len, int rule, isize most_tokens,
                               int *over);

/* The lowering table compiled in (lowering.h): its Unicode version, size and entries. */
typedef struct {
    unsigned code;             /* the code point */
    const char *utf8;          /* its UTF-8 */
    int len;                   /* bytes */
    const char *ascii;         /* its lower case, [a-z0-9] kept and every other character a space */
    int ascii_len;
} Lowering;
extern const char *const LOWERING_VERSION;
extern const Lowering LOWERING_ENTRIES[];
extern const int LOWERING_ENTRY_COUNT;

/* A reference tokenized against a candidate's vocabulary, without one of its own
 * (probe_text): per token the candidate id or -1 (join's rows), per candidate id its count
 * (join's ref_count), the sentence bounds. Its buffers grow, never shrink. */
typedef struct {
    const Tok *c;
    int padded;  /* c's terms come from the tokenizer: short terms compare as words */
    i32 *rows;   /* n, room for every word the text can hold */
    isize n, rows_cap;
    i32 *counts; /* c->nv + 1: counts[0] takes the tokens c lacks, counts + 1 is ref_count */
    isize counts_cap;
    i32 *bounds; /* 2 * nsent */
    isize nsent, cap_sent;
    unsigned char *buf; /* the lower-cased words being looked up (padded as the tokenizer's) */
    isize buf_cap;
    unsigned char *lowered; /* the text with the lowering table applied (WORDS_LOWER_UNICODE) */
    isize lowered_cap;
} Probe;

void probe_free(Probe *p);

/* The words of a UTF-8 text looked up in candidate c's vocabulary, into `p`: what
 * tokenize_text and join give, without building the text's own vocabulary. -1 on no memory. */
int probe_text(Probe *p, const Tok *c, const unsigned char *text, isize len, int rule);

/* The reference's view for the kernels (pair_stats reads only its length and sentences). */
Tok probe_view(const Probe *p);

/* Per reference token, the candidate id of its term or -1 (`out` has r->n entries); also
 * per candidate id, how often the reference has it (`ref_count`, c->nv entries, may be NULL).
 * map: room for r->nv (NULL: allocated here). -1 on no memory. */
int join(const Tok *c, const Tok *r, i32 *out, i32 *ref_count, i32 *map);

/* The longest sentence of t (tokens). */
isize tok_longest_sentence(const Tok *t);

#endif
