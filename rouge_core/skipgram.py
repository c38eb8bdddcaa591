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
from dataclasses import dataclass
from typing import Sequence

from .stats import Stats

START_TOKEN = "<s>"


def skip_bigram_counts(terms: Sequence[str], distance: int | None, unigrams: bool = False) -> Counter:
    counts: Counter = Counter()
    n = len(terms)
    reach = n if distance is None or distance < 0 else distance + 1
    for i in range(n - 1):
        first = terms[i]
        if unigrams:
            counts[(first,)] += 1
        for j in range(i + 1, min(n, i + 1 + reach)):
            counts[(first, terms[j])] += 1
    return counts


def skip_bigram_total(n: int, distance: int | None) -> int:
    """How many skip-bigrams a text of n tokens has: the cost of a computation, known up front."""
    if n < 2:
        return 0
    if distance is None or distance < 0 or distance + 1 >= n - 1:
        return n * (n - 1) // 2
    reach = distance + 1
    # positions i < n - reach pair with `reach` partners; the last `reach` positions with fewer
    return (n - reach) * reach + reach * (reach - 1) // 2


def _counts_for(terms: Sequence[str], distance: int | None, su_form: str | None) -> Counter:
    if su_form == "start-token":
        return skip_bigram_counts([START_TOKEN, *terms] if terms else [], distance)
    return skip_bigram_counts(terms, distance, unigrams=su_form == "rouge155")


@dataclass(frozen=True, slots=True)
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
    rows: tuple[SkipBigramRow, ...]  # every gram of the reference, then the candidate's others
    cand_total: int
    ref_total: int


def skip_stats(cand: Sequence[str], ref: Sequence[str], distance: int | None, su_form: str | None = None, evidence: bool = False):
    cand_counts = _counts_for(cand, distance, su_form)
    ref_counts = _counts_for(ref, distance, su_form)
    hits = sum(min(c, cand_counts[g]) for g, c in ref_counts.items() if g in cand_counts)
    cand_total = sum(cand_counts.values())
    ref_total = sum(ref_counts.values())
    stats = Stats(hits, cand_total, ref_total)
    if not evidence:
        return stats, None
    rows = [SkipBigramRow(g, cand_counts.get(g, 0), c, min(c, cand_counts.get(g, 0))) for g, c in ref_counts.items()]
    rows += [SkipBigramRow(g, c, 0, 0) for g, c in cand_counts.items() if g not in ref_counts]
    return stats, SkipBigramEvidence(distance, su_form, tuple(rows), cand_total, ref_total)
