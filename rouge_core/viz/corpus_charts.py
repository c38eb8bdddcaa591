"""Altair chart builders for corpus scoring, system comparison and review. No Streamlit."""

from __future__ import annotations

from typing import Sequence

import altair as alt
import pandas as pd

from .charts import titled


def _titled(chart: alt.Chart, title: str, signature: str) -> alt.Chart:
    return titled(chart, title, signature)  # the signature's style is charts.titled's, shared by every chart


def band_rows(chart, bands: int, step: int):
    """`chart` with `step` pixels per band of its y axis (`bands` of them), as wide as its
    container. The height is a number of pixels for the plot alone (fit-x): the host's default
    autosize ("fit" both ways) would squeeze the bands to make room for the title and axes, and
    it cannot fit a height given in steps (Vega warns it drops fit-y)."""
    return chart.properties(height=step * max(1, bands),
                            autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))


def score_distributions(per_pair: pd.DataFrame, methods: Sequence[str], measure: str = "fmeasure", signature: str = "") -> alt.Chart:
    """Box plot of per-pair scores, one box per method."""
    long = pd.DataFrame(
        [{"method": m, "score": v} for m in methods for v in per_pair[f"{m}_{measure}"].tolist()]
    )
    chart = alt.Chart(long).mark_boxplot(extent="min-max").encode(
        x=alt.X("method:N", sort=list(methods), title="method"),
        y=alt.Y("score:Q", title=measure, scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("method:N", legend=None),
    )
    return _titled(chart, f"Per-pair {measure} by method", signature)


def means_with_intervals(aggregates: pd.DataFrame, signature: str = "") -> alt.Chart:
    """Point per method (and aggregate) with its bootstrap interval as an error bar.

    `aggregates` needs: method, aggregate, fmeasure, fmeasure_low, fmeasure_high."""
    base = alt.Chart(aggregates)
    points = base.mark_point(filled=True, size=80).encode(
        x=alt.X("fmeasure:Q", title="F (bootstrap interval)", scale=alt.Scale(zero=False)),
        y=alt.Y("method:N", title=None),
        color="aggregate:N",
        yOffset="aggregate:N",
        tooltip=["method", "aggregate", alt.Tooltip("fmeasure:Q", format=".4f"),
                 alt.Tooltip("fmeasure_low:Q", format=".4f"), alt.Tooltip("fmeasure_high:Q", format=".4f")],
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x="fmeasure_low:Q", x2="fmeasure_high:Q", y="method:N", yOffset="aggregate:N", color="aggregate:N",
    )
    return _titled(bars + points, "Corpus means with confidence intervals", signature)


def method_scatter(per_pair: pd.DataFrame, x_method: str, y_method: str, measure: str = "fmeasure", signature: str = "") -> alt.Chart:
    """One point per pair; points far from the diagonal are pairs where the methods disagree."""
    x_col, y_col = f"{x_method}_{measure}", f"{y_method}_{measure}"
    data = per_pair[["id", x_col, y_col]].copy()
    data["disagreement"] = (data[x_col] - data[y_col]).abs()
    points = alt.Chart(data).mark_circle(size=60).encode(
        x=alt.X(f"{x_col}:Q", title=f"{x_method} {measure}", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y(f"{y_col}:Q", title=f"{y_method} {measure}", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("disagreement:Q", scale=alt.Scale(scheme="orangered")),
        tooltip=["id", alt.Tooltip(f"{x_col}:Q", format=".4f"), alt.Tooltip(f"{y_col}:Q", format=".4f"),
                 alt.Tooltip("disagreement:Q", format=".4f")],
    )
    diagonal = alt.Chart(pd.DataFrame({"v": [0.0, 1.0]})).mark_line(color="gray", strokeDash=[4, 4]).encode(x="v:Q", y="v:Q")
    return _titled(diagonal + points, f"{x_method} against {y_method}", signature)


def pair_differences(diffs: pd.DataFrame, label_a: str, label_b: str, signature: str = "") -> alt.Chart:
    """Bar per pair of (A − B), sorted; `diffs` needs columns id and difference."""
    chart = alt.Chart(diffs).mark_bar().encode(
        x=alt.X("id:N", sort="-y", title="pair", axis=alt.Axis(labels=len(diffs) <= 60)),
        y=alt.Y("difference:Q", title=f"{label_a} − {label_b}"),
        color=alt.condition(alt.datum.difference >= 0, alt.value("#1f77b4"), alt.value("#d62728")),
        tooltip=["id", alt.Tooltip("difference:Q", format=".4f")],
    )
    return _titled(chart, f"Per-pair difference: {label_a} − {label_b}", signature)


def verdicts_vs_difference(data: pd.DataFrame, signature: str = "") -> alt.Chart:
    """How annotators' verdicts relate to the ROUGE difference; `data`: verdict, difference, annotator."""
    chart = alt.Chart(data).mark_circle(size=70, opacity=0.7).encode(
        x=alt.X("difference:Q", title="ROUGE difference (A − B, or pair score)"),
        y=alt.Y("verdict:N", title="verdict"),
        color="annotator:N",
        tooltip=["pair_id", "annotator", "verdict", alt.Tooltip("difference:Q", format=".4f")],
    )
    return _titled(chart, "Verdicts against ROUGE", signature)
