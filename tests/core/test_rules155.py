"""ROUGE-1.5.5's rules (rouge_core.scorer.rules155), and the profile and the drop-in keeping them alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from rouge_core import Stats, profile, score
from rouge_core.scorer.basic_elements import BasicElementMethod
from rouge_core.compat.rouge155 import evaluate
from rouge_core.families.methods import parse_method
from rouge_core.scorer.rules155 import printed, printed_score, report_methods, selection_value

DATA = str(Path(__file__).resolve().parents[2] / "rouge_core" / "data")


def test_printed_is_the_script_s_percent_7_5f():
    assert printed(0.123456) == 0.12346
    assert printed(2 / 3) == 0.66667
    assert printed(0.5, 2) == 0.5


@pytest.mark.parametrize("precision, recall, alpha, want", [
    # F from the printed P and R, then printed: not F of the exact values, printed
    (0.123456, 0.654321, 0.5, (0.12346, 0.65432, 0.20773)),  # exact values give 0.20772
    (0.333335, 0.666665, 0.5, (0.33333, 0.66666, 0.44444)),  # exact values give 0.44445
    (0.000014, 0.5, 0.5, (0.00001, 0.5, 0.00002)),            # exact values give 0.00003
    (0.25, 0.75, 0.2, (0.25, 0.75, 0.53571)),                 # 0.1875 / (0.8 · 0.25 + 0.2 · 0.75)
    (0.0, 0.0, 0.5, (0.0, 0.0, 0.0)),
])
def test_printed_score(precision, recall, alpha, want):
    got = printed_score(precision, recall, alpha)
    assert (got.precision, got.recall, got.fmeasure) == want


def test_selection_value_per_routine():
    three_of_seven = Stats(3, 5, 7)
    # N, S, SU, BE: the recall as printed; L: unrounded
    for name in ("rouge2", "rougeS4", "rougeSU*"):
        assert selection_value(parse_method(name), three_of_seven) == 0.42857
    assert selection_value(BasicElementMethod("HM"), three_of_seven) == 0.42857
    assert selection_value(parse_method("rougeLsum"), three_of_seven) == 3 / 7
    assert selection_value(parse_method("rouge1"), Stats(0, 4, 0)) == 0.0  # a model without units
    assert selection_value(parse_method("rougeLsum"), Stats(0, 4, 0)) == 0.0


def test_selection_value_of_rouge_w_reads_the_raw_base():
    # one 10-word sentence matched whole: hits = f(10) = Σ f(|r_i|), so the script compares 1.0;
    # rebuilt from the weighted total, f(10) ** 1.2 ** (1 / 1.2) is one step off: 0.9999999999999999
    w = 1.2
    base = 10**w
    stats = Stats(base, base, base**w, 1 / w, base)
    method = parse_method("rougeW-1.2")
    assert selection_value(method, stats) == 1.0
    rebuilt = Stats(base, base, base**w, 1 / w)  # statistics made without their base
    assert selection_value(method, rebuilt) == 0.9999999999999999


def test_stats_add_their_raw_base():
    a, b = Stats(1.0, 2.0, 4.0, 0.5, 2.0), Stats(1.0, 2.0, 9.0, 0.5, 3.0)
    assert (a + b) == Stats(2.0, 4.0, 13.0, 0.5, 5.0)
    assert (a + Stats(1.0, 2.0, 9.0, 0.5)).ref_base is None  # no base on one side: none in the sum


def names(methods) -> list[str]:
    return [m.name for m in methods]


def test_report_methods_in_print_order():
    assert names(report_methods(2, weight=1.2, skip_distance=4, skip_unigrams_and_plain=True)) == [
        "rouge1", "rouge2", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
    # -u wins over -U; a negative -2 is unlimited; -x drops ROUGE-L
    assert names(report_methods(0, lcs=False, skip_distance=-1, skip_unigrams=True,
                                skip_unigrams_and_plain=True)) == ["rougeSU*"]
    assert names(report_methods(1, skip_distance=0)) == ["rouge1", "rougeLsum", "rougeS0"]
    assert names(report_methods(0, lcs=False, basic_elements="HMR1")) == ["rougeBE-HMR1"]
    assert names(report_methods(0)) == ["rougeLsum"]


PEER = "a b c d e f g h i j"
TIED_MODELS = ["a b c d e f g h i j", "a b c d"]  # both matched whole: the script compares 1.0 twice


def test_rouge_w_near_tie_keeps_the_first_model_in_the_profile():
    # Σ f(|r_i|) rebuilt from the weighted total made the first model's value 0.9999999999999999
    # and kept the second (P 0.4); the raw base keeps the first, as the script does (P 1.0).
    got = score(PEER, TIED_MODELS, ["rougeW-1.2"], profile("rouge-1.5.5", multi_ref="best-recall"))["rougeW-1.2"]
    assert got.chosen == 0
    assert (got.score.precision, got.score.recall, got.score.fmeasure) == (1.0, 0.63096, 0.77373)


def test_rouge_w_near_tie_keeps_the_first_model_in_the_drop_in():
    report = evaluate(PEER, TIED_MODELS, "-x -w 1.2 -f B", e=DATA, r=10)
    (doc,) = report.get("ROUGE-W-1.2").documents
    assert (doc.recall, doc.precision, doc.f) == (0.63096, 1.0, 0.77373)
    assert doc.peer_count == doc.hit_count == 10**1.2  # the first model's counts
