"""Every case of tests/data/conformance (seeds.jsonl, generated.jsonl) through the core API.

Tolerances are the conformance README's: ROUGE-1.5.5 values are the script's printed
5-decimal numbers, and the core rounds P and R before F as the script does, so they must
match to 1e-9 (i.e. exactly as printed); rouge-score values within 1e-9.
"""

from __future__ import annotations

import pytest

import rouge_core
from tests.conformance import load_cases, rouge155_setup

CASES = load_cases("seeds.jsonl") + load_cases("generated.jsonl")


def _close(score: rouge_core.Score, expected: dict) -> bool:
    return (
        abs(score.precision - expected["p"]) <= 1e-9
        and abs(score.recall - expected["r"]) <= 1e-9
        and abs(score.fmeasure - expected["f"]) <= 1e-9
    )


def _mismatches(case: dict) -> list[str]:
    if case["tool"] == "rouge155":
        options, methods = rouge155_setup(case["args"])
        names = methods
    else:
        options = rouge_core.profile("rouge-score", stemmer="porter" if case["use_stemmer"] else "none")
        names = {t: t for t in case["types"]}
    result = rouge_core.score(case["candidate"], case["references"], list(names.values()), options, evidence=False)
    return [
        f"{case['id']} {metric}: expected {expected}, got {result[names[metric]].score}"
        for metric, expected in case["expected"].items()
        if not _close(result[names[metric]].score, expected)
    ]


@pytest.mark.parametrize("tool", ["rouge155", "rouge-score"])
def test_every_conformance_case_matches(tool):
    cases = [c for c in CASES if c["tool"] == tool]
    assert len(cases) > 100
    problems = [p for case in cases for p in _mismatches(case)]
    assert not problems, f"{len(problems)} mismatches, first: {problems[:5]}"


def test_option_sets_are_all_covered():
    args = {c["args"] for c in CASES if c["tool"] == "rouge155"}
    assert {"-n 2 -m -r 1", "-n 2 -s -r 1", "-n 2 -l 20 -r 1"} <= args
    assert any("-w 1.2 -f B" in a for a in args) and any("-u -w 1.2 -f A" in a for a in args)


SEEDS = {c["id"]: c for c in load_cases("seeds.jsonl")}


@pytest.mark.skipif(not SEEDS, reason="seeds.jsonl not found")
class TestStatedNumbers:
    """The numbers the seed examples' sources state, under the matching profile."""

    def test_matlab_fox_reference_max(self):
        c = SEEDS["seed1-matlab-fox-perl-fA"]
        r = rouge_core.score(c["candidate"], c["references"], ["rouge1"], "matlab")
        assert round(r["rouge1"].recall, 4) == 0.8889

    def test_matlab_simple_summary(self):
        c = SEEDS["seed2-matlab-simple-summary-perl-fA"]
        r = rouge_core.score(c["candidate"], c["references"], ["rouge1", "rouge2"], "matlab")
        assert r["rouge1"].recall == 1.0
        assert r["rouge2"].recall == 0.5

    def test_reval_cat(self):
        c = SEEDS["seed3-reval-cat-perl-fA"]
        r = rouge_core.score(c["candidate"], c["references"], ["rouge1", "rougeL"], "reval")
        for name in ("rouge1", "rougeL"):
            s = r[name].score
            assert (round(s.precision, 4), round(s.recall, 4), round(s.fmeasure, 4)) == (0.7143, 0.8333, 0.7692)

    def test_reval_lsum_best_sentence(self):
        c = SEEDS["seed4-reval-lsum-perl-fA"]
        r = rouge_core.score(c["candidate"], c["references"], ["rougeLsum-best", "rougeLsum"], "reval")
        for name in ("rougeLsum-best", "rougeLsum"):
            s = r[name].score
            assert (round(s.precision, 4), round(s.recall, 4), round(s.fmeasure, 4)) == (0.7778, 0.5, 0.6087)

    def test_reval_abc(self):
        r = rouge_core.score(["a", "b", "c"], [["c", "b", "a"]], ["rouge1", "rougeL"], "reval")
        assert r["rouge1"].fmeasure == 1.0
        assert round(r["rougeL"].fmeasure, 2) == 0.33

    def test_medium_fractions(self):
        c = SEEDS["seed6-medium-cat-dog-rs-nostem"]
        r = rouge_core.score(c["candidate"], c["references"], ["rouge1", "rouge2", "rougeL"], "rouge-score")
        assert (r["rouge1"].precision, r["rouge1"].recall) == (3 / 5, 3 / 6)
        assert (r["rouge2"].precision, r["rouge2"].recall) == (1 / 4, 1 / 5)
        assert (r["rougeL"].precision, r["rougeL"].recall) == (3 / 5, 3 / 6)

    def test_kolena_pooled(self):
        c = SEEDS["seed7-kolena-pooled-perl-fA"]
        r = rouge_core.score(c["candidate"], c["references"], ["rouge1", "rouge2"], "rouge-score", multi_ref="pooled")
        assert r["rouge1"].stats == rouge_core.Stats(12, 18, 17)
        assert r["rouge1"].recall == 12 / 17
        assert r["rouge2"].recall == 4 / 15
