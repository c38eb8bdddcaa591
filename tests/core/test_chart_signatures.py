"""Issue 27, item 10: every chart that carries a signature shows it readably (at least 11 px,
in lines that fit a narrow chart), whichever module builds the chart."""

from __future__ import annotations

import pandas as pd
import pytest

from rouge_core.viz import charts, corpus_charts, meta_charts, ranking_charts

SIGNATURE = ("rouge1+rouge2+rougeL+rougeLsum+rougeW-1.2+rougeS4+rougeSU4|profile:rouge-score|tok:rouge-score|lc:yes|"
             "stem:none|sw:none|split:newline|refs:1|multi:best-f|alpha:0.5|v:0.1.0")
PER_PAIR = pd.DataFrame({"id": ["d1", "d2"], "rouge1_fmeasure": [0.5, 0.7], "rouge2_fmeasure": [0.2, 0.4]})
CHARTS = {
    "score_distributions": lambda: corpus_charts.score_distributions(PER_PAIR, ["rouge1", "rouge2"], signature=SIGNATURE),
    "means_with_intervals": lambda: corpus_charts.means_with_intervals(pd.DataFrame(
        {"method": ["rouge1"], "aggregate": ["macro"], "fmeasure": [0.5], "fmeasure_low": [0.4], "fmeasure_high": [0.6]}),
        signature=SIGNATURE),
    "method_scatter": lambda: corpus_charts.method_scatter(PER_PAIR, "rouge1", "rouge2", signature=SIGNATURE),
    "pair_differences": lambda: corpus_charts.pair_differences(pd.DataFrame({"id": ["d1"], "difference": [0.1]}), "A", "B",
                                                               signature=SIGNATURE),
    "verdicts_vs_difference": lambda: corpus_charts.verdicts_vs_difference(pd.DataFrame(
        {"verdict": ["A"], "difference": [0.1], "annotator": ["x"], "pair_id": ["d1"]}), signature=SIGNATURE),
    "correlations_chart": lambda: meta_charts.correlations_chart(pd.DataFrame(
        {"variant": ["a"], "level": ["summary"], "value": [0.5]}), "Pearson r", SIGNATURE),
    "metric_human_scatter": lambda: meta_charts.metric_human_scatter(pd.DataFrame(
        {"system": ["A"], "doc_id": ["d1"], "metric": [0.2], "human": [3.0]}), "rouge1", SIGNATURE),
    "pairwise_differences": lambda: ranking_charts.pairwise_differences(pd.DataFrame(
        {"system_a": ["a"], "system_b": ["b"], "difference": [0.1], "difference_low": [0.0], "difference_high": [0.2],
         "effect_size": [0.5], "adjusted_p": [0.3], "significant": [False]}), "F", SIGNATURE),
}


@pytest.mark.parametrize("name", CHARTS)
def test_a_chart_signature_is_readable_and_whole(name):
    title = CHARTS[name]().to_dict()["title"]
    assert title["subtitleFontSize"] >= 11
    lines = title["subtitle"]
    assert "".join(lines) == SIGNATURE  # nothing of it lost
    assert len(lines) > 1 and all(len(line) <= charts.SIGNATURE_LINE_CHARS + 1 for line in lines)


def test_signature_lines_break_after_a_separator():
    assert charts.signature_lines("") == []
    assert charts.signature_lines("rouge1|v:0.1.0") == ["rouge1|v:0.1.0"]
    assert charts.signature_lines("aaaa|bbbb|cccc", width=9) == ["aaaa|bbbb|", "cccc"]
    long_field = "x" * 80
    assert charts.signature_lines(f"a|{long_field}|b", width=10) == ["a|", long_field + "|", "b"]


def test_issue30_charts_carry_their_signature_readably():
    from rouge_core.viz import analysis_charts

    buckets = pd.DataFrame({"system": ["A", "B"], "bucket": ["<5", "<5"], "order": [0, 0], "value": [0.5, 0.4],
                            "low": [0.4, 0.3], "high": [0.6, 0.5], "count": [3, 3]})
    source = pd.DataFrame({"system": ["A"], "statistic": ["coverage"], "label": ["coverage"], "mean": [0.5],
                           "low": [0.4], "high": [0.6], "pairs": [3], "signature": ["s"]})
    ngrams = pd.DataFrame({"ngram": ["a b"], "difference": [2], "matched_a": [3], "matched_b": [1], "pairs_a": [2],
                           "pairs_b": [0], "p_value": [0.5], "adjusted_p": [1.0]})
    built = [analysis_charts.bucket_chart(buckets, "t", "F", SIGNATURE),
             analysis_charts.source_statistics_chart(source, SIGNATURE),
             analysis_charts.length_ratio_chart(pd.DataFrame({"system": ["A"], "ratio": [1.2]}), SIGNATURE),
             analysis_charts.ngram_difference_chart(ngrams, "A", "B", SIGNATURE),
             analysis_charts.origins_chart(pd.DataFrame({"origin": ["novel"], "words": [2]}), SIGNATURE)]
    for chart in built:
        title = chart.to_dict()["title"]
        assert "".join(title["subtitle"]) == SIGNATURE and title["subtitleFontSize"] >= 11
