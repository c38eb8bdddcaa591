"""Streamed corpus scoring (score_corpus over iterables, in chunks, keeping per-pair statistics
in NumPy columns) gives the numbers of the per-pair records, to the bit: per-pair scores,
macro, micro, seeded bootstrap intervals and paired tests."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rouge_core
from rouge_core.corpora.corpus import (MEASURES, CorpusResult, aggregate_macro, aggregate_micro, compare_systems,
                               pair_micro_stats, score_corpus, score_pair_stats)
from rouge_core.corpora.corpus_stats import STORE_BYTES_MAX
from rouge_core.scorer.scoring import resolve_options, score_from_stats
from rouge_core.stats import Interval, Stats

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "far", "it"]
METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]


def text(rng, words):
    sentences = []
    for _ in range(rng.integers(1, 3)):
        sentences.append(" ".join(rng.choice(WORDS, size=int(rng.integers(0, words)))))
    return "\n".join(sentences)


def corpus(n, seed, refs=3):
    rng = np.random.default_rng(seed)
    cands = [text(rng, 9) for _ in range(n)]
    references = [[text(rng, 9) for _ in range(int(rng.integers(1, refs + 1)))] for _ in range(n)]
    return cands, references


def old_bootstrap(records, methods, opts, resamples, seed, confidence):
    """The record-based bootstrap rouge_core computed before the statistics were columns."""
    n = len(records)
    lo_q, hi_q = (100 - confidence) / 2, 100 - (100 - confidence) / 2
    rng = np.random.default_rng(seed)
    rows = max(1, (1 << 21) // n)
    out = {}
    for m in methods:
        out[m] = {"macro": {k: np.empty(resamples) for k in MEASURES}, "micro": {k: np.empty(resamples) for k in MEASURES}}
    values = {m: {k: np.array([getattr(p[m].score, k) for p in records]) for k in MEASURES} for m in methods}
    stats = {m: [pair_micro_stats(p[m]) for p in records] for m in methods}
    for start in range(0, resamples, rows):
        idx = rng.integers(0, n, size=(min(rows, resamples - start), n))
        block = slice(start, start + len(idx))
        for m in methods:
            for k, v in values[m].items():
                with np.errstate(all="ignore"):
                    out[m]["macro"][k][block] = np.nanmean(v[idx], axis=1) if np.isnan(v).any() else v[idx].mean(axis=1)
            sides = [np.array([getattr(s, side) if s else 0.0 for s in stats[m]]) for side in ("hits", "cand_total", "ref_total")]
            exponent = next((s.exponent for s in stats[m] if s is not None), 1.0)
            h, c, r = (side[idx].sum(axis=1) for side in sides)
            scores = [score_from_stats(Stats(float(a), float(b), float(d), exponent), opts) for a, b, d in zip(h, c, r)]
            for k in MEASURES:
                out[m]["micro"][k][block] = [getattr(s, k) for s in scores]
    intervals = {}
    for m in methods:
        for kind in ("macro", "micro"):
            for k in MEASURES:
                drawn = out[m][kind][k]
                intervals[(m, kind, k)] = (tuple(np.nanpercentile(drawn, [lo_q, hi_q]))
                                           if not np.isnan(drawn).all() else (math.nan, math.nan))
    return intervals


def bits(x):
    return np.float64(x).tobytes()


def assert_same(result, records, methods, opts, resamples=0, seed=0):
    for m in methods:
        for k in MEASURES:
            got = result.array(m, k)
            want = np.array([getattr(p[m].score, k) for p in records])
            assert got.tobytes() == want.tobytes(), (m, k)
        macro = aggregate_macro(p[m].score for p in records)
        micro = aggregate_micro((pair_micro_stats(p[m]) for p in records), opts)
        for k in MEASURES:
            assert bits(getattr(result.macro()[m], k)) == bits(getattr(macro, k)), (m, "macro", k)
            assert bits(getattr(result.micro()[m], k)) == bits(getattr(micro, k)), (m, "micro", k)
    if resamples:
        boot = result.bootstrap(resamples, seed=seed)
        want = old_bootstrap(records, methods, opts, resamples, seed, 95)
        for (m, kind, k), (low, high) in want.items():
            iv = getattr(boot, kind)[m][k]
            assert (bits(iv.low), bits(iv.high)) == (bits(low), bits(high)), (m, kind, k)


PROFILES = [("rouge-score", {}), ("rouge-1.5.5", {}), ("matlab", {}), ("rouge-score", {"multi_ref": "max"}),
            ("rouge-score", {"multi_ref": "mean"}), ("rouge-score", {"multi_ref": "pooled"})]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 14), chunk=st.integers(1, 6), seed=st.integers(0, 2**16), which=st.integers(0, len(PROFILES) - 1))
def test_streamed_equals_the_records_in_every_chunking(n, chunk, seed, which):
    name, overrides = PROFILES[which]
    opts = resolve_options(name, overrides)
    cands, refs = corpus(n, seed)
    records = [score_pair_stats(c, r, METHODS, opts) for c, r in zip(cands, refs)]
    names = [m for m in records[0]]
    streamed = score_corpus(iter(cands), iter(refs), METHODS, opts, chunk_size=chunk)
    assert len(streamed) == n and not streamed.texts_kept
    assert_same(streamed, records, names, opts, resamples=7, seed=seed)
    in_memory = score_corpus(cands, refs, METHODS, opts, chunk_size=chunk)
    assert in_memory.texts_kept
    assert_same(in_memory, records, names, opts)
    assert repr(in_memory.bootstrap(7, seed=seed)) == repr(streamed.bootstrap(7, seed=seed))
    # records on demand: scored again from the kept texts; rebuilt from the statistics when streamed
    i = n - 1
    assert {m: repr(s.score) for m, s in in_memory.pairs[i].items()} == {m: repr(s.score) for m, s in records[i].items()}
    assert [repr(r[names[0]].score) for r in in_memory.pairs] == [repr(r[names[0]].score) for r in records]
    rebuilt = streamed.pairs[i]
    for m in names:
        assert bits(rebuilt[m].score.fmeasure) == bits(records[i][m].score.fmeasure)


def test_a_result_built_from_records_keeps_them_and_agrees():
    cands, refs = corpus(20, 5)
    opts = resolve_options("rouge-score", {})
    records = tuple(score_pair_stats(c, r, METHODS, opts) for c, r in zip(cands, refs))
    names = tuple(records[0])
    built = CorpusResult(ids=tuple(str(i) for i in range(20)), candidates=tuple(cands),
                         references=tuple(map(tuple, refs)), methods=names, options=opts, pairs=records)
    assert built.pairs is records
    assert_same(built, records, names, opts, resamples=5, seed=2)


def test_chunk_boundaries_and_paired_tests_give_the_same_comparison():
    cands, refs = corpus(30, 9)
    other, _ = corpus(30, 10)
    a1 = score_corpus(cands, refs, ["rougeL"], "rouge-score", chunk_size=1)
    a2 = score_corpus(iter(cands), iter(refs), ["rougeL"], "rouge-score", chunk_size=7)
    b1 = score_corpus(other, refs, ["rougeL"], "rouge-score", chunk_size=4)
    b2 = score_corpus(iter(other), iter(refs), ["rougeL"], "rouge-score")
    assert a1.ids == a2.ids and list(a2.ids) == [str(i) for i in range(1, 31)]
    assert compare_systems(a1, b1, "rougeL", resamples=50, seed=4) == compare_systems(a2, b2, "rougeL", resamples=50,
                                                                                       seed=4)


def test_statistics_take_at_most_48_bytes_per_pair_and_method():
    cands, refs = corpus(200, 3, refs=1)
    result = score_corpus(iter(cands), iter(refs), ["rouge1", "rouge2", "rougeL", "rougeLsum"], "rouge-score")
    # summary pairs under rouge-score: counts below 2^8 as uint8, scores rebuilt from them; the
    # candidate's and reference's token counts of rouge1, rougeL and rougeLsum stored once: 8
    # counts a pair (4 hits, 2 token counts, rouge2's 2 bigram counts), 2 bytes per pair and method
    assert result.statistics._rows.dtype == np.uint8
    assert result.statistics.nbytes == 200 * 4 * 2
    assert result.statistics._rows.shape == (200, 8)
    w = score_corpus(iter(cands), iter(refs), ["rougeW-1.2"], "rouge-score")
    assert w.statistics.nbytes <= 200 * STORE_BYTES_MAX


def test_streamed_inputs_of_different_lengths_and_chunks_seen_as_they_go():
    seen = []
    result = score_corpus(iter(["a b", "b c", "c d"]), iter([["a b"], ["b"], ["d"]]), ["rouge1"], "rouge-score",
                          chunk_size=2, on_chunk=lambda c: seen.append((c.start, list(c.ids), len(c.records))))
    assert seen == [(0, ["1", "2"], 2), (2, ["3"], 1)] and result.values("rouge1") == [1.0, 2 / 3, 2 / 3]
    with pytest.raises(ValueError, match="different lengths"):
        score_corpus(iter(["a", "b"]), iter([["a"]]), ["rouge1"], "rouge-score")
    with pytest.raises(ValueError, match="chunk_size"):
        score_corpus(["a"], [["a"]], ["rouge1"], chunk_size=0)
    progress = []
    score_corpus((c for c in ["a", "b", "c"]), ([r] for r in "abc"), ["rouge1"], chunk_size=2,
                 progress=lambda d, t: progress.append((d, t)))
    assert progress == [(1, None), (2, None), (3, None)]


def test_a_pair_without_statistics_and_an_empty_corpus():
    result = score_corpus(iter(["a b", "c"]), iter([["a"], []]), ["rouge1"], "rouge-score", chunk_size=1)
    assert result.micro()["rouge1"] == aggregate_micro([Stats(1.0, 2.0, 1.0)], resolve_options("rouge-score", {}))
    assert result.pairs[1]["rouge1"].stats is None and result.pairs[0]["rouge1"].stats == Stats(1.0, 2.0, 1.0)
    empty = score_corpus(iter([]), iter([]), ["rouge1"], "rouge-score")
    assert len(empty) == 0 and math.isnan(empty.macro()["rouge1"].fmeasure)
    assert empty.bootstrap(10).macro == {}
