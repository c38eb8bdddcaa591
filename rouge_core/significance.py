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
from typing import Callable, Sequence

Progress = Callable[[int, int], None]  # (resamples done, resamples in all)


@dataclass(frozen=True)
class TestResult:
    test: str
    observed: float  # mean(a) - mean(b)
    p_value: float
    resamples: int  # resamples actually used (2**n when the permutation test was exact)
    seed: int
    exact: bool = False
    low: float | None = None  # the paired bootstrap's percentile interval of the difference, when asked
    high: float | None = None
    confidence: float | None = None

    def as_dict(self) -> dict:
        out = {"test": self.test, "observed_difference": self.observed, "p_value": self.p_value,
               "resamples": self.resamples, "seed": self.seed, "exact": self.exact}
        if self.confidence is not None:
            out.update(low=self.low, high=self.high, confidence=self.confidence)
        return out


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


def _reporter(progress: Progress | None, resamples: int) -> Callable[[int], None]:
    """Calls `progress` about a hundred times over a run (and at its end)."""
    if progress is None:
        return lambda done: None
    step = max(1, resamples // 100)
    return lambda done: progress(done, resamples) if done % step == 0 or done == resamples else None


def paired_bootstrap(a: Sequence[float], b: Sequence[float], resamples: int = 1000, seed: int = 0, *,
                     confidence: float | None = None, progress: Progress | None = None) -> TestResult:
    """Two-sided paired bootstrap (Koehn 2004; null-centred as Berg-Kirkpatrick et al. 2012).

    Resample pairs with replacement; p = (1 + #{|d* - d| >= |d|}) / (1 + R), where d is
    the observed mean difference and d* a resample's. Identical systems give p = 1. With
    `confidence` (a percentage), the same resamples also give the percentile interval of the
    difference (`low`, `high`)."""
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    if confidence is not None and not 0 < confidence < 100:
        raise ValueError("confidence must be a percentage between 0 and 100")
    diffs, observed = _check(a, b)
    rng = random.Random(seed)
    n = len(diffs)
    extreme = 0
    report = _reporter(progress, resamples)
    samples = [] if confidence is not None else None
    for done in range(1, resamples + 1):
        sample = sum(diffs[rng.randrange(n)] for _ in range(n)) / n
        if abs(sample - observed) >= abs(observed) - _EPS:
            extreme += 1
        if samples is not None:
            samples.append(sample)
        report(done)
    p_value = (extreme + 1) / (resamples + 1)
    if samples is None:
        return TestResult("paired bootstrap", observed, p_value, resamples, seed)
    import numpy as np

    tail = (100 - confidence) / 2
    low, high = (float(v) for v in np.percentile(samples, [tail, 100 - tail]))
    return TestResult("paired bootstrap", observed, p_value, resamples, seed, low=low, high=high, confidence=confidence)


def approximate_randomization(a: Sequence[float], b: Sequence[float], resamples: int = 1000, seed: int = 0,
                              exact: bool | None = None, *, progress: Progress | None = None) -> TestResult:
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
    report = _reporter(progress, resamples)
    for done in range(1, resamples + 1):
        total = sum(d if rng.random() < 0.5 else -d for d in diffs)
        if abs(total / n) >= target:
            extreme += 1
        report(done)
    return TestResult("approximate randomization", observed, (extreme + 1) / (resamples + 1), resamples, seed)
