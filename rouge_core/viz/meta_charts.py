"""Altair charts of meta-evaluation (rouge_core.studies.meta): correlations with their intervals, and a
metric's scores against the human scores. No Streamlit."""

from __future__ import annotations

import textwrap

import altair as alt
import pandas as pd

from ..studies.meta import BEST, TIED, UNTESTED, WORSE
from .corpus_charts import _titled, band_rows

LEVEL_COLOURS = alt.Scale(domain=["summary", "system"], range=["#1f77b4", "#ff7f0e"])


VERDICTS, SHAPES = (BEST, TIED, WORSE, UNTESTED), ("diamond", "circle", "triangle-down", "square")


def correlations_chart(frame: pd.DataFrame, coefficient: str, signature: str = "", ranked_by: str = "summary",
                       test: str = "") -> alt.LayerChart:
    """One row per ROUGE variant, a point per level with its interval. `frame` needs: variant,
    level, value, and optionally low / high and vs_best (the variant's standing against the
    best: its mark's shape, the legend naming `test`); variants are ordered as the frame lists
    them (the ranking at the `ranked_by` level)."""
    order = list(dict.fromkeys(frame["variant"]))
    base = alt.Chart(frame)
    y = alt.Y("variant:N", sort=order, title=None, axis=alt.Axis(labelLimit=320))
    tooltip = ["variant", "level", alt.Tooltip("value:Q", format=".4f")]
    layers = []
    if "low" in frame and frame["low"].notna().any():
        tooltip += [alt.Tooltip("low:Q", format=".4f"), alt.Tooltip("high:Q", format=".4f")]
        layers.append(base.mark_rule(strokeWidth=2).encode(x="low:Q", x2="high:Q", y=y, yOffset="level:N",
                                                           color=alt.Color("level:N", scale=LEVEL_COLOURS)))
    encoding = dict(x=alt.X("value:Q", title=coefficient, scale=alt.Scale(domain=[-1, 1])), y=y, yOffset="level:N",
                    color=alt.Color("level:N", scale=LEVEL_COLOURS, title="level"), tooltip=tooltip)
    if "vs_best" in frame:
        tooltip.append(alt.Tooltip("vs_best:N", title="against the best"))
        legend = ["against the best", *_wrapped(test)] if test else "against the best (not tested)"
        present = set(frame["vs_best"])
        shapes = [(v, shape) for v, shape in zip(VERDICTS, SHAPES) if v in present]
        encoding["shape"] = alt.Shape("vs_best:N", title=legend,
                                      scale=alt.Scale(domain=[v for v, _ in shapes], range=[s for _, s in shapes]),
                                      legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=400,
                                                        titleLimit=600))
    layers.append(base.mark_point(filled=True, size=70).encode(**encoding))
    chart = band_rows(alt.layer(*layers), len(order) * frame["level"].nunique(), 11)  # a band per level (yOffset)
    return _titled(chart, f"{coefficient} with the human scores, ranked by the {ranked_by} level", signature)


def _wrapped(text: str, width: int = 70) -> list[str]:
    """`text` in lines of at most about `width` characters (a legend title does not wrap itself)."""
    return textwrap.wrap(text, width)


def metric_human_scatter(items: pd.DataFrame, metric: str, signature: str = "") -> alt.LayerChart:
    """One point per (system, document): the metric's score against the human score, coloured
    by system, with each system's means as a larger mark. `items` needs: system, doc_id,
    metric, human."""
    points = alt.Chart(items).mark_circle(size=45, opacity=0.55).encode(
        x=alt.X("human:Q", title="human score", scale=alt.Scale(zero=False)),
        y=alt.Y("metric:Q", title=metric, scale=alt.Scale(zero=False)),
        color=alt.Color("system:N", title="system"),
        tooltip=["system", "doc_id", alt.Tooltip("human:Q", format=".3f"), alt.Tooltip("metric:Q", format=".4f")],
    )
    means = items.groupby("system", as_index=False)[["human", "metric"]].mean()
    centres = alt.Chart(means).mark_point(shape="diamond", size=220, filled=True, stroke="black", strokeWidth=1).encode(
        x="human:Q", y="metric:Q", color="system:N",
        tooltip=["system", alt.Tooltip("human:Q", title="mean human", format=".3f"),
                 alt.Tooltip("metric:Q", title=f"mean {metric}", format=".4f")],
    )
    return _titled(points + centres, f"{metric} against the human scores (diamonds: system means)", signature)
