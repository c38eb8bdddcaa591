"""SummEval, sacrerouge and REALSumm files on the Corpus page's loader and on "Which ROUGE agrees
with your annotators?" (AppTest), on the synthetic fixtures of tests/data/formats."""

import os
import pickle
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app.markup import plain  # noqa: E402
from tests.data.formats import make_fixtures as fx  # noqa: E402

DATA = ROOT / "tests" / "data" / "formats"


def page(name: str) -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)


def upload(at: AppTest, key: str, file_name: str, data: bytes | None = None) -> AppTest:
    """The file given to an uploader for one run (AppTest keeps an upload for the run that sets it,
    so the loader's own widgets are set in session state before)."""
    data = (DATA / file_name).read_bytes() if data is None else data
    at.file_uploader(key=key).set_value((file_name, data, "application/octet-stream")).run()
    assert not at.exception, at.exception
    return at


def texts(elements) -> list[str]:
    return [plain(e.value) for e in elements]


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGE_LENS_DB", str(tmp_path / "judgements.sqlite3"))


def test_the_corpus_page_reads_summeval_and_says_what_it_recognised():
    at = page("corpus.py")
    at.run()
    upload(at, "corpus_file", "summeval.jsonl")
    assert not at.error
    assert texts(at.info)[0].startswith("Recognised SummEval model annotations: its records have model_id and decoded")
    assert "Read 20 lines into 5 documents × 4 systems, 11 references per document, with source documents." \
        in texts(at.info)[0]
    assert texts(at.success)[0] == "Parsed 5 pairs; systems: M0, M1, M2, M3. Preview:"
    corpus = at.session_state["corpus_data"]
    assert corpus.ids == fx.DOCUMENTS and len(corpus.references[0]) == 11 and corpus.sources[0] == fx.article(0)
    assert at.checkbox(key="corpus_first_reference").value is False
    at.session_state["corpus_first_reference"] = True
    upload(at, "corpus_file", "summeval.jsonl")
    corpus = at.session_state["corpus_data"]
    assert corpus.references[0] == (" ".join(fx.reference(0)),)
    assert "1 reference per document (the first of each document's references kept)" in texts(at.info)[0]
    at.button(key="score_corpus").click().run()
    assert not at.exception, at.exception
    assert set(at.session_state["corpus_results"]) == set(fx.SYSTEMS)


@pytest.mark.parametrize("file_name, systems, recognised", [
    ("sacrerouge_summaries.jsonl", list(fx.SYSTEMS), "Recognised a sacrerouge summaries file"),
    ("realsumm.pkl", list(fx.SYSTEMS), "Recognised a REALSumm scores dict: a pickle, as REALSumm releases them, read "
                                       "as plain data without running any of its code."),
    ("realsumm.json", list(fx.SYSTEMS), "Recognised a REALSumm scores dict: it maps document ids"),
])
def test_the_corpus_page_reads_sacrerouge_and_realsumm(file_name, systems, recognised):
    at = page("corpus.py")
    at.run()
    upload(at, "corpus_file", file_name)
    assert not at.error
    assert texts(at.info)[0].startswith(recognised)
    assert at.session_state["corpus_data"].system_names == systems


def test_a_chosen_format_that_the_content_denies_and_a_metrics_file_are_named():
    at = page("corpus.py")
    at.run()
    upload(at, "corpus_file", "sacrerouge_metrics.jsonl")
    assert "corpus_data" not in at.session_state
    assert any("sacrerouge_metrics.jsonl is a sacrerouge metrics file: its records have instance_id, summarizer_id "
               "and metrics" in e and "It holds scores, not summaries. Import it as human judgements" in e
               for e in texts(at.error))
    at.session_state["corpus_read_as"] = "summeval"
    upload(at, "corpus_file", "sacrerouge_summaries.jsonl")
    assert any("sacrerouge_summaries.jsonl is not SummEval model annotations: it reads as a sacrerouge summaries file"
               in e for e in texts(at.error))
    at.session_state["corpus_read_as"] = "table"  # a table: its columns are chosen
    upload(at, "corpus_file", "sacrerouge_summaries.jsonl")
    assert at.multiselect(key="corpus_map_cand_sacrerouge_summaries.jsonl").options[0] == "instance_id"


def test_a_hostile_pickle_is_refused_and_runs_nothing(tmp_path):
    class Shell:
        def __reduce__(self):
            return os.system, (f"touch {tmp_path / 'ran'}",)

    at = page("corpus.py")
    at.run()
    upload(at, "corpus_file", "abs.pkl", pickle.dumps({0: Shell()}, protocol=3))
    assert any("abs.pkl: byte" in e and "the file calls" in e and "system, which this reader does not run" in e
               for e in texts(at.error))
    at2 = page("meta.py")
    at2.session_state["corpus_data"] = fx_corpus()
    at2.run()
    upload(at2, "meta_judgements_file", "abs.pkl", pickle.dumps({0: Shell()}, protocol=3))
    assert any("which this reader does not run" in e for e in texts(at2.error))
    assert not (tmp_path / "ran").exists()


def fx_corpus():
    from rouge_core.corpora.corpus_io import read_corpus

    return read_corpus((DATA / "summeval.jsonl").read_bytes(), "summeval.jsonl", first_reference_only=True)


def test_parallel_files_of_the_same_name_are_refused():
    at = page("corpus.py")
    at.run()
    at.radio(key="corpus_kind").set_value("Parallel text files").run()
    at.file_uploader(key="corpus_par_cand").set_value([("out.txt", b"a b\n", "text/plain"),
                                                      ("out.txt", b"c d\n", "text/plain")]).run()
    at.file_uploader(key="corpus_par_ref").set_value([("ref.txt", b"<t> a b </t>\n", "text/plain")]).run()
    assert any("several candidate files are named out.txt; each file is a system named after its file" in e
               for e in texts(at.error))
    at.file_uploader(key="corpus_par_cand").set_value([("bart.txt", b"<t> a b </t> <t> c </t>\n", "text/plain"),
                                                      ("t5.txt", b"c d\n", "text/plain")]).run()
    corpus = at.session_state["corpus_data"]
    assert corpus.systems == {"bart.txt": ("a b\nc",), "t5.txt": ("c d",)} and corpus.references == (("a b",),)
    assert texts(at.info)[0] == ("Sentences in <t> … </t> tags (as REALSumm's files write them) were split at the tags, "
                                 "which were removed, in bart.txt, ref.txt.")


# --- the annotators page: a published meta-evaluation in a few clicks ------------------------------------

def meta_with_corpus_file(file_name: str, first_reference: bool = True) -> AppTest:
    at = page("meta.py")
    at.run()
    at.session_state["meta_first_reference"] = first_reference
    upload(at, "meta_file", file_name)
    return at


def kendall_rouge1_table(at: AppTest, aspect: str):
    at.selectbox(key="meta_aspect").set_value(aspect).run()
    at.multiselect(key="meta_methods").set_value(["rouge1"]).run()
    at.multiselect(key="meta_profiles").set_value(["rouge-1.5.5"]).run()
    at.segmented_control(key="meta_stemming").set_value(["off"]).run()
    at.button(key="meta_score").click().run()
    at.number_input(key="meta_resamples").set_value(0).run()
    at.selectbox(key="meta_rank_level").set_value("system").run()
    assert not at.exception, at.exception
    for df in at.dataframe:
        if {"summary", "system", "method"} <= set(df.value.columns):
            return df.value
    raise AssertionError("no correlation table")


def test_summeval_corpus_and_its_judgements_in_one_click(db):
    at = meta_with_corpus_file("summeval.jsonl")
    button = at.button(key="meta_import_corpus_file")
    assert plain(button.label) == "Use the human scores in summeval.jsonl, the corpus's file"
    button.click().run()
    imported = at.session_state["meta_imported"]
    assert imported.aspects() == [f"{g}_{a}" for g in ("expert", "turker") for a in fx.ASPECTS]
    info = next(i for i in texts(at.info) if "scores from" in i)
    assert info.startswith("Recognised SummEval model annotations")
    assert "Read 640 scores from 20 records, 4 systems × 5 documents; aspects: expert_coherence (3 annotators)" in info
    assert "1 automatic metric(s) left out: metric_scores_11_rouge_rouge_1_f_score (metrics' scores, not human " \
           "judgements; they are read when asked for)" in texts(at.caption)
    table = kendall_rouge1_table(at, "expert_relevance")
    row = table.iloc[0]
    assert row["method"] == "rouge1" and row["system"] == pytest.approx(2 / 3, abs=1e-12)  # as designed
    assert at.multiselect(key="meta_annotators_expert_relevance").value == ["annotator 1", "annotator 2",
                                                                             "annotator 3"]


def test_sacrerouge_summaries_with_their_metrics_file(db):
    at = meta_with_corpus_file("sacrerouge_summaries.jsonl", first_reference=False)
    with pytest.raises(KeyError):
        at.button(key="meta_import_corpus_file")  # a summaries file holds no judgements
    upload(at, "meta_judgements_file", "sacrerouge_metrics.jsonl")
    table = kendall_rouge1_table(at, "expert_relevance")
    assert table.iloc[0]["system"] == pytest.approx(2 / 3, abs=1e-12)


def test_realsumm_with_automatic_metrics_on_request(db):
    at = meta_with_corpus_file("realsumm.pkl", first_reference=False)
    at.button(key="meta_import_corpus_file").click().run()
    assert at.session_state["meta_imported"].aspects() == ["litepyramid_recall"]
    at.checkbox(key="meta_import_automatic").check().run()
    at.button(key="meta_import_corpus_file").click().run()
    assert at.session_state["meta_imported"].aspects() == ["js-2", "litepyramid_recall", "rouge_1_recall"]
    table = kendall_rouge1_table(at, "litepyramid_recall")
    assert table.iloc[0]["system"] == pytest.approx(2 / 3, abs=1e-12)


def test_a_summaries_file_given_as_judgements_says_where_it_goes(db):
    at = meta_with_corpus_file("sacrerouge_summaries.jsonl", first_reference=False)
    upload(at, "meta_judgements_file", "sacrerouge_summaries.jsonl")
    assert any("It holds summaries, not judgements. Load it as the corpus" in e for e in texts(at.error))


def test_the_loader_stays_open_after_a_load_while_its_options_change():
    """The section's options (columns, first reference only) stay in view after a load: on main it
    closed on the first rerun after one, its open state being tied to whether a corpus was loaded."""
    at = page("corpus.py")
    at.run()
    at.radio(key="corpus_kind").set_value("Paste CSV / JSONL").run()
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\n1,a b,a c\n").run()
    assert at.expander[0].label == "Load a corpus" and at.expander[0].proto.expanded
    at.selectbox(key="corpus_map_id_pasted.csv").set_value("(row number)").run()
    assert at.expander[0].proto.expanded
    fresh = page("corpus.py")
    fresh.session_state["corpus_data"] = fx_corpus()  # arriving with a corpus loaded: the loader starts closed
    fresh.run()
    assert not fresh.expander[0].proto.expanded


def test_names_from_the_file_are_escaped(db):
    """A file name or a field name is shown as typed, never as Markdown (a link, an image)."""
    at = page("meta.py")
    at.run()
    at.session_state["meta_first_reference"] = False
    name = "[x](http://evil.example)*.jsonl"
    upload(at, "meta_file", name, (DATA / "summeval.jsonl").read_bytes())
    button = at.button(key="meta_import_corpus_file")
    assert button.label.startswith("Use the human scores in \\[x\\]\\(http") and "](" not in button.label
    assert plain(button.label) == f"Use the human scores in {name}, the corpus's file"
    upload(at, "meta_judgements_file", "odd.jsonl", b'{"![img](http://evil.example/a.png)": 1}\n')
    error = next(e.value for e in at.error if "odd.jsonl" in plain(e.value))
    assert "img" in error and "![img](" not in error and "](" not in error
    assert "odd.jsonl is no standard format either: its records' fields are" in plain(error)
