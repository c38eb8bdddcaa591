"""Corpus scoring across processes: chunks of pairs go to a ProcessPoolExecutor, results
stream back in corpus order with a progress callback, and at most a few chunks are in
flight at any time, so memory stays bounded however long the input iterator is.

Each worker runs `rouge_core.corpus.score_pair_stats` (the same pure per-pair function
`score_corpus` uses), so the numbers are the single-process numbers.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from itertools import islice
from typing import Callable, Iterable, Iterator, Sequence

from .cost import CostLimit, CostLimitError, resolve_limit
from .methods import Method, parse_method
from .options import Options
from .scoring import MethodScore, resolve_options

Pair = tuple[str, Sequence[str]]


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
    from .corpus import score_pair_stats

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
    """`rouge_core.corpus.score_corpus` on several processes; returns the same CorpusResult
    (`cost_limit` bounds each pair, as there)."""
    from .corpus import assemble_corpus

    def score_in_processes(names, opts):
        return iter_scores(candidates, references_per_pair, names, opts, workers=workers,
                           chunk_size=chunk_size, progress=progress, cost_limit=cost_limit)

    return assemble_corpus(candidates, references_per_pair, methods, options, ids, score_in_processes)
