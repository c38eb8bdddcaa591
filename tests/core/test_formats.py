"""SummEval, sacrerouge and REALSumm files read as corpora (rouge_core.corpora.corpus_io.read_corpus)
and as human judgements (rouge_core.studies.meta.read_judgements), on the synthetic fixtures of
tests/data/formats (see make_fixtures.py: the correlations they hold are known by design)."""

import gzip
import json
import pickle
from pathlib import Path

import pytest
from scipy import stats

from rouge_core.corpora import corpus_io, formats
from rouge_core.studies import meta
from rouge_core import profile, score_corpus
from rouge_core.corpora.corpus_io import CorpusError, read_corpus, read_parallel
from tests.data.formats import make_fixtures as fx

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
SUMMEVAL = (DATA / "summeval.jsonl").read_bytes()
SACRE_SUMMARIES = (DATA / "sacrerouge_summaries.jsonl").read_bytes()
SACRE_METRICS = (DATA / "sacrerouge_metrics.jsonl").read_bytes()
REALSUMM_PKL = (DATA / "realsumm.pkl").read_bytes()
REALSUMM_JSON = (DATA / "realsumm.json").read_bytes()


def jsonl(rows) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def summeval_rows() -> list[dict]:
    return [json.loads(line) for line in SUMMEVAL.decode().splitlines()]


def test_the_fixtures_are_what_make_fixtures_writes(tmp_path, monkeypatch):
    monkeypatch.setattr(fx, "HERE", tmp_path)
    fx.main()
    for name in ("summeval.jsonl", "sacrerouge_summaries.jsonl", "sacrerouge_metrics.jsonl", "realsumm.json"):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
    assert pickle.loads((tmp_path / "realsumm.pkl").read_bytes()) == pickle.loads(REALSUMM_PKL)


# --- detection ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, name, expected", [
    (SUMMEVAL, "model_annotations.aligned.paired.jsonl", formats.SUMMEVAL),
    (SUMMEVAL, "renamed.csv", formats.SUMMEVAL),  # the content decides, not the name
    (SACRE_SUMMARIES, "summaries.jsonl", formats.SACREROUGE_SUMMARIES),
    (SACRE_METRICS, "metrics.jsonl", formats.SACREROUGE_METRICS),
    (REALSUMM_PKL, "abs.pkl", formats.REALSUMM),
    (REALSUMM_JSON, "abs.json", formats.REALSUMM),
    (json.dumps(json.loads(REALSUMM_JSON), indent=2).encode(), "abs.json", formats.REALSUMM),  # over many lines
    (b"id,candidate,reference\n1,a,b\n", "c.csv", formats.TABLE),
    (b'{"id": 1, "candidate": "a", "reference": "b"}\n', "c.jsonl", formats.TABLE),
])
def test_formats_are_recognised_by_their_content(data, name, expected):
    assert formats.detect(data, name, None).format == expected


def test_a_chosen_format_must_be_the_contents():
    with pytest.raises(CorpusError, match=r"summaries.jsonl is not SummEval model annotations: it reads as a sacrerouge "
                                          r"summaries file; its records have instance_id, summarizer_id and summary"):
        read_corpus(SACRE_SUMMARIES, "summaries.jsonl", format=formats.SUMMEVAL)
    assert len(read_corpus(SACRE_SUMMARIES, "summaries.jsonl", format=formats.SACREROUGE_SUMMARIES)) == 5
    with pytest.raises(ValueError, match="format must be one of"):
        read_corpus(SUMMEVAL, "x.jsonl", format="summ-eval")


# --- corpora --------------------------------------------------------------------------------------------

def test_summeval_as_a_corpus():
    corpus = read_corpus(SUMMEVAL, "model_annotations.aligned.paired.jsonl")
    assert corpus.ids == fx.DOCUMENTS and corpus.system_names == list(fx.SYSTEMS)
    assert corpus.systems["M2"][3] == fx.summary("M2", 3)
    assert corpus.references[1] == (" ".join(fx.reference(1)), *fx.crowd_references(1))
    assert corpus.sources[4] == fx.article(4)
    assert corpus.warnings == ()
    assert corpus.recognised == (
        "Recognised SummEval model annotations: its records have model_id and decoded. Read 20 lines "
        "into 5 documents × 4 systems, 11 references per document, with source documents. Not read into the corpus: "
        "expert_annotations, turker_annotations, metric_scores_11 (human or metric scores: import this file on the "
        "annotators page); filepath.")
    first = read_corpus(SUMMEVAL, "m.jsonl", first_reference_only=True)
    assert first.references == tuple((" ".join(fx.reference(d)),) for d in range(5))
    assert "1 reference per document (the first of each document's references kept)" in first.recognised


def test_summeval_without_its_articles_has_no_sources():
    rows = summeval_rows()
    for r in rows:
        del r["text"]
    corpus = read_corpus(jsonl(rows), "model_annotations.aligned.jsonl")
    assert corpus.sources is None and "without source documents" in corpus.recognised


def test_sacrerouge_summaries_as_a_corpus():
    corpus = read_corpus(SACRE_SUMMARIES, "summaries.jsonl")
    summeval = read_corpus(SUMMEVAL, "m.jsonl", first_reference_only=True)
    assert (corpus.ids, corpus.systems, corpus.references, corpus.sources) == \
        (summeval.ids, summeval.systems, summeval.references, summeval.sources)
    assert corpus.recognised.endswith("Read 20 lines into 5 documents × 4 systems, 1 reference per document, with "
                                      "source documents. Not read into the corpus: file_path.")


def test_sacrerouge_texts_as_sentence_lists_documents_and_jackknifed_references():
    rows = [json.loads(line) for line in SACRE_SUMMARIES.decode().splitlines()]
    rows[0]["summary"]["text"] = ["first sentence", ["nested", "sentences"]]
    rows[0].pop("document")
    rows[0]["documents"] = [{"text": ["doc one a", "doc one b"]}, {"text": "doc two"}]
    for r in rows:
        if r["instance_id"] == rows[0]["instance_id"] and r is not rows[0]:
            r.pop("document")
            r["documents"] = rows[0]["documents"]
    rows.append({"instance_id": rows[0]["instance_id"], "summarizer_id": "ground-truth", "summarizer_type": "reference",
                 "summary": {"text": "a reference"}, "references": []})
    corpus = read_corpus(jsonl(rows), "summaries.jsonl")
    assert corpus.systems["M0"][0] == "first sentence\nnested\nsentences"
    assert corpus.sources[0] == "doc one a\ndoc one b\n\ndoc two"
    assert "ground-truth" not in corpus.systems
    assert "Left out: 1 record(s) of reference summaries scored as summaries (summarizer_type \"reference\", " \
           "sacrerouge's jackknifing): the corpus's systems are the peers." in corpus.recognised


def test_realsumm_pickle_and_its_json_conversion_are_the_same_corpus():
    corpus = read_corpus(REALSUMM_PKL, "abs.pkl")
    converted = read_corpus(REALSUMM_JSON, "abs.json")
    assert (corpus.ids, corpus.systems, corpus.references) == (converted.ids, converted.systems, converted.references)
    assert corpus.ids == ("0", "1", "2", "3", "4") and corpus.system_names == list(fx.SYSTEMS)  # ".txt" dropped
    words = fx.summary("M1", 0).split()
    assert corpus.systems["M1"][0] == " ".join(words[:4]) + "\n" + " ".join(words[4:])  # <t> tags: sentences
    assert corpus.references[0] == (" ".join(fx.reference(0)[:5]) + "\n" + " ".join(fx.reference(0)[5:]),)
    assert corpus.recognised.startswith("Recognised a REALSumm scores dict: a pickle, as REALSumm releases them, read "
                                        "as plain data without running any of its code. Read 5 documents into 5 "
                                        "documents × 4 systems")


def test_gzip_files_are_read_within_the_limit():
    corpus = read_corpus(gzip.compress(SUMMEVAL), "model_annotations.aligned.paired.jsonl.gz")
    assert len(corpus) == 5 and corpus.source == "model_annotations.aligned.paired.jsonl.gz"
    table = read_corpus(gzip.compress(b"id,candidate,reference\n1,a,b\n"), "c.csv.gz")
    assert table.systems == {"candidate": ("a",)}
    bomb = gzip.compress(b"a" * 3_000_000)
    with pytest.raises(CorpusError, match="big.jsonl.gz unpacks to more than the size limit of 1,000,000 bytes"):
        read_corpus(bomb, "big.jsonl.gz", max_bytes=1_000_000)
    with pytest.raises(CorpusError, match="t.jsonl.gz is a truncated gzip file"):
        read_corpus(gzip.compress(SUMMEVAL)[:200], "t.jsonl.gz")


def test_a_document_without_every_systems_summary_is_left_out_and_named():
    rows = [r for r in summeval_rows() if not (r["id"] == fx.DOCUMENTS[2] and r["model_id"] in ("M1", "M3"))]
    corpus = read_corpus(jsonl(rows), "m.jsonl")
    assert corpus.ids == fx.DOCUMENTS[:2] + fx.DOCUMENTS[3:]
    assert corpus.warnings == (f"1 of 5 documents lack a summary from some system and are left out (a corpus holds "
                               f"every system's summary of every document): e.g. {fx.DOCUMENTS[2]} has none from M1, M3",)


def test_different_references_across_systems_keep_the_most_common():
    rows = summeval_rows()
    rows[1]["references"] = ["a tokenised differently"]  # document 1, system M1
    corpus = read_corpus(jsonl(rows), "m.jsonl")
    assert corpus.references[0] == tuple(summeval_rows()[0]["references"])
    assert corpus.warnings == (f"1 document(s) come with different references for different systems (e.g. "
                               f"{fx.DOCUMENTS[0]}); each is scored against the references most of its systems carry",)


def test_problems_name_their_lines():
    rows = summeval_rows()
    del rows[2]["decoded"]
    rows[5]["references"] = 3
    rows[7]["model_id"] = rows[6]["model_id"]
    with pytest.raises(CorpusError) as e:
        read_corpus(jsonl(rows), "m.jsonl")
    assert e.value.problems == [
        "m.jsonl line 3: no decoded (a SummEval record has id, model_id, decoded and references; its fields: id, "
        "model_id, references, expert_annotations, turker_annotations, filepath, metric_scores_11, text)",
        "m.jsonl line 6: references must be a list, not a number",
    ]
    with pytest.raises(CorpusError, match=r"m.jsonl line 6: document '.*', system 'M2' already has a summary "
                                          r"\(m.jsonl line 5\)"):
        read_corpus(jsonl(rows[:2] + rows[3:5] + rows[6:]), "m.jsonl")
    no_refs = summeval_rows()
    for r in no_refs[:4]:
        r["references"] = ["", " "]
    with pytest.raises(CorpusError, match="m.jsonl line 1: document '.*' has no reference summary"):
        read_corpus(jsonl(no_refs), "m.jsonl")
    with pytest.raises(CorpusError, match=r"m.jsonl line 2 is not valid JSON"):
        read_corpus(SUMMEVAL.replace(b"\n", b"\n{broken\n", 1), "m.jsonl")


def test_files_of_the_wrong_kind_say_where_to_go():
    with pytest.raises(CorpusError, match="metrics.jsonl is a sacrerouge metrics file: .* It holds scores, not "
                                          "summaries. Import it as human judgements"):
        read_corpus(SACRE_METRICS, "metrics.jsonl")
    with pytest.raises(CorpusError, match="summaries.jsonl is a sacrerouge summaries file: .* It holds summaries, "
                                          "not judgements. Load it as the corpus"):
        meta.read_judgements(SACRE_SUMMARIES, "summaries.jsonl")
    with pytest.raises(CorpusError) as e:
        read_corpus(b'{"doc": 1, "hyp": "a"}\n', "mine.jsonl")
    assert e.value.problems[-1] == (
        "mine.jsonl was read as a table, since it is no standard format either: its records' fields are doc, hyp; "
        "SummEval records have model_id and decoded; sacrerouge's have instance_id and summarizer_id (and summary or "
        "metrics); REALSumm's scores dict maps each doc_id to its ref_summ and system_summaries")


def test_realsumm_problems_name_the_document():
    document = json.loads(REALSUMM_JSON)
    document["3"]["system_summaries"]["M2.txt"]["system_summary"] = ["not", "text"]
    del document["4"]["system_summaries"]
    with pytest.raises(CorpusError) as e:
        read_corpus(json.dumps(document).encode(), "abs.json")
    assert e.value.problems == ["abs.json doc 4: no system_summaries object (its fields: doc_id, ref_summ)",
                                "abs.json doc 3, system M2.txt: system_summary must be a text"]


def test_parallel_files_with_sentence_tags():
    corpus = read_parallel({"out.txt": b"<t> a b . </t> <t> c d . </t>\nplain line\n"},
                           {"ref.txt": b"<t> <t> a b . </t> </t>\n<t> x </t>\n"})
    assert corpus.systems["out.txt"] == ("a b .\nc d .", "plain line")
    assert corpus.references == (("a b .",), ("x",))
    assert corpus.recognised == ("Sentences in <t> … </t> tags (as REALSumm's files write them) were split at the tags, "
                                 "which were removed, in out.txt, ref.txt.")


# --- judgements -------------------------------------------------------------------------------------------

def rows_of(judgements: meta.HumanJudgements) -> list:
    return sorted((r.system, r.doc_id, r.annotator, r.aspect, r.score) for r in judgements.rows)


def test_summeval_and_its_sacrerouge_metrics_give_the_same_judgements():
    summeval = meta.read_judgements(SUMMEVAL, "model_annotations.aligned.paired.jsonl")
    sacre = meta.read_judgements(SACRE_METRICS, "metrics.jsonl")
    assert rows_of(summeval) == rows_of(sacre)
    assert summeval.aspects() == [f"{g}_{a}" for g in ("expert", "turker") for a in fx.ASPECTS]
    assert summeval.annotators("expert_relevance") == ["annotator 1", "annotator 2", "annotator 3"]
    assert summeval.annotators("turker_fluency") == [f"annotator {k}" for k in range(1, 6)]
    assert summeval.scores("expert_relevance")[("M1", fx.DOCUMENTS[0])] == pytest.approx(10 / 3, abs=1e-15)
    assert summeval.warnings == ("1 automatic metric(s) left out: metric_scores_11_rouge_rouge_1_f_score (metrics' "
                                 "scores, not human judgements; they are read when asked for)",)
    assert sacre.recognised == (
        "Recognised a sacrerouge metrics file: its records have instance_id, summarizer_id and metrics. Read 640 scores from 20 records, 4 systems × 5 "
        "documents; aspects: expert_coherence (3 annotators), expert_consistency (3 annotators), expert_fluency (3 "
        "annotators), expert_relevance (3 annotators), turker_coherence (5 annotators), turker_consistency (5 "
        "annotators), turker_fluency (5 annotators), turker_relevance (5 annotators).")
    everything = meta.read_judgements(SUMMEVAL, "m.jsonl", include_automatic=True)
    assert everything.scores("metric_scores_11_rouge_rouge_1_f_score")[("M3", fx.DOCUMENTS[1])] == 0.9


def test_realsumm_judgements():
    judgements = meta.read_judgements(REALSUMM_PKL, "abs.pkl")
    assert judgements.aspects() == ["litepyramid_recall"] and judgements.annotators() == [""]
    assert judgements.scores()[("M3", "1")] == 1.0  # 5, 5, 5 of 5
    assert judgements.warnings == ("2 automatic metric(s) left out: rouge_1_recall, js-2 (metrics' scores, not human "
                                   "judgements; they are read when asked for)",)
    assert rows_of(judgements) == rows_of(meta.read_judgements(REALSUMM_JSON, "abs.json"))
    assert meta.read_judgements(REALSUMM_PKL, "abs.pkl", include_automatic=True).aspects() == \
        ["js-2", "litepyramid_recall", "rouge_1_recall"]


def test_sacrerouge_metrics_lines_of_one_summary_merge_and_their_problems_are_named():
    lines = [{"instance_id": "d1", "summarizer_id": "A", "summarizer_type": "peer", "metrics": {"grade": [2, 3]}},
             {"instance_id": "d1", "summarizer_id": "A", "summarizer_type": "peer", "metrics": {"pyramid": 0.5}},
             {"instance_id": "d1", "summarizer_id": "R", "summarizer_type": "reference", "metrics": {"grade": [5]}},
             {"instance_id": "d1", "summarizer_id": "A", "metrics": {"rouge-1": {"recall": 0.4}}}]
    judgements = meta.read_judgements(jsonl(lines), "metrics.jsonl")
    assert rows_of(judgements) == [("A", "d1", "", "pyramid", 0.5), ("A", "d1", "annotator 1", "grade", 2.0),
                                   ("A", "d1", "annotator 2", "grade", 3.0)]
    assert judgements.warnings[0] == ("1 line(s) scoring reference summaries (summarizer_type \"reference\"): the "
                                      "corpus's systems are the peers")
    assert judgements.warnings[1].startswith("1 automatic metric(s) left out: rouge-1_recall")
    bad = lines + [{"instance_id": "d1", "summarizer_id": "A", "metrics": {"pyramid": 0.7}},
                   {"instance_id": "d2", "summarizer_id": "A", "metrics": {"grade": ["good"]}},
                   {"instance_id": "d3", "summarizer_id": "A", "metrics": {"grade": []}},
                   {"instance_id": "d4", "summarizer_id": "A", "metrics": [1]}]
    with pytest.raises(CorpusError) as e:
        meta.read_judgements(jsonl(bad), "metrics.jsonl")
    assert e.value.problems == [
        "metrics.jsonl line 6: grade[0] must be a number, not a string 'good'",
        "metrics.jsonl line 7: grade is an empty list",
        "metrics.jsonl line 8: metrics must be an object, not an array",
        "metrics.jsonl line 5: system A, document d1, pyramid already has a score (metrics.jsonl line 2)",
    ]
    with pytest.raises(CorpusError, match=r"only.jsonl \(a sacrerouge metrics file\) holds no human judgements, only "
                                          r"automatic metrics' scores \(rouge-1_recall\)"):
        meta.read_judgements(jsonl(lines[3:]), "only.jsonl")


def test_summeval_annotation_problems_are_named():
    rows = summeval_rows()
    rows[0]["expert_annotations"][1]["relevance"] = None
    del rows[3]["turker_annotations"][2]["fluency"]
    with pytest.raises(CorpusError) as e:
        meta.read_judgements(jsonl(rows), "m.jsonl")
    assert e.value.problems == ["m.jsonl line 1: expert_relevance[1] must be a number, not null None",
                                "m.jsonl line 4: turker_fluency is missing from some of the turker annotations"]


# --- the published number, on the fixture: ROUGE-1 against the experts' relevance --------------------------

DESIGNED_ROUGE1 = {(s, d): fx.MATCHED[s][i] / 10 for s in fx.SYSTEMS for i, d in enumerate(fx.DOCUMENTS)}
DESIGNED_RELEVANCE = {(s, d): sum(fx.EXPERT_RELEVANCE[s][i]) / 3 for s in fx.SYSTEMS for i, d in enumerate(fx.DOCUMENTS)}


def rouge1(corpus: corpus_io.Corpus, profile_name: str) -> dict:
    results = {s: score_corpus(list(c), list(corpus.references), ["rouge1"], profile(profile_name), ids=list(corpus.ids))
               for s, c in corpus.systems.items()}
    return meta.metric_scores(results, "rouge1")


def scipy_levels(metric: dict, human: dict) -> tuple[float, float]:
    """The system-level and summary-level Kendall tau-b by scipy, over the designed numbers."""
    system = stats.kendalltau([sum(metric[(s, d)] for d in fx.DOCUMENTS) / 5 for s in fx.SYSTEMS],
                              [sum(human[(s, d)] for d in fx.DOCUMENTS) / 5 for s in fx.SYSTEMS]).statistic
    per_document = [stats.kendalltau([metric[(s, d)] for s in fx.SYSTEMS], [human[(s, d)] for s in fx.SYSTEMS]).statistic
                    for d in fx.DOCUMENTS]
    return system, sum(per_document) / len(per_document)


@pytest.mark.parametrize("corpus_file, judgement_file, aspect, keys", [
    ("summeval.jsonl", "summeval.jsonl", "expert_relevance", None),
    ("sacrerouge_summaries.jsonl", "sacrerouge_metrics.jsonl", "expert_relevance", None),
    ("realsumm.pkl", "realsumm.pkl", "litepyramid_recall", "realsumm"),
    ("realsumm.json", "realsumm.json", "litepyramid_recall", "realsumm"),
])
@pytest.mark.parametrize("profile_name", ["rouge-1.5.5", "rouge-score"])
def test_a_meta_evaluation_reproduced_from_each_format(corpus_file, judgement_file, aspect, keys, profile_name):
    corpus = read_corpus((DATA / corpus_file).read_bytes(), corpus_file, first_reference_only=True)
    human = meta.read_judgements((DATA / judgement_file).read_bytes(), judgement_file).scores(aspect)
    metric = rouge1(corpus, profile_name)
    by_design = DESIGNED_ROUGE1
    if keys == "realsumm":  # documents numbered 0..4; litepyramid_recall = relevance / 5
        by_design = {(s, str(i)): v for (s, d), v in DESIGNED_ROUGE1.items() for i in [fx.DOCUMENTS.index(d)]}
    assert metric == pytest.approx(by_design, abs=1e-12)  # ROUGE-1 F = matched words / 10, as built
    system = meta.correlate(metric, human, "system", "kendall", "b")
    assert system.value == pytest.approx(2 / 3, abs=1e-12)  # one discordant pair of systems in six
    assert system.systems == 4 and system.items == 20
    expected_system, expected_summary = scipy_levels(DESIGNED_ROUGE1, DESIGNED_RELEVANCE)
    assert system.value == pytest.approx(expected_system, abs=1e-12)
    summary = meta.correlate(metric, human, "summary", "kendall", "b")
    assert summary.value == pytest.approx(expected_summary, abs=1e-12)
