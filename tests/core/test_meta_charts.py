"""The meta-evaluation and ranking charts (rouge_core.viz.meta_charts, ranking_charts)."""

import pandas as pd

from rouge_core.viz import meta_charts, ranking_charts


def test_correlations_chart_keeps_the_table_order_and_a_band_height():
    rows = pd.DataFrame({"variant": ["b", "b", "a", "a"], "level": ["summary", "system"] * 2,
                         "value": [0.5, 0.9, 0.4, 0.8], "low": [0.3, 0.7, 0.2, 0.5], "high": [0.7, 1.0, 0.6, 1.0]})
    spec = meta_charts.correlations_chart(rows, "Kendall τ-b", "meta|sig").to_dict()
    assert spec["height"] == {"step": 11}  # a numeric height squeezes a band axis in Streamlit 1.67
    rule, point = spec["layer"]
    assert point["encoding"]["y"]["sort"] == ["b", "a"] and point["encoding"]["x"]["scale"]["domain"] == [-1, 1]
    assert rule["encoding"]["x2"]["field"] == "high" and spec["title"]["subtitle"] == ["meta|sig"]
    without = meta_charts.correlations_chart(rows.drop(columns=["low", "high"]), "Pearson r").to_dict()
    assert "layer" in without and len(without["layer"]) == 1  # no interval rules without intervals


def test_metric_human_scatter_marks_each_system_mean():
    items = pd.DataFrame({"system": ["A", "A", "B"], "doc_id": ["d1", "d2", "d1"], "metric": [0.2, 0.4, 0.9],
                          "human": [1.0, 3.0, 5.0]})
    spec = meta_charts.metric_human_scatter(items, "rouge1").to_dict()
    datasets = list(spec["datasets"].values())
    means = next(d for d in datasets if len(d) == 2)
    assert {m["system"]: (round(m["metric"], 12), m["human"]) for m in means} == {"A": (0.3, 2.0), "B": (0.9, 5.0)}


def test_pairwise_differences_colour_significance():
    pairs = pd.DataFrame({"system_a": ["a", "a"], "system_b": ["b", "c"], "difference": [0.1, 0.2],
                          "difference_low": [-0.05, 0.1], "difference_high": [0.15, 0.3], "effect_size": [0.5, 1.0],
                          "adjusted_p": [0.3, 0.01], "significant": [False, True]})
    spec = ranking_charts.pairwise_differences(pairs, "F").to_dict()
    assert spec["height"] == {"step": 28}
    data = next(d for d in spec["datasets"].values() if len(d) == 2 and "pair" in d[0])
    assert [(d["pair"], d["verdict"]) for d in data] == [("a − b", "not significant"), ("a − c", "significant")]
