"""Issue 30 on the Score page: the source document (pasted), where the candidate's words come
from, the extractive fragments on both texts and the statistics of rouge_core.studies.source."""

from __future__ import annotations

import pytest

import rouge_core as rc
from lens_app import inputs, state
from rouge_core.studies.source import abstractiveness
from lens_app.markup import plain
from tests.app.test_score_page import fresh_app

CANDIDATE = "The cat sat on the mat. A <b>bird</b> sang."
REFERENCE = "A cat was sitting on the mat."
SOURCE = "Yesterday the cat sat on the mat all day, while the dog slept by the door."


def with_texts(at, source: str):
    at.text_area(key=state.candidate_input_key(at.session_state)).set_value(CANDIDATE)
    at.text_area(key=state.reference_input_key(0, at.session_state)).set_value(REFERENCE)
    at.text_area(key=inputs.source_input_key(at.session_state)).set_value(source)
    at.run()
    assert not at.exception, at.exception
    return at


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_a_pasted_source_shows_origins_fragments_and_statistics():
    at = with_texts(fresh_app(), SOURCE)
    options = at.session_state[state.SETTINGS_KEY].options()
    expected = abstractiveness(CANDIDATE, SOURCE, options, references=[REFERENCE])
    assert metric(at, "coverage") == f"{expected.coverage:.4f}" and metric(at, "density") == f"{expected.density:.4f}"
    assert metric(at, "compression") == f"{expected.compression:.2f}"
    assert metric(at, "novel 1-grams") == f"{expected.novel[1].share:.1%}"
    assert expected.fragments[0].length == 6  # "The cat sat on the mat"
    html = "".join(h.proto.body for h in at.get("html"))
    assert "rl-origin-both" in html and "rl-origin-novel" in html and "rl-fragment" in html
    assert "&lt;b&gt;bird&lt;/b&gt;" in html and "<b>bird</b>" not in html  # the user's text escaped
    assert any(expected.signature in plain(c.value) for c in at.caption)


def test_no_source_no_section_and_the_source_survives_a_rerun():
    at = with_texts(fresh_app(), "")
    assert not any(m.label == "coverage" for m in at.metric)
    at.text_area(key=inputs.source_input_key(at.session_state)).set_value(SOURCE).run()
    at.run()
    assert at.session_state[inputs.SOURCE_KEY] == SOURCE and any(m.label == "coverage" for m in at.metric)


def test_the_published_and_the_longest_search_differ_where_the_code_skips():
    at = fresh_app()
    at.text_area(key=state.candidate_input_key(at.session_state)).set_value("a a b")
    at.text_area(key=state.reference_input_key(0, at.session_state)).set_value("a b")
    at.text_area(key=inputs.source_input_key(at.session_state)).set_value("a a a b").run()
    assert metric(at, "density") == f"{5 / 3:.4f}"
    at.segmented_control(key="source_fragment_search").set_value("longest").run()
    assert metric(at, "density") == "3.0000"


def test_a_source_above_the_cost_bound_is_asked_first(monkeypatch):
    monkeypatch.setattr(rc.studies.source, "SECONDS_PER_STEP", 10.0)  # every source now costs more than the bound
    at = with_texts(fresh_app(), SOURCE + " A source of its own (estimates are cached per text).")
    assert not any(m.label == "coverage" for m in at.metric)
    assert any("Matching the candidate against the source" in w.value for w in at.warning)
    anyway = next(b for b in at.button if b.label.startswith("Compute anyway"))
    anyway.click().run()
    assert any(m.label == "coverage" for m in at.metric)


def test_a_source_file_replaces_a_typed_source_in_a_new_box():
    """A .txt source uploaded after a typed one is shown in a new box (state.replace_boxes): an
    edit of the old box that reaches the server after the upload belongs to a box no longer
    drawn, so the page never scores the typed source under the file's text."""
    at = with_texts(fresh_app(), "a typed source about the dog")
    typed_box = inputs.source_input_key(at.session_state)
    uploader = next(u for u in at.get("file_uploader") if u.key == inputs.SOURCE_UPLOAD_KEY)
    uploader.set_value(("source.txt", SOURCE.encode(), "text/plain"))
    at.run()
    assert not at.exception, at.exception
    file_box = inputs.source_input_key(at.session_state)
    assert file_box != typed_box and at.text_area(key=file_box).value == SOURCE
    assert not [box for box in at.text_area if box.key == typed_box]
    options = at.session_state[state.SETTINGS_KEY].options()
    expected = abstractiveness(CANDIDATE, SOURCE, options, references=[REFERENCE])
    assert metric(at, "coverage") == f"{expected.coverage:.4f}" and metric(at, "density") == f"{expected.density:.4f}"
    at.text_area(key=file_box).set_value("a b c").run()  # the new box is edited as any other
    assert at.session_state[inputs.SOURCE_KEY] == "a b c" and inputs.source_input_key(at.session_state) == file_box
