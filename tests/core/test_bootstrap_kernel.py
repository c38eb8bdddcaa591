"""The corpus bootstrap's compiled kernel (kernels/resample.c, bootstrap_sums) against the NumPy
reference (rouge_core.corpora.corpus._numpy_sums, what the pure path runs): the same PCG64 draws
as numpy's Generator.integers, numpy's pairwise sums, the same means and nanmeans, compared by
their bytes, for any corpus size (around numpy's summation blocks of 8 and 128), resample
count, seed, thread count, NaN columns, stored or rebuilt scores and float counts."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rouge_core.corpora.corpus import CorpusResult, _native_sums, _numpy_sums, bootstrap_corpus
from rouge_core.corpora import corpus_stats
from rouge_core.corpora.corpus_stats import CorpusStatistics, PairNumbers, derive_scores
from rouge_core.kernels import native
from rouge_core.scorer.scoring import resolve_options

pytestmark = pytest.mark.skipif(native.KERNELS is None, reason="the compiled kernels are not built")

BOUNDARIES = [1, 2, 7, 8, 9, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025]


def synthetic_arrays(n: int, kinds: list[str], empty: str, seed: int):
    """Options, method names and per method the arrays CorpusStatistics.append_arrays takes: random
    counts, one method per kind: "counts" (whole counts, scores rebuilt from them), "scores"
    (stored scores, some NaN), "floats" (counts that are not whole numbers, as ROUGE-W's are)."""
    rng = np.random.default_rng(seed)
    options = resolve_options("rouge-score", {"empty": empty})
    names = tuple(f"rouge{i + 1}" for i in range(len(kinds)))
    arrays = {}
    for name, kind in zip(names, kinds):
        hits = rng.integers(0, 30, n).astype(np.float64)
        cand = hits + rng.integers(0, 30, n) * (rng.random(n) < 0.8)  # some zero totals: NaN under empty="nan"
        ref = hits + rng.integers(0, 30, n) * (rng.random(n) < 0.8)
        if kind == "floats":
            hits, cand, ref = hits * 0.7, cand * 1.3, ref * 1.1
        scores = derive_scores(hits, cand, ref, options)
        if kind == "scores":
            scores = tuple(rng.random(n) / 3 for _ in range(3))
            scores[1][rng.random(n) < 0.2] = np.nan
        arrays[name] = (scores, (hits, cand, ref), np.ones(n, bool), 1.0, True)
    return options, names, arrays


def synthetic_result(n: int, kinds: list[str], empty: str, seed: int) -> CorpusResult:
    options, names, arrays = synthetic_arrays(n, kinds, empty, seed)
    stats = CorpusStatistics(names, options)
    stats.append_arrays(n, arrays)
    stats.freeze()
    ids = tuple(str(i) for i in range(n))
    return CorpusResult(ids, ids, tuple(("",) for _ in ids), names, options, statistics=stats)


def per_resample(blocks) -> list[dict[str, list[float]]]:
    """Each resample's means (P, R, F) and count sums (hits, candidate, reference) per method."""
    rows = []
    for _start, count, means, sides in blocks:
        for r in range(count):
            rows.append({m: [means[m][k][r] for k in ("precision", "recall", "fmeasure")] + [s[r] for s in sides[m]]
                         for m in means})
    return rows


def assert_same_sums(result: CorpusResult, resamples: int, seed: int) -> None:
    n = len(result)
    reference = per_resample(_numpy_sums(result, n, resamples, seed))
    compiled = per_resample(_native_sums(result, n, resamples, seed))
    assert len(reference) == len(compiled) == resamples
    for r, (x, y) in enumerate(zip(reference, compiled)):
        assert x.keys() == y.keys()
        for m in x:  # by their bytes: -0.0 is not 0.0, NaN is NaN
            assert np.array(x[m]).tobytes() == np.array(y[m]).tobytes(), (r, m, x[m], y[m])


KINDS = st.lists(st.sampled_from(["counts", "scores", "floats"]), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.one_of(st.sampled_from(BOUNDARIES), st.integers(1, 3000)), resamples=st.integers(1, 6),
       seed=st.integers(0, 2**63), kinds=KINDS, empty=st.sampled_from(["zero", "nan"]),
       data_seed=st.integers(0, 1000))
def test_the_kernel_gives_numpys_sums_to_the_bit(n, resamples, seed, kinds, empty, data_seed):
    assert_same_sums(synthetic_result(n, kinds, empty, data_seed), resamples, seed)


@pytest.mark.parametrize("n", BOUNDARIES)
def test_every_summation_boundary(n):
    assert_same_sums(synthetic_result(n, ["counts", "scores", "floats"], "nan", n), 3, n)


@pytest.mark.parametrize("n, rows", [(1, 3), (3, 3), (1000, 2), (3_000_000, 1)])
def test_the_draws_are_numpys_integers(n, rows):
    """The kernel's draws are Generator.integers(0, n, size=(rows, n))'s: with the pair's index
    as its hits, a resample's hits sum is the sum of its indices. n = 1 draws nothing; an odd n
    carries PCG64's buffered half-word from one resample to the next; at 3,000,000 pairs
    Lemire's method rejects about 1 draw in 2,000 (2**32 mod n out of 2**32)."""
    hits = np.arange(n, dtype=np.float64)
    state = native.bootstrap_state(np.random.default_rng(7).bit_generator.state)
    sums, _ = native.bootstrap_sums(state, n, rows, [((hits, hits, hits), None, 0.5)], False, 2)
    idx = np.random.default_rng(7).integers(0, n, size=(rows, n))
    assert sums[:, 0, 3].tolist() == [float(row.sum()) for row in idx]  # whole numbers below 2**53: exact


def test_the_generator_state_continues_as_numpys():
    """Drawn in two calls from one state, the resamples are those of one call (the state the
    kernel leaves is the generator's after the same draws)."""
    n = 333
    result = synthetic_result(n, ["counts"], "zero", 1)
    column = result.statistics.columns["rouge1"]
    spec = [(column.sides, None, 0.5)]
    one = native.bootstrap_state(np.random.default_rng(5).bit_generator.state)
    whole, _ = native.bootstrap_sums(one, n, 5, spec, False, 1)
    two = native.bootstrap_state(np.random.default_rng(5).bit_generator.state)
    first, _ = native.bootstrap_sums(two, n, 2, spec, False, 1)
    rest, _ = native.bootstrap_sums(two, n, 3, spec, False, 1)
    assert np.concatenate([first, rest]).tobytes() == whole.tobytes()
    rng = np.random.default_rng(5)
    rng.integers(0, n, size=(5, n))
    assert one == native.bootstrap_state(rng.bit_generator.state)


@pytest.mark.parametrize("n", [100, 129, 5000])
def test_the_numbers_do_not_depend_on_the_threads(n):
    result = synthetic_result(n, ["counts", "scores"], "nan", 3)
    spec = [(c.sides, c.scores, 0.5) for c in result.statistics.columns.values()]
    runs = []
    for threads in (1, 2, 3):
        state = native.bootstrap_state(np.random.default_rng(11).bit_generator.state)
        sums, counts = native.bootstrap_sums(state, n, 4, spec, True, threads)
        runs.append((sums.tobytes(), counts.tobytes()))
    assert runs[0] == runs[1] == runs[2]


def test_bootstrap_corpus_is_the_same_on_both_paths():
    result = synthetic_result(700, ["counts", "scores", "floats"], "nan", 9)
    compiled = bootstrap_corpus(result, resamples=40, seed=123)
    with native.pure():
        reference = bootstrap_corpus(result, resamples=40, seed=123)
    assert compiled == reference
    assert compiled.macro["rouge1"]["fmeasure"].low < compiled.macro["rouge1"]["fmeasure"].high


@pytest.mark.parametrize("n", [1, 50, 1000])
def test_the_counts_are_kept_pair_by_pair(n, monkeypatch):
    """Every method's whole-number counts share one array, a pair's in one row (what makes the
    kernel's random reads one or two cache lines), holding the counts that were given (copied
    from the last block of pairs to the first, the columns cut short behind the copy)."""
    monkeypatch.setattr(corpus_stats, "GROWTH_STEP", 64)  # blocks of 64 pairs: 1,000 pairs are 16 of them
    kinds = ["counts", "floats", "counts"]
    _options, names, arrays = synthetic_arrays(n, kinds, "zero", 4)
    result = synthetic_result(n, kinds, "zero", 4)
    a, b, c = (result.statistics.columns[m] for m in names)
    assert a.sides[0].base is not None and a.sides[0].base is c.sides[2].base
    # counts below 2^8: uint8, a row of two methods' counts at most 6 bytes (fewer where a
    # count repeats another in every pair: with one pair, by chance)
    rows = result.statistics._rows
    distinct = len({tuple(side.tolist()) for name in (names[0], names[2]) for side in arrays[name][1]})
    assert rows.shape == (n, distinct) and a.sides[0].strides == (distinct,)
    assert a.sides[0].dtype == np.uint8 and b.sides[0].dtype == np.float64
    for name in names:
        for given, kept in zip(arrays[name][1], result.statistics.columns[name].sides):
            assert np.array_equal(given, kept)


def wide_result(n: int, methods: int, top: int, empty: str, seed: int) -> CorpusResult:
    """Whole counts up to `top` (one of them exactly `top`): the statistics keep them as uint16
    rows when every count fits in 16 bits, else as uint32 rows."""
    rng = np.random.default_rng(seed)
    options = resolve_options("rouge-score", {"empty": empty})
    names = tuple(f"rouge{i + 1}" for i in range(methods))
    arrays = {}
    for name in names:
        hits = rng.integers(0, top // 2 + 1, n).astype(np.float64)
        cand = hits + rng.integers(0, top // 2 + 1, n) * (rng.random(n) < 0.8)
        ref = hits + rng.integers(0, top // 2 + 1, n) * (rng.random(n) < 0.8)
        arrays[name] = [derive_scores(hits, cand, ref, options), (hits, cand, ref), np.ones(n, bool), 1.0, True]
    name, j, i = names[rng.integers(methods)], rng.integers(3), rng.integers(n)
    sides = list(arrays[name][1])
    sides[j] = sides[j].copy()
    sides[j][i] = top  # the largest count: the type of the rows turns on it
    arrays[name][1] = tuple(sides)
    arrays[name][0] = derive_scores(*sides, options)
    stats = CorpusStatistics(names, options)
    stats.append_arrays(n, {m: tuple(a) for m, a in arrays.items()})
    stats.freeze()
    ids = tuple(str(k) for k in range(n))
    return CorpusResult(ids, ids, tuple(("",) for _ in ids), names, options, statistics=stats)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.one_of(st.sampled_from(BOUNDARIES), st.integers(1, 2000)), methods=st.integers(1, 4),
       top=st.sampled_from([1, 2**8 - 1, 2**8, 2**16 - 1, 2**16, 2**20]), resamples=st.integers(1, 4), seed=st.integers(0, 2**63),
       empty=st.sampled_from(["zero", "nan"]), data_seed=st.integers(0, 1000))
def test_narrow_and_wide_rows_give_numpys_sums_to_the_bit(n, methods, top, resamples, seed, empty, data_seed):
    """Counts that fit in 8 bits are read from uint8 rows, in 16 bits from uint16 rows, the others (one count of 2^16 or
    more is enough) from uint32 rows: the same sums as the NumPy reference either way."""
    result = wide_result(n, methods, top, empty, data_seed)
    sides = [s for c in result.statistics.columns.values() for s in c.sides]
    assert {s.dtype for s in sides} == {np.dtype(np.uint8 if top < 2**8 else np.uint16 if top < 2**16 else np.uint32)}
    distinct = len({s.tobytes() for s in sides})  # a count equal to another in every pair is stored once
    assert sides[0].strides == (sides[0].itemsize * distinct,)
    assert max(int(s.max()) for s in sides) == top
    assert_same_sums(result, resamples, seed)


def test_wide_counts_bootstrap_the_same_on_both_paths():
    for top in (2**8 - 1, 2**8, 2**16 - 1, 2**16):
        result = wide_result(600, 3, top, "zero", 5)
        compiled = bootstrap_corpus(result, resamples=30, seed=8)
        with native.pure():
            assert compiled == bootstrap_corpus(result, resamples=30, seed=8)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 700), chunk=st.integers(1, 300), seed=st.integers(0, 2**16))
def test_a_count_equal_to_another_is_stored_once(n, chunk, seed):
    """Summaries' candidate and reference token counts are the same for rouge1, rougeL and
    rougeLsum: the rows keep such a column once (both methods view it), the counts read back as
    given, and the intervals are the NumPy reference path's (the kernel reads one slot twice)."""
    rng = np.random.default_rng(seed)
    options = resolve_options("rouge-score", {})
    tokens_c, tokens_r = rng.integers(0, 40, n).astype(np.float64), rng.integers(0, 40, n).astype(np.float64)
    given = {}
    for name, cand, ref in (("rouge1", tokens_c, tokens_r), ("rouge2", np.maximum(tokens_c - 1, 0),
                            np.maximum(tokens_r - 1, 0)), ("rougeL", tokens_c, tokens_r)):
        hits = np.floor(np.minimum(cand, ref) * rng.random(n))
        given[name] = (hits, cand.copy(), ref.copy())
    stats = CorpusStatistics(tuple(given), options)
    for lo in range(0, n, chunk):
        stats.append_arrays(min(chunk, n - lo), {
            m: (derive_scores(*(s[lo:lo + chunk] for s in sides), options), tuple(s[lo:lo + chunk] for s in sides),
                np.ones(min(chunk, n - lo), bool), 1.0, True) for m, sides in given.items()})
    stats.freeze()
    columns = stats.columns
    for m, sides in given.items():
        for kept, side in zip(columns[m].sides, sides):
            assert np.array_equal(kept, side)
    assert columns["rouge1"].sides[1].base is columns["rougeL"].sides[1].base is stats._rows
    assert columns["rouge1"].sides[1].ctypes.data == columns["rougeL"].sides[1].ctypes.data
    assert stats._rows.shape[1] <= 7 and stats.nbytes <= n * 2 * 7
    result = CorpusResult(PairNumbers(n), (), (), tuple(given), options, statistics=stats)
    compiled = bootstrap_corpus(result, resamples=30, seed=seed)
    with native.pure():
        assert compiled == bootstrap_corpus(result, resamples=30, seed=seed)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 700), alpha=st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0, 1)),
       empty=st.sampled_from(["zero", "nan"]), top=st.sampled_from([1, 3, 40]), seed=st.integers(0, 2**16))
def test_derived_scores_four_lanes_at_a_time_are_numpys(n, alpha, empty, top, seed):
    """The kernel derives P and R four pairs at a time (AVX2 where the processor has it; F from them) and
    sums them with four partial sums to a register: at any alpha, with zero totals (0 or NaN) and
    zero hits, and block ends at every remainder of 4 and 8, the same bits as NumPy's path."""
    rng = np.random.default_rng(seed)
    options = resolve_options("rouge-score", {"empty": empty, "alpha": alpha})
    hits = rng.integers(0, top + 1, n).astype(np.float64)
    cand = hits + rng.integers(0, top + 1, n) * (rng.random(n) < 0.7)
    ref = hits + rng.integers(0, top + 1, n) * (rng.random(n) < 0.7)
    stats = CorpusStatistics(("rouge1",), options)
    stats.append_arrays(n, {"rouge1": (derive_scores(hits, cand, ref, options), (hits, cand, ref), np.ones(n, bool),
                                       1.0, True)})
    stats.freeze()
    assert stats.columns["rouge1"].scores is None  # derived in the kernel
    assert_same_sums(CorpusResult(PairNumbers(n), (), (), ("rouge1",), options, statistics=stats), 3, seed)
