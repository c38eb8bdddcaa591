"""The script's report text (`printResults`, `printPerEvalData`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the records it prints; results.Report.text() calls render
    from .results import MetricResult, Report

RULE = "-" * 45
DOTS = "." * 45


def _perl_number(x: float) -> str:
    # How Perl prints a number it was not asked to format: %.15g.
    return "%.15g" % x


def _block(result: MetricResult, report: Report) -> list[str]:
    o = report.flags
    head = f"{result.peer_id} {result.metric}"
    lines = [RULE]
    if o.counting in (0, 1):
        for label, est in (("R", result.recall), ("P", result.precision), ("F", result.f)):
            lines.append(
                f"{head} Average_{label}: {est.value:7.5f} "
                f"({o.confidence_text}%-conf.int. {est.low:7.5f} - {est.high:7.5f})")
    else:
        lines.append(f"{head} M_count: {result.model_count} P_count: {result.peer_count} "
                     f"H_count: {result.hit_count}")
    if o.per_document:
        lines.append(DOTS)
        for d in result.documents:
            if o.counting == 0:
                values = (f"{d.recall:7.5f}", f"{d.precision:7.5f}", f"{d.f:7.5f}")
            else:  # the script keeps counts per document under -t 1 and -t 2
                values = tuple(_perl_number(v) for v in (d.model_count, d.peer_count, d.hit_count))
            lines.append(f"{head} Eval {d.test_id} R:{values[0]} P:{values[1]} F:{values[2]}")
    return lines


def render(report: Report) -> str:
    lines: list[str] = []
    for result in report.results:
        lines += _block(result, report)
    return "".join(line + "\n" for line in lines)
