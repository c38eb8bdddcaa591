"""Issue 14 (numbers and costs): each reported input, exactly as reported."""

from __future__ import annotations

import math

import pytest

import rouge_core
from rouge_core.kernels import native
from rouge_core import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT, CostLimitError, score
from rouge_core.cli import main as rouge_lens
from rouge_core.compat import reval
from rouge_core.compat.matlab import rouge_evaluation_score
from rouge_core.compat.rouge155.cli import main as rouge155
from rouge_core.scorer.cost import DEFAULT_COST_LIMIT, estimate


# --- 8. ROUGE-W's weight -------------------------------------------------------------------

def test_rouge_w_below_one_is_refused_instead_of_scoring_2():
    with pytest.raises(ValueError, match=r"the ROUGE-W weight w must be a number from 1 to 5, got 0.5"):
        score("a b", ["a\nb"], ["rougeW-0.5"], "rouge-1.5.5")


def test_rouge_w_1000_is_refused_instead_of_overflowing():
    with pytest.raises(ValueError, match="from 1 to 5, got 1000"):
        score("a b c", ["a b c"], ["rougeW-1000"], "rouge-1.5.5")
    with pytest.raises(ValueError, match="from 1 to 5"):
        WLCS_WEIGHT.check(1000)  # the share link ?w=1000


def test_both_command_lines_refuse_w_1000(tmp_path, capsys):
    (tmp_path / "c.txt").write_text("a b c\n")
    assert rouge_lens(["-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "c.txt"), "-m", "rougeW-1000"]) == 2
    assert "the ROUGE-W weight w must be a number from 1 to 5, got 1000" in capsys.readouterr().err
    (tmp_path / "list").write_text(f"{tmp_path / 'c.txt'} {tmp_path / 'c.txt'}\n")
    assert rouge155(["-w", "1000", "-z", "SPL", str(tmp_path / "list")]) == 2
    assert "option -w: the ROUGE-W weight w must be a number from 1 to 5, got 1000" in capsys.readouterr().err


def test_rouge_w_one_float_step_above_one_is_clamped():
    m = score("a a a b b b", ["b b b"], ["rougeW-1.01"])["rougeW-1.01"]
    assert m.recall == 1.0 and m.precision < 1.0


def test_the_largest_weight_cannot_overflow_the_rouge155_reference_total():
    # f(Σ f(|r_i|)) = (Σ |r_i|^w)^w <= T^(w²): finite at w = 5 for T up to about 2·10^12 tokens
    assert math.isfinite(float(2 * 10**12) ** (WLCS_WEIGHT.maximum ** 2))
    text = " ".join(f"w{i % 50}" for i in range(4000))
    m = score(text, [text], ["rougeW-5"], "rouge-1.5.5")["rougeW-5"]
    assert m.stats.ref_total == (4000.0 ** 5) ** 5 and math.isfinite(m.stats.ref_total)
    assert m.precision == 1.0 and m.recall == 0.0  # (4000^5 / 4000^25)^(1/5) = 4000^-4, printed 0.00000


# --- 9. parameter ranges, defined once ---------------------------------------------------------

def test_link_values_that_are_valid_are_kept():
    assert NGRAM_N.check(100) == 100
    assert SKIP_DISTANCE.check(999999) == 999999 and SKIP_DISTANCE.check(None) is None
    assert WLCS_WEIGHT.check(1) == 1.0 and WLCS_WEIGHT.check("1.2" == "1.2" and 1.2) == 1.2


@pytest.mark.parametrize("parameter, value, message", [
    (NGRAM_N, 0, "n must be an integer from 1 to 1,000, got 0"),
    (NGRAM_N, 2.5, "n must be an integer from 1 to 1,000, got 2.5"),
    (NGRAM_N, "2", "n must be an integer from 1 to 1,000, got '2'"),
    (SKIP_DISTANCE, -1, "the skip distance d must be a non-negative integer, or unlimited, got -1"),
    (SKIP_DISTANCE, math.nan, "the skip distance d must be a non-negative integer, or unlimited, got nan"),
    (WLCS_WEIGHT, None, "the ROUGE-W weight w must be a number from 1 to 5, got None"),
    (WLCS_WEIGHT, True, "the ROUGE-W weight w must be a number from 1 to 5, got True"),
])
def test_out_of_range_values_name_the_parameter_and_its_range(parameter, value, message):
    with pytest.raises(ValueError) as info:
        parameter.check(value)
    assert str(info.value) == message
    assert not parameter.is_valid(value)


def test_method_names_use_the_same_ranges():
    assert rouge_core.parse_method("rouge100").n == 100
    assert rouge_core.parse_method("rougeS999999").distance == 999999
    for name in ("rouge1001", "rougeW-6", "rougeW-0.99"):
        with pytest.raises(ValueError, match=repr(name)):
            rouge_core.parse_method(name)
    with pytest.raises(ValueError, match="skip distance"):
        rouge_core.Method("S", distance=-3)


# --- 10. rougeLsum-best recall -----------------------------------------------------------------

def test_reval_keeps_its_unclipped_sum_as_a_named_quirk():
    m = score("a\na", ["a"], ["rougeLsum-best"], "reval")["rougeLsum-best"]
    assert (m.precision, m.recall) == (1.0, 2.0)  # what reval's ROUGELsum computes
    assert "|bestclip:no|" in m.signature
    assert reval.rougelsum([["a"], ["a"]], [["a"]]).recall == 2.0
    result = score("a\na", ["a"], ["rougeLsum-best", "rouge1"], "reval")
    assert list(result.above_one()) == ["rougeLsum-best"]
    assert result.above_one()["rougeLsum-best"].startswith("rougeLsum-best's score of 2.0000 is above 1")
    assert "named reval quirk" in result.above_one()["rougeLsum-best"]


@pytest.mark.parametrize("profile_name", ["rouge-score", "rouge-1.5.5", "matlab"])
def test_other_profiles_clip_the_reused_reference_tokens(profile_name):
    m = score("a\na", ["a"], ["rougeLsum-best"], profile_name)["rougeLsum-best"]
    assert (m.precision, m.recall) == (0.5, 1.0)
    assert "bestclip" not in m.signature
    assert score("a\na", ["a"], ["rougeLsum-best"], profile_name).above_one() == {}


def test_clipping_keeps_reval_s_documented_example():
    cand = "the cat is on the mat\nit is cute"
    ref = "the dog is on the mat\nthe animal is cute\nthe pet sleeps well"
    m = score(cand, [ref], ["rougeLsum-best"], "rouge-score", tokenizer="whitespace")["rougeLsum-best"]
    assert (m.precision, m.recall) == (7 / 9, 7 / 14)


# --- 12. API misuse --------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, fragment", [
    (lambda: score(["a", None], ["a"]), TypeError, "candidate: token 2 is None"),
    (lambda: score([["a", ["b"]]], [["a"]]), TypeError, "candidate: sentence 1, token 2 is a list"),
    (lambda: score("a", [["a", 3]]), TypeError, "reference 1: token 2 is a int"),
    (lambda: score("a", ["a"], limit_words=1.5), ValueError, "limit_words must be None or a non-negative integer"),
    (lambda: score("a", ["a"], limit_words=-1), ValueError, "limit_words"),
    (lambda: score("a", ["a"], round_pr=-1), ValueError, "round_pr must be None (no rounding) or an integer from 0 to 100"),
    (lambda: score("a", ["a"], alpha="x"), TypeError, "alpha"),
    (lambda: score("a", ["a"], lowercase="yes"), TypeError, "lowercase"),
    (lambda: score("a", None), TypeError, "references"),
    (lambda: score(3, ["a"]), TypeError, "candidate must be a string"),
    (lambda: score("a\ud800", ["a"]), ValueError, "candidate is not valid Unicode text: a lone surrogate U+D800"),
    (lambda: score("a", ["b", "\ud800"]), ValueError, "reference 2 is not valid Unicode text"),
    (lambda: rouge_evaluation_score("a b", ["a b"], "skip-bigrams", skip_distance="4"), TypeError, "SkipDistance"),
    (lambda: rouge_evaluation_score("a b", ["a b"], "skip-bigrams", skip_distance=math.nan), ValueError,
     "SkipDistance"),
])
def test_misuse_names_the_argument(call, error, fragment):
    with pytest.raises(error) as info:
        call()
    assert fragment in str(info.value)


def test_a_lone_surrogate_is_refused_under_every_profile():
    for profile_name in rouge_core.PROFILES:
        with pytest.raises(ValueError, match="candidate is not valid Unicode"):
            score("caf\udce9", ["cafe"], ["rouge1"], profile_name, limit_bytes=3 if profile_name == "rouge-1.5.5" else None)


def test_one_method_name_is_taken_as_a_list_of_one():
    assert list(score("a b", ["a b"], "rouge2").methods) == ["rouge2"]


# --- 13. cost bounds that match their promise -----------------------------------------------------

def test_just_under_the_old_skip_bigram_bound_is_now_refused_with_evidence():
    # 3,160 distinct tokens: 4,991,220 skip-bigrams a side, under the old 5,000,000 a text (54 s, 2.07 GB)
    text = " ".join(f"w{i}" for i in range(3160))
    with pytest.raises(CostLimitError) as info:
        score(text, [text], ["rougeS*"])
    assert info.value.estimate.count == 2 * 4_991_220 and info.value.alternative == "rougeS4"


def test_rouge_w_on_20000_tokens_is_refused_on_the_pure_path_and_rougelsum_admitted():
    # ROUGE-W's Python DP: 3.3 s and over 1 GB; rougeLsum's bit-parallel LCS: 0.9 s with its evidence
    words = [f"w{i % 997}" for i in range(20_000)]
    doc = rouge_core.pretokenized(words)
    with native.pure():
        assert not DEFAULT_COST_LIMIT.allows(estimate("rougeW-1.2", doc, [doc]))
        with pytest.raises(CostLimitError, match="rougeW-1.2"):
            score(words, [words], ["rougeW-1.2"])
        assert DEFAULT_COST_LIMIT.allows(estimate("rougeLsum", doc, [doc]))
        assert score(words, [words], ["rougeLsum"])["rougeLsum"].fmeasure == 1.0


@pytest.mark.skipif(not native.active(), reason="the compiled kernels' bounds")
def test_the_compiled_kernels_admit_them_within_the_same_bound():
    # issue 16: rougeLsum (with evidence) and ROUGE-W (without) on 20,000 tokens fit 2 s and 500 MB
    words = [f"w{i % 997}" for i in range(20_000)]
    doc = rouge_core.pretokenized(words)
    assert DEFAULT_COST_LIMIT.allows(estimate("rougeLsum", doc, [doc]))
    assert DEFAULT_COST_LIMIT.allows(estimate("rougeW-1.2", doc, [doc], evidence=False))
    assert DEFAULT_COST_LIMIT.allows(estimate("rougeW-1.2", doc, [doc]))  # its traceback: 0.15 s, 88 MB
    assert score(words, [words], ["rougeW-1.2"])["rougeW-1.2"].fmeasure == 1.0


def test_rouge155_n_4000_is_refused(tmp_path, capsys):
    (tmp_path / "c.spl").write_text("a b c\n")
    (tmp_path / "list").write_text(f"{tmp_path / 'c.spl'} {tmp_path / 'c.spl'}\n")
    assert rouge155(["-n", "4000", "-z", "SPL", str(tmp_path / "list")]) == 2
    assert "option -n: n must be an integer from 1 to 1,000 (0: no ROUGE-N), got 4000" in capsys.readouterr().err


def test_command_lines_name_their_flag(tmp_path, capsys):
    # 4,500 distinct words: well above the bound (3,000 measure 1.2 s and 767 MB, but are
    # estimated just inside it: see tests/core/test_guard_rails.py's DISTINCT_LONG)
    text = " ".join(f"w{i}" for i in range(4500))
    (tmp_path / "c.txt").write_text(text + "\n")
    assert rouge_lens(["-c", str(tmp_path / "c.txt"), "-r", str(tmp_path / "c.txt"), "-m", "rougeS*"]) == 2
    err = capsys.readouterr().err
    assert "pair 1: rougeS* would take" in err and "--no-cost-limit" in err and "cost_limit=" not in err
    (tmp_path / "c.spl").write_text(text + "\n")
    (tmp_path / "list").write_text(f"{tmp_path / 'c.spl'} {tmp_path / 'c.spl'}\n")
    assert rouge155(["-2", "-1", "-z", "SPL", str(tmp_path / "list")]) == 1
    err = capsys.readouterr().err
    assert "per document" in err and "--no-cost-limit" in err and "cost_limit=" not in err


# --- found by the long fuzz run (pytest -m fuzz) --------------------------------------------------

@pytest.mark.parametrize("w", [1.01, 1.2, 2.0, 3.7, 5.0])
def test_rouge_w_of_identical_texts_is_exactly_one(w):
    """The weighted hits are sums of float gains: 'mat mat mat the' at w = 3.7 summed to one step
    below f(4), and R = P = 0.9999999999999999 for identical texts."""
    for text in ("mat mat mat the", "a b c d e f g h i j k l", "x " * 300):
        m = score(text, [text], [f"rougeW-{w}"], "rouge-score")[f"rougeW-{w}"]
        assert (m.precision, m.recall, m.fmeasure) == (1.0, 1.0, 1.0)


def test_rouge_w_just_below_one_stays_below_one():
    m = score("a b c d e f g h i j k l", ["a b c d e f g h i j k l m"], ["rougeW-1.01"], "rouge-score")["rougeW-1.01"]
    assert m.precision == 1.0 and m.recall == pytest.approx(12 / 13, abs=1e-12) and m.recall < 1.0


def test_empty_sides_under_the_nan_rule_give_nan_f_also_with_printed_scores():
    """MATLAB's empty rule with ROUGE-1.5.5's printed P and R: F of two NaN ratios is NaN, not 0."""
    options = rouge_core.profile("rouge-1.5.5").replace(empty="nan", multi_ref="pooled")
    for refs in ([""], ["", ""]):
        m = score("", refs, ["rouge1"], options)["rouge1"]
        assert math.isnan(m.precision) and math.isnan(m.recall) and math.isnan(m.fmeasure)
