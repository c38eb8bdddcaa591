"""SummEval, sacrerouge and REALSumm files in real Chromium: the Corpus page says what it
recognised and reads the corpus; on "Which ROUGE agrees with your annotators?" the SummEval
file gives the corpus and, in one click, its judgements, and ROUGE-1's system-level Kendall τ
with the experts' relevance is the fixture's designed 2/3 (tests/data/formats)."""

import csv
import io
from pathlib import Path

import pytest
from playwright.sync_api import expect

from lens_app.devserver import wait_idle

pytestmark = pytest.mark.e2e
DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


def upload(page, file_name: str) -> None:
    page.locator("[data-testid='stFileUploader'] input[type='file']").first.set_input_files(str(DATA / file_name))


def open_loader(page) -> None:
    """The "Load a corpus" section open (it starts closed when a corpus is loaded already)."""
    section = page.locator("[data-testid='stExpander'] details").first
    section.wait_for(state="attached")
    wait_idle(page)
    if section.get_attribute("open") is None:
        page.get_by_text("Load a corpus").first.click()
        wait_idle(page)
    page.get_by_text("Corpus file", exact=True).wait_for()


def choose(page, label: str, option: str) -> None:
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def test_corpus_page_reads_each_format(app_url, browser_page, artifacts_dir):
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.goto(f"{app_url}/corpus")
    upload(page, "summeval.jsonl")
    page.get_by_text("Parsed 5 pairs; systems: M0, M1, M2, M3").wait_for()
    expect(page.get_by_text("11 references per document, with source documents")).to_be_visible()
    wait_idle(page)
    page.get_by_text("Only each document's first reference").click()
    page.get_by_text("1 reference per document (the first of each document's references kept)").wait_for()
    wait_idle(page)
    page.locator("[data-testid='stDataFrame']").first.wait_for()
    page.screenshot(path=str(artifacts_dir / "formats-corpus-summeval.png"), full_page=True)
    page.get_by_role("button", name="Score corpus").click()
    page.get_by_text("Aggregates", exact=True).wait_for()
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for()
    wait_idle(page)
    page.screenshot(path=str(artifacts_dir / "formats-corpus-summeval-scored.png"), full_page=True)

    for file_name, recognised in (("realsumm.pkl", "read as plain data without running any of its code"),
                                  ("sacrerouge_summaries.jsonl", "Recognised a sacrerouge summaries file")):
        page.goto(f"{app_url}/corpus")
        open_loader(page)
        upload(page, file_name)
        page.get_by_text(recognised).first.wait_for()
        expect(page.get_by_text("Parsed 5 pairs; systems: M0, M1, M2, M3")).to_be_visible()
        wait_idle(page)
        page.locator("[data-testid='stDataFrame']").first.wait_for()
        page.screenshot(path=str(artifacts_dir / f"formats-corpus-{file_name.split('.')[0]}.png"), full_page=True)


def test_summeval_meta_evaluation_in_a_few_clicks(app_url, browser_page, artifacts_dir):
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 2600})
    page.goto(f"{app_url}/meta")
    open_loader(page)
    upload(page, "summeval.jsonl")
    page.get_by_text("Parsed 5 pairs").wait_for()
    wait_idle(page)
    page.get_by_text("Only each document's first reference").click()
    page.get_by_text("1 reference per document").first.wait_for()
    wait_idle(page)
    page.get_by_role("button", name="Use the human scores in summeval.jsonl, the corpus's file").click()
    page.get_by_text("Read 640 scores from 20 records").wait_for()
    wait_idle(page)
    page.screenshot(path=str(artifacts_dir / "formats-meta-imported.png"), full_page=True)
    choose(page, "Aspect (task)", "expert_relevance")
    wait_idle(page)
    page.get_by_role("button", name="Score every variant").click()
    page.get_by_text("3. Correlations with the human scores").wait_for(timeout=120_000)
    wait_idle(page, 120_000)
    choose(page, "Rank by", "system level")
    wait_idle(page, 120_000)
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for()
    page.screenshot(path=str(artifacts_dir / "formats-meta-correlations.png"), full_page=True)
    # the ranked table, as its CSV download holds it: ROUGE-1 under ROUGE-1.5.5's profile is 2/3 at the system level
    with page.expect_download() as download:
        page.get_by_role("button", name="Correlations (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig"))))
    row = next(r for r in rows if r["variant"] == "rouge1 · rouge-1.5.5, no stemming")
    assert float(row["system"]) == pytest.approx(2 / 3, abs=1e-12)
