"""Numbers that must not depend on the Python running them: Python 3.12's built-in sum() of floats
compensates its roundings, 3.10's and 3.11's does not, so a mean taken with sum() differs in the
last bits between them (seen on 3.13 by .ci/python-matrix in compare_systems)."""

from __future__ import annotations

import math

import rouge_core
from rouge_core.corpora.corpus import compare_systems, plain_mean
from rouge_core.frameworks import TorchmetricsRouge


def test_plain_mean_adds_one_value_after_another():
    values = [1e16, 1.0, -1e16]
    assert plain_mean(values) == 0.0  # (1e16 + 1.0) rounds to 1e16; a compensated sum keeps the 1.0
    assert math.fsum(values) / 3 == 1 / 3


def test_compare_systems_difference_is_the_difference_of_its_means():
    refs = [["the cat sat on the mat"], ["a dog ran home"], ["the sun is hot"], ["rain fell all day"]] * 6
    better = ["the cat sat on a mat", "a dog ran home fast", "the sun is hot", "rain fell all night"] * 6
    worse = ["a cat", "dog", "sun hot today", "it rained"] * 6
    a, b = (rouge_core.score_corpus(c, refs, ["rouge1"]) for c in (better, worse))
    cmp = compare_systems(a, b, "rouge1", resamples=50, seed=1)
    assert cmp.mean_a == a.macro()["rouge1"].fmeasure and cmp.mean_b == b.macro()["rouge1"].fmeasure
    assert cmp.difference.value == cmp.mean_a - cmp.mean_b


def test_torchmetrics_means_are_exact_sums_rounded_once():
    metric = TorchmetricsRouge(rouge_keys="rouge1")
    metric.update(["a b c", "a", "a b"], ["a b", "b", "a b c d e f g"])
    values = metric.per_pair()["rouge1_fmeasure"]
    assert metric.compute()["rouge1_fmeasure"] == math.fsum(values) / 3
