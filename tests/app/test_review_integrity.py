"""Review that protects its data (issue 27, items 3-5), in Streamlit's AppTest: an annotator
sees others' verdicts and notes on a task only once they have finished it (or its owner shows
them); ROUGE highlights are a task option, off by default, recorded with each verdict and
named on "Which ROUGE agrees"; opening pages writes nothing until the first judgement; the
default database is in the platform's data directory, and the page says what chose it; a
verdict advances to the next unjudged pair when the annotator prefers it."""

import sqlite3
import sys
from pathlib import Path

import platformdirs
import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app import review_tasks as rt  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from lens_app.review_store import ReviewStore  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from tests.annotated_corpus import corpus_csv  # noqa: E402

CSV = corpus_csv(systems=3, documents=3)
CORPUS = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode(), "small.csv"))
RATING = rt.DEFAULT_TASKS[0]
RATE_FIRST = rt.task_key(RATING, [CORPUS.system_names[0]])  # the task key the page opens on


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = tmp_path / "judgements.sqlite3"
    monkeypatch.setenv("ROUGE_LENS_DB", str(path))
    return path


def review(annotator: str = "alice", corpus=CORPUS, secrets: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "review.py"), default_timeout=120)
    if corpus is not None:
        at.session_state["corpus_data"] = corpus
    for k, v in (secrets or {}).items():
        at.secrets[k] = v
    at.run()
    if annotator:
        at.text_input(key="review_annotator").set_value(annotator).run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> list[str]:
    """Every text the page shows (Markdown, captions, messages, HTML, tables' cells)."""
    shown = [plain(e.value) for kind in ("markdown", "caption", "info", "warning", "success", "error")
             for e in at.get(kind)]
    shown += [h.proto.body for h in at.get("html")]
    shown += [df.value.to_csv() for df in at.dataframe]
    return shown


def table_of(at: AppTest, *columns: str):
    for df in at.dataframe:
        if all(c in df.value.columns for c in columns):
            return df.value
    return None


def judge(at: AppTest, point: int, note: str | None = None) -> None:
    at.button(key=f"verdict_{point}").click().run()
    if note is not None:
        note_key = next(t.key for t in at.text_area if t.key.startswith("note_"))
        at.text_area(key=note_key).set_value(note).run()
    assert not at.exception, at.exception


def open_options(at: AppTest) -> None:
    at.session_state["review_task_options_open"] = True
    at.run()


def counts(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("judgements", "corpora", "annotators")}


# --- 3. others' verdicts hidden until the task is finished ------------------------------------------------

def test_an_annotator_sees_others_verdicts_and_notes_only_after_finishing_the_task(db):
    alice = review("alice")
    judge(alice, 3, note="alice's private note")
    bob = review("bob")
    judge(bob, 0)
    shown = texts(bob)
    assert not any("alice's private note" in t for t in shown)
    assert list(table_of(bob, "annotator", "verdict")["annotator"]) == ["bob"]
    assert table_of(bob, "annotator_a", "agreed") is None  # no agreement figures either
    assert any("stay hidden until you have judged all 3 pairs of it (you have judged 1)" in t
               and "1 judgement(s) of others on this corpus are hidden from you" in t for t in shown)

    # without a corpus loaded, the database's judgements: bob's own only
    listing = review("bob", corpus=None)
    assert list(table_of(listing, "annotator", "verdict")["annotator"]) == ["bob"]
    assert any("2 judgement(s) stored. 1 of them" in t for t in texts(listing))
    assert table_of(review("", corpus=None), "verdict") is None  # no name: nobody's verdicts

    for _ in range(2):  # bob finishes the task: pairs 2 and 3
        bob.button(key="review_next").click().run()
        judge(bob, 1)
    table = table_of(bob, "annotator", "verdict")
    assert sorted(zip(table["annotator"], table["pair_id"], table["verdict"])) == [
        ("alice", "doc00", "4"), ("bob", "doc00", "1"), ("bob", "doc01", "2"), ("bob", "doc02", "2")]
    assert "alice's private note" in set(table["note"])
    agreement = table_of(bob, "annotator_a", "agreed")
    assert agreement[["annotator_a", "annotator_b", "items", "agreed"]].values.tolist() == [["alice", "bob", 1, 0]]
    assert any("You have judged every pair of this task" in t for t in texts(bob))
    # alice has not finished: bob's verdicts stay hidden from her
    alice.run()
    assert list(table_of(alice, "annotator", "verdict")["annotator"]) == ["alice"]


def test_finishing_one_task_key_does_not_show_others_verdicts_on_another(db):
    alice = review("alice")
    judge(alice, 4)
    alice.selectbox(key="review_sys").set_value(CORPUS.system_names[1]).run()
    judge(alice, 4)
    bob = review("bob")
    for position in range(3):  # bob rates every pair of the first system only
        if position:
            bob.button(key="review_next").click().run()
        judge(bob, 2)
    table = table_of(bob, "annotator", "verdict")
    assert sorted(zip(table["annotator"], table["system_a"])) == [("alice", CORPUS.system_names[0])] + [
        ("bob", CORPUS.system_names[0])] * 3


def create_task(at: AppTest, name: str, question: str) -> None:
    """Create a rating task through the page's task editor and pick it."""
    at.session_state["review_task_editor_open"] = True
    at.run()
    at.text_input(key="review_edit_name").set_value(name).run()
    at.text_input(key="review_edit_question_new").set_value(question).run()
    at.button(key="review_edit_save").click().run()
    at.selectbox(key="review_task").set_value(name).run()


def test_the_owner_of_a_task_may_show_the_others_verdicts_early_and_only_the_owner(db):
    alice = review("alice")
    create_task(alice, "Fluency", "Does it read well?")
    judge(alice, 4, note="reads well")
    assert ReviewStore(db).task_options()["Fluency"] == rt.TaskOptions(owner="alice")

    bob = review("bob")
    bob.selectbox(key="review_task").set_value("Fluency").run()
    open_options(bob)
    assert bob.toggle(key="review_opt_visible|Fluency").disabled  # not his task
    assert any("Owner: **alice**: only they change these options." in t for t in texts(bob))
    judge(bob, 0)
    assert list(table_of(bob, "annotator", "verdict")["annotator"]) == ["bob"]

    open_options(alice)
    alice.toggle(key="review_opt_visible|Fluency").set_value(True).run()
    assert ReviewStore(db).task_options()["Fluency"].others_visible
    bob.run()
    assert sorted(table_of(bob, "annotator", "verdict")["annotator"]) == ["alice", "bob"]
    assert any("The task's owner lets every annotator see the others' verdicts" in t for t in texts(bob))
    # the task's definition is the owner's too
    bob.session_state["review_task_editor_open"] = True
    bob.session_state["review_edit_target"] = "Fluency"
    bob.run()
    assert any("This task belongs to **alice**: only they can change it." in t for t in texts(bob))
    assert not any(b.key == "review_edit_save" for b in bob.button)


# --- 4. ROUGE highlighting: off by default, a task option recorded with each verdict -----------------------

def highlight_marks(at: AppTest) -> int:
    return sum(h.proto.body.count("rl-matched") for h in at.get("html"))


def test_rouge_highlights_are_off_by_default_recorded_with_verdicts_and_named_on_which_rouge_agrees(db):
    alice = review("alice")
    assert highlight_marks(alice) == 0 and not any("marked" in t for t in texts(alice))
    judge(alice, 2)
    open_options(alice)
    alice.toggle(key="review_opt_highlights|Overall quality").set_value(True).run()  # alice claims the task
    assert ReviewStore(db).task_options()["Overall quality"] == rt.TaskOptions("alice", rouge_highlights=True)
    assert highlight_marks(alice) > 0
    assert any("your verdicts are recorded as made with them" in t for t in texts(alice))
    alice.button(key="review_next").click().run()
    judge(alice, 3)
    rows = {j.pair_id: j.rouge_highlights for j in ReviewStore(db).all()}
    assert rows == {"doc00": False, "doc01": True}
    bob = review("bob")  # the option is the task's: bob sees the marks too
    assert highlight_marks(bob) > 0

    meta = AppTest.from_file(str(ROOT / "pages" / "meta.py"), default_timeout=120)
    meta.session_state["corpus_data"] = CORPUS
    meta.run()
    assert not meta.exception
    assert any(plain(w.value).startswith("Judged with ROUGE highlights, so possibly primed: **Overall quality**: 1 of "
                                         "2 verdicts.") for w in meta.warning)


def test_a_database_of_the_previous_version_gets_the_task_options_off_and_its_verdicts_marked_primed(tmp_path,
                                                                                                       monkeypatch):
    from tests.app.test_review_store import second_version_database

    db = tmp_path / "v2.sqlite3"
    second_version_database(db, CORPUS, RATE_FIRST)
    monkeypatch.setenv("ROUGE_LENS_DB", str(db))
    at = review("alice")
    assert highlight_marks(at) == 0  # the old task: highlights off
    meta = AppTest.from_file(str(ROOT / "pages" / "meta.py"), default_timeout=120)
    meta.session_state["corpus_data"] = CORPUS
    meta.run()
    assert any(plain(w.value).startswith("Judged with ROUGE highlights, so possibly primed: **Overall quality**: all 1 "
                                         "verdicts.") for w in meta.warning)


# --- 5. nothing written before the first judgement -----------------------------------------------------

def test_opening_review_and_moving_around_stores_nothing_until_the_first_verdict(db):
    at = review("alice")
    at.button(key="review_next").click().run()
    at.selectbox(key="review_task").set_value(rt.DEFAULT_TASKS[1].name).run()  # a comparison: a blinding seed is used
    at.session_state["review_progress_open"] = True
    open_options(at)
    assert not at.exception
    assert counts(db) == {"judgements": 0, "corpora": 0, "annotators": 0}
    assert "corpus" not in at.query_params  # a link to a corpus not stored could not open it
    judge(at, 0)
    assert counts(db) == {"judgements": 1, "corpora": 1, "annotators": 1}
    assert at.query_params["corpus"] == CORPUS.fingerprint()
    reopened = ReviewStore(db).corpus(CORPUS.fingerprint())
    assert reopened == CORPUS
    stored = ReviewStore(db).all()[0]
    seed = ReviewStore(db).seed_of("alice")  # the order alice saw is the one her stored seed gives
    swapped = rt.shown_swapped(seed, CORPUS.fingerprint(), stored.task, stored.pair_id)
    assert stored.shown_first == rt.shown_order((stored.system_a, stored.system_b), swapped)[0]


def test_picking_corpus_columns_on_which_rouge_agrees_stores_no_corpus(db):
    at = AppTest.from_file(str(ROOT / "pages" / "meta.py"), default_timeout=120)
    at.run()
    at.file_uploader(key="meta_file").set_value(("small.csv", CSV.encode(), "text/csv")).run()
    names = [f"candidate_{n}" for n in ("alpha", "beta", "gamma")]
    for chosen in (names[:1], names[:2], names):
        at.multiselect(key="meta_map_cand_small.csv").set_value(chosen).run()
        assert not at.exception, at.exception
        assert at.session_state["corpus_data"].system_names == chosen
    assert counts(db)["corpora"] == 0 and "corpus" not in at.query_params
    alice = review("alice", corpus=at.session_state["corpus_data"])
    judge(alice, 4)
    assert counts(db)["corpora"] == 1
    at.run()
    assert at.query_params["corpus"] == CORPUS.fingerprint()


# --- 5. where the database is ----------------------------------------------------------------------------

def where(at: AppTest) -> str:
    return next(t for t in texts(at) if t.startswith("Nothing is stored until your first verdict or note."))


def test_the_default_database_is_in_the_platform_data_directory_and_the_page_says_so_without_the_path(tmp_path,
                                                                                                      monkeypatch):
    monkeypatch.delenv("ROUGE_LENS_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = Path(platformdirs.user_data_dir("rouge-lens", appauthor=False)) / "judgements.sqlite3"
    assert str(expected).startswith(str(tmp_path))
    at = review("alice")
    judge(at, 1)
    assert counts(expected)["judgements"] == 1
    assert not (tmp_path / "home" / ".rouge_lens").exists()
    said = where(at)
    assert "in this server's data directory for ROUGE Lens (the default" in said
    assert not any(str(tmp_path) in t or "sqlite3" in t for t in texts(at))


def test_the_environment_and_secrets_choose_the_database_and_the_page_names_which(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("ROUGE_LENS_DB", str(tmp_path / "env.sqlite3"))
    at = review("alice", secrets={"judgements_db": str(tmp_path / "secret.sqlite3")})
    judge(at, 1)
    assert "set by the environment variable `ROUGE_LENS_DB`" in where(at)
    assert counts(tmp_path / "env.sqlite3")["judgements"] == 1 and not (tmp_path / "secret.sqlite3").exists()
    monkeypatch.delenv("ROUGE_LENS_DB")
    at = review("alice", secrets={"judgements_db": str(tmp_path / "secret.sqlite3")})
    judge(at, 1)
    assert "set by `judgements_db` in this server's `.streamlit/secrets.toml`" in where(at)
    assert counts(tmp_path / "secret.sqlite3")["judgements"] == 1
    assert not (tmp_path / "data").exists()


def test_a_database_of_earlier_versions_in_the_home_directory_stays_in_use(tmp_path, monkeypatch):
    monkeypatch.delenv("ROUGE_LENS_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    earlier = tmp_path / "home" / ".rouge_lens" / "judgements.sqlite3"
    ReviewStore(earlier).save(CORPUS.fingerprint(), RATE_FIRST, "doc00", "alice", "5", corpus_data=CORPUS)
    at = review("alice", corpus=None)
    assert list(table_of(at, "annotator", "verdict")["verdict"]) == ["5"]
    assert "earlier versions of ROUGE Lens made in the server account's home directory" in where(at)
    assert not (tmp_path / "data").exists()


# --- the next unjudged pair after a verdict: a per-annotator preference ----------------------------------------

def progress(at: AppTest) -> str:
    return plain(at.get("progress")[0].proto.text)


def test_a_verdict_goes_on_to_the_next_unjudged_pair_when_the_annotator_prefers_it(db):
    alice = review("alice")
    assert alice.toggle(key="review_advance|alice").value is False  # the default: stay on the pair
    judge(alice, 1)
    assert progress(alice).startswith("Pair 1 of 3")
    alice.toggle(key="review_advance|alice").set_value(True).run()
    assert ReviewStore(db).preference("alice", "advance") is True
    alice.number_input(key="review_goto").set_value(2).run()
    judge(alice, 2)  # pair 2, then on to pair 3
    assert progress(alice).startswith("Pair 3 of 3: id doc02 · alice has judged 2 of 3")
    assert any(plain(s.value).startswith("Saved pair doc01: 3") for s in alice.success)
    judge(alice, 3)  # pair 3: every pair is judged now, so it stays
    assert progress(alice).startswith("Pair 3 of 3: id doc02 · alice has judged 3 of 3")
    assert any("Every pair has your verdict on this task." in plain(i.value) for i in alice.info)

    again = review("alice")  # the preference is alice's, kept in the database
    assert again.toggle(key="review_advance|alice").value is True
    bob = review("bob")
    assert bob.toggle(key="review_advance|bob").value is False
    judge(bob, 0)
    assert progress(bob).startswith("Pair 1 of 3")
    bob.button(key="review_next").click().run()
    bob.toggle(key="review_advance|bob").set_value(True).run()
    bob.number_input(key="review_goto").set_value(3).run()
    judge(bob, 0)  # from pair 3 on to the first pair bob has not judged: pair 2 (wrapping around)
    assert progress(bob).startswith("Pair 2 of 3: id doc01 · bob has judged 2 of 3")
