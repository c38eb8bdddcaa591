"""Statistics first, scores second: rescoring a result under other scoring options gives
exactly what scoring from scratch gives."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rouge_core
from rouge_core.scorer.scoring import rescore
from tests.extras import profiles_here

WORDS = st.sampled_from("a b c d the cat".split())
TEXT = st.lists(st.lists(WORDS, max_size=8), min_size=1, max_size=3).map(lambda s: "\n".join(" ".join(w) for w in s))
METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeLsum-best", "rougeW-1.3", "rougeS2", "rougeSU*"]


def same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, st.lists(TEXT, min_size=1, max_size=3), st.sampled_from(profiles_here()),
       st.sampled_from(rouge_core.MULTI_REF_MODES), st.sampled_from([0.0, 0.2, 0.5, 0.9, 1.0]),
       st.sampled_from([None, 5]), st.sampled_from(["zero", "nan"]))
def test_rescoring_equals_scoring_again(candidate, references, profile, multi_ref, alpha, round_pr, empty):
    base = rouge_core.profile(profile)
    result = rouge_core.score(candidate, references, METHODS, base, evidence=False)
    other = base.replace(multi_ref=multi_ref, alpha=alpha, round_pr=round_pr, empty=empty)
    again, fresh = rescore(result, other), rouge_core.score(candidate, references, METHODS, other, evidence=False)
    for m in METHODS:
        a, b = again[m], fresh[m]
        assert all(same(x, y) for x, y in zip((a.precision, a.recall, a.fmeasure), (b.precision, b.recall, b.fmeasure)))
        assert (a.chosen, a.reason, a.signature, a.stats) == (b.chosen, b.reason, b.signature, b.stats)


def test_rescoring_refuses_options_that_change_the_statistics():
    result = rouge_core.score("the cat", ["a cat"], ["rouge1"], "rouge-score")
    with pytest.raises(ValueError, match="stemmer"):
        rescore(result, result.options.replace(stemmer="porter"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, st.lists(TEXT, min_size=1, max_size=3), st.sampled_from(profiles_here()),
       st.sampled_from(rouge_core.MULTI_REF_MODES))
def test_references_scored_one_by_one_merge_into_the_whole(candidate, references, profile, multi_ref):
    from rouge_core.scorer.scoring import merge_references

    options = rouge_core.profile(profile).replace(multi_ref=multi_ref)
    merged = merge_references([rouge_core.score(candidate, [r], METHODS, options) for r in references])
    whole = rouge_core.score(candidate, references, METHODS, options)
    for m in METHODS:
        a, b = merged[m], whole[m]
        assert all(same(x, y) for x, y in zip((a.precision, a.recall, a.fmeasure), (b.precision, b.recall, b.fmeasure)))
        assert (a.chosen, a.reason, a.signature, a.stats) == (b.chosen, b.reason, b.signature, b.stats)
        assert [r.stats for r in a.per_reference] == [r.stats for r in b.per_reference]
