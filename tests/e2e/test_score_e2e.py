"""The Score page in a real Chromium: type texts, see rouge_core's number, the evidence and a chart."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import rouge_core as rc

pytestmark = pytest.mark.e2e

CHART = "[data-testid='stVegaLiteChart'], [data-testid='stArrowVegaLiteChart']"


def _commit(page, locator, text: str) -> None:
    """Type into a Streamlit text area and commit it (text areas send on Ctrl+Enter or blur)."""
    locator.click()
    locator.fill(text)
    locator.press("Control+Enter")


def _wait_idle(page) -> None:
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000)


def test_type_texts_and_see_scores_evidence_and_chart(app_url, browser_page, artifacts_dir):
    page = browser_page
    page.goto(app_url)
    page.get_by_role("button", name="reval: the cat is sitting").click()
    candidate = page.get_by_label("Candidate (the summary to score)")
    reference = page.get_by_label("Reference (a human summary)")
    reference.wait_for()

    cand_text, ref_text = "The police killed the gunman near the station", "Police kill the gunman at the station"
    _commit(page, candidate, cand_text)
    _commit(page, reference, ref_text)
    expected = rc.score(cand_text, [ref_text], ["rouge1"], "rouge-score")["rouge1"].fmeasure

    metric = page.locator("[data-testid='stMetric']").filter(has_text="ROUGE-1 F")
    metric.get_by_text(f"{expected:.4f}").wait_for()
    _wait_idle(page)

    matched = page.locator("span.rl-matched")
    assert matched.count() > 0
    assert "police" in matched.first.get_attribute("title").lower() or matched.first.get_attribute("title")
    page.locator(CHART).first.wait_for(state="visible")
    assert page.locator(CHART).count() == 1  # P, R and F; the sweeps and profiles wait until opened
    page.get_by_text("How the score moves with each parameter").click()
    page.get_by_text("The dashed red line marks your current setting").wait_for()
    page.get_by_text("The same input under each tool's profile").click()
    page.get_by_text("Each tool tokenizes and combines references its own way").wait_for()
    _wait_idle(page)
    expect(page.locator(CHART)).to_have_count(3)
    assert page.get_by_text("Settings", exact=True).is_visible()  # the shared sidebar survived the reruns
    assert page.locator("[data-testid='stException']").count() == 0

    page.locator("span.rl-matched").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "score-e2e-evidence.png"))
    page.evaluate("window.scrollTo(0, 0); document.querySelector('[data-testid=\"stMain\"]')?.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts_dir / "score-e2e.png"))


def _long_text(tokens: int, seed: int) -> str:
    import random

    rng = random.Random(seed)
    words = [f"w{i}" for i in range(3000)]
    return "\n".join(" ".join(rng.choice(words) for _ in range(25)) for _ in range(tokens // 25))


def test_a_long_text_with_default_settings_and_an_unlimited_distance_asks_first(app_url, browser_page, artifacts_dir):
    """Issue 13: over 3,160 tokens the sweeps used to raise; unlimited skip distance froze the page."""
    page = browser_page
    page.goto(app_url)
    page.get_by_role("button", name="reval: the cat is sitting").click()
    candidate, reference = _long_text(3500, 1), _long_text(3500, 2)
    _commit(page, page.get_by_label("Candidate (the summary to score)"), candidate)
    _commit(page, page.get_by_label("Reference (a human summary)"), reference)
    expected = rc.score(candidate, [reference], ["rouge1"], "rouge-score")["rouge1"].fmeasure
    page.locator("[data-testid='stMetric']").filter(has_text="ROUGE-1 F").get_by_text(f"{expected:.4f}").wait_for()
    _wait_idle(page)  # a click on an element of the run being replaced is lost
    page.get_by_text("How the score moves with each parameter").click()
    page.get_by_text("The dashed red line marks your current setting").wait_for()
    _wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0

    page.locator("[data-testid='stSidebar']").get_by_text("unlimited", exact=True).click()
    page.get_by_text("is not computed: it would take about").first.wait_for()
    _wait_idle(page)
    assert page.get_by_role("button", name="Compute anyway").count() >= 1
    assert page.locator("[data-testid='stException']").count() == 0
    page.screenshot(path=str(artifacts_dir / "score-long-unlimited-asks.png"))
    page.get_by_role("button", name="Use rougeS4 instead (skip distance 4)").first.click()
    page.get_by_text("is not computed").first.wait_for(state="detached")
    _wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
