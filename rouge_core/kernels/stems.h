/* A table of stems shared by every thread: per word type (its UTF-8 bytes) what a stemmer
 * and a stopword list make of it (the stem, or "dropped"), filled by the caller's function
 * the first time a word is seen, so that each word type is stemmed once in the process and
 * every later text is mapped by look-ups in C (rouge_core.text.stemming, rouge_core.batch).
 * A read-write lock guards it; no pointer into it leaves the lock (looked-up stems are copied
 * out), so it may be emptied at any time. It holds at most `capacity` words: full, it starts
 * afresh.
 *
 * A thread that stems many texts (a batch's run) keeps its own copy of the words it met
 * (StemCache, in its working memory): a text whose words are all there is stemmed without
 * touching the shared table or its lock, so the threads of a batch write no memory they share
 * (a lock taken per text is a cache line passed from core to core; issue 34). The copy follows
 * the table: emptied when the table was (its epoch), or when it copies another table. */
#ifndef ROUGE_KERNELS_STEMS_H
#define ROUGE_KERNELS_STEMS_H

#include "tokens.h"

typedef struct StemTable StemTable;

/* A word and what it becomes: its stem (data NULL: dropped). */
typedef struct {
    Term word, stem;
} Stem;

typedef struct StemChunk StemChunk;

/* Word -> stem (the table's, and each copy's); its bytes in chunks that never move. */
typedef struct {
    u64 *slots; /* (hash >> 32) << 32 | (index in stems + 1); 0: empty; NULL: nothing kept yet */
    size_t mask;
    Stem *stems;
    isize size, stems_cap;
    StemChunk *bytes;
} StemDict;

/* A thread's copy of one table, and its buffers for stemming a text (grow, never shrink). */
typedef struct {
    StemDict d;
    u64 serial, epoch; /* the table copied (0: none) and its state then */
    Term *to;
    isize *at;
    i32 *origin;
    isize cap;
    isize *kept, kept_cap; /* per token of the text: its tokens kept before it (tok_mapped_terms_into) */
} StemCache;

StemTable *stems_new(isize capacity);
void stems_free(StemTable *s);
void stems_clear(StemTable *s);
isize stems_size(StemTable *s);
/* How many texts were looked up in the table itself, its lock taken (not all in a thread's copy). */
u64 stems_locked_reads(StemTable *s);

void stem_cache_free(StemCache *c);
size_t stem_cache_bytes(const StemCache *c);

/* What the caller's function makes of one word: 0 with *out (malloc'd, the caller's to free;
 * NULL with *dropped set for a dropped word) or a negative code passed back to the caller. */
typedef int (*StemMiss)(void *ctx, const unsigned char *word, isize len, unsigned char **out, isize *out_len,
                        int *dropped);

/* t's tokens with every term replaced by its stem (tok_mapped): stems looked up in `cache`
 * (this thread's copy of s; NULL: none), then in the table, words not there given to `miss`
 * (then kept in both). The new Tok owns its terms' data. *rc: 0; -1 on no memory; or miss's
 * negative code (NULL returned). */
Tok *tok_stemmed(const Tok *t, StemTable *s, StemCache *cache, StemMiss miss, void *ctx, int *rc);

/* tok_stemmed into `spare` (a Tok this function made, no longer in use: its buffers and its
 * stems' bytes reused, tok_mapped_terms_into), or into a new Tok (spare NULL or too small:
 * freed). On failure spare is freed too. */
Tok *tok_stemmed_into(Tok *spare, const Tok *t, StemTable *s, StemCache *cache, StemMiss miss, void *ctx, int *rc);

#endif
