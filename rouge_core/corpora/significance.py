"""Paired significance tests for two systems scored on the same pairs.

Both tests work on per-pair scores (e.g. F of one method) and the statistic is the
difference of means, mean(a) - mean(b). Both are seeded with `random.Random(seed)`, so the
same inputs and seed always give the same p-value.

The loops below are the reference. On the compiled path the same numbers come in bulk:
`random.Random(seed)`'s stream of 32-bit words is drawn from NumPy's MT19937 set to the same
state (so the draws are the loops' draws, in order), and each resample's sum is added by the
kernels exactly as Python's sum() adds it (rouge_core/kernels/resample.c), bit for bit.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

from ..kernels import native

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
    effect: float | None = None  # the paired bootstrap's standardised effect d_z and its interval, when asked
    effect_low: float | None = None
    effect_high: float | None = None

    def as_dict(self) -> dict:
        out = {"test": self.test, "observed_difference": self.observed, "p_value": self.p_value,
               "resamples": self.resamples, "seed": self.seed, "exact": self.exact}
        if self.confidence is not None:
            out.update(low=self.low, high=self.high, confidence=self.confidence)
        if self.effect is not None:
            out.update(effect_size=self.effect, effect_low=self.effect_low, effect_high=self.effect_high)
        return out


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (in the order given): the i-th smallest of m is
    multiplied by m − i + 1, then made non-decreasing and capped at 1."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def standardised_effect(diffs: Sequence[float]) -> float:
    """Cohen's d_z of paired differences: their mean over their standard deviation (n − 1);
    NaN when it is undefined (fewer than two pairs, or every difference the same)."""
    n = len(diffs)
    if n < 2 or min(diffs) == max(diffs):
        return math.nan
    mean = math.fsum(diffs) / n
    spread = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean / spread if spread > 0 else math.nan


def effect_label(d: float) -> str:
    """Cohen's conventional words for |d|: negligible (< 0.2), small, medium (>= 0.5), large (>= 0.8)."""
    size = abs(d)
    if math.isnan(size):
        return "undefined"
    return "negligible" if size < 0.2 else "small" if size < 0.5 else "medium" if size < 0.8 else "large"


def _check(a: Sequence[float], b: Sequence[float]) -> tuple[list[float], float]:
    if len(a) != len(b):
        raise ValueError(f"paired tests need the same pairs: {len(a)} scores against {len(b)}")
    if len(a) == 0:  # not `not a`: NumPy arrays and pandas Series are welcome too
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
                     confidence: float | None = None, effect: bool = False,
                     progress: Progress | None = None) -> TestResult:
    """Two-sided paired bootstrap (Koehn 2004; null-centred as Berg-Kirkpatrick et al. 2012).

    Resample pairs with replacement; p = (1 + #{|d* - d| >= |d|}) / (1 + R), where d is
    the observed mean difference and d* a resample's. Identical systems give p = 1. With
    `confidence` (a percentage), the same resamples also give the percentile interval of the
    difference (`low`, `high`), and with `effect` that of the standardised effect d_z
    (`standardised_effect`; resamples where it is undefined are left out). The p-value does
    not depend on either."""
    if resamples < 1:
        raise ValueError("resamples must be at least 1")
    if confidence is not None and not 0 < confidence < 100:
        raise ValueError("confidence must be a percentage between 0 and 100")
    if effect and confidence is None:
        raise ValueError("the effect size's interval needs a confidence")
    diffs, observed = _check(a, b)
    report = _reporter(progress, resamples)
    n = len(diffs)
    if _in_bulk(n):
        extreme, samples, effects = _bootstrap_in_bulk(diffs, observed, resamples, seed, confidence is not None,
                                                       effect, report)
    else:
        extreme, samples, effects = _bootstrap_loop(diffs, observed, resamples, seed, confidence is not None,
                                                    effect, report)
    p_value = (extreme + 1) / (resamples + 1)
    if samples is None:
        return TestResult("paired bootstrap", observed, p_value, resamples, seed)
    import numpy as np

    tail = (100 - confidence) / 2
    low, high = (float(v) for v in np.percentile(samples, [tail, 100 - tail]))
    effect_interval: dict = {}
    if effects is not None:
        defined = [e for e in effects if not math.isnan(e)]
        bounds = np.percentile(defined, [tail, 100 - tail]) if defined else (math.nan, math.nan)
        effect_interval = dict(effect=standardised_effect(diffs), effect_low=float(bounds[0]),
                               effect_high=float(bounds[1]))
    return TestResult("paired bootstrap", observed, p_value, resamples, seed, low=low, high=high, confidence=confidence,
                      **effect_interval)


def _bootstrap_loop(diffs: list[float], observed: float, resamples: int, seed, keep_samples: bool, effect: bool,
                    report: Callable[[int], None]) -> tuple[int, list | None, list | None]:
    """The paired bootstrap's resamples one by one (the reference): how many are at least as
    extreme as the observed difference, and (when asked) each resample's mean difference and d_z."""
    rng = random.Random(seed)
    n = len(diffs)
    extreme = 0
    samples = [] if keep_samples else None
    effects = [] if effect else None
    for done in range(1, resamples + 1):
        drawn = [diffs[rng.randrange(n)] for _ in range(n)]
        sample = sum(drawn) / n
        if abs(sample - observed) >= abs(observed) - _EPS:
            extreme += 1
        if samples is not None:
            samples.append(sample)
        if effects is not None:  # d_z of the resample; a spread within rounding of 0 leaves it undefined
            spread = math.sqrt(sum((d - sample) ** 2 for d in drawn) / (n - 1)) if n > 1 else 0.0
            effects.append(sample / spread if spread > 1e-12 * abs(sample) and spread > 0 else math.nan)
        report(done)
    return extreme, samples, effects


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
    bulk = _in_bulk(n)
    if exact:
        extreme = _exact_in_bulk(diffs, target) if bulk else _exact_loop(diffs, target)
        return TestResult("approximate randomization", observed, extreme / 2**n, 2**n, seed, exact=True)
    report = _reporter(progress, resamples)
    run = _permutation_in_bulk if bulk else _permutation_loop
    extreme = run(diffs, target, resamples, seed, report)
    return TestResult("approximate randomization", observed, (extreme + 1) / (resamples + 1), resamples, seed)


def _exact_loop(diffs: list[float], target: float) -> int:
    """Of the 2**n sign flips (itertools.product's order), how many reach `target` (the reference)."""
    n = len(diffs)
    extreme = 0
    for signs in itertools.product((1.0, -1.0), repeat=n):
        if abs(sum(s * d for s, d in zip(signs, diffs)) / n) >= target:
            extreme += 1
    return extreme


def _permutation_loop(diffs: list[float], target: float, resamples: int, seed, report: Callable[[int], None]) -> int:
    """Approximate randomization's resamples one by one (the reference): how many reach `target`."""
    rng = random.Random(seed)
    n = len(diffs)
    extreme = 0
    for done in range(1, resamples + 1):
        total = sum(d if rng.random() < 0.5 else -d for d in diffs)
        if abs(total / n) >= target:
            extreme += 1
        report(done)
    return extreme


# --- the same resamples in bulk (the compiled path) ---------------------------------------------

_BLOCK = 1 << 20  # terms per block of resamples: a block's positions take 4 MiB
_COMPENSATED = sys.version_info >= (3, 12)  # how this Python's sum() adds floats (kernels/resample.h)


def _in_bulk(n: int) -> bool:
    """Whether the resamples of n pairs are drawn and summed in bulk: on the compiled path, for
    up to 2**31 - 1 pairs (int32 positions; random.Random draws them from one 32-bit word)."""
    return native.active() and n < 2**31


class _PythonRandomDraws:
    """The draws `random.Random(seed)` makes, in order, made in bulk by the kernels' copy of its
    generator (MT19937, from the state random.Random(seed) starts from)."""

    def __init__(self, seed):
        from array import array

        words = array("I", random.Random(seed).getstate()[1])  # 624 words and the position
        assert words.itemsize == 4
        self._state = bytearray(words.tobytes())

    def below(self, n: int, count: int) -> bytes:
        """The next `count` values of randrange(n), as int32."""
        return native.random_draws(self._state, 0, n, count)

    def halves(self, count: int):
        """The next `count` values of `random() >= 0.5`, as uint8 0 or 1."""
        import numpy as np

        return np.frombuffer(native.random_draws(self._state, 1, 0, count), dtype=np.uint8)


def _sums(values: bytes, n: int, rows: int, index: bytes | None = None, negate=None, centres=None):
    """Per row, the float Python's sum() gives of its n terms (native.resample_sums)."""
    import numpy as np

    sums = native.resample_sums(values, len(values) // 8, n, rows, index, None if negate is None else negate.tobytes(),
                                None if centres is None else centres.tobytes(), _COMPENSATED)
    return np.frombuffer(sums, dtype=np.float64)


def _report_range(report: Callable[[int], None], start: int, end: int) -> None:
    for done in range(start + 1, end + 1):
        report(done)


def _bootstrap_in_bulk(diffs: list[float], observed: float, resamples: int, seed, keep_samples: bool, effect: bool,
                       report: Callable[[int], None]) -> tuple[int, list | None, list | None]:
    """`_bootstrap_loop`'s numbers, a block of resamples at a time."""
    import numpy as np

    n = len(diffs)
    values = np.array(diffs, dtype=np.float64).tobytes()
    draws = _PythonRandomDraws(seed)
    threshold = abs(observed) - _EPS
    extreme = 0
    samples = np.empty(resamples) if keep_samples or effect else None
    effects = np.empty(resamples) if effect else None
    rows = max(1, _BLOCK // n)
    for start in range(0, resamples, rows):
        count = min(rows, resamples - start)
        index = draws.below(n, count * n)
        sample = _sums(values, n, count, index) / n
        extreme += int(np.count_nonzero(np.abs(sample - observed) >= threshold))
        if samples is not None:
            samples[start:start + count] = sample
        if effects is not None:  # d_z of each resample; a spread within rounding of 0 leaves it undefined
            if n > 1:
                spread = np.sqrt(_sums(values, n, count, index, centres=sample) / (n - 1))
            else:
                spread = np.zeros(count)
            with np.errstate(divide="ignore", invalid="ignore"):
                defined = (spread > 1e-12 * np.abs(sample)) & (spread > 0)
                effects[start:start + count] = np.where(defined, sample / np.where(defined, spread, 1.0), math.nan)
        _report_range(report, start, start + count)
    return (extreme, None if not keep_samples else samples.tolist(),
            None if effects is None else effects.tolist())


def _permutation_in_bulk(diffs: list[float], target: float, resamples: int, seed,
                         report: Callable[[int], None]) -> int:
    """`_permutation_loop`'s count, a block of resamples at a time."""
    import numpy as np

    n = len(diffs)
    values = np.array(diffs, dtype=np.float64).tobytes()
    draws = _PythonRandomDraws(seed)
    extreme = 0
    rows = max(1, _BLOCK // n)
    for start in range(0, resamples, rows):
        count = min(rows, resamples - start)
        negate = draws.halves(n * count)
        totals = _sums(values, n, count, negate=negate)
        extreme += int(np.count_nonzero(np.abs(totals / n) >= target))
        _report_range(report, start, start + count)
    return extreme


def _exact_in_bulk(diffs: list[float], target: float) -> int:
    """`_exact_loop`'s count: row k of itertools.product((1.0, -1.0), repeat=n) negates pair i
    when bit n - 1 - i of k is set."""
    import numpy as np

    n = len(diffs)
    values = np.array(diffs, dtype=np.float64).tobytes()
    shifts = np.arange(n - 1, -1, -1, dtype=np.int64)
    extreme = 0
    rows = max(1, _BLOCK // n)
    for start in range(0, 2**n, rows):
        k = np.arange(start, min(start + rows, 2**n), dtype=np.int64)
        negate = ((k[:, None] >> shifts) & 1).astype(np.uint8)
        totals = _sums(values, n, len(k), negate=negate)
        extreme += int(np.count_nonzero(np.abs(totals / n) >= target))
    return extreme
