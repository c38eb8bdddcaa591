"""ROUGE-W: weighted LCS, which rewards consecutive matches with f(k) = k^w.

Two forms:
- "paper" (Lin 2004): one weighted-LCS DP over the whole token lists;
  R = f⁻¹(WLCS / f(|r|)), P = f⁻¹(WLCS / f(|c|)).
- "rouge155" (what ROUGE-1.5.5.pl computes): per reference sentence, the union of the
  weighted-LCS hits against every candidate sentence, clipped by token counts; each run of
  consecutive reference positions adds f(run length). Precision divides by f(|c|); recall
  divides by f(Σ f(|r_i|)) — the reference length is weighted twice, which is why its
  ROUGE-W recall is much lower than its precision on identical lengths.

The DP runs in plain Python on small inputs and on a NumPy kernel (`wlcs_fast`) on large
ones; both give the same floats and alignments, bit for bit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..kernels import native
from ..stats import Stats


def weight(k: float, w: float) -> float:
    return k**w


@dataclass(frozen=True, slots=True)
class WlcsRun:
    ref_positions: tuple[int, ...]
    cand_positions: tuple[int, ...]
    weight: float


@dataclass(frozen=True)
class WlcsEvidence:
    form: str
    w: float
    runs: tuple[WlcsRun, ...]
    weighted_hits: float


# The NumPy sweep costs about 10 µs a reference token plus a little per cell, the Python
# loop about 0.1 µs a cell: NumPy pays off from about 80 candidate columns (measured; both
# give identical results).
_NUMPY_MIN_WIDTH = 80
_NUMPY_MIN_CELLS = 10_000
_numpy_kernel_module = None  # rouge_core.families.wlcs_fast once imported; False when NumPy is missing


def _numpy_kernel():
    """rouge_core.families.wlcs_fast, imported on first use (NumPy is optional for rouge_core)."""
    global _numpy_kernel_module
    if _numpy_kernel_module is None:
        try:
            from . import wlcs_fast
        except ImportError:
            _numpy_kernel_module = False
        else:
            _numpy_kernel_module = wlcs_fast
    return _numpy_kernel_module or None


class _Gains:
    """f(k + offset) for a run length k, computed on demand: used when a table of every
    possible run length cannot be built (f overflows or fails for a length never reached)."""

    def __init__(self, offset: int, w: float):
        self.offset, self.w = offset, w

    def __getitem__(self, k: int) -> float:
        return weight(k + self.offset, self.w)


def _gain_tables(w: float, longest_run: int):
    """What a match adds to a run of length k < longest_run: f(k+1) and f(k), computed by
    `weight` itself, so they are the floats the DP has always used; and whether they are
    plain tables. When some length overflows (the DP may never reach it) or w is unusable,
    on-demand lookups replace the tables: they fail exactly where the Python DP would."""
    try:
        gain_new = [weight(k + 1, w) for k in range(longest_run)]
        gain_old = [weight(k, w) for k in range(longest_run)]
    except (ArithmeticError, TypeError, ValueError):
        return _Gains(1, w), _Gains(0, w), False
    return gain_new, gain_old, True


def _numpy_gains(rows: int, width: int, gain_new, gain_old, tabulated: bool):
    """The gain tables as float64 arrays when the NumPy kernel should run a DP of `rows`
    reference tokens over `width` candidate columns; None when the Python loop is faster or
    the only exact way (no NumPy, gains that are not plain finite floats)."""
    if not tabulated or width < _NUMPY_MIN_WIDTH or rows * width < _NUMPY_MIN_CELLS:
        return None
    kernel = _numpy_kernel()
    return None if kernel is None else kernel.gain_tables(gain_new, gain_old)


def _python_alignment(ref: Sequence[str], cand: Sequence[str], gain_new, gain_old
                      ) -> tuple[float, list[tuple[int, int]]]:
    """The weighted-LCS DP in plain Python, row by row (rows = ref tokens, columns = cand
    tokens). A match continues the diagonal run k: c = (c_diag + f(k+1)) - f(k); otherwise
    the up value wins ties over the left one."""
    rows, cols = len(ref), len(cand)
    c_prev = [0.0] * (cols + 1)
    run_prev = [0] * (cols + 1)
    moves = [bytes(cols + 1)]  # per row: 1 diagonal, 2 up, 3 left
    for i in range(rows):
        r = ref[i]
        c_row = [0.0] * (cols + 1)
        run_row = [0] * (cols + 1)
        move = bytearray(cols + 1)
        left = 0.0
        for j in range(1, cols + 1):
            if r == cand[j - 1]:
                k = run_prev[j - 1]
                left = c_prev[j - 1] + gain_new[k] - gain_old[k]
                run_row[j] = k + 1
                move[j] = 1
            else:
                up = c_prev[j]
                if up >= left:
                    left = up
                    move[j] = 2
                else:
                    move[j] = 3
            c_row[j] = left
        moves.append(move)
        c_prev, run_prev = c_row, run_row
    pairs = []
    i, j = rows, cols
    while i > 0 and j > 0:
        step = moves[i][j]
        if step == 1:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif step == 2:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return c_prev[cols], pairs


def _compiled(w: float) -> bool:
    """Whether the compiled kernels run this weight's DP (they are active, and w is in
    rouge_core.params' range, where every gain is a finite float)."""
    return native.active() and 1.0 <= w <= 5.0


def wlcs_alignment(ref: Sequence[str], cand: Sequence[str], w: float) -> tuple[float, list[tuple[int, int]]]:
    """Weighted-LCS DP; returns the WLCS value and the aligned (ref, cand) index pairs."""
    if _compiled(w):  # the same DP, one bit a cell for the traceback
        return native.wlcs_alignment(ref, cand, w)
    gain_new, gain_old, tabulated = _gain_tables(w, min(len(ref), len(cand)))
    arrays = _numpy_gains(len(ref), len(cand), gain_new, gain_old, tabulated)
    if arrays is not None:
        return _numpy_kernel().wlcs_alignment(ref, cand, *arrays)
    return _python_alignment(ref, cand, gain_new, gain_old)


def _first_partners(ref_sentences, cand_sentences, cand_starts: Sequence[int], w: float) -> list[dict[int, int]]:
    """For each reference sentence, the union of its weighted-LCS alignments with every
    candidate sentence: ref position -> candidate position (cand_starts[t] + c) from the
    first candidate sentence t that aligns it."""
    if _compiled(w):
        return native.first_partners(ref_sentences, cand_sentences, cand_starts, w)
    longest_run = min(max(map(len, ref_sentences), default=0), max(map(len, cand_sentences), default=0))
    gain_new, gain_old, tabulated = _gain_tables(w, longest_run)
    width = sum(map(len, cand_sentences)) + len(cand_sentences)  # the sentences side by side
    arrays = _numpy_gains(sum(map(len, ref_sentences)), width, gain_new, gain_old, tabulated)
    if arrays is not None:  # every (reference, candidate sentence) DP in one NumPy sweep
        return _numpy_kernel().first_partners(ref_sentences, cand_sentences, cand_starts, *arrays)
    partners = []
    for ref_sentence in ref_sentences:
        partner: dict[int, int] = {}
        for ca, cand_sentence in zip(cand_starts, cand_sentences):
            for r, c in _python_alignment(ref_sentence, cand_sentence, gain_new, gain_old)[1]:
                partner.setdefault(r, ca + c)
        partners.append(partner)
    return partners


def _runs_of(pairs: Sequence[tuple[int, int]], w: float) -> list[WlcsRun]:
    """Split aligned (ref, cand) pairs into runs consecutive on both sides."""
    runs: list[WlcsRun] = []
    current: list[tuple[int, int]] = []
    for pair in pairs:
        if current and (pair[0] != current[-1][0] + 1 or pair[1] != current[-1][1] + 1):
            runs.append(WlcsRun(tuple(r for r, _ in current), tuple(c for _, c in current), weight(len(current), w)))
            current = []
        current.append(pair)
    if current:
        runs.append(WlcsRun(tuple(r for r, _ in current), tuple(c for _, c in current), weight(len(current), w)))
    return runs


def wlcs_paper(cand: Sequence[str], ref: Sequence[str], w: float, evidence: bool = False):
    value, pairs = wlcs_alignment(ref, cand, w)
    stats = Stats(value, weight(len(cand), w), weight(len(ref), w), 1.0 / w, len(ref))
    if not evidence:
        return stats, None
    runs = _runs_of(pairs, w)
    return stats, WlcsEvidence("paper", w, tuple(runs), value)


def wlcs_rouge155(
    cand: Sequence[str],
    cand_bounds: Sequence[tuple[int, int]],
    ref: Sequence[str],
    ref_bounds: Sequence[tuple[int, int]],
    w: float,
    evidence: bool = False,
    clip_cand: Sequence[str] | None = None,
    clip_ref: Sequence[str] | None = None,
):
    cand_left = Counter(cand if clip_cand is None else clip_cand)
    ref_left = Counter(ref if clip_ref is None else clip_ref)
    cand_sentences = [cand[a:b] for a, b in cand_bounds]
    ref_sentences = [ref[a:b] for a, b in ref_bounds]
    partners = _first_partners(ref_sentences, cand_sentences, [ca for ca, _cb in cand_bounds], w)
    hits = 0.0
    runs: list[WlcsRun] = []
    ref_base = 0.0
    for (ra, _rb), ref_sentence, partner in zip(ref_bounds, ref_sentences, partners):
        ref_base += weight(len(ref_sentence), w)
        # The script's run bookkeeping, kept exactly: a run closes only where the next
        # position is not in the union (or at the sentence end). A union position that
        # fails clipping neither counts nor closes the run, so a run can carry over it;
        # if the sentence's last union position fails clipping, the open run is lost.
        current: list[int] = []
        length = len(ref_sentence)
        for r in range(length):
            if r not in partner:
                continue
            tok = ref_sentence[r]
            if not (cand_left[tok] > 0 and ref_left[tok] > 0):
                continue
            cand_left[tok] -= 1
            ref_left[tok] -= 1
            current.append(r)
            if r + 1 == length or (r + 1) not in partner:
                run_weight = weight(len(current), w)
                hits += run_weight
                if evidence:
                    runs.append(WlcsRun(tuple(ra + x for x in current), tuple(partner[x] for x in current), run_weight))
                current = []
    cand_len = len(cand if clip_cand is None else clip_cand)
    stats = Stats(hits, weight(cand_len, w), weight(ref_base, w), 1.0 / w, ref_base)
    return stats, (WlcsEvidence("rouge155", w, tuple(runs), hits) if evidence else None)
