"""rouge_core.score keeps what it works out before the kernel call (scoring._texts_plan: the
options, methods, signatures and kernel plans) for the next call with the same arguments.
Whatever changes from one call to the next (the options, given as a profile name, an Options
object or keyword overrides; the methods, as names, a tuple, one name or Method objects; the
number of references; the cost bound; the path computing), each result is the one the
uncached path gives (evidence=True, which plans afresh), to the bit, signatures included."""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

import rouge_core
from rouge_core.families.methods import parse_method
from rouge_core.kernels import native
from rouge_core.scorer.cost import UNBOUNDED, CostLimit

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "é", "İ", "x1", "\n"]
texts = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)
NAMES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU*"]
option_changes = st.fixed_dictionaries({}, optional={
    "alpha": st.sampled_from([0.5, 0.0, 1.0, 0.25]),
    "multi_ref": st.sampled_from(["best-f", "best-recall", "pooled", "max", "mean"]),
    "round_pr": st.sampled_from([None, 5, 2]),
    "empty": st.sampled_from(["zero", "nan"]),
    "lowercase": st.booleans(),
    "tokenizer": st.sampled_from(["rouge-score", "rouge155"]),
})
calls = st.fixed_dictionaries({
    "cand": texts,
    "refs": st.lists(texts, min_size=1, max_size=3),
    "methods": st.lists(st.sampled_from(NAMES), min_size=1, max_size=3),
    "form": st.sampled_from(["list", "tuple", "one", "methods"]),
    "profile": st.sampled_from(["rouge-score", "rouge-1.5.5", "matlab", "reval"]),
    "changes": option_changes,
    "given_as": st.sampled_from(["name", "object", "overrides", "fresh object"]),
    "limit": st.sampled_from([None, UNBOUNDED, CostLimit(seconds=1.0, peak_bytes=None)]),
    "pure": st.booleans(),
})


def snapshot(result) -> dict:
    def same_nan(x):
        return "nan" if isinstance(x, float) and math.isnan(x) else x

    return {m.name: (tuple(map(same_nan, (m.precision, m.recall, m.fmeasure))), m.signature, m.chosen, m.reason,
                     tuple((r.index, r.stats, tuple(map(same_nan, (r.score.precision, r.score.recall,
                                                                   r.score.fmeasure))))
                           for r in m.per_reference))
            for m in result}


KEPT_OPTIONS: dict = {}  # one Options object per settings, reused across calls (the identity fast check)


def arguments(call):
    methods = call["methods"]
    if call["form"] == "tuple":
        methods = tuple(methods)
    elif call["form"] == "one":
        methods = methods[0]
    opts = rouge_core.profile(call["profile"], **call["changes"])
    if call["form"] == "methods":
        methods = [parse_method(m, opts) for m in methods]
    key = (call["profile"], tuple(sorted(call["changes"].items())))
    kept = KEPT_OPTIONS.setdefault(key, opts)
    given_as = call["given_as"]
    if given_as == "name" and not call["changes"]:
        return methods, call["profile"], {}
    if given_as == "overrides":
        return methods, call["profile"], dict(call["changes"])
    return methods, (kept if given_as == "object" else opts), {}


@settings(max_examples=300, deadline=None)
@given(st.lists(calls, min_size=1, max_size=6))
def test_each_call_scores_as_if_nothing_was_kept(sequence):
    for call in sequence:
        methods, options, overrides = arguments(call)

        def run(evidence):
            return snapshot(rouge_core.score(call["cand"], call["refs"], methods, options, evidence=evidence,
                                             cost_limit=call["limit"], **overrides))

        if call["pure"]:
            with native.pure():
                got, want = run(False), run(True)
        else:
            got, want = run(False), run(True)
        assert got == want


def test_a_changed_option_object_is_planned_again():
    cand, refs = "the cat sat", ["the cat sat on the mat"]  # P 1, R 0.5
    a = rouge_core.profile("rouge-score")
    b = rouge_core.profile("rouge-score", alpha=0.0)  # recall only
    first = rouge_core.score(cand, refs, ["rouge1"], a)["rouge1"]
    second = rouge_core.score(cand, refs, ["rouge1"], b)["rouge1"]
    assert (first.fmeasure, second.fmeasure) == (2 / 3, 0.5)
    assert "alpha:0|" in second.signature and "alpha:0.5|" in first.signature
    assert rouge_core.score(cand, refs, ["rouge1"], a)["rouge1"].fmeasure == 2 / 3
