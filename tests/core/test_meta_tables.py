"""Issue 29, item 5: the meta-evaluation at study size reads its score maps as arrays
(`meta.score_tables`) and correlates many metrics at once (`meta.correlate_many`); both give
exactly the numbers of the map-by-map functions (which the meta tests check against scipy)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from rouge_core.studies import meta

SYSTEMS = [f"S{i}" for i in range(14)] + [3, "10"]
DOCUMENTS = [f"d{i}" for i in range(30)] + [5]
values = st.one_of(st.integers(1, 5).map(float), st.floats(0, 1), st.sampled_from([math.nan, math.inf, 2, np.float64(3)]))
cells = st.one_of(
    st.dictionaries(st.tuples(st.sampled_from(SYSTEMS), st.sampled_from(DOCUMENTS)), values, max_size=60),
    # nearly full tables, where numpy sums blocks of more than eight values (so the layout shows)
    st.builds(lambda seed, gaps: {(s, d): float((seed * 7919 + i * 31) % 97) / 7 for i, (s, d) in enumerate(
        (s, d) for s in SYSTEMS for d in DOCUMENTS) if (i * seed) % 23 not in gaps},
              st.integers(1, 1000), st.sets(st.integers(0, 22), max_size=3)))


def same(a, b) -> bool:
    return repr(a) == repr(b)  # NaN equals NaN this way, and every field is compared


def outcome(run):
    """A call's value, or its error (the same error on both sides counts as the same outcome)."""
    try:
        return run()
    except (ValueError, IndexError) as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=150, deadline=None)
@given(cells, cells, cells)
def test_tables_give_the_matrices_of_the_maps(x, y, z):
    tables = meta.score_tables(x, y, z)
    for maps, tabled in (((x, z), (tables[0], tables[2])), ((x, y, z), tables), ((z,), (tables[2],))):
        a, b = meta._matrices(*maps), meta._matrices(*tabled)
        assert a.systems == b.systems and a.documents == b.documents
        assert all(np.array_equal(p, q, equal_nan=True) for p, q in zip(a.arrays, b.arrays))
        # the same layout too: numpy's sums (and so the last bits of every coefficient) depend on it
        assert all(p.flags["C_CONTIGUOUS"] and p.strides == q.strides for p, q in zip(a.arrays, b.arrays))
    assert dict(tables[0]) == x and len(tables[1]) == len(y)


@settings(max_examples=60, deadline=None)
@given(cells, cells, cells, st.sampled_from(meta.COEFFICIENTS), st.sampled_from(meta.LEVELS),
       st.sampled_from(meta.RESAMPLE))
def test_the_functions_give_the_same_numbers_on_tables(x, y, z, coefficient, level, resample):
    method, variant = coefficient
    tx, ty, tz = meta.score_tables(x, y, z)
    for metric, human, tmetric, thuman in ((x, z, tx, tz), (y, z, ty, tz)):
        assert same(meta.correlate(metric, human, level, method, variant, bootstrap=30, seed=2, resample=resample),
                    meta.correlate(tmetric, thuman, level, method, variant, bootstrap=30, seed=2, resample=resample))
        assert same(meta.coverage(metric, human, level, method, variant),
                    meta.coverage(tmetric, thuman, level, method, variant))
    assert same(outcome(lambda: meta.rank_metrics({"x": x, "y": y}, z, level, method, variant, resamples=25, seed=1,
                                                  resample=resample)),
                outcome(lambda: meta.rank_metrics({"x": tx, "y": ty}, tz, level, method, variant, resamples=25, seed=1,
                                                  resample=resample)))


@settings(max_examples=60, deadline=None)
@given(st.lists(cells, min_size=1, max_size=4), cells, st.sampled_from(meta.COEFFICIENTS), st.sampled_from(meta.LEVELS),
       st.sampled_from(meta.RESAMPLE), st.sampled_from([0, 40]))
def test_correlate_many_is_correlate_of_each(metrics, human, coefficient, level, resample, bootstrap):
    method, variant = coefficient
    named = {f"m{i}": m for i, m in enumerate(metrics)}
    # metrics with the same cells share their resamples: repeat one to have such a group
    named["again"] = metrics[0]
    many = meta.correlate_many(named, human, level, method, variant, bootstrap=bootstrap, seed=3, resample=resample)
    for name, scores in named.items():
        assert same(many[name], meta.correlate(scores, human, level, method, variant, bootstrap=bootstrap, seed=3,
                                               resample=resample))


def kendall_by_ordered_pairs(x, z, variant):
    """The ordered-pairs reference (every pair counted twice, halved), as the module had it."""
    present = ~(np.isnan(x) | np.isnan(z))
    k, n = x.shape
    count = present.sum(axis=1).astype(float)
    x0, z0 = np.where(present, x, 0.0), np.where(present, z, 0.0)
    positions = np.arange(n)
    both = present[:, :, None] & present[:, None, :]
    with np.errstate(invalid="ignore"):
        dx = np.sign(x0[:, :, None] - x0[:, None, :])
        dz = np.sign(z0[:, :, None] - z0[:, None, :])
    s = np.where(both, dx * dz, 0.0).sum(axis=(1, 2)) / 2
    off = both & (positions[:, None] != positions[None, :])
    x_equal, z_equal = off & (dx == 0), off & (dz == 0)
    earlier = positions[None, :] < positions[:, None]
    xd = (present & ~(x_equal & earlier).any(axis=2)).sum(axis=1)
    zd = (present & ~(z_equal & earlier).any(axis=2)).sum(axis=1)
    xt, zt = x_equal.sum(axis=(1, 2)) / 2, z_equal.sum(axis=(1, 2)) / 2
    total = count * (count - 1) / 2
    defined = (count >= 2) & (xt < total) & (zt < total)
    out = np.full(k, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            tau = s / np.sqrt(total - xt) / np.sqrt(total - zt)
        else:
            classes = np.minimum(xd, zd)
            tau = 2 * s / (count ** 2 * (classes - 1) / classes)
    out[defined] = np.minimum(1.0, np.maximum(-1.0, tau[defined]))
    return out


rows = st.lists(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.0, 2.5, math.nan, math.inf, -math.inf, 3.0]),
                         min_size=6, max_size=6), min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(rows, rows, st.sampled_from(["b", "c"]))
def test_kendall_over_unordered_pairs_equals_the_ordered_pairs(xs, zs, variant):
    k = min(len(xs), len(zs))
    x, z = np.array(xs[:k]), np.array(zs[:k])
    got = meta._kendall_rows(x, z, variant)
    want = kendall_by_ordered_pairs(x, z, variant)
    assert np.array_equal(got, want, equal_nan=True)
