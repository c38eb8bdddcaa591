"""ROUGE-W: weighted LCS, which rewards consecutive matches with f(k) = k^w.

Two forms:
- "paper" (Lin 2004): one weighted-LCS DP over the whole token lists;
  R = f⁻¹(WLCS / f(|r|)), P = f⁻¹(WLCS / f(|c|)).
- "rouge155" (what ROUGE-1.5.5.pl computes): per reference sentence, the union of the
  weighted-LCS hits against every candidate sentence, clipped by token counts; each run of
  consecutive reference positions adds f(run length). Precision divides by f(|c|); recall
  divides by f(Σ f(|r_i|)) — the reference length is weighted twice, which is why its
  ROUGE-W recall is much lower than its precision on identical lengths.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from .stats import Stats


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


def wlcs_alignment(ref: Sequence[str], cand: Sequence[str], w: float) -> tuple[float, list[tuple[int, int]]]:
    """Weighted-LCS DP; returns the WLCS value and the aligned (ref, cand) index pairs."""
    rows, cols = len(ref), len(cand)
    c = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    run = [[0] * (cols + 1) for _ in range(rows + 1)]
    move = [[0] * (cols + 1) for _ in range(rows + 1)]  # 1 diagonal, 2 up, 3 left
    for i in range(1, rows + 1):
        r = ref[i - 1]
        for j in range(1, cols + 1):
            if r == cand[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + weight(k + 1, w) - weight(k, w)
                run[i][j] = k + 1
                move[i][j] = 1
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j] = c[i - 1][j]
                move[i][j] = 2
            else:
                c[i][j] = c[i][j - 1]
                move[i][j] = 3
    pairs = []
    i, j = rows, cols
    while i > 0 and j > 0:
        step = move[i][j]
        if step == 1:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif step == 2:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return c[rows][cols], pairs


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
    stats = Stats(value, weight(len(cand), w), weight(len(ref), w), 1.0 / w)
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
    hits = 0.0
    runs: list[WlcsRun] = []
    ref_base = 0.0
    for ra, rb in ref_bounds:
        ref_sentence = ref[ra:rb]
        ref_base += weight(len(ref_sentence), w)
        partner: dict[int, int] = {}  # ref position -> a candidate position aligned to it
        for (ca, _cb), cand_sentence in zip(cand_bounds, cand_sentences):
            for r, c in wlcs_alignment(ref_sentence, cand_sentence, w)[1]:
                partner.setdefault(r, ca + c)
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
    stats = Stats(hits, weight(cand_len, w), weight(ref_base, w), 1.0 / w)
    return stats, (WlcsEvidence("rouge155", w, tuple(runs), hits) if evidence else None)
