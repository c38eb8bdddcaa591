"""Highlights on the right characters in Thai, Hindi, Chinese and Japanese: the scores of the
examples the app shows, and the marked spans of the evidence HTML (rouge_core.viz.highlight),
under the `unicode` tokenizer and the `multilingual` profile."""

from __future__ import annotations

import html
import re

import pytest

import rouge_core
from rouge_core.text import languages
from rouge_core.viz import highlight
from tests.extras import needs_pyonmttok

# (language, candidate, reference, matched surfaces in the candidate, rouge1 (P, R) per tokenizer):
# the examples rouge_core.text.languages.EXAMPLES gives the app
EXAMPLES = [(language, *languages.EXAMPLES[language], matched, numbers) for language, matched, numbers in (
    # XL-Sum's Thai segmenter keeps the space as a token (it counts in P under "multilingual")
    ("thai", ["ผม", "ชอบ", "หมา"], {"unicode": (3 / 5, 1.0), "multilingual": (3 / 6, 1.0)}),
    ("hindi", ["मुझे", "किताबें", "पसंद", "हैं"], {"unicode": (4 / 5, 4 / 5), "multilingual": (4 / 5, 4 / 5)}),
    ("chinese", ["我", "北京"], {"unicode": (2 / 4, 2 / 3), "multilingual": (2 / 4, 2 / 3)}),
    ("japanese", ["東京", "に", "住ん", "で"], {"unicode": (4 / 7, 4 / 5), "multilingual": (4 / 7, 4 / 5)}),
)]


def _marked(markup: str, css_class: str = "rl-matched") -> list[str]:
    return [html.unescape(s) for s in re.findall(rf'<span class="{css_class}"[^>]*>([^<]*)', markup)]


@pytest.mark.parametrize("language, cand, ref, matched, numbers", EXAMPLES, ids=[e[0] for e in EXAMPLES])
@pytest.mark.parametrize("tokenizer", ["unicode", pytest.param("multilingual", marks=needs_pyonmttok)])
def test_matched_words_are_marked_on_the_characters_typed(language, cand, ref, matched, numbers, tokenizer):
    if tokenizer == "unicode":
        options = rouge_core.profile("rouge-score", tokenizer="unicode")
    else:  # Hindi has no XL-Sum segmenter: its default tokenizer finds the same words
        options = rouge_core.profile("multilingual", language=language)
    result = rouge_core.score(cand, [ref], ["rouge1", "rougeL"], options, evidence=True)
    evidence = result["rouge1"].per_reference[0].evidence
    markup = highlight.ngram_highlight_html(result.candidate, evidence, "candidate")
    assert _marked(markup) == matched
    # every mark sits exactly on its token's characters in the text as typed
    for token in result.candidate.tokens:
        assert cand[token.start:token.end] == token.term
    # the text around the marks is the text as typed: nothing lost, nothing added
    assert html.unescape(re.sub(r"<[^>]+>", "", markup)) == cand
    assert (result["rouge1"].precision, result["rouge1"].recall) == pytest.approx(numbers[tokenizer])
    # the LCS pairs are drawn on the same characters on both sides
    lcs = result["rougeL"].per_reference[0].evidence
    cand_html, ref_html = highlight.lcs_alignment_html(result.candidate, result.references[0], lcs)
    assert _marked(cand_html, "rl-pair") == [cand[result.candidate.tokens[c].start:result.candidate.tokens[c].end]
                                             for c, _ in lcs.pairs]
    assert _marked(ref_html, "rl-pair") == _marked(cand_html, "rl-pair")
    assert len(lcs.pairs) >= 2


def test_reference_side_marks_its_own_characters():
    result = rouge_core.score("東京都に住んでいます。", ["東京に住んでいる。"], ["rouge1"], "rouge-score", tokenizer="unicode",
                              evidence=True)
    evidence = result["rouge1"].per_reference[0].evidence
    markup = highlight.ngram_highlight_html(result.references[0], evidence, "reference")
    assert _marked(markup) == ["東京", "に", "住ん", "で"]
    assert html.unescape(re.sub(r"<[^>]+>", "", markup)) == "東京に住んでいる。"


def test_nfd_text_is_marked_on_its_own_decomposed_characters():
    cand = "cafe\u0301 au lait"
    result = rouge_core.score(cand, ["café noir"], ["rouge1"], "rouge-score", tokenizer="unicode", evidence=True)
    markup = highlight.ngram_highlight_html(result.candidate, result["rouge1"].per_reference[0].evidence, "candidate")
    assert _marked(markup) == ["cafe\u0301"]


def test_thai_space_tokens_of_xlsum_mark_the_gap_they_stand_for():
    # XL-Sum's Thai segmenter returns the joining spaces as tokens, and XL-Sum counts them
    result = rouge_core.score("ผมชอบ, กินข้าว", ["ผมชอบ กินข้าว"], ["rouge1"], "multilingual", language="thai")
    assert result.candidate.terms == ["ผม", "ชอบ", " ", "กินข้าว"]
    space = result.candidate.tokens[2]
    assert "ผมชอบ, กินข้าว"[space.start:space.end] == ", "
    assert result["rouge1"].fmeasure == 1.0


@needs_pyonmttok
@pytest.mark.parametrize("language", list(languages.EXAMPLES))
def test_every_token_is_marked_on_its_characters(language):
    cand, _ = languages.EXAMPLES[language]
    doc = rouge_core.score(cand, [cand], ["rouge1"], "multilingual", language=language).candidate
    markup = highlight.tokens_html(doc)
    assert _marked(markup, "rl-token") == [cand[t.start:t.end] for t in doc.tokens]
    assert html.unescape(re.sub(r"<[^>]+>", "", markup)) == cand
    # neighbouring tokens alternate tints, so unspaced words show where each ends
    styles = re.findall(r'<span class="rl-token" style="([^"]*)"', markup)
    assert all(a != b for a, b in zip(styles, styles[1:]))


def test_a_token_limit_draws_the_text_up_to_the_last_token_shown():
    doc = rouge_core.score("a <b> c d", ["a"], ["rouge1"], "rouge-score", tokenizer="whitespace").candidate
    markup = highlight.tokens_html(doc, limit=2)
    assert _marked(markup, "rl-token") == ["a", "<b>"]
    assert html.unescape(re.sub(r"<[^>]+>", "", markup)) == "a <b>…"
    assert "&lt;b&gt;" in markup and "<b>" not in markup
    empty = rouge_core.score("!!", ["a"], ["rouge1"], "rouge-score").candidate
    assert html.unescape(re.sub(r"<[^>]+>", "", highlight.tokens_html(empty, limit=5))) == "!!"
