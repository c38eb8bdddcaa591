"""A generated corpus with human ratings, for the Review, meta-evaluation and Compare tests:
`systems` systems × `documents` documents, each summary a noisy copy of its reference (a
system keeps a reference word with its own probability), rated 1–5 by two annotators who see
how much of the reference a summary kept, each with their own noise. Seeded: the same call
gives the same corpus and ratings."""

from __future__ import annotations

import random

WORDS = ("the cat sat on a mat while dog ran home quickly under hot sun and rain fell all day long over "
         "old town market people bought fresh bread fish fruit").split()
KEEP = {"alpha": 0.85, "beta": 0.7, "gamma": 0.45, "delta": 0.3, "epsilon": 0.6}  # per system


def corpus_csv(systems: int = 3, documents: int = 25, seed: int = 0) -> str:
    rng = random.Random(seed)
    names = list(KEEP)[:systems]
    lines = ["id," + ",".join(f"candidate_{n}" for n in names) + ",reference"]
    for d in range(documents):
        reference = [rng.choice(WORDS) for _ in range(rng.randint(10, 16))]
        cells = []
        for n in names:
            summary = [w if rng.random() < KEEP[n] else rng.choice(WORDS) for w in reference]
            cells.append(" ".join(summary[: max(4, int(len(summary) * rng.uniform(0.6, 1.0)))]))
        lines.append(f"doc{d:02d}," + ",".join(cells) + "," + " ".join(reference))
    return "\n".join(lines) + "\n"


def ratings(corpus, annotators=("ann1", "ann2"), seed: int = 1) -> list[tuple[str, str, str, int]]:
    """(system, doc id, annotator, rating 1–5) for every summary of `corpus` (a corpus_io.Corpus)."""
    rng = random.Random(seed)
    out = []
    for system, candidates in corpus.systems.items():
        for doc_id, candidate, references in zip(corpus.ids, candidates, corpus.references):
            reference = set(references[0].split())
            kept = sum(w in reference for w in candidate.split()) / max(1, len(candidate.split()))
            for annotator in annotators:
                out.append((system, doc_id, annotator, max(1, min(5, round(1 + 4 * kept + rng.gauss(0, 0.7))))))
    return out


def ratings_csv(rows) -> str:
    return "system,doc_id,annotator,score,aspect\n" + "".join(f"{s},{d},{a},{r},overall\n" for s, d, a, r in rows)


def many_systems_csv(systems: int = 16, documents: int = 100, seed: int = 0) -> str:
    """Like `corpus_csv` with any number of systems, one column each: candidate_M0, candidate_M1, …
    (the loader names each system after its column), system M{i} keeping a reference word with a
    probability spread evenly from 0.3 to 0.9."""
    rng = random.Random(seed)
    keep = [0.3 + 0.6 * i / max(1, systems - 1) for i in range(systems)]
    lines = ["id," + ",".join(f"candidate_M{i}" for i in range(systems)) + ",reference"]
    for d in range(documents):
        reference = [rng.choice(WORDS) for _ in range(rng.randint(10, 16))]
        cells = []
        for p in keep:
            summary = [w if rng.random() < p else rng.choice(WORDS) for w in reference]
            cells.append(" ".join(summary[: max(4, int(len(summary) * rng.uniform(0.6, 1.0)))]))
        lines.append(f"doc{d:02d}," + ",".join(cells) + "," + " ".join(reference))
    return "\n".join(lines) + "\n"
