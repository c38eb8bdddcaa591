"""One writer of the store's concurrency test (tests/app/test_review_store_concurrency.py), run
as a process: `python -m tests.store_writer DATABASE WRITER COUNT`.

It saves COUNT judgements under its own annotator name, each with the corpus and a seed (so
every save writes three tables) and a long note (so a save spends time inside its transaction),
and prints `begin I` before and `ok I` after each save: a judgement is acknowledged once its
`ok` line is out. The test kills some writers with SIGKILL at any point and checks that every
acknowledged judgement is in the database, whole.
"""

from __future__ import annotations

import hashlib
import sys

from lens_app import review_tasks as rt
from lens_app.review_store import ReviewStore
from rouge_core.corpora import corpus_io

CSV = "id,candidate_A,reference\n" + "".join(f"p{i},summary {i},reference {i}\n" for i in range(8))
CORPUS = corpus_io.build_corpus(corpus_io.read_csv(CSV.encode(), "concurrency.csv"))
TASK = rt.task_key(rt.DEFAULT_TASKS[0], ["candidate_A"])
NOTE_CHARS = 20_000


def note_of(writer: str, index: int) -> str:
    """The long note a writer saves with judgement `index`: checkable from its name alone."""
    seed = hashlib.sha256(f"{writer}/{index}".encode()).hexdigest()
    return (seed * (NOTE_CHARS // len(seed) + 1))[:NOTE_CHARS]


def pair_of(writer: str, index: int) -> str:
    return f"{writer}-{index:05d}"


def verdict_of(index: int) -> str:
    return str(1 + index % 5)


def main(database: str, writer: str, count: int) -> None:
    store = ReviewStore(database)
    fingerprint = CORPUS.fingerprint()
    for index in range(count):
        print(f"begin {index}", flush=True)
        store.save(fingerprint, TASK, pair_of(writer, index), writer, verdict_of(index), note_of(writer, index),
                   CORPUS.source, task_name=rt.DEFAULT_TASKS[0].name, kind="rating", system_a="candidate_A",
                   corpus_data=CORPUS, seed=index + 1)
        print(f"ok {index}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
