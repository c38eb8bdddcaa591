"""Issue 34: every front door tokenizes the candidate once per call, whatever the number of
references (the drop-ins' score_multi used to tokenize the prediction again for each target)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as real_scorer

from rouge_core.kernels import native
from rouge_core.scorer import scoring
from rouge_core.compat import rouge_score as dropin
from rouge_core.compat.rouge_score import rouge_scorer as dropin_module
from tests.extras import needs_pyonmttok

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PREDICTION = "the cat sat on the mat\nit was happy"
TARGETS = ["the cat is on the mat", "a cat sat\non a mat", "dogs bark", ""]


class CountingTokenizer:
    """A user tokenizer that counts the texts it is given."""

    def __init__(self):
        self.seen: list[str] = []

    def tokenize(self, text):
        self.seen.append(text)
        return text.lower().split()


def test_score_multi_with_a_user_tokenizer_tokenizes_the_prediction_once():
    tokenizer = CountingTokenizer()
    scorer = dropin.RougeScorer(["rouge1", "rougeL"], tokenizer=tokenizer)
    got = scorer.score_multi(TARGETS, PREDICTION)
    assert tokenizer.seen.count(PREDICTION) == 1
    want = real_scorer.RougeScorer(["rouge1", "rougeL"], tokenizer=CountingTokenizer()).score_multi(TARGETS, PREDICTION)
    assert got == want


@pytest.mark.skipif(not native.active(), reason="the compiled kernels score ASCII texts in one call")
def test_score_multi_scores_every_target_in_one_kernel_call(monkeypatch):
    # RougeScorer._kernel_scores makes one call to the kernels (score_texts: the prediction
    # tokenized once, each target probed against it, the best by F chosen there)
    calls = []
    real = dropin_module.RougeScorer._kernel_scores

    def spy(self, targets, prediction):
        out = real(self, targets, prediction)
        calls.append((prediction, targets, out is not None))
        return out

    monkeypatch.setattr(dropin_module.RougeScorer, "_kernel_scores", spy)
    scorer = dropin.RougeScorer(TYPES)
    got = scorer.score_multi(TARGETS, PREDICTION)
    assert calls == [(PREDICTION, tuple(TARGETS), True)]
    assert got == real_scorer.RougeScorer(TYPES).score_multi(TARGETS, PREDICTION)


@needs_pyonmttok
def test_the_multilingual_drop_in_prepares_the_prediction_once_per_call(monkeypatch):
    from rouge_core.compat import multilingual_rouge

    labels = []
    real = multilingual_rouge.prepare

    def spy(text, options, what="text", budget=None):
        labels.append(what)
        return real(text, options, what, budget)

    monkeypatch.setattr(multilingual_rouge, "prepare", spy)
    scorer = multilingual_rouge.RougeScorer(TYPES, lang="english")
    scorer.score_multi(TARGETS, PREDICTION)
    assert labels.count("prediction") == 2  # once for rouge1..L, once for rougeLsum's sentences
    assert labels.count("target") == 2 * len(TARGETS)


words = st.sampled_from(["the", "cat", "sat", "mat", "a", "on", "dog", "\n", "The", "CAT", "x1"])
texts = st.lists(words, max_size=12).map(" ".join)


@settings(max_examples=80, deadline=None)
@given(st.lists(texts, min_size=1, max_size=5), texts)
def test_score_multi_in_one_call_is_rouge_scores(targets, prediction):
    got = dropin.RougeScorer(TYPES).score_multi(targets, prediction)
    want = real_scorer.RougeScorer(TYPES).score_multi(targets, prediction)
    assert got == want
    assert [type(got[t].fmeasure) for t in TYPES] == [type(want[t].fmeasure) for t in TYPES]


@pytest.mark.skipif(not native.active(), reason="the compiled kernels score ASCII texts in one call")
def test_score_with_several_references_tokenizes_the_candidate_once(monkeypatch):
    """`score` without evidence: one kernel call for the candidate and all its references."""
    calls = []
    real = scoring.text_result

    def spy(candidate, references, *args, **kwargs):
        calls.append(len(references))
        return real(candidate, references, *args, **kwargs)

    monkeypatch.setattr(scoring, "text_result", spy)
    result = scoring.score(PREDICTION, TARGETS, TYPES, "rouge-score", evidence=False)
    assert calls == [len(TARGETS)] and len(result.references) == len(TARGETS)
