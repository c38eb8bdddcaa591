"""ROUGE-L: longest common subsequence, sentence-level, summary-level (union LCS) and reval's
best-sentence form, with alignments as evidence.

Orientation follows rouge-score and ROUGE-1.5.5: the DP table has a row per reference token
and a column per candidate token, and the traceback prefers moving up (dropping a reference
token) on ties. The union LCS depends on that choice, so it is kept exactly.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..kernels import native
from ..deferred import Deferred
from .ngram import count_items
from ..stats import Stats


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """LCS length by the bit-parallel algorithm of Allison–Dix / Hyyrö (CandidateLayout's
    kernel): the longer sequence becomes the bit vector, the shorter one the rows."""
    if not a or not b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    return native.layout(a, ((0, len(a)),)).lcs_length(b)


def lcs_table(ref: Sequence[str], cand: Sequence[str]) -> list[list[int]]:
    """The DP table t[i][j] = LCS(ref[:i], cand[:j])."""
    rows = len(ref)
    cols = len(cand)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        r = ref[i - 1]
        prev = table[i - 1]
        row = table[i]
        for j in range(1, cols + 1):
            if r == cand[j - 1]:
                row[j] = prev[j - 1] + 1
            else:
                up = prev[j]
                left = row[j - 1]
                row[j] = up if up >= left else left
    return table


def traceback_path(ref: Sequence[str], cand: Sequence[str], table: list[list[int]] | None = None) -> list[tuple[int, int]]:
    """The DP cells (i, j) rouge-score's traceback visits, from (0 or an edge) to the
    bottom-right corner: diagonal on a match, else left when that cell is strictly larger,
    else up (dropping a reference token on ties)."""
    if table is None:
        table = lcs_table(ref, cand)
    i, j = len(ref), len(cand)
    path = [(i, j)]
    while i > 0 and j > 0:
        if ref[i - 1] == cand[j - 1]:
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
        path.append((i, j))
    path.reverse()
    return path


def lcs_alignment(ref: Sequence[str], cand: Sequence[str], table: list[list[int]] | None = None) -> list[tuple[int, int]]:
    """Aligned (ref index, cand index) pairs of one LCS, in order: the traceback's diagonal steps."""
    path = traceback_path(ref, cand, table)
    return [(i, j) for (i, j), (i2, j2) in zip(path, path[1:]) if i2 == i + 1 and j2 == j + 1]


@dataclass(frozen=True)
class SentenceLcsEvidence:
    """Sentence-level LCS: the aligned (cand index, ref index) pairs over whole token lists."""

    pairs: tuple[tuple[int, int], ...]
    lcs: tuple[str, ...]


def sentence_lcs(cand: Sequence[str], ref: Sequence[str], evidence: bool = False, *, layout=None):
    """Sentence-level ROUGE-L; `layout` (the candidate's bit masks, any sentence bounds) may be
    passed in when already built."""
    if not evidence:
        length = lcs_length(cand, ref) if layout is None else layout.lcs_length(ref)
        return Stats(length, len(cand), len(ref)), None
    # rouge-score's traceback, from the bit-parallel rows (equal to lcs_alignment's pairs)
    pairs = [(c, r) for r, c in native.layout(cand, ((0, len(cand)),)).alignments(ref).get(0, ())]
    ev = SentenceLcsEvidence(tuple(pairs), tuple(cand[c] for c, _ in pairs))
    return Stats(len(pairs), len(cand), len(ref)), ev


@dataclass(frozen=True)
class UnionSentence:
    """One reference sentence in a summary-level LCS."""

    ref_sentence: int
    alignments: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (cand sentence, (cand idx, ref idx) pairs)
    union: tuple[int, ...]  # reference token indices in the union of the LCSes
    hits: tuple[int, ...]  # the union indices that counted after clipping by token counts


@dataclass(frozen=True)
class UnionLcsEvidence:
    sentences: tuple[UnionSentence, ...] = Deferred()  # the compiled path builds them on first read


def union_lcs(
    cand: Sequence[str],
    cand_bounds: Sequence[tuple[int, int]],
    ref: Sequence[str],
    ref_bounds: Sequence[tuple[int, int]],
    evidence: bool = False,
    clip_cand: Sequence[str] | None = None,
    clip_ref: Sequence[str] | None = None,
    *,
    layout=None,
    unigram_counts: tuple[Counter, Counter] | None = None,
):
    """Summary-level ROUGE-L (ROUGE-1.5.5 `ROUGE-L`, rouge-score `rougeLsum`).

    For each reference sentence, take the union of its LCS positions against every
    candidate sentence; a union token counts as a hit while both sides still have an
    unused occurrence of it (so no token is counted more often than it occurs).
    `clip_cand` / `clip_ref` give the token lists whose counts clip the hits (ROUGE-1.5.5's
    `-b` reads them from the cut text); by default the compared tokens themselves.
    `layout` (CandidateLayout(cand, cand_bounds)) and `unigram_counts` (the Counters of
    the clipping sides) may be passed in when already built; they are not changed. (The
    compiled kernels' `union_evidence` gives the same evidence in one call:
    `union_sentences_of`.)
    """
    if layout is None:
        layout = native.layout(cand, cand_bounds)
    # As in the script: the reference total is the compared tokens' count, the candidate
    # total the clipping side's (they differ only under ROUGE-1.5.5's `-b` defect).
    cand_total = len(cand if clip_cand is None else clip_cand)
    if not evidence and clip_cand is None and clip_ref is None:
        # Fast path: a bit-parallel traceback over all candidate sentences at once
        # (rouge_core.families.bitparallel_lcs), identical to the DP traceback, clipped by the candidate's counts.
        return Stats(layout.union_hits(ref, ref_bounds), cand_total, len(ref)), None
    if unigram_counts is None:
        unigram_counts = (Counter(cand if clip_cand is None else clip_cand), Counter(ref if clip_ref is None else clip_ref))
    if not evidence:
        # Clipping one union token at a time while counts last gives each token
        # min(union, cand, ref) hits.
        union_counts = count_items(map(ref.__getitem__, layout.union_positions_of(ref, ref_bounds)))
        cand_counts, ref_counts = unigram_counts  # Counters: a missing token counts 0
        hits = sum(map(min, union_counts.values(), map(cand_counts.__getitem__, union_counts),
                       map(ref_counts.__getitem__, union_counts)))
        return Stats(hits, cand_total, len(ref)), None
    sentence_alignments = _sentence_alignments(layout, cand_bounds, ref, ref_bounds)
    cand_left, ref_left = dict(unigram_counts[0]), dict(unigram_counts[1])
    hits = 0
    out_sentences = []
    for s_index, (alignments, union) in enumerate(sentence_alignments):
        counted = []
        for r in union:
            tok = ref[r]
            if cand_left.get(tok, 0) > 0 and ref_left.get(tok, 0) > 0:
                hits += 1
                cand_left[tok] -= 1
                ref_left[tok] -= 1
                counted.append(r)
        out_sentences.append(UnionSentence(s_index, alignments, union, tuple(counted)))
    return Stats(hits, cand_total, len(ref)), UnionLcsEvidence(tuple(out_sentences))


def union_sentences_of(find_parts, *args) -> tuple[UnionSentence, ...]:
    """`union_lcs`'s evidence sentences from `find_parts(*args)`: per reference sentence, its
    (alignments, union, hits) in order (as rouge_core._native's `union_evidence` gives them)."""
    return tuple(UnionSentence(index, *parts) for index, parts in enumerate(find_parts(*args)))


def _sentence_alignments(layout, cand_bounds, ref, ref_bounds) -> list:
    """Per reference sentence: ((cand sentence, ((cand index, ref index), ...)), ...) for the
    candidate sentences its traceback aligns with, in their order, and the sorted reference
    positions of the union (indices into the whole token lists)."""
    out = []
    for ra, rb in ref_bounds:
        union: set[int] = set()
        alignments = []
        # per candidate sentence, the pairs lcs_alignment(ref_sentence, cand_sentence) gives
        found = layout.alignments(ref[ra:rb])
        for c_index in sorted(found):
            pairs = found[c_index]
            ca = cand_bounds[c_index][0]
            union.update(r for r, _ in pairs)
            alignments.append((c_index, tuple((ca + c, ra + r) for r, c in pairs)))
        out.append((tuple(alignments), tuple(ra + r for r in sorted(union))))
    return out


@dataclass(frozen=True)
class BestSentenceEvidence:
    """reval's summary-level form: per candidate sentence, the reference sentence with the
    longest LCS (first on ties), and that LCS length; `hits` is what counted in all (the
    lengths' sum, clipped by token counts unless the form is reval's unclipped one)."""

    choices: tuple[tuple[int, int, int], ...]  # (cand sentence, best ref sentence or -1, lcs length)
    hits: int = 0
    clipped: bool = True


def best_sentence_lcs(
    cand: Sequence[str],
    cand_bounds: Sequence[tuple[int, int]],
    ref: Sequence[str],
    ref_bounds: Sequence[tuple[int, int]],
    evidence: bool = False,
    clip: bool = True,
):
    """Each candidate sentence adds the LCS with its best reference sentence (the first of
    the longest). reval adds the lengths as they are (`clip=False`): a reference sentence
    chosen by several candidate sentences then counts again, and recall can exceed 1. With
    `clip`, the aligned tokens (rouge-score's traceback of each chosen pair) count at most as
    often as the reference has them, as the union LCS clips its hits, so hits never exceed
    either side's length."""
    # The reference sentences side by side in one layout: one pass per candidate sentence
    # gives its LCS with every reference sentence.
    layout = native.layout(ref, ref_bounds)
    total = 0
    choices = []
    aligned: Counter | None = Counter() if clip else None
    for c_index, (a, b) in enumerate(cand_bounds):
        sentence = cand[a:b]
        lengths = layout.sentence_lcs_lengths(sentence) if sentence else []
        best_len = max(lengths, default=0)
        best = lengths.index(best_len) if best_len > 0 else -1  # the first longest; none without a match
        total += best_len
        choices.append((c_index, best, best_len))
        if aligned is not None and best_len:
            ra, rb = ref_bounds[best]
            pairs = native.layout(sentence, ((0, len(sentence)),)).alignments(ref[ra:rb]).get(0, ())
            aligned.update(ref[ra + r] for r, _ in pairs)
    if aligned is not None and total:
        ref_counts = Counter(ref)
        total = sum(min(n, ref_counts[tok]) for tok, n in aligned.items())
    stats = Stats(total, len(cand), len(ref))
    return stats, (BestSentenceEvidence(tuple(choices), total, clip) if evidence else None)
