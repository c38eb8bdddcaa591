"""The F-measure rule is part of a method family (`Family.f_rule`): the worked example of
docs/architecture.md. A ROUGE-L whose F always weighs recall with β = 1.2, whatever the
options' α, is defined here, in the test only (its own class, one `register` call), and every
place that turns statistics into scores reads its rule: a single call (compiled and pure
paths, one and several references, ROUGE-1.5.5's rounding), the batch path, a corpus's macro
and micro averages and their bootstrap, the teaching walks and the signature. A second family
whose F is not the F-measure form at all (the geometric mean of P and R) checks the compiled
path's other way of honouring a rule: it hands the kernel's statistics to Python."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pytest

import rouge_core
from rouge_core.corpora.batch import score_batch
from rouge_core.families.methods import Method, SentenceLcsFamily, register, unregister
from rouge_core.kernels import native
from rouge_core.scorer.signature import Signature
from rouge_core.stats import FMeasureRule
from rouge_core.teach import explain

BETA = 1.2


def by_hand(p: float, r: float, beta: float = BETA) -> float:
    """F_β = (1 + β²)·P·R / (β²·P + R)."""
    return (1 + beta * beta) * p * r / (beta * beta * p + r) if p + r > 0 else 0.0


@dataclass(frozen=True)
class BetaLcsFamily(SentenceLcsFamily):
    """ROUGE-L with its own F rule: rougeLb (statistics and kernel are ROUGE-L's)."""

    def name(self, value=None) -> str:
        return f"rougeL{self.key[1:]}"

    def label(self, value=None) -> str:
        return f"{self.title} (sentence-level LCS)"

    def short_label(self, value=None) -> str:
        return self.title

    def parse(self, key: str) -> Method | None:
        return Method(self.key) if key in (self.name().lower(), f"rouge-l{self.key[1:].lower()}") else None


@dataclass(frozen=True)
class GeometricRule(FMeasureRule):
    """F = √(P·R): not the F-measure form at any α, so the kernels cannot be handed it."""

    def alpha(self, options) -> None:
        return None

    def fmeasure(self, precision, recall, options) -> float:
        return math.sqrt(precision * recall)

    def signature_part(self) -> str:
        return "f:geometric"

    def formula(self, options) -> str:
        return "F = √(P·R)"


FIXED_BETA = BetaLcsFamily("Lb", "ROUGE-Lb", "ROUGE-L with F at β = 1.2 whatever the options", builds_layout=True,
                           unit="LCS cells", in_app=False, f_rule=FMeasureRule(beta=BETA))
GEOMETRIC = BetaLcsFamily("Lg", "ROUGE-Lg", "ROUGE-L with F the geometric mean of P and R", builds_layout=True,
                          unit="LCS cells", in_app=False, f_rule=GeometricRule())

POOLED = rouge_core.profile("rouge-score", multi_ref="pooled")
CAND = "the cat sat on the mat"
REFS = ["a cat was on the red mat", "the cat lay on a mat by the door"]
CANDIDATES = [CAND, "a dog ran in the park", "nothing here matches", "the mat the cat the sat"]
REFERENCES = [REFS, ["the dog ran to the park", "dogs run in parks"], ["something else entirely"],
              ["the cat sat on the mat"]]


@pytest.fixture(autouse=True)
def families():
    register(FIXED_BETA)
    register(GEOMETRIC)
    try:
        yield
    finally:
        unregister("Lb")
        unregister("Lg")


def both_paths(call):
    """call() on the compiled path and on the pure one (the same where the kernels are absent)."""
    fast = call()
    with native.pure():
        pure = call()
    return fast, pure


def bits(x: float) -> str:
    return float(x).hex()


def test_a_single_call_scores_f_by_the_family_s_rule_on_both_paths():
    for alpha in (0.5, 0.2):  # the options' α moves ROUGE-L's F, not rougeLb's
        fast, pure = both_paths(lambda: rouge_core.score(CAND, REFS[:1], ["rougeL", "rougeLb", "rougeLg"],
                                                         alpha=alpha))
        for result in (fast, pure):
            plain, fixed, geometric = result["rougeL"], result["rougeLb"], result["rougeLg"]
            p, r = plain.precision, plain.recall
            assert (p, r) == (4 / 6, 4 / 7)  # LCS "cat on the mat": 4 of 6 candidate and 7 reference tokens
            assert (fixed.precision, fixed.recall) == (p, r) == (geometric.precision, geometric.recall)
            assert fixed.fmeasure == pytest.approx(by_hand(p, r), rel=1e-15)
            assert fixed.fmeasure == rouge_core.f_measure(p, r, 1 / (1 + BETA * BETA))
            assert geometric.fmeasure == math.sqrt(p * r)
            assert plain.fmeasure == rouge_core.f_measure(p, r, alpha) != fixed.fmeasure
        assert {k: bits(v) for m in fast for k, v in m.score.as_dict().items()} == \
               {k: bits(v) for m in pure for k, v in m.score.as_dict().items()}
        assert fast.to_dict() == pure.to_dict()


@pytest.mark.parametrize("mode", ["best-f", "best-recall", "pooled", "max", "mean"])
def test_several_references_are_combined_with_the_family_s_f(mode):
    fast, pure = both_paths(lambda: rouge_core.score(CAND, REFS, ["rougeL", "rougeLb", "rougeLg"], multi_ref=mode))
    assert fast.to_dict() == pure.to_dict()
    for name, f_of in (("rougeLb", by_hand), ("rougeLg", lambda p, r: math.sqrt(p * r))):
        per_ref = fast[name].per_reference
        for ref in per_ref:
            assert ref.score.fmeasure == pytest.approx(f_of(ref.score.precision, ref.score.recall), rel=1e-15)
        if mode == "best-f":  # the reference with the highest F under the family's own rule
            assert fast[name].chosen == max(range(len(per_ref)), key=lambda i: (per_ref[i].score.fmeasure, -i))
        if mode == "pooled":
            stats = fast[name].stats
            p, r = stats.hits / stats.cand_total, stats.hits / stats.ref_total
            assert fast[name].fmeasure == pytest.approx(f_of(p, r), rel=1e-15)


def test_rouge155_rounding_takes_f_of_the_printed_p_and_r_under_the_family_s_rule():
    fast, pure = both_paths(lambda: rouge_core.score(CAND, REFS[:1], ["rougeL", "rougeLb"], "rouge-1.5.5"))
    assert fast.to_dict() == pure.to_dict()
    p, r = round(4 / 6, 5), round(4 / 7, 5)
    assert (fast["rougeLb"].precision, fast["rougeLb"].recall) == (p, r)
    assert fast["rougeLb"].fmeasure == float(f"{by_hand(p, r):.5f}")


def test_the_batch_path_gives_what_single_calls_give():
    methods = ["rouge1", "rougeLb", "rougeLg"]
    for options in ("rouge-score", "rouge-1.5.5"):
        single = [rouge_core.score(c, rs, methods, options).to_dict() for c, rs in zip(CANDIDATES, REFERENCES)]
        fast, pure = both_paths(lambda: score_batch(CANDIDATES, REFERENCES, methods, options, workers=2,
                                                    chunk_size=2))
        for batch in (fast, pure):
            assert [{name: m.score.as_dict() for name, m in pair.items()} for pair in batch] == single


def test_a_corpus_s_macro_micro_and_bootstrap_use_the_family_s_rule():
    methods = ["rougeL", "rougeLb", "rougeLg"]
    fast, pure = both_paths(lambda: rouge_core.score_corpus(CANDIDATES, REFERENCES, methods, POOLED))
    for result in (fast, pure):
        macro, micro = result.macro(), result.micro()
        pairs = [rouge_core.score(c, rs, methods, multi_ref="pooled") for c, rs in zip(CANDIDATES, REFERENCES)]
        for name, f_of in (("rougeLb", by_hand), ("rougeLg", lambda p, r: math.sqrt(p * r))):
            f_values = [pair[name].fmeasure for pair in pairs]
            assert result.values(name) == f_values
            assert macro[name].fmeasure == sum(f_values) / len(f_values)
            hits = sum(pair[name].stats.hits for pair in pairs)
            p = hits / sum(pair[name].stats.cand_total for pair in pairs)
            r = hits / sum(pair[name].stats.ref_total for pair in pairs)
            assert (micro[name].precision, micro[name].recall) == (p, r)
            assert micro[name].fmeasure == pytest.approx(f_of(p, r), rel=1e-15)
            assert micro[name].fmeasure != micro["rougeL"].fmeasure
    boot_fast, boot_pure = fast.bootstrap(200, seed=3), pure.bootstrap(200, seed=3)
    assert boot_fast == boot_pure
    for name in ("rougeLb", "rougeLg"):
        for kind, observed in (("macro", fast.macro()), ("micro", fast.micro())):
            interval = getattr(boot_fast, kind)[name]["fmeasure"]
            assert interval.value == observed[name].fmeasure and interval.low <= interval.high
    # the bootstrap's resampled micro F is the rule's F of resampled sums, not ROUGE-L's: the
    # two families' intervals differ while their P and R intervals are the same
    assert boot_fast.micro["rougeLb"]["recall"] == boot_fast.micro["rougeL"]["recall"]
    assert boot_fast.micro["rougeLb"]["fmeasure"] != boot_fast.micro["rougeL"]["fmeasure"]


def test_a_corpus_without_its_texts_rebuilds_each_pair_s_f_by_the_rule():
    result = rouge_core.score_corpus(iter(CANDIDATES), iter(REFERENCES), ["rougeLb", "rougeLg"])
    for i, (c, rs) in enumerate(zip(CANDIDATES, REFERENCES)):
        expected = rouge_core.score(c, rs, ["rougeLb", "rougeLg"])
        for name in ("rougeLb", "rougeLg"):
            assert result.pairs[i][name].score == expected[name].score


def test_the_teaching_walk_writes_and_computes_the_family_s_f():
    stats = rouge_core.score(CAND, REFS[:1], ["rougeLb"])["rougeLb"].stats
    walk = explain.working(stats, rouge_core.profile("rouge-score"), FIXED_BETA.f_rule)
    p, r = 4 / 6, 4 / 7
    assert walk.f_formula == "F = P·R / ((1 − α)·P + α·R) with β = 1.2 fixed by the method"
    assert walk.score.fmeasure == pytest.approx(by_hand(p, r), rel=1e-15)
    assert walk.f_text.endswith(f"= {by_hand(p, r):.4f}")
    geometric = explain.working(stats, rouge_core.profile("rouge-score"), GEOMETRIC.f_rule)
    assert geometric.f_formula == "F = √(P·R)" and geometric.score.fmeasure == math.sqrt(p * r)
    modes = explain.multi_reference(CAND, REFS, "rougeLb", rouge_core.profile("rouge-score"))["modes"]
    pooled = rouge_core.score(CAND, REFS, ["rougeLb"], multi_ref="pooled")["rougeLb"]
    assert [m["F"] for m in modes if m["mode"] == explain.MODE_LABELS["pooled"]] == [pooled.fmeasure]


def test_the_signature_names_the_rule_and_reads_back():
    result = rouge_core.score(CAND, REFS[:1], ["rougeL", "rougeLb", "rougeLg"], alpha=0.2)
    plain, fixed, geometric = (result[m].signature for m in ("rougeL", "rougeLb", "rougeLg"))
    assert "|alpha:0.2|" in plain and "fbeta" not in plain
    assert re.search(r"\|fbeta:1\.2\|", fixed) and f"|alpha:{1 / (1 + BETA * BETA)!r}|" in fixed
    assert "|f:geometric|" in geometric and "|alpha:rule|" in geometric
    for sig in (fixed, geometric):
        assert str(Signature.parse(sig)) == sig
