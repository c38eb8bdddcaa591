"""The compiled bigram count (kernels/grams.c bigram_hits): its table is kept between calls
(stamped per call, never cleared), sized from the candidate, and the clipped hits are counted
while probing. Against the pure path on texts of few words (many repeated bigrams, clipped on
either side) and of every length in turn in one thread (a table made for a long candidate
serves short ones, and grows for a longer one), with one reference or several."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import rouge_core
from rouge_core.kernels import native

WORDS = ["a", "b", "c", "d", "e"]


def text(words: list[str]) -> str:
    return " ".join(words)


few_words = st.lists(st.sampled_from(WORDS), max_size=300).map(text)


def statistics(cand, refs, methods):
    result = rouge_core.score(cand, refs, methods, "rouge-score", evidence=False)
    return {m.name: [(r.stats.hits, r.stats.cand_total, r.stats.ref_total, r.score) for r in m.per_reference]
            for m in result}


def assert_same_as_pure(cand, refs, methods=("rouge2", "rouge3", "rouge1")):
    assert rouge_core.accelerated
    got = statistics(cand, refs, list(methods))
    with native.pure():
        assert got == statistics(cand, refs, list(methods))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(few_words, st.lists(few_words, min_size=1, max_size=3)), min_size=1, max_size=5))
def test_bigram_hits_match_the_pure_path_call_after_call(calls):
    for cand, refs in calls:
        assert_same_as_pure(cand, refs)


def test_bigram_hits_clip_on_both_sides():
    # candidate: "a b" 3 times, "b a" twice; reference: "a b" 5 times, "b a" 4 times: 3 + 2 hits
    cand, ref = "a b a b a b", "a b x a b b a b a b a b a"
    result = rouge_core.score(cand, [ref], ["rouge2"], "rouge-score")["rouge2"]
    assert (result.stats.hits, result.stats.cand_total, result.stats.ref_total) == (5, 5, 12)
    # the other way round: the reference's counts clip (1 "a b", no "b a")
    result = rouge_core.score(cand, ["a b"], ["rouge2"], "rouge-score")["rouge2"]
    assert (result.stats.hits, result.stats.cand_total, result.stats.ref_total) == (1, 5, 1)
    assert_same_as_pure(cand, [ref, "a b"])


def test_a_long_candidate_then_short_ones_then_a_longer_one():
    long = text(WORDS[i % 5] if i % 7 else f"w{i}" for i in range(5000))
    longer = long + " " + long
    for cand, ref in [(long, long[::-1]), ("a b", "a b"), ("", "a b"), ("a b c", "c a b"), (longer, long),
                      ("b a b", "a b a b")]:
        assert_same_as_pure(cand, [ref])
