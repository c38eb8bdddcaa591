import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rouge_core  # noqa: E402
from rouge_core import corpus_io  # noqa: E402
from rouge_core.significance import approximate_randomization, paired_bootstrap  # noqa: E402

CSV = (
    "id,candidate_A,candidate_B,reference_1,reference_2\n"
    "p1,the cat sat on the mat,a cat was on a mat,the cat is on the mat,there is a cat on the mat\n"
    "p2,the dog ran home,dogs run,the dog ran home quickly,\n"
    "p3,=1+1 formula text,plain words here,some plain reference words,\n"
    "p4,nothing in common,the quick brown fox,the quick brown fox jumps,a fast brown fox\n"
)


def page(name: str) -> AppTest:
    return AppTest.from_file(str(ROOT / "lens_app" / "pages" / name), default_timeout=60)


def frame_with(at: AppTest, *columns: str):
    """The first table holding these columns (read-only tables carry no key in AppTest)."""
    for df in at.dataframe:
        value = df.value
        if all(c in value.columns for c in columns):
            return value
    raise AssertionError(f"no table with columns {columns}")


def paste(at: AppTest, prefix: str, text: str) -> None:
    at.radio(key=f"{prefix}_kind").set_value("Paste CSV / JSONL").run()
    at.text_area(key=f"{prefix}_paste").set_value(text).run()


def test_corpus_page_aggregates_equal_rouge_core():
    at = page("corpus.py")
    at.run()
    paste(at, "corpus", CSV)
    assert not at.exception and not at.error
    assert "Parsed 4 pairs" in at.success[0].value
    at.button(key="score_corpus").click().run()
    assert not at.exception
    corpus = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode()))
    expected = rouge_core.score_corpus(list(corpus.systems["candidate_A"]), list(corpus.references),
                                       rouge_core.DEFAULT_METHODS, "rouge-score", ids=list(corpus.ids))
    shown = frame_with(at, "aggregate", "fmeasure_low")
    for method in rouge_core.DEFAULT_METHODS:
        for kind, table in (("macro", expected.macro()), ("micro", expected.micro())):
            row = shown[(shown["method"] == method) & (shown["aggregate"] == kind)].iloc[0]
            assert row["fmeasure"] == pytest.approx(table[method].fmeasure)
            assert row["resamples"] == 1000 and row["seed"] == 0
    pairs = at.dataframe(key="corpus_pairs").value
    assert list(pairs["id"]) == ["p1", "p2", "p3", "p4"]
    # search filters the table
    at.text_input(key="corpus_search").set_value("dog").run()
    assert list(at.dataframe(key="corpus_pairs").value["id"]) == ["p2"]


def test_corpus_page_bad_input_keeps_the_loaded_corpus():
    at = page("corpus.py")
    at.run()
    paste(at, "corpus", CSV)
    at.button(key="score_corpus").click().run()
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\n1,a,b\n1,c\n").run()
    assert any("line 3: 2 fields" in e.value and "kept" in e.value for e in at.error)
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\n1,a,b\n1,c,d\n").run()
    assert any("duplicate id '1'" in e.value for e in at.error)
    assert len(at.session_state["corpus_data"]) == 4
    assert len(at.dataframe(key="corpus_pairs").value) == 4  # the scored table is still there
    at.selectbox(key="corpus_paste_fmt").set_value("JSONL").run()
    at.text_area(key="corpus_paste").set_value('{"id": 1, "candidate": "a", "reference": "b"}\n{oops}\n').run()
    assert any("pasted.jsonl line 2 is not valid JSON" in e.value for e in at.error)  # textio.json_lines


def test_compare_page_p_values_are_seeded():
    def run(seed: int):
        at = page("compare.py")
        at.run()
        paste(at, "compare", CSV)
        at.button(key="compare_score").click().run()
        at.number_input(key="compare_seed").set_value(seed).run()
        at.number_input(key="compare_resamples").set_value(200).run()
        assert not at.exception
        return frame_with(at, "p_value").set_index("test")["p_value"]

    first, again = run(5), run(5)
    assert first.equals(again)
    corpus = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode()))
    scored = {s: rouge_core.score_corpus(list(c), list(corpus.references), ["rouge1"]) for s, c in corpus.systems.items()}
    a, b = scored["candidate_A"].values("rouge1"), scored["candidate_B"].values("rouge1")
    assert first["paired bootstrap"] == paired_bootstrap(a, b, 200, 5).p_value
    assert first["approximate randomization"] == approximate_randomization(a, b, 200, 5).p_value


def test_review_judgements_persist_across_runs(tmp_path):
    db = tmp_path / "judgements.sqlite3"
    corpus = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode()))

    def start() -> AppTest:
        at = page("review.py")
        at.session_state["corpus_data"] = corpus
        at.session_state["review_db"] = str(db)
        at.run()
        at.text_input(key="review_annotator").set_value("alice").run()
        return at

    at = start()
    verdict_key = next(r.key for r in at.radio if r.key.startswith("verdict_"))
    at.radio(key=verdict_key).set_value("4").run()
    note_key = verdict_key.replace("verdict_", "note_", 1)
    at.text_area(key=note_key).set_value("fluent but <b>short</b>").run()
    assert not at.exception and db.exists()
    at.button(key="review_next").click().run()
    assert "Pair 2 of 4" in at.get("progress")[0].proto.text

    again = start()  # a new session: a reload or a server restart
    assert again.radio(key=verdict_key).value == "4"
    assert again.text_area(key=note_key).value == "fluent but <b>short</b>"
    table = frame_with(again, "annotator", "updated_at")
    assert list(table["annotator"]) == ["alice"] and table["updated_at"].str.len().gt(0).all()


def test_review_two_sessions_do_not_lose_judgements(tmp_path):
    from lens_app.review_store import ReviewStore

    db = tmp_path / "j.sqlite3"
    one, two = ReviewStore(db), ReviewStore(db)
    one.save("c", "t", "p1", "alice", "A better")
    two.save("c", "t", "p2", "bob", "tie")
    two.save("c", "t", "p1", "alice", "B better", "changed my mind")
    rows = {(j.pair_id, j.annotator): j for j in ReviewStore(db).all()}
    assert len(rows) == 2 and rows[("p1", "alice")].verdict == "B better"
