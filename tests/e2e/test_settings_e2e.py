"""The sidebar in a real Chromium at a quick user's pace: the β shown is the β used (issue 27,
item 1). Each step follows the last after 0.1 s, without waiting for the page to settle, as
a user who knows where to click does; at the end the share link (what the page scores with)
must carry the α of the β field and the n of the n field."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from lens_app.devserver import wait_idle
from rouge_core.stats import alpha_from_beta

pytestmark = pytest.mark.e2e

PACE_MS = 100


def _type(field, text: str) -> None:
    field.fill(text)
    field.press("Enter")


@pytest.mark.parametrize("pace_ms", [PACE_MS, 400])
def test_beta_alpha_beta_then_n_keeps_the_last_beta(fresh_app_url, browser_page, artifacts_dir, pace_ms):
    page = browser_page
    page.goto(fresh_app_url)
    sidebar = page.locator("[data-testid='stSidebar']")
    sidebar.get_by_role("spinbutton", name="β", exact=True).wait_for()
    wait_idle(page)

    _type(sidebar.get_by_role("spinbutton", name="β", exact=True), "2")
    page.wait_for_timeout(pace_ms)
    views = sidebar.get_by_role("radiogroup", name="F-measure weight")
    views.get_by_text("α", exact=True).click()
    page.wait_for_timeout(pace_ms)
    views.get_by_text("β", exact=True).click()
    beta = sidebar.get_by_role("spinbutton", name="β", exact=True)
    beta.wait_for()
    _type(beta, "1")
    page.wait_for_timeout(pace_ms)
    _type(sidebar.get_by_role("spinbutton", name="n: ROUGE-1 … ROUGE-n", exact=True), "3")
    wait_idle(page)
    page.wait_for_timeout(500)
    wait_idle(page)

    shown_beta = float(sidebar.get_by_role("spinbutton", name="β", exact=True).input_value())
    shown_n = int(sidebar.get_by_role("spinbutton", name="n: ROUGE-1 … ROUGE-n", exact=True).input_value())
    share = page.get_by_role("button", name="Create a share link")  # below every section
    try:
        share.click(timeout=90_000)
        page.wait_for_url("**alpha=*")
    except Exception:
        page.screenshot(path=str(artifacts_dir / f"settings-e2e-{pace_ms}ms-failed.png"), full_page=True)
        main = page.locator("[data-testid='stMain']").inner_text()
        pytest.fail(f"no share link: the page reads {main[:1500]!r} … {main[-1500:]!r}")
    wait_idle(page)
    query = parse_qs(urlparse(page.url).query)
    page.screenshot(path=str(artifacts_dir / f"settings-e2e-{pace_ms}ms.png"))
    assert (shown_beta, shown_n) == (1.0, 3), "the user's last β and n were lost"
    assert float(query["alpha"][0]) == alpha_from_beta(shown_beta) and query["n"] == [str(shown_n)]
    assert query["profile"] == ["rouge-score"]  # β and n are within the profile's own settings
