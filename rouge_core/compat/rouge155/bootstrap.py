"""ROUGE-1.5.5's bootstrap: Perl's srand/rand (drand48), resample means, the interval.

Every step copies the script's float arithmetic in the same order (sequential sums, the
sorted-order sum of the resample means), so the printed 5-decimal values match byte for byte.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from rouge_core.scorer.rules155 import f_measure, printed
from rouge_core.stats import Interval

_MULTIPLIER = 0x5DEECE66D
_INCREMENT = 0xB
_MASK = (1 << 48) - 1
_TWO_POW_MINUS_48 = 2.0**-48


class Drand48:
    """Perl >= 5.20's own drand48, used by `srand`/`rand` on every platform."""

    def __init__(self, seed: int) -> None:
        self.state = (((seed & 0xFFFFFFFF) << 16) + 0x330E) & _MASK

    def random(self) -> float:
        self.state = (_MULTIPLIER * self.state + _INCREMENT) & _MASK
        return self.state * _TWO_POW_MINUS_48  # exact: the state has 48 bits

    def rand(self, limit: float = 1.0) -> float:
        """Perl's `rand(limit)`."""
        return limit * self.random()


@lru_cache(maxsize=64)
def resample_indices(n_instances: int, n_resamples: int) -> tuple[tuple[int, ...], ...]:
    """Index lists of the script's resamples: seed k = 0..r-1, `int(rand(N))` drawn N times.

    They depend only on N and r, so they are shared by every metric and peer of a run.
    """
    draws = []
    for seed in range(n_resamples):
        rng = Drand48(seed)
        draws.append(tuple(int(rng.rand(n_instances)) for _ in range(n_instances)))
    return tuple(draws)


def summarize(values: Sequence[float], confidence: float) -> Interval:
    """Mean of the resample values (`value`) and the interval, as `computeAverages` computes
    them, each as printed."""
    ranked = sorted(values)
    r = len(ranked)
    total = 0.0
    for v in ranked:  # the script sums in ascending order
        total += v
    delta = r * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(r - delta - 1)  # int() truncates toward zero, like Perl's
    lower_a = int(delta)
    ratio = r - delta - 1 - upper_a

    def at(i: int) -> float:
        # Perl reads past the end as undef, i.e. 0.
        return ranked[i] if 0 <= i < r else 0.0

    low = at(lower_a) + (at(lower_a + 1) - at(lower_a)) * ratio
    high = at(upper_a) + (at(upper_a + 1) - at(upper_a)) * ratio
    return Interval(printed(total / r), printed(low), printed(high))


def resample_means(
    triples: Sequence[tuple[float, float, float]], n_resamples: int, pooled: bool, alpha: float
) -> tuple[list[float], list[float], list[float]]:
    """The r resample values of each field (R, P, F), as `bootstrapResampling` returns them.

    `triples` are in the script's order (string order of the evaluation ids). Unpooled
    (`-t 0`): triples are (R, P, F) and each resample averages them. Pooled (`-t 1`): triples
    are (model, peer, hit) counts and each resample scores the summed counts.
    """
    n = len(triples)
    out_r: list[float] = []
    out_p: list[float] = []
    out_f: list[float] = []
    if n == 0:
        return [0.0] * n_resamples, [0.0] * n_resamples, [0.0] * n_resamples
    a_vals = [t[0] for t in triples]
    b_vals = [t[1] for t in triples]
    c_vals = [t[2] for t in triples]
    for idx in resample_indices(n, n_resamples):
        sa = sb = sc = 0.0
        for i in idx:
            sa += a_vals[i]
            sb += b_vals[i]
            sc += c_vals[i]
        if not pooled:
            out_r.append(sa / n)
            out_p.append(sb / n)
            out_f.append(sc / n)
        else:
            rr = sc / sa if sa > 0 else 0
            pp = sc / sb if sb > 0 else 0
            out_r.append(rr)
            out_p.append(pp)
            out_f.append(f_measure(pp, rr, alpha))  # unrounded here
    return out_r, out_p, out_f
