"""MATLAB rougeEvaluationScore: the documented examples and the NaN / zero rules."""

from __future__ import annotations

import math

import pytest

from rouge_core.compat.matlab import METHODS, method_name, rouge_evaluation_details, rouge_evaluation_score

FOX = "the fast brown fox jumped over the lazy dog"
FOX_REFS = ["the quick brown animal jumped over the lazy dog", "the quick brown fox jumped over the lazy dog"]
SIMPLE = "a simple summary document containing some words"
SIMPLE_REFS = ["a simple document", "another document with some words"]


def test_fox_example_is_0_8889():
    score = rouge_evaluation_score(FOX, FOX_REFS)
    assert round(score, 4) == 0.8889
    assert score == 8 / 9
    details = rouge_evaluation_details(FOX, FOX_REFS)
    assert details.best_reference == 1
    assert [r[1] for r in details.per_reference] == [7 / 9, 8 / 9]


def test_simple_summary_example_ngram_lengths():
    assert rouge_evaluation_score(SIMPLE, SIMPLE_REFS) == 1.0
    assert rouge_evaluation_score(SIMPLE, SIMPLE_REFS, ngram_length=2) == 0.5
    assert rouge_evaluation_score(SIMPLE, SIMPLE_REFS, "n-grams", 2) == 0.5


def test_token_list_and_sentence_inputs_equal_strings():
    cand = FOX.split()
    refs = [r.split() for r in FOX_REFS]
    assert rouge_evaluation_score(cand, refs) == 8 / 9
    # a list of sentences of tokens is one document
    cand_sents = [FOX.split()[:4], FOX.split()[4:]]
    assert rouge_evaluation_score(cand_sents, refs) == 8 / 9
    # one reference given as a string
    assert rouge_evaluation_score(FOX, FOX_REFS[1]) == 8 / 9


def test_case_is_kept_like_tokenized_document():
    assert rouge_evaluation_score("The Cat", ["the cat"]) == 0.0
    assert rouge_evaluation_score("the Cat", ["the cat"]) == 0.5


@pytest.mark.parametrize("method, expected", [
    ("longest-common-subsequences", 1.0),  # LCS "a simple document" = 3 of 3
    ("skip-bigrams", 1.0),  # all 3 skip-bigrams of "a simple document" are in the candidate
    ("skip-bigrams-and-unigrams", 1.0),
])
def test_other_methods_on_simple_summary(method, expected):
    assert rouge_evaluation_score(SIMPLE, SIMPLE_REFS, rouge_method=method) == expected


def test_weighted_lcs_recall():
    # reference 1: runs "a simple" (2) and "document" (1): WLCS = 2^1.2 + 1; recall = (WLCS / 3^1.2)^(1/1.2)
    want = ((2**1.2 + 1) / 3**1.2) ** (1 / 1.2)
    for name in ("weighted-longest-common-subsequences", "weighted-subsequences"):
        assert rouge_evaluation_score(SIMPLE, SIMPLE_REFS, rouge_method=name) == pytest.approx(want, rel=1e-12)
    w2 = ((2**2 + 1) / 3**2) ** 0.5
    assert rouge_evaluation_score(SIMPLE, SIMPLE_REFS, rouge_method="weighted-subsequences", lcs_weight_factor=2) == pytest.approx(w2)


def test_skip_distance():
    cand, ref = "a x x x x x b", ["a b"]
    assert rouge_evaluation_score(cand, ref, rouge_method="skip-bigrams", skip_distance=4) == 0.0
    assert rouge_evaluation_score(cand, ref, rouge_method="skip-bigrams", skip_distance=5) == 1.0
    assert rouge_evaluation_score(cand, ref, rouge_method="skip-bigrams", skip_distance=None) == 1.0
    assert method_name("skip-bigrams", skip_distance=math.inf) == "rougeS*"
    assert method_name("skip-bigrams-and-unigrams", skip_distance=-1) == "rougeSU*"


def test_nan_rules():
    # a reference shorter than NgramLength has no bigrams: its recall is NaN
    assert math.isnan(rouge_evaluation_score("a b", ["c"], ngram_length=2))
    # NaN references are skipped by the maximum (MATLAB max omits NaN)
    assert rouge_evaluation_score("a b", ["c", "a b"], ngram_length=2) == 1.0
    # an empty candidate against a reference with grams: recall 0, precision NaN
    assert rouge_evaluation_score("", ["c d"]) == 0.0
    assert math.isnan(rouge_evaluation_score("", ["c d"], measure="precision"))
    assert math.isnan(rouge_evaluation_score("", ["c d"], measure="fmeasure"))
    # no shared grams: 0, not NaN
    assert rouge_evaluation_score("x y", ["c d"]) == 0.0
    assert math.isnan(rouge_evaluation_score("x y", [""], rouge_method="longest-common-subsequences"))


def test_measures():
    p = rouge_evaluation_score(SIMPLE, SIMPLE_REFS, measure="precision")
    f = rouge_evaluation_score(SIMPLE, SIMPLE_REFS, measure="fmeasure")
    assert p == 3 / 7 and f == pytest.approx(0.6)


def test_bad_arguments():
    with pytest.raises(ValueError, match="RougeMethod"):
        rouge_evaluation_score(FOX, FOX_REFS, rouge_method="bleu")
    with pytest.raises(ValueError, match="NgramLength"):
        rouge_evaluation_score(FOX, FOX_REFS, ngram_length=0)
    with pytest.raises(ValueError):
        rouge_evaluation_score(FOX, [], ngram_length=1)
    with pytest.raises(TypeError):
        rouge_evaluation_score(FOX, [[1, 2]])
    assert set(METHODS) >= {"n-grams", "longest-common-subsequences", "weighted-longest-common-subsequences",
                            "skip-bigrams", "skip-bigrams-and-unigrams"}
