"""A corpus's per-pair sufficient statistics in NumPy arrays: what macro and micro scores, the
seeded bootstrap and the paired tests read, and nothing else.

Per pair and method the store keeps the pooled statistics a micro sum adds (hits, candidate
total, reference total; `rouge_core.corpora.pairs.pair_micro_stats`), as 32-bit unsigned integers
when they are whole numbers below 2^32 (4 bytes each), else as float64. The pair's P, R and F
are kept only where they cannot be rebuilt from those counts bit for bit: every chunk is
checked (the rebuilt scores are compared with the scored ones, bit for bit) and a method whose
scores do not rebuild (ROUGE-W's powers, "max"/"mean" reference modes, ROUGE-1.5.5's rounded
P and R) keeps them as float64. So a summary pair costs 12 bytes per method in the common case
and at most 48 (STORE_BYTES_MAX).

The aggregates are computed as `rouge_core.corpora.corpus` computed them from the per-pair records,
to the bit: macro means add the defined scores one after another (np.add.accumulate is a
sequential sum, np.sum is not); micro sums add the statistics in pair order (whole numbers add
exactly in any order while the total stays below 2^53, which `freeze` checks); the bootstrap
gathers the same values with the same resampled indices and reduces them with the same NumPy
calls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import attrgetter
from typing import Iterable, Sequence

import numpy as np

from ..text.options import Options
from .pairs import pair_micro_stats
from ..scorer.cost import CORPUS_STATISTICS_BYTES
from ..scorer.scoring import MethodScore, score_from_stats
from ..families.methods import parse_method
from ..stats import F_MEASURE, FMeasureRule, Score, Stats

MEASURES = ("precision", "recall", "fmeasure")
SIDES = ("hits", "cand_total", "ref_total")
STORE_BYTES_MAX = CORPUS_STATISTICS_BYTES  # per pair and method: three float64 counts and three float64 scores
_UINT32_LIMIT = 2.0**32
_EXACT_SUM_LIMIT = 2.0**53
GROWTH_STEP = 1 << 20  # pairs a column grows by once it is large  # below it, whole numbers add exactly whatever the order


def _compact(values: np.ndarray) -> np.ndarray:
    """float64 whole numbers in [0, 2^32) as uint32 (the same values, a third of the bytes)."""
    if values.size and np.all((values >= 0) & (values < _UINT32_LIMIT)) and np.array_equal(values, np.floor(values)):
        return values.astype(np.uint32)
    return values


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a.view(np.uint64), b.view(np.uint64)))


def derive_scores(hits, cand, ref, options: Options, rule: FMeasureRule = F_MEASURE
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P, R and F of pooled counts, elementwise, with the arithmetic of
    rouge_core.stats (_ratio, f_measure) and scoring.score_from_stats for methods without an
    exponent and profiles that do not round P and R; F by `rule` (the method family's). Used
    only where `MethodColumns` checked that it gives the scored values bit for bit. Few
    temporaries: it runs on resampled blocks of up to millions of pairs."""
    hits = np.asarray(hits, dtype=np.float64)
    p = _ratio_of(hits, cand, options)
    r = _ratio_of(hits, ref, options)
    del hits
    return p, r, _f_of(p, r, options, rule)


def _f_of(p: np.ndarray, r: np.ndarray, options: Options, rule: FMeasureRule = F_MEASURE) -> np.ndarray:
    """stats.f_measure elementwise at the rule's α (a rule of another form: its own function, pair by pair)."""
    alpha = rule.alpha(options)
    if alpha is None:
        return np.fromiter((rule.fmeasure(a, b, options) for a, b in zip(p.ravel().tolist(), r.ravel().tolist())),
                           np.float64, p.size).reshape(p.shape)
    with np.errstate(all="ignore"):
        denominator = np.multiply(p, 1 - alpha)
        denominator += np.multiply(r, alpha)
        f = np.multiply(p, r)
        np.divide(f, denominator, out=f, where=denominator > 0)
        f[~(denominator > 0)] = 0.0
        del denominator
        if options.empty == "nan":
            f[np.isnan(p) | np.isnan(r)] = np.nan
    return f


def _ratio_of(hits: np.ndarray, total, options: Options) -> np.ndarray:
    """hits / total, 0 where the total is 0 (NaN under empty="nan"), as stats._ratio divides."""
    total = np.asarray(total, dtype=np.float64)
    defined = total > 0
    with np.errstate(all="ignore"):
        out = np.divide(hits, total, out=np.zeros_like(hits), where=defined)
    if options.empty == "nan":
        out[~defined] = np.nan
    return out


_SCORE_OF = attrgetter("score")
_MEASURE_OF = tuple(attrgetter(m) for m in MEASURES)
_SIDE_OF = tuple(attrgetter(side) for side in SIDES)


def record_arrays(records: Sequence[MethodScore]) -> tuple:
    """One method's records as MethodColumns.append_arrays takes them: (P, R, F), (hits,
    candidate total, reference total), which pairs have statistics, the first statistics'
    exponent, whether every exponent is 1 (made where the pairs were scored: a worker process
    sends these arrays, not the records). Read with map and attrgetters (no Python frame per
    record: a streamed corpus has millions)."""
    k = len(records)
    scores = list(map(_SCORE_OF, records))
    scores = tuple(np.fromiter(map(get, scores), np.float64, k) for get in _MEASURE_OF)
    pooled = list(map(pair_micro_stats, records))
    if None in pooled:
        present = np.fromiter((s is not None for s in pooled), bool, k)
        stated = [s for s in pooled if s is not None]
        sides = []
        for get in _SIDE_OF:
            side = np.zeros(k, np.float64)
            side[present] = np.fromiter(map(get, stated), np.float64, len(stated))
            sides.append(side)
        sides = tuple(sides)
    else:
        present, stated = np.ones(k, bool), pooled
        sides = tuple(np.fromiter(map(get, pooled), np.float64, k) for get in _SIDE_OF)
    exponents = set(map(attrgetter("exponent"), stated))
    exponent = stated[0].exponent if stated else None
    return scores, sides, present, exponent, exponents <= {1.0}


class MethodColumns:
    """One method's columns, filled chunk by chunk (`append`), then joined (`freeze`)."""

    def __init__(self, name: str, options: Options):
        self.name = name
        self.options = options
        self.rule = parse_method(name, options).spec.f_rule  # how its P and R become F
        self.exponent: float | None = None  # the first pooled statistics' exponent (1 but for ROUGE-W)
        self.with_stats = 0  # pairs whose record has statistics (a pair without references has none)
        # the counts, grown in place (ndarray.resize: realloc, which moves big blocks without copying
        # them), so memory holds the pairs once, never a list of chunks and their joined copy
        self._sides: list[np.ndarray] = [np.zeros(0, np.uint32) for _ in SIDES]
        self._size = 0
        self._scores: list[tuple[np.ndarray, ...] | None] = []  # per chunk: P, R, F, or None where they rebuild
        self.sides: tuple[np.ndarray, ...] = ()
        self.scores: tuple[np.ndarray, ...] | None = None
        self.has_nan: dict[str, bool] = {}
        self.without_stats: set[int] = set()  # pairs whose record has no statistics (no reference)
        self._lengths: list[int] = []
        self._seen = 0

    def append(self, records: Sequence[MethodScore]) -> None:
        self.append_arrays(*record_arrays(records))

    def append_arrays(self, scores: tuple, sides: tuple, present: np.ndarray, exponent: float | None,
                      no_power: bool = False) -> None:
        """The next pairs as arrays: P, R, F; hits, candidate and reference totals (0 where a pair
        has no statistics); which pairs have statistics; the statistics' exponent (the first's);
        `no_power`: every exponent is 1 (their scores may rebuild from the counts)."""
        k = len(present)
        missing = np.flatnonzero(~present)
        self.without_stats.update((self._seen + missing).tolist())
        self.with_stats += k - len(missing)
        if self.exponent is None and exponent is not None:
            self.exponent = float(exponent)
        self._seen += k
        self._lengths.append(k)
        scores = tuple(np.ascontiguousarray(a, dtype=np.float64) for a in scores)
        sides = tuple(np.ascontiguousarray(a, dtype=np.float64) for a in sides)
        rebuilt = (self.options.round_pr is None and no_power and not len(missing)
                   and all(_same_bits(a, b) for a, b in zip(derive_scores(*sides, self.options, self.rule), scores)))
        self._scores.append(None if rebuilt else scores)
        end = self._size + k
        for j, values in enumerate(sides):
            values = _compact(values)
            column = self._sides[j]
            if column.dtype == np.uint32 and values.dtype != np.uint32:
                column = column.astype(np.float64)  # a count that is not a whole number below 2^32
            if end > len(column):
                if not column.flags.owndata:
                    column = column.copy()
                # doubling while small, then steps of GROWTH_STEP pairs: resize fills what it adds
                # with zeros, so spare room would be resident memory
                column.resize(max(end, min(2 * len(column), len(column) + GROWTH_STEP), 1024), refcheck=False)
            column[self._size:end] = values
            self._sides[j] = column
        self._size = end

    def freeze(self) -> None:
        """The columns cut to the pairs' number; P, R and F joined where they are kept."""
        n = self._size
        sides = []
        for column in self._sides:
            if len(column) != n:
                column.resize(n, refcheck=False)
            if column.dtype == np.uint32 and n and float(column.max(initial=0)) * n >= _EXACT_SUM_LIMIT:
                column = column.astype(np.float64)  # sums could round: add them as floats, as before
            sides.append(column)
        self.sides = tuple(sides)
        if any(chunk is not None for chunk in self._scores):
            starts = np.cumsum([0] + self._lengths)
            full = []
            for j in range(3):
                column = np.empty(n, np.float64)
                for i, chunk in enumerate(self._scores):
                    lo, hi = starts[i], starts[i + 1]
                    column[lo:hi] = (chunk[j] if chunk is not None else
                                     derive_scores(*(s[lo:hi] for s in self.sides), self.options, self.rule)[j])
                full.append(column)
            self.scores = tuple(full)
        self._scores = []
        self._lengths = []
        self._sides = []
        for measure in MEASURES:
            self.has_nan[measure] = any(bool(np.isnan(block).any()) for block in self.blocks(measure))

    def blocks(self, measure: str, size: int = 1 << 20):
        """Every pair's P, R or F in order, `size` pairs at a time (rebuilt a block at a time:
        never the whole column's temporaries at once)."""
        j = MEASURES.index(measure)
        n = len(self.sides[0]) if self.sides else 0
        for lo in range(0, n, size):
            if self.scores is not None:
                yield self.scores[j][lo:lo + size]
            else:
                yield derive_scores(*(s[lo:lo + size] for s in self.sides), self.options, self.rule)[j]

    def measure(self, measure: str) -> np.ndarray:
        """Every pair's P, R or F (float64)."""
        j = MEASURES.index(measure)
        if self.scores is not None:
            return self.scores[j]
        return derive_scores(*self.sides, self.options, self.rule)[j]

    def gathered(self, idx: np.ndarray):
        """(measure, values) of the pairs at `idx` (any shape), P, then R, then F: the stored
        values, or rebuilt from the gathered counts (the same bits: the rebuilding is
        elementwise), one measure's temporaries at a time."""
        if self.scores is not None:
            for j, m in enumerate(MEASURES):
                yield m, self.scores[j][idx]
            return
        hits = self.sides[0][idx].astype(np.float64)
        p = _ratio_of(hits, self.sides[1][idx], self.options)
        yield "precision", p
        r = _ratio_of(hits, self.sides[2][idx], self.options)
        del hits
        yield "recall", r
        yield "fmeasure", _f_of(p, r, self.options, self.rule)

    @property
    def nbytes(self) -> int:
        return sum(s.nbytes for s in self.sides) + (sum(s.nbytes for s in self.scores) if self.scores else 0)


class CorpusStatistics:
    """Every method's columns for a corpus; `append` chunks of per-pair records in corpus order,
    then `freeze`."""

    def __init__(self, methods: Sequence[str], options: Options):
        self.methods = tuple(methods)
        self.options = options
        self.columns = {m: MethodColumns(m, options) for m in self.methods}
        self.n = 0
        self.frozen = False
        self._rows: np.ndarray | None = None  # every method's whole-number counts, pair by pair (_interleave)

    @classmethod
    def of_records(cls, pairs: Iterable[dict[str, MethodScore]], methods: Sequence[str], options: Options,
                   chunk: int = 8192) -> "CorpusStatistics":
        stats = cls(methods, options)
        batch: list = []
        for pair in pairs:
            batch.append(pair)
            if len(batch) >= chunk:
                stats.append(batch)
                batch = []
        if batch:
            stats.append(batch)
        stats.freeze()
        return stats

    def append_arrays(self, n: int, arrays: dict[str, tuple]) -> None:
        """The next `n` pairs from arrays per method: (scores, sides, present, exponent, no_power)
        as MethodColumns.append_arrays takes them (statistics gathered from workers)."""
        if self.frozen:
            raise RuntimeError("the statistics are complete; no more pairs can be added")
        for m, column in self.columns.items():
            column.append_arrays(*arrays[m])
        self.n += n

    def append(self, pairs: Sequence[dict[str, MethodScore]]) -> None:
        if self.frozen:
            raise RuntimeError("the statistics are complete; no more pairs can be added")
        if not pairs:
            return
        for m, column in self.columns.items():
            column.append([p[m] for p in pairs])
        self.n += len(pairs)

    def freeze(self) -> "CorpusStatistics":
        if not self.frozen:
            for column in self.columns.values():
                column.freeze()
            self._interleave()
            self.frozen = True
        return self

    def _interleave(self) -> None:
        """The whole-number counts of every method in one array, pair by pair (the columns become
        its strided views: the same values): the bootstrap reads a resampled pair's counts of
        every method from one or two cache lines instead of three per method. Copied from the
        last pairs to the first, a block at a time, each column cut short behind the copy
        (ndarray.resize gives the memory back), so memory holds the counts about once, not twice.
        In the narrowest of uint8, uint16 and uint32 that holds every count (summaries' are
        below 2^16, most below 2^8). A count equal to an earlier one in every pair (the
        candidate's and the reference's token counts of rouge1, rougeL and rougeLsum) is stored
        once, both columns viewing it: summaries' rows of 4 methods take 8 or 16 bytes instead
        of 24, none across two cache lines, and the bootstrap's random reads (which miss the
        caches from a few million pairs on) touch a third to two thirds less memory."""
        whole = [c for c in self.columns.values() if c.sides and all(s.dtype == np.uint32 for s in c.sides)]
        n = len(whole[0].sides[0]) if whole else 0
        if not n:
            return
        sides = [side for column in whole for side in column.sides]
        top = max(int(side.max(initial=0)) for side in sides)
        kind = next(t for t in (np.uint8, np.uint16, np.uint32) if top <= np.iinfo(t).max)
        slot_of: list[int] = []  # per side, its column of the rows
        distinct: list[np.ndarray] = []  # per column of the rows, the first side stored there
        for side in sides:
            same = next((k for k, first in enumerate(distinct) if np.array_equal(first, side)), None)
            if same is None:
                same = len(distinct)
                distinct.append(side)
            slot_of.append(same)
        rows = np.empty((n, len(distinct)), kind)
        for k, column in enumerate(whole):
            column.sides = tuple(rows[:, slot_of[3 * k + j]] for j in range(3))
        self._rows = rows
        own = all(side.flags.owndata and side.base is None for side in sides)
        for hi in range(n, 0, -GROWTH_STEP):
            lo = max(0, hi - GROWTH_STEP)
            for k, side in enumerate(distinct):
                rows[lo:hi, k] = side[lo:hi]
            if own:  # nothing else views these arrays (MethodColumns.freeze made them): shrink them
                for side in sides:
                    side.resize(lo, refcheck=False)

    def __len__(self) -> int:
        return self.n

    @property
    def nbytes(self) -> int:
        """The bytes the statistics take (at most STORE_BYTES_MAX per pair and method): the
        interleaved counts once (columns share them), every other array."""
        shared = getattr(self, "_rows", None)  # statistics pickled before it was kept have none
        if shared is None:
            return sum(c.nbytes for c in self.columns.values())
        return shared.nbytes + sum(
            sum(s.nbytes for s in c.sides if s.base is not shared) + (sum(s.nbytes for s in c.scores) if c.scores else 0)
            for c in self.columns.values())

    def array(self, method: str, measure: str = "fmeasure") -> np.ndarray:
        return self.columns[method].measure(measure)

    def macro(self, method: str) -> Score:
        """Mean of the defined per-pair P, R and F, added one after another (aggregate_macro)."""
        out = []
        for measure in MEASURES:
            total, count = 0.0, 0
            for block in self.columns[method].blocks(measure):
                defined = block[~np.isnan(block)]
                if len(defined):
                    total = float(np.add.accumulate(np.concatenate(([total], defined)))[-1])
                    count += len(defined)
            out.append(total / count if count else math.nan)
        return Score(*out)

    def micro_stats(self, method: str) -> Stats | None:
        """The pooled statistics of every pair, added in pair order (aggregate_micro)."""
        column = self.columns[method]
        if not column.with_stats:
            return None
        totals = [_sequential_sum(side) for side in column.sides]
        return Stats(*totals, column.exponent if column.exponent is not None else 1.0)

    def micro(self, method: str) -> Score:
        total = self.micro_stats(method)
        if total is None:
            return Score(math.nan, math.nan, math.nan)
        return score_from_stats(total, self.options, self.columns[method].rule)

    def pair_record(self, i: int, method, signature: str) -> MethodScore:
        """Pair i's record rebuilt from the statistics (its texts were not kept): the score and
        the pooled statistics, no per-reference detail."""
        column = self.columns[method.name]
        if column.scores is not None:
            score = Score(*(float(s[i]) for s in column.scores))
        else:
            p, r, f = derive_scores(*(s[i:i + 1] for s in column.sides), self.options, column.rule)
            score = Score(float(p[0]), float(r[0]), float(f[0]))
        stats = (None if i in column.without_stats else
                 Stats(*(float(s[i]) for s in column.sides), column.exponent if column.exponent is not None else 1.0))
        return MethodScore(method, score, (), None, "from the corpus statistics (the texts were not kept)", stats,
                           signature)


def _sequential_sum(values: np.ndarray, block: int = 1 << 20) -> float:
    """values[0] + values[1] + ... one after another, as Python adds them in a loop."""
    if values.dtype.kind == "u":  # whole numbers, total below 2^53 (checked when frozen): exact in any order
        return float(int(values.sum(dtype=np.uint64)))
    total = 0.0
    for start in range(0, len(values), block):
        part = values[start:start + block]
        if len(part):
            total = float(np.add.accumulate(np.concatenate(([total], part)))[-1])
    return total


@dataclass(frozen=True)
class PairNumbers(Sequence):
    """The ids "1" .. "n" of a corpus given without ids, made when read (10 million ids as
    strings would take more memory than their statistics)."""

    n: int

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(str(i + 1) for i in range(*index.indices(self.n)))
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise IndexError(index)
        return str(index + 1)

    def __iter__(self):
        return (str(i + 1) for i in range(self.n))

    def __eq__(self, other) -> bool:
        if isinstance(other, PairNumbers):
            return self.n == other.n
        if isinstance(other, (tuple, list)):
            return len(other) == self.n and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("PairNumbers", self.n))
