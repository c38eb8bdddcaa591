"""Upload a corpus, score it, record a judgement, reload: the corpus, the pair and the judgement are still there."""

import re
import sqlite3
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CSV = (
    "id,candidate,reference\n"
    "p1,the cat sat on the mat,the cat is on the mat\n"
    "p2,the dog ran home,the dog ran home quickly\n"
    "p3,=1+1 nothing shared,some plain reference words\n"
)


def upload(page, path: Path) -> None:
    page.locator("[data-testid='stFileUploader'] input[type='file']").first.set_input_files(str(path))
    page.get_by_text("Parsed 3 pairs").wait_for(timeout=30_000)


@pytest.mark.e2e
def test_upload_score_judge_reload(app_url, app_judgements_db, browser_page, tmp_path):
    page = browser_page
    ARTIFACTS.mkdir(exist_ok=True)
    corpus_file = tmp_path / "corpus.csv"
    corpus_file.write_text(CSV, encoding="utf-8")
    db = app_judgements_db

    page.goto(f"{app_url}/corpus")
    upload(page, corpus_file)
    page.get_by_role("button", name="Score corpus").click()
    page.get_by_text("Aggregates", exact=True).wait_for(timeout=30_000)
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "corpus_scored.png"), full_page=True)

    # Same session: the sidebar link keeps the loaded corpus.
    page.locator("[data-testid='stSidebarNav'] a", has_text="Review").click()
    page.get_by_role("textbox", name="Annotator name").wait_for(timeout=30_000)
    page.get_by_role("textbox", name="Annotator name").fill("e2e-annotator")
    page.get_by_role("textbox", name="Annotator name").press("Enter")
    page.get_by_text("Pair 1 of 3").wait_for(timeout=30_000)
    page.get_by_role("button", name=re.compile(r"^4 · Good")).click()
    page.get_by_text("Saved pair p1: 4").wait_for(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "review_judged.png"), full_page=True)
    with sqlite3.connect(db) as conn:
        # other tests on the session's server may have judged too: this annotator's rows only
        assert conn.execute("SELECT pair_id, annotator, verdict FROM judgements WHERE annotator = ?",
                            ("e2e-annotator",)).fetchall() == [("p1", "e2e-annotator", "4")]

    # A reload reopens the corpus (stored with the judgements, named in the URL) at the same pair,
    # with the stored verdict shown as chosen.
    page.reload()
    page.get_by_text("Pair 1 of 3").wait_for(timeout=30_000)
    assert page.get_by_role("textbox", name="Annotator name").input_value() == "e2e-annotator"
    chosen = page.locator("[data-testid='stBaseButton-primary']", has_text=re.compile(r"^4 · Good"))
    chosen.wait_for(timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "review_after_reload.png"), full_page=True)
