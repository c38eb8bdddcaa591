"""The judgements store on both databases it serves, SQLite and PostgreSQL (issue 31, item 2):
the same behaviour through one code path, migrations numbered and applied at start-up (once,
when several servers open a new database at once), where ROUGE_LENS_DB points (a path or a
URL) and roles in the visibility rule. PostgreSQL tests need the server .ci/services.sh starts
(tests/services.py)."""

import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app import review_tasks as rt  # noqa: E402
from lens_app.review_store import (SCHEMA_VERSION, Account, Location, ReviewStore, StoreError,  # noqa: E402
                                   configured_location, location_of)
from rouge_core.corpora import corpus_io  # noqa: E402
from tests.app.test_review_store import open_at_once  # noqa: E402
from tests.services import fresh_postgres_database  # noqa: E402

CSV = "id,candidate_A,candidate_B,reference\n1,a cat,the cat,the cat sat\n2,dogs,a dog,one dog\n"
CORPUS = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode(), "c.csv"))
RATE_A = rt.task_key(rt.DEFAULT_TASKS[0], ["candidate_A"])
ISSUER = "https://id.example.org"


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """The address of an empty database of each kind: a SQLite file, a PostgreSQL URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "j.sqlite3")
    else:
        with fresh_postgres_database() as url:
            yield url


def test_a_new_database_gets_the_latest_schema_and_the_built_in_tasks(database):
    store = ReviewStore(database)
    assert store.schema_version() == SCHEMA_VERSION == 4
    assert store.kind == ("sqlite" if database.endswith(".sqlite3") else "postgresql")
    assert [t.name for t in store.tasks()] == [t.name for t in rt.DEFAULT_TASKS]
    assert store.count() == 0 and store.corpora() == [] and store.accounts() == {}
    again = ReviewStore(database)  # opening again migrates nothing and writes nothing
    assert again.schema_version() == 4 and len(again.tasks()) == 2


def test_judgements_corpora_seeds_and_preferences_behave_alike(database):
    store = ReviewStore(database)
    fingerprint = CORPUS.fingerprint()
    big_seed = 2 ** 62 - 1  # a seed has 62 bits: more than PostgreSQL's INTEGER holds
    store.save(fingerprint, RATE_A, "1", " alice ", "4", "fine", "c.csv", task_name="Overall quality", kind="rating",
               system_a="candidate_A", corpus_data=CORPUS, seed=big_seed)
    store.save(fingerprint, RATE_A, "2", "alice", "2", corpus_data=CORPUS, seed=7)  # neither stored again
    store.save(fingerprint, RATE_A, "1", "bob", "3", "ünïcødé ✓ 'quoted' \"twice\"", rouge_highlights=True)
    store.save(fingerprint, RATE_A, "1", "alice", "5", "better now", task_name="Overall quality")  # the last wins
    rows = store.all(fingerprint)
    assert [(r.pair_id, r.annotator, r.verdict, r.note) for r in rows] == [
        ("1", "alice", "5", "better now"), ("1", "bob", "3", "ünïcødé ✓ 'quoted' \"twice\""), ("2", "alice", "2", "")]
    assert [r.rouge_highlights for r in rows] == [False, True, False]
    assert store.get(fingerprint, RATE_A, "1", "bob").note.startswith("ünïcødé")
    assert store.count() == 3 and store.count(fingerprint) == 3 and store.count("0" * 16) == 0
    assert store.seed_of("alice") == big_seed and store.annotator_seed("alice", 5) == big_seed
    assert store.corpus(fingerprint) == CORPUS and store.corpus_ids(fingerprint) == ("1", "2")
    (listed,) = store.corpora()
    assert (listed["name"], listed["pairs"], listed["judgements"], listed["systems"]) == (
        CORPUS.source, 2, 3, "candidate_A, candidate_B")
    store.set_preference("alice", "advance", True)
    store.set_preference("alice", "advance", False)
    store.set_preference("bob", "advance", True)
    assert (store.preference("alice", "advance"), store.preference("bob", "advance")) == (False, True)
    assert store.task_in_use("Overall quality") and not store.task_in_use("Which summary is better?")
    with pytest.raises(ValueError, match="must be the one it judges"):
        store.save("0123456789abcdef", RATE_A, "1", "carol", "3", corpus_data=CORPUS)
    assert store.count() == 3 and store.seed_of("carol") is None


def test_tasks_keep_their_order_and_owner_on_both(database):
    store = ReviewStore(database)
    for name in ("Fluency", "Coherence", "Accuracy"):
        store.save_task(rt.Task(name, "rating", f"{name}?", ("no", "yes")), owner="alice")
    store.save_task(rt.Task("Fluency", "rating", "Does it read well?", ("no", "yes")), owner="bob")  # an edit
    tasks = store.tasks()
    assert [t.name for t in tasks] == ["Overall quality", "Which summary is better?", "Fluency", "Coherence", "Accuracy"]
    assert tasks[2].question == "Does it read well?" and store.task_options()["Fluency"].owner == "alice"
    with pytest.raises(PermissionError, match="only the task's owner, alice"):
        store.set_task_options("Fluency", "bob", rouge_highlights=True, others_visible=False)
    assert store.set_task_options("Fluency", "alice", rouge_highlights=True, others_visible=True) == rt.TaskOptions(
        "alice", True, True)


def test_roles_decide_who_sees_what_and_who_sets_tasks(database):
    store = ReviewStore(database)
    alice, bob, olga = (Account(ISSUER, s, n, f"{s}@example.org") for s, n in
                        (("s-alice", "Alice"), ("s-bob", "Bob"), ("s-olga", "Olga")))
    fingerprint = CORPUS.fingerprint()
    store.save(fingerprint, RATE_A, "1", alice.key, "4", "alice's note", corpus_data=CORPUS, seed=1, account=alice)
    store.save(fingerprint, RATE_A, "1", bob.key, "2", account=bob)
    store.save(fingerprint, RATE_A, "2", bob.key, "3", account=bob)  # bob has finished the task
    seen = {name: sorted((r.annotator, r.pair_id) for r in store.visible_to(a.key, fingerprint, CORPUS.ids, role))
            for name, a, role in (("alice", alice, rt.ANNOTATOR), ("bob", bob, rt.ANNOTATOR),
                                  ("olga", olga, rt.OWNER))}
    assert seen["alice"] == [(alice.key, "1")]
    assert seen["bob"] == [(bob.key, "1"), (bob.key, "2")]  # finishing shows an annotator nobody else's
    assert seen["olga"] == sorted([(alice.key, "1"), (bob.key, "1"), (bob.key, "2")])
    assert sorted(r.annotator for r in store.visible_to(bob.key, role=rt.SINGLE_USER)) == [alice.key, bob.key, bob.key]
    row = store.get(fingerprint, RATE_A, "1", alice.key)
    assert (row.issuer, row.subject) == (ISSUER, "s-alice")  # each verdict records the provider's subject
    assert store.accounts() == {alice.key: alice, bob.key: bob}  # stored with their judgements only
    with pytest.raises(ValueError, match="under the account that made it"):
        store.save(fingerprint, RATE_A, "1", alice.key, "1", account=bob)
    # tasks: only task owners create and set them, each their own
    with pytest.raises(PermissionError, match="only a task owner"):
        store.save_task(rt.Task("Mine", "rating", "?", ("a", "b")), owner=alice.key, role=rt.ANNOTATOR, account=alice)
    with pytest.raises(PermissionError, match="only a task owner"):
        store.set_task_options("Overall quality", alice.key, rouge_highlights=True, others_visible=False,
                               role=rt.ANNOTATOR)
    store.save_task(rt.Task("Olga's", "rating", "?", ("a", "b")), owner=olga.key, role=rt.OWNER, account=olga)
    assert store.accounts()[olga.key] == olga
    with pytest.raises(PermissionError, match="^only the task's owner can change its options$"):  # nobody named
        store.set_task_options("Olga's", "someone else @ x", rouge_highlights=True, others_visible=False,
                               role=rt.OWNER)
    with pytest.raises(PermissionError, match="belongs to another task owner"):
        store.save_task(rt.Task("Olga's", "rating", "??", ("a", "b")), owner="someone else @ x", role=rt.OWNER)
    assert store.set_task_options("Olga's", olga.key, rouge_highlights=False, others_visible=True,
                                  role=rt.OWNER).owner == olga.key


def test_several_servers_opening_a_new_database_at_once_migrate_it_once(database):
    assert not open_at_once(database, 6)
    store = ReviewStore(database)
    assert store.schema_version() == 4 and [t.name for t in store.tasks()] == [t.name for t in rt.DEFAULT_TASKS]


def test_where_rouge_lens_db_points(tmp_path, monkeypatch):
    assert location_of(str(tmp_path / "a.sqlite3"), "environment") == Location(tmp_path / "a.sqlite3", "environment")
    assert location_of(f"sqlite:///{tmp_path}/b.sqlite3", "secrets") == Location(tmp_path / "b.sqlite3", "secrets")
    for configured in ("postgresql://u:p%40ss@db.example:5433/judgements",
                       "postgres://u:p%40ss@db.example:5433/judgements",
                       "postgresql+psycopg://u:p%40ss@db.example:5433/judgements"):
        location = location_of(configured, "environment")
        assert location.kind == "postgresql" and location.path is None
        url = sa.engine.make_url(location.url)
        assert (url.drivername, url.username, url.password, url.host, url.port, url.database) == (
            "postgresql+psycopg", "u", "p@ss", "db.example", 5433, "judgements")
        assert "p@ss" not in repr(location) and "p%40ss" not in repr(location) and "***" in repr(location)
    with pytest.raises(StoreError, match="a mysql URL: ROUGE Lens keeps judgements in a SQLite file or a PostgreSQL"):
        location_of("mysql://u:secret@h/db", "environment")
    with pytest.raises(StoreError) as caught:
        location_of("postgresql://u:secret@h:notaport/db", "secrets")
    assert "secret" not in str(caught.value).replace("secrets", "")
    monkeypatch.setenv("ROUGE_LENS_DB", "postgresql://u:pw@db.example/j")
    assert configured_location({"judgements_db": str(tmp_path / "s.sqlite3")}).kind == "postgresql"


def test_an_unreachable_postgresql_server_is_named_without_its_address_or_password(monkeypatch):
    pytest.importorskip("psycopg")
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StoreError) as caught:
        ReviewStore(f"postgresql://someone:hunter2-secret@127.0.0.1:{port}/nothing")
    message = str(caught.value)
    assert message == "the judgements database could not be opened (Connection refused)"
    assert "hunter2" not in message and str(port) not in message and "127.0.0.1" not in message


def test_a_wrong_password_is_named_without_the_user_the_password_or_the_server():
    import sqlalchemy as sa

    from tests.services import postgres_admin_url

    url = sa.engine.make_url(postgres_admin_url()).set(password="wrong-password-31")
    with pytest.raises(StoreError) as caught:
        ReviewStore(url.render_as_string(hide_password=False))
    message = str(caught.value)
    assert message.startswith("the judgements database could not be opened (")
    for secret in ("wrong-password-31", url.username, url.host, str(url.port)):
        assert secret not in message, (secret, message)


# --- the roles of the visibility rule, for any rows -----------------------------------------------------

ROWS = st.lists(st.builds(rt.StoredJudgement, task=st.sampled_from(["k1", "k2"]), pair_id=st.sampled_from(["p1", "p2"]),
                          annotator=st.sampled_from(["ann", "bob", "olga"]), verdict=st.sampled_from(["", "1", "2"])),
                max_size=12)


@settings(max_examples=200, deadline=None)
@given(rows=ROWS, viewer=st.sampled_from(["ann", "bob", "olga", "nobody", ""]), shown=st.booleans(),
       ids=st.sampled_from([None, ["p1"], ["p1", "p2"]]))
def test_roles_of_the_visibility_rule(rows, viewer, shown, ids):
    options = {"k1": rt.TaskOptions("olga", others_visible=shown)}
    annotator = rt.visible_judgements(viewer, rows, options, ids, rt.ANNOTATOR)
    assert annotator == [r for r in rows if viewer and r.annotator == viewer]  # their own, whatever the options
    owner = rt.visible_judgements(viewer, rows, options, ids, rt.OWNER)
    assert owner == (rows if viewer else [])
    single = rt.visible_judgements(viewer, rows, options, ids, rt.SINGLE_USER)
    assert annotator == [r for r in single if r.annotator == viewer]  # single-user mode shows at least as much
    assert all(r in rows for r in single)
