"""The rouge-score drop-in: same numbers (float ==) and the same shapes as rouge_score 0.1.2."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as real_scorer
from rouge_score import scoring as real_scoring

from rouge_core.compat import rouge_score as dropin
from tests.conformance import load_cases

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _rs_cases():
    cases = [c for name in ("generated.jsonl", "seeds.jsonl") for c in load_cases(name) if c["tool"] == "rouge-score"]
    return [pytest.param(c, id=c["id"]) for c in cases]


@pytest.mark.parametrize("case", _rs_cases())
def test_conformance_case_through_dropin(case):
    scorer = dropin.RougeScorer(case["types"], use_stemmer=case["use_stemmer"])
    refs = case["references"]
    got = scorer.score(refs[0], case["candidate"]) if len(refs) == 1 else scorer.score_multi(refs, case["candidate"])
    assert list(got) == case["types"]
    for rouge_type, want in case["expected"].items():
        assert tuple(got[rouge_type]) == (want["p"], want["r"], want["f"]), rouge_type


def test_score_namedtuple_is_compatible():
    assert dropin.Score._fields == real_scoring.Score._fields == ("precision", "recall", "fmeasure")
    got = dropin.RougeScorer(["rouge1"]).score("the cat sat on the mat", "the cat is sitting on the mat")["rouge1"]
    want = real_scorer.RougeScorer(["rouge1"]).score("the cat sat on the mat", "the cat is sitting on the mat")["rouge1"]
    assert got == want
    assert isinstance(got, tuple) and got.fmeasure == pytest.approx(0.7692307692307692)
    p, r, f = got
    assert (p, r, f) == (5 / 7, 5 / 6, want.fmeasure)
    assert got._asdict() == want._asdict()


# Words from a small vocabulary so that overlaps (and ties) are frequent; inflections for
# the stemmer, punctuation, case and newlines for rougeLsum, some non-ASCII letters.
WORDS = ["the", "cat", "cats", "sat", "sitting", "sits", "on", "mat", "mats", "a", "dog", "running", "ran",
         "runs", "is", "was", "quick", "quickly", "Brown", "fox", "İstanbul", "café", "x1", "don't", "e-mail"]
SEPARATORS = [" ", " ", " ", "  ", "\n", ". ", ", ", "\t", "\n\n", " - "]


@st.composite
def texts(draw):
    words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=25))
    out = []
    for w in words:
        out.append(w)
        out.append(draw(st.sampled_from(SEPARATORS)))
    return "".join(out)


def _assert_same(got, want):
    assert list(got) == list(want)
    for k in want:
        assert tuple(got[k]) == tuple(want[k]), (k, got[k], want[k])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=texts(), prediction=texts(), stem=st.booleans())
def test_differential_single_reference(target, prediction, stem):
    want = real_scorer.RougeScorer(TYPES, use_stemmer=stem).score(target, prediction)
    got = dropin.RougeScorer(TYPES, use_stemmer=stem).score(target, prediction)
    _assert_same(got, want)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(targets=st.lists(texts(), min_size=1, max_size=4), prediction=texts(), stem=st.booleans())
def test_differential_multi_reference(targets, prediction, stem):
    want = real_scorer.RougeScorer(TYPES, use_stemmer=stem).score_multi(targets, prediction)
    got = dropin.RougeScorer(TYPES, use_stemmer=stem).score_multi(targets, prediction)
    _assert_same(got, want)


@settings(max_examples=100, deadline=None)
@given(target=texts(), prediction=texts(), rouge_type=st.sampled_from(TYPES))
def test_differential_single_type(target, prediction, rouge_type):
    # rouge-score skips the whole-text tokenization when only rougeLsum is asked for.
    want = real_scorer.RougeScorer([rouge_type]).score(target, prediction)
    got = dropin.RougeScorer([rouge_type]).score(target, prediction)
    _assert_same(got, want)


class CharTokenizer:
    """A custom tokenizer: characters, case kept, spaces dropped."""

    def tokenize(self, text):
        return [ch for ch in text if not ch.isspace()]


@settings(max_examples=100, deadline=None)
@given(target=texts(), prediction=texts())
def test_custom_tokenizer_is_honoured(target, prediction):
    want = real_scorer.RougeScorer(TYPES, tokenizer=CharTokenizer()).score(target, prediction)
    got = dropin.RougeScorer(TYPES, tokenizer=CharTokenizer()).score(target, prediction)
    _assert_same(got, want)


def test_custom_tokenizer_known_value():
    got = dropin.RougeScorer(["rouge1", "rougeL"], tokenizer=CharTokenizer()).score("abc", "cba")
    assert got["rouge1"] == (1.0, 1.0, 1.0)
    assert got["rougeL"].fmeasure == pytest.approx(1 / 3)
    # case is the tokenizer's business: "A" and "a" differ here
    assert dropin.RougeScorer(["rouge1"], tokenizer=CharTokenizer()).score("A", "a")["rouge1"] == (0.0, 0.0, 0.0)


def test_invalid_types_raise_like_rouge_score():
    with pytest.raises(ValueError, match="Invalid rouge type: rougeX"):
        dropin.RougeScorer(["rougeX"]).score("a", "a")
    with pytest.raises(ValueError, match="rougen requires positive n: rouge0"):
        dropin.RougeScorer(["rouge0"]).score("a", "a")
    with pytest.raises(ValueError, match="Invalid rouge type: rouge10"):
        dropin.RougeScorer(["rouge10"]).score("a", "a")
    with pytest.raises(ValueError):
        dropin.RougeScorer(["rouge1"]).score_multi([], "a")


def test_empty_texts_score_zero():
    got = dropin.RougeScorer(TYPES).score("", "the cat")
    assert all(tuple(s) == (0.0, 0.0, 0.0) for s in got.values())
    got = dropin.RougeScorer(TYPES).score("...", "!!!")
    assert all(tuple(s) == (0.0, 0.0, 0.0) for s in got.values())


def test_score_multi_keeps_best_f_per_type():
    targets = ["a simple document", "another document with some words"]
    got = dropin.RougeScorer(["rouge1", "rouge2"]).score_multi(targets, "a simple summary document containing some words")
    assert got["rouge1"] == (3 / 7, 1.0, 0.6)
    assert got["rouge2"] == (1 / 6, 0.5, 0.25)


def test_split_summaries():
    text_t = "The cat sat. It was happy! Then it slept"
    text_p = "The cat sat on the mat. It was happy"
    scorer = dropin.RougeScorer(["rougeLsum"], split_summaries=True)
    got = scorer.score(text_t, text_p)["rougeLsum"]
    if dropin.uses_punkt():
        want = real_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(text_t, text_p)["rougeLsum"]
        assert got == want
    else:
        # rouge_core's punctuation splitter: ["The cat sat.", "It was happy!", "Then it slept"]
        # vs ["The cat sat on the mat.", "It was happy"]: union LCS hits 3 + 3 = 6 of 9 / 9 tokens.
        want = real_scorer.RougeScorer(["rougeLsum"]).score(
            "The cat sat.\nIt was happy!\nThen it slept", "The cat sat on the mat.\nIt was happy")["rougeLsum"]
        assert got == want
        assert got.precision == pytest.approx(6 / 9) and got.recall == pytest.approx(6 / 9)


def test_explain_returns_evidence():
    res = dropin.RougeScorer(["rougeL"]).explain("the cat sat on the mat", "the cat is sitting on the mat")
    ms = res["rougeL"]["rougeL"]
    assert ms.per_reference[0].evidence.lcs == ("the", "cat", "on", "the", "mat")
    assert "profile:rouge-score" in ms.signature
    assert not math.isnan(ms.fmeasure)


# issue 29 (item 4): rouge-score returns the integers 0 for an LCS type when a side has no
# token (its _score_lcs / _summary_level_lcs), 0.0 for the n-gram types; the drop-in returns the same.
_SIDES = ["", "...", "\n\n", "the cat", "a\n...\nb", "!?", "x"]


@pytest.mark.parametrize("target", _SIDES)
@pytest.mark.parametrize("prediction", _SIDES)
def test_empty_sides_give_rouge_scores_values_and_types(target, prediction):
    got = dropin.RougeScorer(TYPES).score(target, prediction)
    want = real_scorer.RougeScorer(TYPES).score(target, prediction)
    for rouge_type in TYPES:
        assert tuple(got[rouge_type]) == tuple(want[rouge_type]), rouge_type
        assert [type(v) for v in got[rouge_type]] == [type(v) for v in want[rouge_type]], rouge_type


@given(st.text(alphabet=" ab.\n", max_size=12), st.text(alphabet=" ab.\n", max_size=12))
@settings(max_examples=200, deadline=None)
def test_value_types_match_rouge_score_on_any_text(target, prediction):
    got = dropin.RougeScorer(TYPES).score(target, prediction)
    want = real_scorer.RougeScorer(TYPES).score(target, prediction)
    for rouge_type in TYPES:
        assert [(v, type(v)) for v in got[rouge_type]] == [(v, type(v)) for v in want[rouge_type]], rouge_type
