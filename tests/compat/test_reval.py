"""reval helpers: the documented examples and edge cases."""

from __future__ import annotations

import pytest

from rouge_core.compat import reval

CAT_C = "the cat is sitting on the mat".split()
CAT_R = "the cat sat on the mat".split()


def test_cat_example_rouge1_and_rougel():
    for fn in (reval.rouge1, reval.rougel):
        s = fn(CAT_C, CAT_R)
        assert (round(s.precision, 4), round(s.recall, 4), round(s.f1, 4)) == (0.7143, 0.8333, 0.7692)
        assert s.precision == 5 / 7 and s.recall == 5 / 6


def test_lsum_example():
    cand = [s.split() for s in ["the cat is on the mat", "it is cute"]]
    ref = [s.split() for s in ["the dog is on the mat", "the animal is cute", "the pet sleeps well"]]
    s = reval.rougelsum(cand, ref)
    assert (round(s.precision, 4), round(s.recall, 4), round(s.f1, 4)) == (0.7778, 0.5, 0.6087)
    assert s.precision == 7 / 9 and s.recall == 7 / 14


def test_abc_example():
    assert reval.rouge1(["a", "b", "c"], ["c", "b", "a"]).f1 == 1.0
    assert reval.rougel(["a", "b", "c"], ["c", "b", "a"]).f1 == pytest.approx(1 / 3)
    assert round(reval.rougel(["a", "b", "c"], ["c", "b", "a"]).f1, 2) == 0.33


def test_helpers():
    assert reval.overlap(CAT_C, CAT_R) == 5
    assert reval.overlap(["a", "a", "a"], ["a", "a"]) == 2
    assert reval.lcs(CAT_C, CAT_R) == 5
    assert reval.lcs([], ["a"]) == 0
    assert reval.f1(0.5, 0.5) == 0.5
    assert reval.f1(0.0, 0.0) == 0.0
    assert reval.fbeta(0.5, 1.0, 1.0) == reval.f1(0.5, 1.0)
    assert reval.fbeta(0.5, 1.0, 2.0) == pytest.approx(5 * 0.5 * 1.0 / (4 * 0.5 + 1.0))
    assert reval.fbeta(0.0, 0.0, 2.0) == 0.0


def test_rougen():
    s = reval.rougen(CAT_C, CAT_R, 2)
    assert (s.precision, s.recall) == (3 / 6, 3 / 5)
    with pytest.raises(ValueError):
        reval.rougen(CAT_C, CAT_R, 0)


def test_tokens_are_compared_as_given():
    assert reval.rouge1(["The"], ["the"]).f1 == 0.0


def test_empty_inputs_are_zero_not_nan():
    assert tuple(reval.rouge1([], ["a"])) == (0.0, 0.0, 0.0)
    assert tuple(reval.rougel(["a"], [])) == (0.0, 0.0, 0.0)
    assert tuple(reval.rougelsum([], [["a"]])) == (0.0, 0.0, 0.0)


def test_strings_are_rejected():
    with pytest.raises(TypeError):
        reval.rouge1("the cat", ["the"])
    with pytest.raises(TypeError):
        reval.rougelsum("the cat", [["the"]])
