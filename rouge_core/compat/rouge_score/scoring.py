"""`rouge_score.scoring` on rouge_core: Score, AggregateScore, BaseScorer, BootstrapAggregator, fmeasure.

The records have rouge-score's names, fields and field order, so they unpack, index and
compare equal to rouge-score's own. `BootstrapAggregator` resamples as rouge-score does:
for each of `n_samples` resamples, `choice(arange(N), size=N)` row indices drawn one
resample after another, the resample's column means, then `numpy.percentile` of those means
at (1 - c)/2, 1/2 and 1 - (1 - c)/2. Without a seed it draws from NumPy's global generator,
exactly as rouge-score (so `numpy.random.seed(s)` followed by either aggregator gives the same
intervals); with `seed=s` it draws from its own `numpy.random.RandomState(s)`, started anew
on every `aggregate()` call: the same numbers as rouge-score after `numpy.random.seed(s)`,
without touching the global generator, and the same result however often it is called.
"""

from __future__ import annotations

import abc
from collections import namedtuple
from typing import Mapping

from ...errors import excerpt
from ... import optional

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]


class Score(namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F-measure of one prediction against its target(s)."""

    __slots__ = ()


class AggregateScore(namedtuple("AggregateScore", ["low", "mid", "high"])):
    """A bootstrap interval of Scores: low and high percentiles and the median (`mid`)."""

    __slots__ = ()


class BaseScorer(abc.ABC):
    """What scorers offer: `score(target, prediction) -> {score type: Score}`."""

    @abc.abstractmethod
    def score(self, target, prediction) -> dict[str, Score]:
        """Scores of `prediction` against `target`, by score type."""


def fmeasure(precision: float, recall: float) -> float:
    """The harmonic mean of precision and recall (0 when both are 0)."""
    total = precision + recall
    return 2 * precision * recall / total if total > 0 else 0.0


class BootstrapAggregator:
    """Confidence intervals of the mean of added scores, by bootstrap resampling.

        aggregator = BootstrapAggregator(seed=0)
        for target, prediction in pairs:
            aggregator.add_scores(scorer.score(target, prediction))
        aggregator.aggregate()["rougeL"].mid.fmeasure
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000, seed: int | None = None):
        if not 0 <= confidence_interval <= 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32):
            raise ValueError(f"seed must be an integer from 0 to 2**32 - 1 or None, not {excerpt(seed)}")
        self._confidence_interval = confidence_interval
        self._n_samples = n_samples
        self._seed = seed
        self._scores: dict[str, list] = {}

    def add_scores(self, scores: Mapping[str, tuple]) -> None:
        """Add one sample: {score type: Score (or any tuple of numbers of one length per type)}."""
        for score_type, score in scores.items():
            self._scores.setdefault(score_type, []).append(score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """{score type: AggregateScore(low, mid, high)}, each a record of the added scores' class."""
        np = optional.require("numpy", "BootstrapAggregator.aggregate()")
        draw = np.random if self._seed is None else np.random.RandomState(self._seed)
        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))  # (sample, measure)
            percentiles = self._bootstrap_resample(np, draw, matrix)  # (low/mid/high, measure)
            record = scores[0].__class__
            low, mid, high = (record(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _bootstrap_resample(self, np, draw, matrix):
        rows = matrix.shape[0]
        population = np.arange(rows)
        means = np.zeros((self._n_samples, matrix.shape[1]))
        for i in range(self._n_samples):
            means[i, :] = np.mean(matrix[draw.choice(population, size=rows), :], axis=0)
        tail = (1 - self._confidence_interval) / 2
        return np.percentile(means, 100 * np.array([tail, 0.5, 1 - tail]), axis=0)
