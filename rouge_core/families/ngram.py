"""ROUGE-N: clipped n-gram co-occurrence, with the matched n-grams as evidence."""

from __future__ import annotations

from collections import Counter, _count_elements, defaultdict  # the loop behind Counter.update (C in CPython)
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..deferred import Deferred
from ..stats import Stats


@dataclass(frozen=True, slots=True)
class NgramMatch:
    """An n-gram found on both sides.

    `matched` = min(cand_count, ref_count) is the clipped count; the first `matched`
    occurrences (by position) on each side are the matched ones, the rest are clipped.
    Positions are start indices into the side's token list.
    """

    ngram: tuple[str, ...]
    cand_count: int
    ref_count: int
    matched: int
    cand_starts: tuple[int, ...]
    ref_starts: tuple[int, ...]


@dataclass(frozen=True)
class NgramEvidence:
    n: int
    matches: tuple[NgramMatch, ...] = Deferred()  # ordered by first candidate position (compiled: built on first read)
    cand_total: int
    ref_total: int


def count_items(items: Iterable) -> Counter:
    """`Counter(items)`, without Counter.__init__ and update's Python-level dispatch, which
    cost about as much as counting a summary's tokens (a corpus builds several per pair).
    A Counter is a dict subclass with no state of its own, so skipping __init__ is safe."""
    counts = Counter.__new__(Counter)
    _count_elements(counts, items)
    return counts


def ngram_counts(terms: Sequence[str], n: int) -> Counter:
    if n == 1:
        return count_items(terms)
    if n > len(terms):  # no n-gram (and no n slices of the terms to build)
        return Counter()
    return count_items(zip(*[terms[i:] for i in range(n)]))


def clipped_hits(cand_counts: Counter, ref_counts: Counter, cand_total: int | None = None,
                 ref_total: int | None = None) -> int:
    """Σ over shared n-grams of min(candidate count, reference count).

    When a side's total (if given) shows it repeats no n-gram, that is just the number of
    shared n-grams (one set intersection); otherwise one pass over the smaller side."""
    if len(cand_counts) == cand_total or len(ref_counts) == ref_total:
        return len(cand_counts.keys() & ref_counts.keys())
    if len(ref_counts) < len(cand_counts):
        cand_counts, ref_counts = ref_counts, cand_counts
    hits = 0
    ref_get = ref_counts.get
    for gram, count in cand_counts.items():
        ref_count = ref_get(gram)
        if ref_count:
            hits += count if count < ref_count else ref_count
    return hits


def ngram_stats(cand: Sequence[str], ref: Sequence[str], n: int, cand_counts: Counter | None = None,
                ref_counts: Counter | None = None) -> Stats:
    """Clipped n-gram hits; the counts may be passed in when already computed."""
    if cand_counts is None:
        cand_counts = ngram_counts(cand, n)
    if ref_counts is None:
        ref_counts = ngram_counts(ref, n)
    cand_total, ref_total = max(len(cand) - n + 1, 0), max(len(ref) - n + 1, 0)
    return Stats(clipped_hits(cand_counts, ref_counts, cand_total, ref_total), cand_total, ref_total)


def _starts(terms: Sequence[str], n: int) -> dict[tuple[str, ...], list[int]]:
    where: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i in range(len(terms) - n + 1):
        where[tuple(terms[i : i + n])].append(i)
    return where


def ngram_evidence(cand: Sequence[str], ref: Sequence[str], n: int) -> NgramEvidence:
    cand_where = _starts(cand, n)
    ref_where = _starts(ref, n)
    matches = []
    for gram, cand_starts in cand_where.items():
        ref_starts = ref_where.get(gram)
        if not ref_starts:
            continue
        matches.append(
            NgramMatch(
                gram,
                len(cand_starts),
                len(ref_starts),
                min(len(cand_starts), len(ref_starts)),
                tuple(cand_starts),
                tuple(ref_starts),
            )
        )
    matches.sort(key=lambda m: m.cand_starts[0])
    return NgramEvidence(n, tuple(matches), max(len(cand) - n + 1, 0), max(len(ref) - n + 1, 0))
