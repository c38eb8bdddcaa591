"""ROUGE-S (skip-bigrams) and ROUGE-SU (skip-bigrams plus unigrams), with the table of
skip-bigrams as evidence.

A skip-bigram is an ordered pair of tokens with at most `distance` tokens between them
(`distance` None: unlimited). Two SU forms exist:
- "rouge155": ROUGE-1.5.5 `-u`/`-U` adds the unigram of every position *but the last*
  (its loop stops one short), counted alongside the skip-bigrams.
- "start-token": Lin's definition, used by MATLAB's documentation: prepend a start token
  to each side and count skip-bigrams, so (start, w) pairs play the unigrams' part.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, repeat
from dataclasses import dataclass
from typing import Sequence

from ..deferred import Deferred
from .ngram import clipped_hits
from ..stats import Stats

START_TOKEN = "<s>"


def _reach(n: int, distance: int | None) -> int:
    """How far ahead a token pairs: distance + 1 positions, or all of them."""
    return n if distance is None or distance < 0 else distance + 1


def skip_bigram_counts(terms: Sequence[str], distance: int | None, unigrams: bool = False) -> Counter:
    """Skip-bigram counts; with `unigrams`, ROUGE-1.5.5's -u unigrams (every position but
    the last, as 1-tuples). Counted one gap at a time, each gap a C-level pass over pairs."""
    counts: Counter = Counter()
    n = len(terms)
    if unigrams:
        counts.update(zip(terms[: n - 1]))
    for gap in range(1, min(_reach(n, distance), n - 1) + 1):
        counts.update(zip(terms, terms[gap:]))
    return counts


def skip_bigram_positions(n: int, distance: int | None):
    """The (first, second) positions of a text of n tokens' skip-bigrams in reading order
    (what skip_bigram_counts counts, position by position; for teaching)."""
    reach = _reach(n, distance)
    return ((i, j) for i in range(n - 1) for j in range(i + 1, min(n, i + 1 + reach)))


def _reading_order(terms: Sequence[str], distance: int | None, unigrams: bool = False) -> dict:
    """The grams of skip_bigram_counts in order of first occurrence (position of the first
    token, then of the second; a position's unigram before its pairs), for evidence tables."""
    n = len(terms)
    reach = _reach(n, distance)
    return dict.fromkeys(chain.from_iterable(
        chain(((terms[i],),) if unigrams else (), zip(repeat(terms[i]), terms[i + 1 : i + 1 + reach]))
        for i in range(n - 1)
    ))


def skip_bigram_total(n: int, distance: int | None) -> int:
    """How many skip-bigrams a text of n tokens has: the cost of a computation, known up front
    (rouge_core.scorer.cost bounds it before scoring)."""
    if n < 2:
        return 0
    if distance is None or distance < 0 or distance + 1 >= n - 1:
        return n * (n - 1) // 2
    reach = distance + 1
    # positions i < n - reach pair with `reach` partners; the last `reach` positions with fewer
    return (n - reach) * reach + reach * (reach - 1) // 2


def _gram_source(terms: Sequence[str], su_form: str | None) -> tuple[Sequence[str], bool]:
    """The token list whose skip-bigrams are counted, and whether -u unigrams join them."""
    if su_form == "start-token":
        return ([START_TOKEN, *terms] if terms else []), False
    return terms, su_form == "rouge155"


def _counts_for(terms: Sequence[str], distance: int | None, su_form: str | None) -> Counter:
    source, unigrams = _gram_source(terms, su_form)
    return skip_bigram_counts(source, distance, unigrams)


def _in_reading_order(terms: Sequence[str], distance: int | None, su_form: str | None) -> dict:
    source, unigrams = _gram_source(terms, su_form)
    return _reading_order(source, distance, unigrams)


# One row per distinct gram (about 16,000 for rougeSU4 on a 2,000-token pair): a plain
# slotted dataclass, read-only by convention, since a frozen one's __init__ costs three times
# as much.
@dataclass(slots=True, unsafe_hash=True)
class SkipBigramRow:
    gram: tuple[str, ...]  # (a, b) for a skip-bigram, (a,) for an SU unigram
    cand_count: int
    ref_count: int
    matched: int

    @property
    def is_unigram(self) -> bool:
        return len(self.gram) == 1 or self.gram[0] == START_TOKEN


@dataclass(frozen=True)
class SkipBigramEvidence:
    distance: int | None
    su_form: str | None
    # every gram of the reference, then the candidate's others (the compiled path builds them on first read)
    rows: tuple[SkipBigramRow, ...] = Deferred()
    cand_total: int
    ref_total: int


def skip_stats(cand: Sequence[str], ref: Sequence[str], distance: int | None, su_form: str | None = None,
               evidence: bool = False):
    """The kernel: no cost check here (scoring checks the whole call with rouge_core.scorer.cost
    first; see `skip_bigram_total`)."""
    cand_counts = _counts_for(cand, distance, su_form)
    ref_counts = _counts_for(ref, distance, su_form)
    hits = clipped_hits(cand_counts, ref_counts)
    cand_total = sum(cand_counts.values())
    ref_total = sum(ref_counts.values())
    stats = Stats(hits, cand_total, ref_total)
    if not evidence:
        return stats, None
    # The reference's grams in reading order, then the candidate's others in theirs.
    rows = [SkipBigramRow(g, cand_counts.get(g, 0), ref_counts[g], min(ref_counts[g], cand_counts.get(g, 0)))
            for g in _in_reading_order(ref, distance, su_form)]
    rows += [SkipBigramRow(g, cand_counts[g], 0, 0) for g in _in_reading_order(cand, distance, su_form)
             if g not in ref_counts]
    return stats, SkipBigramEvidence(distance, su_form, tuple(rows), cand_total, ref_total)
