"""The meta-evaluation's correlations with bootstrap resamples: their memory as
rouge_core.studies.meta holds it (issue 29 item 3; the calibration's resampling memory was
2.5-3.15x over its estimate for Spearman's and Pearson's resampled systems)."""

import random

import pytest

from rouge_core import UNBOUNDED
from rouge_core.scorer import cost
from rouge_core.studies import meta
from tests.memory import traced_peak


def _scores(systems: int = 16, documents: int = 100):
    rng = random.Random(7)
    human = {(f"S{s}", f"D{d}"): float(rng.randint(1, 5)) for s in range(systems) for d in range(documents)}
    metric = {key: rng.random() + value / 10 for key, value in human.items()}
    return metric, human


@pytest.mark.parametrize("resample,drawn", [("documents", 100), ("systems", 16), ("both", 116)])
def test_the_draws_counted_are_the_indices_drawn(resample, drawn):
    # meta._draws draws systems, documents or both per resample (systems alone were counted with the documents)
    terms = cost.correlation_terms(16, 100, 1, 1000, "pearson", "system", resample)
    assert terms.kept["meta.draw"] == terms.time["meta.draw"] == 1000 * drawn


def test_spearman_ranks_and_kendall_compares_pairs():
    # Spearman ranks each row's items (no pair of items is formed); Kendall compares every pair,
    # at the system level over every resample's system means at once (meta._resampled_means, _rows)
    spearman = cost.correlation_terms(16, 100, 1, 2000, "spearman", "summary", "systems")
    assert "meta.pairblock" not in spearman.work and spearman.work["meta.rankblock"] > 0
    kendall = cost.correlation_terms(16, 100, 1, 2000, "kendall", "system", "documents")
    assert kendall.work["meta.pairblock"] == 2000 * 16 * 16


@pytest.mark.parametrize("method,level,resample,resamples", [("spearman", "summary", "systems", 4000),
                                                             ("kendall", "system", "documents", 2000),
                                                             ("pearson", "summary", "documents", 2000)])
def test_the_correlations_memory_is_estimated_within_twice_its_peak(method, level, resample, resamples):
    # Spearman's resampled systems were estimated at 2.6x their peak (every pair of items priced)
    metric, human = _scores()
    run = lambda: meta.correlate(metric, human, level, method, bootstrap=resamples, seed=1,  # noqa: E731
                                 resample=resample, cost_limit=UNBOUNDED)
    run()
    peak = traced_peak(run)
    estimate = cost.correlation_estimate(16, 100, 1, resamples, method, level, resample)
    assert peak / 2 <= estimate.peak_bytes <= 2 * peak, (estimate.peak_bytes, peak)
