"""Documents and result records made by the compiled kernels are ordinary Python objects on
every Python version: their attributes exist for hasattr/getattr, they pickle and copy.

Python 3.13 stores instance attributes as inline values behind a managed dict; the kernels
once filled a Document's `__dict__` directly, which 3.13 did not see (issue 32: `score("",
["a b"])` raised `AttributeError: '_NativeDocument' object has no attribute 'text'`). These
tests run on whichever Python runs the suite, on both paths (the pure path makes the
Documents in Python; the answers must be the same).
"""

from __future__ import annotations

import copy
import pickle

import pytest

import rouge_core
from rouge_core.kernels import native
from rouge_core.text.document import Document, Token
from rouge_core.scorer.scoring import prepare

DOCUMENT_ATTRIBUTES = ("text", "tokens", "sentence_bounds", "sentence_spans", "lcs_view", "term_tuple", "terms")

# Everyday inputs of an evaluation loop: an empty output, one made of punctuation only.
EDGE_PAIRS = [("", ["a b"]), ("/", ["a b"]), ("a b", [""]), ("", [""]), ("\n\n", ["a\n\nb"]), (" . ", ["a b", "/"])]

native_only = pytest.mark.skipif(not native.active(), reason=f"compiled kernels not in use: {native.describe()}")


def documents_of(result):
    return [result.candidate, *result.references]


def plain(doc: Document) -> tuple:
    """A Document's fields as plain values (what an eager pure-path Document holds)."""
    return (doc.text, doc.tokens, doc.sentence_bounds, doc.sentence_spans, doc.lcs_view, doc.term_tuple)


def pure_documents(cand, refs, options):
    with native.pure():
        return [prepare(text, options) for text in [cand, *refs]]


@pytest.mark.parametrize("cand, refs", EDGE_PAIRS)
@pytest.mark.parametrize("evidence", [False, True])
def test_edge_inputs_score_and_match_the_pure_path(cand, refs, evidence):
    result = rouge_core.score(cand, refs, evidence=evidence)
    with native.pure():
        expected = rouge_core.score(cand, refs, evidence=evidence)
    assert {k: repr(v.score) for k, v in result.methods.items()} == {
        k: repr(v.score) for k, v in expected.methods.items()}
    assert [plain(d) for d in documents_of(result)] == [plain(d) for d in documents_of(expected)]


def test_the_issue_examples_give_their_numbers():
    empty = rouge_core.score("", ["a b"])
    assert {k: (m.score.precision, m.score.recall, m.score.fmeasure) for k, m in empty.methods.items()} == {
        "rouge1": (0.0, 0.0, 0.0), "rouge2": (0.0, 0.0, 0.0), "rougeL": (0.0, 0.0, 0.0), "rougeLsum": (0.0, 0.0, 0.0)}
    assert empty.candidate.text == "" and empty.candidate.tokens == () and empty.candidate.sentence_bounds == ()
    slash = rouge_core.score("/", ["a b"])
    assert slash["rouge1"].score.fmeasure == 0.0
    assert slash.candidate.text == "/" and slash.candidate.sentence_bounds == ((0, 0),)
    assert rouge_core.compute(predictions=["", "a b"], references=["a", "a b"]) == {
        "rouge1": 0.5, "rouge2": 0.5, "rougeL": 0.5, "rougeLsum": 0.5}
    result = rouge_core.score("The cat, sat.", ["a cat"])
    assert [(t.term, t.start, t.end, t.sentence) for t in result.candidate.tokens] == [
        ("the", 0, 3, 0), ("cat", 4, 7, 0), ("sat", 9, 12, 0)]
    assert result.candidate.tokens[1].start == 4


@pytest.mark.parametrize("cand, refs", [("The cat sat.\nOn the mat", ["a cat\n\nsat on it", "/"]), *EDGE_PAIRS])
@pytest.mark.parametrize("evidence", [False, True])
def test_documents_have_their_attributes_and_round_trip(cand, refs, evidence):
    options = rouge_core.profile("rouge-score")
    result = rouge_core.score(cand, refs, ["rouge1", "rougeLsum"], options, evidence=evidence)
    for doc, expected in zip(documents_of(result), pure_documents(cand, refs, options)):
        for name in DOCUMENT_ATTRIBUTES:
            assert hasattr(doc, name), name
            assert getattr(doc, name) == getattr(expected, name), name
        assert plain(doc) == plain(expected)
        assert len(doc) == len(expected)
        for clone in (pickle.loads(pickle.dumps(doc)), copy.copy(doc), copy.deepcopy(doc)):
            assert plain(clone) == plain(expected)
            assert clone == expected
        assert all(isinstance(t, Token) for t in doc.tokens)


def test_result_records_have_their_fields_and_round_trip():
    result = rouge_core.score("the cat sat", ["the cat", "a cat sat"], ["rouge1", "rougeL"], evidence=False)
    with native.pure():
        expected = rouge_core.score("the cat sat", ["the cat", "a cat sat"], ["rouge1", "rougeL"], evidence=False)
    for name, method in result.methods.items():
        for record, fields in ((method, ("method", "score", "per_reference", "chosen", "reason", "stats", "signature")),
                               (method.score, ("precision", "recall", "fmeasure")),
                               (method.stats, ("hits", "cand_total", "ref_total", "exponent", "ref_base")),
                               (method.per_reference[0], ("index", "stats", "score", "evidence"))):
            assert all(hasattr(record, field) for field in fields), (name, type(record).__name__)
        assert pickle.loads(pickle.dumps(method)) == method == expected.methods[name]
        assert copy.deepcopy(method) == method


@native_only
def test_kernel_made_documents_are_the_kernels_own():
    # the tests above exercise the objects the kernels make: check that they do make them
    result = rouge_core.score("the cat sat", ["the cat", "/"], ["rouge1"], "rouge-score", evidence=False)
    assert [type(d).__name__ for d in documents_of(result)] == ["_NativeDocument", "_ProbedDocument", "_ProbedDocument"]
    doc = rouge_core.tokenize("the cat\nsat")
    assert type(doc).__name__ == "_NativeDocument"
    assert "text" in vars(doc) and hasattr(doc, "text") and doc.text == "the cat\nsat"
    assert doc.sentence_bounds == ((0, 2), (2, 3)) and doc.lcs_view is None
    assert doc.memoized(native.TOKENS) is not None  # the kernels' Tokens, kept in the memo
