"""lens_app.meta_ui: the variants' correlation table, its signature and the comparison in words."""

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app import meta_ui  # noqa: E402
from rouge_core import meta  # noqa: E402


def scored():
    human = {(s, f"d{d}"): float((s == "A") * 2 + d % 3) for s in ("A", "B", "C") for d in range(6)}
    good = {k: v / 5 for k, v in human.items()}
    wobble = {"A": (3, 1, 4, 1, 5, 9), "B": (2, 6, 5, 3, 5, 8), "C": (9, 7, 9, 3, 2, 3)}  # fixed noise
    noisy = {(s, d): (v + wobble[s][int(d[1:])]) / 10 for (s, d), v in human.items()}
    variant = meta.Variant("rouge-score", "none")
    return [meta_ui.VariantScores(variant, {"good": good, "noisy": noisy}, {"good": "sig-good", "noisy": "sig-noisy"})], human


def test_the_table_has_both_levels_per_variant_best_first():
    variants, human = scored()
    table = meta_ui.correlation_table(variants, human, "pearson", None, bootstrap=50, seed=1, confidence=90,
                                      resample="documents")
    assert list(table["method"])[0] == "good" and table.loc[0, "summary"] == 1.0
    noisy = table[table["method"] == "noisy"].iloc[0]
    want = meta.correlate(variants[0].scores["noisy"], human, "system", "pearson", bootstrap=50, seed=1, confidence=90)
    assert noisy["system"] == want.value and (noisy["system_low"], noisy["system_high"]) == (want.low, want.high)
    assert noisy["signature"] == "sig-noisy" and noisy["variant"] == "noisy · rouge-score, no stemming"
    summary = meta.correlate(variants[0].scores["noisy"], human, "summary", "pearson")
    assert (noisy["documents"], noisy["left_out"]) == (summary.averaged, len(summary.left_out))
    assert noisy["documents"] + noisy["left_out"] == 6 and (noisy["systems"], noisy["items"]) == (3, 18)
    long = meta_ui.chart_rows(table)
    assert len(long) == 4 and set(long["level"]) == {"summary", "system"}
    plain = meta_ui.correlation_table(variants, human, "kendall", "c", bootstrap=0, seed=0, confidence=95,
                                      resample="documents")
    assert "summary_low" not in plain.columns


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
    documents_only = meta_ui.correlation_seconds(16, 100, 56, 1000, "kendall", "documents")
    both = meta_ui.correlation_seconds(16, 100, 56, 1000, "kendall", "both")
    assert documents_only < meta_ui.ASK_ABOVE_SECONDS < both  # resampling systems too costs far more
    assert meta_ui.correlation_seconds(3, 25, 56, 1000, "kendall", "documents") < 0.5
    assert meta_ui.correlation_seconds(16, 100, 56, 1000, "pearson", "both") < both
