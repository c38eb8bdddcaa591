"""Issue 17 in a real Chromium: the Thai, Hindi, Chinese and Japanese examples load the
multilingual profile with their language, score rouge_core's numbers, and mark the matched
words on exactly the characters typed (offsets measured in the page's own text); the Learn
page shows how the tokenizer cut the Japanese text. Screenshots go to test-artifacts/
(languages-e2e-<language>.png, languages-e2e-learn-tokens.png)."""

from __future__ import annotations

import pytest
from lens_app.devserver import text_box
from playwright.sync_api import expect

import rouge_core as rc
from rouge_core.text import languages
from rouge_core.viz import highlight

pytestmark = pytest.mark.e2e

# The words each example's candidate shares with its reference, read by a speaker
# (rouge_core's own highlight tests check the same: tests/core/test_multilingual_highlight.py).
MATCHED = {
    "thai": ["ผม", "ชอบ", "หมา"],
    "hindi": ["मुझे", "किताबें", "पसंद", "हैं"],
    "chinese": ["我", "北京"],
    "japanese": ["東京", "に", "住ん", "で"],
}

# [start, end) of every element of `css_class` inside a text box, counted in the box's own
# text as the browser holds it (badges left out): where on the typed text each mark sits.
MARKED_SPANS_JS = """(box, cssClass) => {
  const spans = []; let pos = 0;
  const walk = node => { for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) { pos += child.textContent.length; continue; }
    if (child.tagName === 'SUP') continue;
    const start = pos; walk(child);
    if (child.classList && child.classList.contains(cssClass)) spans.push([start, pos]); } };
  walk(box); return spans; }"""


def _wait_idle(page) -> None:
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000)


def _marked_spans(box, css_class: str) -> list[list[int]]:
    return box.evaluate(MARKED_SPANS_JS, css_class)


@pytest.mark.parametrize("language", list(MATCHED))
def test_a_language_example_is_scored_and_marked_on_the_right_characters(app_url, browser_page, artifacts_dir,
                                                                         language):
    page = browser_page
    page.goto(app_url)
    candidate, reference = languages.EXAMPLES[language]
    options = rc.profile("multilingual", language=language)
    result = rc.score(candidate, [reference], ["rouge1"], options, evidence=True)
    evidence = result["rouge1"].per_reference[0].evidence

    page.get_by_role("button", name=languages.display_name(language), exact=True).click()
    expect(text_box(page, "Candidate (the summary to score)")).to_have_value(candidate)
    expect(text_box(page, "Reference (a human summary)")).to_have_value(reference)
    metric = page.locator("[data-testid='stMetric']").filter(has_text="ROUGE-1 F")
    metric.get_by_text(f"{result['rouge1'].fmeasure:.4f}").wait_for()
    sidebar = page.locator("[data-testid='stSidebar']")
    expect(sidebar.get_by_role("combobox", name="Profile")).to_have_value("multilingual")
    expect(sidebar.get_by_role("combobox", name="Language")).to_have_value(languages.label(language))

    for side, text, doc in (("candidate", candidate, result.candidate), ("reference", reference, result.references[0])):
        box = page.locator("div.rl-text").filter(has_text=text).first
        marked = sorted(highlight.ngram_marks(evidence, side))
        expect(box.locator("span.rl-matched")).to_have_count(len(marked))
        assert box.text_content() == text  # the text as typed, nothing lost or added around the marks
        spans = _marked_spans(box, "rl-matched")
        assert spans == [[doc.tokens[i].start, doc.tokens[i].end] for i in marked]
        assert [text[start:end] for start, end in spans] == MATCHED[language]
    _wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    page.locator("div.rl-text").filter(has_text=candidate).first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / f"languages-e2e-{language}.png"))


def test_the_learn_page_shows_how_the_japanese_example_is_cut(app_url, browser_page, artifacts_dir):
    page = browser_page
    page.goto(app_url)
    candidate, reference = languages.EXAMPLES["japanese"]
    page.get_by_role("button", name="Japanese", exact=True).click()
    expect(text_box(page, "Candidate (the summary to score)")).to_have_value(candidate)
    _wait_idle(page)
    page.get_by_role("link", name="Learn").click()
    page.get_by_text("How your text is tokenized").click()
    doc = rc.score(candidate, [reference], ["rouge1"], "multilingual", language="japanese").candidate
    box = page.locator("div.rl-text").filter(has_text=candidate).first
    expect(box.locator("span.rl-token")).to_have_count(len(doc.tokens))
    assert box.text_content() == candidate
    assert _marked_spans(box, "rl-token") == [[t.start, t.end] for t in doc.tokens]
    assert [t.term for t in doc.tokens][:4] == ["東京", "都", "に", "住ん"]  # MeCab's words, not characters
    page.locator("[data-testid='stDataFrame']").first.wait_for()
    _wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "languages-e2e-learn-tokens.png"))
