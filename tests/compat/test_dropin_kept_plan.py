"""The rouge-score drop-in keeps its kernel plan between calls (RougeScorer._kernel_plan):
whatever changes between two calls (the rouge types, reassigned or edited in place, the number
of targets of score_multi, the path computing; with and without stemming), each score is the
one a new scorer gives, to the bit, and the one rouge-score gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from rouge_core.compat.rouge_score import rouge_scorer as dropin
from rouge_core.kernels import native

rouge_score = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "é", "Ünïcode", "x1", "", ".", "\n", "it's"]
texts = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)
type_lists = st.lists(st.sampled_from(TYPES), min_size=1, max_size=4)
steps = st.lists(st.tuples(st.sampled_from(["assign", "edit", "pure", "same"]), type_lists,
                           st.lists(texts, min_size=1, max_size=4), texts, st.booleans()),
                 min_size=1, max_size=6)


def exact(scores: dict) -> dict:
    """Scores with the type of each number (rouge-score's integer 0 of an empty LCS side)."""
    return {k: tuple((type(v), v) for v in s) for k, s in scores.items()}


@settings(max_examples=150, deadline=None)
@given(steps)
def test_a_kept_scorer_scores_as_a_new_one_after_any_change(steps):
    kept = dropin.RougeScorer(["rouge1"])
    for change, types, targets, prediction, multi in steps:
        if change == "assign":
            kept.rouge_types = list(types)
        elif change == "edit" and isinstance(kept.rouge_types, list):
            kept.rouge_types[:] = types  # the same list object, other contents
        else:
            types = list(kept.rouge_types)

        def run(scorer):
            return scorer.score_multi(targets, prediction) if multi else scorer.score(targets[0], prediction)

        if change == "pure":
            with native.pure():
                got = run(kept)
                assert kept._kept_plan[0] is None and kept._kept_plan[4] is None  # planned again for the pure path
        else:
            got = run(kept)
        assert exact(got) == exact(run(rouge_score.RougeScorer(types)))
        assert exact(got) == exact(run(dropin.RougeScorer(types)))


@pytest.mark.skipif(not native.active(), reason="the kernels' plan (the pure path keeps none)")
def test_the_kept_plan_is_reused_while_nothing_changes():
    scorer = dropin.RougeScorer(["rouge1", "rougeL"])
    first = scorer.score("the cat sat", "the cat")
    plan = scorer._kept_plan
    assert plan is not None and plan[4] is not None
    assert scorer.score("the cat sat", "the cat") == first
    assert scorer._kept_plan is plan
    scorer.rouge_types.append("rouge2")
    assert list(scorer.score("the cat sat", "the cat")) == ["rouge1", "rougeL", "rouge2"]
    assert scorer._kept_plan is not plan
    plan = scorer._kept_plan
    best = scorer.score_multi(["a dog", "the cat sat", "the cat sat"], "the cat")  # 3 targets: planned again
    assert scorer._kept_plan is not plan and scorer._kept_plan[1] == 3
    assert best == scorer.score("the cat sat", "the cat")


@pytest.mark.parametrize("pairs", [[("the cats running", "the cat runs"), ("a dog ran", "dogs running")]])
def test_a_stemming_scorer_stems_as_rouge_score_call_after_call(pairs):
    scorer = dropin.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    reference = rouge_score.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    for target, prediction in pairs + pairs:
        assert exact(scorer.score(target, prediction)) == exact(reference.score(target, prediction))
        assert exact(scorer.score_multi([target, prediction], prediction)) == exact(
            reference.score_multi([target, prediction], prediction))
