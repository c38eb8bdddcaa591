"""Altair chart builders: each takes a pandas DataFrame and returns an Altair chart.

Altair is imported only here (inside rouge_core.viz), never by the scoring code.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

MEASURE_COLORS = alt.Scale(domain=["precision", "recall", "F"], range=["#4c78a8", "#f58518", "#54a24b"])
_SCORE_AXIS = alt.Axis(format=".2f", title="score")

# A chart's signature rides along as its subtitle, so a screenshot of the chart is reproducible:
# readable (the axis labels' size or larger) and broken into lines at its "|" separators, so a
# long signature fits a narrow chart instead of running past its edge.
SIGNATURE_FONT_SIZE = 12
SIGNATURE_LINE_CHARS = 60


def signature_lines(signature: str, width: int = SIGNATURE_LINE_CHARS) -> list[str]:
    """The signature in lines of at most `width` characters (and the "|" that ends them),
    broken after a "|" (a field longer than `width` gets a line of its own); joined they give
    the signature back."""
    lines: list[str] = []
    for field in signature.split("|"):
        if lines and len(lines[-1]) + 1 + len(field) <= width:
            lines[-1] += "|" + field
        else:
            if lines:
                lines[-1] += "|"
            lines.append(field)
    return lines if signature else []


def titled(chart, title: str, signature: str = ""):
    """`chart` with `title` and, below it, its signature as a readable subtitle."""
    return chart.properties(title=alt.TitleParams(title, subtitle=signature_lines(signature),
                                                  subtitleFontSize=SIGNATURE_FONT_SIZE, subtitlePadding=4))


def prf_bars(scores: pd.DataFrame, title: str = "P, R and F of every method") -> alt.Chart:
    """Grouped bars: one group per method, one bar per measure. `scores` has the columns
    method, P, R and F (as `tables.scores_table` gives)."""
    label_column = "short" if "short" in scores.columns else "method"
    long = scores.rename(columns={label_column: "label"}).melt(
        id_vars=["label"], value_vars=["P", "R", "F"], var_name="measure", value_name="score")
    long["measure"] = long["measure"].map({"P": "precision", "R": "recall", "F": "F"})
    order = list(dict.fromkeys(scores[label_column]))
    return (
        alt.Chart(long, title=title)
        .mark_bar()
        .encode(
            x=alt.X("label:N", sort=order, title=None, axis=alt.Axis(labelAngle=0, labelOverlap=False, labelLimit=160)),
            xOffset=alt.XOffset("measure:N", sort=["precision", "recall", "F"]),
            y=alt.Y("score:Q", scale=alt.Scale(domain=[0, 1]), axis=_SCORE_AXIS),
            color=alt.Color("measure:N", scale=MEASURE_COLORS, legend=alt.Legend(title=None, orient="top")),
            tooltip=[alt.Tooltip("label:N", title="method"), "measure", alt.Tooltip("score:Q", format=".4f")],
        )
        .properties(height=320)
    )


def sweep_chart(frame: pd.DataFrame, title: str, x_title: str | None = None) -> alt.LayerChart:
    """Score against a parameter (a `rouge_core.teach.sweep` frame), one line per series, with the
    current setting marked by a vertical rule."""
    order = list(dict.fromkeys(frame.sort_values("order")["label"]))
    if x_title is None:
        x_title = str(frame["parameter"].iloc[0]) if len(frame) else ""
    x = alt.X("label:O", sort=order, title=x_title, axis=alt.Axis(labelAngle=0, labelOverlap=False))
    series = list(dict.fromkeys(frame["series"]))
    # Measures keep the colours they have in the P/R/F chart; other series take a palette.
    scale = MEASURE_COLORS if set(series) <= {"precision", "recall", "F"} else alt.Scale(domain=series, scheme="category10")
    base = alt.Chart(frame, title=title)
    lines = base.mark_line(point=True).encode(
        x=x,
        y=alt.Y("score:Q", scale=alt.Scale(domain=[0, 1]), axis=_SCORE_AXIS),
        color=alt.Color("series:N", scale=scale, sort=series,
                        legend=alt.Legend(title=None, orient="top", columns=min(len(series), 4))),
        tooltip=["parameter", "label", "series", alt.Tooltip("score:Q", format=".4f")],
    )
    current = frame[frame["current"]].drop_duplicates("label")
    rule = alt.Chart(current).mark_rule(color="#e03131", strokeDash=[5, 3], size=2).encode(x=alt.X("label:O", sort=order))
    note = (
        alt.Chart(current)
        .mark_text(color="#e03131", align="left", dx=4, dy=-6, fontSize=11)
        .encode(x=alt.X("label:O", sort=order), y=alt.value(8), text=alt.value("your setting"))
    )
    return alt.layer(lines, rule, note).properties(height=260)


def profiles_chart(frame: pd.DataFrame, measure: str = "fmeasure") -> alt.Chart:
    """Grouped bars of one measure per method, one bar per tool profile (a
    `sweep.compare_profiles` frame)."""
    label = {"precision": "precision", "recall": "recall", "fmeasure": "F"}[measure]
    profiles = list(dict.fromkeys(frame["profile"]))
    methods = list(dict.fromkeys(frame["method"]))
    return (
        alt.Chart(frame, title=f"The same input under each tool's profile ({label})")
        .mark_bar()
        .encode(
            x=alt.X("method:N", sort=methods, title=None, axis=alt.Axis(labelAngle=0, labelOverlap=False)),
            xOffset=alt.XOffset("profile:N", sort=profiles),
            y=alt.Y(f"{measure}:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=".2f", title=label)),
            color=alt.Color("profile:N", sort=profiles, scale=alt.Scale(domain=profiles, scheme="tableau10"),
                            legend=alt.Legend(title="profile", orient="top")),
            tooltip=["profile", "method", "tokenizer", "multi_ref", alt.Tooltip(f"{measure}:Q", format=".4f")],
        )
        .properties(height=300)
    )
