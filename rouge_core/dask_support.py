"""Corpus scoring beyond one machine: a pandas DataFrame scored partition by partition on
Dask (`dask.dataframe.map_partitions`, any `dask.distributed` cluster), then bootstrap and
significance on the gathered per-pair statistics.

    from dask.distributed import Client, LocalCluster
    from rouge_core.dask_support import score_dataframe_dask, corpus_result_from_stats

    with LocalCluster(n_workers=4) as cluster, Client(cluster) as client:
        stats = score_dataframe_dask(df, ["rouge1", "rougeL"], "rouge-score",
                                     candidate="summary", references=["ref1", "ref2"],
                                     npartitions=16, client=client)
    result = corpus_result_from_stats(df, stats, ["rouge1", "rougeL"], "rouge-score",
                                      candidate="summary", references=["ref1", "ref2"])
    result.macro(), result.micro(), result.bootstrap(1000, seed=0)

Per pair only numbers travel back (P, R, F and the pooled hits/totals per method), so the
gathered frame is small; `corpus_result_from_stats` turns it into the same CorpusResult the
single-process `score_corpus` returns (per-pair scores, macro, micro, bootstrap identical).
Dask is imported lazily: the rest of rouge_core does not need it.
"""

from __future__ import annotations

import math
from typing import Sequence

from .methods import Method, parse_method
from .options import Options
from .scoring import MethodScore, resolve_options
from .stats import Score, Stats

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
    """Score one pandas partition; one row of numbers per pair, index kept. Pure and picklable."""
    import pandas as pd

    from .corpus import pair_micro_stats, score_pair_stats

    names = [parse_method(m, options).name for m in methods]
    rows = []
    for cand, refs in zip(frame[candidate], _reference_lists(frame, references)):
        scored = score_pair_stats(cand, refs, names, options)
        row = []
        for name in names:
            ms = scored[name]
            st = pair_micro_stats(ms)
            row += [ms.score.precision, ms.score.recall, ms.score.fmeasure,
                    st.hits if st else math.nan, st.cand_total if st else math.nan,
                    st.ref_total if st else math.nan, st.exponent if st else 1.0,
                    -1 if ms.chosen is None else ms.chosen]
        rows.append(row)
    columns = stats_columns(names)
    out = pd.DataFrame(rows, columns=columns, index=frame.index, dtype=float)
    return out.astype({c: "int64" for c in columns if c.endswith(":chosen")})


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
    """The CorpusResult the single-process path gives, rebuilt from gathered statistics, so
    `.macro()`, `.micro()`, `.bootstrap()` and `rouge_core.significance` work unchanged."""
    from .corpus import CorpusResult, corpus_signatures

    opts = resolve_options(options, {})
    methods_parsed = [parse_method(m, opts) for m in methods]
    names = tuple(m.name for m in methods_parsed)
    refs = _reference_lists(frame, references)
    sigs = corpus_signatures(names, opts, [len(r) for r in refs])
    pairs = []
    for _, row in stats.iterrows():
        d = {}
        for m in methods_parsed:
            g = lambda f: row[f"{m.name}:{f}"]  # noqa: E731
            st = None if math.isnan(g("hits")) else Stats(float(g("hits")), float(g("cand_total")), float(g("ref_total")), float(g("exponent")))
            chosen = int(g("chosen"))
            d[m.name] = MethodScore(m, Score(float(g("precision")), float(g("recall")), float(g("fmeasure"))), (),
                                    None if chosen < 0 else chosen, "gathered from Dask", st, sigs[m.name])
        pairs.append(d)
    if ids is None:
        ids = [str(i + 1) for i in range(len(pairs))]
    return CorpusResult(
        ids=tuple(str(x) for x in ids),
        candidates=tuple(frame[candidate]),
        references=tuple(refs),
        methods=names,
        options=opts,
        pairs=tuple(pairs),
        signatures=sigs,
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
