import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rouge_core  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from rouge_core.corpora.significance import approximate_randomization, paired_bootstrap  # noqa: E402

CSV = (
    "id,candidate_A,candidate_B,reference_1,reference_2\n"
    "p1,the cat sat on the mat,a cat was on a mat,the cat is on the mat,there is a cat on the mat\n"
    "p2,the dog ran home,dogs run,the dog ran home quickly,\n"
    "p3,=1+1 formula text,plain words here,some plain reference words,\n"
    "p4,nothing in common,the quick brown fox,the quick brown fox jumps,a fast brown fox\n"
)


def page(name: str) -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / name), default_timeout=60)


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
    assert "Parsed 4 pairs" in plain(at.success[0].value)
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


def per_pair(result) -> list:
    return [(result.ids[i], {name: repr(m.score) for name, m in pair.items()}) for i, pair in enumerate(result.pairs)]


@pytest.mark.skipif(not rouge_core.accelerated, reason="threads are offered on the compiled kernels")
def test_corpus_page_scores_on_threads_with_the_same_numbers_in_order(monkeypatch):
    from lens_app import corpus_ui

    monkeypatch.setattr(corpus_ui, "available_cores", lambda: 4)
    asked = []

    def spy(*args, **kwargs):
        asked.append(kwargs["workers"])
        return rouge_core.score_corpus(*args, **kwargs)

    monkeypatch.setattr(corpus_ui, "score_corpus", spy)
    rows = "".join(f"q{i},the cat {i % 7} sat on the mat,a cat {i % 5} sat on a mat,the cat sat,\n" for i in range(600))
    text = "id,candidate_A,candidate_B,reference_1,reference_2\n" + rows
    at = page("corpus.py")
    at.run()
    paste(at, "corpus", text)
    threads = at.selectbox(key="score_corpus_workers")
    assert threads.options == ["1", "2", "3", "4"] and threads.value == 2  # min(2, cores)
    at.button(key="score_corpus").click().run()
    assert not at.exception and not at.error
    on_two = {s: per_pair(r) for s, r in at.session_state["corpus_results"].items()}
    assert asked == [2, 2]  # one call per system, on two threads
    corpus = corpus_io.build_corpus(corpus_io.read_csv(text.encode()))
    _, options, methods = at.session_state["corpus_results_for"]  # the sidebar's settings
    for system, candidates in corpus.systems.items():
        expected = rouge_core.score_corpus(list(candidates), list(corpus.references), list(methods), options,
                                           ids=list(corpus.ids))
        assert on_two[system] == per_pair(expected)
    assert [pair_id for pair_id, _ in on_two["candidate_B"]] == [f"q{i}" for i in range(600)]
    at.selectbox(key="score_corpus_workers").set_value(1).run()
    at.button(key="score_corpus").click().run()
    assert {s: per_pair(r) for s, r in at.session_state["corpus_results"].items()} == on_two
    assert asked[2:] == [1, 1]


def test_corpus_page_on_the_pure_path_scores_on_one_thread():
    from rouge_core.kernels import native

    with native.pure():
        at = page("corpus.py")
        at.run()
        paste(at, "corpus", CSV)
        assert not any(box.key == "score_corpus_workers" for box in at.selectbox)
        assert any("one thread" in plain(c.value) for c in at.caption)
        at.button(key="score_corpus").click().run()
    assert not at.exception and len(at.session_state["corpus_results"]["candidate_A"].pairs) == 4


def test_corpus_page_bad_input_keeps_the_loaded_corpus():
    at = page("corpus.py")
    at.run()
    paste(at, "corpus", CSV)
    at.button(key="score_corpus").click().run()
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\n1,a,b\n1,c\n").run()
    assert any("line 3: 2 fields" in plain(e.value) and "kept" in plain(e.value) for e in at.error)
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\n1,a,b\n1,c,d\n").run()
    assert any("duplicate id '1'" in plain(e.value) for e in at.error)
    assert len(at.session_state["corpus_data"]) == 4
    assert len(at.dataframe(key="corpus_pairs").value) == 4  # the scored table is still there
    at.selectbox(key="corpus_paste_fmt").set_value("JSONL").run()
    at.text_area(key="corpus_paste").set_value('{"id": 1, "candidate": "a", "reference": "b"}\n{oops}\n').run()
    assert any("pasted.jsonl line 2 is not valid JSON" in plain(e.value) for e in at.error)  # textio.json_lines
    captions = [plain(c.value) for c in at.caption]
    assert any(c.startswith("Still loaded (the file tried last could not be read") for c in captions), captions
    assert not any(c.startswith("Loaded:") for c in captions)


def test_the_mapping_and_preview_stay_after_a_load_and_scores_come_before_texts():
    at = page("corpus.py")
    at.run()
    paste(at, "corpus", CSV)
    at.button(key="score_corpus").click().run()
    assert not at.exception
    assert any(s.label == "Id" for s in at.selectbox)  # the column mapping is still drawn
    assert frame_with(at, "reference_1", "candidate_A") is not None  # and the preview
    pairs = at.dataframe(key="corpus_pairs").value
    columns = list(pairs.columns)
    assert columns[0] == "id" and columns[-2:] == ["candidate", "references"]
    assert all(c.endswith(("_precision", "_recall", "_fmeasure")) for c in columns[1:-2])


def test_compare_page_states_its_conclusion():
    from rouge_core.corpora.corpus import compare_systems

    at = page("compare.py")
    at.run()
    paste(at, "compare", CSV)
    at.button(key="compare_score").click().run()
    at.number_input(key="compare_resamples").set_value(200).run()
    assert not at.exception
    corpus = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode()))
    scored = {s: rouge_core.score_corpus(list(c), list(corpus.references), rouge_core.DEFAULT_METHODS, ids=list(corpus.ids))
              for s, c in corpus.systems.items()}
    want = compare_systems(scored["candidate_A"], scored["candidate_B"], "rouge1", names=("candidate_A", "candidate_B"),
                           resamples=200, seed=0)
    words = want.summary(0.05, test="approximate randomization")  # the page's declared test decides
    assert words.endswith("The paired bootstrap agrees (p = 0.796).")
    assert any(plain(m.value) == words for m in at.markdown), [m.value for m in at.markdown]


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


def test_review_judgements_persist_across_runs(tmp_path, monkeypatch):
    db = tmp_path / "judgements.sqlite3"
    monkeypatch.setenv("ROUGE_LENS_DB", str(db))
    corpus = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode()))

    def start() -> AppTest:
        at = page("review.py")
        at.session_state["corpus_data"] = corpus
        at.run()
        at.text_input(key="review_annotator").set_value("alice").run()
        return at

    at = start()
    at.button(key="verdict_3").click().run()  # the fourth point of the 1–5 rating
    note_key = next(t.key for t in at.text_area if t.key.startswith("note_"))
    at.text_area(key=note_key).set_value("fluent but <b>short</b>").run()
    assert not at.exception and db.exists()
    at.button(key="review_next").click().run()
    assert "Pair 2 of 4" in at.progress[0].text

    again = start()  # a new session without the page's link: back at pair 1
    assert again.button(key="verdict_3").proto.type == "primary"  # the saved point is shown as chosen
    assert again.text_area(key=note_key).value == "fluent but <b>short</b>"
    table = frame_with(again, "annotator", "updated_at")
    assert list(table["annotator"]) == ["alice"] and table["updated_at"].str.len().gt(0).all()
    assert list(table["verdict"]) == ["4"] and list(table["task_name"]) == ["Overall quality"]


def test_review_two_sessions_do_not_lose_judgements(tmp_path):
    from lens_app.review_store import ReviewStore

    db = tmp_path / "j.sqlite3"
    one, two = ReviewStore(db), ReviewStore(db)
    one.save("c", "t", "p1", "alice", "A better")
    two.save("c", "t", "p2", "bob", "tie")
    two.save("c", "t", "p1", "alice", "B better", "changed my mind")
    rows = {(j.pair_id, j.annotator): j for j in ReviewStore(db).all()}
    assert len(rows) == 2 and rows[("p1", "alice")].verdict == "B better"


def test_a_link_cannot_choose_where_judgements_are_stored(tmp_path, monkeypatch):
    configured = tmp_path / "configured.sqlite3"
    planted = tmp_path / "planted" / "evil.sqlite3"
    monkeypatch.setenv("ROUGE_LENS_DB", str(configured))
    at = page("review.py")
    at.query_params["db"] = str(planted)
    at.query_params["annotator"] = "alice"
    at.run()
    assert not at.exception
    assert not planted.parent.exists() and configured.exists()
    assert "db" not in at.query_params and at.text_input(key="review_annotator").value == "alice"
    shown = [e.value for kind in ("markdown", "caption", "error", "info", "warning", "success") for e in at.get(kind)]
    assert not any(str(tmp_path) in text or "sqlite3" in text for text in shown), shown
    assert all(w.label != "Judgements database (SQLite)" for w in at.text_input)


def test_the_judgements_database_is_server_configuration(tmp_path, monkeypatch):
    from lens_app.review_store import configured_path, default_path

    monkeypatch.delenv("ROUGE_LENS_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no database of earlier versions there
    assert configured_path() == default_path()
    assert configured_path({"judgements_db": str(tmp_path / "s.sqlite3")}) == tmp_path / "s.sqlite3"
    monkeypatch.setenv("ROUGE_LENS_DB", str(tmp_path / "e.sqlite3"))
    assert configured_path({"judgements_db": str(tmp_path / "s.sqlite3")}) == tmp_path / "e.sqlite3"


def test_an_unopenable_database_names_no_server_path(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("ROUGE_LENS_DB", str(blocker / "sub" / "j.sqlite3"))
    at = page("review.py")
    at.run()
    assert not at.exception
    assert any("cannot be opened" in e.value for e in at.error)
    assert not any(str(tmp_path) in e.value for e in at.error)


def test_a_second_paste_with_other_columns_is_read_with_its_own_columns():
    """The column choices of the first paste (candidate_A, candidate_B, ...) do not stick to a
    second paste of other columns: it is read from its own guessed columns."""
    at = page("corpus.py")
    at.run()
    paste(at, "corpus", CSV)
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\nq1,a b c,a b\nq2,x y,x z\n").run()
    assert not at.exception and not at.error
    assert "Parsed 2 pairs; systems: candidate." in plain(at.success[0].value)
    assert at.multiselect(key="corpus_map_cand_pasted.csv").value == ["candidate"]


def test_the_corpus_page_holds_statistics_not_records_and_makes_a_pair_when_opened():
    """Issue 33: after scoring, each system's result holds its per-pair statistics (NumPy
    columns) and the texts; no pair's records exist until one is read (a row opened)."""
    from rouge_core.corpora.corpus import PairRecords

    at = page("corpus.py")
    at.run()
    paste(at, "corpus", CSV)
    at.button(key="score_corpus").click().run()
    assert not at.exception
    result = at.session_state["corpus_results"]["candidate_A"]
    assert isinstance(result.pairs, PairRecords) and result.pairs._recent == {}
    assert result.statistics.nbytes <= 4 * len(result.methods) * 48
    opened = result.pairs[1]  # what opening row p2 reads: scored again from its texts, with its references
    assert {m: repr(s.score) for m, s in opened.items()} == {
        m: repr(s.score) for m, s in rouge_core.score("the dog ran home", ["the dog ran home quickly"], result.methods,
                                                      result.options, evidence=False).methods.items()}
    assert len(opened[result.methods[0]].per_reference) == 1
