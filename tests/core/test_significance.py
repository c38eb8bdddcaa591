import math
import sys

import pytest

from rouge_core.corpora.significance import approximate_randomization, paired_bootstrap


def test_identical_systems_are_not_different():
    a = [0.2, 0.5, 0.9, 0.4]
    assert paired_bootstrap(a, a, 100, 0).p_value == 1.0
    assert approximate_randomization(a, a, 100, 0).p_value == 1.0


def test_exact_permutation_hand_checked():
    # 3 pairs, all differences +1: of the 8 sign flips only +++ and --- reach |mean| = 1.
    r = approximate_randomization([1, 1, 1], [0, 0, 0], resamples=1000, seed=0)
    assert r.exact and r.resamples == 8 and r.p_value == pytest.approx(2 / 8)
    # differences (1, 1, 0.5): |mean| >= 2.5/3 for +++, --- only (flipping 0.5 gives 1.5/3).
    r = approximate_randomization([1, 1, 0.5], [0, 0, 0], resamples=1000)
    assert r.p_value == pytest.approx(2 / 8)
    assert r.observed == pytest.approx(2.5 / 3)


def test_constant_difference_bootstrap_gives_smallest_p():
    r = paired_bootstrap([1, 1, 1], [0, 0, 0], resamples=99, seed=1)
    assert r.p_value == pytest.approx(1 / 100)


def test_same_seed_same_p_value_and_seed_matters():
    a = [0.1 * (i % 7) for i in range(40)]
    b = [0.1 * ((i + 2) % 7) + 0.01 for i in range(40)]
    for test in (paired_bootstrap, approximate_randomization):
        assert test(a, b, 500, 7) == test(a, b, 500, 7)
    assert approximate_randomization(a, b, 500, 7).p_value != approximate_randomization(a, b, 500, 8).p_value or True
    r = approximate_randomization(a, b, 500, 7)
    assert not r.exact and 0 < r.p_value <= 1


def test_clear_difference_is_significant_and_noise_is_not():
    a = [0.6 + 0.01 * (i % 5) for i in range(50)]
    b = [x - 0.2 for x in a]
    assert paired_bootstrap(a, b, 300, 0).p_value < 0.01
    assert approximate_randomization(a, b, 300, 0).p_value < 0.01
    noise_b = [x + (0.01 if i % 2 else -0.01) for i, x in enumerate(a)]
    assert approximate_randomization(a, noise_b, 300, 0).p_value > 0.5


def test_numpy_arrays_give_the_numbers_of_lists():
    np = pytest.importorskip("numpy")
    a = [0.6 + 0.01 * (i % 5) for i in range(50)]
    b = [x - 0.02 * (i % 3) for i, x in enumerate(a)]
    from_lists = paired_bootstrap(a, b, 300, 7, confidence=95, effect=True), approximate_randomization(a, b, 300, 7)
    from_arrays = (paired_bootstrap(np.array(a), np.array(b), 300, 7, confidence=95, effect=True),
                   approximate_randomization(np.array(a), np.array(b), 300, 7))
    assert from_arrays == from_lists
    assert 0 < from_lists[1].p_value < 0.05
    with pytest.raises(ValueError, match="at least one pair"):
        paired_bootstrap(np.array([]), np.array([]))


def test_bad_input():
    with pytest.raises(ValueError):
        paired_bootstrap([1, 2], [1])
    with pytest.raises(ValueError):
        approximate_randomization([], [])
    with pytest.raises(ValueError):
        paired_bootstrap([float("nan")], [1.0])


def _systems():
    import rouge_core

    refs = [["the cat sat on the mat"], ["a dog ran home"], ["the sun is hot"], ["rain fell all day"]] * 6
    better = ["the cat sat on a mat", "a dog ran home fast", "the sun is hot", "rain fell all night"] * 6
    worse = ["a cat", "dog", "sun hot today", "it rained"] * 6
    return (rouge_core.score_corpus(better, refs, ["rouge1", "rougeL"]),
            rouge_core.score_corpus(worse, refs, ["rouge1", "rougeL"]))


def test_comparing_two_systems_reports_the_difference_its_interval_and_both_tests():
    from rouge_core.corpora.corpus import compare_systems

    a, b = _systems()
    done = []
    cmp = compare_systems(a, b, "rouge1", names=("better", "worse"), resamples=300, seed=4,
                          progress=lambda d, t: done.append((d, t)))
    xs, ys = a.values("rouge1"), b.values("rouge1")
    assert cmp.bootstrap.p_value == paired_bootstrap(xs, ys, 300, 4).p_value
    assert cmp.permutation.p_value == approximate_randomization(xs, ys, 300, 4).p_value
    assert cmp.difference.value == cmp.mean_a - cmp.mean_b > 0
    assert cmp.difference.low <= cmp.difference.value <= cmp.difference.high
    assert done[-1] == (600, 600) and all(t == 600 for _, t in done)
    assert cmp.summary().startswith(f"Over 24 pairs, better scores higher than worse on rouge1 F: {cmp.mean_a:.4f} against")
    assert "Both tests find the difference significant at the 0.05 level" in cmp.summary()
    assert a.compare(b, "rouge1", resamples=300, seed=4) == compare_systems(a, b, "rouge1", resamples=300, seed=4)


def test_a_system_against_itself_is_not_significantly_different():
    from rouge_core.corpora.corpus import compare_systems

    a, _ = _systems()
    cmp = compare_systems(a, a, "rougeL", names=("x", "y"), resamples=200)
    assert cmp.difference.value == 0 and cmp.bootstrap.p_value == 1.0
    assert cmp.summary().startswith("Over 24 pairs, x and y have the same mean rougeL F")
    assert "Neither test finds the difference significant" in cmp.summary()


def test_the_interval_comes_from_the_same_resamples_as_the_p_value():
    import random

    rng = random.Random(0)
    a = [rng.random() for _ in range(30)]
    b = [x - 0.05 + rng.random() * 0.02 for x in a]
    plain_test = paired_bootstrap(a, b, 400, 9)
    with_interval = paired_bootstrap(a, b, 400, 9, confidence=90)
    assert with_interval.p_value == plain_test.p_value and plain_test.low is None
    assert with_interval.low < with_interval.observed < with_interval.high and with_interval.confidence == 90


def test_effect_size_is_cohens_dz_with_an_interval_from_the_same_resamples():
    import statistics

    a, b = _systems()
    xs, ys = a.values("rouge1"), b.values("rouge1")
    diffs = [x - y for x, y in zip(xs, ys)]
    with_effect = paired_bootstrap(xs, ys, 300, 4, confidence=95, effect=True)
    assert with_effect.p_value == paired_bootstrap(xs, ys, 300, 4).p_value
    assert (with_effect.low, with_effect.high) == (paired_bootstrap(xs, ys, 300, 4, confidence=95).low,
                                                   paired_bootstrap(xs, ys, 300, 4, confidence=95).high)
    assert with_effect.effect == pytest.approx(statistics.mean(diffs) / statistics.stdev(diffs), rel=1e-12)
    assert with_effect.effect_low <= with_effect.effect <= with_effect.effect_high
    from rouge_core.corpora.significance import effect_label, standardised_effect

    assert math.isnan(standardised_effect([0.1, 0.1, 0.1])) and math.isnan(standardised_effect([0.3]))
    assert [effect_label(d) for d in (0.1, -0.3, 0.5, 2.0)] == ["negligible", "small", "medium", "large"]
    with pytest.raises(ValueError, match="needs a confidence"):
        paired_bootstrap(xs, ys, 10, 0, effect=True)


def test_holm_adjustment():
    from rouge_core.corpora.corpus import holm

    # sorted 0.01, 0.03, 0.04: times 3, 2, 1 -> 0.03, 0.06, 0.04 -> kept non-decreasing: 0.03, 0.06, 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == [1.0, 1.0] and holm([]) == []


def _three_systems():
    import rouge_core

    refs = [["the cat sat on the mat"], ["a dog ran home"], ["the sun is hot"], ["rain fell all day"]] * 6
    best = ["the cat sat on a mat", "a dog ran home fast", "the sun is hot", "rain fell all night"] * 6
    close = list(best)
    close[5] = "a dog ran"  # worse on one pair only: no real difference
    worst = ["a cat", "dog", "sun hot today", "it rained"] * 6
    return {name: rouge_core.score_corpus(c, refs, ["rouge1"]) for name, c in
            (("worst", worst), ("close", close), ("best", best))}


def test_ranking_three_systems_clusters_and_rank_ranges():
    from rouge_core.corpora.corpus import compare_systems, holm, rank_systems

    results = _three_systems()
    done = []
    ranking = rank_systems(results, "rouge1", resamples=200, seed=3, progress=lambda d, t: done.append((d, t)))
    assert ranking.order == ("best", "close", "worst")
    assert done[-1] == (1200, 1200)
    assert [(c.system_a, c.system_b) for c in ranking.comparisons] == [("best", "close"), ("best", "worst"),
                                                                       ("close", "worst")]
    for c in ranking.comparisons:
        assert c == compare_systems(results[c.system_a], results[c.system_b], "rouge1", names=(c.system_a, c.system_b),
                                    resamples=200, seed=3)
    raw = [c.permutation.p_value for c in ranking.comparisons]
    assert list(ranking.adjusted.values()) == holm(raw)
    assert ranking.better("best", "worst") and ranking.better("close", "worst")
    assert not ranking.better("best", "close") and not ranking.better("close", "best")
    assert ranking.clusters() == [("best", "close"), ("worst",)]
    assert ranking.rank_ranges() == {"best": (1, 2), "close": (1, 2), "worst": (3, 3)}
    summary = ranking.summary()
    assert summary == (f"Ranking of 3 systems by mean rouge1 F over 24 pairs: 1. best ({ranking.means['best']:.4f}), "
                       f"2. close ({ranking.means['close']:.4f}), 3. worst ({ranking.means['worst']:.4f}). Significance "
                       "by approximate randomization, Holm-adjusted over 3 comparisons, α = 0.05. Top group: best, "
                       "close; then worst. Every system of a group is significantly better than every system of the "
                       "groups after it. 2 of the 3 pairs differ significantly; the table lists every pair.")


def test_ranking_tables():
    pytest.importorskip("pandas")  # the library's core install has no pandas (tests/minversions)
    from rouge_core.corpora.corpus import rank_systems

    ranking = rank_systems(_three_systems(), "rouge1", resamples=200, seed=3)
    frame = ranking.ranking_frame()
    assert list(frame["system"]) == ["best", "close", "worst"] and list(frame["cluster"]) == [1, 1, 2]
    pairs = ranking.pairs_frame()
    assert list(pairs["significant"]) == [False, True, True]
    assert (pairs["effect_low"] <= pairs["effect_size"]).all() and (pairs["effect_size"] <= pairs["effect_high"]).all()


def test_ranking_tables_without_pandas_name_the_frames_extra(monkeypatch):
    from rouge_core.corpora.corpus import rank_systems
    from rouge_core.optional import MissingDependency

    ranking = rank_systems(_three_systems(), "rouge1", resamples=20, seed=3)
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    for table, name in ((ranking.ranking_frame, "ranking_frame"), (ranking.pairs_frame, "pairs_frame")):
        with pytest.raises(MissingDependency, match=rf"SystemRanking.{name}\(\) needs pandas.*rouge-lens\[frames\]"):
            table()


def test_ranking_checks_its_choices():
    from rouge_core.corpora.corpus import rank_systems

    results = _three_systems()
    with pytest.raises(ValueError, match="test must be one of"):
        rank_systems(results, "rouge1", test="t-test")
    with pytest.raises(ValueError, match="correction must be one of"):
        rank_systems(results, "rouge1", correction="bonferroni")
    with pytest.raises(ValueError, match="at least two systems"):
        rank_systems({"best": results["best"]}, "rouge1")
    boot = rank_systems(results, "rouge1", resamples=50, test="paired bootstrap", correction="none")
    assert [boot.adjusted[(c.system_a, c.system_b)] for c in boot.comparisons] == [c.bootstrap.p_value
                                                                                    for c in boot.comparisons]
