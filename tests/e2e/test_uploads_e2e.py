"""Issue 14: every class of bad upload gets a clear message in the browser, the texts on
screen are kept, and the message goes once the input changes."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from lens_app.devserver import text_box, wait_idle
from lens_app.inputs import PAIR_UPLOADER_LABEL

pytestmark = pytest.mark.e2e

UPLOADERS = {"candidate": "Candidate (.txt)", "pairs": PAIR_UPLOADER_LABEL}
BAD = [
    ("candidate", "binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00", "looks like a binary file"),
    ("candidate", "latin.txt", "café".encode("latin-1"), "is not UTF-8 text: line 1 has byte 0xe9"),
    ("candidate", "utf16.txt", "the cat sat".encode("utf-16-le"), "looks like UTF-16 (little-endian) text without a byte-order mark"),
    ("candidate", "empty.txt", b"", "is empty: it holds no text to score"),
    ("candidate", "big.txt", b"word " * 250_000, "File must be 1.0MB or smaller"),  # Streamlit's own limit, stated
    ("pairs", "deep.json", b"[" * 100_000, "is nested more than 100 levels deep"),
    ("pairs", "bigint.json", b'{"candidate": ' + b"1" * 5000 + b', "references": ["r"]}', "holds an integer of more than 4,300 digits"),
    ("pairs", "surrogate.json", b'{"candidate": "\\ud800", "references": ["r"]}', "holds a lone surrogate"),
    ("pairs", "broken.jsonl", b'{"candidate": "a", "references": ["b"]}\n{oops', "line 2 is not valid JSON"),
    ("pairs", "nokeys.json", b'{"text": "a"}', 'the key "candidate" is missing'),
]


@pytest.mark.parametrize("uploader, name, data, message", BAD, ids=[case[1] for case in BAD])
def test_a_bad_upload_shows_what_is_wrong_and_keeps_the_texts(app_url, browser_page, tmp_path, artifacts_dir,
                                                               uploader, name, data, message):
    page = browser_page
    page.goto(app_url)
    candidate = text_box(page, "Candidate (the summary to score)")
    expect(candidate).not_to_have_value("")
    before = candidate.input_value()
    page.get_by_text("Upload files instead of typing").click()
    path = tmp_path / name
    path.write_bytes(data)
    page.locator("[data-testid='stFileUploader']").filter(has_text=UPLOADERS[uploader]) \
        .locator("input[type='file']").set_input_files(str(path))
    shown = page.get_by_text(re.compile(re.escape(message))).first
    shown.wait_for()
    wait_idle(page)
    expect(candidate).to_have_value(before)
    assert page.locator("[data-testid='stException']").count() == 0
    if name in ("latin.txt", "deep.json"):
        page.screenshot(path=str(artifacts_dir / f"upload-error-{name}.png"))
    if "File must be" not in message:  # our message goes once the input changes
        candidate.fill(before + " edited")
        candidate.press("Control+Enter")
        expect(page.get_by_text(re.compile(re.escape(message)))).to_have_count(0)


# Counts the app's script runs (its script state turning to "running") from page load on.
RUN_COUNTER = """
window.__runs = 0;
new MutationObserver(records => {
  for (const r of records) if (r.target.getAttribute('data-test-script-state') === 'running') window.__runs++;
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-test-script-state']});
"""


def test_each_uploaded_pair_file_costs_one_run_and_is_named(app_url, browser_page, tmp_path):
    """A loaded file leaves its uploader, so picking the next one does not first remove the
    last (an extra run of the whole page); the note says what each file loaded."""
    page = browser_page
    page.add_init_script(RUN_COUNTER)
    page.goto(app_url)
    wait_idle(page)
    # A session's first run may hand over to the router and run again (lens_app.navigation) a
    # few ms after the page looked idle: let it finish, or it would be counted with the upload.
    page.wait_for_timeout(500)
    wait_idle(page)
    page.get_by_text("Upload files instead of typing").click()
    uploader = page.locator("[data-testid='stFileUploader']").filter(has_text=UPLOADERS["pairs"])
    for i, (candidate, references) in enumerate([("the cat sat", ["the cat is here", "a cat"]),
                                                  ("a dog ran off", ["the dog ran"])]):
        path = tmp_path / f"pair{i}.json"
        path.write_text(json.dumps({"candidate": candidate, "references": references}), encoding="utf-8")
        runs = page.evaluate("window.__runs")
        uploader.locator("input[type='file']").set_input_files(str(path))
        count = len(references)
        expect(page.get_by_text(f"Loaded pair{i}.json: the candidate and {count} reference{'s' if count > 1 else ''}."))\
            .to_be_visible()
        wait_idle(page)
        expect(text_box(page, "Candidate (the summary to score)")).to_have_value(candidate)
        assert page.evaluate("window.__runs") - runs == 1
        expect(uploader.locator("[data-testid='stFileUploaderFile']")).to_have_count(0)  # empty for the next pick
