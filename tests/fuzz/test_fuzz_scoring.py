"""Property-based tests of `rouge_core.score`: every method family, profile and option.

Whatever the input, a call either returns scores or raises one of the documented errors
(TypeError for a wrong type, ValueError for a bad value, CostLimitError above the bound).
Scores lie in [0, 1] (NaN only under the empty="nan" rule), except the named reval quirk
(rougeLsum-best with best_sentence_clip=False: recall may exceed 1); F agrees with P and R;
the evidence agrees with the counts.
"""

from __future__ import annotations

import math

from hypothesis import given, strategies as st

import rouge_core
from rouge_core import CostLimitError, f_measure
from rouge_core.families.lcs import BestSentenceEvidence, SentenceLcsEvidence, UnionLcsEvidence
from rouge_core.families.ngram import NgramEvidence
from rouge_core.families.skipgram import SkipBigramEvidence
from rouge_core.families.wlcs import WlcsEvidence
from tests.fuzzing import FUZZ, fuzz

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "Cat", "running", "ran", "café", "İstanbul", "猫", "x1"]
SEPARATORS = [" ", " ", " ", "\n", ". ", ", ", "\t", "  \n ", "! "]


@st.composite
def texts(draw):
    """A string (words, punctuation, newlines, non-ASCII; sometimes a lone surrogate), or
    pre-tokenized input (flat or in sentences; sometimes with a bad item)."""
    kind = draw(st.sampled_from(["string"] * 6 + ["tokens", "sentences", "odd"]))
    words = draw(st.lists(st.sampled_from(WORDS), max_size=25))
    if kind == "string":
        seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
        text = "".join(w + s for w, s in zip(words, seps))
        if draw(st.integers(0, 30)) == 0:
            text += "\ud800"
        return text
    if kind == "tokens":
        return words
    if kind == "sentences":
        cut = draw(st.integers(0, len(words)))
        return [words[:cut], words[cut:]]
    return draw(st.sampled_from([[*words, None], [["a", ["b"]]], 42, None, [1, 2], b"bytes"]))


def method_names():
    n = st.integers(-1, 6).map(lambda k: f"rouge{k}")
    w = st.sampled_from(["1", "1.2", "2", "5", "0.5", "6", "1000"]).map(lambda v: f"rougeW-{v}")
    d = st.sampled_from(["0", "1", "4", "9", "*", "999999"])
    s = st.tuples(st.sampled_from(["rougeS", "rougeSU"]), d).map("".join)
    fixed = st.sampled_from(["rougeL", "rougeLsum", "rougeLsum-best", "ROUGE-SU4", "ROUGE-W-1.2", "rougeX"])
    return st.lists(st.one_of(n, w, s, fixed), min_size=1, max_size=5)


overrides = st.fixed_dictionaries({}, optional={
    "multi_ref": st.sampled_from(rouge_core.MULTI_REF_MODES),
    "alpha": st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5, math.nan]),
    "stemmer": st.sampled_from(["none", "porter", "rouge155", "snowball-english", "bogus"]),
    "stopwords": st.sampled_from(["none", "smart", frozenset({"the", "a"})]),
    "sentence_split": st.sampled_from(["newline", "punctuation", "none"]),
    "limit_words": st.sampled_from([None, 0, 3, 10, -1, 1.5]),
    "limit_bytes": st.sampled_from([None, 5, 30, -2]),
    "round_pr": st.sampled_from([None, 0, 3, 5, -1]),
    "empty": st.sampled_from(["zero", "nan"]),
    "best_sentence_clip": st.booleans(),
})


def _in_unit(x: float, allow_nan: bool) -> bool:
    return (allow_nan and math.isnan(x)) or 0.0 <= x <= 1.0


def _quirk(method: rouge_core.Method, options: rouge_core.Options) -> bool:
    """reval's unclipped best-sentence LCS: the one named quirk whose recall may exceed 1."""
    return method.family == "Lbest" and not options.best_sentence_clip


def check_f(score: rouge_core.Score, options: rouge_core.Options) -> None:
    p, r, f = score.precision, score.recall, score.fmeasure
    if math.isnan(p) or math.isnan(r):
        assert math.isnan(f)
        return
    if options.round_pr is None:
        assert f == f_measure(p, r, options.alpha)
    else:
        den = (1 - options.alpha) * p + options.alpha * r
        expected = float(f"{p * r / den:.{options.round_pr}f}") if den > 0 else 0.0
        assert f == expected


def check_evidence(ref: rouge_core.ReferenceScore, cand: rouge_core.Document, doc: rouge_core.Document,
                   method: rouge_core.Method) -> None:
    ev, stats = ref.evidence, ref.stats
    c_terms, r_terms = cand.terms, doc.terms
    if isinstance(ev, NgramEvidence):
        for m in ev.matches:
            assert m.matched == min(m.cand_count, m.ref_count) >= 1
            assert m.cand_count == len(m.cand_starts) and m.ref_count == len(m.ref_starts)
            assert all(tuple(c_terms[i:i + ev.n]) == m.ngram for i in m.cand_starts)
            assert all(tuple(r_terms[i:i + ev.n]) == m.ngram for i in m.ref_starts)
        assert sum(m.matched for m in ev.matches) == stats.hits
    elif isinstance(ev, SentenceLcsEvidence):
        assert len(ev.pairs) == stats.hits
        for (c1, r1), (c2, r2) in zip(ev.pairs, ev.pairs[1:]):
            assert c1 < c2 and r1 < r2
        assert all(c_terms[c] == r_terms[r] for c, r in ev.pairs)
    elif isinstance(ev, UnionLcsEvidence):
        assert sum(len(s.hits) for s in ev.sentences) == stats.hits
        for s in ev.sentences:
            assert set(s.hits) <= set(s.union)
            for _, pairs in s.alignments:
                assert all(c_terms[c] == r_terms[r] for c, r in pairs)
                assert [c for c, _ in pairs] == sorted({c for c, _ in pairs})
    elif isinstance(ev, WlcsEvidence):
        assert math.isclose(ev.weighted_hits, stats.hits, rel_tol=1e-12, abs_tol=1e-12)
        for run in ev.runs:
            assert all(c_terms[c] == r_terms[r] for c, r in zip(run.cand_positions, run.ref_positions))
            assert list(run.ref_positions) == list(range(run.ref_positions[0], run.ref_positions[0] + len(run.ref_positions)))
    elif isinstance(ev, SkipBigramEvidence):
        assert sum(row.matched for row in ev.rows) == stats.hits
        assert all(row.matched == min(row.cand_count, row.ref_count) for row in ev.rows)
        assert ev.cand_total == stats.cand_total and ev.ref_total == stats.ref_total
    elif isinstance(ev, BestSentenceEvidence):
        assert ev.hits == stats.hits <= sum(length for _, _, length in ev.choices)


@fuzz
@FUZZ
@given(texts(), st.lists(texts(), max_size=3), method_names(), st.sampled_from(rouge_core.PROFILES), overrides,
       st.booleans())
def test_score_gives_valid_numbers_or_a_documented_error(candidate, references, methods, profile_name, changes, evidence):
    try:
        result = rouge_core.score(candidate, references, methods, profile_name, evidence=evidence, **changes)
    except CostLimitError:
        raise AssertionError("inputs this small are far below the cost bound")
    except (TypeError, ValueError) as exc:
        assert str(exc)  # a message, never an empty error
        return
    options = result.options
    allow_nan = options.empty == "nan"
    for m in result:
        quirk = _quirk(m.method, options)
        assert m.signature.startswith(m.name + "|")
        assert _in_unit(m.precision, allow_nan)
        assert _in_unit(m.recall, allow_nan) or (quirk and m.recall > 1)
        assert _in_unit(m.fmeasure, allow_nan) or (quirk and m.fmeasure > 0)
        for ref, doc in zip(m.per_reference, result.references):
            check_f(ref.score, options)
            assert _in_unit(ref.score.precision, allow_nan)
            assert _in_unit(ref.score.recall, allow_nan) or quirk
            if evidence:
                check_evidence(ref, result.candidate, doc, m.method)


@fuzz
@FUZZ
@given(st.lists(st.sampled_from(WORDS[:6]), max_size=30), st.lists(st.sampled_from(WORDS[:6]), max_size=30),
       st.sampled_from([1.0, 1.01, 1.2, 2.0, 3.7, 5.0]), st.sampled_from(["rouge-score", "rouge-1.5.5"]))
def test_rouge_w_stays_within_one_for_every_weight_in_range(cand, ref, w, profile_name):
    m = rouge_core.score(" ".join(cand), [" ".join(ref)], [f"rougeW-{w}"], profile_name)[f"rougeW-{w}"]
    assert 0.0 <= m.precision <= 1.0 and 0.0 <= m.recall <= 1.0 and 0.0 <= m.fmeasure <= 1.0
    if cand and cand == ref:
        assert m.precision == 1.0 and (profile_name == "rouge-1.5.5" or m.recall == 1.0)


@fuzz
@FUZZ
@given(st.lists(st.lists(st.sampled_from("abc"), max_size=6), min_size=1, max_size=5),
       st.lists(st.lists(st.sampled_from("abc"), max_size=6), min_size=1, max_size=5))
def test_best_sentence_lcs_clipped_is_at_most_the_unclipped_sum(cand, ref):
    clipped = rouge_core.score(cand, [ref], ["rougeLsum-best"], "rouge-score", tokenizer="whitespace")["rougeLsum-best"]
    reval = rouge_core.score(cand, [ref], ["rougeLsum-best"], "reval", evidence=True)["rougeLsum-best"]
    assert clipped.stats.hits <= reval.stats.hits
    assert clipped.stats.hits <= min(clipped.stats.cand_total, clipped.stats.ref_total)
    chosen = [best for _, best, length in reval.per_reference[0].evidence.choices if length]
    if len(chosen) == len(set(chosen)):  # no reference sentence reused: nothing to clip
        assert clipped.stats.hits == reval.stats.hits
