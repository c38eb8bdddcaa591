import math
import pickle

import pytest

import rouge_core
from rouge_core import CorpusResult, score_corpus
from rouge_core.corpora.corpus import aggregate_micro, pair_micro_stats, score_pair_stats

CANDS = ["the cat sat on the mat", "a dog ran home", "nothing matches here"]
REFS = [["the cat is on the mat"], ["the dog ran home", "a dog walked home"], ["completely different words"]]
METHODS = ["rouge1", "rouge2", "rougeL"]


@pytest.mark.parametrize("profile", ["rouge-score", "rouge-1.5.5"])
def test_per_pair_scores_equal_score(profile):
    result = score_corpus(CANDS, REFS, METHODS, profile)
    assert isinstance(result, CorpusResult)
    for i, (c, refs) in enumerate(zip(CANDS, REFS)):
        single = rouge_core.score(c, refs, METHODS, profile)
        for m in METHODS:
            assert result.pairs[i][m].score == single[m].score


def test_macro_is_mean_and_micro_is_pooled_sum():
    result = score_corpus(CANDS, REFS, METHODS, "rouge-1.5.5")  # pooled references
    for m in METHODS:
        f = [rouge_core.score(c, r, [m], "rouge-1.5.5")[m].fmeasure for c, r in zip(CANDS, REFS)]
        assert result.macro()[m].fmeasure == pytest.approx(sum(f) / len(f))
        total = None
        for c, r in zip(CANDS, REFS):
            s = rouge_core.score(c, r, [m], "rouge-1.5.5")[m].stats
            total = s if total is None else total + s
        opts = rouge_core.profile("rouge-1.5.5")
        from rouge_core.scorer.scoring import score_from_stats
        assert result.micro()[m] == score_from_stats(total, opts)


def test_micro_for_max_mode_pools_all_references():
    result = score_corpus(CANDS, REFS, ["rouge1"], "matlab")
    stats = pair_micro_stats(result.pairs[1]["rouge1"])
    assert stats.ref_total == 4 + 4  # both references of pair 2 count


def test_bootstrap_is_seeded_and_brackets_the_mean():
    result = score_corpus(CANDS * 5, REFS * 5, METHODS)
    a = result.bootstrap(resamples=200, seed=3)
    b = result.bootstrap(resamples=200, seed=3)
    c = result.bootstrap(resamples=200, seed=4)
    assert a == b
    assert a != c
    iv = a.macro["rouge1"]["fmeasure"]
    assert iv.low <= iv.value <= iv.high
    assert a.to_frame()["seed"].eq(3).all()


def test_frames_and_signature():
    result = score_corpus(CANDS, REFS, METHODS, ids=["a", "b", "c"])
    frame = result.to_frame()
    assert list(frame["id"]) == ["a", "b", "c"]
    assert {"rouge1_fmeasure", "rougeL_recall"} <= set(frame.columns)
    assert result.signature.startswith("rouge1+rouge2+rougeL|")
    assert "refs:varies" in result.signature  # 1 or 2 references per pair
    agg = result.aggregates_frame(result.bootstrap(50, 0))
    assert set(agg["aggregate"]) == {"macro", "micro"} and agg["fmeasure_low"].notna().all()


def test_progress_and_picklable_pieces():
    calls = []
    score_corpus(CANDS, REFS, ["rouge1"], progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    opts = rouge_core.profile("rouge-score")
    pickle.dumps((score_pair_stats, aggregate_micro))
    pair = score_pair_stats(CANDS[0], REFS[0], METHODS, opts)
    assert pickle.loads(pickle.dumps(pair))["rouge1"].score == pair["rouge1"].score


def test_empty_corpus_and_mismatch():
    empty = score_corpus([], [], ["rouge1"])
    assert math.isnan(empty.macro()["rouge1"].fmeasure)
    with pytest.raises(ValueError):
        score_corpus(["a"], [], ["rouge1"])
