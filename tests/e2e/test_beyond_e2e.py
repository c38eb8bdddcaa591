"""Issue 30 in Chromium: the source document on the Score page, the Compare page's new sections,
and the report to share, opened from a file with the network blocked: every chart renders."""

from __future__ import annotations

from pathlib import Path

from lens_app.devserver import load_example, text_box
from playwright.sync_api import expect

from rouge_core.corpora import corpus_io
from rouge_core import profile, score_corpus
from rouge_core.report import compare_systems_report, systems_report_html
from tests.app.test_compare_analysis import ROWS, corpus_csv

SOURCE = "Yesterday the cat sat on the mat all day, while the dog slept by the door."


def commit(page, label: str, text: str) -> None:
    box = text_box(page, label)
    box.fill(text)
    box.press("Control+Enter")


def open_offline(context, path: Path):
    """The report from disk in a page that can reach nothing else: every other request fails and is recorded."""
    tried = []

    def refuse(route):
        tried.append(route.request.url)
        route.abort()

    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else refuse(route))
    page = context.new_page()
    page.goto(path.as_uri())
    return page, tried


def rendered_charts(page) -> int:
    """How many charts drew something: an SVG with a visible size and marks in it."""
    return page.evaluate("""() => [...document.querySelectorAll('.chart svg')].filter(svg => {
        const box = svg.getBoundingClientRect();
        return box.width > 50 && box.height > 50 && svg.querySelectorAll('path, line, rect, text').length > 5;
    }).length""")


def test_the_report_opens_offline_with_every_chart(chromium_browser, tmp_path, artifacts_dir):
    corpus = corpus_io.build_corpus(corpus_io.read_table(corpus_csv().encode(), "four.csv"))
    results = {s: score_corpus(list(c), list(corpus.references), ["rouge1", "rouge2", "rougeL"], profile("rouge-score"),
                               ids=list(corpus.ids)) for s, c in corpus.systems.items()}
    analysis = compare_systems_report(corpus, results, "candidate_copy", "candidate_para", "rouge1", resamples=200)
    path = tmp_path / "report.html"
    path.write_text(systems_report_html(corpus, analysis), encoding="utf-8")
    context = chromium_browser.new_context(viewport={"width": 1300, "height": 1000})
    try:
        page, tried = open_offline(context, path)
        expect(page.get_by_role("heading", name="Copying from the source")).to_be_visible()
        charts = page.locator(".chart svg").count()
        assert charts >= 7 and rendered_charts(page) == charts
        assert page.locator("script").count() == 0 and tried == []
        assert page.locator("b", has_text="town").count() == 0  # a summary's "<b>town</b>" is text, not markup
        page.screenshot(path=str(artifacts_dir / "report-offline.png"), full_page=True)
    finally:
        context.close()


def test_the_score_page_shows_the_source(app_url, browser_page, artifacts_dir):
    page = browser_page
    page.goto(app_url)
    load_example(page, "reval: the cat is sitting")  # an example with one reference
    commit(page, "Candidate (the summary to score)", "The cat sat on the mat. A bird sang.")
    commit(page, "Reference (a human summary)", "A cat was sitting on the mat.")
    page.get_by_text("Source document (optional)").click()
    commit(page, "Source document", SOURCE)
    expect(page.get_by_role("heading", name="The source document")).to_be_visible()
    expect(page.locator(".rl-fragment").first).to_be_visible()
    assert page.locator(".rl-origin-both").count() >= 3 and page.locator(".rl-origin-novel").count() >= 2
    page.get_by_role("heading", name="The source document").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "score-source.png"))


def test_the_compare_page_sections_and_its_report(app_url, browser_page, tmp_path, artifacts_dir, chromium_browser):
    page = browser_page
    page.goto(f"{app_url}/compare")
    page.get_by_text("Paste CSV / JSONL").click()
    commit(page, "Corpus text", corpus_csv())
    page.get_by_role("button", name="Score all systems").click()
    heading = page.get_by_role("heading", name="Copying from the source")
    expect(heading).to_be_visible(timeout=60_000)
    heading.scroll_into_view_if_needed()
    page.wait_for_timeout(800)
    page.screenshot(path=str(artifacts_dir / "compare-source.png"))
    ngrams = page.get_by_role("heading", name="What one system gets that the other misses")
    ngrams.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts_dir / "compare-ngrams.png"))
    buckets = page.get_by_role("heading", name="Scores in buckets")
    buckets.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts_dir / "compare-buckets.png"))
    with page.expect_download(timeout=120_000) as download:
        page.get_by_role("button", name="Download the comparison of candidate_copy and candidate_para (HTML)").click()
    path = tmp_path / "comparison.html"
    download.value.save_as(path)
    context = chromium_browser.new_context()
    try:
        report, tried = open_offline(context, path)
        charts = report.locator(".chart svg").count()
        assert charts >= 7 and rendered_charts(report) == charts and tried == []
        assert len(ROWS) == 4 and report.get_by_text("system candidate_copy").count() == 1  # its data hash row
    finally:
        context.close()
