"""Several references on the compiled path (issue 34): the kernels combine them under best F and
best recall (the reference chosen and the reason, as rouge_core.scorer.scoring.combine_references
makes them), and every mode gives the pure path's records."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge_core
from rouge_core.kernels import native
from rouge_core.scorer import scoring

pytestmark = pytest.mark.skipif(not native.active(), reason="the compiled path")

METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]
words = st.sampled_from(["the", "cat", "sat", "mat", "a", "on", "dog", "\n", "The", "CAT", "x1", "."])
texts = st.lists(words, max_size=14).map(" ".join)


def _records(result) -> list:
    return [(name, repr(m)) for name, m in result.methods.items()]


@settings(max_examples=120, deadline=None)
@given(texts, st.lists(texts, min_size=1, max_size=5),
       st.sampled_from(["rouge-score", "rouge-1.5.5", "matlab", "reval"]),
       st.sampled_from(["best-f", "best-recall", "pooled", "max", "mean"]))
def test_several_references_give_the_pure_paths_records(candidate, references, profile, mode):
    options = rouge_core.profile(profile, multi_ref=mode)
    compiled = rouge_core.score(candidate, references, METHODS, options, evidence=False)
    with native.pure():
        pure = rouge_core.score(candidate, references, METHODS, options, evidence=False)
    assert _records(compiled) == _records(pure)


def test_best_f_and_best_recall_are_combined_by_the_kernels(monkeypatch):
    def refused(*args):
        raise AssertionError("combined in Python")

    monkeypatch.setattr(scoring, "combine_references", refused)
    refs = ["the cat is on the mat", "a cat sat\non a mat", "dogs bark", ""]
    for mode in ("best-f", "best-recall"):
        result = rouge_core.score("the cat sat on the mat", refs, METHODS, "rouge-score", multi_ref=mode,
                                  evidence=False)
        assert result["rouge1"].chosen == 0  # 5 of 6 tokens match the first reference, 4 the second
        label = "F" if mode == "best-f" else "recall"
        assert result["rouge1"].reason == f"highest {label} 0.8333 (others: 0.6667, 0.0000, 0.0000); ties go to the first"


@settings(max_examples=60, deadline=None)
@given(texts, st.lists(texts, min_size=2, max_size=4), st.sampled_from(["rouge-score", "matlab", "reval"]),
       st.sampled_from(["best-f", "best-recall"]))
def test_documents_and_corpora_with_several_references_give_the_pure_paths_records(candidate, references, profile,
                                                                                   mode):
    """score_documents on Documents (the corpus's per-pair path) combines in the kernels too."""
    from rouge_core.corpora.corpus import score_pair_stats

    options = rouge_core.profile(profile, multi_ref=mode)
    compiled = score_pair_stats(candidate, references, METHODS, options)
    with native.pure():
        pure = score_pair_stats(candidate, references, METHODS, options)
    assert [(k, repr(v)) for k, v in compiled.items()] == [(k, repr(v)) for k, v in pure.items()]


def test_no_reference_is_combined_as_before():
    from rouge_core.scorer.scoring import prepare, score_documents

    for mode in ("best-f", "best-recall"):
        options = rouge_core.profile("rouge-score", multi_ref=mode)
        compiled = score_documents(prepare("a b", options), [], METHODS, options, evidence=False)
        with native.pure():
            pure = score_documents(prepare("a b", options), [], METHODS, options, evidence=False)
        assert _records(compiled) == _records(pure)
        assert compiled["rouge1"].reason == "no reference"
