"""Several writer processes on one judgements database, some killed with SIGKILL while they
write (issue 31, item 3), on SQLite and on PostgreSQL: every acknowledged judgement is there,
whole; nothing else is but, per killed writer, the one judgement it was saving when killed
(committed before its acknowledgement could be printed); the database stays consistent and
writable. The figures (judgements written, writers killed, of them mid-save, lost) are
printed and kept in test-artifacts/store-concurrency-<database>.json."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app.review_store import ReviewStore  # noqa: E402
from tests import store_writer as w  # noqa: E402
from tests.services import fresh_postgres_database  # noqa: E402

WRITERS = 6
KILLED = 3  # the first KILLED writers are killed
SAVES = 120  # per writer
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    if request.param == "sqlite":
        yield request.param, str(tmp_path / "concurrency.sqlite3")
    else:
        with fresh_postgres_database() as url:
            yield request.param, url


def acknowledged(log: Path) -> tuple[set[int], int | None]:
    """The indexes a writer acknowledged, and the one it was saving when it stopped (None if
    it was between saves)."""
    done, begun = set(), None
    for line in log.read_text().splitlines():
        word, _, index = line.partition(" ")
        if word == "begin":
            begun = int(index)
        elif word == "ok" and index:
            done.add(int(index))
            begun = None
    return done, begun


def test_writers_killed_mid_write_lose_no_acknowledged_judgement(database, tmp_path):
    kind, address = database
    ReviewStore(address)  # the schema first: the writers then race on judgements, not on the migration
    rng = random.Random(31)
    logs = [tmp_path / f"writer{i}.log" for i in range(WRITERS)]
    names = [f"writer{i}" for i in range(WRITERS)]
    processes = []
    for name, log in zip(names, logs):
        with open(log, "w") as out:
            processes.append(subprocess.Popen([sys.executable, "-m", "tests.store_writer", address, name, str(SAVES)],
                                              cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                              env={**os.environ, "PYTHONPATH": str(ROOT)}))
    try:
        # Kill each victim once it has acknowledged a random number of saves, at a random moment after that.
        thresholds = [rng.randint(5, SAVES // 2) for _ in range(KILLED)]
        pending = set(range(KILLED))
        deadline = time.monotonic() + 240
        while pending and time.monotonic() < deadline:
            for i in sorted(pending):
                if len(acknowledged(logs[i])[0]) >= thresholds[i]:
                    time.sleep(rng.uniform(0, 0.02))
                    processes[i].send_signal(signal.SIGKILL)
                    pending.discard(i)
                assert processes[i].poll() is None or i not in pending, logs[i].read_text()[-2000:]
            time.sleep(0.005)
        assert not pending, "a writer to kill did not get far enough in time"
        for i, process in enumerate(processes):
            code = process.wait(timeout=300)
            assert code == (-signal.SIGKILL if i < KILLED else 0), logs[i].read_text()[-3000:]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()

    store = ReviewStore(address)
    rows = {(j.annotator, j.pair_id): j for j in store.all()}
    written = lost = in_flight = committed_unacknowledged = 0
    for i, (name, log) in enumerate(zip(names, logs)):
        done, begun = acknowledged(log)
        written += len(done)
        if i >= KILLED:
            assert done == set(range(SAVES)) and begun is None
        in_flight += begun is not None
        present = {int(pair.rsplit("-", 1)[1]) for annotator, pair in rows if annotator == name}
        lost += len(done - present)
        extra = present - done
        assert extra <= ({begun} if begun is not None else set()), (name, extra, begun)  # only the save it was in
        committed_unacknowledged += len(extra)
        for index in present:  # whole: the verdict and every character of the long note
            row = rows[(name, w.pair_of(name, index))]
            assert (row.verdict, row.note) == (w.verdict_of(index), w.note_of(name, index))
    assert lost == 0
    assert len(rows) == written + committed_unacknowledged == store.count()
    assert store.corpora()[0]["judgements"] == len(rows) and store.seed_of(names[-1]) == 1  # the first seed kept
    if kind == "sqlite":
        with sa.create_engine(f"sqlite:///{address}").connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"
    else:  # the rows are in the PostgreSQL server itself (not in a file named like its URL)
        import psycopg

        with psycopg.connect(address) as conn:
            assert conn.execute("SELECT COUNT(*) FROM judgements").fetchone()[0] == len(rows)
    # Nothing left locked: a new writer saves at once.
    store.save("f" * 16, w.TASK, "after", "late writer", "3")
    assert store.get("f" * 16, w.TASK, "after", "late writer").verdict == "3"

    figures = {"database": kind, "writers": WRITERS, "killed_writers": KILLED, "killed_mid_save": in_flight,
               "saves_per_surviving_writer": SAVES, "judgements_acknowledged": written,
               "committed_before_acknowledgement": committed_unacknowledged, "judgements_stored": len(rows),
               "lost": lost}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"store-concurrency-{kind}.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nstore concurrency ({kind}): {json.dumps(figures)}")
