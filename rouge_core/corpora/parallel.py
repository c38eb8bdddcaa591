"""Corpus scoring across processes: chunks of pairs go to a ProcessPoolExecutor, results
stream back in corpus order with a progress callback, and at most a few chunks are in
flight at any time, so memory stays bounded however long the input iterator is.

Each worker runs `rouge_core.corpora.pairs.score_pair_stats` (the same pure per-pair function
`score_corpus` uses), so the numbers are the single-process numbers. The pool itself is
`rouge_core.corpora.pairs.iter_scores` (re-exported here), below the corpus layer; this module adds
`score_corpus_parallel`, which builds the CorpusResult.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .corpus import assemble_corpus
from ..scorer.cost import CostLimit
from ..families.methods import Method
from ..text.options import Options
# rouge_core.corpora.parallel's names before rouge_core.corpora.pairs held them
from .pairs import Pair, default_workers, iter_scores  # noqa: F401


def score_corpus_parallel(
    candidates: Sequence[str],
    references_per_pair: Sequence[Sequence[str]],
    methods: Sequence[str | Method],
    options: Options | str | None = None,
    *,
    ids: Sequence[str] | None = None,
    workers: int | None = None,
    chunk_size: int = 256,
    progress: Callable[[int, int | None], None] | None = None,
    cost_limit: CostLimit | None = None,
):
    """`rouge_core.corpora.corpus.score_corpus` on several processes; returns the same CorpusResult
    (`cost_limit` bounds each pair, as there)."""
    def score_in_processes(names, opts):
        return iter_scores(candidates, references_per_pair, names, opts, workers=workers,
                           chunk_size=chunk_size, progress=progress, cost_limit=cost_limit)

    return assemble_corpus(candidates, references_per_pair, methods, options, ids, score_in_processes)
