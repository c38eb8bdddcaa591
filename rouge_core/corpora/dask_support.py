"""Corpus scoring beyond one machine: a pandas DataFrame scored partition by partition on
Dask (`dask.dataframe.map_partitions`, any `dask.distributed` cluster), then bootstrap and
significance on the gathered per-pair statistics.

    from dask.distributed import Client, LocalCluster
    from rouge_core.corpora.dask_support import score_dataframe_dask, corpus_result_from_stats

    if __name__ == "__main__":  # worker processes import this script again: start them only here
        with LocalCluster(n_workers=4) as cluster, Client(cluster) as client:
            stats = score_dataframe_dask(df, ["rouge1", "rougeL"], "rouge-score",
                                         candidate="summary", references=["ref1", "ref2"],
                                         npartitions=16, client=client)
        result = corpus_result_from_stats(df, stats, ["rouge1", "rougeL"], "rouge-score",
                                          candidate="summary", references=["ref1", "ref2"])
        result.macro(), result.micro(), result.bootstrap(1000, seed=0)

Each partition is scored as score_corpus scores a chunk (rouge_core.corpora.batch); per pair only
numbers travel back (P, R, F and the pooled hits/totals per method), so the gathered frame is
small; `corpus_result_from_stats` turns it, column by column, into the same CorpusResult the
single-process `score_corpus` returns (per-pair scores, macro, micro, bootstrap identical).
Dask is imported lazily: the rest of rouge_core does not need it.
"""

from __future__ import annotations

from typing import Sequence

from ..families.methods import Method, parse_method
from ..text.options import Options
from ..scorer.scoring import resolve_options

FIELDS = ("precision", "recall", "fmeasure", "hits", "cand_total", "ref_total", "exponent", "chosen")


def _reference_lists(frame, references) -> list[tuple[str, ...]]:
    """References per row: one column of strings, several columns, or a column of lists."""
    if isinstance(references, str):
        col = frame[references]
        return [tuple(v) if isinstance(v, (list, tuple)) else (v,) for v in col]
    cols = [frame[c] for c in references]
    return [tuple(v for v in row if isinstance(v, str) and v != "") for row in zip(*cols)]


def stats_columns(methods: Sequence[str | Method]) -> list[str]:
    return [f"{parse_method(m).name}:{f}" for m in methods for f in FIELDS]


def score_partition(frame, methods: Sequence[str], options: Options, candidate: str = "candidate", references="reference"):
    """Score one pandas partition as score_corpus scores a chunk (rouge_core.corpora.batch: the compiled
    kernels where they apply); one row of numbers per pair, index kept. Pure and picklable."""
    import numpy as np
    import pandas as pd

    from .batch import score_batch
    from .corpus_stats import CorpusStatistics, SIDES

    names = [parse_method(m, options).name for m in methods]
    refs = _reference_lists(frame, references)
    records = score_batch(list(frame[candidate]), refs, names, options).pairs if len(frame) else []
    stats = CorpusStatistics.of_records(records, names, options)
    columns: dict[str, object] = {}
    for name in names:
        column = stats.columns[name]
        present = np.ones(len(frame), bool)
        present[list(column.without_stats)] = False
        for measure in ("precision", "recall", "fmeasure"):
            columns[f"{name}:{measure}"] = column.measure(measure) if len(frame) else np.zeros(0)
        for side, values in zip(SIDES, column.sides or [np.zeros(0)] * 3):
            columns[f"{name}:{side}"] = np.where(present, values.astype(np.float64), np.nan)
        columns[f"{name}:exponent"] = np.full(len(frame), column.exponent if column.exponent is not None else 1.0)
        columns[f"{name}:chosen"] = np.fromiter((-1 if r[name].chosen is None else r[name].chosen for r in records),
                                                np.int64, len(records))
    return pd.DataFrame(columns, index=frame.index, columns=stats_columns(names))


def score_dataframe_dask(frame, methods: Sequence[str | Method], options: Options | str | None = None, *,
                         candidate: str = "candidate", references="reference", npartitions: int | None = None,
                         client=None):
    """Per-pair statistics of a pandas (or dask) DataFrame, computed partition-wise on Dask;
    returns the gathered pandas DataFrame (same index, columns `<method>:<field>`)."""
    import dask.dataframe as dd

    opts = resolve_options(options, {})
    names = [parse_method(m, opts).name for m in methods]
    ddf = frame if isinstance(frame, dd.DataFrame) else dd.from_pandas(frame, npartitions=npartitions or 4, sort=False)
    meta = score_partition(frame.head(0) if not isinstance(frame, dd.DataFrame) else ddf._meta, names, opts, candidate, references)
    lazy = ddf.map_partitions(score_partition, names, opts, candidate, references, meta=meta)
    if client is not None:
        return client.compute(lazy).result()
    return lazy.compute()


def corpus_result_from_stats(frame, stats, methods: Sequence[str | Method], options: Options | str | None = None, *,
                             candidate: str = "candidate", references="reference", ids: Sequence[str] | None = None):
    """The CorpusResult the single-process path gives, rebuilt from gathered statistics
    (column by column, no loop over rows), so `.macro()`, `.micro()`, `.bootstrap()` and
    `compare_systems` give the single-process numbers."""
    import numpy as np

    from .corpus import CorpusResult, corpus_signatures
    from .corpus_stats import CorpusStatistics, SIDES

    opts = resolve_options(options, {})
    names = tuple(parse_method(m, opts).name for m in methods)
    refs = _reference_lists(frame, references)
    sigs = corpus_signatures(names, opts, {len(r) for r in refs})
    statistics = CorpusStatistics(names, opts)
    arrays = {}
    for name in names:
        def col(field: str):
            return stats[f"{name}:{field}"].to_numpy(dtype=np.float64)

        present = ~np.isnan(col("hits"))
        sides = tuple(np.where(present, col(side), 0.0) for side in SIDES)
        exponents = col("exponent")[present]
        arrays[name] = (tuple(col(m) for m in ("precision", "recall", "fmeasure")), sides, present,
                        float(exponents[0]) if len(exponents) else None, bool(np.all(exponents == 1.0)))
    statistics.append_arrays(len(stats), arrays)
    statistics.freeze()
    if ids is None:
        ids = [str(i + 1) for i in range(len(stats))]
    return CorpusResult(
        ids=tuple(str(x) for x in ids),
        candidates=tuple(frame[candidate]),
        references=tuple(refs),
        methods=names,
        options=opts,
        signatures=sigs,
        statistics=statistics,
    )


def score_corpus_dask(frame, methods, options=None, *, candidate="candidate", references="reference",
                      npartitions=None, client=None, ids=None):
    """score_dataframe_dask + corpus_result_from_stats in one call."""
    stats = score_dataframe_dask(frame, methods, options, candidate=candidate, references=references,
                                 npartitions=npartitions, client=client)
    return corpus_result_from_stats(frame, stats, methods, options, candidate=candidate, references=references, ids=ids)


def paired_significance(stats_a, stats_b, method: str, measure: str = "fmeasure", *, test: str = "bootstrap",
                        resamples: int = 1000, seed: int = 0):
    """Significance of system A vs B on the same pairs, from two gathered statistics frames."""
    from . import significance

    name = parse_method(method).name
    a = [float(x) for x in stats_a[f"{name}:{measure}"]]
    b = [float(x) for x in stats_b[f"{name}:{measure}"]]
    if test == "bootstrap":
        return significance.paired_bootstrap(a, b, resamples=resamples, seed=seed)
    return significance.approximate_randomization(a, b, resamples=resamples, seed=seed)
