"""Altair chart of a ranking of systems (rouge_core.corpus.SystemRanking): every pair's mean
difference with its interval, marked by whether the tests separate the two. No Streamlit."""

from __future__ import annotations

import altair as alt
import pandas as pd

from .corpus_charts import _titled


def pairwise_differences(pairs: pd.DataFrame, measure_label: str, signature: str = "") -> alt.LayerChart:
    """`pairs` is SystemRanking.pairs_frame(): one row per pair of systems, the higher-ranked first."""
    data = pairs.assign(pair=pairs["system_a"] + " − " + pairs["system_b"],
                        verdict=pairs["significant"].map({True: "significant", False: "not significant"}))
    order = list(data["pair"])
    colour = alt.Color("verdict:N", title=None, scale=alt.Scale(domain=["significant", "not significant"],
                                                                range=["#1f77b4", "#adb5bd"]))
    y = alt.Y("pair:N", sort=order, title=None, axis=alt.Axis(labelLimit=320))
    rules = alt.Chart(data).mark_rule(strokeWidth=3).encode(x="difference_low:Q", x2="difference_high:Q", y=y,
                                                            color=colour)
    points = alt.Chart(data).mark_point(filled=True, size=80).encode(
        x=alt.X("difference:Q", title=f"difference of mean {measure_label} (interval)"), y=y, color=colour,
        tooltip=["pair", alt.Tooltip("difference:Q", format=".4f"), alt.Tooltip("difference_low:Q", format=".4f"),
                 alt.Tooltip("difference_high:Q", format=".4f"), alt.Tooltip("effect_size:Q", format=".2f"),
                 alt.Tooltip("adjusted_p:Q", format=".4g")])
    zero = alt.Chart(pd.DataFrame({"x": [0.0]})).mark_rule(color="gray", strokeDash=[4, 4]).encode(x="x:Q")
    chart = (zero + rules + points).properties(height=alt.Step(28))  # a numeric height squeezes a band axis in Streamlit
    return _titled(chart, "Every pair of systems: difference with its interval", signature)
