"""Results as data: what the report prints, so callers need not parse text."""

from __future__ import annotations

from dataclasses import dataclass

from rouge_core.stats import Interval

from .flags import Flags
from .report import render


@dataclass(frozen=True)
class DocumentScore:
    """One evaluation (document) of one peer under one metric.

    `recall`, `precision`, `f` are the 5-decimal values the script prints (F from the rounded
    P and R); `model_count`, `peer_count`, `hit_count` are the counts behind them (pooled or
    best model per `-f`; ROUGE-W counts are weighted).
    """

    eval_id: str
    test_id: str  # "<eval id>.<peer id>", as printed
    recall: float
    precision: float
    f: float
    model_count: float
    peer_count: float
    hit_count: float


# A bootstrap average (the mean of the resample means, `value`) and its confidence interval:
# rouge_core's one interval type, under the name this package has always exported.
Estimate = Interval


@dataclass(frozen=True)
class MetricResult:
    peer_id: str
    metric: str  # printed name: "ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4", ...
    recall: Interval | None  # None under -t 2, which prints raw counts instead
    precision: Interval | None
    f: Interval | None
    model_count: int  # totals over the documents (what -t 2 prints)
    peer_count: int
    hit_count: int
    documents: tuple[DocumentScore, ...]  # in the report's -d order


@dataclass(frozen=True)
class Report:
    flags: Flags
    results: tuple[MetricResult, ...]

    def get(self, metric: str, peer_id: str | None = None) -> MetricResult:
        """The result of `metric` (of `peer_id`, else the first peer's): its name as printed
        ("ROUGE-L", "ROUGE-W-1.20" after `-w 1.20`), another spelling of the same method
        ("ROUGE-W-1.2", "rougeLsum": read as rouge_core.families.methods.parse_method reads it under
        the rouge-1.5.5 profile, so "rougeL", which the script does not compute, has none)."""
        printed = self._printed_name(metric)
        for result in self.results:
            if result.metric == printed and (peer_id is None or result.peer_id == peer_id):
                return result
        raise KeyError(f"no {metric} result" + (f" for peer {peer_id}" if peer_id else "")
                       + f" (this run printed {', '.join(dict.fromkeys(r.metric for r in self.results)) or 'nothing'})")

    def _printed_name(self, metric: str) -> str:
        from rouge_core.families.methods import parse_method

        from .scoring import metrics_for

        metrics = metrics_for(self.flags)
        if any(m.name == metric for m in metrics):
            return metric
        try:
            method = parse_method(metric, self.flags.options)
        except (TypeError, ValueError):  # ROUGE-BE names (no text method) and unknown ones
            return metric
        return next((m.name for m in metrics if m.method == method), metric)

    def text(self) -> str:
        """The report exactly as ROUGE-1.5.5.pl prints it."""
        return render(self)
