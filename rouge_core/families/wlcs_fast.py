"""NumPy kernel for the weighted-LCS DP of `rouge_core.families.wlcs`, equal bit for bit to its
pure-Python recurrence (same float operations in the same order, same tie-breaks).

The DP runs one reference token (row) at a time over all candidate columns. In a row,
a match cell takes its value from the diagonal; every other cell is
c[j] = max(c_up[j], c[j-1]), a running maximum that restarts at each match cell (its value
is fixed) and at each column 0 (value 0.0). That segmented running maximum is one
`np.maximum.accumulate` over complex numbers: real part = segment number, imaginary
part = the cell's start value (match value or c_up). NumPy orders complex numbers
lexicographically, so the maximum never crosses a segment start, and it returns one of the
input floats: no rounding. Each cell's move (1 byte) is kept for the traceback.

Several independent DPs can share one sweep: candidate sentences are laid side by side,
each behind a column 0 of its own, and reference sentences one below the other, each
behind a row 0 of its own (where the values restart at zero). This is how the ROUGE-1.5.5
form compares each reference sentence with every candidate sentence at once; the
tracebacks of all (reference, candidate sentence) blocks then walk in lockstep.
"""

from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

# Moves, as the Python traceback reads them. LEFT and UP are exactly the bytes that the
# up-wins comparison writes through a bool view; STOP marks every row 0 and column 0.
LEFT, UP, DIAGONAL, STOP = 0, 1, 2, 3
_NO_TOKEN = -1  # token id of a row 0 / column 0: equal to no token
_SEGMENT_CACHE_BYTES = 64 * 2**20  # segment numbers kept per repeated reference token


class _PaddedGrid:
    """Token ids of both sides, with a column 0 before every candidate sentence and a row 0
    before every reference sentence."""

    def __init__(self, ref_sentences: Sequence[Sequence[Hashable]], cand_sentences: Sequence[Sequence[Hashable]]):
        ids: dict[Hashable, int] = {}  # equal tokens share an id, so `==` decides a match as in Python
        self.ref_ids: list[int] = []
        self.row0s: list[int] = []
        for sentence in ref_sentences:
            self.row0s.append(len(self.ref_ids))
            self.ref_ids.append(_NO_TOKEN)
            self.ref_ids.extend(ids.setdefault(tok, len(ids)) for tok in sentence)
        cand_ids: list[int] = []
        self.column0s: list[int] = []
        for sentence in cand_sentences:
            self.column0s.append(len(cand_ids))
            cand_ids.append(_NO_TOKEN)
            cand_ids.extend(ids.setdefault(tok, len(ids)) for tok in sentence)
        self.width = len(cand_ids)
        self.ref_ends = [row0 + len(s) for row0, s in zip(self.row0s, ref_sentences)]
        self.cand_ends = [col0 + len(s) for col0, s in zip(self.column0s, cand_sentences)]
        columns_of: dict[int, list[int]] = {}
        for col, tok in enumerate(cand_ids):
            columns_of.setdefault(tok, []).append(col)
        columns_of.pop(_NO_TOKEN, None)
        self.match_columns = {tok: np.array(cols, dtype=np.int64) for tok, cols in columns_of.items()}


class _RowBuffer:
    """One DP row: the scan result (its imaginary parts are the cell values) and the match
    runs ending in it, with the views the sweep reads every row."""

    __slots__ = ("scan", "values", "values_up", "values_left", "run", "run_columns")

    def __init__(self, width: int, no_columns: np.ndarray):
        self.scan = np.zeros(width, dtype=np.complex128)
        self.values = self.scan.imag
        self.values_up = self.values[1:]  # c[j] as the up neighbour of column j (j >= 1)
        self.values_left = self.values[:-1]  # c[j-1] as the left neighbour of column j
        self.run = np.zeros(width, dtype=np.int64)  # length of the match run ending at each cell
        self.run_columns = no_columns  # where `run` is nonzero

    def restart(self, no_columns: np.ndarray) -> None:
        """Make this the all-zero row 0."""
        self.values[:] = 0.0
        self.run[self.run_columns] = 0
        self.run_columns = no_columns


def _sweep(grid: _PaddedGrid, gain_new: np.ndarray, gain_old: np.ndarray) -> tuple[np.ndarray, float]:
    """Fill the DP over the padded grid. Returns the moves (int8, rows x columns) and the
    value of the bottom-right cell."""
    width = grid.width
    moves = np.zeros((len(grid.ref_ids), width), dtype=np.int8)
    up_wins = moves[:, 1:].view(np.bool_)  # True -> UP, False -> LEFT, for columns j >= 1
    work = np.empty(width, dtype=np.complex128)  # segment number + 1j * the cell's start value
    work_segment, work_value = work.real, work.imag
    no_columns = np.empty(0, dtype=np.int64)
    prev, spare = _RowBuffer(width, no_columns), _RowBuffer(width, no_columns)
    is_column0 = np.zeros(width, dtype=np.bool_)
    is_column0[grid.column0s] = True
    column0_segments = np.cumsum(is_column0, dtype=np.int32)
    # token -> its match columns, their diagonal neighbours' columns, segment numbers
    plans: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    cached_bytes = 0
    maximum_accumulate, greater_equal = np.maximum.accumulate, np.greater_equal
    for row, tok in enumerate(grid.ref_ids):
        if tok == _NO_TOKEN:  # row 0 of a reference sentence: the next row starts from zeros
            prev.restart(no_columns)
            continue
        cur = spare  # the buffer of two rows back
        plan = plans.get(tok)
        if plan is None:
            cols = grid.match_columns.get(tok, no_columns)
            if cols.size:
                starts = is_column0.copy()
                starts[cols] = True
                segments = np.cumsum(starts, dtype=np.int32)
            else:
                segments = column0_segments
            plan = (cols, cols - 1, segments)
            if cached_bytes < _SEGMENT_CACHE_BYTES:
                plans[tok] = plan
                cached_bytes += segments.nbytes
        cols, diag_cols, segments = plan
        c_prev = prev.values
        work_segment[:] = segments
        work_value[:] = c_prev
        cur.run[cur.run_columns] = 0
        cur.run_columns = cols
        if cols.size:
            k = prev.run[diag_cols]
            # Two float64 operations in the Python code's order: (c_diag + f(k+1)) - f(k).
            work_value[cols] = (c_prev[diag_cols] + gain_new[k]) - gain_old[k]
            cur.run[cols] = k + 1
        maximum_accumulate(work, out=cur.scan)
        # Ties go up: UP when c_up[j] >= c[j-1] (c[j-1] of this row, 0.0 at a column 0).
        greater_equal(prev.values_up, cur.values_left, out=up_wins[row])
        if cols.size:
            moves[row][cols] = DIAGONAL  # (the row view first: faster than 2-D fancy indexing)
        spare, prev = prev, cur
    moves[grid.row0s, :] = STOP
    moves[:, grid.column0s] = STOP
    return moves, (float(prev.values[-1]) if width else 0.0)


def gain_tables(gain_new: Sequence[float], gain_old: Sequence[float]) -> tuple[np.ndarray, np.ndarray] | None:
    """The run-gain tables as float64 arrays, or None when they are not all finite floats
    (the kernel then could not reproduce the Python arithmetic)."""
    try:
        tables = np.array(gain_new, dtype=np.float64), np.array(gain_old, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return None
    return tables if all(np.isfinite(t).all() for t in tables) else None


def wlcs_alignment(ref: Sequence[Hashable], cand: Sequence[Hashable], gain_new: np.ndarray,
                   gain_old: np.ndarray) -> tuple[float, list[tuple[int, int]]]:
    """One DP over whole token lists: the WLCS value and the aligned (ref, cand) index pairs.
    gain_new[k] = f(k+1) and gain_old[k] = f(k) for every run length k < min(len(ref), len(cand))."""
    moves, value = _sweep(_PaddedGrid([ref], [cand]), gain_new, gain_old)
    # Row i is reference token i-1 and column j candidate token j-1, as in the Python tables.
    pairs = []
    i, j = len(ref), len(cand)
    while True:
        step = moves[i, j]
        if step == DIAGONAL:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif step == UP:
            i -= 1
        elif step == LEFT:
            j -= 1
        else:
            break
    pairs.reverse()
    return value, pairs


def _trace_all_blocks(ref_sentences: Sequence[Sequence[Hashable]], cand_sentences: Sequence[Sequence[Hashable]],
                      gain_new: np.ndarray, gain_old: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every (reference sentence s, candidate sentence t) DP in one sweep, traced back.
    Returns arrays (s, t, r, c) of the aligned pairs (r in sentence s, c in sentence t),
    sorted by s, then r, then t."""
    grid = _PaddedGrid(ref_sentences, cand_sentences)
    moves, _ = _sweep(grid, gain_new, gain_old)
    n_cand, width = len(cand_sentences), grid.width
    # Each block's walk starts at its bottom-right corner; all walk in lockstep over the
    # flattened moves until they reach a STOP (their row 0 or column 0).
    flat_moves = moves.reshape(-1)
    step_back = np.array([1, width, width + 1, 0], dtype=np.int64)  # by move: LEFT, UP, DIAGONAL, STOP
    block = np.arange(len(ref_sentences) * n_cand, dtype=np.int64)  # s * n_cand + t
    corner_rows, corner_cols = np.array(grid.ref_ends, dtype=np.int64), np.array(grid.cand_ends, dtype=np.int64)
    cell = (corner_rows[:, None] * width + corner_cols).reshape(-1)
    found_block, found_cell = [], []
    while block.size:
        move = flat_moves[cell]
        walking = move != STOP
        if not walking.all():
            block, cell, move = block[walking], cell[walking], move[walking]
        diagonal = move == DIAGONAL
        found_block.append(block[diagonal])
        found_cell.append(cell[diagonal])
        cell = cell - step_back[move]
    if not found_block:  # no blocks: no reference or no candidate sentence
        found_block = found_cell = [np.empty(0, dtype=np.int64)]
    block, cell = np.concatenate(found_block), np.concatenate(found_cell)
    s, t = np.divmod(block, n_cand)
    row, col = np.divmod(cell, width)
    order = np.lexsort((t, row, s))
    s, t, row, col = s[order], t[order], row[order], col[order]
    row0s, column0s = np.array(grid.row0s, dtype=np.int64), np.array(grid.column0s, dtype=np.int64)
    return s, t, row - row0s[s] - 1, col - column0s[t] - 1


def sentence_alignments(ref_sentences: Sequence[Sequence[Hashable]], cand_sentences: Sequence[Sequence[Hashable]],
                        gain_new: np.ndarray, gain_old: np.ndarray) -> list[list[list[tuple[int, int]]]]:
    """result[s][t]: the aligned (ref, cand) pairs that the DP of reference sentence s
    against candidate sentence t traces back (what `wlcs_alignment` gives for that pair)."""
    result: list[list[list[tuple[int, int]]]] = [[[] for _ in cand_sentences] for _ in ref_sentences]
    s, t, r, c = _trace_all_blocks(ref_sentences, cand_sentences, gain_new, gain_old)
    for s_, t_, r_, c_ in zip(s.tolist(), t.tolist(), r.tolist(), c.tolist()):
        result[s_][t_].append((r_, c_))
    return result


def first_partners(ref_sentences: Sequence[Sequence[Hashable]], cand_sentences: Sequence[Sequence[Hashable]],
                   cand_starts: Sequence[int], gain_new: np.ndarray, gain_old: np.ndarray) -> list[dict[int, int]]:
    """For each reference sentence: every position aligned by its DP against some candidate
    sentence -> cand_starts[t] + the candidate position, for the first such sentence t (what
    `partner.setdefault` over the candidate sentences in order keeps)."""
    partners: list[dict[int, int]] = [{} for _ in ref_sentences]
    s, t, r, c = _trace_all_blocks(ref_sentences, cand_sentences, gain_new, gain_old)
    if not s.size:
        return partners
    first = np.ones(s.size, dtype=np.bool_)  # sorted by (s, r, t): the first t of each (s, r)
    first[1:] = (s[1:] != s[:-1]) | (r[1:] != r[:-1])
    s, t, r, c = s[first], t[first], r[first], c[first]
    cand_positions = (np.array(cand_starts, dtype=np.int64)[t] + c).tolist()
    ref_positions = r.tolist()
    sentence_starts = np.flatnonzero(np.diff(s, prepend=-1)).tolist() + [s.size]
    for lo, hi in zip(sentence_starts, sentence_starts[1:]):
        partners[int(s[lo])] = dict(zip(ref_positions[lo:hi], cand_positions[lo:hi]))
    return partners
