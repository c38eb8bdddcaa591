"""rouge_core.teach.disagree: differences between tools are attributed to the field that causes them."""

import pytest

import rouge_core
from rouge_core.teach import disagree

NON_ASCII = ("Le café était plein. Les élèves déjà partis.", ["Le cafe etait plein. Les eleves deja partis."])
IRREGULAR = ("The children went home and felt better.", ["The child goes home and feels well."])


@pytest.mark.parametrize("start,end", [("rouge-score", "MATLAB"), ("ROUGE-1.5.5", "reval"), ("rouge-score", "ROUGE-1.5.5 -m"), ("MATLAB", "rouge-score (use_stemmer)")])
@pytest.mark.parametrize("texts", [NON_ASCII, IRREGULAR])
def test_steps_add_up_to_the_whole_difference(start, end, texts):
    cand, refs = texts
    att = disagree.attribute(cand, refs, start, end)
    direct = disagree.scores_under(cand, refs, disagree.VARIANTS[end], disagree.COMPARE_METHODS)
    assert att.end_scores == direct
    for m in disagree.COMPARE_METHODS:
        total = sum(step.delta(m) for step in att.steps)
        assert total == pytest.approx(att.total_delta(m), abs=1e-12)
    for a, b in zip(att.steps, att.steps[1:]):
        assert a.scores_after == b.scores_before


def test_non_ascii_words_are_named_as_tokenization_with_their_tokens():
    cand, refs = NON_ASCII
    att = disagree.attribute(cand, refs, "rouge-score", "MATLAB")
    assert "tokenization" in att.causes
    step = next(s for s in att.steps if s.field == "tokenizer")
    diffs = {d.surface: (d.before, d.after) for d in step.token_diffs}
    assert diffs["café"] == (("caf",), ("café",))


def test_hyphens_and_decimals_show_their_tokens():
    diffs = disagree.token_diffs("state-of-the-art at 3.14", [], rouge_core.profile("rouge-score"), rouge_core.profile("matlab"))
    found = {d.surface: d for d in diffs}
    assert found["state-of-the-art"].before == ("state", "of", "the", "art")
    assert found["3.14"].before == ("3", "14") and found["3.14"].after == ("3.14",)


def test_irregular_verbs_are_named_as_stemming():
    cand, refs = IRREGULAR
    att = disagree.attribute(cand, refs, "rouge-score", "ROUGE-1.5.5 -m")
    assert "stemming" in att.causes
    step = next(s for s in att.steps if s.field == "stemmer")
    diffs = {d.surface: d.after for d in step.token_diffs}
    assert diffs["went"] == ("go",) and diffs["children"] == ("child",)
    stems = {d.surface: (d.before, d.after) for d in disagree.stemmer_diffs(cand, refs)}
    assert stems["better"] == (("better",), ("well",))


def test_rounding_is_named_when_only_the_fifth_decimal_differs():
    att = disagree.attribute("a b c", ["a b d e f g h"], "rouge-score", "ROUGE-1.5.5")
    assert att.causes == ["rounding"]
    assert next(s for s in att.steps if s.field == "round_pr").notes


def test_multi_reference_mode_is_named_with_the_chosen_reference():
    att = disagree.attribute("the cat sat", ["the cat", "a cat sat down on the mat"], "ROUGE-1.5.5", "rouge-score")
    assert "multi-reference mode" in att.causes
    step = next(s for s in att.steps if s.field == "multi_ref")
    assert any("summed" in note and "highest F" in note for note in step.notes)


def test_sentence_splitting_rougeL_vs_rougeLsum():
    out = disagree.lsum_vs_l("The cat sat. The dog ran.", ["The dog ran. The cat sat."], rouge_core.profile("rouge-score"))
    assert out["as set"]["equal"] and out["as set"]["sentences"]["candidate"] == 1
    assert not out["punctuation"]["equal"] and out["punctuation"]["sentences"]["candidate"] == 2


def test_side_by_side_has_a_column_per_tool():
    rows = disagree.side_by_side(*IRREGULAR)
    assert [r["method"] for r in rows] == list(disagree.COMPARE_METHODS)
    assert set(disagree.VARIANTS) <= set(rows[0])
    assert rows[0]["ROUGE-1.5.5 -m"] > rows[0]["rouge-score"]


@pytest.mark.parametrize("start,end", [("rouge-score", "MATLAB"), ("rouge-score", "ROUGE-1.5.5 -m"), ("ROUGE-1.5.5", "reval")])
@pytest.mark.parametrize("texts", [NON_ASCII, IRREGULAR])
def test_a_walk_without_details_has_the_same_steps_and_causes_but_no_word_diffs(start, end, texts):
    comparison = disagree.Comparison(*texts)
    brief = comparison.attribute(start, end, details=False)
    full = comparison.attribute(start, end)
    assert brief.causes == full.causes and brief.end_scores == full.end_scores
    assert [(s.field, s.scores_before, s.scores_after, s.notes) for s in brief.steps] == \
           [(s.field, s.scores_before, s.scores_after, s.notes) for s in full.steps]
    assert all(not s.token_diffs and not s.sentence_diffs for s in brief.steps)


def test_walks_and_token_diffs_are_kept_per_comparison():
    cand, refs = NON_ASCII
    comparison = disagree.Comparison(cand, refs)
    first = comparison.attribute("rouge-score", "MATLAB")
    assert comparison.attribute("rouge-score", "MATLAB") is first  # a rerun gets the walk back
    step = next(s for s in first.steps if s.field == "tokenizer")
    assert {d.surface for d in step.token_diffs} >= {"café", "élèves"}
    before, after = rouge_core.profile("rouge-score"), rouge_core.profile("matlab")
    kept = comparison.token_diffs(before, after)
    kept.clear()  # callers get a copy: clearing it leaves the kept diffs whole
    assert comparison.token_diffs(before, after) == disagree.token_diffs(cand, refs, before, after)
    assert comparison.token_diffs(before, after)
