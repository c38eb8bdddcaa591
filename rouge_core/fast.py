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
from typing import Sequence

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

    __slots__ = ("masks", "full", "width", "nbytes", "mirror", "start_rev", "not_guard_rev", "empty", "_top",
                 "_spans", "_columns")

    def __init__(self, cand: Sequence, bounds: Sequence[tuple[int, int]]):
        spans = [(s_index, a, b) for s_index, (a, b) in enumerate(bounds) if b > a]
        self.width = width = sum(b - a + 1 for _, a, b in spans)  # bits 0..width-1, plus the carry bit
        self.nbytes = nbytes = width // 8 + 1  # covers bits 0..width (the last carry lands there)
        self._top = top = 8 * nbytes - 1
        # Each token's mask also carries its bit-reversed copy above bit `mirror` (column bit
        # k -> bit mirror + top - k): the traceback's match masks come with one shift, without
        # a second dictionary. The row updates only ever AND the masks with vectors below
        # `mirror`, so the copy never reaches them.
        self.mirror = mirror = 8 * nbytes
        reflect = mirror + top
        # a shared table for usual widths; on very long texts (the table grows with the
        # square of the width) the bits are shifted in place
        column_bits = _column_bits(nbytes) if nbytes <= _TABLE_MAX_BYTES else None
        masks: dict = {}
        get = masks.get
        guards_rev = 0
        starts_rev = 0  # each sentence's last column, where its traceback starts
        full = 0
        pos = 0
        for s_index, a, b in spans:
            guards_rev |= 1 << (top - pos)
            if column_bits is not None:
                for bit, tok in enumerate(cand[a:b], pos + 1):
                    masks[tok] = get(tok, 0) | column_bits[bit]
            else:
                for bit, tok in enumerate(cand[a:b], pos + 1):
                    masks[tok] = get(tok, 0) | (1 << bit) | (1 << (reflect - bit))
            end = pos + (b - a)
            full |= ((1 << (b - a)) - 1) << (pos + 1)
            starts_rev |= 1 << (top - end)
            pos = end + 1
        self._spans = spans
        self._columns = None
        self.empty = full == 0
        self.masks = masks
        self.full = full
        self.start_rev = starts_rev
        self.not_guard_rev = ~guards_rev

    def union_positions(self, ref_sentence: Sequence, alignments: dict | None = None) -> list[int]:
        """Sorted positions of `ref_sentence` on the LCS (rouge-score's traceback) with at
        least one candidate sentence: `sorted(set().union(*(lcs_ind(ref, c) for c in cands)))`.
        With `alignments`, also collects the aligned pairs (see `alignments`)."""
        return self._union_positions(ref_sentence, ((0, len(ref_sentence)),), alignments)

    def union_positions_of(self, ref: Sequence, bounds: Sequence[tuple[int, int]]) -> list[int]:
        """union_positions for every reference sentence ref[a:b] of `bounds`, as positions in
        `ref`, sentence by sentence (one call for a whole reference: the fast path)."""
        return self._union_positions(ref, bounds, None)

    def _union_positions(self, ref: Sequence, bounds: Sequence[tuple[int, int]], alignments: dict | None) -> list[int]:
        # `alignments` is only asked for with a single sentence (its keys are candidate sentences).
        if self.empty:
            return []
        full = self.full
        get = self.masks.get
        mirror = self.mirror
        nbytes = self.nbytes
        from_bytes = int.from_bytes
        rev_byte = _REV_BYTE
        not_guard = self.not_guard_rev
        out = []
        for a, b in bounds:
            # Rows without a match change nothing on either pass (no carry; the walk goes
            # straight up), so only matching rows are kept: (index, go-left mask, reversed
            # match mask).
            v = full
            rows = []
            append = rows.append
            for i in range(a, b):
                tok = ref[i]
                m = get(tok)
                if m is not None:
                    u = v & m
                    s = v + u
                    left = ((s ^ v ^ u) >> 1) & ~m  # carries at the non-match columns
                    v = (s | (v - u)) & full
                    append((i, left, m >> mirror))
            p = self.start_rev
            found = []
            for i, left, mr in reversed(rows):
                if left:
                    left = from_bytes(left.to_bytes(nbytes, "little").translate(rev_byte), "big")
                    x = (left + p) & ~left
                else:
                    x = p
                d = x & mr
                if d:
                    found.append(i)
                    if alignments is not None:
                        self._record(d, i - a, alignments)
                    p = ((x ^ d) | (d << 1)) & not_guard
                elif left:
                    p = x & not_guard
                else:
                    continue
                if not p:
                    break
            found.reverse()
            out += found
        if alignments is not None:
            for pairs in alignments.values():
                pairs.reverse()
        return out

    def _record(self, d: int, i: int, alignments: dict) -> None:
        top = self._top
        columns = self._columns
        if columns is None:
            columns = self._columns = self._column_table()
        while d:
            low = d & -d
            s_index, column = columns[top - (low.bit_length() - 1)]
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

    def lcs_length(self, seq: Sequence) -> int:
        """LCS of `seq` with the candidate tokens as one sequence (sentence-level ROUGE-L).

        The guard bits are columns that match nothing, so they never change the LCS; the
        row update runs over all bits at once (Allison–Dix / Hyyrö)."""
        width = self.width
        every = (1 << width) - 1
        v = every
        get = self.masks.get
        for tok in seq:
            m = get(tok)
            if m is not None:
                u = v & m
                v = ((v + u) | (v - u)) & every
        return width - v.bit_count()

    def alignments(self, ref_sentence: Sequence) -> dict[int, list[tuple[int, int]]]:
        """Per candidate sentence (index into bounds), the (ref index, cand index within the
        sentence) pairs of rouge-score's traceback, in order; sentences without pairs omitted."""
        out: dict[int, list[tuple[int, int]]] = {}
        self.union_positions(ref_sentence, out)
        return out


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
