"""Judgements of the Review page, kept in SQLite.

One row per (corpus, task, pair, annotator): the last write wins, with its time and the
annotator's name. WAL mode lets two browser sessions (two connections) read and write the
same file at once; each call opens its own short-lived connection, so nothing is shared
between Streamlit's script threads.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping

ENV_VAR = "ROUGE_LENS_DB"
SECRET_KEY = "judgements_db"  # in .streamlit/secrets.toml
DEFAULT_PATH = Path("~/.rouge_lens/judgements.sqlite3")

SCHEMA = """
CREATE TABLE IF NOT EXISTS judgements (
    corpus TEXT NOT NULL,      -- Corpus.fingerprint(): the same corpus, whoever uploads it
    task TEXT NOT NULL,        -- "rating" or "compare:<system A>|<system B>"
    pair_id TEXT NOT NULL,
    annotator TEXT NOT NULL,
    verdict TEXT NOT NULL,     -- "A", "B", "tie" or "1".."5"
    note TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,  -- ISO 8601, UTC
    corpus_name TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (corpus, task, pair_id, annotator)
)
"""


def configured_path(secrets: Mapping[str, object] | None = None) -> Path:
    """Where the judgements live: server configuration only, never user input.

    The environment variable ROUGE_LENS_DB wins, then `judgements_db` in the app's
    .streamlit/secrets.toml (`secrets`), then ~/.rouge_lens/judgements.sqlite3.
    """
    configured = os.environ.get(ENV_VAR) or (secrets or {}).get(SECRET_KEY)
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


class ReviewStore:
    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path).expanduser() if path else configured_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(SCHEMA)
            conn.commit()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10)
        conn.execute("PRAGMA busy_timeout=10000")
        return conn

    def save(self, corpus: str, task: str, pair_id: str, annotator: str, verdict: str, note: str = "",
             corpus_name: str = "") -> Judgement:
        if not annotator.strip():
            raise ValueError("enter an annotator name before recording judgements")
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        row = (corpus, task, str(pair_id), annotator.strip(), str(verdict), note or "", now, corpus_name)
        with closing(self._connect()) as conn, conn:
            conn.execute(
                "INSERT INTO judgements (corpus, task, pair_id, annotator, verdict, note, updated_at, corpus_name) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (corpus, task, pair_id, annotator) DO UPDATE SET "
                "verdict = excluded.verdict, note = excluded.note, updated_at = excluded.updated_at, "
                "corpus_name = excluded.corpus_name",
                row,
            )
        return Judgement(*row)

    def get(self, corpus: str, task: str, pair_id: str, annotator: str) -> Judgement | None:
        with closing(self._connect()) as conn:
            row = conn.execute(
                "SELECT corpus, task, pair_id, annotator, verdict, note, updated_at, corpus_name FROM judgements "
                "WHERE corpus = ? AND task = ? AND pair_id = ? AND annotator = ?",
                (corpus, task, str(pair_id), annotator.strip()),
            ).fetchone()
        return Judgement(*row) if row else None

    def all(self, corpus: str | None = None, task: str | None = None) -> list[Judgement]:
        query = "SELECT corpus, task, pair_id, annotator, verdict, note, updated_at, corpus_name FROM judgements"
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
        columns = list(Judgement.__dataclass_fields__)
        return pd.DataFrame(rows, columns=columns)
