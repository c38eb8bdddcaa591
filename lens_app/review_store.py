"""Judgements of the Review page, kept in SQLite, with the task definitions and options, the
corpora they judge, each annotator's blinding seed and preferences.

One judgement row per (corpus, task, pair, annotator): the last write wins, with its time and
the annotator's name. WAL mode lets two browser sessions (two connections) read and write the
same file at once; each call opens its own short-lived connection, so nothing is shared
between Streamlit's script threads.

Nothing a page shows is written on its own: a corpus and an annotator's seed are stored with
their first judgement (`save(..., corpus_data=, seed=)`, one transaction); only an explicit act
(a verdict or note, a task saved, an option or preference set) writes.

Where the file is: ROUGE_LENS_DB, else `judgements_db` in .streamlit/secrets.toml, else the
platform's data directory for "rouge-lens" (platformdirs), except that a database left by
earlier versions in ~/.rouge_lens keeps being used while the data directory has none.

Databases made by earlier versions are migrated in place when opened, by numbered migrations
(MIGRATIONS; `PRAGMA user_version` records the last applied), each idempotent and all inside one
write transaction, so two servers opening the same file at once migrate it once: columns and
tables are added with defaults; no row is dropped.
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
from typing import Mapping, Sequence

import platformdirs

from rouge_core.errors import excerpt
from rouge_core.corpus_io import Corpus

from .review_tasks import DEFAULT_TASKS, Task, TaskOptions, may_change_options, visible_judgements

ENV_VAR = "ROUGE_LENS_DB"
SECRET_KEY = "judgements_db"  # in .streamlit/secrets.toml
APP_NAME = "rouge-lens"  # the data directory's name (platformdirs)
FILE_NAME = "judgements.sqlite3"
EARLIER_DEFAULT = Path("~/.rouge_lens") / FILE_NAME  # the default of versions before the data directory

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


# Version 3: task options and owner; whether a verdict was made with ROUGE highlights shown;
# annotators' preferences.
TASK_COLUMNS_ADDED = {
    "owner": "TEXT NOT NULL DEFAULT ''",  # the annotator who created the task ('' for none yet)
    "rouge_highlights": "INTEGER NOT NULL DEFAULT 0",  # 1: ROUGE-1 matches marked on the Review page
    "others_visible": "INTEGER NOT NULL DEFAULT 0",  # 1: others' verdicts shown before an annotator finishes
}
# 1 for rows written without saying: every earlier version marked the ROUGE-1 matches.
HIGHLIGHTS_COLUMN = ("rouge_highlights", "INTEGER NOT NULL DEFAULT 1")
PREFERENCES_TABLE = """CREATE TABLE IF NOT EXISTS preferences (
    annotator TEXT NOT NULL,
    name TEXT NOT NULL,            -- e.g. "advance": go to the next unjudged pair after a verdict
    value TEXT NOT NULL,           -- JSON
    updated_at TEXT NOT NULL,
    PRIMARY KEY (annotator, name)
)"""
ADVANCE = "advance"  # the preference: after a verdict, go to the next unjudged pair
PREFERENCE_DEFAULTS = {ADVANCE: False}


@dataclass(frozen=True)
class Location:
    """Where the judgements database is, and what decided it."""

    path: Path
    configured_by: str  # "environment", "secrets", "data directory", "earlier default" or "argument"


def default_path() -> Path:
    """The default database: in the platform's data directory for the app (e.g.
    ~/.local/share/rouge-lens on Linux, %LOCALAPPDATA%\\rouge-lens on Windows)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / FILE_NAME


def configured_location(secrets_: Mapping[str, object] | None = None) -> Location:
    """Where the judgements live: server configuration only, never user input.

    The environment variable ROUGE_LENS_DB wins, then `judgements_db` in the app's
    .streamlit/secrets.toml (`secrets_`), then the data directory (`default_path`); a database
    that earlier versions made in ~/.rouge_lens stays in use while the data directory has none.
    """
    if os.environ.get(ENV_VAR):
        return Location(Path(os.environ[ENV_VAR]).expanduser(), "environment")
    secret = (secrets_ or {}).get(SECRET_KEY)
    if secret:
        return Location(Path(str(secret)).expanduser(), "secrets")
    default, earlier = default_path(), EARLIER_DEFAULT.expanduser()
    if not default.exists() and earlier.exists():
        return Location(earlier, "earlier default")
    return Location(default, "data directory")


def configured_path(secrets_: Mapping[str, object] | None = None) -> Path:
    return configured_location(secrets_).path


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
    rouge_highlights: bool = False  # the ROUGE-1 matches were marked when the verdict was made

    @classmethod
    def from_row(cls, row: tuple) -> "Judgement":
        return cls(*row[:-1], bool(row[-1]))


_COLUMNS = ", ".join(Judgement.__dataclass_fields__)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _add_columns(conn: sqlite3.Connection, table: str, columns: Mapping[str, str]) -> None:
    present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
    for column, declaration in columns.items():
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def _to_version_1(conn: sqlite3.Connection) -> None:
    conn.execute(JUDGEMENTS_TABLE)


def _to_version_2(conn: sqlite3.Connection) -> None:
    _add_columns(conn, "judgements", JUDGEMENT_COLUMNS_ADDED)
    for table in TABLES_ADDED:
        conn.execute(table)
    now = _now()
    conn.executemany("INSERT OR IGNORE INTO tasks (name, definition, updated_at) VALUES (?, ?, ?)",
                     [(t.name, t.to_json(), now) for t in DEFAULT_TASKS])


def _to_version_3(conn: sqlite3.Connection) -> None:
    _add_columns(conn, "tasks", TASK_COLUMNS_ADDED)  # old tasks: no owner, no highlights, others hidden
    _add_columns(conn, "judgements", dict([HIGHLIGHTS_COLUMN]))  # old verdicts: made with highlights
    conn.execute(PREFERENCES_TABLE)


# MIGRATIONS[i] brings a database of version i to version i + 1; each may run again harmlessly.
MIGRATIONS = (_to_version_1, _to_version_2, _to_version_3)
SCHEMA_VERSION = len(MIGRATIONS)


class ReviewStore:
    def __init__(self, path: str | os.PathLike | None = None, location: Location | None = None):
        """The database at `path`, or at `location` (default: `configured_location()`), created
        or migrated now (schema only: no judgement, corpus or annotator is written)."""
        if path:
            location = Location(Path(path).expanduser(), "argument")
        self.location = location or configured_location()
        self.path = self.location.path
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
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # as the last one to migrate left it
            for migration in MIGRATIONS[version:]:
                migration(conn)
            if version < SCHEMA_VERSION:
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    # --- judgements ------------------------------------------------------------------------------

    def save(self, corpus: str, task: str, pair_id: str, annotator: str, verdict: str, note: str = "",
             corpus_name: str = "", *, task_name: str = "", kind: str = "", system_a: str = "", system_b: str = "",
             shown_first: str = "", rouge_highlights: bool = False, corpus_data: Corpus | None = None,
             seed: int | None = None) -> Judgement:
        """Store one judgement (replacing the annotator's earlier one on this pair and task); in
        the same transaction, `corpus_data` (the judged corpus, if not stored yet) and `seed` (the
        annotator's blinding seed, if they have none yet)."""
        if not annotator.strip():
            raise ValueError("enter an annotator name before recording judgements")
        if corpus_data is not None and corpus_data.fingerprint() != corpus:
            raise ValueError("the corpus stored with a judgement must be the one it judges")
        row = Judgement(corpus, task, str(pair_id), annotator.strip(), str(verdict), note or "", _now(), corpus_name,
                        task_name, kind, system_a, system_b, shown_first, bool(rouge_highlights))
        values = tuple(row.__dict__.values())
        updates = ", ".join(f"{c} = excluded.{c}" for c in Judgement.__dataclass_fields__
                            if c not in ("corpus", "task", "pair_id", "annotator"))
        with closing(self._connect()) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if corpus_data is not None:
                    self._insert_corpus(conn, corpus_data)
                if seed is not None:
                    self._insert_seed(conn, row.annotator, seed)
                conn.execute(f"INSERT INTO judgements ({_COLUMNS}) VALUES ({', '.join('?' * len(values))}) "
                             f"ON CONFLICT (corpus, task, pair_id, annotator) DO UPDATE SET {updates}", values)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return row

    def get(self, corpus: str, task: str, pair_id: str, annotator: str) -> Judgement | None:
        with closing(self._connect()) as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM judgements WHERE corpus = ? AND task = ? AND pair_id = ? AND annotator = ?",
                (corpus, task, str(pair_id), annotator.strip()),
            ).fetchone()
        return Judgement.from_row(row) if row else None

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
            return [Judgement.from_row(r) for r in conn.execute(query, params).fetchall()]

    def count(self, corpus: str | None = None) -> int:
        """How many judgements are stored (for one corpus, or in all)."""
        with closing(self._connect()) as conn:
            if corpus is None:
                return conn.execute("SELECT COUNT(*) FROM judgements").fetchone()[0]
            return conn.execute("SELECT COUNT(*) FROM judgements WHERE corpus = ?", (corpus,)).fetchone()[0]

    def frame(self, corpus: str | None = None, task: str | None = None):
        return judgement_frame(self.all(corpus, task))

    def visible_to(self, viewer: str, corpus: str | None = None, pair_ids: Sequence[str] | None = None) -> list[Judgement]:
        """The judgements (of one corpus, or of every corpus) that `viewer` may see: the rule
        of review_tasks.visible_judgements, fed with the tasks' options and each corpus's pairs
        (`pair_ids`, when the caller has the corpus `corpus` at hand; else the stored corpus's,
        and a corpus not stored has no known pairs: nobody has finished its tasks)."""
        options = self.task_options()
        by_corpus: dict[str, list[Judgement]] = {}
        for row in self.all(corpus):
            by_corpus.setdefault(row.corpus, []).append(row)
        out = []
        for fingerprint, rows in by_corpus.items():
            ids = pair_ids if corpus is not None and pair_ids is not None else self.corpus_ids(fingerprint)
            out += visible_judgements(viewer, rows, options, ids)
        return out

    # --- task definitions --------------------------------------------------------------------------

    def tasks(self) -> list[Task]:
        with closing(self._connect()) as conn:
            rows = conn.execute("SELECT name, definition FROM tasks ORDER BY rowid").fetchall()
        return [Task.from_json(name, definition) for name, definition in rows]

    def save_task(self, task: Task, owner: str = "") -> None:
        """Create the task (`owner`: its creator) or change its definition (the owner stays)."""
        problems = task.problems()
        if problems:
            raise ValueError("; ".join(problems))
        with closing(self._connect()) as conn:
            conn.execute("INSERT INTO tasks (name, definition, updated_at, owner) VALUES (?, ?, ?, ?) ON CONFLICT (name) "
                         "DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at",
                         (task.name, task.to_json(), _now(), owner.strip()))

    def task_options(self) -> dict[str, TaskOptions]:
        """{task name: its options}."""
        with closing(self._connect()) as conn:
            rows = conn.execute("SELECT name, owner, rouge_highlights, others_visible FROM tasks").fetchall()
        return {name: TaskOptions(owner, bool(highlights), bool(visible)) for name, owner, highlights, visible in rows}

    def set_task_options(self, name: str, by: str, *, rouge_highlights: bool, others_visible: bool) -> TaskOptions:
        """Set a task's options as annotator `by`, who must own it; a task without an owner
        becomes theirs (review_tasks.may_change_options)."""
        with closing(self._connect()) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT owner FROM tasks WHERE name = ?", (name,)).fetchone()
                if row is None:
                    raise KeyError(f"there is no task named {excerpt(name)}")
                if not may_change_options(by, TaskOptions(row[0])):
                    raise PermissionError(f"only the task's owner, {row[0]}, can change its options"
                                          if row[0] else "enter an annotator name to set a task's options")
                options = TaskOptions(row[0] or by.strip(), bool(rouge_highlights), bool(others_visible))
                conn.execute("UPDATE tasks SET owner = ?, rouge_highlights = ?, others_visible = ?, updated_at = ? "
                             "WHERE name = ?", (options.owner, int(options.rouge_highlights),
                                                int(options.others_visible), _now(), name))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return options

    def task_in_use(self, name: str) -> bool:
        """Whether judgements were saved under this task (its scale can then no longer change)."""
        with closing(self._connect()) as conn:
            return conn.execute("SELECT 1 FROM judgements WHERE task_name = ? LIMIT 1", (name,)).fetchone() is not None

    # --- corpora -------------------------------------------------------------------------------------

    def save_corpus(self, corpus: Corpus) -> str:
        """Store the corpus under its fingerprint (once); returns the fingerprint. (The Review
        page stores a corpus with its first judgement: `save(..., corpus_data=corpus)`.)"""
        with closing(self._connect()) as conn:
            return self._insert_corpus(conn, corpus)

    @staticmethod
    def _insert_corpus(conn: sqlite3.Connection, corpus: Corpus) -> str:
        fingerprint = corpus.fingerprint()
        if conn.execute("SELECT 1 FROM corpora WHERE fingerprint = ?", (fingerprint,)).fetchone() is None:
            data = json.dumps({"ids": corpus.ids, "systems": corpus.systems, "references": corpus.references},
                              ensure_ascii=False)
            conn.execute("INSERT OR IGNORE INTO corpora (fingerprint, name, pairs, systems, data, stored_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (fingerprint, corpus.source, len(corpus),
                                                       json.dumps(corpus.system_names, ensure_ascii=False),
                                                       data, _now()))
        return fingerprint

    def has_corpus(self, fingerprint: str) -> bool:
        with closing(self._connect()) as conn:
            return conn.execute("SELECT 1 FROM corpora WHERE fingerprint = ?", (str(fingerprint),)).fetchone() is not None

    def corpus_ids(self, fingerprint: str) -> tuple[str, ...] | None:
        """The pair ids of a stored corpus (None when it is not stored)."""
        with closing(self._connect()) as conn:
            row = conn.execute("SELECT json_extract(data, '$.ids') FROM corpora WHERE fingerprint = ?",
                               (str(fingerprint),)).fetchone()
        return tuple(str(i) for i in json.loads(row[0])) if row else None

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

    def seed_of(self, annotator: str) -> int | None:
        """The annotator's stored blinding seed (None before their first judgement)."""
        with closing(self._connect()) as conn:
            row = conn.execute("SELECT seed FROM annotators WHERE name = ?", (annotator.strip(),)).fetchone()
        return int(row[0]) if row else None

    def annotator_seed(self, annotator: str, proposed: int | None = None) -> int:
        """The annotator's blinding seed: `proposed` (else drawn at random) the first time, then
        the one kept."""
        name = annotator.strip()
        if not name:
            raise ValueError("enter an annotator name")
        with closing(self._connect()) as conn:
            return self._insert_seed(conn, name, secrets.randbits(62) if proposed is None else proposed)

    @staticmethod
    def _insert_seed(conn: sqlite3.Connection, name: str, seed: int) -> int:
        conn.execute("INSERT OR IGNORE INTO annotators (name, seed, created_at) VALUES (?, ?, ?)", (name, seed, _now()))
        return int(conn.execute("SELECT seed FROM annotators WHERE name = ?", (name,)).fetchone()[0])

    def preference(self, annotator: str, name: str):
        """An annotator's preference (PREFERENCE_DEFAULTS[name] when they have not set it)."""
        with closing(self._connect()) as conn:
            row = conn.execute("SELECT value FROM preferences WHERE annotator = ? AND name = ?",
                               (annotator.strip(), name)).fetchone()
        return json.loads(row[0]) if row else PREFERENCE_DEFAULTS[name]

    def set_preference(self, annotator: str, name: str, value) -> None:
        if not annotator.strip():
            raise ValueError("enter an annotator name")
        if name not in PREFERENCE_DEFAULTS:
            raise KeyError(f"no preference named {excerpt(name)}")
        with closing(self._connect()) as conn:
            conn.execute("INSERT INTO preferences (annotator, name, value, updated_at) VALUES (?, ?, ?, ?) "
                         "ON CONFLICT (annotator, name) DO UPDATE SET value = excluded.value, "
                         "updated_at = excluded.updated_at", (annotator.strip(), name, json.dumps(value), _now()))


def judgement_frame(rows: list[Judgement]):
    """Judgements as a table, one column per field."""
    import pandas as pd

    return pd.DataFrame([j.__dict__ for j in rows], columns=list(Judgement.__dataclass_fields__))
