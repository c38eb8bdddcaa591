"""Issue 27, item 10, where only a browser shows it: texts kept across a reload (and only in
that tab), a paste applied without Ctrl+Enter, a CSV accepted by the Score page's uploader,
the Learn page's first lesson on the first screen with a long pair, and ROUGE-W tables whose
numbers stay in view. tests/app/test_small_things.py has the rest."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

import rouge_core as rc
from lens_app.devserver import load_example, text_box, wait_idle

pytestmark = pytest.mark.e2e

CANDIDATE = "Candidate (the summary to score)"
REFERENCE = "Reference (a human summary)"


def rouge1(page) -> str:
    return page.locator("[data-testid='stMetric']").filter(has_text="ROUGE-1 F") \
        .locator("[data-testid='stMetricValue']").first.inner_text()


def wait_for_rouge1(page, value: str) -> None:
    """The headline's ROUGE-1 shows `value` once the page's run is over (a rerun's stale
    copy of the metric may sit beside the new one until then)."""
    page.locator("[data-testid='stMetric']").filter(has_text="ROUGE-1 F").filter(has_text=value).first.wait_for()
    wait_idle(page)
    assert rouge1(page) == value


def expected_rouge1(candidate: str, reference: str) -> str:
    return f"{rc.score(candidate, [reference], ['rouge1'], 'rouge-score')['rouge1'].fmeasure:.4f}"


def single_reference(page) -> None:
    """The first visit's example has two references: keep one."""
    load_example(page, "reval: the cat is sitting")


def commit(page, label: str, text: str) -> None:
    box = text_box(page, label)
    box.click()
    box.fill(text)
    box.press("Control+Enter")
    wait_idle(page)


def test_typed_texts_survive_a_reload_and_a_new_tab_starts_afresh(app_url, browser_page, artifacts_dir):
    page = browser_page
    page.goto(app_url)
    wait_idle(page)
    single_reference(page)
    candidate, reference = "the gunman was shot by the police", "police shot the gunman dead"
    commit(page, CANDIDATE, candidate)
    commit(page, REFERENCE, reference)
    wait_for_rouge1(page, expected_rouge1(candidate, reference))
    page.wait_for_timeout(300)  # a person reloads later than the page stores the texts (a few ms after drawing)

    page.reload()
    expect(text_box(page, CANDIDATE)).to_have_value(candidate)
    expect(text_box(page, REFERENCE)).to_have_value(reference)
    wait_for_rouge1(page, expected_rouge1(candidate, reference))  # scored, not only shown
    page.get_by_text("kept before the page was reloaded").wait_for()
    page.screenshot(path=str(artifacts_dir / "score-after-reload.png"))
    from lens_app.browser_texts import STORAGE_KEY  # (imported here: the test runs against older code too)

    kept = page.evaluate(f"window.sessionStorage.getItem({json.dumps(STORAGE_KEY)})")
    assert json.loads(kept) == {"candidate": candidate, "references": [reference]}  # in the tab
    assert "gunman" not in page.url  # not in the address

    other = page.context.new_page()  # a new tab of the same browser: its own session storage
    other.goto(app_url)
    wait_idle(other)
    expect(text_box(other, CANDIDATE)).not_to_have_value(candidate)
    assert other.evaluate(f"window.sessionStorage.getItem({json.dumps(STORAGE_KEY)})") != kept
    other.close()


def test_a_shared_link_wins_over_the_texts_the_tab_kept(app_url, browser_page):
    page = browser_page
    page.goto(app_url)
    wait_idle(page)
    commit(page, CANDIDATE, "a candidate typed before the link")
    page.goto(f"{app_url}/?c=the+cat+sat&r=the+cat+is+here")
    expect(text_box(page, CANDIDATE)).to_have_value("the cat sat")
    wait_idle(page)
    page.wait_for_timeout(500)  # a late restore would show here
    expect(text_box(page, CANDIDATE)).to_have_value("the cat sat")


def test_a_pasted_text_is_scored_without_ctrl_enter(app_url, chromium_browser):
    context = chromium_browser.new_context(viewport={"width": 1400, "height": 1000},
                                           permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(app_url)
        wait_idle(page)
        single_reference(page)
        reference = text_box(page, REFERENCE).input_value()
        pasted = "the cat sat on a mat in the sun"
        page.evaluate("t => navigator.clipboard.writeText(t)", pasted)
        text_box(page, CANDIDATE).click()
        page.keyboard.press("Control+A")
        page.keyboard.press("Control+V")  # a real paste, and nothing else
        wait_for_rouge1(page, expected_rouge1(pasted, reference))

        text_box(page, CANDIDATE).fill("")  # typed (an edit, not a paste): applied on Ctrl+Enter
        text_box(page, CANDIDATE).press("Control+Enter")
        wait_idle(page)
        warning = page.locator("[data-testid='stAlert']").filter(has_text="There is no candidate text yet")
        expect(warning).to_be_visible()
        assert "empty" not in warning.inner_text()
        expect(page.get_by_text("once you press Ctrl+Enter").first).to_be_visible()
    finally:
        context.close()


def test_a_csv_of_pairs_is_taken_by_the_score_page(app_url, browser_page, tmp_path):
    page = browser_page
    page.goto(app_url)
    wait_idle(page)
    page.get_by_text("Upload files instead of typing").click()
    path = tmp_path / "pairs.csv"
    path.write_text("id,candidate,reference\nd1,the cat sat on the mat,the cat is on the mat\n"
                    "d2,police killed the gunman,police kill the gunman\n", encoding="utf-8")
    page.locator("[data-testid='stFileUploader']").filter(has_text="Candidate and references") \
        .locator("input[type='file']").set_input_files(str(path))
    page.get_by_text("Loaded pairs.csv: the candidate and 1 reference (record 1 of 2; choose another below).").wait_for()
    wait_idle(page)
    assert page.get_by_text("files are not allowed").count() == 0
    expect(text_box(page, CANDIDATE)).to_have_value("the cat sat on the mat")
    wait_for_rouge1(page, expected_rouge1("the cat sat on the mat", "the cat is on the mat"))


def similar_long_pair(words: int = 2000, seed: int = 7) -> tuple[str, str]:
    """A ~2,000-word candidate in sentences of 25 words, and a reference that changes one word
    in 25: long runs of consecutive matches, so ROUGE-W's tables hold runs of dozens of words."""
    import random

    rng = random.Random(seed)
    vocabulary = [f"word{i}" for i in range(400)] + ["the", "a", "of", "and", "to"] * 40
    tokens = [rng.choice(vocabulary) for _ in range(words)]
    changed = [f"other{i}" if rng.random() < 0.04 else t for i, t in enumerate(tokens)]

    def lines(ws):
        return "\n".join(" ".join(ws[i:i + 25]) + "." for i in range(0, len(ws), 25))

    return lines(tokens), lines(changed)


def load_long_pair(page, app_url, tmp_path) -> None:
    candidate, reference = similar_long_pair()
    path = tmp_path / "long_pair.json"
    path.write_text(json.dumps({"candidate": candidate, "references": [reference]}), encoding="utf-8")
    page.goto(app_url)
    wait_idle(page)
    page.get_by_text("Upload files instead of typing").click()
    page.locator("[data-testid='stFileUploader']").filter(has_text="Candidate and references") \
        .locator("input[type='file']").set_input_files(str(path))
    page.get_by_text("Loaded long_pair.json").wait_for()
    wait_idle(page)


def columns_out_of_view(table) -> int:
    """How many pixels of a table's columns lie past its visible width (the grid's scroller
    scrolls sideways when its columns are wider than the table)."""
    return table.locator(".dvn-scroller").evaluate("e => Math.max(0, e.scrollWidth - e.clientWidth)")


def test_learn_shows_its_first_lesson_on_the_first_screen_with_a_long_pair(app_url, browser_page, tmp_path, artifacts_dir):
    page = browser_page
    load_long_pair(page, app_url, tmp_path)
    page.get_by_role("link", name="Learn").first.click()
    lesson = page.get_by_text("ROUGE-N counts the n-grams")
    lesson.wait_for()
    wait_idle(page)
    page.screenshot(path=str(artifacts_dir / "learn-long-pair-top.png"))
    box = lesson.bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"], box  # no scrolling needed to reach it
    tokens = page.locator(".rl-text").first  # the candidate's tokens: all there, scrolled inside their box
    assert tokens.evaluate("e => e.scrollHeight > e.clientHeight && getComputedStyle(e).overflowY === 'auto'")


def test_rouge_w_tables_keep_every_column_in_view(app_url, browser_page, tmp_path, artifacts_dir):
    page = browser_page
    page.set_viewport_size({"width": 1000, "height": 900})  # a laptop's browser window
    load_long_pair(page, app_url, tmp_path)
    page.get_by_role("tab", name="Weighted runs (ROUGE-W)").click()
    page.get_by_text("Weighted hits").wait_for()
    wait_idle(page)
    runs = page.locator("[data-testid='stDataFrame']").filter(has=page.locator("canvas")).last
    runs.scroll_into_view_if_needed()
    assert columns_out_of_view(runs) == 0
    page.get_by_role("link", name="Learn").first.click()
    page.get_by_text("ROUGE-W: rewarding consecutive matches").click()
    page.get_by_text("Paper form").wait_for()
    wait_idle(page)
    tables = page.locator("[data-testid='stExpander']").filter(has_text="ROUGE-W: rewarding consecutive matches") \
        .locator("[data-testid='stDataFrame']")
    expect(tables).to_have_count(2)  # the paper's runs and ROUGE-1.5.5's, side by side
    for i in range(2):
        tables.nth(i).scroll_into_view_if_needed()
        assert columns_out_of_view(tables.nth(i)) == 0, i
    page.screenshot(path=str(artifacts_dir / "learn-w-tables.png"))


FILL_STORAGE = """() => {  // fill this tab's session storage, leaving less than 64 K characters free
  const big = 'x'.repeat(1 << 20), small = 'y'.repeat(1 << 16);
  try { for (let i = 0; ; i++) sessionStorage.setItem('filler' + i, big); } catch (e) {}
  try { for (let j = 0; ; j++) sessionStorage.setItem('small' + j, small); } catch (e) {}
}"""


def test_texts_too_long_for_the_tab_are_said_so_and_no_older_ones_are_kept(app_url, browser_page):
    page = browser_page
    page.goto(app_url)
    wait_idle(page)
    commit(page, CANDIDATE, "a first candidate")
    from lens_app.browser_texts import STORAGE_KEY

    page.wait_for_function(f"(window.sessionStorage.getItem({json.dumps(STORAGE_KEY)}) || '').includes('a first candidate')")
    page.evaluate(FILL_STORAGE)
    commit(page, CANDIDATE, "the cat sat on the mat " * 4000)  # 92,000 characters: over what is left
    page.get_by_text("too long for this browser tab to keep across a reload").wait_for()
    assert page.evaluate(f"window.sessionStorage.getItem({json.dumps(STORAGE_KEY)})") is None  # not the first candidate
