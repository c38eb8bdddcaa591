"""Paired significance tests for two systems scored on the same pairs.

Both tests work on per-pair scores (e.g. F of one method) and the statistic is the
difference of means, mean(a) - mean(b). Both are seeded with `random.Random(seed)`, so the
same inputs and seed always give the same p-value.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class TestResult:
    test: str
    observed: float  # mean(a) - mean(b)
    p_value: float
    resamples: int  # resamples actually used (2**n when the permutation test was exact)
    seed: int
    exact: bool = False

    def as_dict(self) -> dict:
        return {"test": self.test, "observed_difference": self.observed, "p_value": self.p_value,
                "resamples": self.resamples, "seed": self.seed, "exact": self.exact}


def _check(a: Sequence[float], b: Sequence[float]) -> tuple[list[float], float]:
    if len(a) != len(b):
        raise ValueError(f"paired tests need the same pairs: {len(a)} scores against {len(b)}")
    if not a:
        raise ValueError("paired tests need at least one pair")
    diffs = [float(x) - float(y) for x, y in zip(a, b)]
    if any(math.isnan(d) for d in diffs):
        raise ValueError("a score is NaN; drop undefined pairs before testing")
    return diffs, sum(diffs) / len(diffs)


# Tolerance for "at least as extreme": float sums of the same values in another order differ
# in the last bits, and an exact tie must count.
_EPS = 1e-12


def paired_bootstrap(a: Sequence[float], b: Sequence[float], resamples: int = 1000, seed: int = 0) -> TestResult:
    """Two-sided paired bootstrap (Koehn 2004; null-centred as Berg-Kirkpatrick et al. 2012).

    Resample pairs with replacement; p = (1 + #{|d* - d| >= |d|}) / (1 + R), where d is
    the observed mean difference and d* a resample's. Identical systems give p = 1."""
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    diffs, observed = _check(a, b)
    rng = random.Random(seed)
    n = len(diffs)
    extreme = 0
    for _ in range(resamples):
        sample = sum(diffs[rng.randrange(n)] for _ in range(n)) / n
        if abs(sample - observed) >= abs(observed) - _EPS:
            extreme += 1
    return TestResult("paired bootstrap", observed, (extreme + 1) / (resamples + 1), resamples, seed)


def approximate_randomization(a: Sequence[float], b: Sequence[float], resamples: int = 1000, seed: int = 0,
                              exact: bool | None = None) -> TestResult:
    """Two-sided paired permutation test: swap each pair's two scores with probability 1/2.

    When 2**n <= resamples (or exact=True) every one of the 2**n swaps is enumerated and p
    is exact: #{|d_swap| >= |d|} / 2**n. Otherwise p = (1 + #extreme) / (1 + R) (Noreen 1989)."""
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    diffs, observed = _check(a, b)
    n = len(diffs)
    target = abs(observed) - _EPS
    if exact is None:
        exact = n <= 20 and 2**n <= resamples
    if exact:
        extreme = 0
        for signs in itertools.product((1.0, -1.0), repeat=n):
            if abs(sum(s * d for s, d in zip(signs, diffs)) / n) >= target:
                extreme += 1
        return TestResult("approximate randomization", observed, extreme / 2**n, 2**n, seed, exact=True)
    rng = random.Random(seed)
    extreme = 0
    for _ in range(resamples):
        total = sum(d if rng.random() < 0.5 else -d for d in diffs)
        if abs(total / n) >= target:
            extreme += 1
    return TestResult("approximate randomization", observed, (extreme + 1) / (resamples + 1), resamples, seed)
