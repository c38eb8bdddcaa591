import pytest

from rouge_core import score
from rouge_core.skipgram import CostLimitError, MAX_SKIP_BIGRAMS, check_skip_cost, skip_bigram_limit, skip_stats


def test_unlimited_skip_bigrams_on_long_text_are_refused_with_the_estimate():
    text = " ".join(f"w{i % 40}" for i in range(3300))
    with pytest.raises(CostLimitError) as info:
        score(text, [text], ["rougeS*"])
    msg = str(info.value)
    assert "5,000,000" in msg and "5,443,350" in msg and "skip_bigram_limit" in msg
    assert isinstance(info.value, ValueError)
    assert info.value.estimate == 3300 * 3299 // 2 and info.value.bound == MAX_SKIP_BIGRAMS


def test_a_distance_keeps_long_texts_cheap_and_the_bound_can_be_lifted():
    text = " ".join(f"w{i % 40}" for i in range(3300))
    assert score(text, [text], ["rougeS4"])["rougeS4"].fmeasure == 1.0
    short = "a b c d e"
    with skip_bigram_limit(3):
        with pytest.raises(CostLimitError):
            score(short, [short], ["rougeSU*"])
    assert score(short, [short], ["rougeSU*"])["rougeSU*"].fmeasure == 1.0
    with pytest.raises(CostLimitError):
        skip_stats(short.split(), short.split(), None, max_skip_bigrams=5)
    assert check_skip_cost(3, None) == 3
