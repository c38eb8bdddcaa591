"""lens_app.meta_ui: the variants' correlation table, its signature and the comparison in words."""

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app import meta_ui  # noqa: E402
from rouge_core.scorer import cost  # noqa: E402
from rouge_core.studies import meta  # noqa: E402


def scored():
    human = {(s, f"d{d}"): float((s == "A") * 2 + d % 3) for s in ("A", "B", "C") for d in range(6)}
    good = {k: v / 5 for k, v in human.items()}
    wobble = {"A": (3, 1, 4, 1, 5, 9), "B": (2, 6, 5, 3, 5, 8), "C": (9, 7, 9, 3, 2, 3)}  # fixed noise
    noisy = {(s, d): (v + wobble[s][int(d[1:])]) / 10 for (s, d), v in human.items()}  # one tie: d3 all 0.3
    shift = {"A": (1, 0, 2, 1, 0, 1), "B": (2, 1, 0, 0, 2, 2), "C": (0, 2, 1, 2, 1, 0)}  # no document tied
    shaky = {(s, d): (v + shift[s][int(d[1:])]) / 10 for (s, d), v in human.items()}
    variant = meta.Variant("rouge-score", "none")
    return [meta_ui.VariantScores(variant, {"good": good, "noisy": noisy, "shaky": shaky},
                                  {"good": "sig-good", "noisy": "sig-noisy", "shaky": "sig-shaky"})], human


def test_the_table_ranks_the_variants_on_the_same_documents_best_first_with_both_levels():
    variants, human = scored()
    scores = variants[0].scores
    table, ranking = meta_ui.correlation_table(variants, human, "pearson", None, bootstrap=50, seed=1, confidence=90,
                                               resample="documents")
    assert list(table["method"]) == ["good", "shaky", "noisy"] and table.loc[0, "summary"] == 1.0
    assert ranking.best.name == "good · rouge-score, no stemming" and list(table["rank"])[:2] == [1, 2]
    shaky = table[table["method"] == "shaky"].iloc[0]
    want = meta.correlate(scores["shaky"], human, "system", "pearson", bootstrap=50, seed=1, confidence=90)
    assert shaky["system"] == want.value and (shaky["system_low"], shaky["system_high"]) == (want.low, want.high)
    assert shaky["signature"] == "sig-shaky" and shaky["variant"] == "shaky · rouge-score, no stemming"
    summary = meta.correlate(scores["shaky"], human, "summary", "pearson", bootstrap=50, seed=1, confidence=90)
    assert (shaky["summary"], shaky["summary_low"], shaky["summary_high"]) == (summary.value, summary.low, summary.high)
    assert (shaky["documents_used"], shaky["documents_judged"], shaky["coverage"]) == (6, 6, "6 / 6")
    assert (shaky["systems"], shaky["items"], shaky["missing"], shaky["why_missing"]) == (3, 18, 0, "")
    test = meta.bootstrap_difference(scores["good"], scores["shaky"], human, "summary", "pearson", resamples=50, seed=1,
                                     confidence=90)
    assert (shaky["best_minus_this"], shaky["p_value"], shaky["adjusted_p"]) == (test.difference, test.p_value,
                                                                                 test.p_value)  # one comparison
    assert shaky["vs_best"] == (meta.TIED if test.p_value >= 0.1 else meta.WORSE)  # α = 1 − 90 %
    # noisy gives every system the same score on d3: computed on 5 of the 6 documents, so not ranked
    noisy = table[table["method"] == "noisy"].iloc[0]
    assert noisy["vs_best"] == meta.APART and math.isnan(noisy["rank"]) and noisy["coverage"] == "5 / 6"
    assert noisy["why_missing"] == "1 document where it gives every system the same score (the correlation there is undefined)"
    assert math.isnan(noisy["p_value"]) and noisy["summary"] == meta.correlate(scores["noisy"], human).value
    assert list(meta_ui.ranked_rows(table)["method"]) == ["good", "shaky"]
    assert list(meta_ui.apart_rows(table)["method"]) == ["noisy"]
    long = meta_ui.chart_rows(table)
    assert len(long) == 6 and set(long["level"]) == {"summary", "system"}
    plain, _ = meta_ui.correlation_table(variants, human, "kendall", "c", bootstrap=0, seed=0, confidence=95,
                                         resample="documents")
    assert "summary_low" not in plain.columns and "p_value" not in plain.columns
    assert list(plain["vs_best"]) == [meta.BEST, meta.UNTESTED, meta.APART]


def test_the_signature_says_what_was_correlated_and_how():
    signature = meta_ui.signature("abcd", "this app's judgements", "Overall quality", 2, "Kendall τ-b", 1000, 7, 95,
                                  "both", "fmeasure")
    assert signature.startswith("meta|corpus:abcd|human:this app's judgements|aspect:Overall quality|annotators:2|"
                                "coefficient:Kendall τ-b|measure:fmeasure|resamples:1000|seed:7|confidence:95|"
                                "resample:both|v:")
    assert "|resamples:0|" in meta_ui.signature("abcd", "f.csv", "", 1, "Pearson r", 0, 0, 95, "documents", "recall")


def test_two_variants_in_words():
    variants, human = scored()
    tests = meta.compare_correlations(variants[0].scores["good"], variants[0].scores["noisy"], human, "summary",
                                      resamples=200)
    words = meta_ui.difference_in_words("good", "noisy", "summary", "Pearson r", tests)
    assert words.startswith("At the summary level, good agrees better with the humans than noisy: Pearson r 1.0000 "
                            "against ")
    assert "95% interval of the difference good − noisy" in words
    assert not math.isnan(tests[0].p_value)
    same = meta.compare_correlations(variants[0].scores["good"], variants[0].scores["good"], human, "summary",
                                     resamples=20)
    assert "have the same Pearson r" in meta_ui.difference_in_words("good", "good too", "summary", "Pearson r", same)
    assert "No test finds the difference significant" in meta_ui.difference_in_words("good", "good too", "summary",
                                                                                     "Pearson r", same)


def test_the_correlation_estimate_grows_with_what_is_resampled():
    # at study size (16 systems x 100 documents, 56 variants): resampling documents at the summary
    # level reuses each document's coefficient; resampling systems recomputes every one
    documents_only = meta_ui.correlation_estimate(16, 100, 56, 1000, "kendall", "summary", "documents")
    both = meta_ui.correlation_estimate(16, 100, 56, 1000, "kendall", "summary", "both")
    assert documents_only.seconds < both.seconds
    assert meta_ui.correlation_estimate(3, 25, 56, 1000, "kendall", "summary", "documents").seconds \
        < documents_only.seconds
    assert meta_ui.correlation_estimate(16, 100, 56, 1000, "pearson", "summary", "both").seconds < both.seconds
    # the table is the ranking at one level and every variant at the other
    one_level = cost.correlation_estimate(16, 100, 56, 1000, "kendall", "summary", "documents")
    other = cost.correlation_estimate(16, 100, 56, 1000, "kendall", "system", "documents")
    assert math.isclose(documents_only.seconds, one_level.seconds + other.seconds)
