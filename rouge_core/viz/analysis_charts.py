"""Altair chart builders for the source statistics and the fine-grained comparison of systems
(rouge_core.studies.source, rouge_core.studies.analysis). Pure: a DataFrame in, a chart out; no Streamlit."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .charts import titled
from .corpus_charts import band_rows

# As tall as asked, as wide as the container: a host's default autosize ("fit" both ways)
# squeezes the plot to make room for the title, the signature and the legend.
_FIT_WIDTH = alt.AutoSizeParams(type="fit-x", contains="padding")

_INTERVAL_NOTE = "bars: bootstrap interval"


def _defined(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    return frame[frame[column].notna()]


def source_statistics_chart(frame: pd.DataFrame, signature: str = "", confidence: float = 95) -> alt.FacetChart:
    """One panel per statistic (coverage, density, compression, novel n-grams), one point per
    system with its bootstrap interval. `frame`: SourceCorpusResult.frame()."""
    data = _defined(frame, "mean")
    order = list(dict.fromkeys(data["label"]))
    systems = list(dict.fromkeys(data["system"]))
    base = alt.Chart().encode(
        y=alt.Y("system:N", sort=systems, title=None, axis=alt.Axis(labelLimit=160)),
        color=alt.Color("system:N", sort=systems, legend=None))
    points = base.mark_point(filled=True, size=70).encode(
        x=alt.X("mean:Q", title=None, scale=alt.Scale(zero=False)),
        tooltip=["system", "label", alt.Tooltip("mean:Q", format=".4f"), alt.Tooltip("low:Q", format=".4f"),
                 alt.Tooltip("high:Q", format=".4f"), "pairs"])
    bars = base.mark_rule(strokeWidth=2).encode(x="low:Q", x2="high:Q")
    chart = alt.layer(bars, points, data=data).properties(width=220, height=24 * max(1, len(systems))).facet(
        facet=alt.Facet("label:N", sort=order, title=None), columns=3).resolve_scale(x="independent")
    return titled(chart, f"Copying from the source per system (means, {confidence:g}% {_INTERVAL_NOTE})", signature)


def bucket_chart(frame: pd.DataFrame, title: str, y_title: str, signature: str = "", confidence: float = 95):
    """Per bucket (x, in its order), one point per system with its interval. `frame`:
    Buckets.frame() (system, bucket, order, value, low, high, count)."""
    data = _defined(frame, "value")
    order = list(frame.sort_values("order")["bucket"].drop_duplicates())
    systems = list(dict.fromkeys(frame["system"]))
    base = alt.Chart(data).encode(
        x=alt.X("bucket:N", sort=order, title=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("system:N", sort=systems),
        color=alt.Color("system:N", sort=systems, legend=alt.Legend(orient="top", title=None)))
    points = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("value:Q", title=y_title, scale=alt.Scale(zero=False)),
        tooltip=["system", "bucket", alt.Tooltip("value:Q", format=".4f"), alt.Tooltip("low:Q", format=".4f"),
                 alt.Tooltip("high:Q", format=".4f"), "count"])
    bars = base.mark_rule(strokeWidth=2).encode(y="low:Q", y2="high:Q")
    return titled((bars + points).properties(height=260, autosize=_FIT_WIDTH),
                  f"{title} ({confidence:g}% {_INTERVAL_NOTE})", signature)


def length_ratio_chart(pairs: pd.DataFrame, signature: str = "") -> alt.LayerChart:
    """Box plot of the candidate / reference length ratio per system, with the line ratio = 1.
    `pairs`: LengthStatistics.pairs_frame() (system, ratio)."""
    systems = list(dict.fromkeys(pairs["system"]))
    boxes = alt.Chart(pairs).mark_boxplot(extent=1.5, size=28).encode(
        x=alt.X("system:N", sort=systems, title=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("ratio:Q", title="candidate / reference length"),
        color=alt.Color("system:N", sort=systems, legend=None))
    one = alt.Chart(pd.DataFrame({"ratio": [1.0]})).mark_rule(strokeDash=[4, 3], color="#666").encode(y="ratio:Q")
    return titled((boxes + one).properties(height=260, autosize=_FIT_WIDTH),
                  "Length ratio per pair (dashed: as long as the reference)", signature)


def ngram_difference_chart(top: pd.DataFrame, system_a: str, system_b: str, signature: str = ""):
    """Horizontal bars of matched_a − matched_b for the listed n-grams (positive: A's), coloured
    by the system that matches each more often. `top`: rows of NgramDifferences.frame()."""
    data = top.assign(favours=[system_a if d > 0 else system_b for d in top["difference"]])
    order = list(data.sort_values("difference", ascending=False)["ngram"])
    chart = alt.Chart(data).mark_bar().encode(
        y=alt.Y("ngram:N", sort=order, title=None, axis=alt.Axis(labelLimit=220)),
        x=alt.X("difference:Q", title=f"matched by {system_a} − by {system_b} (over the corpus)"),
        color=alt.Color("favours:N", sort=[system_a, system_b], legend=alt.Legend(orient="top", title=None)),
        tooltip=["ngram", "matched_a", "matched_b", "pairs_a", "pairs_b", alt.Tooltip("p_value:Q", format=".3g"),
                 alt.Tooltip("adjusted_p:Q", format=".3g")])
    return titled(band_rows(chart, len(data), 18), "Reference n-grams one system matches more often", signature)


def origins_chart(counts: pd.DataFrame, signature: str = "") -> alt.Chart:
    """Stacked bar of a candidate's words by origin (both, source, reference, novel). `counts`:
    origin, words."""
    from .source_highlight import ORIGIN_COLOURS

    order = list(ORIGIN_COLOURS)
    chart = alt.Chart(counts).mark_bar().encode(
        x=alt.X("words:Q", stack="normalize", title="share of the candidate's words", axis=alt.Axis(format="%")),
        color=alt.Color("origin:N", sort=order, scale=alt.Scale(domain=order, range=list(ORIGIN_COLOURS.values())),
                        legend=alt.Legend(orient="top", title=None)),
        order=alt.Order("rank:Q"), tooltip=["origin", "words"]).transform_calculate(
        rank=f"indexof({order!r}, datum.origin)")
    return titled(chart.properties(height=60, autosize=_FIT_WIDTH), "Where the candidate's words come from", signature)
