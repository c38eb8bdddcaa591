"""Bookmarked and shared page URLs opened on a freshly started server, before anyone loads "/".

The page scripts sit in pages/ beside app.py, so Streamlit starts every server in its legacy
multipage mode, in which a page URL runs the page script alone under an automatic list of file
names (app, compare, corpus, ...), without app.py's router or sidebar settings; each page hands
over to the router on a session's first run (lens_app.navigation). Each test here gets a server
of its own (`fresh_app_url`) and opens a page URL as that server's very first request.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

import rouge_core as rc
from lens_app.navigation import APP_ROOT, PAGES
from lens_app.devserver import text_box, wait_idle

pytestmark = pytest.mark.e2e

REGISTERED = [spec for spec in PAGES if (APP_ROOT / spec.script).exists()]  # as app.py registers them
HEADINGS = {  # each page script's st.title
    "score": "ROUGE Lens: Score",
    "learn": "Learn how ROUGE counts",
    "disagree": "Why do tools disagree?",
    "corpus": "Corpus",
    "compare": "Compare systems",
    "review": "Review",
    "meta": "Which ROUGE agrees with your annotators?",
}
NAV_LINK = "[data-testid='stSidebarNav'] a[data-testid='stSidebarNavLink']"


def _path(spec) -> str:
    """The page's URL path: Streamlit serves the default (first) page at the root only."""
    return "/" if spec is REGISTERED[0] else f"/{spec.url_path}"


def _nav_titles(page) -> list[str]:
    return [link.locator("span[label]").get_attribute("label") for link in page.locator(NAV_LINK).all()]


def _assert_app_frame(page, current_title: str) -> None:
    """The router's navigation (titles, current page) and the shared sidebar are there;
    Streamlit's automatic list of pages/ file names is not."""
    try:
        expect(page.locator(NAV_LINK)).to_have_count(len(REGISTERED))
    except AssertionError:
        pass  # reported below, with the titles the navigation does show
    titles = _nav_titles(page)
    assert titles == [spec.title for spec in REGISTERED], f"navigation shows {titles}"
    file_names = {"app"} | {Path(spec.script).stem for spec in PAGES}
    assert not file_names & set(titles), f"Streamlit's automatic page list is showing: {titles}"
    expect(page.locator(f"{NAV_LINK}[aria-current='page'] span[label]")).to_have_attribute("label", current_title)

    sidebar = page.locator("[data-testid='stSidebar']")
    expect(sidebar.get_by_text("ROUGE Lens", exact=True)).to_be_visible()
    expect(sidebar.get_by_text("Settings", exact=True)).to_be_visible()
    expect(_profile(page)).to_be_visible()
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)


def _profile(page):
    """The sidebar's Profile selectbox (its input holds the chosen profile)."""
    return page.locator("[data-testid='stSidebar']").get_by_role("combobox", name="Profile")


@pytest.mark.parametrize("spec", REGISTERED, ids=[spec.url_path for spec in REGISTERED])
def test_a_page_url_opened_first_on_a_fresh_server_gets_the_app(fresh_app_url, browser_page, artifacts_dir, spec):
    page = browser_page
    elsewhere = []  # requests to any other host, e.g. a page icon fetched from a font CDN
    page.on("request", lambda request: urlsplit(request.url).netloc != urlsplit(fresh_app_url).netloc
            and not request.url.startswith(("data:", "blob:")) and elsewhere.append(request.url))  # blob: in-page scripts
    page.goto(fresh_app_url + _path(spec))  # the server's first request; "/" has never been loaded
    page.get_by_role("heading", name=HEADINGS[spec.url_path]).first.wait_for()
    page.locator(NAV_LINK).first.wait_for()
    wait_idle(page)

    assert urlsplit(page.url).path == _path(spec)  # stayed on the requested page
    _assert_app_frame(page, spec.title)
    assert elsewhere == []
    page.screenshot(path=str(artifacts_dir / f"direct-url-{spec.url_path}.png"))


@pytest.mark.parametrize("first", [True, False], ids=["fresh-server", "after-root"])
def test_the_score_url_opens_the_score_page_with_its_query(fresh_app_url, browser_page, artifacts_dir, first):
    """/score is not where Streamlit serves the default page ("/"), but the URL works: no
    "Page not found", the Score page, the link's texts."""
    page = browser_page
    if not first:
        page.goto(fresh_app_url)
        page.locator(NAV_LINK).first.wait_for()
        wait_idle(page)
    page.goto(f"{fresh_app_url}/score?" + urlencode({"c": "the zebra sat", "r": "a zebra sat"}))
    page.get_by_role("heading", name=HEADINGS["score"]).first.wait_for()
    expect(text_box(page, "Candidate (the summary to score)")).to_have_value("the zebra sat")
    wait_idle(page)
    _assert_app_frame(page, REGISTERED[0].title)
    page.screenshot(path=str(artifacts_dir / f"direct-url-slash-score-{'fresh' if first else 'warm'}.png"))


def test_a_share_link_to_the_score_page_on_a_fresh_server(fresh_app_url, browser_page, artifacts_dir):
    page = browser_page
    cand_text, refs = "the cat sat on the mat", ["the cat is on the mat", "a cat sat"]
    query = urlencode({"c": cand_text, "r": refs, "profile": "rouge-1.5.5", "tok": "rouge155", "multi": "pooled",
                       "alpha": "0.5"}, doseq=True)
    page.goto(f"{fresh_app_url}/?{query}")
    expected = rc.score(cand_text, refs, ["rouge1"], "rouge-1.5.5")["rouge1"].fmeasure
    page.locator("[data-testid='stMetric']").filter(has_text="ROUGE-1 F").get_by_text(f"{expected:.4f}").wait_for()
    wait_idle(page)

    expect(text_box(page, "Candidate (the summary to score)")).to_have_value(cand_text)
    expect(text_box(page, "Reference 2")).to_have_value("a cat sat")
    expect(_profile(page)).to_have_value("rouge-1.5.5")
    _assert_app_frame(page, REGISTERED[0].title)
    shown = parse_qs(urlsplit(page.url).query)  # the address bar still holds a link to this view
    assert shown["c"] == [cand_text] and shown["r"] == refs and shown["profile"] == ["rouge-1.5.5"]
    page.screenshot(path=str(artifacts_dir / "direct-url-share-score.png"))


def test_query_parameters_on_another_page_url_survive(fresh_app_url, browser_page, artifacts_dir):
    page = browser_page
    cand_text, ref_text = "the zebra sat on the mat", "a zebra is on the mat"
    query = urlencode({"c": cand_text, "r": ref_text, "profile": "rouge-1.5.5", "tok": "rouge155"})
    page.goto(f"{fresh_app_url}/learn?{query}")
    page.get_by_role("heading", name=HEADINGS["learn"]).first.wait_for()
    page.locator(NAV_LINK).first.wait_for()
    wait_idle(page)

    assert urlsplit(page.url).path == "/learn"
    assert parse_qs(urlsplit(page.url).query)["c"] == [cand_text]
    _assert_app_frame(page, "Learn")
    expect(_profile(page)).to_have_value("rouge-1.5.5")
    # Retrying: on a fresh server the page may still be drawing after the run indicator clears.
    expect(page.locator("[data-testid='stMain']").get_by_text(re.compile("zebra")).first).to_be_visible()
    assert page.get_by_text("built-in example").count() == 0  # the link's texts, not the example

    # The link's texts are the session's texts: the Score page shows them too.
    page.locator(NAV_LINK, has_text="Score").click()
    page.get_by_role("heading", name=HEADINGS["score"]).first.wait_for()
    # The page switch reruns the app; these retry until that run has drawn the text areas.
    expect(text_box(page, "Candidate (the summary to score)")).to_have_value(cand_text)
    expect(text_box(page, "Reference (a human summary)")).to_have_value(ref_text)
    expect(_profile(page)).to_have_value("rouge-1.5.5")
    wait_idle(page)
    page.screenshot(path=str(artifacts_dir / "direct-url-share-learn-then-score.png"))


def test_a_bookmarked_corpus_page_opens_a_pair_on_the_score_page(fresh_app_url, browser_page, artifacts_dir, tmp_path):
    """The Corpus page sends a clicked pair to the Score page with st.switch_page."""
    page = browser_page
    corpus = tmp_path / "corpus.csv"
    corpus.write_text("id,candidate,reference\np1,the cat sat on the mat,the cat is on the mat\n"
                      "p2,the dog ran home,the dog ran home quickly\n", encoding="utf-8")
    page.goto(f"{fresh_app_url}/corpus")
    page.locator("[data-testid='stFileUploader'] input[type='file']").first.set_input_files(str(corpus))
    page.get_by_text("Parsed 2 pairs").wait_for()
    page.get_by_role("button", name="Score corpus").click()
    page.get_by_text("Click a row to open it").wait_for()
    wait_idle(page)

    pairs = page.locator("[data-testid='stElementContainer']:has-text('Click a row to open it')"
                         " + [data-testid='stElementContainer'] [data-testid='stDataFrame']")
    pairs.scroll_into_view_if_needed()
    page.wait_for_timeout(500)  # the grid is a canvas: wait until it has stopped moving
    box = pairs.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + 35 + 35 + 17)  # the row-marker cell of row 2 (35 px rows)

    expect(text_box(page, "Candidate (the summary to score)")).to_have_value("the dog ran home")
    expect(text_box(page, "Reference (a human summary)")).to_have_value("the dog ran home quickly")
    wait_idle(page)
    assert urlsplit(page.url).path == "/"
    _assert_app_frame(page, REGISTERED[0].title)
    page.screenshot(path=str(artifacts_dir / "direct-url-corpus-to-score.png"))
