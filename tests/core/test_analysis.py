"""rouge_core.studies.analysis: compare-mt's n-gram analysis with a paired test per n-gram, buckets with
intervals, length statistics; worked examples and the standard statistics checked against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rouge_core import profile
from rouge_core.studies.analysis import (bucket_by_frequency, bucket_by_length, bucket_by_sentence_position, bucket_label,
                                 length_statistics, matched_ngrams, ngram_differences, resampled_sums, sign_test,
                                 tokenize_corpus)
from rouge_core.corpora.corpus import bootstrap_indices

REFS = [["the cat sat on the mat\nit was happy"], ["a dog ran home\nthen it slept"], ["rain fell\nthe town was wet"]]
SYSTEMS = {"A": ["the cat sat", "a dog ran home", "rain fell on the town"],
           "B": ["a cat on a mat", "the dog slept", "the town was wet"]}


@pytest.fixture(scope="module")
def corpus():
    return tokenize_corpus(SYSTEMS, REFS, profile("rouge-score"))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(0, 40), st.integers(0, 40))
def test_sign_test_is_scipys_binomial_test(wins, losses):
    expected = 1.0 if wins + losses == 0 else stats.binomtest(wins, wins + losses, 0.5).pvalue
    assert sign_test(wins, losses) == pytest.approx(expected, rel=1e-12)


def test_sign_test_on_large_counts():
    for wins, losses in ((600, 700), (3000, 3100), (5000, 5000)):
        assert sign_test(wins, losses) == pytest.approx(stats.binomtest(wins, wins + losses).pvalue, rel=1e-9)


def test_matched_ngrams_are_clipped_by_the_reference(corpus):
    a = matched_ngrams(corpus, "A")
    assert a[("the",)] == {0: 1, 2: 1}  # once in A's first candidate (its reference has it twice), once in the third
    assert a[("cat", "sat")] == {0: 1} and a[("a", "dog", "ran", "home")] == {1: 1}
    b = matched_ngrams(corpus, "B")
    assert ("a",) not in b  # B says "a" twice in pair 0, whose reference has none
    assert b[("mat",)] == {0: 1} and b[("the", "town", "was", "wet")] == {2: 1}


def test_ngram_differences_count_test_and_rank(corpus):
    diffs = ngram_differences(corpus, "A", "B")
    frame = diffs.frame().set_index("ngram")
    row = frame.loc["sat"]
    assert (row["matched_a"], row["matched_b"], row["pairs_a"], row["pairs_b"]) == (1, 0, 1, 0)
    assert row["salience"] == (1 + 1) / (1 + 0 + 2)  # compare-mt's (m_A + α) / (m_A + m_B + 2α)
    assert row["p_value"] == 1.0  # one document cannot show a difference
    the = frame.loc["the"]  # A: pairs 0 and 2; B: pair 2 ("the dog" of pair 1 is not in its reference)
    assert (the["matched_a"], the["matched_b"], the["pairs_a"], the["pairs_b"]) == (2, 1, 1, 0)
    assert set(diffs.top("B", 50)["ngram"]) >= {"the town was wet", "mat", "slept"}
    assert diffs.example_pairs("the town was wet", "B") == (2,)
    assert (frame["adjusted_p"] >= frame["p_value"]).all()
    with pytest.raises(ValueError, match="two different"):
        ngram_differences(corpus, "A", "A")


def test_a_consistent_difference_is_significant():
    refs = [[f"doc{i} alpha beta gamma"] for i in range(12)]
    systems = {"A": [f"alpha beta gamma x{i}" for i in range(12)], "B": [f"alpha x{i}" for i in range(12)]}
    diffs = ngram_differences(tokenize_corpus(systems, refs, profile("rouge-score")), "A", "B")
    top = diffs.top("A", 3)
    assert top.iloc[0]["p_value"] == pytest.approx(stats.binomtest(12, 12).pvalue)  # 2 / 2**12
    assert top.iloc[0]["pairs_a"] == 12 and top.iloc[0]["ngram"] in {"beta", "gamma", "beta gamma",
                                                                       "alpha beta", "alpha beta gamma"}


def test_bucket_labels_are_compare_mts():
    edges = [1, 2, 3, 4, 5, 10, 100, 1000]
    assert [bucket_label(edges, k) for k in range(9)] == ["<1", "1", "2", "3", "4", "[5,10)", "[10,100)",
                                                         "[100,1000)", ">=1000"]


def test_frequency_buckets_by_hand(corpus):
    frame = bucket_by_frequency(corpus, ["A"], resamples=50).frame().set_index("bucket")
    # reference word counts over the corpus: "the" 3, "was" 2, "it" 2, every other word 1
    # frequency-1 reference words: 15; A matches cat sat on (pair 0), a dog ran home (1), rain fell (2): 9
    # A's words of frequency 1: cat sat (0), a dog ran home (1), rain fell on town (2) = 10 -> P 9/10
    one = frame.loc["1"]
    assert (one["recall"], one["precision"]) == (9 / 15, 9 / 10) and one["value"] == 2 * 9 / (15 + 10)
    three = frame.loc["3"]  # "the": reference 3 copies; A says it twice (pairs 0, 2), both matched
    assert (three["recall"], three["precision"]) == (2 / 3, 1.0)


def test_sentence_position_buckets_by_hand(corpus):
    frame = bucket_by_sentence_position(corpus, ["B"], resamples=50).frame().set_index("bucket")
    # first sentences: "the cat sat on the mat" (B: cat on mat = 3 of 6), "a dog ran home" (dog = 1 of 4),
    # "rain fell" (0 of 2): 4 / 12; second: "it was happy" 0/3, "then it slept" 1/3, "the town was wet" 4/4
    assert frame.loc["1", "value"] == 4 / 12 and frame.loc["2", "value"] == 5 / 10
    assert math.isnan(frame.loc["3", "value"]) and frame.loc["3", "count"] == 0


def test_length_buckets_and_intervals(corpus):
    buckets = bucket_by_length(corpus, {"A": [0.5, 0.6, 0.7], "B": [0.1, 0.2, 0.3]}, "candidate", resamples=200,
                               seed=4)
    frame = buckets.frame()
    b = frame[frame["system"] == "B"].set_index("bucket")
    assert b.loc[">=5", "value"] == 0.1 and b.loc["<4", "value"] == 0.2 and b.loc["4", "value"] == 0.3
    ref = bucket_by_length(corpus, {"A": [0.5, 0.6, float("nan")]}, "reference", resamples=200).frame()
    assert ref["count"].sum() == 2  # the undefined score is left out


def test_resampled_sums_use_the_corpus_draws():
    values = np.arange(20, dtype=float).reshape(10, 2)
    sums = resampled_sums(values, 300, 5)
    assert np.array_equal(sums, values[bootstrap_indices(10, 300, 5)].sum(axis=1))


def test_length_statistics(corpus):
    frame = length_statistics(corpus, resamples=200).frame().set_index("system")
    ratios = np.array([3 / 9, 4 / 7, 5 / 6])  # A's lengths over the references' (9, 7, 6 tokens)
    assert frame.loc["A", "mean_ratio"] == pytest.approx(ratios.mean(), abs=1e-15)
    assert frame.loc["A", "median_ratio"] == pytest.approx(np.median(ratios), abs=1e-15)
    assert frame.loc["A", "longer_than_reference"] == 0.0
    assert frame.loc["A", "low"] <= frame.loc["A", "mean_ratio"] <= frame.loc["A", "high"]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(st.floats(0, 1), max_size=30))
def test_holm_on_arrays_is_the_significance_modules(p_values):
    from rouge_core.studies.analysis import holm_array
    from rouge_core.corpora.significance import holm

    assert list(holm_array(p_values)) == holm(p_values)
