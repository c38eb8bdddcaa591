"""Review and "Which ROUGE agrees with your annotators?" in real Chromium, on a generated corpus of
3 systems × 25 documents judged by two annotators: keyboard judging, blinded comparison, a reload
that keeps the corpus and the position, the correlations, a disagreement opened on the Score
page, and the three systems ranked on Compare systems."""

import re
import sqlite3

import pytest
from playwright.sync_api import expect

from lens_app import review_tasks as rt
from lens_app.review_store import ReviewStore
from rouge_core.corpora import corpus_io
from tests.annotated_corpus import corpus_csv, ratings
from lens_app.devserver import text_box, wait_idle

pytestmark = pytest.mark.e2e


def press(page, key: str) -> None:
    """A key pressed on the page itself (not in a text field)."""
    page.locator("[data-testid='stMain'] h1").first.click()
    page.keyboard.press(key)


def choose(page, label: str, option: str) -> None:
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def test_review_reload_and_which_rouge_agrees(app_url, app_judgements_db, browser_page, tmp_path, artifacts_dir):
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 2200})  # Streamlit scrolls inside the page: a tall window shows it all
    text = corpus_csv(systems=3, documents=25)
    corpus_file = tmp_path / "annotated.csv"
    corpus_file.write_text(text, encoding="utf-8")
    corpus = corpus_io.build_corpus(corpus_io.read_csv(text.encode(), "annotated.csv"))

    # --- Review: rate with the keyboard --------------------------------------------------------
    page.goto(f"{app_url}/review")
    page.locator("[data-testid='stFileUploader'] input[type='file']").first.set_input_files(str(corpus_file))
    page.get_by_text("Parsed 25 pairs").wait_for()
    page.get_by_role("textbox", name="Annotator name").fill("ann1")
    page.get_by_role("textbox", name="Annotator name").press("Enter")
    page.get_by_text("Pair 1 of 25").wait_for()
    wait_idle(page)
    press(page, "4")
    page.get_by_text("Saved pair doc00: 4").wait_for()
    wait_idle(page)
    press(page, "j")
    page.get_by_text("Pair 2 of 25: id doc01 · ann1 has judged 1 of 25").wait_for()
    wait_idle(page)
    press(page, "2")
    page.get_by_text("Saved pair doc01: 2").wait_for()
    wait_idle(page)
    page.screenshot(path=str(artifacts_dir / "review-rating.png"), full_page=True)

    # --- a blinded comparison -------------------------------------------------------------------
    choose(page, "Task", "Which summary is better?")
    page.get_by_text("Your preference (keys 1–3)").wait_for()
    wait_idle(page)
    expect(page.get_by_text("System hidden until your verdict is saved.")).to_have_count(2)
    page.screenshot(path=str(artifacts_dir / "review-blinded-before.png"), full_page=True)
    press(page, "1")  # the first summary shown is better
    page.get_by_text(re.compile(r"^Summary 1 is candidate_")).wait_for()
    wait_idle(page)
    shown_first = page.get_by_text(re.compile(r"^Summary 1 is ")).inner_text().removeprefix("Summary 1 is ").rstrip(".")
    with sqlite3.connect(app_judgements_db) as conn:
        verdict, first, a, b = conn.execute("SELECT verdict, shown_first, system_a, system_b FROM judgements "
                                            "WHERE kind = 'compare' AND annotator = 'ann1'").fetchone()
    assert first == shown_first.replace("\u2060", "") and (a, b) == ("candidate_alpha", "candidate_beta")
    assert verdict == ("A better" if first == a else "B better")  # stored un-shuffled
    page.screenshot(path=str(artifacts_dir / "review-blinded-after.png"), full_page=True)

    # --- go to pair 10, reload: the same corpus, task and pair ---------------------------------------
    goto = page.get_by_label("Go to pair")
    goto.fill("10")
    goto.press("Enter")
    page.get_by_text("Pair 10 of 25: id doc09").wait_for()
    wait_idle(page)
    page.reload()
    page.get_by_text("Pair 10 of 25: id doc09").wait_for()
    wait_idle(page)
    expect(page.get_by_text("Your preference (keys 1–3)")).to_be_visible()
    assert "corpus=" + corpus.fingerprint() in page.url
    page.screenshot(path=str(artifacts_dir / "review-after-reload.png"), full_page=True)

    # --- two annotators' ratings of every summary, then the meta-evaluation page -------------------------
    store = ReviewStore(app_judgements_db)
    task = rt.DEFAULT_TASKS[0]
    for system, doc_id, annotator, value in ratings(corpus, annotators=("ann1", "ann2")):
        store.save(corpus.fingerprint(), rt.task_key(task, [system]), doc_id, annotator, str(value), "annotated.csv",
                   task_name=task.name, kind="rating", system_a=system)
    page.locator("[data-testid='stSidebarNav'] a", has_text="Which ROUGE agrees").click()
    page.get_by_text(re.compile(r"^75 human scores")).wait_for()
    page.get_by_role("button", name="Score every variant").click()
    page.get_by_text("3. Correlations with the human scores").wait_for(timeout=90_000)
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for(timeout=90_000)
    wait_idle(page)
    expect(page.locator("[data-testid='stVegaLiteChart']")).to_have_count(2)  # the correlations and the scatter
    page.screenshot(path=str(artifacts_dir / "meta-correlations.png"), full_page=True)

    # A document where the best variant and the humans disagree most opens on the Score page.
    worst = page.locator(".st-key-meta_disagreements [data-testid='stDataFrame']")
    worst.scroll_into_view_if_needed()
    page.wait_for_timeout(500)  # the grid is a canvas: wait until it has stopped moving
    page.screenshot(path=str(artifacts_dir / "meta-disagreements.png"), full_page=False)
    box = worst.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + 35 + 17)  # the row-marker cell of the first row
    candidate = text_box(page, "Candidate (the summary to score)")
    expect(candidate).not_to_have_value("", timeout=60_000)
    wait_idle(page)
    assert candidate.input_value() in {c for cands in corpus.systems.values() for c in cands}
    page.screenshot(path=str(artifacts_dir / "meta-opened-on-score.png"), full_page=True)

    # --- the same corpus on Compare systems: every system ranked, one document side by side -------------
    page.locator("[data-testid='stSidebarNav'] a", has_text="Compare systems").click()
    page.get_by_role("button", name="Score all systems").click()
    page.get_by_text(re.compile(r"^Ranking of 3 systems by mean rouge1 F over 25 pairs")).wait_for(timeout=90_000)
    wait_idle(page)
    expect(page.get_by_text(re.compile(r"^(Top group: |The test does not separate)"))).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "compare-ranking.png"), full_page=True)
    side = page.get_by_text("Side by side: one document, two systems")
    side.scroll_into_view_if_needed()
    expect(page.get_by_text(re.compile(r"^rouge1 against reference 1: matched n-grams marked"))).to_have_count(2)
    page.screenshot(path=str(artifacts_dir / "compare-side-by-side.png"), full_page=False)
