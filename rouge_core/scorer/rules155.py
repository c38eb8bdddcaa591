"""ROUGE-1.5.5's scoring rules, in one place.

The `rouge-1.5.5` profile (rouge_core.scorer.scoring, through `Options.round_pr` and `multi_ref`
"pooled" / "best-recall") and the `rouge155` drop-in (rouge_core.compat.rouge155, whose
flags map onto that profile) both score by these rules, read from the script's
compute*Score routines:

- counts: what the script keeps for one (peer, model) pair is a `Stats` — hits, the peer
  count (`cand_total`) and the model count (`ref_total`); for ROUGE-W the weighted hits,
  f(|c|) and f(Σ f(|r_i|)), with Σ f(|r_i|) itself in `ref_base`.
- `-f A` ("pooled"): the counts summed over the models, in model order (`Stats.__add__`).
- `-f B` ("best-recall"): per model, the value the metric's routine compares
  (`selection_value`); the first model with the greatest value wins (the script replaces
  its best only on a strictly greater value), as in every "best" mode of
  rouge_core.scorer.scoring.combine_references.
- printing: R and P with `%7.5f`, F computed from the printed R and P and printed too
  (`printed_score`); the bootstrap's averages and bounds are printed the same way.
- the metrics and their print order (`report_methods`).
"""

from __future__ import annotations

from ..families.be_method import BasicElementMethod
from ..families.methods import FAMILIES, Method
from ..stats import Score, Stats, f_measure  # the script's F = P·R / ((1−α)·P + α·R): the one rule

DIGITS = 5  # the script prints scores with %7.5f


def printed(x: float, digits: int = DIGITS) -> float:
    """`x` as the script prints it (`sprintf("%7.5f")`), read back as a number."""
    return float(f"{x:.{digits}f}")


def printed_score(precision: float, recall: float, alpha: float, digits: int = DIGITS) -> Score:
    """P and R printed, then F from the printed values, printed."""
    p, r = printed(precision, digits), printed(recall, digits)
    return Score(p, r, printed(f_measure(p, r, alpha), digits))


def selection_value(method, stats: Stats, digits: int = DIGITS) -> float:
    """What `-f B` compares for one model (reference), as each routine computes it:

    - N, S, SU and BE (`method.counts_ngrams`): the recall printed, hits / model count as
      `%07.5f` (0 for a model without units);
    - L: the unrounded hits / model count;
    - W: (hits / Σ f(|r_i|)) ** (1/w), unrounded, with the sum as the kernel computed it
      (`Stats.ref_base`; the weighted model count f(Σ f(|r_i|)) is what gets reported).
    """
    if method.counts_ngrams:
        return printed(stats.recall(), digits)
    if method.family == "W":
        base = stats.ref_base
        if base is None:  # statistics made by hand, without their base: rebuilt, as close as it gets
            base = stats.ref_total ** stats.exponent
        return (stats.hits / base) ** stats.exponent if base > 0 else 0.0
    return stats.hits / stats.ref_total if stats.ref_total > 0 else 0.0


def report_methods(max_n: int, *, lcs: bool = True, weight: float | None = None,
                   skip_distance: int | None = None, skip_unigrams: bool = False,
                   skip_unigrams_and_plain: bool = False, basic_elements: str | None = None) -> tuple:
    """The metrics the script computes for its flags, in the order it prints them: ROUGE-1 to
    ROUGE-`max_n` (-n), ROUGE-L (its summary-level form; not with -x), ROUGE-W (-w), the
    skip-bigrams (-2 d, a negative d unlimited): ROUGE-SU with -u (which wins over -U), ROUGE-S
    and ROUGE-SU with -U, else ROUGE-S; then ROUGE-BE in the -3 mode given."""
    methods: list = [FAMILIES["N"].method(n) for n in range(1, max_n + 1)]
    if lcs:
        methods.append(Method("Lsum"))
    if weight is not None:
        methods.append(FAMILIES["W"].method(weight))
    if skip_distance is not None:
        distance = None if skip_distance < 0 else skip_distance
        families = ("SU",) if skip_unigrams else ("S", "SU") if skip_unigrams_and_plain else ("S",)
        methods += [FAMILIES[key].method(distance) for key in families]
    if basic_elements is not None:
        methods.append(BasicElementMethod(basic_elements))
    return tuple(methods)
