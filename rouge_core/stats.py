"""Sufficient statistics of one (candidate, reference) comparison, the scores they give, and
a score's confidence interval."""

from __future__ import annotations

import math
from dataclasses import dataclass


# Stats and Score are created for every method of every pair, so they are plain slotted
# dataclasses (a frozen one's __init__ costs three times as much); they keep a value hash
# and are read-only by convention.
@dataclass(slots=True, unsafe_hash=True)
class Stats:
    """Hits and the two totals they are divided by.

    Statistics are additive, so pooling over references (ROUGE-1.5.5 `-f A`) or over a
    corpus (micro averages, `-t 1`) is a sum. ROUGE-W divides weighted totals and then takes
    the 1/w-th power of the ratios; `exponent` carries that power (1 for every other method).

    These are also ROUGE-1.5.5's per-model counts: `hits` its hit count, `cand_total` its
    peer count and `ref_total` its model count (rouge_core.scorer.rules155).

    `ref_base` (ROUGE-W only; None elsewhere): the reference total before its weighting,
    ref_total = f(ref_base) — Σ f(|r_i|) in the ROUGE-1.5.5 form, |r| in the paper's. It is
    kept as computed, because ROUGE-1.5.5's `-f B` compares hits / Σ f(|r_i|), and rebuilding
    it from ref_total (ref_total ** exponent) is off in the last bits, which can flip a tie.
    """

    hits: float
    cand_total: float
    ref_total: float
    exponent: float = 1.0
    ref_base: float | None = None

    def precision(self) -> float:
        return _ratio(self.hits, self.cand_total, self.exponent)

    def recall(self) -> float:
        return _ratio(self.hits, self.ref_total, self.exponent)

    def __add__(self, other: "Stats") -> "Stats":
        base = None if self.ref_base is None or other.ref_base is None else self.ref_base + other.ref_base
        return Stats(
            self.hits + other.hits,
            self.cand_total + other.cand_total,
            self.ref_total + other.ref_total,
            self.exponent,
            base,
        )


W_ROUNDING = 1e-11  # shared with the compiled kernels (rouge_core.kernels.kernel_spec)


def _ratio(hits: float, total: float, exponent: float) -> float:
    if total <= 0:
        return 0.0
    ratio = hits / total
    if exponent == 1.0:
        return ratio
    # ROUGE-W: its weighted hits are sums of float gains f(k+1) - f(k), which land a few
    # rounding steps off f(length): a perfect match gave 0.9999999999999999 or
    # 1.0000000000000002. Within W_ROUNDING of 1 the score is 1: the closest score below 1
    # that counts can give is much further away (about 5e-10 at w = 1.000001 and 20,000 tokens).
    ratio = ratio**exponent
    return ratio if ratio < 1.0 - W_ROUNDING else 1.0


def f_measure(precision: float, recall: float, alpha: float = 0.5) -> float:
    """F = P·R / ((1−α)·P + α·R), 0 when the denominator is 0, NaN when P or R is NaN (a ratio
    over an empty side under empty="nan").

    The one F-measure rule: ROUGE-1.5.5 computes this form at every α (rouge_core.scorer.rules155), and
    at α = 0.5 it is rouge-score's 2·P·R / (P + R) to the bit (halving a float is exact, so both
    divide the same product by the same sum). The compiled kernels run this very function:
    rouge_core.kernels.kernel_spec translates it into C (plain float arithmetic only, kept so)."""
    if precision != precision or recall != recall:  # NaN (no math.isnan calls: this runs for every score)
        return math.nan
    denominator = (1 - alpha) * precision + alpha * recall
    return precision * recall / denominator if denominator > 0 else 0.0


def alpha_from_beta(beta: float) -> float:
    """F_β weights recall β times as much as precision: α = 1 / (1 + β²)."""
    return 1.0 / (1.0 + beta * beta)


def beta_from_alpha(alpha: float) -> float:
    return math.inf if alpha == 0 else math.sqrt((1 - alpha) / alpha)


@dataclass(frozen=True)
class FMeasureRule:
    """How a method family turns precision and recall into F (`Family.f_rule`, read by every
    place that turns statistics into scores: single calls, batches, corpus aggregates and their
    bootstrap, the teaching walks, the compiled kernels).

    The default, F_MEASURE, is `f_measure` at the options' α (`Options.alpha`: every built-in
    family). `beta` fixes the family's β whatever the options say (α = 1 / (1 + β²)); the
    kernels are handed that α. A rule of another form subclasses this, overriding `fmeasure`
    (NaN in, NaN out, as f_measure) and `alpha` (None) and, for the signature and the teaching
    walk, `signature_part` and `formula`: the kernels then give its scores to Python, which
    computes them from their statistics."""

    beta: float | None = None

    def alpha(self, options) -> float | None:
        """The α at which this rule is `f_measure` under `options`; None: another function."""
        return options.alpha if self.beta is None else alpha_from_beta(self.beta)

    def fmeasure(self, precision: float, recall: float, options) -> float:
        return f_measure(precision, recall, self.alpha(options))

    def signature_part(self) -> str | None:
        """The `key:value` field the rule adds to its family's signatures (None: the options' α says it all)."""
        return None if self.beta is None else f"fbeta:{self.beta:g}"

    def formula(self, options) -> str:
        """F's formula as the teaching walk writes it."""
        if self.alpha(options) == 0.5:
            return "F = 2·P·R / (P + R)"
        fixed = "" if self.beta is None else f" with β = {self.beta:g} fixed by the method"
        return f"F = P·R / ((1 − α)·P + α·R){fixed}"


F_MEASURE = FMeasureRule()  # F at the options' α: the rule of every built-in family


@dataclass(slots=True, unsafe_hash=True)
class Score:
    precision: float
    recall: float
    fmeasure: float

    def as_dict(self) -> dict[str, float]:
        return {"precision": self.precision, "recall": self.recall, "fmeasure": self.fmeasure}


@dataclass(frozen=True)
class Interval:
    """A value with the bounds of its confidence interval: a corpus bootstrap's observed
    score (rouge_core.corpora.corpus), a paired difference or effect size (`compare_systems`), or
    ROUGE-1.5.5's bootstrap average (the mean of its resample values) with its interval."""

    value: float
    low: float
    high: float

    def __eq__(self, other: object) -> bool:
        # As a tuple of its fields, as dataclasses compared on Python 3.12 and earlier: a statistic left
        # undefined (math.nan) compares equal to itself, so the same call's results are equal on every
        # Python (3.13's generated __eq__ compares field by field, where nan != nan: cpython gh-120645).
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.value, self.low, self.high) == (other.value, other.low, other.high)
