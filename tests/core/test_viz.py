"""Render helpers without Streamlit: highlighting, tables and chart builders."""

from __future__ import annotations

import re

import altair as alt
import pytest

import rouge_core as rc
from rouge_core.teach import sweep
from rouge_core.viz import charts, highlight, tables

METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]


def _result(candidate="the cat sat on the mat", references=("the cat is on the mat",), options="rouge-score"):
    return rc.score(candidate, list(references), METHODS, options, evidence=True)


def _spans(markup: str, css_class: str) -> list[str]:
    return re.findall(rf'<span class="{css_class}"[^>]*>([^<]*)', markup)


def test_matched_unigrams_are_marked_on_the_original_text():
    r = _result("The Cat sat on the mat.", ["the cat is on the mat"])
    ev = r["rouge1"].per_reference[0].evidence
    cand = highlight.ngram_highlight_html(r.candidate, ev, "candidate")
    assert _spans(cand, "rl-matched") == ["The", "Cat", "on", "the", "mat"]  # case kept as typed
    assert "sat" in cand and "mat</span>." in cand  # unmatched word and punctuation stay, unmarked


def test_clipped_occurrences_are_marked_differently_with_counts_in_the_title():
    r = _result("the the the cat", ["the cat"])
    ev = r["rouge1"].per_reference[0].evidence
    cand = highlight.ngram_highlight_html(r.candidate, ev, "candidate")
    assert len(_spans(cand, "rl-matched")) == 2  # first "the" and "cat"
    assert len(_spans(cand, "rl-clipped")) == 2  # the 2nd and 3rd "the"
    assert "candidate 3×, reference 1×, matched 1" in cand
    assert "clipped" in cand


def test_bigram_highlight_covers_both_tokens():
    r = _result("a b c", ["a b d"])
    ev = r["rouge2"].per_reference[0].evidence
    marks = highlight.ngram_marks(ev, "reference")
    assert set(marks) == {0, 1}
    assert "“a b”" in marks[0].title


def test_injection_in_the_candidate_comes_out_escaped():
    attack = 'the <script>alert("x")</script> cat <img src=x onerror=alert(1)> "q" \'s\''
    r = _result(attack, ["the script alert x cat img"])
    ev = r["rouge1"].per_reference[0].evidence
    candidate_side = (
        highlight.ngram_highlight_html(r.candidate, ev, "candidate"),
        highlight.lcs_alignment_html(r.candidate, r.references[0], r["rougeL"].per_reference[0].evidence)[0],
        highlight.wlcs_runs_html(r.candidate, r.references[0], r["rougeW-1.2"].per_reference[0].evidence)[0],
    )
    for markup in candidate_side:
        assert "<script" not in markup and "<img" not in markup
        assert markup.count("&lt;") == 3 and "(1)&gt;" in markup  # <script>, </script>, <img ...>
        assert "&quot;q&quot;" in markup
    union = highlight.union_lcs_html(r.candidate, r.references[0], r["rougeLsum"].per_reference[0].evidence)
    assert "<script" not in union and "<img" not in union


def test_injection_in_titles_is_escaped():
    # whitespace tokens keep the quotes
    r = rc.score('x"><script>y', ['x"><script>y'], ["rouge1"], "matlab", evidence=True)
    markup = highlight.ngram_highlight_html(r.candidate, r["rouge1"].per_reference[0].evidence, "candidate")
    assert "<script" not in markup
    titles = re.findall(r'title="([^"]*)"', markup)
    assert titles and all("<" not in t for t in titles)


def test_lcs_pairs_are_numbered_alike_on_both_sides():
    r = _result("a b c d", ["a x c d"])
    cand_html, ref_html = highlight.lcs_alignment_html(r.candidate, r.references[0], r["rougeL"].per_reference[0].evidence)
    badges = lambda m: re.findall(r"<sup[^>]*>(\d+)</sup>", m)  # noqa: E731
    assert badges(cand_html) == badges(ref_html) == ["1", "2", "3"]


def test_union_lcs_blocks_per_reference_sentence():
    r = _result("the cat is on the mat\nit is cute", ["the dog is on the mat\nthe animal is cute\nthe pet sleeps well"])
    markup = highlight.union_lcs_html(r.candidate, r.references[0], r["rougeLsum"].per_reference[0].evidence)
    assert markup.count("Reference sentence") == 3
    assert "LCS with candidate sentence 2" in markup
    assert r["rougeLsum"].per_reference[0].stats.hits == 7


def test_union_lcs_of_long_texts_draws_a_bounded_view_and_says_what_it_left_out():
    """80 × 80 sentences made 15 MB of HTML (21 s to open the tab in the app)."""
    cand = "\n".join(f"a{i} b c d e" for i in range(40))
    ref = "\n".join(f"b c a{i} e" for i in range(45))
    r = _result(cand, [ref])
    evidence = r["rougeLsum"].per_reference[0].evidence
    markup = highlight.union_lcs_html(r.candidate, r.references[0], evidence, sentences_shown=10, alignments_shown=2)
    assert markup.count("Reference sentence") == 10
    assert "The first 10 of 45 reference sentences are drawn; the other 35 count the same way" in markup
    first = evidence.sentences[0]
    longest = max(len(p) for _, p in first.alignments)
    shown = re.findall(r"LCS with candidate sentence (\d+): (\d+) token", markup.split("Reference sentence 2")[0])
    assert len(shown) == 2 and all(int(n) == longest for _, n in shown)  # a0 b c … e: the longest LCS
    assert f"and the LCS with {len(first.alignments) - 2} more candidate sentence(s)" in markup
    everything = highlight.union_lcs_html(r.candidate, r.references[0], evidence, sentences_shown=100, alignments_shown=100)
    assert everything.count("Reference sentence") == 45 and "more candidate sentence" not in everything


def test_wlcs_runs_are_numbered():
    r = _result("the cat sat on the mat", ["the cat is on the mat"])
    ev = r["rougeW-1.2"].per_reference[0].evidence
    cand_html, ref_html = highlight.wlcs_runs_html(r.candidate, r.references[0], ev)
    assert "r1" in cand_html and "r2" in ref_html
    runs = tables.wlcs_runs_table(ev, r.references[0])
    assert runs["length k"].tolist() == [2, 3]


def test_scores_table_holds_the_library_values():
    r = _result()
    frame = tables.scores_table(r)
    assert frame["name"].tolist() == METHODS
    for _, row in frame.iterrows():
        assert row["F"] == pytest.approx(r[row["name"]].fmeasure)
        assert row["signature"] == r[row["name"]].signature


def test_per_reference_table_marks_the_winner():
    r = _result("the fast brown fox", ["the quick brown animal", "the quick brown fox"])
    frame = tables.per_reference_table(r)
    rouge1 = frame[frame["method"] == "ROUGE-1"]
    assert rouge1["chosen"].tolist() == [False, True]


def test_skipgram_table_lists_every_reference_gram_and_marks_su_unigrams():
    r = _result("a b c", ["a c b"])
    ev = r["rougeSU4"].per_reference[0].evidence
    frame = tables.skipgram_table(ev)
    assert set(frame["kind"]) == {"unigram (SU)", "skip-bigram"}
    assert (frame["in reference"] > 0).all()
    assert frame["matched"].sum() == r["rougeSU4"].per_reference[0].stats.hits
    with_candidate = tables.skipgram_table(ev, include_candidate_only=True)
    assert len(with_candidate) >= len(frame)


def test_ngram_table_counts():
    r = _result("the the cat", ["the cat"])
    frame = tables.ngram_table(r["rouge1"].per_reference[0].evidence)
    row = frame[frame["n-gram"] == "the"].iloc[0]
    assert (row["in candidate"], row["in reference"], row["matched"], row["clipped"]) == (2, 1, 1, 1)


def test_prf_bars_is_a_grouped_bar_chart():
    chart = charts.prf_bars(tables.scores_table(_result()))
    spec = chart.to_dict()
    assert isinstance(chart, alt.Chart)
    assert spec["mark"]["type"] == "bar" and "xOffset" in spec["encoding"]


def test_sweep_chart_marks_the_current_setting():
    frame = sweep.sweep_n("the cat sat", ["the cat is"], rc.profile("rouge-score"), current=3)
    spec = charts.sweep_chart(frame, "ROUGE-N against n").to_dict()
    assert len(spec["layer"]) == 3
    datasets = spec["datasets"].values()
    assert any(len(rows) == 1 and rows[0]["label"] == "3" for rows in datasets)


def test_profiles_chart_has_a_bar_per_profile():
    frame = sweep.compare_profiles("The cat sat.", ["the cat is"], ["rouge1"], current=rc.profile("reval"))
    spec = charts.profiles_chart(frame).to_dict()
    assert spec["encoding"]["xOffset"]["field"] == "profile"
    assert len(frame) == len(rc.PROFILES) + 1  # the profiles and "your settings"


def test_viz_never_imports_streamlit():
    import rouge_core.viz.charts as c
    import rouge_core.viz.highlight as h
    import rouge_core.viz.tables as t

    for module in (c, h, t, sweep):
        source = open(module.__file__, encoding="utf-8").read()
        assert "import streamlit" not in source


def test_long_texts_are_drawn_to_a_sentence_end_and_say_what_is_left_out():
    """Two 2,000-token texts made 5,000-11,000 marked elements (1-2 s in the browser)."""
    cand = "\n".join(f"a{i} b c d e." for i in range(40))  # 40 sentences of 5 tokens
    ref = "\n".join(f"b c a{i} e." for i in range(45))
    r = _result(cand, [ref])
    ngram = r["rouge1"].per_reference[0].evidence
    assert highlight.drawn_tokens(r.candidate, 52) == 50  # the end of sentence 10, not token 52
    assert highlight.drawn_tokens(r.candidate, 3) == 3  # a first sentence longer than the limit is cut inside
    assert highlight.drawn_tokens(r.candidate, 200) == highlight.drawn_tokens(r.candidate, None) == 200
    markup = highlight.ngram_highlight_html(r.candidate, ngram, "candidate", tokens_shown=52)
    assert '>e</span>.<div class="rl-left-out"' in markup and "a10" not in markup  # through the sentence's full stop
    assert _spans(markup, "rl-matched")[-4:] == ["a9", "b", "c", "e"]
    assert "the first 50 of 200 tokens are drawn; the other 150 are left out here and counted all the same" in markup
    whole = highlight.ngram_highlight_html(r.candidate, ngram, "candidate", tokens_shown=None)
    assert "rl-left-out" not in whole and ">a39</span>" in whole
    lcs_cand, lcs_ref = highlight.lcs_alignment_html(r.candidate, r.references[0], r["rougeL"].per_reference[0].evidence, 52)
    assert "the first 50 of 200 tokens" in lcs_cand and "the first 52 of 180 tokens" in lcs_ref  # 4-token sentences
    w_cand, w_ref = highlight.wlcs_runs_html(r.candidate, r.references[0], r["rougeW-1.2"].per_reference[0].evidence, 52)
    assert "the first 50 of 200 tokens" in w_cand and "the first 52 of 180 tokens" in w_ref
    short = _result()
    assert "rl-left-out" not in highlight.ngram_highlight_html(short.candidate, short["rouge1"].per_reference[0].evidence,
                                                               "candidate")


def test_the_whole_view_page_escapes_its_title_headings_and_signature():
    r = _result("the <b>cat</b>", ["the cat"])
    markup = highlight.ngram_highlight_html(r.candidate, r["rouge1"].per_reference[0].evidence, "candidate")
    page = highlight.page_html("view <i>", [("Candidate <u>", markup)], signature="sig <s>")
    assert page.startswith("<!doctype html>") and markup in page
    assert "<i>" not in page and "<u>" not in page and "<s>" not in page and "<b>" not in page
    assert "view &lt;i&gt;" in page and "Candidate &lt;u&gt;" in page and "sig &lt;s&gt;" in page
