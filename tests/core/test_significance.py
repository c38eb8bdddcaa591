import pytest

from rouge_core.significance import approximate_randomization, paired_bootstrap


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
    from rouge_core.corpus import compare_systems

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
    from rouge_core.corpus import compare_systems

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
