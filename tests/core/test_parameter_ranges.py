"""Issue 29, item 4: every parameter is range-checked once, so the compiled kernels and the
pure-Python path give the same number or the same error for every value of it, over the
whole integer range (and the whole float range where the parameter is a float).
"""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

import rouge_core
from rouge_core import Method
from rouge_core.kernels import native

CANDIDATE = "the cat sat on the mat\nit was happy"
REFERENCE = "the cat is on the mat\nthe cat was happy"

integers = st.one_of(st.integers(), st.integers(min_value=2**62 - 8, max_value=2**66), st.integers(-10, 2_000),
                     st.sampled_from([2**31 - 1, 2**31, 2**32, 2**63 - 5, 2**63 - 1, 2**63, 2**64, 10**400]))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(0.5, 6), integers,
                   st.sampled_from([1e309, -1e309, 1.0, 5.0, 5.000001]))
SETTINGS = settings(max_examples=120, deadline=None)


def outcome(run, describe=lambda value: value):
    """What a call gives: ("ok", describe(its value)) or (the error's type, its message); only
    the call's own errors count (describing the value must not fail)."""
    try:
        value = run()
    except (ValueError, TypeError, OverflowError) as exc:
        return type(exc).__name__, str(exc)
    return "ok", describe(value)


def on_both_paths(run, describe=None):
    describe = describe or scores
    compiled = outcome(run, describe)
    with native.pure():
        pure = outcome(run, describe)
    return compiled, pure


def scores(result) -> list:
    """Every method's P, R, F as text (NaN compares equal to NaN this way) and its counts."""
    return [(name, repr((m.score.precision, m.score.recall, m.score.fmeasure)),
             [repr((r.stats.hits, r.stats.cand_total, r.stats.ref_total)) for r in m.per_reference])
            for name, m in result.methods.items()]


def evidence_of(result) -> list:
    out = []
    for m in result:
        ev = m.per_reference[0].evidence
        rows = getattr(ev, "rows", None)
        out.append([r.gram for r in rows] if rows is not None else None)
    return out


@SETTINGS
@given(integers | st.none(), st.sampled_from(["S", "SU"]), st.sampled_from(["rouge-1.5.5", "matlab", "rouge-score"]),
       st.booleans())
def test_skip_distance(distance, family, profile, evidence):
    def run():
        return rouge_core.score(CANDIDATE, [REFERENCE], [Method(family, distance=distance)], profile, evidence=evidence)

    compiled, pure = on_both_paths(run, lambda r: (scores(r), evidence_of(r) if evidence else None))
    assert compiled == pure
    if distance is not None and distance >= 20 and compiled[0] == "ok":  # beyond the texts' length: unlimited
        unlimited = scores(rouge_core.score(CANDIDATE, [REFERENCE], [Method(family)], profile, evidence=False))
        assert [row[1:] for row in compiled[1][0]] == [row[1:] for row in unlimited]


@SETTINGS
@given(integers)
def test_skip_distance_by_name(distance):
    name = f"rougeS{distance}"
    compiled, pure = on_both_paths(lambda: rouge_core.score(CANDIDATE, [REFERENCE], [name], evidence=False))
    assert compiled == pure


@SETTINGS
@given(integers, st.booleans())
def test_ngram_n(n, evidence):
    compiled, pure = on_both_paths(lambda: rouge_core.score(CANDIDATE, [REFERENCE], [Method("N", n=n)], evidence=evidence))
    assert compiled == pure


@SETTINGS
@given(floats, st.sampled_from(["rouge-score", "rouge-1.5.5"]))
def test_wlcs_weight(weight, profile):
    compiled, pure = on_both_paths(
        lambda: rouge_core.score(CANDIDATE, [REFERENCE], [Method("W", weight=weight)], profile, evidence=False))
    assert compiled == pure


@SETTINGS
@given(integers | st.none())
def test_round_pr(digits):
    compiled, pure = on_both_paths(lambda: rouge_core.score(
        CANDIDATE, [REFERENCE], ["rouge1", "rougeL", "rougeW-1.2"], rouge_core.Options(round_pr=digits)))
    assert compiled == pure
    if compiled[0] != "ok":
        assert compiled[1].startswith("round_pr must be")


@SETTINGS
@given(integers | st.none(), st.sampled_from(["limit_words", "limit_bytes"]))
def test_length_limits(limit, field):
    compiled, pure = on_both_paths(lambda: rouge_core.score(
        CANDIDATE, [REFERENCE], ["rouge1", "rougeLsum", "rougeW-1.2"], "rouge-1.5.5", **{field: limit}))
    assert compiled == pure
    if compiled[0] != "ok":
        assert compiled[1].startswith(field)


@SETTINGS
@given(floats)
def test_alpha(alpha):
    compiled, pure = on_both_paths(lambda: rouge_core.score(CANDIDATE, [REFERENCE], ["rouge2", "rougeLsum"], alpha=alpha))
    assert compiled == pure
    if compiled[0] == "ok":
        assert 0 <= alpha <= 1 and not math.isnan(alpha)


def test_an_integer_weight_is_the_float_weight_on_both_paths():
    # w = 2 made the pure path's totals integers (81) where the kernels give floats (81.0)
    assert type(Method("W", weight=2).weight) is float and Method("W", weight=2) == Method("W", weight=2.0)
    for profile in ("rouge-score", "rouge-1.5.5"):
        compiled, pure = on_both_paths(
            lambda: rouge_core.score(CANDIDATE, [REFERENCE], [Method("W", weight=2)], profile, evidence=False))
        assert compiled == pure
