"""Corpus scoring: per-pair statistics, then macro / micro aggregation and a seeded bootstrap.

The per-pair step (`score_pair_stats`) and the aggregation (`aggregate_micro`,
`aggregate_macro`) are module-level pure functions so a parallel runner (processes, Dask) can
pickle them and call them on chunks; `score_corpus` is the plain sequential driver.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, Sequence

from ..errors import excerpt
from ..kernels import native
from ..scorer.cost import (CORPUS_CHUNK, RESAMPLE_BLOCK, UNBOUNDED, CostEstimate, CostLimit, CostLimitError, _resamples,
                           bootstrap_corpus_estimate, check_resampling, paired_tests_estimate, resolve_limit)
from ..families.methods import Method, parse_method
from ..text.options import Options
from ..scorer.scoring import MethodScore, resolve_options, score_from_stats
from ..scorer.signature import VARIES, signature
from ..stats import F_MEASURE, FMeasureRule, Interval, Score, Stats
from .corpus_stats import CorpusStatistics, PairNumbers
from .pairs import each_pair, iter_scores, pair_micro_stats, score_pair_stats  # noqa: F401 (rouge_core.corpora.corpus's names)
from .. import optional

from .significance import effect_label, holm  # noqa: F401 (holm: rouge_core.corpora.corpus.holm)

if TYPE_CHECKING:
    from .significance import TestResult

MEASURES = ("precision", "recall", "fmeasure")


def aggregate_micro(pair_stats: Iterable[Stats | None], options: Options, rule: FMeasureRule = F_MEASURE) -> Score:
    """Pooled score: statistics are additive, so a corpus is one big pair (F by `rule`, the
    method family's)."""
    total = None
    for stats in pair_stats:
        if stats is not None:
            total = stats if total is None else total + stats
    if total is None:
        return Score(math.nan, math.nan, math.nan)
    return score_from_stats(total, options, rule)


def plain_mean(values: Sequence[float]) -> float:
    """The mean as `aggregate_macro` computes it: one float addition after another, then one
    division; the same on every Python (3.12's built-in sum() compensates, 3.10's and 3.11's do not)."""
    total = 0.0
    for value in values:
        total += value
    return total / len(values)


def aggregate_macro(scores: Iterable[Score]) -> Score:
    """Mean of per-pair P, R and F; undefined (NaN) pair scores are left out."""
    sums = [0.0, 0.0, 0.0]
    counts = [0, 0, 0]
    for s in scores:
        for i, v in enumerate((s.precision, s.recall, s.fmeasure)):
            if not math.isnan(v):
                sums[i] += v
                counts[i] += 1
    return Score(*(sums[i] / counts[i] if counts[i] else math.nan for i in range(3)))


@dataclass(frozen=True)
class BootstrapResult:
    resamples: int
    seed: int
    confidence: float
    macro: dict[str, dict[str, Interval]]  # method -> measure -> interval
    micro: dict[str, dict[str, Interval]]

    def to_frame(self):
        pd = optional.pandas("BootstrapResult.to_frame()")

        rows = []
        for kind, table in (("macro", self.macro), ("micro", self.micro)):
            for method, by_measure in table.items():
                for measure, iv in by_measure.items():
                    rows.append({"method": method, "aggregate": kind, "measure": measure, "value": iv.value,
                                 "low": iv.low, "high": iv.high, "resamples": self.resamples, "seed": self.seed,
                                 "confidence": self.confidence})
        return pd.DataFrame(rows)


@dataclass(frozen=True)
class CorpusResult:
    """Per-pair scores of a corpus and its aggregates.

    The numbers live in `statistics` (rouge_core.corpora.corpus_stats: a few NumPy columns per method,
    at most 48 bytes per pair and method); macro, micro, `values`, `bootstrap` and the paired
    tests read them. `pairs[i]` (pair i's `{method: MethodScore}`) is made when read: scored
    again from the pair's texts when they were kept (a corpus given as sequences), else rebuilt
    from the statistics (a corpus streamed from an iterable: the score and the pooled
    statistics, no per-reference detail). Built from records (`pairs=`), as before, it keeps
    them and derives the statistics from them."""

    ids: Sequence[str]
    candidates: Sequence[str]
    references: Sequence[Sequence[str]]
    methods: tuple[str, ...]
    options: Options
    pairs: Sequence[dict[str, MethodScore]] | None = None
    signatures: dict[str, str] = field(default_factory=dict)
    statistics: CorpusStatistics | None = None
    cost_limit: CostLimit | None = None  # the bound pairs were scored under (records made again under it)

    def __post_init__(self):
        if self.statistics is None:
            if self.pairs is None:
                raise ValueError("a CorpusResult needs its pairs' records or their statistics")
            object.__setattr__(self, "statistics",
                               CorpusStatistics.of_records(self.pairs, self.methods, self.options))
        elif self.pairs is None:
            object.__setattr__(self, "pairs", PairRecords(self))

    def __len__(self) -> int:
        return len(self.statistics)

    @property
    def texts_kept(self) -> bool:
        return len(self.candidates) == len(self) and len(self.references) == len(self)

    def method_key(self, method: str | Method) -> str:
        """The key of `method`'s scores: rouge_core's name of the method, a name a tool prints
        read under this result's profile (parse_method: "ROUGE-L" under rouge-1.5.5 is
        rougeLsum)."""
        if isinstance(method, str) and method in self.methods:
            return method
        return parse_method(method, self.options).name

    def values(self, method: str | Method, measure: str = "fmeasure") -> list[float]:
        return self.array(method, measure).tolist()

    def array(self, method: str | Method, measure: str = "fmeasure"):
        """Every pair's score as a NumPy float64 array (`values` as a list)."""
        return self.statistics.array(self.method_key(method), measure)

    def macro(self) -> dict[str, Score]:
        return {m: self.statistics.macro(m) for m in self.methods}

    def micro(self) -> dict[str, Score]:
        return {m: self.statistics.micro(m) for m in self.methods}

    @property
    def signature(self) -> str:
        """One signature for the whole table: the method names joined, then the shared settings."""
        if not self.methods:
            return ""
        first = self.signatures[self.methods[0]]
        return "+".join(self.methods) + first[len(self.methods[0]):]

    def to_frame(self, *, texts: bool = True):
        """One row per pair: id, `<method>_precision/recall/fmeasure`, then (texts) the
        candidate and the references. The `references` column holds the JSON text of the list
        of references, so an export of this table loads back (corpus_io) as the same pairs."""
        pd = optional.pandas("CorpusResult.to_frame()")

        columns: dict[str, object] = {"id": list(self.ids)}
        for m in self.methods:
            for measure in MEASURES:
                columns[f"{m}_{measure}"] = self.array(m, measure)
        if texts and self.texts_kept:
            columns["candidate"] = list(self.candidates)
            columns["references"] = [json.dumps(list(r), ensure_ascii=False) for r in self.references]
        return pd.DataFrame(columns)

    def aggregates_frame(self, bootstrap: BootstrapResult | None = None):
        """Long table: method, aggregate (macro/micro), P, R, F (plus interval bounds of F)."""
        pd = optional.pandas("CorpusResult.aggregates_frame()")

        rows = []
        for kind, table in (("macro", self.macro()), ("micro", self.micro())):
            for m, s in table.items():
                row = {"method": m, "aggregate": kind, "precision": s.precision, "recall": s.recall,
                       "fmeasure": s.fmeasure, "pairs": len(self)}
                if bootstrap is not None:
                    iv = getattr(bootstrap, kind)[m]["fmeasure"]
                    row.update(fmeasure_low=iv.low, fmeasure_high=iv.high, resamples=bootstrap.resamples,
                               seed=bootstrap.seed, confidence=bootstrap.confidence)
                row["signature"] = self.signatures[m]
                rows.append(row)
        return pd.DataFrame(rows)

    def compare(self, other: "CorpusResult", method: str, **options) -> "SystemComparison":
        """This system against `other` on the same pairs (see `compare_systems`)."""
        return compare_systems(self, other, method, **options)

    def bootstrap(self, resamples: int = 1000, seed: int = 0, confidence: float = 95,
                  cost_limit: CostLimit | None = None) -> BootstrapResult:
        """Percentile intervals from `resamples` resamples of the pairs (with replacement),
        drawn with numpy's default_rng(seed); every method and measure sees the same draws.
        The cost is estimated first (rouge_core.scorer.cost.bootstrap_corpus_estimate) and checked
        against `cost_limit` (None: the default bound; rouge_core.UNBOUNDED: none)."""
        return bootstrap_corpus(self, resamples=resamples, seed=seed, confidence=confidence, cost_limit=cost_limit)

    def bootstrap_estimate(self, resamples: int = 1000) -> CostEstimate:
        """What `bootstrap(resamples)` costs (rouge_core.scorer.cost.bootstrap_corpus_estimate), for
        these columns: methods whose scores rebuild from their counts cost more per element."""
        columns = self.statistics.columns
        rebuilt = sum(1 for m in self.methods if columns[m].scores is None)
        return bootstrap_corpus_estimate(len(self), resamples, len(self.methods), rebuilt, _takes_kernel(self))


def bootstrap_indices(n: int, resamples: int, seed: int):
    """The resampled index matrix (resamples x n); the same seed gives the same draws."""
    import numpy as np

    return np.random.default_rng(seed).integers(0, n, size=(resamples, n))


def _index_blocks(n: int, resamples: int, seed: int):
    """bootstrap_indices in blocks of rows (about RESAMPLE_BLOCK elements each), drawn one
    after the other from the same generator: the same numbers, never all of them at once."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rows = max(1, RESAMPLE_BLOCK // max(n, 1))
    for start in range(0, resamples, rows):
        yield start, rng.integers(0, n, size=(min(rows, resamples - start), n))


def _resampled_sums(result: CorpusResult, n: int, resamples: int, seed: int):
    """Per block of resamples (start, count, means, sides): each method's mean P, R and F of the
    resampled pairs ({method: {measure: array}}; nanmean where the column has NaN) and the sums of
    their hits, candidate and reference totals ({method: (hits, cand, ref)}), as NumPy computes
    them from bootstrap_indices (`_numpy_sums`, the pure path) or, to the same bits, by the
    compiled kernel (`_native_sums`)."""
    if _takes_kernel(result):
        return _native_sums(result, n, resamples, seed)
    return _numpy_sums(result, n, resamples, seed)


def _takes_kernel(result: CorpusResult) -> bool:
    """Whether the compiled kernel runs this result's bootstrap: the kernels are active, the pairs
    fewer than 2**32, and every method's F that is derived from its counts is f_measure at an
    alpha (a rule of another form is Python's)."""
    columns = result.statistics.columns.values()
    derivable = all(c.scores is not None or c.rule.alpha(result.options) is not None for c in columns)
    return native.KERNELS is not None and 0 < len(result) < 1 << 32 and derivable


def _numpy_sums(result: CorpusResult, n: int, resamples: int, seed: int):
    import numpy as np

    columns = result.statistics.columns
    for start, idx in _index_blocks(n, resamples, seed):
        means, sides = {}, {}
        for m in result.methods:
            column = columns[m]
            means[m] = {}
            for measure, values in column.gathered(idx):  # P, R, F of the resampled pairs
                with np.errstate(all="ignore"):
                    means[m][measure] = (np.nanmean(values, axis=1) if column.has_nan[measure]
                                         else values.mean(axis=1))
                del values
            # whole-number counts add exactly in any order; float counts as they always were added
            sides[m] = tuple(side[idx].sum(axis=1, dtype=np.float64) for side in column.sides)
        yield start, len(idx), means, sides


NATIVE_BLOCK = 1 << 24  # resampled pairs per kernel call (a call cannot be interrupted)


def _native_sums(result: CorpusResult, n: int, resamples: int, seed: int):
    """_numpy_sums's numbers from the compiled kernel (kernels/resample.c, bootstrap_sums): the
    same PCG64 draws, numpy's pairwise sums, no resamples x pairs matrix, two threads."""
    import numpy as np

    columns = [result.statistics.columns[m] for m in result.methods]
    state = native.bootstrap_state(np.random.default_rng(seed).bit_generator.state)
    specs = [(c.sides, c.scores, c.rule.alpha(result.options) if c.scores is None else math.nan) for c in columns]
    threads = min(2, os.cpu_count() or 1)
    rows = max(1, NATIVE_BLOCK // n)
    for start in range(0, resamples, rows):
        count = min(rows, resamples - start)
        sums, counts = native.bootstrap_sums(state, n, count, specs, result.options.empty == "nan", threads)
        means, sides = {}, {}
        for i, (m, column) in enumerate(zip(result.methods, columns)):
            with np.errstate(all="ignore"):  # as np.mean (the sum / n) and np.nanmean (the sum / count)
                means[m] = {measure: np.true_divide(sums[:, i, j], counts[:, i, j] if column.has_nan[measure] else n)
                            for j, measure in enumerate(MEASURES)}
            sides[m] = (sums[:, i, 3], sums[:, i, 4], sums[:, i, 5])
        yield start, count, means, sides


def bootstrap_corpus(result: CorpusResult, resamples: int = 1000, seed: int = 0, confidence: float = 95,
                     cost_limit: CostLimit | None = None) -> BootstrapResult:
    import numpy as np

    resamples = _resamples(resamples)
    if not 0 < confidence < 100:
        raise ValueError("confidence must be a percentage between 0 and 100")
    n = len(result)
    check_resampling(result.bootstrap_estimate(resamples), cost_limit)
    lo_q, hi_q = (100 - confidence) / 2, 100 - (100 - confidence) / 2
    macro_out: dict[str, dict[str, Interval]] = {}
    micro_out: dict[str, dict[str, Interval]] = {}
    if n == 0:
        return BootstrapResult(resamples, seed, confidence, macro_out, micro_out)
    observed_macro, observed_micro = result.macro(), result.micro()
    opts = result.options
    columns = result.statistics.columns
    means = {m: {measure: np.empty(resamples) for measure in MEASURES} for m in result.methods}
    micro = {m: {measure: np.empty(resamples) for measure in MEASURES} for m in result.methods}
    for start, count, block_means, block_sides in _resampled_sums(result, n, resamples, seed):
        block = slice(start, start + count)
        for m in result.methods:
            column = columns[m]
            for measure in MEASURES:
                means[m][measure][block] = block_means[m][measure]
            hits, cand, ref = block_sides[m]
            exponent = column.exponent if column.exponent is not None else 1.0
            scores = [score_from_stats(Stats(float(h), float(c), float(r), exponent), opts, column.rule)
                      for h, c, r in zip(hits, cand, ref)]
            for measure in MEASURES:
                micro[m][measure][block] = [getattr(sc, measure) for sc in scores]
    for m in result.methods:
        macro_out[m], micro_out[m] = {}, {}
        for measure in MEASURES:
            for out, values, observed in ((macro_out, means, observed_macro), (micro_out, micro, observed_micro)):
                drawn = values[m][measure]
                low, high = np.nanpercentile(drawn, [lo_q, hi_q]) if not np.isnan(drawn).all() else (math.nan, math.nan)
                out[m][measure] = Interval(getattr(observed[m], measure), float(low), float(high))
    return BootstrapResult(resamples, seed, confidence, macro_out, micro_out)


def corpus_signatures(methods: Sequence[str | Method], options: Options, reference_counts: Sequence[int]) -> dict[str, str]:
    counts = set(reference_counts)
    n_refs = VARIES if len(counts) > 1 else max(counts, default=0)
    parsed = [parse_method(spec, options) for spec in methods]
    return {method.name: signature(method, options, n_refs) for method in parsed}


STREAM_CHUNK = CORPUS_CHUNK  # pairs scored, kept as records and handed to `on_chunk` at a time (priced by the cost model)


@dataclass(frozen=True)
class PairChunk:
    """A run of consecutive pairs as `score_corpus` scored them, handed to its `on_chunk`
    callback as soon as they are scored (to write per-pair output as it goes): `start` is the
    0-based position of the first, `ids` their ids, `records` their `{method: MethodScore}`
    (no evidence). The records are let go once the callback returns."""

    start: int
    ids: Sequence[str]
    records: Sequence[dict[str, MethodScore]]


def _is_sequence(value) -> bool:
    return hasattr(value, "__len__") and hasattr(value, "__getitem__") and not isinstance(value, (str, bytes))


def score_corpus(
    candidates: Iterable[str],
    references_per_pair: Iterable[Sequence[str]],
    methods: Sequence[str | Method],
    options: Options | str | None = None,
    *,
    ids: Iterable[str] | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    cost_limit: CostLimit | None = None,
    workers: int = 1,
    chunk_size: int = STREAM_CHUNK,
    on_chunk: Callable[[PairChunk], None] | None = None,
    keep_texts: bool | None = None,
) -> CorpusResult:
    """Score each candidate against its references with every method, `chunk_size` pairs at a
    time: a chunk is scored (its records made), its numbers go into the result's statistics
    (rouge_core.corpora.corpus_stats: at most 48 bytes per pair and method), `on_chunk(PairChunk)` sees
    it, and its records are let go. So memory stays bounded whatever the corpus's length:
    `candidates`, `references_per_pair` (and `ids`) may be lists or any iterables (a
    generator reading a file, standard input), read lazily, in step.

    `keep_texts` (default: whether the inputs are sequences, i.e. already in memory) keeps
    the texts in the result, so `result.pairs[i]` scores pair i again with its full records
    (evidence of a row opened); without them it is rebuilt from the statistics.
    `progress(done, total)` is called after each pair (total None for an iterable without
    len()). `cost_limit` bounds each pair (None: the default bound, `rouge_core.UNBOUNDED`:
    none); a pair above it raises CostLimitError naming the pair (its id) before that pair is
    scored. `workers`: on the compiled kernels (rouge_core.kernels.native), threads scoring blocks of
    a chunk with the GIL released (rouge_core.corpora.batch); on the pure path, more than one worker
    scores in processes (rouge_core.corpora.parallel). The numbers and their order are the same
    whatever the number of workers and the chunk size."""
    resolve_limit(cost_limit)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {excerpt(workers)}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {excerpt(chunk_size)}")
    opts = resolve_options(options, {})
    names = tuple(parse_method(m, opts).name for m in methods)
    sized = _is_sequence(candidates) and _is_sequence(references_per_pair) and (ids is None or _is_sequence(ids))
    total = None
    if sized:
        total = len(candidates)
        if total != len(references_per_pair):
            raise ValueError(f"{total} candidates but {len(references_per_pair)} reference lists")
        if ids is not None and len(ids) != total:
            raise ValueError(f"{len(ids)} ids but {total} candidates")
    keep = sized if keep_texts is None else bool(keep_texts)
    scorer = CorpusScorer(names, opts, workers=workers, cost_limit=cost_limit, keep_texts=keep,
                          keep_ids=ids is not None)
    for start, chunk_ids, cands, refs in _chunks(candidates, references_per_pair, ids, total, chunk_size):
        progress_of_chunk = None
        if progress is not None:
            def progress_of_chunk(done: int, _total, base: int = start) -> None:
                progress(base + done, total)
        records = scorer.add(cands, refs, chunk_ids, progress=progress_of_chunk)
        if chunk_ids is None:
            chunk_ids = [str(start + k + 1) for k in range(len(cands))]
        if on_chunk is not None:
            on_chunk(PairChunk(start, chunk_ids, records))
        del records
    return scorer.result()


class CorpusScorer:
    """Scores a corpus chunk by chunk (`add`) into per-pair statistics, then gives the
    CorpusResult (`result`): score_corpus's engine, for a caller that reads several systems'
    candidates in step (the command line)."""

    def __init__(self, methods: Sequence[str | Method], options: Options | str | None = None, *, workers: int = 1,
                 cost_limit: CostLimit | None = None, keep_texts: bool = False, keep_ids: bool = True):
        resolve_limit(cost_limit)
        self.options = resolve_options(options, {})
        self.methods = tuple(parse_method(m, self.options).name for m in methods)
        self.workers = workers
        self.cost_limit = cost_limit
        self.statistics = CorpusStatistics(self.methods, self.options)
        self._reference_counts: set[int] = set()
        self._ids: list[str] | None = [] if keep_ids else None
        # the ids so far are the pairs' 1-based positions: none kept (PairNumbers makes them when
        # read; 10 million id strings take more memory than the statistics of 4 types)
        self._numbered = keep_ids
        self._texts: tuple[list, list] | None = ([], []) if keep_texts else None

    def add(self, candidates: Sequence[str], references_per_pair: Sequence[Sequence[str]],
            ids: Sequence[str] | None = None, progress: Callable[[int, int], None] | None = None) -> list:
        """Score the next pairs (ids: theirs, else their 1-based positions in the corpus); their
        numbers go into the statistics; their records (no evidence) are returned."""
        ids = self._ids_of(candidates, references_per_pair, ids)
        scored = self._score(candidates, references_per_pair, ids, progress)
        records = scored.pairs if not isinstance(scored, list) else scored
        self.statistics.append(records)
        self._keep(candidates, references_per_pair, ids)
        return records

    def add_columns(self, candidates: Sequence[str], references_per_pair: Sequence[Sequence[str]],
                    ids: Sequence[str] | None = None, progress: Callable[[int, int], None] | None = None) -> list:
        """`add` for a caller that writes the pairs' scores, not their records (the command
        line): per method (name, P, R, F arrays, each pair's signature) as cli.CsvRows.write_chunk
        takes them; on the kernels, pairs of one reference each make no record at all
        (batch.batch_columns)."""
        from .batch import batch_columns

        ids = self._ids_of(candidates, references_per_pair, ids)
        scored = self._score(candidates, references_per_pair, ids, progress)
        arrays, columns = batch_columns(scored, self.methods)
        self.statistics.append_arrays(len(ids), arrays)
        self._keep(candidates, references_per_pair, ids)
        return columns

    def _ids_of(self, candidates, references_per_pair, ids) -> list[str]:
        start = self.statistics.n
        ids = [str(x) for x in ids] if ids is not None else [str(start + k + 1) for k in range(len(candidates))]
        if len(candidates) != len(references_per_pair) or len(ids) != len(candidates):
            raise ValueError(f"{len(candidates)} candidates, {len(references_per_pair)} reference lists and "
                             f"{len(ids)} ids")
        return ids

    def _score(self, candidates, references_per_pair, ids, progress):
        """The pairs' records: a list (processes on the pure path) or a BatchScores."""
        if self.workers > 1 and not native.active():
            return list(iter_scores(candidates, references_per_pair, self.methods, self.options,
                                    workers=self.workers, cost_limit=self.cost_limit, progress=each_pair(progress)))
        from .batch import score_batch

        return score_batch(candidates, references_per_pair, self.methods, self.options, workers=self.workers,
                           ids=ids, cost_limit=self.cost_limit, progress=progress)

    def _keep(self, candidates, references_per_pair, ids) -> None:
        """What the result keeps of scored pairs besides their numbers."""
        self._reference_counts.update(len(r) for r in references_per_pair)
        self._keep_ids(self.statistics.n - len(ids), ids)
        if self._texts is not None:
            self._texts[0].extend(candidates)
            self._texts[1].extend(tuple(r) for r in references_per_pair)

    def add_arrays(self, n: int, arrays: dict[str, tuple], ids: Sequence[str] | None,
                   reference_counts: Iterable[int]) -> None:
        """The next `n` pairs, scored elsewhere (a worker process): per method the arrays
        corpus_stats.record_arrays made of their records, their ids (None: their positions)
        and their reference lists' lengths. Texts are not kept."""
        if self._texts is not None:
            raise ValueError("a scorer that keeps texts scores its pairs itself (add)")
        start = self.statistics.n
        self._reference_counts.update(reference_counts)
        self.statistics.append_arrays(n, arrays)
        if ids is not None:
            self._keep_ids(start, [str(x) for x in ids])
        elif not self._numbered and self._ids is not None:
            self._ids.extend(str(start + k + 1) for k in range(n))

    def _keep_ids(self, start: int, ids: list[str]) -> None:
        """The ids of the pairs from `start` on: kept as strings once one of them is not its
        pair's position (the numbered ones before it made then)."""
        if self._ids is None:
            return
        if self._numbered:
            if ids == [*map(str, range(start + 1, start + len(ids) + 1))]:
                return
            self._numbered = False
            self._ids = [str(k) for k in range(1, start + 1)]
        self._ids.extend(ids)

    def result(self) -> CorpusResult:
        statistics = self.statistics.freeze()
        texts = self._texts or ((), ())
        return CorpusResult(
            ids=tuple(self._ids) if self._ids is not None and not self._numbered else PairNumbers(statistics.n),
            candidates=tuple(texts[0]),
            references=tuple(texts[1]),
            methods=self.methods,
            options=self.options,
            signatures=corpus_signatures(self.methods, self.options, self._reference_counts),
            statistics=statistics,
            cost_limit=self.cost_limit,
        )


def _chunks(candidates, references_per_pair, ids, total: int | None, chunk_size: int):
    """(start, ids or None, candidates, references) per chunk of pairs, in corpus order."""
    from itertools import islice

    streamed = total is None  # sized inputs had their lengths checked already
    if ids is None:
        rows = ((c, r, None) for c, r in zip(candidates, references_per_pair, strict=streamed))
    else:
        rows = zip(candidates, references_per_pair, ids, strict=streamed)
    if streamed:
        rows = _checked_lengths(rows)
    start = 0
    while True:
        chunk = list(islice(rows, chunk_size))
        if not chunk:
            return
        chunk_ids = [str(x) for _, _, x in chunk] if ids is not None else None
        yield start, chunk_ids, [c for c, _, _ in chunk], [r for _, r, _ in chunk]
        start += len(chunk)


def _checked_lengths(rows):
    """The rows of iterables read in step; a ValueError when one runs out before the other."""
    count = 0
    try:
        for row in rows:
            count += 1
            yield row
    except ValueError as exc:
        if "zip()" not in str(exc):
            raise
        raise ValueError(f"the candidates, reference lists (and ids) have different lengths: they differ after "
                         f"{count:,} pairs") from None


class PairRecords(Sequence):
    """`CorpusResult.pairs`: pair i's `{method: MethodScore}` made when read, from its texts
    when the result kept them (scored again, as score_corpus scored it), else from the
    statistics. The last few pairs read are kept (a page reads one pair's methods in turn)."""

    _KEPT = 64

    def __init__(self, result: CorpusResult):
        self._result = result
        self._recent: dict[int, dict[str, MethodScore]] = {}

    def __len__(self) -> int:
        return len(self._result)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("pair index out of range")
        found = self._recent.get(index)
        if found is None:
            found = self._make(index)
            if len(self._recent) >= self._KEPT:
                self._recent.pop(next(iter(self._recent)))
            self._recent[index] = found
        return found

    def _make(self, i: int) -> dict[str, MethodScore]:
        r = self._result
        if r.texts_kept:
            try:
                return score_pair_stats(r.candidates[i], tuple(r.references[i]), r.methods, r.options, r.cost_limit)
            except CostLimitError as exc:
                raise exc.with_pair(str(r.ids[i])) from None
        parsed = {m: parse_method(m, r.options) for m in r.methods}
        return {m: r.statistics.pair_record(i, parsed[m], r.signatures.get(m, "")) for m in r.methods}

    def __iter__(self) -> Iterator[dict[str, MethodScore]]:
        r = self._result
        if not r.texts_kept:
            yield from (self[i] for i in range(len(self)))
            return
        from .batch import score_batch

        for start in range(0, len(self), STREAM_CHUNK):
            end = min(start + STREAM_CHUNK, len(self))
            yield from score_batch(r.candidates[start:end], r.references[start:end], r.methods, r.options,
                                   ids=list(r.ids[start:end]), cost_limit=r.cost_limit)


def assemble_corpus(
    candidates: Sequence[str],
    references_per_pair: Sequence[Sequence[str]],
    methods: Sequence[str | Method],
    options: Options | str | None,
    ids: Sequence[str] | None,
    score_pairs: Callable[[tuple[str, ...], Options], Iterable[dict[str, MethodScore]]],
) -> CorpusResult:
    """Check the inputs, score the pairs with `score_pairs(method names, options)` (in corpus
    order; sequential or parallel) and build the CorpusResult."""
    opts = resolve_options(options, {})
    if len(candidates) != len(references_per_pair):
        raise ValueError(f"{len(candidates)} candidates but {len(references_per_pair)} reference lists")
    if ids is None:
        ids = [str(i + 1) for i in range(len(candidates))]
    elif len(ids) != len(candidates):
        raise ValueError(f"{len(ids)} ids but {len(candidates)} candidates")
    names = tuple(parse_method(m, opts).name for m in methods)
    return CorpusResult(
        ids=tuple(str(x) for x in ids),
        candidates=tuple(candidates),
        references=tuple(tuple(r) for r in references_per_pair),
        methods=names,
        options=opts,
        signatures=corpus_signatures(names, opts, [len(r) for r in references_per_pair]),
        statistics=CorpusStatistics.of_records(score_pairs(names, opts), names, opts),
    )


def systems_frame(results: Mapping[str, CorpusResult]):
    """Macro and micro P, R, F of every system and method, one row each (a long table)."""
    pd = optional.pandas("systems_frame()")

    rows = []
    for system, result in results.items():
        for kind, table in (("macro", result.macro()), ("micro", result.micro())):
            for method, s in table.items():
                rows.append({"system": system, "method": method, "aggregate": kind, "precision": s.precision,
                             "recall": s.recall, "fmeasure": s.fmeasure})
    return pd.DataFrame(rows, columns=["system", "method", "aggregate", "precision", "recall", "fmeasure"])


@dataclass(frozen=True)
class SystemComparison:
    """Two systems on the same pairs, one method and measure: the mean difference with its
    paired-bootstrap interval, and two paired significance tests.

    Pairs where either system's score is undefined (NaN) are left out (`left_out` of them)."""

    system_a: str
    system_b: str
    method: str
    measure: str
    pairs: int
    left_out: int
    mean_a: float
    mean_b: float
    difference: Interval  # mean(a) - mean(b), low / high from the paired bootstrap's resamples
    confidence: float
    bootstrap: "TestResult"
    permutation: "TestResult"
    signature: str
    effect_size: Interval | None = None  # Cohen's d_z of the per-pair differences, interval from the same resamples

    def significant(self, alpha: float = 0.05) -> tuple[bool, bool]:
        """Whether each test (bootstrap, permutation) finds the difference significant at `alpha`."""
        return self.bootstrap.p_value < alpha, self.permutation.p_value < alpha

    def summary(self, alpha: float = 0.05, test: str | None = None) -> str:
        """The conclusion in words: which system is higher, by how much with its interval,
        and whether the two tests find that significant (and agree). With `test` (one of
        RANKING_TESTS) that test alone decides, the other being said where it disagrees."""
        a, b, d = self.system_a, self.system_b, self.difference
        what = f"{self.method} {MEASURE_LABELS.get(self.measure, self.measure)}"
        where = f"Over {self.pairs:,} pairs" + (f" ({self.left_out:,} left out: undefined scores)" if self.left_out else "")
        if d.value == 0:
            head = f"{where}, {a} and {b} have the same mean {what} ({self.mean_a:.4f})."
        else:
            higher, lower = (a, b) if d.value > 0 else (b, a)
            head = (f"{where}, {higher} scores higher than {lower} on {what}: {max(self.mean_a, self.mean_b):.4f} "
                    f"against {min(self.mean_a, self.mean_b):.4f}, a difference of {abs(d.value):.4f} "
                    f"({self.confidence:g}% interval of {a} − {b}: {d.low:+.4f} to {d.high:+.4f}).")
        effect = self.effect_size
        if d.value != 0 and effect is not None and not math.isnan(effect.value):
            head += (f" Effect size d_z = {effect.value:+.2f} ({self.confidence:g}% interval {effect.low:+.2f} to "
                     f"{effect.high:+.2f}): {effect_label(effect.value)}.")
        tests = (f"paired bootstrap p = {self.bootstrap.p_value:.4g}, "
                 f"approximate randomization p = {self.permutation.p_value:.4g}")
        boot, perm = self.significant(alpha)
        if test is not None:
            if test not in RANKING_TESTS:
                raise ValueError(f"test must be one of {', '.join(RANKING_TESTS)}, not {excerpt(test)}")
            permutation_first = test == "approximate randomization"
            declared, p = (perm, self.permutation.p_value) if permutation_first else (boot, self.bootstrap.p_value)
            other, other_says, q = (("The paired bootstrap", boot, self.bootstrap.p_value) if permutation_first
                                    else ("Approximate randomization", perm, self.permutation.p_value))
            verdict = (f"By {test}, the difference is significant at the {alpha:g} level (p = {p:.4g})." if declared
                       else f"By {test}, the difference is not significant at the {alpha:g} level (p = {p:.4g}): "
                            "these pairs do not show that one system is better on this method.")
            return f"{head} {verdict} {other} {'agrees' if other_says == declared else 'disagrees'} (p = {q:.4g})."
        if boot and perm:
            verdict = f"Both tests find the difference significant at the {alpha:g} level ({tests})."
        elif not boot and not perm:
            verdict = (f"Neither test finds the difference significant at the {alpha:g} level ({tests}): these pairs "
                       "do not show that one system is better on this method.")
        else:
            which, other = ("the paired bootstrap", "approximate randomization") if boot else \
                ("approximate randomization", "the paired bootstrap")
            verdict = (f"The tests disagree at the {alpha:g} level: {which} finds the difference significant, {other} "
                       f"does not ({tests}); treat the difference as uncertain.")
        return f"{head} {verdict}"

    def tests_frame(self):
        pd = optional.pandas("SystemComparison.tests_frame()")

        rows = [{**t.as_dict(), "system_a": self.system_a, "system_b": self.system_b, "method": self.method,
                 "measure": self.measure, "pairs": self.pairs} for t in (self.bootstrap, self.permutation)]
        return pd.DataFrame(rows)


MEASURE_LABELS = {"precision": "precision", "recall": "recall", "fmeasure": "F"}
RANKING_TESTS = ("approximate randomization", "paired bootstrap")
CORRECTIONS = ("holm", "none")


def compare_systems(a: CorpusResult, b: CorpusResult, method: str, *, names: tuple[str, str] = ("A", "B"),
                    measure: str = "fmeasure", resamples: int = 1000, seed: int = 0, confidence: float = 95,
                    progress: Callable[[int, int], None] | None = None,
                    cost_limit: CostLimit | None = None) -> SystemComparison:
    """Compare two systems scored on the same pairs (same ids, in the same order).

    `progress(done, total)` follows both tests' resamples (a page moves its progress bar).
    The tests' cost is estimated first (rouge_core.scorer.cost.paired_tests_estimate) and checked
    against `cost_limit` (None: the default bound; rouge_core.UNBOUNDED: none)."""
    from .significance import approximate_randomization, paired_bootstrap

    if a.ids != b.ids:
        raise ValueError("the two systems must be scored on the same pairs (the same ids, in the same order)")
    resamples = _resamples(resamples)
    name = a.method_key(method)
    a_values, b_values = a.values(name, measure), b.values(name, measure)
    kept = [i for i, (x, y) in enumerate(zip(a_values, b_values)) if not (math.isnan(x) or math.isnan(y))]
    if not kept:
        raise ValueError(f"no pair has a defined {name} score for both systems")
    check_resampling(paired_tests_estimate(len(kept), resamples), cost_limit)
    xs, ys = [a_values[i] for i in kept], [b_values[i] for i in kept]

    def part(offset: int):
        return None if progress is None else (lambda done, total: progress(offset + done, 2 * resamples))

    boot = paired_bootstrap(xs, ys, resamples, seed, confidence=confidence, effect=True, progress=part(0))
    perm = approximate_randomization(xs, ys, resamples, seed, progress=part(resamples))
    mean_a, mean_b = plain_mean(xs), plain_mean(ys)  # and the difference shown is the difference of those
    return SystemComparison(names[0], names[1], name, measure, len(kept), len(a_values) - len(kept), mean_a, mean_b,
                            Interval(mean_a - mean_b, boot.low, boot.high), confidence, boot, perm, a.signatures[name],
                            Interval(boot.effect, boot.effect_low, boot.effect_high))


@dataclass(frozen=True)
class SystemRanking:
    """Several systems on the same pairs, ranked by their mean score, with every pair of
    systems compared (`compare_systems`) and the p-values of one declared test (`test`)
    adjusted for the number of comparisons (`correction`): that test alone decides which
    differences are significant, in the words, the tables and the chart's colours. The other
    test is reported beside it; where the paired bootstrap's interval of a difference (at
    `confidence`) says otherwise, `disagreement` says so.

    Groups: the ranking is cut between two neighbours wherever every system above the cut is
    significantly better than every system below it; a group is a run of systems the test
    cannot separate from each other that way (pairs inside a group may still differ: `summary`
    names them). Rank ranges: a system's best rank is 1 + the systems significantly better
    than it, its worst rank the number of systems minus those significantly worse."""

    method: str
    measure: str
    order: tuple[str, ...]  # best first
    means: dict[str, float]  # macro mean of each system (its defined pairs)
    comparisons: tuple[SystemComparison, ...]  # every pair once, the higher-ranked system as system_a
    test: str  # the test whose p-values decide significance
    correction: str
    adjusted: dict[tuple[str, str], float]  # (system_a, system_b) as in `comparisons` -> adjusted p-value
    alpha: float
    resamples: int
    seed: int
    confidence: float
    signature: str

    def comparison(self, a: str, b: str) -> SystemComparison:
        return next(c for c in self.comparisons if {c.system_a, c.system_b} == {a, b})

    def p_value(self, a: str, b: str) -> float:
        c = self.comparison(a, b)
        return self.adjusted[(c.system_a, c.system_b)]

    def better(self, a: str, b: str) -> bool:
        """Whether `a` is significantly better than `b` (higher mean, adjusted p < alpha)."""
        c = self.comparison(a, b)
        higher = c.system_a if c.difference.value > 0 else c.system_b if c.difference.value < 0 else None
        return higher == a and self.p_value(a, b) < self.alpha

    def significant(self, c: SystemComparison) -> bool:
        """Whether the declared test finds the two systems of `c` significantly different."""
        return self.better(c.system_a, c.system_b) or self.better(c.system_b, c.system_a)

    def declared_test(self) -> str:
        """The test that decides, in words: its name, its adjustment and its level."""
        adjust = (f", Holm-adjusted over {len(self.comparisons):,} comparisons" if self.correction == "holm"
                  else ", not adjusted for the comparisons")
        return f"{self.test}{adjust}, α = {self.alpha:g}"

    def other_test(self) -> str:
        return "paired bootstrap" if self.test == "approximate randomization" else "approximate randomization"

    def disagreement(self, c: SystemComparison) -> str:
        """What the other test says where it disagrees with the declared one ("" where they agree).
        Against the permutation test, the other test is the paired bootstrap's interval of the
        difference (the one drawn), read as significant when it excludes 0."""
        significant = self.significant(c)
        if self.test == "approximate randomization":
            d = c.difference
            excludes = d.low > 0 or d.high < 0
            if excludes == significant:
                return ""
            interval = f"the {self.confidence:g}% bootstrap interval {d.low:+.4f} to {d.high:+.4f}"
            if excludes:
                unadjusted = (f" (it is not adjusted for the {len(self.comparisons):,} comparisons)"
                              if self.correction == "holm" and len(self.comparisons) > 1 else "")
                return f"{interval} excludes 0{unadjusted}"
            return f"{interval} includes 0"
        other = c.permutation.p_value < self.alpha
        if other == significant:
            return ""
        return (f"approximate randomization p = {c.permutation.p_value:.4g} (not adjusted) "
                + ("is below" if other else "is not below") + f" α = {self.alpha:g}")

    def unreachable(self) -> str:
        """Why no pair can be significant whatever the scores ("" when one can): the smallest
        p-value a resampling test gives is 1 / (R + 1) (2 / 2^n when the permutation test is
        exact), and Holm's adjustment multiplies the smallest by the number of comparisons m."""
        if not self.comparisons:
            return ""
        tests = [c.permutation if self.test == "approximate randomization" else c.bootstrap for c in self.comparisons]
        floor = min(2 / t.resamples if t.exact else 1 / (t.resamples + 1) for t in tests)
        m = len(self.comparisons) if self.correction == "holm" else 1
        if floor * m < self.alpha:
            return ""
        needed = int(m / self.alpha)
        while m / (needed + 1) >= self.alpha:
            needed += 1
        adjusted = f", times {m:,} comparisons (Holm), {floor * m:.3g}" if m > 1 else ""
        return (f"With {self.resamples:,} resamples no pair can be significant at α = {self.alpha:g}: the smallest "
                f"p-value {self.test} can give is {floor:.3g}{adjusted}. Use at least {needed:,} resamples.")

    def clusters(self) -> list[tuple[str, ...]]:
        groups: list[tuple[str, ...]] = []
        start = 0
        for cut in range(1, len(self.order)):
            above, below = self.order[:cut], self.order[cut:]
            if all(self.better(a, b) for a in above for b in below):
                groups.append(self.order[start:cut])
                start = cut
        groups.append(self.order[start:])
        return groups

    def rank_ranges(self) -> dict[str, tuple[int, int]]:
        k = len(self.order)
        return {s: (1 + sum(self.better(o, s) for o in self.order if o != s),
                    k - sum(self.better(s, o) for o in self.order if o != s)) for s in self.order}

    def _inside(self, group: Sequence[str], listed: int) -> str:
        """The pairs of a group the test separates all the same, in words ("" when none)."""
        inside = [(a, b) for j, a in enumerate(group) for b in group[j + 1:] if self.better(a, b)]
        if len(inside) > listed:
            return f"{len(inside):,} pairs differ significantly: see the table"
        return "; ".join(f"{a} is significantly better than {b}" for a, b in inside)

    def groups_in_words(self, listed: int = 3) -> str:
        """The groups, best first: "Top group: A, B; then C; then D, E, F (within it, D is
        significantly better than F)."."""
        parts = []
        for i, group in enumerate(self.clusters()):
            inside = self._inside(group, listed)
            parts.append(("Top group: " if i == 0 else "then ") + ", ".join(group)
                         + (f" (within it, {inside})" if inside else ""))
        return "; ".join(parts) + "."

    def summary(self) -> str:
        """The ranking in words: the order with the means, the groups the declared test separates
        (naming it), how many pairs differ, and where the other test disagrees. Every pair is in
        `pairs_frame`."""
        return " ".join(self.summary_parts())

    def summary_parts(self) -> tuple[str, str, str, str]:
        """`summary`'s four parts: the order with the means; the test; the groups; the counts."""
        what = f"{self.method} {MEASURE_LABELS.get(self.measure, self.measure)}"
        pairs = min(c.pairs for c in self.comparisons) if self.comparisons else 0
        head = (f"Ranking of {len(self.order)} systems by mean {what} over {pairs:,} pairs: "
                + ", ".join(f"{i}. {s} ({self.means[s]:.4f})" for i, s in enumerate(self.order, 1)) + ".")
        test = f"Significance by {self.declared_test()}."
        if self.unreachable():
            test += f" {self.unreachable()}"
        groups = self.clusters()
        if len(groups) == 1:
            inside = self._inside(groups[0], 3)
            words = ("The test does not separate these systems into groups"
                     + (f" (within the one group, {inside})." if inside else "."))
        else:
            words = (f"{self.groups_in_words()} Every system of a group is significantly better than every system of "
                     "the groups after it.")
        differ = sum(self.significant(c) for c in self.comparisons)
        count = f"{differ:,} of the {len(self.comparisons):,} pairs differ significantly; the table lists every pair."
        disagree = sum(bool(self.disagreement(c)) for c in self.comparisons)
        other = ""
        if disagree:
            other = (f" On {disagree:,} pair{'s' if disagree > 1 else ''} the {self.other_test()} disagrees "
                     "(the table's other_test column says how).")
        return head, test, words, count + other

    def ranking_frame(self):
        """One row per system: rank, mean, rank range and cluster."""
        pd = optional.pandas("SystemRanking.ranking_frame()")

        ranges = self.rank_ranges()
        cluster = {s: i for i, group in enumerate(self.clusters(), 1) for s in group}
        rows = [{"rank": i, "system": s, "mean": self.means[s], "best_rank": ranges[s][0], "worst_rank": ranges[s][1],
                 "cluster": cluster[s], "method": self.method, "measure": self.measure}
                for i, s in enumerate(self.order, 1)]
        return pd.DataFrame(rows)

    def pairs_frame(self):
        """One row per pair of systems: the declared test's verdict and adjusted p-value, what the
        other test says where it disagrees, the difference and its interval, the effect size and
        its interval, both tests' p-values."""
        pd = optional.pandas("SystemRanking.pairs_frame()")

        rows = []
        for c in self.comparisons:
            effect = c.effect_size or Interval(math.nan, math.nan, math.nan)
            significant = self.significant(c)
            rows.append({"system_a": c.system_a, "system_b": c.system_b,
                         "verdict": "significant" if significant else "not significant",
                         "adjusted_p": self.adjusted[(c.system_a, c.system_b)], "other_test": self.disagreement(c),
                         "mean_a": c.mean_a, "mean_b": c.mean_b,
                         "difference": c.difference.value, "difference_low": c.difference.low,
                         "difference_high": c.difference.high, "effect_size": effect.value,
                         "effect_low": effect.low, "effect_high": effect.high,
                         "permutation_p": c.permutation.p_value, "bootstrap_p": c.bootstrap.p_value,
                         "significant": significant, "pairs": c.pairs, "resamples": self.resamples, "seed": self.seed,
                         "confidence": self.confidence})
        return pd.DataFrame(rows)


def _words(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def rank_systems(results: Mapping[str, CorpusResult], method: str, *, measure: str = "fmeasure",
                 resamples: int = 1000, seed: int = 0, confidence: float = 95, alpha: float = 0.05,
                 test: str = "approximate randomization", correction: str = "holm",
                 progress: Callable[[int, int], None] | None = None,
                 cost_limit: CostLimit | None = None) -> SystemRanking:
    """Rank two or more systems scored on the same pairs by their mean score and compare every
    pair of them (`compare_systems`: the difference with its interval, d_z with its interval,
    the paired bootstrap and approximate randomization). `test`'s p-values, adjusted for the
    k(k−1)/2 comparisons (`correction`: "holm" or "none"), decide significance at `alpha`.
    `progress(done, total)` follows every comparison's resamples. Every comparison's cost
    together is checked against `cost_limit` first (None: the default bound)."""
    if test not in RANKING_TESTS:
        raise ValueError(f"test must be one of {', '.join(RANKING_TESTS)}, not {excerpt(test)}")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, not {excerpt(correction)}")
    if not 0 < alpha < 1:
        raise ValueError("alpha must be between 0 and 1")
    if len(results) < 2:
        raise ValueError("ranking needs at least two systems")
    name = next(iter(results.values())).method_key(method)
    means = {s: getattr(r.macro()[name], measure) for s, r in results.items()}
    order = tuple(sorted(results, key=lambda s: (-means[s] if not math.isnan(means[s]) else math.inf)))
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    resamples = _resamples(resamples)
    check_resampling(paired_tests_estimate(len(next(iter(results.values()))), resamples, len(pairs)), cost_limit)
    total = 2 * resamples * len(pairs)
    comparisons = []
    for done, (a, b) in enumerate(pairs):
        def step(d: int, _t: int, base: int = done * 2 * resamples) -> None:
            if progress is not None:
                progress(base + d, total)

        comparisons.append(compare_systems(results[a], results[b], name, names=(a, b), measure=measure,
                                           resamples=resamples, seed=seed, confidence=confidence, progress=step,
                                           cost_limit=UNBOUNDED))  # checked above, all of them together
    raw = [(c.permutation if test == "approximate randomization" else c.bootstrap).p_value for c in comparisons]
    adjusted = holm(raw) if correction == "holm" else raw
    first = next(iter(results.values()))
    return SystemRanking(name, measure, order, means, tuple(comparisons), test, correction,
                         {(c.system_a, c.system_b): p for c, p in zip(comparisons, adjusted)}, alpha, resamples, seed,
                         confidence, first.signatures[name])
