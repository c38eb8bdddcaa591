"""Fuzzing the standard-format readers (SummEval, sacrerouge, REALSumm): records of any shape
near the real ones give a corpus (every system a summary of every document, every document a
reference) or judgements (finite scores), or the documented error (corpus_io.CorpusError);
nothing else. Well-formed files give back exactly what was written."""

from __future__ import annotations

import json
import pickle

from hypothesis import given
from hypothesis import strategies as st

from rouge_core.studies import meta
from rouge_core.corpora.corpus_io import CorpusError, read_corpus
from tests.fuzzing import FUZZ, fuzz

JSON_LEAF = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2) | st.text(max_size=6)
JSON = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                           max_size=3), max_leaves=8)
WORDS = st.text("ab <t>/\n", max_size=12)
IDS = st.sampled_from(["d1", "d2", 3, ""])
SYSTEMS = st.sampled_from(["A", "B", 7])


def near(values):
    """A value of the expected kind most of the time, anything JSON now and then."""
    return st.one_of(values, values, values, JSON)


summeval_records = st.fixed_dictionaries(
    {"id": near(IDS), "model_id": near(SYSTEMS), "decoded": near(WORDS), "references": near(st.lists(WORDS, max_size=3))},
    optional={"text": near(WORDS),
              "expert_annotations": near(st.lists(st.fixed_dictionaries({"relevance": near(st.integers(1, 5))}),
                                                  max_size=3)),
              "metric_scores_1": near(st.dictionaries(st.text(max_size=3), st.floats(0, 1), max_size=2))})
sacrerouge_records = st.fixed_dictionaries(
    {"instance_id": near(IDS), "summarizer_id": near(SYSTEMS), "summary": near(st.fixed_dictionaries({"text": WORDS}))},
    optional={"summarizer_type": st.sampled_from(["peer", "reference"]),
              "references": near(st.lists(st.fixed_dictionaries({"text": near(WORDS)}), max_size=2)),
              "document": near(st.fixed_dictionaries({"text": near(WORDS)}))})
metrics_records = st.fixed_dictionaries(
    {"instance_id": near(IDS), "summarizer_id": near(SYSTEMS),
     "metrics": near(st.dictionaries(st.sampled_from(["grade", "rouge-1", "pyramid"]),
                                     near(st.lists(st.integers(0, 5), max_size=3) | st.floats(0, 1)), max_size=2))},
    optional={"summarizer_type": st.sampled_from(["peer", "reference"])})
realsumm_documents = st.dictionaries(
    st.integers(0, 3),
    near(st.fixed_dictionaries({"doc_id": near(st.integers(0, 3)), "ref_summ": near(WORDS),
                                "system_summaries": near(st.dictionaries(st.sampled_from(["a.txt", "b.txt"]), near(
                                    st.fixed_dictionaries({"system_summary": near(WORDS), "scores": near(
                                        st.dictionaries(st.sampled_from(["litepyramid_recall", "js-2"]),
                                                        near(st.floats(0, 1)), max_size=2))})), max_size=2))})),
    min_size=1, max_size=3)


def jsonl(records) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def check_corpus(data: bytes, name: str) -> None:
    try:
        corpus = read_corpus(data, name)
    except CorpusError:
        return
    assert all(len(c) == len(corpus.ids) for c in corpus.systems.values())
    assert all(refs and all(r.strip() for r in refs) for refs in corpus.references)
    assert len(set(corpus.ids)) == len(corpus.ids)


def check_judgements(data: bytes, name: str) -> None:
    try:
        judgements = meta.read_judgements(data, name, include_automatic=True)
    except CorpusError:
        return
    assert len(judgements) > 0 and all(r.score == r.score and abs(r.score) != float("inf") for r in judgements.rows)


@fuzz
@FUZZ
@given(st.lists(summeval_records, min_size=1, max_size=6))
def test_summeval_like_records(records):
    check_corpus(jsonl(records), "m.jsonl")
    check_judgements(jsonl(records), "m.jsonl")


@fuzz
@FUZZ
@given(st.lists(sacrerouge_records, min_size=1, max_size=6), st.lists(metrics_records, min_size=1, max_size=6))
def test_sacrerouge_like_records(summaries, metrics):
    check_corpus(jsonl(summaries), "summaries.jsonl")
    check_judgements(jsonl(metrics), "metrics.jsonl")


@fuzz
@FUZZ
@given(realsumm_documents, st.booleans())
def test_realsumm_like_documents(document, as_pickle):
    data = pickle.dumps(document, protocol=3) if as_pickle else json.dumps(document).encode()
    check_corpus(data, "abs.pkl")
    check_judgements(data, "abs.pkl")


@fuzz
@FUZZ
@given(st.lists(st.sampled_from(["d1", "d2", "d3"]), min_size=1, max_size=3, unique=True),
       st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=3, unique=True),
       st.lists(st.text("abc ", min_size=1, max_size=8).filter(str.strip), min_size=1, max_size=2))
def test_well_formed_summeval_reads_back_what_was_written(documents, systems, references):
    records = [{"id": d, "model_id": s, "decoded": f"{s} on {d}", "references": references,
                "expert_annotations": [{"relevance": i + 1}, {"relevance": 2}]}
               for i, d in enumerate(documents) for s in systems]
    corpus = read_corpus(jsonl(records), "m.jsonl")
    assert corpus.ids == tuple(documents) and corpus.system_names == systems
    assert all(corpus.systems[s] == tuple(f"{s} on {d}" for d in documents) for s in systems)
    assert corpus.references == tuple(tuple(references) for _ in documents)
    human = meta.read_judgements(jsonl(records), "m.jsonl").scores("expert_relevance")
    assert human == {(s, d): (i + 1 + 2) / 2 for i, d in enumerate(documents) for s in systems}
