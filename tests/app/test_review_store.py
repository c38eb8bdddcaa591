"""The judgements database (migration from the first schema, tasks, corpora, seeds) and the
Review page's logic (task keys, blinding, verdicts as human scores, agreement)."""

import sqlite3
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app import review_tasks as rt  # noqa: E402
from lens_app.review_store import MIGRATIONS, SCHEMA_VERSION, Location, ReviewStore  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from rouge_core.studies.agreement import agreement_rows, cohen_kappa  # noqa: E402

# The judgements table exactly as the first version created it (and people's files hold it).
FIRST_SCHEMA = """
CREATE TABLE IF NOT EXISTS judgements (
    corpus TEXT NOT NULL,
    task TEXT NOT NULL,
    pair_id TEXT NOT NULL,
    annotator TEXT NOT NULL,
    verdict TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,
    corpus_name TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (corpus, task, pair_id, annotator)
)
"""
FIRST_ROWS = [
    ("c1", "rating:sys|A|scale:1–5", "p1", "alice", "4", "good", "2024-05-01T10:00:00.000+00:00", "old.csv"),
    ("c1", "compare:sys|A|B|scale:A b", "p1", "alice", "B better", "", "2024-05-01T10:01:00.000+00:00", "old.csv"),
    ("c1", "compare:sys|A|B|scale:A b", "p1", "bob", "tie", "", "2024-05-01T10:02:00.000+00:00", "old.csv"),
    ("c1", "rating:B|scale:A b", "p2", "bob", "A better", "", "2024-05-01T10:03:00.000+00:00", "old.csv"),
]


def first_version_database(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(FIRST_SCHEMA)
        conn.executemany("INSERT INTO judgements VALUES (?, ?, ?, ?, ?, ?, ?, ?)", FIRST_ROWS)


# What version 2 (the schema before task options) added, exactly as it created it.
SECOND_SCHEMA = [
    "ALTER TABLE judgements ADD COLUMN task_name TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE judgements ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE judgements ADD COLUMN system_a TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE judgements ADD COLUMN system_b TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE judgements ADD COLUMN shown_first TEXT NOT NULL DEFAULT ''",
    "CREATE TABLE IF NOT EXISTS tasks (name TEXT PRIMARY KEY, definition TEXT NOT NULL, updated_at TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS corpora (fingerprint TEXT PRIMARY KEY, name TEXT NOT NULL, pairs INTEGER NOT NULL,
       systems TEXT NOT NULL, data TEXT NOT NULL, stored_at TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS annotators (name TEXT PRIMARY KEY, seed INTEGER NOT NULL, created_at TEXT NOT NULL)",
    "PRAGMA user_version = 2",
]


def second_version_database(path: Path, corpus, key: str) -> None:
    """A version-2 database: the default tasks and a task of its user, `corpus` stored, one
    rating of its first pair under the task key `key` by alice."""
    import json

    with sqlite3.connect(path) as conn:
        conn.execute(FIRST_SCHEMA)
        for statement in SECOND_SCHEMA:
            conn.execute(statement)
        for task in (*rt.DEFAULT_TASKS, rt.Task("Fluency", "rating", "Fluent?", ("no", "yes"))):
            conn.execute("INSERT INTO tasks VALUES (?, ?, '2025-01-01T00:00:00.000+00:00')", (task.name, task.to_json()))
        data = json.dumps({"ids": corpus.ids, "systems": corpus.systems, "references": corpus.references})
        conn.execute("INSERT INTO corpora VALUES (?, ?, ?, ?, ?, '2025-01-01')", (
            corpus.fingerprint(), corpus.source, len(corpus), json.dumps(corpus.system_names), data))
        ref = rt.parse_task_key(key)
        conn.execute("INSERT INTO judgements VALUES (?, ?, ?, 'alice', '4', 'old note', '2025-01-02T00:00:00.000+00:00',"
                     " ?, ?, 'rating', ?, '', '')", (corpus.fingerprint(), key, corpus.ids[0], corpus.source,
                                                     ref.name, ref.systems[0]))


def test_a_second_version_database_gets_task_options_off_and_its_verdicts_marked_as_highlighted(tmp_path):
    csv = "id,candidate_A,candidate_B,reference\n1,a cat,the cat,the cat sat\n2,dogs,a dog,one dog\n"
    corpus = corpus_io.build_corpus(corpus_io.read_csv(csv.encode(), "c.csv"))
    key = rt.task_key(rt.DEFAULT_TASKS[0], ["candidate_A"])
    db = tmp_path / "v2.sqlite3"
    second_version_database(db, corpus, key)
    store = ReviewStore(db)
    options = store.task_options()
    assert options == {name: rt.TaskOptions() for name in ("Overall quality", "Which summary is better?", "Fluency")}
    (old,) = store.all()
    assert (old.verdict, old.note, old.rouge_highlights) == ("4", "old note", True)  # judged with the ROUGE-1 marks
    assert store.corpus(corpus.fingerprint()) == corpus and store.preference("alice", "advance") is False
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        task_columns = [r[1] for r in conn.execute("PRAGMA table_info(tasks)")]
    assert task_columns == ["name", "definition", "updated_at", "owner", "rouge_highlights", "others_visible", "position"]
    # New verdicts say what they were made with; reopening, and running every migration again, change nothing.
    store.save(corpus.fingerprint(), key, "2", "alice", "3")
    with sa.create_engine(f"sqlite:///{db}").begin() as conn:
        for migration in MIGRATIONS:
            migration(conn)
    again = ReviewStore(db)
    assert [(j.pair_id, j.rouge_highlights) for j in again.all()] == [("1", True), ("2", False)]
    assert again.task_options() == options and len(again.tasks()) == 3


def test_task_options_belong_to_the_owner(tmp_path):
    store = ReviewStore(tmp_path / "j.sqlite3")
    fluency = rt.Task("Fluency", "rating", "Fluent?", ("no", "yes"))
    store.save_task(fluency, owner="alice")
    with pytest.raises(PermissionError, match="only the task's owner, alice, can change its options"):
        store.set_task_options("Fluency", "bob", rouge_highlights=True, others_visible=False)
    assert store.set_task_options("Fluency", " alice ", rouge_highlights=True, others_visible=True) == rt.TaskOptions(
        "alice", True, True)
    store.save_task(rt.Task("Fluency", "rating", "Does it read well?", ("no", "yes")), owner="bob")  # an edit
    assert store.task_options()["Fluency"] == rt.TaskOptions("alice", True, True)  # keeps its owner and options
    with pytest.raises(PermissionError, match="enter an annotator name"):
        store.set_task_options("Overall quality", "  ", rouge_highlights=True, others_visible=False)
    # a task without an owner becomes the first setter's
    store.set_task_options("Overall quality", "bob", rouge_highlights=False, others_visible=True)
    assert store.task_options()["Overall quality"] == rt.TaskOptions("bob", False, True)
    with pytest.raises(PermissionError):
        store.set_task_options("Overall quality", "alice", rouge_highlights=True, others_visible=True)
    with pytest.raises(KeyError):
        store.set_task_options("No such task", "alice", rouge_highlights=True, others_visible=True)


def test_a_corpus_and_a_seed_are_stored_with_the_first_judgement_only(tmp_path):
    csv = "id,candidate_A,reference\n1,a cat,the cat sat\n2,dogs,one dog\n"
    corpus = corpus_io.build_corpus(corpus_io.read_csv(csv.encode(), "c.csv"))
    store = ReviewStore(tmp_path / "j.sqlite3")
    assert store.corpora() == [] and store.seed_of("alice") is None and not store.has_corpus(corpus.fingerprint())
    with pytest.raises(ValueError, match="must be the one it judges"):
        store.save("0123456789abcdef", "k", "1", "alice", "3", corpus_data=corpus, seed=7)
    assert store.corpora() == [] and store.seed_of("alice") is None and store.count() == 0
    store.save(corpus.fingerprint(), "k", "1", "alice", "3", corpus_data=corpus, seed=7)
    store.save(corpus.fingerprint(), "k", "2", "alice", "4", corpus_data=corpus, seed=8)
    assert [c["judgements"] for c in store.corpora()] == [2] and store.seed_of("alice") == 7
    assert store.corpus_ids(corpus.fingerprint()) == ("1", "2") and store.corpus_ids("0123456789abcdef") is None


def test_preferences_are_kept_per_annotator(tmp_path):
    store = ReviewStore(tmp_path / "j.sqlite3")
    assert store.preference("alice", "advance") is False
    store.set_preference(" alice ", "advance", True)
    assert ReviewStore(tmp_path / "j.sqlite3").preference("alice", "advance") is True
    assert store.preference("bob", "advance") is False
    with pytest.raises(KeyError):
        store.set_preference("alice", "colour", "red")
    with pytest.raises(ValueError):
        store.set_preference(" ", "advance", True)


def test_the_default_location_and_what_chose_it(tmp_path, monkeypatch):
    import platformdirs

    from lens_app.review_store import configured_location

    monkeypatch.delenv("ROUGE_LENS_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    default = Path(platformdirs.user_data_dir("rouge-lens", appauthor=False)) / "judgements.sqlite3"
    assert configured_location() == Location(default, "data directory")
    earlier = tmp_path / "home" / ".rouge_lens" / "judgements.sqlite3"
    ReviewStore(earlier)
    assert configured_location() == Location(earlier, "earlier default")  # still used while the new one is missing
    ReviewStore(default)
    assert configured_location() == Location(default, "data directory")
    assert configured_location({"judgements_db": "~/s.sqlite3"}) == Location(tmp_path / "home" / "s.sqlite3", "secrets")
    monkeypatch.setenv("ROUGE_LENS_DB", str(tmp_path / "e.sqlite3"))
    assert configured_location({"judgements_db": "s.sqlite3"}) == Location(tmp_path / "e.sqlite3", "environment")


# --- who sees what ------------------------------------------------------------------------------------

def test_the_visibility_rule():
    key, other_key = rt.task_key(rt.DEFAULT_TASKS[0], ["A"]), rt.task_key(rt.DEFAULT_TASKS[0], ["B"])
    J = rt.StoredJudgement
    rows = [J(key, "p1", "alice", "4"), J(key, "p2", "alice", ""), J(key, "p1", "bob", "2"),
            J(other_key, "p1", "alice", "5"), J(other_key, "p1", "bob", "1")]
    ids = ["p1", "p2"]
    hidden = {}

    def seen(viewer, options=hidden, pair_ids=ids):
        return sorted((r.task == key, r.pair_id, r.annotator) for r in rt.visible_judgements(viewer, rows, options,
                                                                                              pair_ids))

    assert seen("bob") == [(False, "p1", "bob"), (True, "p1", "bob")]
    assert seen(" alice ") == [(False, "p1", "alice"), (True, "p1", "alice"), (True, "p2", "alice")]
    assert seen("") == [] and seen("carol") == []
    rows.append(J(key, "p2", "bob", "3"))  # bob finishes `key` (alice's p2 row has a note, no verdict)
    assert seen("bob") == [(False, "p1", "bob"), (True, "p1", "alice"), (True, "p1", "bob"), (True, "p2", "alice"),
                           (True, "p2", "bob")]
    assert seen("bob", pair_ids=None) == [(False, "p1", "bob"), (True, "p1", "bob"), (True, "p2", "bob")]
    shown = {"Overall quality": rt.TaskOptions("alice", others_visible=True)}
    assert len(seen("carol", shown)) == len(rows)
    assert rt.finished(["a", "b"], ["b", "a", "c"]) and not rt.finished([], []) and not rt.finished(["a"], ["b"])
    assert rt.may_change_options("bob", rt.TaskOptions()) and not rt.may_change_options("", rt.TaskOptions())
    assert rt.may_change_options("alice", rt.TaskOptions("alice")) and not rt.may_change_options("bob",
                                                                                                 rt.TaskOptions("alice"))


def test_a_first_version_database_is_migrated_in_place_and_keeps_every_row(tmp_path):
    db = tmp_path / "old.sqlite3"
    first_version_database(db)
    store = ReviewStore(db)
    rows = store.all()
    assert [(j.corpus, j.task, j.pair_id, j.annotator, j.verdict, j.note, j.updated_at, j.corpus_name)
            for j in rows] == sorted(FIRST_ROWS, key=lambda r: (r[0], r[1], r[2], r[3]))
    assert all(j.task_name == j.kind == j.system_a == j.shown_first == "" for j in rows)
    assert all(j.rouge_highlights for j in rows)  # every earlier version marked the ROUGE-1 matches
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        columns = [r[1] for r in conn.execute("PRAGMA table_info(judgements)")]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert columns[:8] == ["corpus", "task", "pair_id", "annotator", "verdict", "note", "updated_at", "corpus_name"]
    assert columns[8:] == ["task_name", "kind", "system_a", "system_b", "shown_first", "rouge_highlights", "issuer",
                           "subject"]
    assert {"tasks", "corpora", "annotators", "preferences", "accounts"} <= tables
    assert [t.name for t in store.tasks()] == [t.name for t in rt.DEFAULT_TASKS]
    # Old rows keep working next to new ones, and opening again changes nothing.
    store.save("c1", "rating:sys|A|scale:1–5", "p1", "alice", "5", "better now")
    again = ReviewStore(db)
    assert len(again.all()) == 4 and again.get("c1", "rating:sys|A|scale:1–5", "p1", "alice").verdict == "5"


def open_at_once(database, stores: int) -> list[Exception]:
    """Open the database from `stores` threads at once (as servers starting together); the errors."""
    import threading

    errors = []

    def open_store():
        try:
            ReviewStore(database)
        except Exception as exc:  # noqa: BLE001 - returned to the test, which asserts on it
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_two_stores_opening_an_old_file_at_once_migrate_it_once(tmp_path):
    db = tmp_path / "old.sqlite3"
    first_version_database(db)
    assert not open_at_once(db, 4) and len(ReviewStore(db).all()) == 4


def test_new_judgements_carry_their_task_parts(tmp_path):
    store = ReviewStore(tmp_path / "j.sqlite3")
    task = rt.DEFAULT_TASKS[1]
    key = rt.task_key(task, ("zeta", "alpha"))
    assert key == '["compare", "Which summary is better?", "alpha", "zeta"]'
    saved = store.save("c", key, "p1", " ann ", "A better", task_name=task.name, kind="compare", system_a="alpha",
                       system_b="zeta", shown_first="zeta")
    assert saved.annotator == "ann" and store.get("c", key, "p1", "ann") == saved
    frame = store.frame("c")
    assert list(frame.columns[-8:]) == ["task_name", "kind", "system_a", "system_b", "shown_first", "rouge_highlights",
                                        "issuer", "subject"]
    assert not saved.rouge_highlights and not frame.iloc[0]["rouge_highlights"]
    assert frame.iloc[0]["shown_first"] == "zeta" and store.task_in_use(task.name)
    with pytest.raises(ValueError, match="annotator name"):
        store.save("c", key, "p1", "  ", "tie")


def test_tasks_are_stored_and_edited(tmp_path):
    store = ReviewStore(tmp_path / "j.sqlite3")
    coherence = rt.Task("Coherence", "rating", "Is it well structured?", ("incoherent", "so-so", "coherent"))
    store.save_task(coherence)
    store.save_task(rt.Task("Coherence", "rating", "Is the summary well structured?", coherence.anchors))
    tasks = {t.name: t for t in ReviewStore(tmp_path / "j.sqlite3").tasks()}
    assert tasks["Coherence"].question == "Is the summary well structured?" and tasks["Coherence"].values == ("1", "2", "3")
    with pytest.raises(ValueError, match="a comparison scale has 3 or 5 points; every point needs an anchor text"):
        store.save_task(rt.Task("Pairs", "compare", "Which?", ("a", "", "c", "d")))
    assert rt.Task("", "rating", "", ("x",)).problems() == ["a task needs a name", "a rating scale has 2 to 10 points",
                                                            "a task needs a question"]


def test_corpora_are_stored_by_fingerprint_and_reopened(tmp_path):
    csv = "id,candidate_A,candidate_B,reference\n1,a cat,the cat,the cat sat\n2,dogs,a dog,one dog\n"
    corpus = corpus_io.build_corpus(corpus_io.read_csv(csv.encode(), "c.csv"))
    corpus = corpus_io.Corpus(corpus.ids, corpus.systems, corpus.references, source="c.csv")
    store = ReviewStore(tmp_path / "j.sqlite3")
    fingerprint = store.save_corpus(corpus)
    assert store.save_corpus(corpus) == fingerprint == corpus.fingerprint()
    reopened = ReviewStore(tmp_path / "j.sqlite3").corpus(fingerprint)
    assert reopened == corpus
    store.save(fingerprint, "k", "1", "ann", "3")
    (listed,) = store.corpora()
    assert listed["name"] == "c.csv" and listed["pairs"] == 2 and listed["judgements"] == 1
    assert listed["systems"] == "candidate_A, candidate_B"
    assert store.corpus("0123456789abcdef") is None
    with sqlite3.connect(tmp_path / "j.sqlite3") as conn:  # tampered data no longer matches its fingerprint
        conn.execute("UPDATE corpora SET data = replace(data, 'cat', 'dog')")
    assert store.corpus(fingerprint) is None


def test_an_annotator_keeps_one_seed(tmp_path):
    store = ReviewStore(tmp_path / "j.sqlite3")
    seed = store.annotator_seed("alice")
    assert ReviewStore(tmp_path / "j.sqlite3").annotator_seed(" alice ") == seed
    assert store.annotator_seed("bob") != seed  # 62 random bits each


# --- blinding ---------------------------------------------------------------------------------------

def test_the_side_shuffle_is_reproducible_per_annotator_and_the_verdict_is_stored_unshuffled():
    task = rt.DEFAULT_TASKS[1]
    key = rt.task_key(task, ("B", "A"))
    pairs = [f"p{i}" for i in range(40)]
    alice = [rt.shown_swapped(12345, "corpus", key, p) for p in pairs]
    assert alice == [rt.shown_swapped(12345, "corpus", key, p) for p in pairs]  # the same order on every visit
    assert 5 < sum(alice) < 35  # both orders occur
    assert alice != [rt.shown_swapped(999, "corpus", key, p) for p in pairs]  # another annotator, another order
    for swapped in (False, True):
        first, second = rt.shown_order(("A", "B"), swapped)
        assert (first, second) == (("B", "A") if swapped else ("A", "B"))
        # "the first summary shown is better" names whichever system was shown first
        verdict = rt.stored_verdict(task, 0, swapped)
        assert verdict == f"{first} better"
        assert rt.verdict_scores(rt.parse_task_key(key), verdict) == {first: 1.0, second: 0.0}
        assert rt.stored_verdict(task, 1, swapped) == "tie"
        assert rt.shown_index(task, verdict, swapped) == 0
    five = rt.Task("Five", "compare", "Which?", rt.default_anchors("compare", 5))
    assert rt.stored_verdict(five, 1, True) == "B slightly better" and rt.stored_verdict(five, 4, True) == "A much better"
    assert rt.shown_index(five, "A much better", True) == 4 and rt.shown_index(five, "1", True) is None
    rating = rt.DEFAULT_TASKS[0]
    assert rt.stored_verdict(rating, 3, True) == "4"  # a rating has no sides


# --- task keys and human scores ------------------------------------------------------------------

def test_legacy_task_keys_are_read_with_whole_scale_names():
    systems = ["sys|A", "B"]
    assert rt.parse_task_key("compare:sys|A|B|scale:A b", systems) == rt.TaskRef(
        "compare", "A better / B better / tie", ("sys|A", "B"), "A better / B better / tie")
    assert rt.parse_task_key("compare:sys|A|B|scale:A b").systems == ("sys", "A|B")  # unknown names: first split
    rating = rt.parse_task_key("rating:sys|A|scale:1–5", systems)
    assert (rating.kind, rating.name, rating.systems, rating.aspect) == ("rating", "1–5 rating", ("sys|A",), "1–5 rating")
    assert rt.parse_task_key("rating:B|scale:A b").aspect == "A better / B better / tie (against the reference)"
    assert rt.parse_task_key("compare:A|B|scale:1–5").aspect == "1–5 rating (how much better A is than B)"
    new = rt.parse_task_key(rt.task_key(rt.DEFAULT_TASKS[0], ["sys|A"]))
    assert (new.kind, new.name, new.systems, new.legacy_scale) == ("rating", "Overall quality", ("sys|A",), "")


def test_verdicts_become_human_scores():
    legacy_compare = rt.parse_task_key("compare:A|B|scale:A b")
    assert rt.verdict_scores(legacy_compare, "B better") == {"A": 0.0, "B": 1.0}
    assert rt.verdict_scores(legacy_compare, "tie") == {"A": 0.5, "B": 0.5}
    assert rt.verdict_scores(rt.parse_task_key("compare:A|B|scale:1–5"), "4") == {"A": 0.75, "B": 0.25}
    assert rt.verdict_scores(rt.parse_task_key("rating:A|scale:A b"), "A better") == {"A": 1.0}
    five = rt.task_key(rt.Task("Five", "compare", "?", rt.default_anchors("compare", 5)), ["A", "B"])
    assert rt.verdict_scores(rt.parse_task_key(five), "B slightly better") == {"A": 0.25, "B": 0.75}
    assert rt.verdict_scores(rt.parse_task_key("rating:A|scale:1–5"), "") == {}
    rows = [rt.StoredJudgement(rt.task_key(rt.DEFAULT_TASKS[1], ["A", "B"]), "p1", "ann", "A better"),
            rt.StoredJudgement(rt.task_key(rt.DEFAULT_TASKS[1], ["A", "C"]), "p1", "ann", "tie"),
            rt.StoredJudgement(rt.task_key(rt.DEFAULT_TASKS[0], ["A"]), "p1", "ann", "4"),
            rt.StoredJudgement(rt.task_key(rt.DEFAULT_TASKS[0], ["A"]), "p1", "bob", "2")]
    judgements = rt.human_judgements(rows)
    assert judgements.aspects() == ["Overall quality", "Which summary is better?"]
    assert judgements.scores("Which summary is better?") == {("A", "p1"): 0.75, ("B", "p1"): 0.0, ("C", "p1"): 0.5}
    assert judgements.scores("Overall quality") == {("A", "p1"): 3.0}


def test_next_unjudged_and_progress():
    ids = ["a", "b", "c", "d"]
    assert rt.next_unjudged(ids, {"b", "c"}, 0) == 3
    assert rt.next_unjudged(ids, {"a", "d"}, 3) == 1  # wraps around
    assert rt.next_unjudged(ids, set(ids), 1) is None
    assert rt.progress_rows({"bob": ["a"], "alice": ["a", "b", "b"]}, 4) == [
        {"annotator": "alice", "judged": 2, "pairs": 4, "done": 0.5},
        {"annotator": "bob", "judged": 1, "pairs": 4, "done": 0.25}]


def test_agreement_rows_join_annotators_on_shared_items():
    labels = [("alice", "p1", "1"), ("alice", "p2", "5"), ("alice", "p3", "3"),
              ("bob", "p1", "2"), ("bob", "p2", "5"), ("bob", "p4", "1")]
    (row,) = agreement_rows(labels, ordered=list("12345"))
    assert (row["annotator_a"], row["annotator_b"], row["items"], row["agreed"]) == ("alice", "bob", 2, 1)
    assert row["observed"] == 0.5
    assert row["cohen_kappa"] == cohen_kappa(["1", "5"], ["2", "5"])
    assert row["kappa_quadratic"] == cohen_kappa(["1", "5"], ["2", "5"], weights="quadratic", categories="12345")
    assert "kappa_quadratic" not in agreement_rows(labels)[0]
    with pytest.raises(ValueError, match="labelled item 'p1' twice"):
        agreement_rows([("alice", "p1", "1"), ("alice", "p1", "2")])


def test_the_export_carries_each_rows_own_task_with_whole_scale_names(tmp_path):
    db = tmp_path / "old.sqlite3"
    first_version_database(db)
    store = ReviewStore(db)
    key = rt.task_key(rt.DEFAULT_TASKS[0], ["B"])
    store.save("c1", key, "p3", "alice", "2", task_name="Overall quality", kind="rating", system_a="B")
    table = rt.export_frame(store.frame("c1"), ["sys|A", "B"])
    by_task = {row["task"]: row for _, row in table.iterrows()}
    assert by_task["compare:sys|A|B|scale:A b"][["task_name", "kind", "system_a", "system_b"]].tolist() == [
        "A better / B better / tie", "compare", "sys|A", "B"]
    assert by_task["rating:sys|A|scale:1–5"][["task_name", "kind", "system_a"]].tolist() == ["1–5 rating", "rating",
                                                                                              "sys|A"]
    assert by_task["rating:B|scale:A b"]["task_name"] == "A better / B better / tie (against the reference)"
    assert by_task[key]["task_name"] == "Overall quality"


def test_verdicts_in_words_name_the_systems():
    ref = rt.parse_task_key(rt.task_key(rt.DEFAULT_TASKS[1], ["zeta", "alpha"]))
    assert rt.verdict_text(ref, "B better") == "zeta better" and rt.verdict_text(ref, "A much better") == "alpha much better"
    assert rt.verdict_text(ref, "tie") == "tie"
    assert rt.verdict_text(rt.parse_task_key(rt.task_key(rt.DEFAULT_TASKS[0], ["A"])), "4") == "4"
