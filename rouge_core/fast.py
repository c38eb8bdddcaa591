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
  t[i][j-1] > t[i-1][j], i.e. the row does not step at j (V bit set) and the column does
  (carry set); else up. So row i has a "go left" mask L_i = V_i & carries_i & ~match.
  Within a row the walk goes left through a run of L_i bits, then takes the diagonal or goes
  up. In bit-reversed order that walk is an addition (a carry running through the run), so
  every candidate sentence's traceback advances one row per few integer operations.
"""

from __future__ import annotations

from typing import Sequence

_REV_BYTE = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


class CandidateLayout:
    """Candidate sentences side by side in one bit vector (guard bit below each sentence)."""

    __slots__ = ("masks", "full", "nbytes", "start_rev", "not_guard_rev", "_rev_masks", "empty", "_columns")

    def __init__(self, cand: Sequence, bounds: Sequence[tuple[int, int]]):
        masks: dict = {}
        columns = {}  # normal bit position -> (sentence index, column index within it)
        guards = 0
        starts = 0
        full = 0
        pos = 0
        for s_index, (a, b) in enumerate(bounds):
            if b <= a:
                continue
            for k in range(b - a):
                columns[pos + 1 + k] = (s_index, k)
            guards |= 1 << pos
            base = pos + 1 - a
            for k in range(a, b):
                tok = cand[k]
                masks[tok] = masks.get(tok, 0) | (1 << (base + k))
            top = pos + (b - a)
            full |= ((1 << (b - a)) - 1) << (pos + 1)
            starts |= 1 << top
            pos = top + 1
        self.empty = full == 0
        self._columns = columns
        self.masks = masks
        self.full = full
        self.nbytes = pos // 8 + 1  # covers bits 0..pos (the last carry lands on bit pos)
        self._rev_masks: dict = {}
        self.start_rev = self.rev(starts)
        self.not_guard_rev = ~self.rev(guards)

    def rev(self, x: int) -> int:
        """Bit i -> bit 8*nbytes-1-i."""
        n = self.nbytes
        return int.from_bytes(x.to_bytes(n, "little").translate(_REV_BYTE), "big")

    def rev_mask(self, tok) -> int:
        r = self._rev_masks.get(tok)
        if r is None:
            r = self._rev_masks[tok] = self.rev(self.masks.get(tok, 0))
        return r

    def union_positions(self, ref_sentence: Sequence, alignments: dict | None = None) -> list[int]:
        """Sorted positions of `ref_sentence` on the LCS (rouge-score's traceback) with at
        least one candidate sentence: `sorted(set().union(*(lcs_ind(ref, c) for c in cands)))`."""
        if self.empty or not ref_sentence:
            return []
        masks = self.masks
        full = self.full
        v = full
        rows = []
        append = rows.append
        get = masks.get
        for tok in ref_sentence:
            m = get(tok, 0)
            if not m:
                append(0)  # no match in the row: no carry, so the walk goes straight up
                continue
            u = v & m
            s = v + u
            carries = s ^ v ^ u
            v = (s | (v - u)) & full
            append(v & (carries >> 1) & ~m)
        nbytes = self.nbytes
        from_bytes = int.from_bytes
        rev_byte = _REV_BYTE
        rev_masks = self._rev_masks
        rev_mask = self.rev_mask
        not_guard = self.not_guard_rev
        p = self.start_rev
        out = []
        for i in range(len(ref_sentence) - 1, -1, -1):
            left = rows[i]
            if left:
                left = from_bytes(left.to_bytes(nbytes, "little").translate(rev_byte), "big")
                x = (left + p) & ~left
            else:
                x = p
            tok = ref_sentence[i]
            if tok in masks:
                mr = rev_masks.get(tok)
                if mr is None:
                    mr = rev_mask(tok)
                d = x & mr
                if d:
                    out.append(i)
                    if alignments is not None:
                        self._record(d, i, alignments)
                    p = ((x ^ d) | (d << 1)) & not_guard
                else:
                    p = x & not_guard
            elif left:
                p = x & not_guard
            if not p:
                break
        out.reverse()
        if alignments is not None:
            for pairs in alignments.values():
                pairs.reverse()
        return out

    def _record(self, d: int, i: int, alignments: dict) -> None:
        top = 8 * self.nbytes - 1
        columns = self._columns
        while d:
            low = d & -d
            sentence, column = columns[top - (low.bit_length() - 1)]
            alignments.setdefault(sentence, []).append((i, column))
            d ^= low

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


def intern_ids(terms: Sequence[str], table: dict[str, int]) -> list[int]:
    """Small-integer ids for terms, shared through `table` (one table per comparison)."""
    get = table.get
    out = []
    for t in terms:
        i = get(t)
        if i is None:
            i = table[t] = len(table)
        out.append(i)
    return out
