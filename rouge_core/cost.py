"""What a ROUGE computation will cost, known before it is paid, and the per-call bound.

Every method's cost follows from the token and sentence counts of the two sides (and, for
memory, how many distinct tokens a side has), so it is estimated from the Documents
scoring already holds, with a few arithmetic operations per method:

    N       n-grams: each side's T - n + 1 grams, tuples of n
    L       LCS cells: reference tokens x candidate tokens, in bit-parallel rows of 64 cells
    Lsum    the same over the candidate's sentences side by side; with evidence, the
            aligned pairs (at most one per reference token and candidate sentence)
    Lbest   LCS cells of every (candidate sentence, reference sentence) pair
    W       DP cells: a table of reference x candidate tokens (one byte a cell is kept for
            the traceback)
    S, SU   skip-bigrams of both sides (one dictionary entry each when all are distinct)

`estimate(method, candidate, references, options, evidence=...)` returns a `CostEstimate`
(estimated seconds and peak bytes on the machine the constants were measured on, the
dominant unit and its count, and a bounded alternative where one exists).
`rouge_core.score(..., cost_limit=...)` checks the whole call against a `CostLimit` before
any expensive work and raises `CostLimitError` above it: by default `DEFAULT_COST_LIMIT`
(about 2 s and 500 MB), `UNBOUNDED` to lift it. The bound is an argument of each call,
never a module setting, so concurrent callers (app sessions) cannot change each other's.

The constants come from bench/calibrate_costs.py (worst-case-shaped inputs, per-unit costs
rounded up), so estimates sit at or above what was measured; what the run printed is kept
next to them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Sequence

from . import native


if TYPE_CHECKING:
    from .document import Document
    from .methods import Method
    from .options import Options

# --- the measured constants ------------------------------------------------------------
# Fitted to `python bench/calibrate_costs.py` on the development machine (AMD EPYC, 2 cores
# shared with other work, Python 3.11.7, NumPy 2.4): per-unit costs from the largest sizes,
# rounded up. Excerpts of that run (seconds / peak MB measured; est = the estimate with
# these constants; "ev" = with evidence):
#   case                       ev   tokens        units                seconds   peak MB
#   N1                         no   400000/400000  800,000 n-grams      0.71      42.8
#   N1                         yes  400000/400000  800,000 n-grams      3.32     205.5
#   N100                       yes  10000/10000     19,802 n-grams      0.18      35.3
#   L                          no   20000/20000   400,000,000 LCS cells 0.071      0.6
#   L                          yes  20000/20000   400,000,000 LCS cells 1.58      82.9
#   Lsum 1 sentence            no   16000/16000   256,032,000 LCS cells 0.32      34.8
#   Lsum 20-token sentences    no   20000/20000   420,020,000 LCS cells 0.98       2.2
#   Lsum 20-token sentences    yes  8000/8000      67,208,000 LCS cells 4.64     123.9
#   Lsum 1-token sentences     yes  2000/2000       8,002,000 LCS cells 0.95      43.6
#   Lbest 1-token sentences    no   500/500           250,000 LCS cells 1.30       0.1
#   W paper (NumPy)            no   6000/6000      36,000,000 DP cells  0.36      35.9
#   W rouge155 (NumPy)         no   6000/6000      39,690,000 DP cells  0.54      87.9
#   S4                         no   160000/160000   1,599,970 skip-bigr 1.52     183.7
#   S4                         yes  80000/80000       799,970 skip-bigr 3.24     201.8
#   S* (all distinct)          no   1000/1000         999,000 skip-bigr 0.92      95.4
#   S* (all distinct)          yes  1000/1000         999,000 skip-bigr 3.94     235.6
#   S* (40 words)              no   3000/3000       8,997,000 skip-bigr 3.66       -
# The estimates lie 1.0-3x above these (more on shapes the counts cannot see, such as few
# distinct tokens); timings on this shared machine vary by up to 2x between runs, so the
# constants follow the slower runs.
CALL_S = 20e-6  # fixed cost of one method on one pair (records, dispatch)
BASE_BYTES = 4096  # result records of one method on one pair
# N: per n-gram, plus per token of the gram (tuple building), plus cache misses as the
# dictionary grows (as for S below); bytes per distinct gram
N_GRAM_S = 0.35e-6
N_GRAM_MISS_S = 0.65e-6
N_GRAM_TOKEN_S = 0.045e-6
N_GRAM_BYTES = 120
N_EVIDENCE_GRAM_S = 1.6e-6
N_EVIDENCE_GRAM_BYTES = 200
# L and Lsum: bit-parallel rows; a row costs a fixed part plus a part per 64-bit word
LCS_ROW_S = 0.5e-6
LCS_WORD_S = 0.012e-6
LCS_TOKEN_S = 0.3e-6  # building the candidate's masks
LCS_TRACE_ROW_S = 1.2e-6  # a traceback row (summary-level, or with evidence)
LCS_TRACE_WORD_S = 0.12e-6
LCS_PAIR_S = 1.3e-6  # one aligned pair of evidence
LCS_PAIR_BYTES = 100
LCS_EVIDENCE_WORD_S = 0.25e-6  # sentence-level evidence: a traceback word (fresh masks, pairs)
LCS_SENTENCE_S = 3e-6  # one reference sentence's traceback set-up
# Lbest: one LCS per (candidate sentence, reference sentence) pair
LBEST_PAIR_S = 5.5e-6
# W: DP cells (Python loop, or the NumPy kernel on wide tables), one move byte a cell
W_PY_CELL_S = 0.15e-6
W_PY_ROW_S = 2e-6
W_PY_PAIR_S = 8e-6  # one (reference sentence, candidate sentence) DP of the ROUGE-1.5.5 form
W_PY_WALK_S = 0.6e-6  # one traceback step in Python
W_NP_CELL_S = 0.012e-6
W_NP_ROW_S = 15e-6
W_NP_WALK_S = 15e-6  # one lockstep traceback step of the NumPy kernel (all blocks at once)
W_PAIR_S = 0.15e-6  # one aligned pair of the ROUGE-1.5.5 form (partners, runs)
W_PAIR_BYTES = 40
W_CELL_BYTES = 1.2
W_ROW_BYTES = 200
# S and SU: per skip-bigram counted; the per-gram cost grows with the dictionary (cache
# misses) until about S_CACHE_GRAMS distinct grams a side; bytes per distinct gram
S_GRAM_S = 0.45e-6
S_GRAM_MISS_S = 0.75e-6
S_CACHE_GRAMS = 2**18
S_GRAM_BYTES = 130
S_EVIDENCE_GRAM_S = 0.3e-6  # the grams in reading order
S_EVIDENCE_NEW_S = 3.0e-6  # one evidence row per distinct gram
S_EVIDENCE_GRAM_BYTES = 180

# The compiled kernels (rouge_core.native), fitted the same way (bench/calibrate_costs.py on the
# native path; memory from the resident set, which C allocations reach and tracemalloc does
# not), on the same machine while other work kept it loaded (load average 4-7 on 2 cores, so
# the constants are on the slow side). Excerpts ("shared": the reference is the candidate's
# tokens shuffled, every gram of tokens both sides have — the kernels' worst case):
#   case                       ev   tokens         units                 seconds   peak MB
#   N2 shared                  no   400000/400000     799,998 n-grams      0.36      97.1
#   N2 shared                  yes  400000/400000     799,998 n-grams      0.71     142.0
#   L                          no   20000/20000   400,000,000 LCS cells    0.011      1.8
#   L                          yes  20000/20000   400,000,000 LCS cells    0.13      67.1
#   Lsum 1 sentence            no   16000/16000   256,032,000 LCS cells    0.045      1.1
#   Lsum 20-token sentences    yes  8000/8000      67,208,000 LCS cells    0.45     186.0
#   Lsum 1-token sentences     yes  4000/4000      32,004,000 LCS cells    0.83     406.8
#   W paper                    no   6000/6000      36,000,000 DP cells     0.055      0.6
#   W paper                    yes  6000/6000      36,000,000 DP cells     0.10       5.8
#   W rouge155                 no   6000/6000      37,800,000 DP cells     0.12       0.6
#   S4 shared                  no   200000/200000   1,999,970 skip-bigr    0.21     136.0
#   S4 shared                  yes  200000/200000   1,999,970 skip-bigr    3.59     845.1
#   S* shared                  no   2000/2000       3,998,000 skip-bigr    0.85     190.8
#   S* (all distinct)          yes  2000/2000       3,998,000 skip-bigr    6.99    1380.5
# Estimates lie 1-15x above these on every family (more where the counts cannot see a cheap
# shape, e.g. grams of tokens only one side has, which the kernels skip).
NATIVE_CALL_S = 3e-6  # one method on one pair: records, dispatch
NATIVE_BASE_BYTES = 2048
NATIVE_TOKEN_S = 0.3e-6  # a token's id, its term in the vocabulary, the reference's join (all distinct)
NATIVE_TOKEN_BYTES = 110
NATIVE_N_GRAM_S = 0.3e-6  # a window hashed and counted (grams of tokens both sides have)
NATIVE_N_TOKEN_S = 0.004e-6  # per token of a gram compared on a hit
NATIVE_N_GRAM_BYTES = 60  # table slots per candidate window (half full)
NATIVE_N_EVIDENCE_GRAM_S = 0.5e-6  # a matched gram's records and its start positions
NATIVE_N_EVIDENCE_GRAM_BYTES = 160
NATIVE_LCS_TOKEN_S = 0.01e-6  # the candidate's masks
NATIVE_LCS_ROW_S = 0.05e-6
NATIVE_LCS_WORD_S = 0.003e-6  # one 64-bit word of one row
NATIVE_LCS_TRACE_WORD_S = 0.03e-6  # the traceback's words: forward pass kept, mirrored, walked
NATIVE_LCS_PAIR_S = 0.35e-6  # one aligned pair of evidence (a tuple)
NATIVE_LCS_PAIR_BYTES = 90
NATIVE_LBEST_SENTENCE_S = 10e-6  # a candidate sentence against every reference sentence (Python loop)
NATIVE_LBEST_PAIR_S = 0.1e-6  # one (candidate sentence, reference sentence) length read
NATIVE_W_CELL_S = 0.003e-6  # one DP cell of Lin's form without a traceback (two rows of values)
NATIVE_W_BIT_CELL_S = 0.006e-6  # one DP cell keeping its traceback bit
NATIVE_W155_CELL_S = 0.009e-6  # one cell of ROUGE-1.5.5's form (all candidate sentences side by side)
NATIVE_W_ROW_S = 0.05e-6
NATIVE_W_WALK_S = 0.3e-6  # one aligned pair of a traceback (Python records of the runs)
NATIVE_S_GRAM_S = 0.1e-6  # a skip-bigram of tokens both sides have, counted
NATIVE_S_GRAM_MISS_S = 0.4e-6  # the same, once its table outgrows the caches
NATIVE_S_GRAM_BYTES = 110  # a distinct candidate gram's table slot (half full, growing by doubling)
NATIVE_S_EVIDENCE_GRAM_S = 0.1e-6  # evidence counts every gram of both sides
NATIVE_S_EVIDENCE_ROW_S = 1.5e-6  # one evidence row (record, gram tuple)
NATIVE_S_EVIDENCE_ROW_BYTES = 270
# ----------------------------------------------------------------------------------------

MB = 10**6


@dataclass(frozen=True)
class CostLimit:
    """A bound on one call: estimated seconds and peak bytes (None: no bound on that)."""

    seconds: float | None = 2.0
    peak_bytes: float | None = 500 * MB

    def __post_init__(self) -> None:
        for name in ("seconds", "peak_bytes"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not value > 0):
                raise ValueError(f"CostLimit {name} must be a positive number or None, got {value!r}")

    @property
    def unbounded(self) -> bool:
        return self.seconds is None and self.peak_bytes is None

    def allows(self, estimate: "CostEstimate") -> bool:
        return ((self.seconds is None or estimate.seconds <= self.seconds)
                and (self.peak_bytes is None or estimate.peak_bytes <= self.peak_bytes))

    def describe(self) -> str:
        parts = []
        if self.seconds is not None:
            parts.append(format_seconds(self.seconds))
        if self.peak_bytes is not None:
            parts.append(format_bytes(self.peak_bytes))
        return " and ".join(parts) if parts else "no bound"


DEFAULT_COST_LIMIT = CostLimit()
"""About 2 s and 500 MB per call on the development machine."""

UNBOUNDED = CostLimit(None, None)
"""No bound: compute whatever it costs."""


def resolve_limit(cost_limit: CostLimit | None) -> CostLimit:
    """None is the default bound; anything else must be a CostLimit."""
    if cost_limit is None:
        return DEFAULT_COST_LIMIT
    if not isinstance(cost_limit, CostLimit):
        raise TypeError("cost_limit must be a rouge_core.cost.CostLimit (or None for the default bound, "
                        f"rouge_core.cost.UNBOUNDED for none), not {type(cost_limit).__name__}")
    return cost_limit


def format_seconds(seconds: float) -> str:
    if seconds < 0.01:
        return "under 0.01 s"
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 3600:
        return f"{seconds:,.0f} s"
    return f"{seconds / 3600:,.1f} h"


def format_bytes(n: float) -> str:
    if n < MB:
        return "under 1 MB"
    if n < 1000 * MB:
        return f"{n / MB:,.0f} MB"
    return f"{n / (1000 * MB):,.1f} GB"


@dataclass(frozen=True)
class CostEstimate:
    """The estimated cost of a method (summed over the references) or of a whole call.

    seconds, peak_bytes: on the machine the constants were measured on (upper-ish: the
      constants are the worst measured per-unit costs, memory assumes every gram distinct
      unless the distinct tokens were known).
    unit, count: the dominant unit of work and how many ("skip-bigrams", 12345678).
    alternative: a bounded method computing nearly the same thing, where one exists
      (rougeS* -> rougeS4, rougeSU* -> rougeSU4); None otherwise.
    """

    method: str
    seconds: float
    peak_bytes: float
    unit: str
    count: int
    alternative: str | None = None

    def describe(self) -> str:
        """e.g. 'about 54 s and 2.1 GB (12,345,678 skip-bigrams)'."""
        return (f"about {format_seconds(self.seconds)} and {format_bytes(self.peak_bytes)} "
                f"({self.count:,} {self.unit})")


def total(estimates: Iterable[CostEstimate], label: str = "all methods") -> CostEstimate:
    """One estimate for several computations done in one call (times and memory added)."""
    items = list(estimates)
    seconds = sum(e.seconds for e in items)
    peak = sum(e.peak_bytes for e in items)
    units = {e.unit for e in items}
    unit = units.pop() if len(units) == 1 else "units of work"
    return CostEstimate(label, seconds, peak, unit, sum(e.count for e in items))


class CostLimitError(ValueError):
    """A call would cost more than its bound; raised before any expensive work.

    method: the costliest method of the call; estimate: its CostEstimate (all references);
    total: the whole call's CostEstimate; limit: the CostLimit; alternative: a bounded
    method to use instead of `method`, or None; alternatives: {method: bounded method} for
    every method of the call that has one; pair: the corpus pair (id) when scoring a corpus.
    `str(error)` says how to lift the bound in Python terms; `message(lift=...)` words it
    for another caller (a command line names its flag).
    """

    PYTHON_LIFT = "pass cost_limit=rouge_core.UNBOUNDED to lift the bound"

    def __init__(self, estimate: CostEstimate, total: CostEstimate, limit: CostLimit,
                 pair: str | None = None, lift: str = PYTHON_LIFT, alternatives: dict[str, str] | None = None):
        self.method = estimate.method
        self.estimate = estimate
        self.total = total
        self.limit = limit
        self.alternative = estimate.alternative
        self.alternatives = dict(alternatives or ({self.method: self.alternative} if self.alternative else {}))
        self.pair = pair
        self.lift = lift
        super().__init__(self.message(lift))

    def __reduce__(self):  # picklable across process pools
        return (CostLimitError, (self.estimate, self.total, self.limit, self.pair, self.lift, self.alternatives))

    def message(self, lift: str | None = None, scope: str = "call") -> str:
        """The message, with `lift` saying how to lift the bound and `scope` what the bound
        applies to ("call"; a command line says "pair" or "document")."""
        lift = self.lift if lift is None else lift
        where = f"pair {self.pair}: " if self.pair is not None else ""
        what = f"{self.method} would take {self.estimate.describe()}"
        if self.total.seconds > self.estimate.seconds * 1.01 or self.total.peak_bytes > self.estimate.peak_bytes * 1.01:
            what += f"; the whole {scope} {self.total.describe()}"
        options = []
        if self.alternatives:
            options.append("use " + ", ".join(f"{alt} instead of {m}" for m, alt in self.alternatives.items()))
        options.append("shorten the texts")
        options.append(lift)
        return (f"{where}{what}, above the bound of {self.limit.describe()} per {scope}. "
                f"{options[0][0].upper()}{options[0][1:]}, " + ", or ".join(options[1:]) + ".")

    def with_pair(self, pair: str) -> "CostLimitError":
        return CostLimitError(self.estimate, self.total, self.limit, pair, self.lift, self.alternatives)

    def with_lift(self, lift: str) -> "CostLimitError":
        return CostLimitError(self.estimate, self.total, self.limit, self.pair, lift, self.alternatives)


# --- shapes --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Shape:
    """What the cost of a side depends on: tokens, sentences, distinct tokens (an upper
    bound: the tokens themselves when unknown)."""

    tokens: int
    sentences: int
    distinct: int

    @staticmethod
    def of(side) -> "Shape":
        """A Document, a token count, or a sequence of sentence lengths."""
        from .document import Document

        if isinstance(side, Shape):
            return side
        if isinstance(side, Document):
            return Shape(len(side), len(side.sentence_bounds), distinct_tokens(side))
        if isinstance(side, int) and not isinstance(side, bool):
            if side < 0:
                raise ValueError(f"a token count must be non-negative, got {side}")
            return Shape(side, 1, side)
        if isinstance(side, (list, tuple)) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                                   for n in side):
            tokens = sum(side)
            return Shape(tokens, len(side), tokens)
        raise TypeError("a side is a Document, a token count, or a list of sentence lengths, "
                        f"not {type(side).__name__}")


_DISTINCT = "distinct-tokens"  # Document.memo key


def distinct_tokens(doc: "Document") -> int:
    from .native import TOKENS

    tokens = doc.memoized(TOKENS)
    if tokens:  # the compiled kernels' Tokens know it
        return tokens.distinct
    return doc.memo(_DISTINCT, _count_distinct, doc.term_tuple)


def _count_distinct(terms) -> int:
    return len(set(terms))


# --- per-family costs: (seconds, bytes, unit, count) of one method on one pair ------------
# (each family of rouge_core.methods calls its own; `Family.cost`)

def ngram_cost(n: int, c: Shape, r: Shape, evidence: bool):
    if native.KERNELS is not None:
        return _native_ngram_cost(n, c, r, evidence)
    grams = max(c.tokens - n + 1, 0) + max(r.tokens - n + 1, 0)
    distinct = min(grams, c.distinct ** n + r.distinct ** n) if n < 8 else grams
    largest = min(max(c.tokens, r.tokens), distinct)
    seconds = grams * (N_GRAM_S + N_GRAM_MISS_S * min(1.0, largest / S_CACHE_GRAMS) + n * N_GRAM_TOKEN_S)
    # the counts, and (n > 1) the n shifted slices of each side that zip() reads
    nbytes = (distinct * (N_GRAM_BYTES + 8 * n)
              + 8 * (min(n, c.tokens) * c.tokens + min(n, r.tokens) * r.tokens) * (n > 1))
    if evidence:
        seconds += grams * (N_EVIDENCE_GRAM_S + N_GRAM_MISS_S + n * N_GRAM_TOKEN_S)
        nbytes += grams * 16 + distinct * (N_EVIDENCE_GRAM_BYTES + 8 * n)
    return seconds, nbytes, "n-grams", grams


def _native_tokens(c: Shape, r: Shape) -> tuple[float, float]:
    """Both sides as token ids, and the reference joined to the candidate (once per text;
    counted for every method, to be safe)."""
    tokens = c.tokens + r.tokens
    return tokens * NATIVE_TOKEN_S, tokens * NATIVE_TOKEN_BYTES


def _native_ngram_cost(n: int, c: Shape, r: Shape, evidence: bool):
    c_grams, r_grams = max(c.tokens - n + 1, 0), max(r.tokens - n + 1, 0)
    grams = c_grams + r_grams
    seconds, nbytes = _native_tokens(c, r)
    seconds += grams * (NATIVE_N_GRAM_S + n * NATIVE_N_TOKEN_S)
    nbytes += c_grams * NATIVE_N_GRAM_BYTES
    if evidence:
        matched = min(c_grams, r_grams)
        seconds += grams * n * NATIVE_N_TOKEN_S + matched * (NATIVE_N_EVIDENCE_GRAM_S + n * NATIVE_N_TOKEN_S)
        nbytes += 12 * grams + matched * (NATIVE_N_EVIDENCE_GRAM_BYTES + 8 * n)
    return seconds, nbytes, "n-grams", grams


def _words(bits: int) -> int:
    return bits // 64 + 1


def _mask_bytes(c: Shape, width: int) -> float:
    # one mask per distinct candidate token, each twice the layout wide (a mirrored copy)
    return min(c.distinct, c.tokens) * (width / 4 + 60)


def _native_masks(c: Shape, width: int, mirrored: bool) -> float:
    # one mask per distinct candidate token, one word per 64 columns (and its mirrored copy)
    return min(c.distinct, c.tokens) * 8 * _words(width) * (2 if mirrored else 1) + 12 * width


def lcs_cost(c: Shape, r: Shape, evidence: bool):
    if native.KERNELS is not None and not evidence:
        width = c.tokens + c.sentences + 1
        seconds, nbytes = _native_tokens(c, r)
        seconds += c.tokens * NATIVE_LCS_TOKEN_S + r.tokens * (NATIVE_LCS_ROW_S + _words(width) * NATIVE_LCS_WORD_S)
        return seconds, nbytes + _native_masks(c, width, False), "LCS cells", c.tokens * r.tokens
    width = c.tokens + 1
    cells = c.tokens * r.tokens
    words = _words(width)
    seconds = c.tokens * LCS_TOKEN_S + r.tokens * (LCS_ROW_S + words * LCS_WORD_S)
    nbytes = _mask_bytes(c, 2 * width) + 32 * (c.tokens + r.tokens)
    if evidence:
        seconds += c.tokens * LCS_TOKEN_S + r.tokens * (LCS_TRACE_ROW_S + words * LCS_EVIDENCE_WORD_S)
        pairs = min(c.tokens, r.tokens)
        seconds += pairs * LCS_PAIR_S
        nbytes += _mask_bytes(c, width) + r.tokens * (width / 4 + 120) + pairs * LCS_PAIR_BYTES
    return seconds, nbytes, "LCS cells", cells


def union_lcs_cost(c: Shape, r: Shape, evidence: bool):
    if native.KERNELS is not None:
        return _native_union_lcs_cost(c, r, evidence)
    width = c.tokens + c.sentences + 1
    cells = width * r.tokens
    words = _words(2 * width)
    # a forward and a traceback pass per reference row; the rows of a sentence are kept
    row = LCS_ROW_S + LCS_TRACE_ROW_S + words * (LCS_WORD_S + LCS_TRACE_WORD_S)
    seconds = c.tokens * LCS_TOKEN_S + r.tokens * row + r.sentences * LCS_SENTENCE_S
    nbytes = _mask_bytes(c, 2 * width) + r.tokens * (width / 4 + 120)
    if evidence:
        pairs = min(r.tokens * c.sentences, r.sentences * c.tokens)
        seconds += r.tokens * row + r.sentences * LCS_SENTENCE_S + pairs * LCS_PAIR_S
        nbytes += pairs * LCS_PAIR_BYTES + 200 * (r.tokens + c.tokens)
    return seconds, nbytes, "LCS cells", cells


def _native_union_lcs_cost(c: Shape, r: Shape, evidence: bool):
    width = c.tokens + c.sentences + 1
    words = _words(width)
    cells = width * r.tokens
    seconds, nbytes = _native_tokens(c, r)
    seconds += c.tokens * NATIVE_LCS_TOKEN_S + r.tokens * (NATIVE_LCS_ROW_S + words * NATIVE_LCS_TRACE_WORD_S)
    # the rows of a reference sentence are kept: all of them when it is one sentence
    nbytes += _native_masks(c, width, True) + 8 * words * r.tokens
    if evidence:
        pairs = min(r.tokens * c.sentences, r.sentences * c.tokens)
        seconds += pairs * NATIVE_LCS_PAIR_S + (c.tokens + r.tokens) * LCS_TOKEN_S
        nbytes += pairs * NATIVE_LCS_PAIR_BYTES + 200 * (r.tokens + c.tokens)
    return seconds, nbytes, "LCS cells", cells


def best_sentence_cost(c: Shape, r: Shape, evidence: bool):
    cells = c.tokens * r.tokens
    if native.KERNELS is not None:  # the reference sentences side by side, one pass per candidate sentence
        width = r.tokens + r.sentences + 1
        seconds, nbytes = _native_tokens(c, r)
        seconds += (c.sentences * NATIVE_LBEST_SENTENCE_S + c.sentences * r.sentences * NATIVE_LBEST_PAIR_S
                    + c.tokens * (NATIVE_LCS_ROW_S + _words(width) * NATIVE_LCS_WORD_S) + c.tokens * LCS_TOKEN_S)
        nbytes += _native_masks(r, width, True) + 64 * (c.sentences + r.sentences) + 32 * (c.tokens + r.tokens)
        return seconds, nbytes, "LCS cells", cells
    pairs = c.sentences * r.sentences
    seconds = (pairs * LBEST_PAIR_S + (c.tokens * r.sentences + r.tokens * c.sentences) * LCS_TOKEN_S
               + (cells / 64 + c.tokens * r.sentences + r.tokens * c.sentences) * (LCS_ROW_S + LCS_WORD_S))
    longest = max(c.tokens, r.tokens)
    nbytes = (min(c.distinct + r.distinct, longest) * (longest / 4 + 60) + 64 * (c.sentences + r.sentences)
              + 32 * (c.tokens + r.tokens))
    return seconds, nbytes, "LCS cells", cells


def _numpy_available() -> bool:
    from .wlcs import _numpy_kernel

    return _numpy_kernel() is not None


def _uses_numpy(rows: int, width: int) -> bool:
    from .wlcs import _NUMPY_MIN_CELLS, _NUMPY_MIN_WIDTH

    return width >= _NUMPY_MIN_WIDTH and rows * width >= _NUMPY_MIN_CELLS and _numpy_available()


def wlcs_cost(c: Shape, r: Shape, evidence: bool, form: str):
    if native.KERNELS is not None:
        return _native_wlcs_cost(c, r, evidence, form)
    if form == "paper":
        rows, width, blocks = r.tokens, c.tokens, 1
        pairs = min(c.tokens, r.tokens)
    else:  # every reference sentence against every candidate sentence, each behind a zero row/column
        rows, width, blocks = r.tokens + r.sentences, c.tokens + c.sentences, r.sentences * c.sentences
        pairs = min(r.tokens * c.sentences, r.sentences * c.tokens)
    cells = rows * width
    walk = c.tokens + r.tokens  # the longest traceback
    if _uses_numpy(rows, width):
        seconds = rows * W_NP_ROW_S + cells * W_NP_CELL_S
        seconds += walk * (W_PY_WALK_S if form == "paper" else W_NP_WALK_S)
        distinct_rows = min(r.distinct, rows)
        nbytes = cells * W_CELL_BYTES + min(64 * MB, distinct_rows * width * 4) + width * 64 + blocks * 96
    else:
        seconds = (c.tokens * r.tokens) * W_PY_CELL_S + rows * W_PY_ROW_S + blocks * W_PY_PAIR_S + walk * W_PY_WALK_S
        nbytes = cells * W_CELL_BYTES + rows * W_ROW_BYTES + width * 80
    seconds += pairs * W_PAIR_S + (c.tokens + r.tokens) * 0.2e-6  # clipping counters, runs
    nbytes += pairs * W_PAIR_BYTES + 120 * (c.tokens + r.tokens)
    return seconds, nbytes, "DP cells", cells


def _native_wlcs_cost(c: Shape, r: Shape, evidence: bool, form: str):
    # Two rows of values (8 + 4 bytes a column, twice); a traceback keeps one bit a cell: every
    # cell for the whole-text DP with evidence, a reference sentence's rows for ROUGE-1.5.5's.
    seconds, nbytes = _native_tokens(c, r)
    if form == "paper":
        width, rows = c.tokens, r.tokens
        cell_s = NATIVE_W_BIT_CELL_S if evidence else NATIVE_W_CELL_S
        bits = width * rows / 8 if evidence else 0.0
        pairs = min(c.tokens, r.tokens) if evidence else 0
    else:
        width, rows = c.tokens + c.sentences, r.tokens
        cell_s = NATIVE_W155_CELL_S
        bits = width * r.tokens / 8  # at most: one sentence
        pairs = min(c.tokens, r.tokens)  # a partner per reference position
    cells = rows * width
    seconds += cells * cell_s + rows * NATIVE_W_ROW_S + pairs * NATIVE_W_WALK_S * evidence
    nbytes += 40 * (width + 1) + bits + pairs * (W_PAIR_BYTES if evidence else 4)
    return seconds, nbytes, "DP cells", cells


def skip_cost(distance: int | None, unigram_form: str | None, c: Shape, r: Shape, evidence: bool):
    from .skipgram import skip_bigram_total

    grams = 0
    distinct = 0
    largest = 0  # distinct grams of the larger dictionary
    for side in (c, r):
        tokens = side.tokens + (1 if unigram_form == "start-token" and side.tokens else 0)
        count = skip_bigram_total(tokens, distance)
        vocabulary = side.distinct + (1 if unigram_form == "start-token" else 0)
        if unigram_form == "rouge155":
            count += max(side.tokens - 1, 0)
        side_distinct = min(count, vocabulary * vocabulary + vocabulary)
        grams += count
        distinct += side_distinct
        largest = max(largest, side_distinct)
    if native.KERNELS is not None:
        # only the grams of tokens both sides have are counted, in one table (the candidate's)
        seconds, nbytes = _native_tokens(c, r)
        seconds += grams * (NATIVE_S_GRAM_S + NATIVE_S_GRAM_MISS_S * min(1.0, largest / S_CACHE_GRAMS))
        nbytes += largest * NATIVE_S_GRAM_BYTES
        if evidence:  # then every gram of both sides, and a row per distinct gram
            seconds += grams * NATIVE_S_EVIDENCE_GRAM_S + distinct * NATIVE_S_EVIDENCE_ROW_S
            nbytes += distinct * (NATIVE_S_GRAM_BYTES + NATIVE_S_EVIDENCE_ROW_BYTES)
        return seconds, nbytes, "skip-bigrams", grams
    seconds = grams * (S_GRAM_S + S_GRAM_MISS_S * min(1.0, largest / S_CACHE_GRAMS))
    nbytes = distinct * S_GRAM_BYTES
    if evidence:
        seconds += grams * S_EVIDENCE_GRAM_S + distinct * S_EVIDENCE_NEW_S
        nbytes += distinct * S_EVIDENCE_GRAM_BYTES
    return seconds, nbytes, "skip-bigrams", grams


BOUNDED_DISTANCE = 4  # the distance suggested instead of an unlimited one (ROUGE-S4, ROUGE-SU4)


def _method_estimate(method: "Method", cand: Shape, refs: Sequence[Shape], evidence: bool, options: "Options"
                     ) -> CostEstimate:
    spec = method.spec
    seconds = 0.0
    nbytes = 0.0
    count = 0
    unit = spec.unit
    call_s, base_bytes = (NATIVE_CALL_S, NATIVE_BASE_BYTES) if native.KERNELS is not None else (CALL_S, BASE_BYTES)
    for ref in refs:
        s, b, unit, k = spec.cost(method, cand, ref, evidence, options)
        seconds += s + call_s
        nbytes += b + base_bytes
        count += k
    return CostEstimate(method.name, seconds, nbytes, unit, count, spec.alternative(method))


def _options(options: "Options | str | None") -> "Options":
    from .options import Options, profile

    if isinstance(options, Options):
        return options
    return profile(options or "rouge-score")


def _reference_list(references) -> list:
    from .document import Document

    if isinstance(references, (Document, Shape, int)) or (
            isinstance(references, (list, tuple)) and references and all(isinstance(n, int) for n in references)):
        return [references]  # one reference
    return list(references)


def estimate(method: str | Method, candidate, references, options: "Options | str | None" = None, *,
             evidence: bool = True) -> CostEstimate:
    """The cost of one method on a candidate against its references.

    candidate / each reference: a Document (tokenized once, as scoring does), a token
    count, or a list of sentence lengths. `references` is a list of those (a single one is
    taken as one reference). `options` (an Options or a profile name) decides the ROUGE-W
    and ROUGE-SU forms."""
    from .methods import parse_method

    refs = [Shape.of(r) for r in _reference_list(references)]
    options = _options(options)
    return _method_estimate(parse_method(method, options), Shape.of(candidate), refs, evidence, options)


def estimate_methods(methods: Iterable[str | Method], candidate, references, options: "Options | str | None" = None,
                     *, evidence: bool = True) -> dict[str, CostEstimate]:
    """`estimate` for each method, by method name, in the order given; `total(...)` of the
    values is the whole call's cost, which is what a CostLimit bounds."""
    from .methods import parse_method

    options = _options(options)
    cand = Shape.of(candidate)
    refs = [Shape.of(r) for r in _reference_list(references)]
    out: dict[str, CostEstimate] = {}
    for spec in methods:
        method = parse_method(spec, options)
        out[method.name] = _method_estimate(method, cand, refs, evidence, options)
    return out


# --- the per-call check (scoring's front door) -----------------------------------------------

def _quick_shape(doc: "Document") -> Shape:
    n = len(doc)
    return Shape(n, len(doc.sentence_bounds), n)


def check_call(methods: Sequence[Method], cand: "Document", refs: Sequence["Document"], options: "Options",
               evidence: bool, limit: CostLimit | None) -> None:
    """Raise CostLimitError when scoring `methods` on these Documents would exceed `limit`
    (None: the default bound).

    Small texts need no estimate; on the native path neither do texts within the largest
    sides that certainly fit (`_uniform_bound`, kept per call shape). Then with every token
    assumed distinct (no pass over the tokens); only when that is over the bound, again with
    the distinct tokens counted (one set per text, kept on it)."""
    limit = resolve_limit(limit)
    if limit.unbounded:
        return
    if _small_call(methods, cand, refs, evidence, limit):
        return
    if _native_costs():  # the compiled kernels' estimates grow with every size: one bound serves all calls
        bound = _uniform_bound(tuple(methods), options, len(refs), evidence, limit)
        if len(cand) <= bound and len(cand.sentence_bounds) <= bound and all(
                len(r) <= bound and len(r.sentence_bounds) <= bound for r in refs):
            return
    shapes = (_quick_shape(cand), [_quick_shape(r) for r in refs])
    estimates = _call_estimates(methods, *shapes, evidence, options)
    call = total(estimates)
    if limit.allows(call):
        return
    raise_if_over(_call_estimates(methods, Shape.of(cand), [Shape.of(r) for r in refs], evidence, options), limit)


def raise_if_over(estimates: Sequence[CostEstimate], limit: CostLimit | None) -> None:
    """CostLimitError when the estimates together exceed `limit` (None: the default bound),
    naming the costliest method and every bounded alternative."""
    limit = resolve_limit(limit)
    call = total(estimates)
    if limit.allows(call):
        return
    worst = max(estimates, key=lambda e: max(e.seconds / (limit.seconds or math.inf),
                                             e.peak_bytes / (limit.peak_bytes or math.inf)))
    alternatives = {e.method: e.alternative for e in estimates if e.alternative}
    raise CostLimitError(worst, call, limit, alternatives=alternatives)


def _native_costs() -> bool:
    return native.KERNELS is not None


_last_bound: tuple = (None, None, -1, None, -1)  # the last native_bound call's key and bound


def native_bound(methods: tuple, options: "Options", n_refs: int, limit: CostLimit | None) -> int:
    """On the native path: the largest number of tokens and of sentences every side may have
    for `methods` (no evidence) to fit `limit` whatever the texts (`_uniform_bound`); the last
    call's answer is kept (a corpus asks the same for every pair)."""
    global _last_bound
    last_methods, last_options, last_n, last_limit, bound = _last_bound
    if methods is last_methods and options is last_options and n_refs == last_n and limit is last_limit:
        return bound
    bound = _uniform_bound(methods, options, n_refs, False, resolve_limit(limit))
    _last_bound = (methods, options, n_refs, limit, bound)
    return bound


def _call_estimates(methods, cand: Shape, refs: list[Shape], evidence: bool, options) -> list[CostEstimate]:
    return [_method_estimate(m, cand, refs, evidence, options) for m in methods]


# Texts up to this size (tokens plus sentences, each side) cost at most `_SMALL_PAIR` per
# method and reference under every method; a call of a few such pairs needs no estimate.
_SMALL_SIDE = 200


def _worst_small_pair() -> tuple[float, float]:
    from .methods import parse_method
    from .options import Options

    side = Shape(_SMALL_SIDE, _SMALL_SIDE, _SMALL_SIDE)
    one_sentence = Shape(_SMALL_SIDE, 1, _SMALL_SIDE)
    worst_s = worst_b = 0.0
    for name in ("rouge1", "rouge2", "rouge9", "rougeL", "rougeLsum", "rougeLsum-best", "rougeW-1.2", "rougeS*",
                 "rougeSU*"):
        method = parse_method(name)
        for wlcs_form in ("paper", "rouge155"):
            for su_form in ("rouge155", "start-token"):
                options = Options(wlcs_form=wlcs_form, su_form=su_form)
                for c, r in ((side, side), (one_sentence, one_sentence), (side, one_sentence), (one_sentence, side)):
                    s, b, _, _ = method.spec.cost(method, c, r, True, options)
                    worst_s, worst_b = max(worst_s, s + CALL_S), max(worst_b, b + BASE_BYTES)
    # ROUGE-N's cost peaks at n near half the tokens
    for n in range(1, _SMALL_SIDE + 1):
        s, b, _, _ = ngram_cost(n, side, side, True)
        worst_s, worst_b = max(worst_s, s + CALL_S), max(worst_b, b + BASE_BYTES)
    return worst_s, worst_b


_SMALL_PAIR: dict[str, tuple[float, float]] = {}  # per path (rouge_core.native.path())


def _small_call(methods, cand, refs, evidence, limit: CostLimit) -> bool:
    if len(cand) + len(cand.sentence_bounds) > _SMALL_SIDE:
        return False
    for ref in refs:
        if len(ref) + len(ref.sentence_bounds) > _SMALL_SIDE:
            return False
    worst = _SMALL_PAIR.get(native.path())
    if worst is None:
        worst = _SMALL_PAIR[native.path()] = _worst_small_pair()
    k = len(methods) * len(refs)
    return ((limit.seconds is None or k * worst[0] <= limit.seconds)
            and (limit.peak_bytes is None or k * worst[1] <= limit.peak_bytes))


@lru_cache(maxsize=1024)
def _uniform_bound(methods: tuple, options: "Options", n_refs: int, evidence: bool, limit: CostLimit) -> int:
    """The largest T such that scoring `methods` against n_refs references fits `limit`
    whenever every side has at most T tokens and at most T sentences; -1 when even empty
    texts do not fit. Used on the native path, where every estimate grows with a side's
    tokens, sentences and distinct tokens, so that Shape(T, T, T) bounds them all (the pure
    path's ROUGE-W estimate switches between its Python and NumPy kernels, so it need not)."""

    def fits(t: int) -> bool:
        side = Shape(t, t, t)
        return limit.allows(total(_call_estimates(methods, side, [side] * n_refs, evidence, options)))

    if not fits(0):
        return -1
    low, high = 0, 64
    while fits(high):
        low, high = high, high * 2
        if high > 2**40:
            return low
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if fits(mid) else (low, mid)
    return low
