/* A table of stems shared by every thread: per word type (its UTF-8 bytes) what a stemmer
 * and a stopword list make of it (the stem, or "dropped"), filled by the caller's function
 * the first time a word is seen, so that each word type is stemmed once in the process and
 * every later text is mapped by look-ups in C (rouge_core.text.stemming, rouge_core.batch).
 * A read-write lock guards it (look-ups share it); no pointer into it leaves the lock (looked-up stems are copied out), so
 * it may be emptied at any time. It holds at most `capacity` words: full, it starts afresh. */
#ifndef ROUGE_KERNELS_STEMS_H
#define ROUGE_KERNELS_STEMS_H

#include "tokens.h"

typedef struct StemTable StemTable;

StemTable *stems_new(isize capacity);
void stems_free(StemTable *s);
void stems_clear(StemTable *s);
isize stems_size(StemTable *s);

/* What the caller's function makes of one word: 0 with *out (malloc'd, the caller's to free;
 * NULL with *dropped set for a dropped word) or a negative code passed back to the caller. */
typedef int (*StemMiss)(void *ctx, const unsigned char *word, isize len, unsigned char **out, isize *out_len,
                        int *dropped);

/* t's tokens with every term replaced by its stem (tok_mapped): stems looked up in the table,
 * words not there given to `miss` (then kept in the table). The new Tok owns its terms' data.
 * *rc: 0; -1 on no memory; or miss's negative code (NULL returned). */
Tok *tok_stemmed(const Tok *t, StemTable *s, StemMiss miss, void *ctx, int *rc);

#endif
