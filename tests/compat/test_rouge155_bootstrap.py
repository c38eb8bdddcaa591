"""drand48 as Perl's srand/rand, the resample means and the interval interpolation."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from rouge_core.compat.rouge155.bootstrap import Drand48, resample_indices, resample_means, summarize


def test_srand0_first_values_match_perl():
    # perl -e 'srand(0); printf "%.17g\n", rand() for 1..3' (Perl 5.36)
    rng = Drand48(0)
    assert repr(rng.random()) == "0.17082803610628972"
    # perl -e 'srand(1); printf "%.17g\n", rand(10) for 1..3'
    rng = Drand48(1)
    assert [repr(rng.rand(10)) for _ in range(3)] == [
        "0.41630344771878214", "4.5449244472862915", "8.348172181669149"]


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl not installed")
@pytest.mark.parametrize("seed", [0, 1, 7, 999])
def test_drand48_agrees_with_local_perl(seed):
    out = subprocess.run(["perl", "-e", f'srand({seed}); printf "%.17g\\n", rand(59) for 1..5'],
                         capture_output=True, text=True, check=True).stdout.split()
    rng = Drand48(seed)
    assert [float(x) for x in out] == [rng.rand(59) for _ in range(5)]


def test_resample_indices_are_int_of_rand_n():
    rng = Drand48(3)
    assert resample_indices(7, 4)[3] == tuple(int(rng.rand(7)) for _ in range(7))


def test_interval_interpolation_hand_computed():
    # r = 10, c = 95: delta = 0.25, lower index 0, upper index int(8.75) = 8, ratio 0.75.
    values = [float(v) for v in range(10)]  # already sorted: 0..9
    s = summarize(values[::-1], 95)
    assert s.value == 4.5
    assert s.low == pytest.approx(0 + (1 - 0) * 0.75)
    assert s.high == pytest.approx(8 + (9 - 8) * 0.75)


def test_interval_reads_past_the_end_as_zero():
    # r = 1: indices 0 and 1; Perl's undef element 1 counts as 0, ratio = -0.025.
    s = summarize([0.5], 95)
    assert s.value == 0.5
    assert s.low == round(0.5 + (0 - 0.5) * -0.025, 5)
    assert s.high == s.low


def test_resample_means_unpooled_and_pooled():
    r, p, f = resample_means([(0.5, 0.25, 1.0)], 3, pooled=False, alpha=0.5)
    assert r == [0.5] * 3 and p == [0.25] * 3 and f == [1.0] * 3
    r, p, f = resample_means([(4, 2, 1)], 2, pooled=True, alpha=0.5)  # model, peer, hit
    assert r == [0.25] * 2 and p == [0.5] * 2
    assert f[0] == pytest.approx(0.25 * 0.5 / (0.5 * 0.5 + 0.5 * 0.25))
    assert resample_means([], 2, pooled=False, alpha=0.5) == ([0.0] * 2, [0.0] * 2, [0.0] * 2)
