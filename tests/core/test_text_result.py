"""`rouge_core.score(..., evidence=False)` on texts the compiled kernels take returns a Result
whose Documents are made when first read (scoring._TextResult, issue 34: a loop over pairs
that reads only the scores costs little more than the kernels). Whatever was scored in
between, a result's Documents are those of its own texts and options; it equals, prints,
copies, pickles and `dataclasses.replace`s as the Result the ordinary path makes."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given, settings, strategies as st

import rouge_core
from rouge_core.kernels import native
from rouge_core.scorer import scoring
from rouge_core.scorer.scoring import Result, prepare

native_only = pytest.mark.skipif(not native.active(), reason=f"compiled kernels not in use: {native.describe()}")

CAND, REFS = "The cat sat.\nOn the mat", ["a cat\n\nsat on it", "the mat"]


def pure_result(cand, refs, methods, options) -> Result:
    with native.pure():
        return rouge_core.score(cand, refs, methods, options, evidence=False)


def plain(doc) -> tuple:
    return (doc.text, doc.tokens, doc.sentence_bounds, doc.sentence_spans,
            doc.lcs_view, doc.term_tuple)


@native_only
def test_the_documents_are_made_only_when_read(monkeypatch):
    made = []
    real = native.documents_of_texts

    def spy(*args):
        made.append(args[1:])
        return real(*args)

    monkeypatch.setattr(native, "documents_of_texts", spy)
    result = rouge_core.score(CAND, REFS, ["rouge1", "rougeL"], "rouge-score")
    assert result["rouge1"].fmeasure == pure_result(CAND, REFS, ["rouge1", "rougeL"], "rouge-score")["rouge1"].fmeasure
    assert made == []  # the scores read, no Document made
    assert result.candidate.text == CAND
    assert made == [(CAND, tuple(REFS))]
    assert [d.text for d in result.references] == REFS and result.candidate is result.candidate
    assert len(made) == 1  # made once, both sides
    assert [type(d).__name__ for d in (result.candidate, *result.references)] == [
        "_NativeDocument", "_ProbedDocument", "_ProbedDocument"]


@pytest.mark.parametrize("profile", ["rouge-score", "rouge-1.5.5"])
@pytest.mark.parametrize("stemmer", ["none", "porter"])
def test_a_text_result_is_the_ordinary_result(profile, stemmer):
    options = rouge_core.profile(profile, stemmer=stemmer)
    methods = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    result = rouge_core.score(CAND, REFS, methods, options)
    expected = pure_result(CAND, REFS, methods, options)
    assert isinstance(result, Result) and dataclasses.is_dataclass(result)
    assert result == expected and expected == result and not result != expected
    assert [plain(d) for d in (result.candidate, *result.references)] == [
        plain(d) for d in (expected.candidate, *expected.references)]
    plain_result = Result(result.candidate, result.references, result.options, result.methods)
    assert repr(result) == repr(plain_result) and repr(result).startswith("Result(candidate=")
    for clone in (pickle.loads(pickle.dumps(result)), copy.copy(result), copy.deepcopy(result)):
        assert type(clone) is Result and clone == result == clone
    changed = dataclasses.replace(result, options=options.replace(alpha=0.0))
    assert changed.options.alpha == 0.0 and changed.candidate == expected.candidate and changed != result
    assert dataclasses.replace(result) == result
    assert dataclasses.asdict(result)["methods"].keys() == set(methods)
    other = rouge_core.score(CAND, ["another reference"], methods, options)
    assert other != result and result != other
    with pytest.raises(TypeError):
        hash(result)  # unhashable, as a Result


@native_only
def test_reading_the_documents_after_the_path_changed():
    result = rouge_core.score(CAND, REFS, ["rougeL"], "rouge-score")
    with native.pure():  # the extension that scored the texts makes their Documents
        assert result.candidate.term_tuple == ("the", "cat", "sat", "on", "the", "mat")
        assert result.references[1].sentence_bounds == ((0, 2),)


WORDS = ["the", "Cat", "sat", "on", "mat", "a", "dog", "é", "İ", "K", "x1", "\n", "running", "cats"]
texts = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
calls = st.fixed_dictionaries({
    "cand": texts,
    "refs": st.lists(texts, min_size=1, max_size=3),
    "methods": st.lists(st.sampled_from(["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4"]),
                        min_size=1, max_size=2),
    "profile": st.sampled_from(["rouge-score", "rouge-1.5.5"]),
    "changes": st.fixed_dictionaries({}, optional={
        "lowercase": st.booleans(), "stemmer": st.sampled_from(["none", "porter"]),
        "tokenizer": st.sampled_from(["rouge-score", "rouge155"]), "alpha": st.sampled_from([0.5, 0.0]),
        "multi_ref": st.sampled_from(["best-f", "best-recall", "pooled", "max", "mean"])}),
})


@settings(max_examples=60, deadline=None)
@given(st.lists(calls, min_size=1, max_size=5))
def test_documents_read_later_are_those_of_their_own_call(sequence):
    """Results kept while other calls (other texts, options, methods) run, their Documents read
    only afterwards: each the Documents of its own texts under its own options, and the
    result equal to the pure path's."""
    kept = []
    for call in sequence:
        options = rouge_core.profile(call["profile"], **call["changes"])
        kept.append((call, options, rouge_core.score(call["cand"], call["refs"], call["methods"], options)))
    for call, options, result in reversed(kept):
        with native.pure():
            eager = [prepare(text, options) for text in [call["cand"], *call["refs"]]]
        assert [plain(d) for d in (result.candidate, *result.references)] == [plain(d) for d in eager]
        assert result == pure_result(call["cand"], call["refs"], call["methods"], options)


def sized_text(words: int, lines: int, seed: int) -> str:
    vocabulary = ["the", "Cat", "sat", "on", "mat", "a", "dog", "İt", "K9", "runs", "x", "zebra", "é"]
    picked = [vocabulary[(seed * 7 + k * k) % len(vocabulary)] for k in range(words)]
    per_line = max(1, words // max(1, lines))
    return "\n".join(" ".join(picked[i:i + per_line]) for i in range(0, len(picked), per_line))


sizes = st.tuples(st.integers(0, 600), st.integers(1, 40), st.integers(0, 50))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(sizes, st.lists(sizes, min_size=1, max_size=2), st.booleans()), min_size=2, max_size=6))
def test_texts_of_any_size_in_turn_score_as_the_pure_path(calls):
    """The kernels reuse the buffers of the texts' words from one text and call to the next
    (a summary-sized text after a long one, a long one after a short one, with and without
    stemming, the candidate's layout for the LCS made again): every call gives the pure path's
    numbers, through score and the drop-in."""
    from rouge_core.compat.rouge_score import rouge_scorer

    methods = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    dropins = {stem: rouge_scorer.RougeScorer(methods, use_stemmer=stem) for stem in (False, True)}
    for cand_size, ref_sizes, stem in calls:
        cand, refs = sized_text(*cand_size), [sized_text(*size) for size in ref_sizes]
        options = rouge_core.profile("rouge-score", stemmer="porter" if stem else "none")
        result = rouge_core.score(cand, refs, methods, options)
        expected = pure_result(cand, refs, methods, options)
        assert result.methods == expected.methods
        with native.pure():
            want = rouge_scorer.RougeScorer(methods, use_stemmer=stem).score(refs[0], cand)
        assert dropins[stem].score(refs[0], cand) == want


@native_only
@pytest.mark.parametrize("overrides", [{}, {"stemmer": "porter"}, {"stopwords": "smart"}])
def test_the_kernels_leave_a_side_past_max_side_to_the_ordinary_path(overrides):
    # a side of more than max_side tokens is left to the ordinary path, which estimates it first;
    # the kernels stop reading it there (8 million distinct words were read whole, then again)
    options = rouge_core.profile("rouge-score", **overrides)
    _, scorer, compiled, _, _, alpha, empty_nan, score_fn, bare, combine = scoring._texts_plan(
        ("rouge1",), options, 1, None)
    five = "cat dog emu fox gnu"
    for call in (scorer, bare):
        for cand, refs in ((five, ("cat yak",)), ("cat yak", (five,))):
            assert call(compiled, cand, refs, alpha, empty_nan, score_fn, 4, combine) is None
            assert call(compiled, cand, refs, alpha, empty_nan, score_fn, 5, combine)[2]["rouge1"].stats.hits == 1
