"""The meta-evaluation and ranking charts (rouge_core.viz.meta_charts, ranking_charts)."""

import pandas as pd

from rouge_core.studies import meta
from rouge_core.viz import meta_charts, ranking_charts


def test_correlations_chart_keeps_the_table_order_and_a_band_height():
    rows = pd.DataFrame({"variant": ["b", "b", "a", "a"], "level": ["summary", "system"] * 2,
                         "value": [0.5, 0.9, 0.4, 0.8], "low": [0.3, 0.7, 0.2, 0.5], "high": [0.7, 1.0, 0.6, 1.0]})
    spec = meta_charts.correlations_chart(rows, "Kendall τ-b", "meta|sig").to_dict()
    assert spec["height"] == 2 * 2 * 11  # 11 px a band: 2 variants × 2 levels, plot only (fit-x)
    assert spec["autosize"] == {"type": "fit-x", "contains": "padding"}  # no "Dropping fit-y" from Vega
    rule, point = spec["layer"]
    assert point["encoding"]["y"]["sort"] == ["b", "a"] and point["encoding"]["x"]["scale"]["domain"] == [-1, 1]
    assert rule["encoding"]["x2"]["field"] == "high" and spec["title"]["subtitle"] == ["meta|sig"]
    ranked = meta_charts.correlations_chart(rows.assign(vs_best=[meta.BEST] * 2 + [meta.TIED] * 2), "Kendall τ-b",
                                            test="the paired bootstrap of the difference, α = 0.05").to_dict()
    shape = ranked["layer"][1]["encoding"]["shape"]
    assert shape["scale"] == {"domain": [meta.BEST, meta.TIED], "range": ["diamond", "circle"]}  # only those shown
    assert shape["title"] == ["against the best", "the paired bootstrap of the difference, α = 0.05"]
    without = meta_charts.correlations_chart(rows.drop(columns=["low", "high"]), "Pearson r").to_dict()
    assert "layer" in without and len(without["layer"]) == 1  # no interval rules without intervals


def test_metric_human_scatter_marks_each_system_mean():
    items = pd.DataFrame({"system": ["A", "A", "B"], "doc_id": ["d1", "d2", "d1"], "metric": [0.2, 0.4, 0.9],
                          "human": [1.0, 3.0, 5.0]})
    spec = meta_charts.metric_human_scatter(items, "rouge1").to_dict()
    datasets = list(spec["datasets"].values())
    means = next(d for d in datasets if len(d) == 2)
    assert {m["system"]: (round(m["metric"], 12), m["human"]) for m in means} == {"A": (0.3, 2.0), "B": (0.9, 5.0)}


def test_pairwise_differences_colour_by_the_declared_test_and_mark_disagreements():
    pairs = pd.DataFrame({"system_a": ["a", "a", "b"], "system_b": ["b", "c", "c"], "difference": [0.1, 0.2, 0.087],
                          "difference_low": [-0.05, 0.1, 0.030], "difference_high": [0.15, 0.3, 0.144],
                          "effect_size": [0.5, 1.0, 0.6], "adjusted_p": [0.3, 0.01, 0.18],
                          "verdict": ["not significant", "significant", "not significant"],
                          "other_test": ["", "", "the 95% bootstrap interval +0.0300 to +0.1440 excludes 0"],
                          "significant": [False, True, False]})
    spec = ranking_charts.pairwise_differences(pairs, "F", test="Colour: approximate randomization, Holm-adjusted "
                                                               "over 3 comparisons, α = 0.05",
                                               other="95% bootstrap interval").to_dict()
    assert spec["height"] == 3 * 28 and spec["autosize"]["type"] == "fit-x"
    data = next(d for d in spec["datasets"].values() if len(d) == 3 and "pair" in d[0])
    assert [(d["pair"], d["shown"]) for d in data] == [
        ("a − b", "not significant"), ("a − c", "significant"),
        ("b − c", "not significant, though the 95% bootstrap interval disagrees")]
    colour = spec["layer"][1]["encoding"]["color"]
    assert colour["title"] == ["Colour: approximate randomization, Holm-adjusted over 3", "comparisons, α = 0.05"]
    assert colour["scale"]["domain"] == ["significant", "not significant",
                                         "not significant, though the 95% bootstrap interval disagrees"]
    assert colour["scale"]["range"][2] not in colour["scale"]["range"][:2]  # a colour of its own
