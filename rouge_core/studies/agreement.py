"""Agreement between annotators: counts, observed agreement and Cohen's kappa."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Sequence

from ..errors import excerpt


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable], *, weights: str | None = None,
                categories: Sequence[Hashable] | None = None) -> float:
    """κ = (p_o − p_e) / (1 − p_e) over items both annotators labelled.

    weights=None counts only exact agreement; "linear" / "quadratic" give partial credit for
    near misses on ordered categories (e.g. 1–5 ratings; `categories` sets their order).
    When both annotators use one single label throughout, p_e = 1 and κ is undefined: we
    return 1.0 if they agree everywhere (nothing to disagree on), else NaN."""
    if len(a) != len(b):
        raise ValueError("both annotators must label the same items")
    n = len(a)
    if n == 0:
        return math.nan
    labels = list(categories) if categories is not None else sorted(set(a) | set(b), key=str)
    k = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    if weights is None:
        def disagreement(i: int, j: int) -> float:
            return 0.0 if i == j else 1.0
    elif weights in ("linear", "quadratic"):
        power = 1 if weights == "linear" else 2
        span = max(k - 1, 1)

        def disagreement(i: int, j: int) -> float:
            return (abs(i - j) / span) ** power
    else:
        raise ValueError("weights must be None, 'linear' or 'quadratic'")
    count_a, count_b = Counter(a), Counter(b)
    observed = sum(disagreement(index[x], index[y]) for x, y in zip(a, b)) / n
    expected = sum(count_a[x] * count_b[y] * disagreement(index[x], index[y]) for x in labels for y in labels) / (n * n)
    if expected == 0:
        return 1.0 if observed == 0 else math.nan
    return 1.0 - observed / expected


@dataclass(frozen=True)
class PairAgreement:
    annotator_a: str
    annotator_b: str
    items: int  # items both judged
    agreed: int
    kappa: float

    @property
    def observed(self) -> float:
        return self.agreed / self.items if self.items else math.nan


def pairwise_agreement(judgements: Mapping[str, Mapping[Hashable, Hashable]], *, weights: str | None = None,
                       categories: Sequence[Hashable] | None = None) -> list[PairAgreement]:
    """judgements: annotator -> {item -> label}. One row per pair of annotators."""
    out = []
    for x, y in itertools.combinations(sorted(judgements), 2):
        shared = sorted(set(judgements[x]) & set(judgements[y]), key=str)
        la = [judgements[x][i] for i in shared]
        lb = [judgements[y][i] for i in shared]
        agreed = sum(1 for p, q in zip(la, lb) if p == q)
        kappa = cohen_kappa(la, lb, weights=weights, categories=categories) if shared else math.nan
        out.append(PairAgreement(x, y, len(shared), agreed, kappa))
    return out


def agreement_rows(labels: Iterable[tuple[str, Hashable, Hashable]], *,
                   ordered: Sequence[Hashable] | None = None) -> list[dict]:
    """The agreement table of (annotator, item, label) triples: one row per pair of
    annotators with the items both labelled, how many they agreed on, the observed agreement
    and Cohen's κ; with `ordered` (the scale's labels in order, e.g. 1–5) also the
    quadratic-weighted κ, which gives partial credit for near misses. Labels outside
    `ordered` are left out of the weighted κ only. Each annotator labels an item once: a
    repeated (annotator, item) raises ValueError."""
    by_annotator: dict[str, dict[Hashable, Hashable]] = {}
    for annotator, item, label in labels:
        own = by_annotator.setdefault(annotator, {})
        if item in own:
            raise ValueError(f"annotator {excerpt(annotator)} labelled item {excerpt(item)} twice")
        own[item] = label
    rows = []
    weighted = {}
    if ordered is not None:
        known = set(ordered)
        on_scale = {a: {i: v for i, v in items.items() if v in known} for a, items in by_annotator.items()}
        weighted = {(w.annotator_a, w.annotator_b): w.kappa
                    for w in pairwise_agreement(on_scale, weights="quadratic", categories=ordered)}
    for pa in pairwise_agreement(by_annotator):
        row = {"annotator_a": pa.annotator_a, "annotator_b": pa.annotator_b, "items": pa.items, "agreed": pa.agreed,
               "observed": pa.observed, "cohen_kappa": pa.kappa}
        if ordered is not None:
            row["kappa_quadratic"] = weighted[(pa.annotator_a, pa.annotator_b)]
        rows.append(row)
    return rows
