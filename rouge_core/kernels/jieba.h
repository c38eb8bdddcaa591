/* jieba's default cut (jieba 0.42: Tokenizer.cut(sentence), cut_all=False, HMM=True), compiled:
 * the same words for every text, from jieba's own tables (its prefix dictionary FREQ and total,
 * finalseg's HMM probabilities), which the binding copies in once from the loaded jieba
 * (rouge_core.text.segment decides when a copy is stale). See jieba.c for the steps. */
#ifndef ROUGE_KERNELS_JIEBA_H
#define ROUGE_KERNELS_JIEBA_H

#include "common.h"

typedef struct JiebaModel JiebaModel;

/* HMM states in finalseg's letter order (its tie-breaks compare the letters). */
enum { JIEBA_B = 0, JIEBA_E = 1, JIEBA_M = 2, JIEBA_S = 3, JIEBA_STATES = 4 };
#define JIEBA_HAN_FIRST 0x4E00u /* finalseg's re_han: [\u4E00-\u9FD5] */
#define JIEBA_HAN_LAST 0x9FD5u

/* A model for `words` dictionary entries (it grows past that if needed); NULL on no memory. */
JiebaModel *jieba_new(isize words);
void jieba_free(JiebaModel *m);
/* One FREQ entry (word of `len` code points, freq >= 0); -1 on no memory. A word given twice keeps the last freq. */
int jieba_add(JiebaModel *m, const uint32_t *word, isize len, int64_t freq);
/* Done adding entries (-1 on no memory): the model is read only from now on. */
int jieba_finish(JiebaModel *m);
/* log(total), as jieba's calc computes it (math.log of the int) */
void jieba_set_logtotal(JiebaModel *m, double logtotal);
/* start_P[s], trans_P[from][to] (absent: finalseg's MIN_FLOAT), emit_P[s][ch] for ch in the Han range */
void jieba_set_start(JiebaModel *m, int state, double p);
void jieba_set_trans(JiebaModel *m, int from, int to, double p);
void jieba_set_emit(JiebaModel *m, int state, uint32_t ch, double p);

/* The words of text[0:n] as the end offset of each (they cover the text in order): written to
 * ends (room for n entries); returns their number, or -1 on no memory. */
isize jieba_cut(const JiebaModel *m, const uint32_t *text, isize n, isize *ends);

#endif
