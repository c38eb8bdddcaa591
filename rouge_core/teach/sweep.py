"""Parameter sweeps: how a score moves with n, skip distance, β and the ROUGE-W weight, and
how the tool profiles compare on the same input.

Each sweep tokenizes the texts once and rescores the same Documents, and returns a tidy
pandas DataFrame (one row per parameter value and series) that the chart builders plot:

    value   the parameter value (None for an unlimited skip distance)
    label   the value as the axis shows it ("∞" for an unlimited skip distance)
    order   position on the axis
    series  what the line is (precision / recall / F, or a method name)
    score   the number
    current True on the rows of the user's current setting
    skipped None, or why the point was not computed (its estimated cost is above the
            bound: the CostLimitError message); its score is then NaN

Every point is checked against `cost_limit` on its own (None: the default bound; a
`rouge_core.CostLimit`; `rouge_core.UNBOUNDED`), so one unaffordable point (say rougeS* on a
long text) is skipped with its reason while the others are drawn.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

from ..scorer.cost import CostLimit, CostLimitError, resolve_limit
from ..families.methods import FAMILIES, method_name, parse_method
from ..text.options import PROFILES, Options, profile
from ..params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT
from ..scorer.scoring import TextLike, prepare_pair, rescore, score_documents
from ..text.segment import MissingExtraError
from ..text.words import tokenizer_label
from ..text.document import Document
from .. import optional

SWEEP_NS = tuple(range(1, 7))
SWEEP_DISTANCES: tuple[int | None, ...] = (*range(0, 11), None)
SWEEP_BETAS = (0.25, 0.5, 1.0, 2.0, 3.0, 4.0)
SWEEP_WEIGHTS = (1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.5, 3.0)
MEASURES = (("precision", "precision"), ("recall", "recall"), ("fmeasure", "F"))


def _frame(rows: list[dict]):
    pd = optional.pandas("a sweep table")

    return pd.DataFrame(rows, columns=["parameter", "value", "label", "order", "series", "score", "current", "skipped"])


def _point(cand: Document, refs: tuple[Document, ...], methods: Sequence[str], options: Options,
           cost_limit: CostLimit | None):
    """(the scores of one sweep point, None) or (None, why it was skipped)."""
    try:
        return score_documents(cand, refs, methods, options, evidence=False, cost_limit=cost_limit), None
    except CostLimitError as exc:
        return None, str(exc)


def _value(result, name: str, field: str) -> float:
    return math.nan if result is None else getattr(result[name].score, field)


def _with_current(values: Iterable, current) -> list:
    """The sweep grid plus the current setting, so the chart can mark it even off the grid."""
    values = list(values)
    if current not in values:
        values.append(current)
    finite = sorted(v for v in values if v is not None)
    return finite + ([None] if None in values else [])


def _label(value) -> str:
    if value is None:
        return "∞"
    return f"{value:g}" if isinstance(value, float) else str(value)


def sweep_n(candidate: TextLike, references: Sequence[TextLike], options: Options, current: int = NGRAM_N.default, ns: Iterable[int] = SWEEP_NS,
            *, cost_limit: CostLimit | None = None):
    """ROUGE-N precision, recall and F for each n."""
    resolve_limit(cost_limit)
    cand, refs = prepare_pair(candidate, references, options)
    values = _with_current(ns, current)
    rows = []
    for order, n in enumerate(values):
        name = method_name("N", n)
        result, skipped = _point(cand, refs, [name], options, cost_limit)
        for field, series in MEASURES:
            rows.append(dict(parameter="n", value=n, label=_label(n), order=order, series=series,
                             score=_value(result, name, field), current=n == current, skipped=skipped))
    return _frame(rows)


def sweep_skip_distance(
    candidate: TextLike,
    references: Sequence[TextLike],
    options: Options,
    current: int | None = SKIP_DISTANCE.default,
    distances: Iterable[int | None] = SWEEP_DISTANCES,
    *,
    cost_limit: CostLimit | None = None,
):
    """ROUGE-S and ROUGE-SU F for each skip distance (None: unlimited)."""
    resolve_limit(cost_limit)
    cand, refs = prepare_pair(candidate, references, options)
    values = _with_current(distances, current)
    rows = []
    for order, d in enumerate(values):
        names = (method_name("S", d), method_name("SU", d))
        result, skipped = _point(cand, refs, names, options, cost_limit)
        for name, series in zip(names, ("ROUGE-S F", "ROUGE-SU F")):
            rows.append(dict(parameter="skip distance", value=d, label=_label(d), order=order, series=series,
                             score=_value(result, name, "fmeasure"), current=d == current, skipped=skipped))
    return _frame(rows)


def sweep_beta(
    candidate: TextLike,
    references: Sequence[TextLike],
    options: Options,
    methods: Sequence[str],
    betas: Iterable[float] = SWEEP_BETAS,
    *,
    cost_limit: CostLimit | None = None,
):
    """F of each method for each β (β > 1 weighs recall more). The statistics are computed
    once and rescored at every β; the multi-reference choice is redone at every β, since
    best-F may pick another reference."""
    resolve_limit(cost_limit)
    cand, refs = prepare_pair(candidate, references, options)
    current = round(options.beta, 6)
    values = [float(b) for b in betas]
    if math.isfinite(current):  # α = 0 gives β = ∞, which has no place on the axis
        values = _with_current(values, current)
    methods = [parse_method(m, options) for m in methods]
    names = [m.name for m in methods]
    statistics, skipped = _point(cand, refs, methods, options, cost_limit)
    rows = []
    for order, beta in enumerate(values):
        result = None if statistics is None else rescore(statistics, options.with_beta(beta))
        for name in names:
            rows.append(dict(parameter="β", value=beta, label=_label(beta), order=order, series=name,
                             score=_value(result, name, "fmeasure"), current=abs(beta - current) < 1e-9,
                             skipped=skipped))
    return _frame(rows)


def sweep_weight(
    candidate: TextLike,
    references: Sequence[TextLike],
    options: Options,
    current: float = WLCS_WEIGHT.default,
    weights: Iterable[float] = SWEEP_WEIGHTS,
    *,
    cost_limit: CostLimit | None = None,
):
    """ROUGE-W precision, recall and F for each weight w (w = 1 is plain LCS)."""
    resolve_limit(cost_limit)
    cand, refs = prepare_pair(candidate, references, options)
    values = _with_current([float(w) for w in weights], float(current))
    rows = []
    for order, w in enumerate(values):
        method = FAMILIES["W"].method(w)
        result, skipped = _point(cand, refs, [method], options, cost_limit)
        for field, series in MEASURES:
            rows.append(dict(parameter="W weight", value=w, label=_label(w), order=order, series=series,
                             score=_value(result, method.name, field), current=abs(w - current) < 1e-9,
                             skipped=skipped))
    return _frame(rows)


def compare_profiles(
    candidate: str,
    references: Sequence[str],
    methods: Sequence[str],
    profiles: Sequence[str] = PROFILES,
    current: Options | None = None,
    *,
    cost_limit: CostLimit | None = None,
):
    """P, R and F of each method under each tool profile (each tokenizes in its own way,
    so the texts are tokenized once per profile). With `current`, the user's own settings
    join the comparison as "your settings"."""
    pd = optional.pandas("compare_profiles()")

    entries: list[tuple[str, Options]] = [(name, profile(name)) for name in profiles]
    if current is not None:
        entries.insert(0, ("your settings", current))
    # one method in every column: a printed name is read under the user's settings, if given
    methods = [parse_method(m, current) for m in methods]
    names = [m.name for m in methods]
    rows = []
    for label, opts in entries:
        try:
            cand, refs = prepare_pair(candidate, list(references), opts)
        except MissingExtraError as exc:  # a profile whose segmenters are not installed here
            result, skipped = None, str(exc)
        else:
            result, skipped = _point(cand, refs, methods, opts, cost_limit)
        for name in names:
            rows.append(dict(profile=label, method=name, precision=_value(result, name, "precision"),
                             recall=_value(result, name, "recall"), fmeasure=_value(result, name, "fmeasure"),
                             multi_ref=opts.multi_ref, tokenizer=tokenizer_label(opts.tokenizer), skipped=skipped))
    return pd.DataFrame(rows, columns=["profile", "method", "precision", "recall", "fmeasure", "multi_ref", "tokenizer",
                                       "skipped"])
