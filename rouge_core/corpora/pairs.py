"""Pair by pair: one pair's statistics without evidence (`score_pair_stats`, the pure
per-pair step every corpus runner uses), what a pair adds to a pooled sum
(`pair_micro_stats`), per-pair progress (`each_pair`), and the pairs scored in a pool of
processes in corpus order (`iter_scores`: chunks go to a ProcessPoolExecutor, at most a few
in flight, so memory stays bounded however long the input iterator is).

Below the corpus layer: `rouge_core.corpora.corpus` (CorpusResult, score_corpus), `batch`,
`parallel` and `corpus_stats` build on these (and `corpus`/`parallel` re-export them under
their old names)."""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from itertools import islice
from typing import Callable, Iterable, Iterator, Sequence

from ..scorer.cost import UNBOUNDED, Budget, CostLimit, CostLimitError, resolve_limit
from ..scorer.inputs import prepare_pair
from ..families.methods import Method, parse_method
from ..text.options import Options
from ..scorer.scoring import MethodScore, resolve_options, score_documents
from ..stats import Stats

__all__ = ["default_workers", "each_pair", "iter_scores", "pair_micro_stats", "score_pair_stats"]

Pair = tuple[str, Sequence[str]]


def score_pair_stats(candidate: str, references: Sequence[str], methods: Sequence[str | Method], options: Options,
                     cost_limit: CostLimit | None = None) -> dict[str, MethodScore]:
    """Every method on one (candidate, references) pair, without evidence (it is recomputed
    on demand for the one pair a user opens); the pair's cost is checked against
    `cost_limit` (None: the default bound) first, its tokenizing included."""
    budget = None if cost_limit is UNBOUNDED else Budget(cost_limit)
    cand, refs = prepare_pair(candidate, list(references), options, budget)
    return score_documents(cand, refs, methods, options, evidence=False, cost_limit=cost_limit, budget=budget).methods


def pair_micro_stats(method_score: MethodScore) -> Stats | None:
    """The statistics a pair adds to a pooled (micro) sum.

    Modes that pick one reference contribute that reference's statistics; "max" and
    "mean" combine scores rather than counts, so their pair contributes the pool of all
    its references (the only count-level reading of "every reference counts")."""
    if method_score.stats is not None:
        return method_score.stats
    total = None
    for ref in method_score.per_reference:
        total = ref.stats if total is None else total + ref.stats
    return total


def each_pair(progress: Callable[[int, int], None] | None) -> Callable[[int, int], None] | None:
    """A progress callback told when a run of pairs is done (a chunk), calling `progress` for
    every pair of it in order, as score_corpus promises."""
    if progress is None:
        return None
    reported = 0

    def report(done: int, total: int) -> None:
        nonlocal reported
        for pair in range(reported + 1, done + 1):
            progress(pair, total)
        reported = max(reported, done)

    return report


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _score_chunk(chunk: list[Pair], methods: tuple[str, ...], options: Options, cost_limit: CostLimit | None = None,
                 first: int = 0) -> list[dict[str, MethodScore]]:
    """Score a chunk of pairs; `first` is the corpus position of its first pair (errors name
    the pair by its 1-based number)."""
    out = []
    for k, (cand, refs) in enumerate(chunk):
        try:
            out.append(score_pair_stats(cand, tuple(refs), methods, options, cost_limit))
        except CostLimitError as exc:
            raise exc.with_pair(str(first + k + 1)) from None
    return out


def _chunks(pairs: Iterable[Pair], size: int) -> Iterator[list[Pair]]:
    it = iter(pairs)
    while True:
        chunk = list(islice(it, size))
        if not chunk:
            return
        yield chunk


def iter_scores(
    candidates: Iterable[str],
    references_per_pair: Iterable[Sequence[str]],
    methods: Sequence[str | Method],
    options: Options | str | None = None,
    *,
    workers: int | None = None,
    chunk_size: int = 256,
    max_in_flight: int | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    executor: Executor | None = None,
    cost_limit: CostLimit | None = None,
) -> Iterator[dict[str, MethodScore]]:
    """Yield each pair's `{method name: MethodScore}` (no evidence), in corpus order.

    workers: processes (default: all cores; 1 scores in this process, no pool).
    chunk_size: pairs per task; max_in_flight: tasks submitted ahead (default 2 per worker),
    which bounds memory to about max_in_flight * chunk_size pairs.
    progress(done, total): after each chunk; total is None when the inputs have no len().
    executor: an existing pool to use (left open) instead of starting one.
    cost_limit: the bound of each pair (None: the default bound; rouge_core.UNBOUNDED: none);
    a pair above it raises CostLimitError naming the pair by its number.
    """
    resolve_limit(cost_limit)
    opts = resolve_options(options, {})
    names = tuple(parse_method(m, opts).name for m in methods)
    try:
        total = len(candidates)  # type: ignore[arg-type]
    except TypeError:
        total = None
    pairs = zip(candidates, references_per_pair)
    workers = default_workers() if workers is None else max(1, int(workers))
    done = 0
    if workers == 1 and executor is None:
        for chunk in _chunks(pairs, chunk_size):
            yield from _score_chunk(chunk, names, opts, cost_limit, done)
            done += len(chunk)
            if progress is not None:
                progress(done, total)
        return
    own = executor is None
    pool = executor if executor is not None else ProcessPoolExecutor(max_workers=workers)
    limit = max_in_flight or 2 * workers
    pending: deque = deque()
    try:
        chunks = _chunks(pairs, chunk_size)
        submitted = 0
        for chunk in chunks:
            pending.append(pool.submit(_score_chunk, chunk, names, opts, cost_limit, submitted))
            submitted += len(chunk)
            if len(pending) >= limit:
                break
        while pending:
            results = pending.popleft().result()
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append(pool.submit(_score_chunk, nxt, names, opts, cost_limit, submitted))
                submitted += len(nxt)
            done += len(results)
            if progress is not None:
                progress(done, total)
            yield from results
    finally:
        for fut in pending:
            fut.cancel()
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
