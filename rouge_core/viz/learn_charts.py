"""Altair charts for the Learn page. Builders take rows from rouge_core.teach.explain and return
alt.Chart objects; no Streamlit here, so they are tested on their specs."""

from __future__ import annotations

from typing import Sequence

import altair as alt
import pandas as pd

PATH_COLOR = "#d62728"


def lcs_heatmap(cells: Sequence[dict], title: str = "LCS table with its traceback path") -> alt.LayerChart:
    """The DP table as a heatmap: cell (i, j) = LCS of the first i reference tokens and the
    first j candidate tokens; the traceback path is outlined, its diagonal (matching) steps
    filled with dots and joined by a line in traceback order."""
    frame = pd.DataFrame(list(cells))
    ref_order = list(dict.fromkeys(frame["reference"]))
    cand_order = list(dict.fromkeys(frame["candidate"]))
    # labelOverlap=False: every token label is shown (Vega would otherwise drop every other one).
    x = alt.X("candidate:O", sort=cand_order, title="candidate prefix (j)",
              axis=alt.Axis(labelAngle=-60, orient="top", labelOverlap=False, labelLimit=120))
    y = alt.Y("reference:O", sort=ref_order, title="reference prefix (i)", axis=alt.Axis(labelOverlap=False, labelLimit=120))
    half = max(frame["value"].max(), 1) / 2
    base = alt.Chart(frame).encode(x=x, y=y)
    cell_px = 34
    heat = base.mark_rect().encode(
        color=alt.Color("value:Q", title="LCS", scale=alt.Scale(scheme="blues")),
        tooltip=["reference", "candidate", "value", "on_path", "match"],
    )
    outline = base.transform_filter("datum.on_path").mark_rect(fill=None, stroke=PATH_COLOR, strokeWidth=2)
    line = base.transform_filter("datum.on_path").mark_line(color=PATH_COLOR, strokeWidth=1.5, opacity=0.4).encode(order="step:Q")
    dots = base.transform_filter("datum.match").mark_circle(color=PATH_COLOR, size=260, opacity=0.35)
    numbers = base.mark_text(fontSize=12).encode(
        text="value:Q",
        color=alt.condition(f"datum.value > {half}", alt.value("white"), alt.value("#222")),  # readable on dark cells
    )
    return alt.layer(heat, outline, line, dots, numbers).properties(
        title=title,
        width=alt.Step(cell_px),  # a fixed size per cell, so long texts grow the chart, not shrink cells
        height=alt.Step(cell_px),
        autosize="pad",  # the size comes from the cells; "fit" (the host's default) cannot apply
    )


def weight_curve_chart(rows: Sequence[dict], runs: Sequence[int] = ()) -> alt.LayerChart:
    """f(k) = k^w beside plain k; the run lengths found in the input are marked."""
    frame = pd.DataFrame(list(rows))
    lines = alt.Chart(frame).mark_line(point=True).encode(
        x=alt.X("k:Q", title="run length k"),
        y=alt.Y("value:Q", title="weight"),
        color=alt.Color("curve:N", title=None),
        tooltip=["curve", "k", alt.Tooltip("value:Q", format=".3f")],
    )
    layers = [lines]
    if runs:
        weighted = frame[(frame["curve"] != "k (plain LCS)") & frame["k"].isin(list(runs))]
        layers.append(
            alt.Chart(weighted).mark_point(size=160, shape="diamond", filled=True, color=PATH_COLOR).encode(
                x="k:Q", y="value:Q", tooltip=["k", alt.Tooltip("value:Q", format=".3f")]
            )
        )
    return alt.layer(*layers).properties(title="f(k) = k^w rewards consecutive matches", width=360, height=220)


def skip_growth_chart(rows: Sequence[dict], chosen: int | None = None) -> alt.LayerChart:
    """Skip-bigram counts on each side (and matches) as the allowed gap grows."""
    frame = pd.DataFrame(list(rows))
    lines = alt.Chart(frame).mark_line(point=True).encode(
        x=alt.X("distance:Q", title="maximum gap d", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("count:Q", title="count"),
        color=alt.Color("series:N", title=None),
        tooltip=["series", "distance", "count"],
    )
    layers = [lines]
    if chosen is not None:
        layers.append(alt.Chart(pd.DataFrame({"distance": [chosen]})).mark_rule(strokeDash=[4, 3], color="gray").encode(x="distance:Q"))
    return alt.layer(*layers).properties(title="How the number of skip-bigrams grows with the gap", width=360, height=220)


def multi_reference_chart(modes: Sequence[dict]) -> alt.Chart:
    """F of one method under each multi-reference mode."""
    frame = pd.DataFrame(list(modes))
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("F:Q", title="F", scale=alt.Scale(domain=[0, 1])),
            # every mode's full name beside its bar (Vega would hide overlapping or long labels)
            y=alt.Y("mode:N", sort=list(frame["mode"]), title=None, axis=alt.Axis(labelLimit=320, labelOverlap=False)),
            tooltip=["mode", alt.Tooltip("P:Q", format=".4f"), alt.Tooltip("R:Q", format=".4f"), alt.Tooltip("F:Q", format=".4f")],
        )
        .properties(title="Same input, five ways to combine references", width=360, height=30 * len(frame),
                    autosize="pad")  # the plot gets the size, the labels come beside it
    )
