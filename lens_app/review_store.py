"""Judgements of the Review page, with the task definitions and options, the corpora they judge,
each annotator's blinding seed and preferences, and (with logins) the accounts that made them:
in a SQLite file (the default) or a PostgreSQL database that several app servers share.

One code path serves both, through SQLAlchemy Core; PostgreSQL needs the `team` extra (the
psycopg driver). One judgement row per (corpus, task, pair, annotator): the last write wins,
with its time. With logins, the annotator is the account's key (`Account.key`, from the
identity provider's issuer and subject) and each verdict records the provider's subject.

SQLite: WAL mode lets several sessions and servers on one machine read and write the file at
once; every write transaction starts with BEGIN IMMEDIATE (it takes the write lock first, so
two writers never deadlock over an upgrade), and each call opens its own short-lived
connection, so nothing is shared between Streamlit's script threads. PostgreSQL: a pool of
connections per server; writes that read before they decide (a task's owner) lock the row.

Nothing a page shows is written on its own: a corpus, an annotator's seed and their account
are stored with their first judgement (`save(..., corpus_data=, seed=, account=)`, one
transaction); only an explicit act (a verdict or note, a task saved, an option or preference
set) writes.

Where the database is: ROUGE_LENS_DB (a file path, or a database URL: `postgresql://...` or
`sqlite:///...`), else `judgements_db` in .streamlit/secrets.toml, else the platform's data
directory for "rouge-lens" (platformdirs), except that a database left by earlier versions in
~/.rouge_lens keeps being used while the data directory has none.

Databases made by earlier versions are migrated in place when opened, by numbered migrations
(MIGRATIONS; SQLite's `PRAGMA user_version`, PostgreSQL's `rouge_lens_schema` table records the
last applied), each idempotent and all inside one write transaction that holds the database's
write lock (SQLite) or an advisory lock (PostgreSQL), so two servers opening the same database
at once migrate it once: columns and tables are added with defaults; no row is dropped.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Mapping, Sequence

import platformdirs
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect

from rouge_core.errors import excerpt
from rouge_core.corpora.corpus_io import Corpus

from . import review_tasks as rt
from .review_tasks import DEFAULT_TASKS, Task, TaskOptions, may_change_options, visible_judgements

ENV_VAR = "ROUGE_LENS_DB"
SECRET_KEY = "judgements_db"  # in .streamlit/secrets.toml
APP_NAME = "rouge-lens"  # the data directory's name (platformdirs)
FILE_NAME = "judgements.sqlite3"
EARLIER_DEFAULT = Path("~/.rouge_lens") / FILE_NAME  # the default of versions before the data directory
TEAM_EXTRA = "pip install 'rouge-lens[team]' (or pip install 'psycopg[binary]')"

# Version 1: the judgements table as first shipped. Its columns never change; later versions
# add columns (JUDGEMENT_COLUMNS_ADDED) and tables.
JUDGEMENTS_TABLE = """
CREATE TABLE IF NOT EXISTS judgements (
    corpus TEXT NOT NULL,      -- Corpus.fingerprint(): the same corpus, whoever uploads it
    task TEXT NOT NULL,        -- the task key (lens_app.review_tasks.task_key): the task and its systems;
                               -- version 1 wrote "rating:<system>|scale:<3 chars>" or "compare:<A>|<B>|scale:<3 chars>"
    pair_id TEXT NOT NULL,
    annotator TEXT NOT NULL,   -- the name typed (single-user mode) or the account's key (with logins)
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
    # {BIGINT}: the seed has 62 bits (SQLite's INTEGER holds 64, PostgreSQL's 32)
    """CREATE TABLE IF NOT EXISTS annotators (
        name TEXT PRIMARY KEY,
        seed {BIGINT} NOT NULL,        -- decides the blinded order of every comparison this annotator sees
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

# Version 4 (team mode, PostgreSQL): each verdict's identity provider and subject ('' without
# logins); the accounts that logged in and judged; the tasks' order without SQLite's rowid;
# each corpus's pair ids beside its data (read on every run, without parsing the texts).
IDENTITY_COLUMNS = {
    "issuer": "TEXT NOT NULL DEFAULT ''",  # the identity provider (OpenID Connect `iss`) of the annotator
    "subject": "TEXT NOT NULL DEFAULT ''",  # the annotator's subject (`sub`) at that provider
}
ACCOUNTS_TABLE = """CREATE TABLE IF NOT EXISTS accounts (
    account TEXT PRIMARY KEY,      -- Account.key: what the annotator columns hold for this account
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',   -- as the provider last said, for task owners' tables
    email TEXT NOT NULL DEFAULT '',
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
)"""
TASK_POSITION_COLUMN = {"position": "INTEGER NOT NULL DEFAULT 0"}  # the order tasks are offered in
CORPUS_IDS_COLUMN = {"ids": "TEXT NOT NULL DEFAULT '[]'"}  # JSON list of the pair ids
SCHEMA_TABLE = "rouge_lens_schema"  # PostgreSQL: the schema version (SQLite keeps PRAGMA user_version)
MIGRATION_LOCK = 0x524C454E53  # PostgreSQL advisory lock held while migrating ("RLENS")


class StoreError(RuntimeError):
    """The judgements database could not be opened or refused a write; the message names the
    problem without the database's address or credentials."""


@dataclass(frozen=True)
class Location:
    """Where the judgements database is, and what decided it: a SQLite file (`path`) or a
    database server (`url`, which may hold a password: never shown)."""

    path: Path | None
    configured_by: str  # "environment", "secrets", "data directory", "earlier default" or "argument"
    url: str | None = None  # a server database's SQLAlchemy URL; None for a SQLite file

    @property
    def kind(self) -> str:
        """"sqlite" or "postgresql"."""
        return "sqlite" if self.url is None else "postgresql"

    def __repr__(self) -> str:  # never the password, whatever prints it
        where = self.path if self.url is None else sa.engine.make_url(self.url).render_as_string(hide_password=True)
        return f"Location({where!s}, {self.configured_by!r})"


@dataclass(frozen=True)
class Account:
    """A logged-in annotator as the identity provider names them."""

    issuer: str  # OpenID Connect `iss`
    subject: str  # `sub`: stable and unique at that issuer
    name: str = ""
    email: str = ""

    @property
    def key(self) -> str:
        """What the judgements database records as the annotator: the issuer and subject (a
        display name can change or be shared; these cannot)."""
        return account_key(self.issuer, self.subject)


def account_key(issuer: str, subject: str) -> str:
    return f"{subject} @ {issuer}"


def default_path() -> Path:
    """The default database: in the platform's data directory for the app (e.g.
    ~/.local/share/rouge-lens on Linux, %LOCALAPPDATA%\\rouge-lens on Windows)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / FILE_NAME


def location_of(value: str, configured_by: str) -> Location:
    """A configured value: a SQLite file path, a `sqlite:///<path>` URL or a PostgreSQL URL
    (`postgresql://`, `postgres://`, `postgresql+psycopg://`)."""
    text = str(value).strip()
    scheme = text.split("://", 1)[0].lower() if "://" in text else ""
    if not scheme:
        return Location(Path(text).expanduser(), configured_by)
    if scheme == "sqlite":
        try:
            database = sa.engine.make_url(text).database
        except (sa.exc.ArgumentError, ValueError):
            database = None
        if not database:
            raise StoreError(f"the judgements database set by {configured_by} is a sqlite:/// URL without a file")
        return Location(Path(database).expanduser(), configured_by)
    if scheme.split("+")[0] in ("postgresql", "postgres"):
        try:
            url = sa.engine.make_url("postgresql" + text[len(scheme):])
        except (sa.exc.ArgumentError, ValueError):
            raise StoreError(f"the judgements database set by {configured_by} is not a valid PostgreSQL URL") from None
        return Location(None, configured_by, url.set(drivername="postgresql+psycopg").render_as_string(
            hide_password=False))
    raise StoreError(f"the judgements database set by {configured_by} is a {scheme.split('+')[0]} URL: ROUGE Lens "
                     "keeps judgements in a SQLite file or a PostgreSQL database")


def configured_location(secrets_: Mapping[str, object] | None = None) -> Location:
    """Where the judgements live: server configuration only, never user input.

    The environment variable ROUGE_LENS_DB wins, then `judgements_db` in the app's
    .streamlit/secrets.toml (`secrets_`), then the data directory (`default_path`); a database
    that earlier versions made in ~/.rouge_lens stays in use while the data directory has none.
    """
    if os.environ.get(ENV_VAR):
        return location_of(os.environ[ENV_VAR], "environment")
    secret = (secrets_ or {}).get(SECRET_KEY)
    if secret:
        return location_of(str(secret), "secrets")
    default, earlier = default_path(), EARLIER_DEFAULT.expanduser()
    if not default.exists() and earlier.exists():
        return Location(earlier, "earlier default")
    return Location(default, "data directory")


def configured_path(secrets_: Mapping[str, object] | None = None) -> Path | None:
    """The configured SQLite file (None for a server database)."""
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
    issuer: str = ""  # with logins: the annotator's identity provider
    subject: str = ""  # and their subject there

    @classmethod
    def from_row(cls, row) -> "Judgement":
        values = dict(row._mapping)
        values["rouge_highlights"] = bool(values["rouge_highlights"])
        return cls(**values)


FIELDS = tuple(Judgement.__dataclass_fields__)
_KEY = ("corpus", "task", "pair_id", "annotator")

# The latest schema, for queries (the migrations below create it).
_meta = sa.MetaData()
T = sa.Text
judgements = sa.Table("judgements", _meta, *(sa.Column(f, sa.Integer if f == "rouge_highlights" else T,
                                                       primary_key=f in _KEY) for f in FIELDS))
tasks_table = sa.Table("tasks", _meta, sa.Column("name", T, primary_key=True), sa.Column("definition", T),
                       sa.Column("updated_at", T), sa.Column("owner", T), sa.Column("rouge_highlights", sa.Integer),
                       sa.Column("others_visible", sa.Integer), sa.Column("position", sa.Integer))
corpora_table = sa.Table("corpora", _meta, sa.Column("fingerprint", T, primary_key=True), sa.Column("name", T),
                         sa.Column("pairs", sa.Integer), sa.Column("systems", T), sa.Column("data", T),
                         sa.Column("stored_at", T), sa.Column("ids", T))
annotators_table = sa.Table("annotators", _meta, sa.Column("name", T, primary_key=True),
                            sa.Column("seed", sa.BigInteger), sa.Column("created_at", T))
preferences_table = sa.Table("preferences", _meta, sa.Column("annotator", T, primary_key=True),
                             sa.Column("name", T, primary_key=True), sa.Column("value", T),
                             sa.Column("updated_at", T))
accounts_table = sa.Table("accounts", _meta, sa.Column("account", T, primary_key=True), sa.Column("issuer", T),
                          sa.Column("subject", T), sa.Column("name", T), sa.Column("email", T),
                          sa.Column("first_seen", T), sa.Column("last_seen", T))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


# --- migrations --------------------------------------------------------------------------------------
# Each takes a connection inside the migrating transaction; SQL common to SQLite and PostgreSQL.

def _ddl(conn: sa.Connection, statement: str) -> None:
    big = "BIGINT" if conn.dialect.name == "postgresql" else "INTEGER"
    conn.exec_driver_sql(statement.replace("{BIGINT}", big))


def _add_columns(conn: sa.Connection, table: str, columns: Mapping[str, str]) -> None:
    present = {c["name"] for c in sa.inspect(conn).get_columns(table)}
    for column, declaration in columns.items():
        if column not in present:
            conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def _to_version_1(conn: sa.Connection) -> None:
    _ddl(conn, JUDGEMENTS_TABLE)


def _to_version_2(conn: sa.Connection) -> None:
    _add_columns(conn, "judgements", JUDGEMENT_COLUMNS_ADDED)
    for table in TABLES_ADDED:
        _ddl(conn, table)
    now = _now()
    for task in DEFAULT_TASKS:
        conn.execute(sa.text("INSERT INTO tasks (name, definition, updated_at) VALUES (:name, :definition, :now) "
                             "ON CONFLICT (name) DO NOTHING"), {"name": task.name, "definition": task.to_json(),
                                                               "now": now})


def _to_version_3(conn: sa.Connection) -> None:
    _add_columns(conn, "tasks", TASK_COLUMNS_ADDED)  # old tasks: no owner, no highlights, others hidden
    _add_columns(conn, "judgements", dict([HIGHLIGHTS_COLUMN]))  # old verdicts: made with highlights
    _ddl(conn, PREFERENCES_TABLE)


def _to_version_4(conn: sa.Connection) -> None:
    _add_columns(conn, "judgements", IDENTITY_COLUMNS)
    _ddl(conn, ACCOUNTS_TABLE)
    fresh = "position" not in {c["name"] for c in sa.inspect(conn).get_columns("tasks")}
    _add_columns(conn, "tasks", TASK_POSITION_COLUMN)
    if fresh:  # number the tasks in the order they were made (SQLite: rowid; a new database: the built-ins first)
        order = "rowid" if conn.dialect.name == "sqlite" else "updated_at, name"
        names = [r[0] for r in conn.exec_driver_sql(f"SELECT name FROM tasks ORDER BY {order}")]
        for position, name in enumerate(names, 1):
            conn.execute(sa.text("UPDATE tasks SET position = :p WHERE name = :n"), {"p": position, "n": name})
    fresh = "ids" not in {c["name"] for c in sa.inspect(conn).get_columns("corpora")}
    _add_columns(conn, "corpora", CORPUS_IDS_COLUMN)
    if fresh:
        for fingerprint, data in conn.exec_driver_sql("SELECT fingerprint, data FROM corpora").fetchall():
            ids = json.dumps(json.loads(data)["ids"], ensure_ascii=False)
            conn.execute(sa.text("UPDATE corpora SET ids = :ids WHERE fingerprint = :f"), {"ids": ids, "f": fingerprint})


# MIGRATIONS[i] brings a database of version i to version i + 1; each may run again harmlessly.
MIGRATIONS = (_to_version_1, _to_version_2, _to_version_3, _to_version_4)
SCHEMA_VERSION = len(MIGRATIONS)


# --- engines ------------------------------------------------------------------------------------------

_ENGINES: dict[str, sa.Engine] = {}
_ENGINES_LOCK = threading.Lock()
WRITE = "rouge_lens_write"  # execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)


def _sqlite_engine(path: Path) -> sa.Engine:
    """A connection per call (NullPool), as before SQLAlchemy: a file replaced or removed is
    never written through a pooled handle on the old one."""
    engine = sa.create_engine(sa.engine.URL.create("sqlite", database=str(path)), poolclass=sa.pool.NullPool,
                              connect_args={"timeout": 30}, hide_parameters=True)

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # the driver opens no transaction of its own: _begin does
        dbapi_connection.execute("PRAGMA busy_timeout=30000")

    @sa.event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE) else "BEGIN")

    return engine


WAL_WAIT = 30.0  # seconds a server opening the file waits for the others' journal-mode change (busy_timeout's)


def _write_ahead_log(engine: sa.Engine) -> None:
    """The file in WAL mode, set outside any transaction (journal_mode cannot change in one).
    Servers opening a new file at once race for the exclusive lock the change takes, and SQLite
    answers some of them "database is locked" at once, without its busy handler (4 runs in 200
    of six threads opening a new file together): those try again until WAL_WAIT."""
    deadline = time.monotonic() + WAL_WAIT
    while True:
        raw = engine.raw_connection()
        try:
            raw.driver_connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        finally:
            raw.close()
        time.sleep(0.02)


def _postgresql_engine(url: str) -> sa.Engine:
    """One pool per server process and database (Streamlit's script threads share it)."""
    with _ENGINES_LOCK:
        engine = _ENGINES.get(url)
        if engine is None:
            try:
                import psycopg  # noqa: F401  (the driver SQLAlchemy loads for postgresql+psycopg)
            except ImportError as exc:
                raise StoreError(f"a PostgreSQL judgements database needs the team extra: {TEAM_EXTRA}") from exc
            engine = _ENGINES[url] = sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10,
                                                      hide_parameters=True,
                                                      connect_args={"connect_timeout": 10,
                                                                    "application_name": "rouge-lens"})
        return engine


def _database_error(exc: BaseException, doing: str) -> StoreError:
    """A driver's error without its statement, parameters, or the names and addresses of the
    server, database and user (a connection error names them: only its last clause stays,
    quoted names blanked)."""
    original = getattr(exc, "orig", None) or exc
    text = str(original).strip()
    reason = text.splitlines()[0].rsplit(": ", 1)[-1].strip() if text else ""
    reason = re.sub(r'"[^"]*"', '"…"', reason)
    reason = re.sub(r"\b(\d{1,3}\.){3}\d{1,3}\b|\bport \d+|\S+://\S+|\S+@\S+", "…", reason)
    return StoreError(f"the judgements database could not {doing} ({reason or type(original).__name__})")


class ReviewStore:
    def __init__(self, path: str | os.PathLike | None = None, location: Location | None = None):
        """The database at `path` (a SQLite file, or a database URL), or at `location`
        (default: `configured_location()`), created or migrated now (schema only: no
        judgement, corpus or annotator is written)."""
        if path:
            location = location_of(os.fspath(path), "argument")
        self.location = location or configured_location()
        self.path = self.location.path
        try:
            if self.location.kind == "sqlite":
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._engine = _sqlite_engine(self.path)
                _write_ahead_log(self._engine)
            else:
                self._engine = _postgresql_engine(self.location.url)
            self._migrate()
        except (sa.exc.SQLAlchemyError, sqlite3.Error) as exc:
            raise _database_error(exc, "be opened") from None

    @property
    def kind(self) -> str:
        return self.location.kind

    # --- transactions -----------------------------------------------------------------------------

    @contextmanager
    def _reading(self, doing: str = "be read") -> Iterator[sa.Connection]:
        """A read (SQLite: a deferred transaction, one snapshot); driver errors become StoreError."""
        try:
            with self._engine.connect() as conn:
                yield conn
        except sa.exc.SQLAlchemyError as exc:
            raise _database_error(exc, doing) from None

    @contextmanager
    def _writing(self, doing: str = "save it") -> Iterator[sa.Connection]:
        """One write transaction (SQLite: BEGIN IMMEDIATE); driver errors become StoreError."""
        try:
            with self._engine.connect() as conn:
                conn.execution_options(**{WRITE: True})
                with conn.begin():
                    yield conn
        except sa.exc.SQLAlchemyError as exc:
            raise _database_error(exc, doing) from None

    def _insert(self, table: sa.Table):
        return (pg_dialect.insert if self.kind == "postgresql" else sqlite_dialect.insert)(table)

    # --- schema -------------------------------------------------------------------------------------

    def _version(self, conn: sa.Connection) -> int:
        if self.kind == "sqlite":
            return conn.exec_driver_sql("PRAGMA user_version").scalar_one()
        if conn.execute(sa.text("SELECT to_regclass(:t)"), {"t": SCHEMA_TABLE}).scalar() is None:
            return 0
        return conn.exec_driver_sql(f"SELECT COALESCE(MAX(version), 0) FROM {SCHEMA_TABLE}").scalar_one()

    def _set_version(self, conn: sa.Connection, version: int) -> None:
        if self.kind == "sqlite":
            conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
            return
        conn.exec_driver_sql(f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER NOT NULL, "
                             "migrated_at TEXT NOT NULL)")
        conn.exec_driver_sql(f"DELETE FROM {SCHEMA_TABLE}")
        conn.execute(sa.text(f"INSERT INTO {SCHEMA_TABLE} (version, migrated_at) VALUES (:v, :t)"),
                     {"v": version, "t": _now()})

    def _migrate(self) -> None:
        with self._reading("be opened") as conn:
            if self._version(conn) >= SCHEMA_VERSION:
                return
        # One migrating connection at a time; the others wait, then see it done.
        with self._engine.connect() as conn:
            conn.execution_options(**{WRITE: True})
            with conn.begin():
                if self.kind == "postgresql":
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
                version = self._version(conn)  # as the last one to migrate left it
                for migration in MIGRATIONS[version:]:
                    migration(conn)
                if version < SCHEMA_VERSION:
                    self._set_version(conn, SCHEMA_VERSION)

    def schema_version(self) -> int:
        with self._reading() as conn:
            return self._version(conn)

    # --- judgements ------------------------------------------------------------------------------

    def save(self, corpus: str, task: str, pair_id: str, annotator: str, verdict: str, note: str = "",
             corpus_name: str = "", *, task_name: str = "", kind: str = "", system_a: str = "", system_b: str = "",
             shown_first: str = "", rouge_highlights: bool = False, corpus_data: Corpus | None = None,
             seed: int | None = None, account: Account | None = None) -> Judgement:
        """Store one judgement (replacing the annotator's earlier one on this pair and task); in
        the same transaction, `corpus_data` (the judged corpus, if not stored yet), `seed` (the
        annotator's blinding seed, if they have none yet) and `account` (the logged-in
        annotator, whose key must be `annotator`: their name and e-mail as last seen)."""
        if not annotator.strip():
            raise ValueError("enter an annotator name before recording judgements")
        if corpus_data is not None and corpus_data.fingerprint() != corpus:
            raise ValueError("the corpus stored with a judgement must be the one it judges")
        if account is not None and account.key != annotator.strip():
            raise ValueError("a judgement made logged in is recorded under the account that made it")
        row = Judgement(corpus, task, str(pair_id), annotator.strip(), str(verdict), note or "", _now(), corpus_name,
                        task_name, kind, system_a, system_b, shown_first, bool(rouge_highlights),
                        account.issuer if account else "", account.subject if account else "")
        values = {**row.__dict__, "rouge_highlights": int(row.rouge_highlights)}
        statement = self._insert(judgements).values(values)
        statement = statement.on_conflict_do_update(
            index_elements=list(_KEY), set_={c: statement.excluded[c] for c in FIELDS if c not in _KEY})
        with self._writing() as conn:
            if corpus_data is not None:
                self._insert_corpus(conn, corpus_data)
            if seed is not None:
                self._insert_seed(conn, row.annotator, seed)
            if account is not None:
                self._record_account(conn, account)
            conn.execute(statement)
        return row

    def get(self, corpus: str, task: str, pair_id: str, annotator: str) -> Judgement | None:
        j = judgements.c
        with self._reading() as conn:
            row = conn.execute(sa.select(judgements).where(
                j.corpus == corpus, j.task == task, j.pair_id == str(pair_id), j.annotator == annotator.strip())).first()
        return Judgement.from_row(row) if row else None

    def all(self, corpus: str | None = None, task: str | None = None) -> list[Judgement]:
        j = judgements.c
        query = sa.select(judgements)
        if corpus is not None:
            query = query.where(j.corpus == corpus)
        if task is not None:
            query = query.where(j.task == task)
        with self._reading() as conn:
            rows = [Judgement.from_row(r) for r in conn.execute(query)]
        return sorted(rows, key=lambda r: (r.corpus, r.task, r.pair_id, r.annotator))  # one order on both databases

    def count(self, corpus: str | None = None) -> int:
        """How many judgements are stored (for one corpus, or in all)."""
        query = sa.select(sa.func.count()).select_from(judgements)
        if corpus is not None:
            query = query.where(judgements.c.corpus == corpus)
        with self._reading() as conn:
            return conn.execute(query).scalar_one()

    def frame(self, corpus: str | None = None, task: str | None = None):
        return judgement_frame(self.all(corpus, task))

    def visible_to(self, viewer: str, corpus: str | None = None, pair_ids: Sequence[str] | None = None,
                   role: str = rt.SINGLE_USER) -> list[Judgement]:
        """The judgements (of one corpus, or of every corpus) that `viewer` in `role` may see:
        the rule of review_tasks.visible_judgements, fed with the tasks' options and each
        corpus's pairs (`pair_ids`, when the caller has the corpus `corpus` at hand; else the
        stored corpus's, and a corpus not stored has no known pairs: nobody has finished its
        tasks)."""
        options = self.task_options()
        by_corpus: dict[str, list[Judgement]] = {}
        for row in self.all(corpus):
            by_corpus.setdefault(row.corpus, []).append(row)
        out = []
        for fingerprint, rows in by_corpus.items():
            ids = pair_ids if corpus is not None and pair_ids is not None else self.corpus_ids(fingerprint)
            out += visible_judgements(viewer, rows, options, ids, role)
        return out

    # --- task definitions --------------------------------------------------------------------------

    def tasks(self) -> list[Task]:
        with self._reading() as conn:
            rows = conn.execute(sa.select(tasks_table.c.name, tasks_table.c.definition).order_by(
                tasks_table.c.position, tasks_table.c.name)).fetchall()
        return [Task.from_json(name, definition) for name, definition in rows]

    def save_task(self, task: Task, owner: str = "", role: str = rt.SINGLE_USER,
                  account: Account | None = None) -> None:
        """Create the task (`owner`: its creator) or change its definition (the owner stays).
        With logins only task owners (the role) create or change tasks, and only their own
        or ones without an owner."""
        problems = task.problems()
        if problems:
            raise ValueError("; ".join(problems))
        if role == rt.ANNOTATOR:
            raise PermissionError("only a task owner can create or change tasks")
        t = tasks_table.c
        with self._writing("save the task") as conn:
            current = conn.execute(sa.select(t.owner).where(t.name == task.name).with_for_update()).first()
            if current is not None and role == rt.OWNER and current[0] not in ("", owner.strip()):
                raise PermissionError("this task belongs to another task owner")
            if account is not None:
                self._record_account(conn, account)
            if current is None:
                position = sa.select(sa.func.coalesce(sa.func.max(t.position), 0) + 1).scalar_subquery()
                conn.execute(sa.insert(tasks_table).values(name=task.name, definition=task.to_json(), updated_at=_now(),
                                                            owner=owner.strip(), rouge_highlights=0, others_visible=0,
                                                            position=position))
            else:
                conn.execute(sa.update(tasks_table).where(t.name == task.name).values(definition=task.to_json(),
                                                                                       updated_at=_now()))

    def task_options(self) -> dict[str, TaskOptions]:
        """{task name: its options}."""
        t = tasks_table.c
        with self._reading() as conn:
            rows = conn.execute(sa.select(t.name, t.owner, t.rouge_highlights, t.others_visible)).fetchall()
        return {name: TaskOptions(owner, bool(highlights), bool(visible)) for name, owner, highlights, visible in rows}

    def set_task_options(self, name: str, by: str, *, rouge_highlights: bool, others_visible: bool,
                         role: str = rt.SINGLE_USER, account: Account | None = None) -> TaskOptions:
        """Set a task's options as annotator `by` in `role`, who must own it; a task without an
        owner becomes theirs (review_tasks.may_change_options)."""
        t = tasks_table.c
        with self._writing("save the task's options") as conn:
            row = conn.execute(sa.select(t.owner).where(t.name == name).with_for_update()).first()
            if row is None:
                raise KeyError(f"there is no task named {excerpt(name)}")
            if not may_change_options(by, TaskOptions(row[0]), role):
                if role == rt.ANNOTATOR:
                    raise PermissionError("only a task owner can change a task's options")
                if not row[0]:
                    raise PermissionError("enter an annotator name to set a task's options")
                # with logins the owner is an account: named to nobody but themselves
                raise PermissionError(f"only the task's owner, {row[0]}, can change its options"
                                      if role == rt.SINGLE_USER else "only the task's owner can change its options")
            if account is not None:
                self._record_account(conn, account)
            options = TaskOptions(row[0] or by.strip(), bool(rouge_highlights), bool(others_visible))
            conn.execute(sa.update(tasks_table).where(t.name == name).values(
                owner=options.owner, rouge_highlights=int(options.rouge_highlights),
                others_visible=int(options.others_visible), updated_at=_now()))
        return options

    def task_in_use(self, name: str) -> bool:
        """Whether judgements were saved under this task (its scale can then no longer change)."""
        with self._reading() as conn:
            return conn.execute(sa.select(judgements.c.task).where(judgements.c.task_name == name).limit(1)).first() \
                is not None

    # --- corpora -------------------------------------------------------------------------------------

    def save_corpus(self, corpus: Corpus) -> str:
        """Store the corpus under its fingerprint (once); returns the fingerprint. (The Review
        page stores a corpus with its first judgement: `save(..., corpus_data=corpus)`.)"""
        with self._writing("store the corpus") as conn:
            return self._insert_corpus(conn, corpus)

    def _insert_corpus(self, conn: sa.Connection, corpus: Corpus) -> str:
        fingerprint = corpus.fingerprint()
        if conn.execute(sa.select(corpora_table.c.fingerprint).where(
                corpora_table.c.fingerprint == fingerprint)).first() is None:
            content = {"ids": corpus.ids, "systems": corpus.systems, "references": corpus.references}
            if corpus.sources is not None:  # the source documents are part of the corpus (and of its fingerprint)
                content["sources"] = corpus.sources
            data = json.dumps(content, ensure_ascii=False)
            conn.execute(self._insert(corpora_table).values(
                fingerprint=fingerprint, name=corpus.source, pairs=len(corpus),
                systems=json.dumps(corpus.system_names, ensure_ascii=False), data=data, stored_at=_now(),
                ids=json.dumps(list(corpus.ids), ensure_ascii=False)).on_conflict_do_nothing(
                index_elements=["fingerprint"]))
        return fingerprint

    def has_corpus(self, fingerprint: str) -> bool:
        with self._reading() as conn:
            return conn.execute(sa.select(corpora_table.c.fingerprint).where(
                corpora_table.c.fingerprint == str(fingerprint))).first() is not None

    def corpus_ids(self, fingerprint: str) -> tuple[str, ...] | None:
        """The pair ids of a stored corpus (None when it is not stored)."""
        with self._reading() as conn:
            row = conn.execute(sa.select(corpora_table.c.ids).where(
                corpora_table.c.fingerprint == str(fingerprint))).first()
        return tuple(str(i) for i in json.loads(row[0])) if row else None

    def corpus(self, fingerprint: str) -> Corpus | None:
        """The stored corpus with this fingerprint (None when there is none, or its data no
        longer hashes to it)."""
        c = corpora_table.c
        with self._reading() as conn:
            row = conn.execute(sa.select(c.name, c.data).where(c.fingerprint == str(fingerprint))).first()
        if row is None:
            return None
        data = json.loads(row[1])
        corpus = Corpus(tuple(data["ids"]), {s: tuple(c) for s, c in data["systems"].items()},
                        tuple(tuple(r) for r in data["references"]), source=row[0],
                        sources=tuple(data["sources"]) if data.get("sources") is not None else None)
        return corpus if corpus.fingerprint() == fingerprint else None

    def corpora(self) -> list[dict]:
        """Every stored corpus (newest first): fingerprint, name, pairs, systems, when stored,
        how many judgements it has and when the last was saved."""
        c, j = corpora_table.c, judgements.c
        query = (sa.select(c.fingerprint, c.name, c.pairs, c.systems, c.stored_at, sa.func.count(j.pair_id),
                           sa.func.max(j.updated_at))
                 .select_from(corpora_table.outerjoin(judgements, j.corpus == c.fingerprint))
                 .group_by(c.fingerprint, c.name, c.pairs, c.systems, c.stored_at)
                 .order_by(c.stored_at.desc(), c.fingerprint))
        with self._reading() as conn:
            rows = conn.execute(query).fetchall()
        return [{"fingerprint": f, "name": n, "pairs": p, "systems": ", ".join(json.loads(s)), "stored_at": t,
                 "judgements": count, "last_judged": last or ""} for f, n, p, s, t, count, last in rows]

    # --- annotators ---------------------------------------------------------------------------------

    def seed_of(self, annotator: str) -> int | None:
        """The annotator's stored blinding seed (None before their first judgement)."""
        a = annotators_table.c
        with self._reading() as conn:
            row = conn.execute(sa.select(a.seed).where(a.name == annotator.strip())).first()
        return int(row[0]) if row else None

    def annotator_seed(self, annotator: str, proposed: int | None = None) -> int:
        """The annotator's blinding seed: `proposed` (else drawn at random) the first time, then
        the one kept."""
        name = annotator.strip()
        if not name:
            raise ValueError("enter an annotator name")
        with self._writing() as conn:
            return self._insert_seed(conn, name, secrets.randbits(62) if proposed is None else proposed)

    def _insert_seed(self, conn: sa.Connection, name: str, seed: int) -> int:
        a = annotators_table.c
        conn.execute(self._insert(annotators_table).values(name=name, seed=int(seed), created_at=_now())
                     .on_conflict_do_nothing(index_elements=["name"]))
        return int(conn.execute(sa.select(a.seed).where(a.name == name)).scalar_one())

    def preference(self, annotator: str, name: str):
        """An annotator's preference (PREFERENCE_DEFAULTS[name] when they have not set it)."""
        p = preferences_table.c
        with self._reading() as conn:
            row = conn.execute(sa.select(p.value).where(p.annotator == annotator.strip(), p.name == name)).first()
        return json.loads(row[0]) if row else PREFERENCE_DEFAULTS[name]

    def set_preference(self, annotator: str, name: str, value) -> None:
        if not annotator.strip():
            raise ValueError("enter an annotator name")
        if name not in PREFERENCE_DEFAULTS:
            raise KeyError(f"no preference named {excerpt(name)}")
        statement = self._insert(preferences_table).values(annotator=annotator.strip(), name=name,
                                                           value=json.dumps(value), updated_at=_now())
        with self._writing("save the preference") as conn:
            conn.execute(statement.on_conflict_do_update(index_elements=["annotator", "name"], set_={
                "value": statement.excluded.value, "updated_at": statement.excluded.updated_at}))

    # --- accounts (logged-in annotators) --------------------------------------------------------------

    def _record_account(self, conn: sa.Connection, account: Account) -> None:
        now = _now()
        statement = self._insert(accounts_table).values(account=account.key, issuer=account.issuer,
                                                        subject=account.subject, name=account.name,
                                                        email=account.email, first_seen=now, last_seen=now)
        conn.execute(statement.on_conflict_do_update(index_elements=["account"], set_={
            "name": statement.excluded.name, "email": statement.excluded.email,
            "last_seen": statement.excluded.last_seen}))

    def accounts(self) -> dict[str, Account]:
        """{account key: the account as last seen} of every logged-in annotator who saved something."""
        c = accounts_table.c
        with self._reading() as conn:
            rows = conn.execute(sa.select(c.account, c.issuer, c.subject, c.name, c.email)).fetchall()
        return {key: Account(issuer, subject, name, email) for key, issuer, subject, name, email in rows}


def judgement_frame(rows: list[Judgement]):
    """Judgements as a table, one column per field."""
    import pandas as pd

    return pd.DataFrame([j.__dict__ for j in rows], columns=list(FIELDS))
