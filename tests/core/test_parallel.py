from rouge_core.corpora.corpus import score_corpus
from rouge_core.corpora.parallel import iter_scores, score_corpus_parallel

CANDS = [f"the cat number {i} sat on the mat\nand then it slept {i % 3}" for i in range(23)]
REFS = [[f"a cat {i} was on the mat\nit slept", "the mat had a cat"] for i in range(23)]
METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def as_numbers(pairs):
    return [{m: (p[m].score, p[m].stats, p[m].chosen) for m in p} for p in pairs]


def test_processes_give_the_single_process_numbers_in_order_with_progress():
    seen = []
    serial = score_corpus(CANDS, REFS, METHODS, "rouge-score")
    par = score_corpus_parallel(CANDS, REFS, METHODS, "rouge-score", workers=2, chunk_size=4,
                                progress=lambda d, t: seen.append((d, t)))
    assert as_numbers(par.pairs) == as_numbers(serial.pairs)
    assert par.macro() == serial.macro() and par.micro() == serial.micro()
    assert seen[-1] == (23, 23) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_streaming_from_generators_in_bounded_chunks():
    gen_c = (c for c in CANDS)
    gen_r = (r for r in REFS)
    seen = []
    out = list(iter_scores(gen_c, gen_r, ["rougeL"], "rouge-score", workers=1, chunk_size=5,
                           progress=lambda d, t: seen.append((d, t))))
    assert len(out) == 23 and seen[0] == (5, None)
    serial = score_corpus(CANDS, REFS, ["rougeL"], "rouge-score")
    assert [p["rougeL"].score for p in out] == [p["rougeL"].score for p in serial.pairs]
