"""The paired tests in bulk (NumPy draws, compiled sums) give today's numbers bit for bit.

tests/data/significance holds the results the resample-by-resample loops gave before the bulk
path existed (recorded by tests/data/significance/record_golden.py from that code), one file
per way Python's sum() adds floats: one rounding per addition up to CPython 3.11, Neumaier's
compensated sum from 3.12. Hypothesis compares the bulk path with the loops (the pure path)."""

from __future__ import annotations

import importlib.util
import json
import math
import pathlib
import sys

import pytest
from hypothesis import given, settings, strategies as st

from rouge_core.kernels import native
from rouge_core.corpora.significance import approximate_randomization, paired_bootstrap

pytestmark = pytest.mark.skipif(not native.active(), reason="the bulk path needs the compiled kernels")

DATA = pathlib.Path(__file__).parent.parent / "data" / "significance"
GOLDEN = DATA / ("paired_tests_compensated_sum.json" if sys.version_info >= (3, 12) else "paired_tests_plain_sum.json")


def _recorder():
    spec = importlib.util.spec_from_file_location("record_golden", DATA / "record_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _decode(o):
    if isinstance(o, dict):
        return float.fromhex(o["float"]) if set(o) == {"float"} else {k: _decode(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_decode(v) for v in o]
    return o


def _same(got: dict, want: dict) -> bool:
    """Equal field by field, floats bit for bit (NaN equal to NaN)."""
    if got.keys() != want.keys():
        return False
    for key, value in want.items():
        other = got[key]
        if isinstance(value, float) and isinstance(other, float):
            if not (value == other or (math.isnan(value) and math.isnan(other))) or \
                    math.copysign(1, value) != math.copysign(1, other):
                return False
        elif value != other:
            return False
    return True


def test_the_bulk_path_gives_the_recorded_numbers_of_the_loops():
    recorded = _decode(json.loads(GOLDEN.read_text()))
    series = _recorder().series
    checked = 0
    for case in recorded["cases"]:
        a, b = series(*case["series"])
        for call in case["calls"]:
            if call["test"] == "bootstrap":
                got = paired_bootstrap(a, b, case["resamples"], case["seed"], confidence=call["confidence"],
                                       effect=call["effect"])
            else:
                got = approximate_randomization(a, b, case["resamples"], case["seed"], call["exact"])
            assert _same(got.as_dict(), call["result"]), (case["series"], case["resamples"], call)
            checked += 1
    assert checked > 1000


def _both_paths(run):
    bulk = run()
    with native.pure():
        loop = run()
    return bulk, loop


scores = st.one_of(st.floats(0, 1, allow_nan=False), st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 1.0]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(scores, scores), min_size=1, max_size=40), st.integers(1, 300), st.integers(0, 2**40),
       st.sampled_from([None, 50, 95]), st.booleans())
def test_the_bulk_bootstrap_is_the_loop(pairs, resamples, seed, confidence, effect):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    effect = effect and confidence is not None
    progress = ([], [])

    def run(calls):
        return lambda: paired_bootstrap(a, b, resamples, seed, confidence=confidence, effect=effect,
                                        progress=lambda d, t: calls.append((d, t)))

    bulk = run(progress[0])()
    with native.pure():
        loop = run(progress[1])()
    assert _same(bulk.as_dict(), loop.as_dict())
    assert progress[0] == progress[1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(scores, scores), min_size=1, max_size=40), st.integers(1, 300), st.integers(0, 2**40),
       st.sampled_from([None, False]))
def test_the_bulk_permutation_test_is_the_loop(pairs, resamples, seed, exact):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    progress = ([], [])

    def run(calls):
        return lambda: approximate_randomization(a, b, resamples, seed, exact, progress=lambda d, t: calls.append((d, t)))

    bulk = run(progress[0])()
    with native.pure():
        loop = run(progress[1])()
    assert _same(bulk.as_dict(), loop.as_dict())
    assert progress[0] == progress[1]


def test_many_blocks_and_rejected_draws_keep_the_loops_order(monkeypatch):
    """Blocks of a few resamples (so draws made ahead carry over) and a pair count just above a
    power of two (so nearly half the words are drawn again)."""
    import rouge_core.corpora.significance as significance

    monkeypatch.setattr(significance, "_BLOCK", 70)
    a = [((i * 37) % 101) / 101 for i in range(33)]
    b = [((i * 53) % 89) / 89 for i in range(33)]
    bulk, loop = _both_paths(lambda: paired_bootstrap(a, b, 97, 11, confidence=90, effect=True))
    assert _same(bulk.as_dict(), loop.as_dict())
    bulk, loop = _both_paths(lambda: approximate_randomization(a, b, 97, 11))
    assert _same(bulk.as_dict(), loop.as_dict())
    c, d = a[:9], b[:9]
    bulk, loop = _both_paths(lambda: approximate_randomization(c, d, 2**9, 0))
    assert bulk.exact and _same(bulk.as_dict(), loop.as_dict())


def test_the_compiled_path_draws_in_bulk_not_one_by_one(monkeypatch):
    """The tests' resamples are not drawn by random.Random one value at a time (the loops
    are the pure path's)."""
    import random

    def refused(*args):
        raise AssertionError("drawn one by one")

    monkeypatch.setattr(random.Random, "randrange", refused)
    monkeypatch.setattr(random.Random, "random", refused)
    a = [i / 50 for i in range(50)]
    b = [(i % 7) / 7 for i in range(50)]
    assert 0 < paired_bootstrap(a, b, 200, 3, confidence=95, effect=True).p_value <= 1
    assert 0 < approximate_randomization(a, b, 200, 3).p_value <= 1


def test_the_kernels_refuse_bad_buffers():
    with pytest.raises(TypeError, match="bytearray"):
        native.random_draws(bytes(2500), 0, 5, 3)
    with pytest.raises(ValueError, match="out of range"):
        native.resample_sums(bytes(16), 2, 2, 1, (7).to_bytes(4, "little") * 2, None, None, False)
    with pytest.raises(ValueError, match="holds"):
        native.resample_sums(bytes(15), 2, 2, 1, None, None, None, False)


def test_reading_the_recorders_series_writes_no_file(tmp_path, monkeypatch):
    # the recorder runs (and writes sys.argv[1]) only as a script: under `pytest -q` it wrote a file "-q"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["pytest", "-q"])
    assert _recorder().series(3, 1, "ties") == _recorder().series(3, 1, "ties")
    assert list(tmp_path.iterdir()) == []
