"""Altair chart of a ranking of systems (rouge_core.corpora.corpus.SystemRanking): every pair's mean
difference with its interval, coloured by the ranking's declared test, and marked where the
other test disagrees. No Streamlit."""

from __future__ import annotations

import textwrap

import altair as alt
import pandas as pd

from .corpus_charts import _titled, band_rows

SIGNIFICANT, NOT_SIGNIFICANT = "significant", "not significant"
COLOURS = {SIGNIFICANT: "#1f77b4", NOT_SIGNIFICANT: "#adb5bd"}
DISAGREEING = {SIGNIFICANT: "#6f42c1", NOT_SIGNIFICANT: "#e8890c"}  # where the other test says otherwise


def pairwise_differences(pairs: pd.DataFrame, measure_label: str, signature: str = "", test: str = "",
                         other: str = "bootstrap interval") -> alt.LayerChart:
    """`pairs` is SystemRanking.pairs_frame(): one row per pair of systems, the higher-ranked
    first, with the declared test's `verdict` and, where the other test disagrees, `other_test`.
    The legend's title names the declared test (`test`); a pair the `other` test judges
    otherwise gets its own colour, so an interval excluding 0 drawn as "not significant" says why."""
    disagree = pairs["other_test"].fillna("").astype(bool) if "other_test" in pairs else pd.Series(False, pairs.index)
    verdicts = pairs["verdict"] if "verdict" in pairs else pairs["significant"].map({True: SIGNIFICANT,
                                                                                    False: NOT_SIGNIFICANT})
    labels = [f"{v}, though the {other} disagrees" if d else v for v, d in zip(verdicts, disagree)]
    data = pairs.assign(pair=pairs["system_a"] + " − " + pairs["system_b"], shown=labels)
    domain, colours = [SIGNIFICANT, NOT_SIGNIFICANT], [COLOURS[SIGNIFICANT], COLOURS[NOT_SIGNIFICANT]]
    for verdict in (SIGNIFICANT, NOT_SIGNIFICANT):
        label = f"{verdict}, though the {other} disagrees"
        if label in labels:
            domain.append(label)
            colours.append(DISAGREEING[verdict])
    order = list(data["pair"])
    title = textwrap.wrap(test, 60) if test else None
    colour = alt.Color("shown:N", title=title, scale=alt.Scale(domain=domain, range=colours),
                       legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500, titleLimit=600))
    y = alt.Y("pair:N", sort=order, title=None, axis=alt.Axis(labelLimit=320))
    rules = alt.Chart(data).mark_rule(strokeWidth=3).encode(x="difference_low:Q", x2="difference_high:Q", y=y,
                                                            color=colour)
    tooltip = ["pair", alt.Tooltip("shown:N", title="verdict"), alt.Tooltip("difference:Q", format=".4f"),
               alt.Tooltip("difference_low:Q", format=".4f"), alt.Tooltip("difference_high:Q", format=".4f"),
               alt.Tooltip("effect_size:Q", format=".2f"), alt.Tooltip("adjusted_p:Q", format=".4g")]
    if "other_test" in data:
        tooltip.append(alt.Tooltip("other_test:N", title="other test"))
    points = alt.Chart(data).mark_point(filled=True, size=80).encode(
        x=alt.X("difference:Q", title=f"difference of mean {measure_label} (interval)"), y=y, color=colour,
        tooltip=tooltip)
    zero = alt.Chart(pd.DataFrame({"x": [0.0]})).mark_rule(color="gray", strokeDash=[4, 4]).encode(x="x:Q")
    chart = band_rows(zero + rules + points, len(order), 28)
    return _titled(chart, "Every pair of systems: difference with its interval", signature)
