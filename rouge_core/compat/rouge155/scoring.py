"""From one document's per-model counts to the script's per-document values.

`-f A` pools the counts over the models, `-f B` keeps the model with the best recall as each
script routine compares it; P and R are rounded to 5 decimals before F, as printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from .flags import Options


class CountsLike(Protocol):
    hit: float
    model: float
    peer: float


@dataclass(frozen=True)
class Metric:
    """One reported metric: its kind (N, L, W, S, SU, BE), n for ROUGE-N, the printed name."""

    kind: str
    name: str
    n: int = 0

    def engine_key(self, keys: Sequence[str]) -> str:
        """The name the scoring engine uses for this metric (W and S carry their parameter)."""
        for key in keys:
            if self.kind == "N" and key == f"ROUGE-{self.n}":
                return key
            if self.kind == "L" and key == "ROUGE-L":
                return key
            if self.kind == "W" and key.startswith("ROUGE-W"):
                return key
            if self.kind == "S" and key.startswith("ROUGE-S") and not key.startswith("ROUGE-SU"):
                return key
            if self.kind == "SU" and key.startswith("ROUGE-SU"):
                return key
        raise KeyError(f"the scoring engine returned no {self.name} (keys: {', '.join(keys)})")


def metrics_for(options: Options) -> list[Metric]:
    """The metrics in the script's print order: N (1..n), L (not with -x or -3), W, S / SU, then BE."""
    out = [Metric("N", f"ROUGE-{n}", n) for n in range(1, options.max_n + 1)]
    if not options.no_lcs and options.be_mode is None:
        out.append(Metric("L", "ROUGE-L"))
    if options.weight is not None:
        out.append(Metric("W", f"ROUGE-W-{options.weight_text}"))
    if options.skip_distance is not None:
        d = options.skip_distance_text if options.skip_distance >= 0 else "*"
        if options.skip_unigrams:  # -u wins over -U
            out.append(Metric("SU", f"ROUGE-SU{d}"))
        elif options.skip_unigrams_and_plain:
            out += [Metric("S", f"ROUGE-S{d}"), Metric("SU", f"ROUGE-SU{d}")]
        else:
            out.append(Metric("S", f"ROUGE-S{d}"))
    if options.be_mode is not None:
        out.append(Metric("BE", f"ROUGE-BE-{options.be_mode}"))
    return out


@dataclass(frozen=True)
class Totals:
    """The counts one document contributes: model side, peer side, hits (W: weighted)."""

    model: float
    peer: float
    hit: float


class TokenlessModel(Exception):
    """ROUGE-W of a model without tokens: the script dies with a division by zero."""

    def __init__(self, model_index: int) -> None:
        super().__init__(model_index)
        self.model_index = model_index


def _fmt5(x: float) -> str:
    return "%7.5f" % x


def _selection_score(metric: Metric, c: CountsLike, weight: float | None) -> float:
    # What each script routine compares under -f B.
    if metric.kind in ("N", "S", "SU", "BE"):
        return float("%07.5f" % (c.hit / c.model)) if c.model != 0 else 0.0
    if metric.kind == "L":
        return c.hit / c.model if c.model > 0 else 0.0
    # W: the routine's own score uses the unweighted base sum_i f(|r_i|); the kept model
    # total is f(base), so base is recovered with the inverse weight.
    base = c.model ** (1 / weight)
    return (c.hit / base) ** (1 / weight)


def combine(metric: Metric, per_model: Sequence[CountsLike], options: Options) -> Totals:
    """`-f A`: sum over the models; `-f B`: the best model (first on ties)."""
    if metric.kind == "W":
        for index, c in enumerate(per_model):
            if c.model == 0:
                raise TokenlessModel(index)
    if options.formula == "B":
        best = -1.0
        chosen = Totals(0, 0, 0)
        for c in per_model:
            score = _selection_score(metric, c, options.weight)
            if score > best:
                best = score
                chosen = Totals(c.model, c.peer, c.hit)
        return chosen
    model = peer = hit = 0
    for c in per_model:
        model += c.model
        peer += c.peer
        hit += c.hit
    return Totals(model, peer, hit)


def _ratio(metric: Metric, hit: float, total: float, weight: float | None) -> float:
    if total == 0:
        return 0.0
    if metric.kind == "W":
        return (hit / total) ** (1 / weight)
    return hit / total


def rounded_rpf(metric: Metric, totals: Totals, options: Options) -> tuple[str, str, str]:
    """The per-document R, P, F exactly as printed (`%7.5f`), F computed from rounded P and R."""
    r = _fmt5(_ratio(metric, totals.hit, totals.model, options.weight))
    p = _fmt5(_ratio(metric, totals.hit, totals.peer, options.weight))
    rn, pn, alpha = float(r), float(p), options.alpha
    den = (1 - alpha) * pn + alpha * rn
    f = _fmt5((pn * rn) / den) if den > 0 else _fmt5(0)
    return r, p, f
