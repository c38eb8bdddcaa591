"""Judgements of the Review page, kept in SQLite, with the task definitions, the corpora they
judge and each annotator's blinding seed.

One judgement row per (corpus, task, pair, annotator): the last write wins, with its time and
the annotator's name. WAL mode lets two browser sessions (two connections) read and write the
same file at once; each call opens its own short-lived connection, so nothing is shared
between Streamlit's script threads.

Databases made by earlier versions are migrated in place when opened: missing columns and
tables are added with defaults (inside one write transaction, so two servers opening the same
file at once migrate it once); no row is changed or dropped. `PRAGMA user_version` records
the schema version.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping

from rouge_core.corpus_io import Corpus

from .review_tasks import DEFAULT_TASKS, Task

ENV_VAR = "ROUGE_LENS_DB"
SECRET_KEY = "judgements_db"  # in .streamlit/secrets.toml
DEFAULT_PATH = Path("~/.rouge_lens/judgements.sqlite3")
SCHEMA_VERSION = 2

# Version 1: the judgements table as first shipped. Its columns never change; later versions
# add columns (JUDGEMENT_COLUMNS_ADDED) and tables.
JUDGEMENTS_TABLE = """
CREATE TABLE IF NOT EXISTS judgements (
    corpus TEXT NOT NULL,      -- Corpus.fingerprint(): the same corpus, whoever uploads it
    task TEXT NOT NULL,        -- the task key (lens_app.review_tasks.task_key): the task and its systems;
                               -- version 1 wrote "rating:<system>|scale:<3 chars>" or "compare:<A>|<B>|scale:<3 chars>"
    pair_id TEXT NOT NULL,
    annotator TEXT NOT NULL,
    verdict TEXT NOT NULL,     -- a rating "1".."k"; a comparison "A better", "tie", "B better" (on 5 points "A much
                               -- better", "A slightly better", ...), A and B being the task key's two systems in
                               -- sorted order, whichever was shown first; '' = no verdict yet
    note TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,  -- ISO 8601, UTC
    corpus_name TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (corpus, task, pair_id, annotator)
)
"""
# Version 2: the task's parts, readable without parsing the key ('' in rows of version 1).
JUDGEMENT_COLUMNS_ADDED = {
    "task_name": "TEXT NOT NULL DEFAULT ''",
    "kind": "TEXT NOT NULL DEFAULT ''",  # "rating" or "compare"
    "system_a": "TEXT NOT NULL DEFAULT ''",  # the rated system, or the first of the two compared (sorted)
    "system_b": "TEXT NOT NULL DEFAULT ''",
    "shown_first": "TEXT NOT NULL DEFAULT ''",  # the compared system shown first (the blinding record)
}
TABLES_ADDED = (
    """CREATE TABLE IF NOT EXISTS tasks (
        name TEXT PRIMARY KEY,
        definition TEXT NOT NULL,   -- JSON: kind, question, anchors (one per point)
        updated_at TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS corpora (
        fingerprint TEXT PRIMARY KEY,  -- Corpus.fingerprint()
        name TEXT NOT NULL,
        pairs INTEGER NOT NULL,
        systems TEXT NOT NULL,         -- JSON list of system names
        data TEXT NOT NULL,            -- JSON: ids, systems, references
        stored_at TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS annotators (
        name TEXT PRIMARY KEY,
        seed INTEGER NOT NULL,         -- decides the blinded order of every comparison this annotator sees
        created_at TEXT NOT NULL
    )""",
)


def configured_path(secrets_: Mapping[str, object] | None = None) -> Path:
    """Where the judgements live: server configuration only, never user input.

    The environment variable ROUGE_LENS_DB wins, then `judgements_db` in the app's
    .streamlit/secrets.toml (`secrets_`), then ~/.rouge_lens/judgements.sqlite3.
    """
    configured = os.environ.get(ENV_VAR) or (secrets_ or {}).get(SECRET_KEY)
    return Path(str(configured) if configured else DEFAULT_PATH).expanduser()


@dataclass(frozen=True)
class Judgement:
    corpus: str
    task: str
    pair_id: str
    annotator: str
    verdict: str
    note: str
    updated_at: str
    corpus_name: str = ""
    task_name: str = ""
    kind: str = ""
    system_a: str = ""
    system_b: str = ""
    shown_first: str = ""


_COLUMNS = ", ".join(Judgement.__dataclass_fields__)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class ReviewStore:
    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path).expanduser() if path else configured_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            self._migrate(conn)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)  # transactions stated explicitly
        conn.execute("PRAGMA busy_timeout=10000")
        return conn

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        if conn.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
            return
        conn.execute("BEGIN IMMEDIATE")  # one migrating connection at a time; the others wait, then see it done
        try:
            conn.execute(JUDGEMENTS_TABLE)
            present = {row[1] for row in conn.execute("PRAGMA table_info(judgements)")}
            for column, declaration in JUDGEMENT_COLUMNS_ADDED.items():
                if column not in present:
                    conn.execute(f"ALTER TABLE judgements ADD COLUMN {column} {declaration}")
            for table in TABLES_ADDED:
                conn.execute(table)
            now = _now()
            conn.executemany("INSERT OR IGNORE INTO tasks (name, definition, updated_at) VALUES (?, ?, ?)",
                             [(t.name, t.to_json(), now) for t in DEFAULT_TASKS])
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    # --- judgements ------------------------------------------------------------------------------

    def save(self, corpus: str, task: str, pair_id: str, annotator: str, verdict: str, note: str = "",
             corpus_name: str = "", *, task_name: str = "", kind: str = "", system_a: str = "", system_b: str = "",
             shown_first: str = "") -> Judgement:
        if not annotator.strip():
            raise ValueError("enter an annotator name before recording judgements")
        row = Judgement(corpus, task, str(pair_id), annotator.strip(), str(verdict), note or "", _now(), corpus_name,
                        task_name, kind, system_a, system_b, shown_first)
        values = tuple(row.__dict__.values())
        updates = ", ".join(f"{c} = excluded.{c}" for c in Judgement.__dataclass_fields__
                            if c not in ("corpus", "task", "pair_id", "annotator"))
        with closing(self._connect()) as conn:
            conn.execute(f"INSERT INTO judgements ({_COLUMNS}) VALUES ({', '.join('?' * len(values))}) "
                         f"ON CONFLICT (corpus, task, pair_id, annotator) DO UPDATE SET {updates}", values)
        return row

    def get(self, corpus: str, task: str, pair_id: str, annotator: str) -> Judgement | None:
        with closing(self._connect()) as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM judgements WHERE corpus = ? AND task = ? AND pair_id = ? AND annotator = ?",
                (corpus, task, str(pair_id), annotator.strip()),
            ).fetchone()
        return Judgement(*row) if row else None

    def all(self, corpus: str | None = None, task: str | None = None) -> list[Judgement]:
        query = f"SELECT {_COLUMNS} FROM judgements"
        clauses, params = [], []
        if corpus is not None:
            clauses.append("corpus = ?")
            params.append(corpus)
        if task is not None:
            clauses.append("task = ?")
            params.append(task)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY corpus, task, pair_id, annotator"
        with closing(self._connect()) as conn:
            return [Judgement(*r) for r in conn.execute(query, params).fetchall()]

    def frame(self, corpus: str | None = None, task: str | None = None):
        import pandas as pd

        rows = [j.__dict__ for j in self.all(corpus, task)]
        return pd.DataFrame(rows, columns=list(Judgement.__dataclass_fields__))

    # --- task definitions --------------------------------------------------------------------------

    def tasks(self) -> list[Task]:
        with closing(self._connect()) as conn:
            rows = conn.execute("SELECT name, definition FROM tasks ORDER BY rowid").fetchall()
        return [Task.from_json(name, definition) for name, definition in rows]

    def save_task(self, task: Task) -> None:
        problems = task.problems()
        if problems:
            raise ValueError("; ".join(problems))
        with closing(self._connect()) as conn:
            conn.execute("INSERT INTO tasks (name, definition, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO "
                         "UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at",
                         (task.name, task.to_json(), _now()))

    def task_in_use(self, name: str) -> bool:
        """Whether judgements were saved under this task (its scale can then no longer change)."""
        with closing(self._connect()) as conn:
            return conn.execute("SELECT 1 FROM judgements WHERE task_name = ? LIMIT 1", (name,)).fetchone() is not None

    # --- corpora -------------------------------------------------------------------------------------

    def save_corpus(self, corpus: Corpus) -> str:
        """Store the corpus under its fingerprint (once); returns the fingerprint."""
        fingerprint = corpus.fingerprint()
        with closing(self._connect()) as conn:
            if conn.execute("SELECT 1 FROM corpora WHERE fingerprint = ?", (fingerprint,)).fetchone() is None:
                data = json.dumps({"ids": corpus.ids, "systems": corpus.systems, "references": corpus.references},
                                  ensure_ascii=False)
                conn.execute("INSERT OR IGNORE INTO corpora (fingerprint, name, pairs, systems, data, stored_at) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (fingerprint, corpus.source, len(corpus),
                                                           json.dumps(corpus.system_names, ensure_ascii=False),
                                                           data, _now()))
        return fingerprint

    def corpus(self, fingerprint: str) -> Corpus | None:
        """The stored corpus with this fingerprint (None when there is none, or its data no
        longer hashes to it)."""
        with closing(self._connect()) as conn:
            row = conn.execute("SELECT name, data FROM corpora WHERE fingerprint = ?", (str(fingerprint),)).fetchone()
        if row is None:
            return None
        data = json.loads(row[1])
        corpus = Corpus(tuple(data["ids"]), {s: tuple(c) for s, c in data["systems"].items()},
                        tuple(tuple(r) for r in data["references"]), source=row[0])
        return corpus if corpus.fingerprint() == fingerprint else None

    def corpora(self) -> list[dict]:
        """Every stored corpus (newest first): fingerprint, name, pairs, systems, when stored,
        how many judgements it has and when the last was saved."""
        with closing(self._connect()) as conn:
            rows = conn.execute(
                "SELECT c.fingerprint, c.name, c.pairs, c.systems, c.stored_at, COUNT(j.pair_id), MAX(j.updated_at) "
                "FROM corpora c LEFT JOIN judgements j ON j.corpus = c.fingerprint "
                "GROUP BY c.fingerprint ORDER BY c.stored_at DESC").fetchall()
        return [{"fingerprint": f, "name": n, "pairs": p, "systems": ", ".join(json.loads(s)), "stored_at": t,
                 "judgements": count, "last_judged": last or ""} for f, n, p, s, t, count, last in rows]

    # --- annotators ---------------------------------------------------------------------------------

    def annotator_seed(self, annotator: str) -> int:
        """The annotator's blinding seed, drawn at random the first time and kept."""
        name = annotator.strip()
        if not name:
            raise ValueError("enter an annotator name")
        with closing(self._connect()) as conn:
            conn.execute("INSERT OR IGNORE INTO annotators (name, seed, created_at) VALUES (?, ?, ?)",
                         (name, secrets.randbits(62), _now()))
            return int(conn.execute("SELECT seed FROM annotators WHERE name = ?", (name,)).fetchone()[0])
