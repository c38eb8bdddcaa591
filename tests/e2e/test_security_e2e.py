"""What a user types or a link carries stays text: no remote image, no link, no server path,
and no request leaves the app's own server (no icon CDN, no usage statistics)."""

from __future__ import annotations

import re
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

TRAP = "127.0.0.9:1"  # where the payloads point; any request there is a failure
IMAGE = f"![x](http://{TRAP}/pixel.png)"
LINK = f"[click](http://{TRAP}/go)"
BARE = f"www.{TRAP.split(':')[0]}.example http://{TRAP}/bare"


def _as_shown(text: str) -> re.Pattern:
    """`text` as the page shows it: escaped Markdown may carry invisible word joiners."""
    return re.compile("\u2060?".join(map(re.escape, text)))


def _watch_requests(page, origin: str) -> list[str]:
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((origin, "data:", "blob:")) else None)
    return outside


def _wait_idle(page) -> None:
    page.wait_for_timeout(300)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden", timeout=60_000)


def _assert_no_injected_markup(page) -> None:
    main = page.locator("[data-testid='stAppViewContainer']")
    hrefs = [a.get_attribute("href") or "" for a in main.locator("a").all()]
    assert not [h for h in hrefs if TRAP.split(":")[0] in h or "example" in h], hrefs
    sources = [img.get_attribute("src") or "" for img in main.locator("img").all()]
    assert not [s for s in sources if TRAP.split(":")[0] in s], sources


def test_learn_page_shows_tokens_as_text(app_url, browser_page, artifacts_dir):
    page = browser_page
    outside = _watch_requests(page, app_url)
    token = IMAGE
    query = urlencode({"c": f"{token} {token} {LINK} {BARE}", "r": f"{token} {LINK}", "profile": "matlab"})
    page.goto(f"{app_url}/learn?{query}")
    page.get_by_role("heading", name="Learn how ROUGE counts").wait_for()
    _wait_idle(page)
    clipping = page.get_by_text(re.compile("^Clipping:"))
    expect(clipping.first).to_contain_text(_as_shown(IMAGE))  # shown as typed
    _assert_no_injected_markup(page)
    page.screenshot(path=str(artifacts_dir / "security-learn-tokens.png"), full_page=True)
    assert outside == []


def test_corpus_compare_and_review_show_names_as_text(app_url, app_judgements_db, browser_page, tmp_path, artifacts_dir):
    page = browser_page
    outside = _watch_requests(page, app_url)
    corpus = tmp_path / "corpus.csv"
    corpus.write_text(
        f'id,"candidate_{IMAGE}","candidate_{LINK}",reference\n'
        f'"{BARE}",the cat sat on the mat,the cat is on the mat,the cat sat on a mat\n'
        "p2,the dog ran home,a dog ran,the dog ran home quickly\n", encoding="utf-8")
    page.goto(f"{app_url}/corpus")
    page.locator("[data-testid='stFileUploader'] input[type='file']").first.set_input_files(str(corpus))
    page.get_by_text("Parsed 2 pairs").wait_for()
    page.get_by_role("button", name="Score corpus").click()
    page.get_by_text("Aggregates", exact=True).wait_for()
    _wait_idle(page)
    loaded = page.get_by_text(re.compile("^Loaded:")).first.inner_text().replace("\u2060", "")
    assert f"systems: candidate_{IMAGE}, candidate_{LINK}" in loaded  # shown as typed
    _assert_no_injected_markup(page)
    page.screenshot(path=str(artifacts_dir / "security-corpus.png"), full_page=True)

    page.locator("[data-testid='stSidebarNav'] a", has_text="Compare systems").click()
    page.get_by_role("heading", name="Compare systems").wait_for()
    _wait_idle(page)
    _assert_no_injected_markup(page)

    page.locator("[data-testid='stSidebarNav'] a", has_text="Review").click()
    page.get_by_role("textbox", name="Annotator name").fill(f"{IMAGE} {LINK}")
    page.get_by_role("textbox", name="Annotator name").press("Enter")
    _wait_idle(page)
    page.get_by_role("button", name=re.compile(r"^4 · Good")).click()
    page.get_by_text(re.compile("Saved pair")).wait_for()
    _wait_idle(page)
    expect(page.get_by_text(re.compile(r"id www")).first).to_be_visible()
    _assert_no_injected_markup(page)
    body = page.locator("[data-testid='stAppViewContainer']").inner_text()
    assert str(app_judgements_db.parent) not in body and "sqlite3" not in body
    assert "db" not in urlsplit(page.url).query
    page.screenshot(path=str(artifacts_dir / "security-review.png"), full_page=True)
    assert outside == []


def test_a_link_cannot_choose_a_server_path(app_url, browser_page, tmp_path):
    page = browser_page
    planted = tmp_path / "planted" / "evil.sqlite3"
    page.goto(f"{app_url}/review?{urlencode({'db': str(planted)})}")
    page.get_by_role("textbox", name="Annotator name").wait_for()
    _wait_idle(page)
    assert not planted.parent.exists()
    assert "db=" not in page.url


def test_every_page_loads_only_from_its_own_server(app_url, browser_page):
    page = browser_page
    outside = _watch_requests(page, app_url)
    for path in ("/", "/learn", "/disagree", "/corpus", "/compare", "/review", "/meta"):
        page.goto(f"{app_url}{path}")
        page.locator("[data-testid='stSidebarNav']").wait_for()
        _wait_idle(page)
    icon = page.locator("link[rel*='icon']").first.get_attribute("href") or ""
    assert not icon.startswith("http") or icon.startswith(app_url), icon
    assert page.get_by_role("button", name="Deploy").count() == 0
    assert outside == [], outside
