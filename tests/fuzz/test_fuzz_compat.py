"""Property-based tests of the compatibility front doors: the rouge-score drop-in (against
rouge-score itself), MATLAB's rougeEvaluationScore, the reval helpers and rouge155's evaluate.

Each returns numbers in [0, 1] (NaN where MATLAB's rules say so; reval's rougelsum recall
may exceed 1, its named quirk) or raises only its documented errors.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from rouge_core.compat import matlab, reval
from rouge_core.compat.rouge155 import Rouge155Error, evaluate
from rouge_core.compat.rouge_score import RougeScorer
from tests.fuzzing import FUZZ, fuzz

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

WORDS = ["the", "cat", "sat", "on", "mat", "a", "Cat", "running", "runs", "café", "x-1", "İ"]
SEPARATORS = [" ", " ", "\n", ". ", ", ", "!"]


@st.composite
def strings(draw, max_words=20):
    words = draw(st.lists(st.sampled_from(WORDS), max_size=max_words))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps))


tokens = st.lists(st.sampled_from(["a", "b", "c", "d", "A"]), max_size=12)
TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]


@fuzz
@FUZZ
@given(st.lists(st.sampled_from(TYPES), min_size=1, max_size=4, unique=True), st.booleans(), strings(), strings())
def test_rouge_score_drop_in_equals_rouge_score(types, stem, target, prediction):
    ours = RougeScorer(types, use_stemmer=stem).score(target, prediction)
    theirs = rouge_scorer.RougeScorer(types, use_stemmer=stem).score(target, prediction)
    assert ours == theirs
    for s in ours.values():
        assert 0 <= s.precision <= 1 and 0 <= s.recall <= 1 and 0 <= s.fmeasure <= 1


@fuzz
@FUZZ
@given(st.sampled_from(["rouge0", "rougeX", "rouge10", "rougeL"]), strings(5), strings(5))
def test_rouge_score_drop_in_rejects_what_rouge_score_rejects(rouge_type, target, prediction):
    def outcome(scorer_class):
        try:
            return dict(scorer_class([rouge_type]).score(target, prediction))
        except ValueError as exc:
            return str(exc)

    assert outcome(RougeScorer) == outcome(rouge_scorer.RougeScorer)


MATLAB_VALUES = st.one_of(st.integers(-2, 6), st.sampled_from([0.5, 1.2, 4.0, math.inf, math.nan, "4", None, True]))


@fuzz
@FUZZ
@given(strings(), st.lists(strings(), min_size=1, max_size=3), st.sampled_from([*matlab.METHODS, "bogus"]),
       MATLAB_VALUES, MATLAB_VALUES, MATLAB_VALUES, st.sampled_from(["recall", "precision", "fmeasure", "f"]))
def test_matlab_gives_a_ratio_nan_or_a_named_error(candidate, references, method, n, d, w, measure):
    try:
        value = matlab.rouge_evaluation_score(candidate, references, method, ngram_length=n, skip_distance=d,
                                              lcs_weight_factor=w, measure=measure)
    except (TypeError, ValueError) as exc:
        named = ("RougeMethod", "NgramLength", "SkipDistance", "LCSWeightFactor", "measure")
        assert any(name in str(exc) for name in named), str(exc)
        return
    assert math.isnan(value) or 0.0 <= value <= 1.0


def _lcs(a, b):
    prev = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b, 1):
            row.append(prev[j - 1] + 1 if x == y else max(prev[j], row[j - 1]))
        prev = row
    return prev[-1]


@fuzz
@FUZZ
@given(st.lists(tokens, min_size=1, max_size=4), st.lists(tokens, min_size=1, max_size=4))
def test_reval_rougelsum_is_its_unclipped_best_sentence_sum(cand, ref):
    # reval's ROUGELsum: each candidate sentence adds its longest LCS with any reference
    # sentence, over all candidate and all reference tokens (recall may exceed 1: its quirk)
    got = reval.rougelsum(cand, ref)
    hits = sum(max(_lcs(c, r) for r in ref) for c in cand)
    n_cand, n_ref = sum(map(len, cand)), sum(map(len, ref))
    assert got.precision == (hits / n_cand if n_cand else 0.0)
    assert got.recall == (hits / n_ref if n_ref else 0.0)
    assert 0.0 <= got.precision <= 1.0 and got.recall >= 0.0
    assert got.f1 == reval.f1(got.precision, got.recall)


@fuzz
@FUZZ
@given(tokens, tokens, st.integers(-1, 4))
def test_reval_flat_helpers_stay_within_one(cand, ref, n):
    for fn in (reval.rouge1, reval.rougel):
        s = fn(cand, ref)
        assert 0 <= s.precision <= 1 and 0 <= s.recall <= 1 and s.f1 == reval.f1(s.precision, s.recall)
    try:
        s = reval.rougen(cand, ref, n)
    except ValueError:
        assert n < 1
        return
    assert 0 <= s.precision <= 1 and 0 <= s.recall <= 1


FLAGS = st.lists(st.sampled_from(["-n 2", "-n 4000", "-m", "-s", "-2 4 -u", "-2 -1 -U", "-w 1.2", "-w 0.5", "-w 1000",
                                  "-f B", "-l 5", "-b 20", "-p 0.3", "-x", "-d", "-t 1", "-q"]),
                 max_size=4, unique=True)


@fuzz
@FUZZ
@given(strings(), st.lists(strings(), min_size=1, max_size=2), FLAGS)
def test_rouge155_evaluate_gives_printed_ratios_or_its_error(peer, models, flags):
    try:
        report = evaluate(peer, models, " ".join([*flags, "-r", "5"]))
    except Rouge155Error as exc:
        assert exc.message and exc.exit_code in (1, 2)
        return
    for result in report.results:
        for estimate in (result.recall, result.precision, result.f):
            if estimate is not None:
                assert 0.0 <= estimate.value <= 1.0
        for doc in result.documents:
            assert 0.0 <= doc.recall <= 1.0 and 0.0 <= doc.precision <= 1.0 and 0.0 <= doc.f <= 1.0
