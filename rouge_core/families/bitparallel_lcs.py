"""Fast kernels: bit-parallel LCS rows and a bit-parallel traceback that reproduces
rouge-score's union LCS exactly.

The union LCS (summary-level ROUGE-L) needs, for each reference sentence, the reference
positions that rouge-score's traceback (`_backtrack_norec`) visits diagonally against every
candidate sentence. The DP table is never built here:

* All candidate sentences are laid out side by side in one Python integer, one bit per
  candidate token, with a zero *guard* bit below each sentence. The Allison–Dix / Hyyrö row
  update `V' = (V + U) | (V - U)` (U = V & match-mask) then runs for every candidate sentence
  at once: a carry out of a sentence's top bit lands in the next sentence's guard and is
  masked away, so the sentences never interact.
* Row i of the table is encoded by V_i: bit j-1 is 0 where t[i][j] = t[i][j-1] + 1. The carries
  of the addition are the vertical differences: the carry out of bit j-1 is
  t[i][j] - t[i-1][j]. (Tested against the DP table in tests/core/test_fast_paths.py.)
* rouge-score's traceback at (i, j): diagonal if the tokens match; else left if
  t[i][j-1] > t[i-1][j], else up. Off a match t[i][j] = max(t[i-1][j], t[i][j-1]), so
  "left" is exactly "the column steps at j" (carry set). So row i has a "go left" mask
  L_i = carries_i & ~match.
  Within a row the walk goes left through a run of L_i bits, then takes the diagonal or goes
  up. In bit-reversed order that walk is an addition (a carry running through the run), so
  every candidate sentence's traceback advances one row per few integer operations.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import Iterable, Sequence

from .ngram import count_items

_REV_BYTE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


_TABLE_MAX_BYTES = 128  # up to 1,023 columns: under 0.2 MiB a table, 12 MiB for a full cache


@lru_cache(maxsize=64)
def _column_bits(nbytes: int) -> tuple[int, ...]:
    """Per column bit k of a layout `nbytes` wide: bit k plus its mirror bit (see
    CandidateLayout); shared by every candidate of that width."""
    mirror = 8 * nbytes
    reflect = mirror + mirror - 1
    return tuple((1 << k) | (1 << (reflect - k)) for k in range(mirror))


class CandidateLayout:
    """Candidate sentences side by side in one bit vector (guard bit below each sentence)."""

    __slots__ = ("masks", "full", "width", "nbytes", "mirror", "start_rev", "_reflect",
                 "_spans", "_columns", "_read", "_segments", "sentences")

    def __init__(self, cand: Sequence, bounds: Sequence[tuple[int, int]]):
        spans = [(s_index, a, b) for s_index, (a, b) in enumerate(bounds) if b > a]
        self.width = width = sum(b - a + 1 for _, a, b in spans)  # bits 0..width-1, plus the carry bit
        self.nbytes = nbytes = width // 8 + 1  # covers bits 0..width (the last carry lands there)
        top = 8 * nbytes - 1
        # Each token's mask also carries its bit-reversed copy above bit `mirror` (column bit
        # k -> bit mirror + top - k), where the traceback walks: its match masks are the
        # masks themselves, without a second dictionary. The row updates only ever AND the
        # masks with vectors below `mirror`, so the copy never reaches them.
        self.mirror = mirror = 8 * nbytes
        self._reflect = reflect = mirror + top
        # a shared table for usual widths; on very long texts (the table grows with the
        # square of the width) the bits are shifted in place
        column_bits = _column_bits(nbytes) if nbytes <= _TABLE_MAX_BYTES else None
        masks: dict = {}
        get = masks.get
        starts_rev = 0  # each sentence's last column (mirrored), where its traceback starts
        full = 0
        pos = 0
        for s_index, a, b in spans:
            if column_bits is not None:
                for bit, tok in enumerate(cand[a:b], pos + 1):
                    masks[tok] = get(tok, 0) | column_bits[bit]
            else:
                for bit, tok in enumerate(cand[a:b], pos + 1):
                    masks[tok] = get(tok, 0) | (1 << bit) | (1 << (reflect - bit))
            end = pos + (b - a)
            full |= ((1 << (b - a)) - 1) << (pos + 1)
            starts_rev |= 1 << (reflect - end)
            pos = end + 1
        self._spans = spans
        self.sentences = len(bounds)
        self._columns = None
        self._segments = None
        self._read: dict[int, tuple[Sequence, list]] = {}
        self.masks = masks
        self.full = full
        self.start_rev = starts_rev

    def union_positions(self, ref_sentence: Sequence, alignments: dict | None = None) -> list[int]:
        """Sorted positions of `ref_sentence` on the LCS (rouge-score's traceback) with at
        least one candidate sentence: `sorted(set().union(*(lcs_ind(ref, c) for c in cands)))`.
        With `alignments`, also collects the aligned pairs (see `alignments`)."""
        return self.union_positions_of(ref_sentence, ((0, len(ref_sentence)),), alignments)

    def union_positions_of(self, ref: Sequence, bounds: Sequence[tuple[int, int]],
                           alignments: dict | None = None) -> list[int]:
        """union_positions for every reference sentence ref[a:b] of `bounds`, as positions in
        `ref`, sentence by sentence. `alignments` is only asked for with a single sentence
        (its keys are candidate sentences)."""
        get = self.masks.get
        found: list[int] = []
        diagonals: list[int] | None = None if alignments is None else []
        # Last sentence first: the walks append bottom-up, so `found` comes out descending.
        self._traceback([[(i, m) for i, m in enumerate(map(get, ref[a:b]), a) if m is not None]
                         for a, b in reversed(bounds)], found, diagonals)
        found.reverse()
        if diagonals is not None:
            diagonals.reverse()
            a = bounds[0][0]
            for i, d in zip(found, diagonals):
                self._record(d, i - a, alignments)
        return found

    def union_hits(self, ref: Sequence, bounds: Sequence[tuple[int, int]]) -> int:
        """Summary-level LCS hits of `ref` (sentences ref[a:b] of `bounds`) against the
        candidate: Σ over tokens of min(times on the union LCS, times in the candidate), which
        is what clipping one union token at a time by both sides' counts leaves (a union
        position is a reference position, so the reference count never clips)."""
        read = self.masks_of(ref)
        found: list = []
        # rows keyed by their tokens (masks are never 0, so compress and filter keep the same rows)
        self._traceback([zip(compress(ref[a:b], read[a:b]), filter(None, read[a:b])) for a, b in bounds], found, None)
        return self._clipped(count_items(found))

    def _clipped(self, token_counts: dict) -> int:
        """Σ over tokens of min(count, count in the candidate): a token's mask has one bit per
        candidate occurrence plus its mirror copy. Most tokens occur once, and a token present
        at all occurs at least once in the candidate."""
        hits = 0
        masks = self.masks
        for tok, n in token_counts.items():
            if n > 1:
                c = masks[tok].bit_count() >> 1
                hits += n if n < c else c
            else:
                hits += 1
        return hits

    def _traceback(self, sentences: Iterable[Iterable[tuple[object, int]]], found: list,
                   diagonals: list | None) -> None:
        """rouge-score's traceback of each reference sentence, given as its matching tokens'
        (key, mask) pairs, against every candidate sentence at once: appends, bottom row
        first, the key of each row where some candidate sentence's walk takes the diagonal
        (and, with `diagonals`, the walker bits of the sentences that take it, mirrored).

        The forward pass keeps per row (key, go-left mask, mask); rows without a match
        change nothing on either pass (no carry; the walk goes straight up), so they are left
        out. The walk keeps one walker bit per candidate sentence, in the masks' mirrored
        copy of the columns (bit-reversed order, above `mirror`): reading the go-left mask's
        bytes from the other end of twice its width puts it there. A walker that reaches its
        sentence's guard stays there: the guard is never a go-left or match bit, and the only
        carry that could reach it is its own sentence's walker."""
        full = self.full
        start = self.start_rev
        both_halves = 2 * self.nbytes
        from_bytes = int.from_bytes
        rev_byte = _REV_BYTE
        for keyed in sentences:
            v = full
            rows = []
            append = rows.append
            for key, m in keyed:
                u = v & m
                s = v + u
                w = v - u  # = v ^ u (u lies within v)
                append((key, ((s ^ w) >> 1) & ~m, m))  # carries at the non-match columns
                v = (s | w) & full
            p = start
            for key, left, m in reversed(rows):
                if left:
                    left = from_bytes(left.to_bytes(both_halves, "little").translate(rev_byte), "big")
                    x = (left + p) & ~left
                else:
                    x = p
                d = x & m
                if d:
                    found.append(key)
                    if diagonals is not None:
                        diagonals.append(d)
                    p = (x ^ d) | (d << 1)
                else:
                    p = x

    def _record(self, d: int, i: int, alignments: dict) -> None:
        reflect = self._reflect
        columns = self._columns
        if columns is None:
            columns = self._columns = self._column_table()
        while d:
            low = d & -d
            s_index, column = columns[reflect - (low.bit_length() - 1)]
            alignments.setdefault(s_index, []).append((i, column))
            d ^= low

    def _column_table(self) -> list[tuple[int, int] | None]:
        """Per normal-order bit: (sentence index, column within it); None for guard bits.
        Built on the first alignment asked for (evidence only)."""
        table: list[tuple[int, int] | None] = []
        for s_index, a, b in self._spans:
            table.append(None)
            table.extend((s_index, k) for k in range(b - a))
        return table

    def masks_of(self, seq: Sequence) -> list:
        """The masks of `seq`'s tokens, None where a token is not in the candidate. Several
        methods read the same reference in a row, so the lists of tuples (which cannot
        change) are kept by identity, each with its tuple so that the identity stays its own."""
        if type(seq) is not tuple:
            return list(map(self.masks.get, seq))
        kept = self._read.get(id(seq))
        if kept is not None:
            return kept[1]
        if len(self._read) >= _READ_KEEP:
            self._read.clear()
        masks = list(map(self.masks.get, seq))
        self._read[id(seq)] = (seq, masks)
        return masks

    def unigram_hits(self, seq: Sequence) -> int:
        """ROUGE-1 hits of `seq` against the candidate: Σ over shared tokens of min(count in
        `seq`, count in the candidate)."""
        return self._clipped(count_items(compress(seq, self.masks_of(seq))))

    def lcs_length(self, seq: Sequence) -> int:
        """LCS of `seq` with the candidate tokens as one sequence (sentence-level ROUGE-L).

        The guard bits are columns that match nothing, so they never change the LCS; the
        row update runs over all bits at once (Allison–Dix / Hyyrö)."""
        width = self.width
        every = (1 << width) - 1
        v = every
        for m in filter(None, self.masks_of(seq)):  # masks are never 0: None drops out
            u = v & m
            v = ((v + u) | (v - u)) & every
        return width - v.bit_count()

    def sentence_lcs_lengths(self, seq: Sequence) -> list[int]:
        """LCS of `seq` with each sentence of the layout separately, in the order of `bounds`
        (0 for an empty sentence): the row update runs over every sentence at once, and the
        guard bits stop carries at the sentence edges (as in `_traceback`'s forward pass)."""
        full = self.full
        v = full
        for m in filter(None, self.masks_of(seq)):
            u = v & m
            v = ((v + u) | (v - u)) & full
        segments = self._segments
        if segments is None:
            segments = self._segments = self._segment_masks()
        lengths = [0] * self.sentences
        for s_index, mask, width in segments:
            lengths[s_index] = width - (v & mask).bit_count()
        return lengths

    def _segment_masks(self) -> list[tuple[int, int, int]]:
        """Per non-empty sentence: (index, its bits in the layout, its length)."""
        out = []
        pos = 0
        for s_index, a, b in self._spans:
            width = b - a
            out.append((s_index, ((1 << width) - 1) << (pos + 1), width))
            pos += width + 1
        return out

    def alignments(self, ref_sentence: Sequence) -> dict[int, list[tuple[int, int]]]:
        """Per candidate sentence (index into bounds), the (ref index, cand index within the
        sentence) pairs of rouge-score's traceback, in order; sentences without pairs omitted."""
        out: dict[int, list[tuple[int, int]]] = {}
        self.union_positions(ref_sentence, out)
        return out


_READ_KEEP = 64  # reference lists kept per layout (a candidate is rarely read against more)


def lcs_row_vectors(ref: Sequence, cand: Sequence) -> tuple[list[int], list[int]]:
    """For tests: per row i (1-based, list index i-1) the V_i vector and the carries vector of a
    plain (one sentence) candidate layout without guards."""
    masks: dict = {}
    for j, tok in enumerate(cand):
        masks[tok] = masks.get(tok, 0) | (1 << j)
    full = (1 << len(cand)) - 1
    v = full
    vs, cs = [], []
    for tok in ref:
        m = masks.get(tok, 0)
        u = v & m
        s = v + u
        cs.append(s ^ v ^ u)
        v = (s | (v - u)) & full
        vs.append(v)
    return vs, cs
