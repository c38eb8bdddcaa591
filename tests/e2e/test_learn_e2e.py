"""The Learn page in a real Chromium: it renders its sections and the LCS heatmap."""

import pytest


@pytest.mark.e2e
def open_page(page, app_url, path):
    """Open the page's URL directly, as a bookmark does (test_direct_urls_e2e.py checks
    that this works on a fresh server, before "/" was ever loaded)."""
    page.goto(f"{app_url}/{path}")
    page.get_by_text("ROUGE Lens").first.wait_for()


@pytest.mark.e2e
def test_learn_page_renders_with_heatmap(app_url, browser_page, artifacts_dir):
    page = browser_page
    open_page(page, app_url, "learn")
    page.get_by_text("Learn how ROUGE counts").first.wait_for()
    page.get_by_text("Multiple references: five ways to combine them").wait_for()  # the last section
    assert page.locator("[data-testid='stMain'] [data-testid='stExpander']").count() == 6  # tokens + five methods
    page.get_by_text("R = ", exact=False).first.wait_for()
    page.locator("[data-testid='stDataFrame']").first.wait_for()
    page.screenshot(path=str(artifacts_dir / "learn-top.png"), full_page=True)

    # Open the ROUGE-L section: its heatmap draws inside the expander.
    page.get_by_text("ROUGE-L: the longest common subsequence").click()
    chart = page.locator("[data-testid='stVegaLiteChart']").first
    chart.wait_for()
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(800)  # vega renders after the element appears
    page.screenshot(path=str(artifacts_dir / "learn-lcs.png"), full_page=True)
    assert page.locator("[data-testid='stException']").count() == 0


@pytest.mark.e2e
def test_disagree_page_renders(app_url, browser_page, artifacts_dir):
    page = browser_page
    open_page(page, app_url, "disagree")
    page.get_by_text("Why do tools disagree?").first.wait_for()
    page.locator("[data-testid='stDataFrame']").first.wait_for()
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts_dir / "disagree.png"), full_page=True)
    assert page.locator("[data-testid='stException']").count() == 0
