"""Two annotators on the Review page in real Chromium (issue 27, item 3): alice judges a pair and
leaves a note; bob opens the same corpus from her link and judges the same pair, and neither the
page nor the judgements export shows him alice's verdict or note until he has judged every
pair of the task. No ROUGE-1 marks on the texts (off by default), and nothing stored before
alice's first verdict."""

import csv
import io
import sqlite3

import pytest
from playwright.sync_api import expect

from lens_app.devserver import wait_idle
from rouge_core.corpora import corpus_io
from tests.annotated_corpus import corpus_csv

pytestmark = pytest.mark.e2e


def press(page, key: str) -> None:
    """A key pressed on the page itself (not in a text field)."""
    page.locator("[data-testid='stMain'] h1").first.click()
    page.keyboard.press(key)


def exported(page, tmp_path, name: str) -> list[dict]:
    """The rows of the page's judgements export (CSV; its first line is the signature)."""
    with page.expect_download() as download:
        page.get_by_role("button", name="Judgements (CSV)").click()
    path = tmp_path / name
    download.value.save_as(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("pair_id,"))
    return list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))


def test_an_annotator_sees_another_annotators_verdicts_only_after_finishing_the_task(
        app_url, app_judgements_db, chromium_browser, tmp_path, artifacts_dir):
    text = corpus_csv(systems=2, documents=3, seed=27)  # a corpus of this test's own on the shared server
    corpus_file = tmp_path / "blind.csv"
    corpus_file.write_text(text, encoding="utf-8")
    fingerprint = corpus_io.build_corpus(corpus_io.read_csv(text.encode(), "blind.csv")).fingerprint()

    def stored_corpora() -> int:
        with sqlite3.connect(app_judgements_db) as conn:
            return conn.execute("SELECT COUNT(*) FROM corpora WHERE fingerprint = ?", (fingerprint,)).fetchone()[0]

    contexts = [chromium_browser.new_context(viewport={"width": 1400, "height": 2000}) for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    try:
        for page in (alice, bob):
            page.set_default_timeout(30_000)
        # --- alice: load, judge pair 1 with a note --------------------------------------------------
        alice.goto(f"{app_url}/review")
        alice.locator("[data-testid='stFileUploader'] input[type='file']").first.set_input_files(str(corpus_file))
        alice.get_by_text("Parsed 3 pairs").wait_for()
        alice.get_by_role("textbox", name="Annotator name").fill("alice")
        alice.get_by_role("textbox", name="Annotator name").press("Enter")
        alice.get_by_text("Pair 1 of 3").wait_for()
        wait_idle(alice)
        assert alice.locator(".rl-matched").count() == 0  # no ROUGE marks unless the task's owner asks
        assert stored_corpora() == 0 and "corpus=" not in alice.url  # nothing stored yet
        press(alice, "4")
        alice.get_by_text("Saved pair doc00: 4").wait_for()
        wait_idle(alice)
        note = alice.get_by_label("Note")
        note.fill("alice thinks it is fine")
        note.press("Control+Enter")
        alice.get_by_text("Saved pair doc00: 4").wait_for()
        wait_idle(alice)
        assert stored_corpora() == 1
        link = alice.url
        assert f"corpus={fingerprint}" in link and "annotator=alice" in link
        alice.screenshot(path=str(artifacts_dir / "review-blind-alice.png"), full_page=True)

        # --- bob: the same link under his name, the same pair ------------------------------------------
        bob.goto(link.replace("annotator=alice", "annotator=bob"))
        bob.get_by_text("Pair 1 of 3: id doc00").wait_for()
        wait_idle(bob)
        expect(bob.get_by_text("stay hidden until you have judged all 3 pairs of it (you have judged 0)")).to_be_visible()
        press(bob, "2")
        bob.get_by_text("Saved pair doc00: 2").wait_for()
        wait_idle(bob)
        rows = exported(bob, tmp_path, "bob-before.csv")
        assert [(r["annotator"], r["pair_id"], r["verdict"]) for r in rows] == [("bob", "doc00", "2")]
        expect(bob.get_by_text("alice thinks it is fine")).to_have_count(0)
        expect(bob.get_by_text("Agreement with the other annotators appears with their verdicts")).to_be_visible()
        expect(bob.get_by_text("(you have judged 1), so that they cannot sway yours (1 judgement(s) of others on "
                               "this corpus are hidden from you)", exact=False)).to_be_visible()
        bob.screenshot(path=str(artifacts_dir / "review-blind-bob-hidden.png"), full_page=True)

        # --- bob finishes the task: alice's verdict and note appear -----------------------------------
        for pair in ("doc01", "doc02"):
            press(bob, "j")
            bob.get_by_text(f"id {pair} · bob has judged").wait_for()
            wait_idle(bob)
            press(bob, "3")
            bob.get_by_text(f"Saved pair {pair}: 3").wait_for()
            wait_idle(bob)
        expect(bob.get_by_text("You have judged every pair of this task")).to_be_visible()
        expect(bob.get_by_text("Agreement between annotators")).to_be_visible()
        rows = exported(bob, tmp_path, "bob-after.csv")
        assert sorted((r["annotator"], r["pair_id"], r["verdict"], r["note"]) for r in rows) == [
            ("alice", "doc00", "4", "alice thinks it is fine"), ("bob", "doc00", "2", ""), ("bob", "doc01", "3", ""),
            ("bob", "doc02", "3", "")]
        bob.screenshot(path=str(artifacts_dir / "review-blind-bob-finished.png"), full_page=True)

        # alice has not finished: bob's verdicts stay hidden from her
        alice.reload()
        alice.get_by_text("Pair 1 of 3: id doc00").wait_for()
        wait_idle(alice)
        rows = exported(alice, tmp_path, "alice.csv")
        assert [(r["annotator"], r["pair_id"]) for r in rows] == [("alice", "doc00")]
    finally:
        for context in contexts:
            context.close()
