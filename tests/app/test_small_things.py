"""Issue 27, item 10: the small things a careful user notices, each checked where AppTest (or
a render helper) can see it. tests/e2e/test_small_things_e2e.py has the ones only a browser
shows (a reload, a paste, the page's layout)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import rouge_core as rc
from lens_app import display, inputs, state
from rouge_core.scorer.scoring import missing_extra
from lens_app.markup import plain
from rouge_core.corpora import corpus_io
from rouge_core.teach import explain
from rouge_core.text import textio
from rouge_core.viz import tables

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")

# 1,800 tokens a side: counts past a thousand.
LONG_CANDIDATE = "the cat sat on the mat\n" * 300
LONG_REFERENCE = "the cat lay on the mat\n" * 300


def app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    return at


def set_texts(at: AppTest, candidate: str, references: list[str]) -> AppTest:
    at.text_area(key=state.candidate_input_key(at.session_state)).input(candidate)
    for i, ref in enumerate(references):
        at.text_area(key=state.reference_input_key(i, at.session_state)).input(ref)
    at.run()
    while len(at.session_state[state.REFERENCES_KEY]) > len(references):
        at.button(key=f"remove_reference_{len(references)}").click().run()
    assert not at.exception, at.exception
    return at


def table_with(at: AppTest, column: str):
    return next(df for df in at.dataframe if column in df.value.columns)


def formats(df) -> dict:
    """Column -> the number format the table's column settings give it."""
    import json

    columns = json.loads(df.proto.columns)
    return {name: spec.get("type_config", {}).get("format") for name, spec in columns.items()}


def written(df, row: int, column: str) -> str:
    """The text the browser shows in a cell: the table's pandas Styler text when it wrote the
    column cell by cell, else the value through the column's printf format (the formats the
    app uses: %d, %f with a precision, each with or without the "," thousands separator)."""
    frame = df.value
    fmt = formats(df).get(column)
    if fmt:
        spec = re.fullmatch(r"%(,?)(?:\.(\d+))?([df])", fmt)
        comma, digits, kind = spec.groups()
        value = frame[column].iloc[row]
        return format(int(value) if kind == "d" else value, f"{comma}.{digits}f" if kind == "f" else f"{comma}d")
    styled = df.proto.arrow_data.styler.display_values
    assert styled, f"{column} has neither a format nor written cells"
    cells = pa.ipc.open_stream(styled).read_all().to_pandas()
    return cells.iloc[row, list(frame.columns).index(column)]


# --- 1. counts as integers with thousands separators, scores with their decimals -----------

def test_format_number_writes_counts_as_integers_and_never_in_scientific_notation():
    assert explain.format_number(1406.0) == "1,406"
    assert explain.format_number(1004530) == "1,004,530"  # Python's "g" wrote 1.00453e+06
    assert explain.format_number(4023.65412) == "4,023.6541"
    assert explain.format_number(0.5) == "0.5000"
    assert explain.format_number(3) == "3"


def test_per_reference_counts_are_integers_and_weighted_hits_keep_decimals():
    at = app()
    set_texts(at, LONG_CANDIDATE, [LONG_REFERENCE])
    at.toggle(key="show_per_reference").set_value(True).run()
    assert not at.exception, at.exception
    table = table_with(at, "hits")
    frame = table.value
    rouge1 = int(frame.index[frame["method"] == "ROUGE-1"][0])
    rouge_w = int(frame.index[frame["method"].str.startswith("ROUGE-W")][0])
    assert [written(table, rouge1, c) for c in ("hits", "candidate total", "reference total")] == ["1,500", "1,800", "1,800"]
    assert written(table, rouge1, "reference") == "1"
    assert written(table, rouge1, "F") == f"{frame['F'].iloc[rouge1]:.4f}"  # scores keep their decimals
    assert written(table, rouge_w, "hits") == explain.format_number(frame["hits"].iloc[rouge_w])
    assert "." in written(table, rouge_w, "hits")  # ROUGE-W's weighted hits
    captions = [plain(c.value) for c in at.caption]
    assert any(c.startswith("ROUGE-1 against reference 1: 1,500 matched 1-grams; precision = 1,500 / 1,800") for c in captions), captions


def test_a_table_of_whole_counts_is_written_with_separators():
    config = display.column_settings(pd.DataFrame({"hits": [1406.0, 12.0], "n": [3, 1004530], "F": [1.0, 0.25]}))
    assert config["hits"]["type_config"]["format"] == "%,d"
    assert config["n"]["type_config"]["format"] == "%,d"
    assert config["F"]["type_config"]["format"] == "%,.4f"  # a score of 1 keeps its decimals


def test_corpus_aggregates_write_resamples_as_integers():
    at = AppTest.from_file(str(ROOT / "pages" / "corpus.py"), default_timeout=120)
    at.run()
    at.radio(key="corpus_kind").set_value("Paste CSV / JSONL").run()
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\n1,the cat sat,the cat sat down\n"
                                                "2,a dog ran,the dog ran off\n").run()
    at.button(key="score_corpus").click().run()
    assert not at.exception, at.exception
    aggregates = table_with(at, "resamples")
    assert formats(aggregates)["resamples"] == formats(aggregates)["pairs"] == "%,d"
    assert formats(aggregates)["fmeasure"] == "%,.4f"


# --- 2. no column of nothing ---------------------------------------------------------------

def test_the_profiles_table_has_no_column_of_nothing():
    at = app()
    at.session_state["profiles_open"] = True
    at.run()
    profiles = table_with(at, "profile").value
    assert "skipped" not in profiles.columns and not profiles.isna().all().any()
    # The reason column is there only when a profile was not computed (without the
    # [multilingual] extra, e.g. under the minimum versions, the multilingual profile is not).
    reasons = profiles["not computed because"] if "not computed because" in profiles.columns else None
    if missing_extra(rc.profile("multilingual")) is None:
        assert reasons is None
    else:
        assert set(reasons.dropna().map(lambda why: why.startswith("XL-Sum"))) == {True}


def test_show_table_leaves_out_empty_columns_and_keeps_a_partly_filled_one(monkeypatch):
    shown = []
    monkeypatch.setattr(display.st, "dataframe", lambda data, **kw: shown.append(data))
    display.show_table(pd.DataFrame({"F": [0.5, 0.25], "skipped": [None, None], "why": [None, "too costly"]}), key="t")
    assert list(shown[0].columns) == ["F", "why"]


# --- 3. the upload note describes what the page shows ----------------------------------------

def upload(at: AppTest, name: str, data: bytes, mime: str = "application/json") -> AppTest:
    uploader = next(u for u in at.get("file_uploader") if u.key.rsplit("_", 1)[0] == "upload_pairs")
    uploader.set_value((name, data, mime))
    at.run()
    assert not at.exception, at.exception
    return at


def loaded_captions(at: AppTest) -> list[str]:
    return [plain(c.value) for c in at.caption if plain(c.value).startswith("Loaded")]


def open_texts_from_elsewhere(at: AppTest, candidate: str, references: list[str]) -> AppTest:
    """What opening a corpus row (Corpus, Compare, the annotators page) does: the shared texts
    are replaced (state.set_texts) and the Score page runs."""
    state.set_texts(candidate, references, at.session_state)
    return at.run()


def test_opening_a_corpus_row_drops_the_note_of_the_last_upload():
    at = app()
    upload(at, "long_pair.json", b'{"candidate": "a b c", "references": ["c b a"]}')
    assert loaded_captions(at) == ["Loaded long_pair.json: the candidate and 1 reference."]
    open_texts_from_elsewhere(at, "the dog ran", ["a dog ran off"])
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == "the dog ran"
    assert loaded_captions(at) == []


def test_the_record_choice_shows_the_record_on_screen_or_none():
    at = app()
    upload(at, "pairs.jsonl", b'{"candidate": "a b", "references": ["b a"]}\n{"candidate": "c d", "references": ["d c"]}\n')
    choice = at.selectbox(key=inputs.PAIR_RECORD_KEY)
    assert choice.value == 0 and "pairs.jsonl" in plain(choice.label)
    choice.set_value(1).run()
    assert at.session_state[state.CANDIDATE_KEY] == "c d"
    open_texts_from_elsewhere(at, "the dog ran", ["a dog ran off"])
    assert at.selectbox(key=inputs.PAIR_RECORD_KEY).value is None  # the page shows none of the file's records


# --- 4. one upload limit, stated truthfully ------------------------------------------------

def test_the_readme_states_the_upload_limit_the_widgets_enforce():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    score = readme[readme.index("- **Score**"):readme.index("- **Learn**")]
    stated = re.findall(r"(\d+(?:\.\d+)?)\s?(KB|MB)\s+per\s+file", score)
    assert stated == [(str(textio.MAX_UPLOAD_MB), "MB")], stated
    assert textio.MAX_UPLOAD_BYTES == textio.MAX_UPLOAD_MB * 1_048_576
    at = app()
    uploaders = at.get("file_uploader")
    assert uploaders and {u.proto.max_upload_size_mb for u in uploaders} == {textio.MAX_UPLOAD_MB}
    assert any(f"at most {textio.MAX_UPLOAD_MB} MB per file" in plain(c.value) for c in at.caption)


# --- 5. CSV / TSV pairs on the Score page ----------------------------------------------------

CSV = ("id,candidate,reference_1,reference_2\n"
       "d1,the cat sat on the mat,the cat is on the mat,a cat sat\n"
       "d2,police killed the gunman,police kill the gunman,the gunman was shot\n").encode()


def test_a_csv_of_pairs_loads_on_the_score_page_and_its_rows_can_be_picked():
    at = app()
    uploader = next(u for u in at.get("file_uploader") if u.key.rsplit("_", 1)[0] == "upload_pairs")
    assert {".csv", ".tsv"} <= set(uploader.proto.type)  # the browser takes the file
    upload(at, "pairs.csv", CSV, "text/csv")
    assert not at.error, [e.value for e in at.error]
    assert at.session_state[state.CANDIDATE_KEY] == "the cat sat on the mat"
    assert at.session_state[state.REFERENCES_KEY] == ["the cat is on the mat", "a cat sat"]
    at.selectbox(key=inputs.PAIR_RECORD_KEY).set_value(1).run()
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == "police killed the gunman"
    want = rc.score("police killed the gunman", ["police kill the gunman", "the gunman was shot"],
                    at.session_state[state.SETTINGS_KEY].methods(), at.session_state[state.SETTINGS_KEY].options())
    assert at.dataframe[0].value["F"].tolist() == [m.fmeasure for m in want]


def test_read_pairs_reads_tsv_tables_with_several_systems():
    pairs = corpus_io.read_pairs(b"id\tcandidate_A\tcandidate_B\treference\n7\ta b\tc d\ta c\n", "runs.tsv")
    assert [(p.candidate, p.references, p.source) for p in pairs] == [
        ("a b", ("a c",), "runs.tsv id 7, candidate_A"), ("c d", ("a c",), "runs.tsv id 7, candidate_B")]
    with pytest.raises(textio.InputError, match="missing a reference column"):
        corpus_io.read_pairs(b"id,candidate\n1,a\n", "bad.csv")


# --- 6. the texts a tab kept come back only as one candidate with its references ------------

def test_kept_texts_are_read_back_only_when_they_are_a_pair():
    from lens_app import browser_texts
    from rouge_core.text.textio import pair_to_json

    assert browser_texts.kept_texts(pair_to_json("the cat", ["a cat", "the cat sat"])) == ("the cat", ["a cat", "the cat sat"])
    for bad in (None, 3, "", "not json", '[{"candidate": "a", "references": ["b"]}, {"candidate": "c", "references": ["d"]}]',
                '{"candidate": "a"}', '{"candidate": 1, "references": ["b"]}'):
        assert browser_texts.kept_texts(bad) is None


# --- 7. no message says a filled box is empty; the page says how a text is applied ----------

def test_missing_texts_are_named_without_calling_a_box_empty_and_the_page_says_how_to_apply():
    at = app()
    set_texts(at, "", ["the cat"])
    messages = [plain(w.value) for w in at.warning]
    assert messages == ["There is no candidate text yet: type or paste the summary you want to score."]
    assert not any("empty" in m for m in messages)
    [info] = [plain(i.value) for i in at.info]
    assert "Ctrl+Enter" in info and "pasted text is scored at once" in info
    assert any("Ctrl+Enter" in plain(c.value) for c in at.caption)  # said beside the boxes too


# --- 8. Learn: a long text's tokens scroll in a box of fixed height --------------------------

LEARN = str(ROOT / "pages" / "learn.py")


def test_learn_draws_a_long_texts_tokens_in_a_box_of_fixed_height():
    from lens_app.settings import Settings
    from rouge_core.viz import highlight

    at = AppTest.from_file(LEARN, default_timeout=120)
    at.session_state[state.CANDIDATE_KEY] = LONG_CANDIDATE
    at.session_state[state.REFERENCES_KEY] = [LONG_REFERENCE]
    at.session_state[state.SETTINGS_KEY] = Settings()
    at.session_state["learn_open_tokens"] = True
    at.run()
    assert not at.exception, at.exception
    boxes = [h.proto.body for h in at.get("html") if "rl-text" in h.proto.body]
    assert len(boxes) == 4  # candidate and reference tokens above the lessons, and marked in "How your text is tokenized"
    for body in boxes:
        assert "overflow-y:auto" in body and "max-height:" in body, body[:300]
    assert f"max-height:{highlight.SCROLL_BOX_HEIGHT}" in boxes[0]
    assert "**Candidate** (1,800 tokens)" in [m.value for m in at.markdown]


# --- 9. a long text column leaves the numbers beside it in view ------------------------------

def test_long_text_columns_get_a_bounded_width_when_numbers_sit_beside_them():
    runs = pd.DataFrame({"run": ["word " * 30, "a b"], "length k": [30, 2], "weight f(k)": [59.3, 2.3]})
    assert display.column_settings(runs)["run"]["width"] == "medium"
    assert display.column_settings(runs, text_width="small")["run"]["width"] == "small"
    assert "width" not in display.column_settings(pd.DataFrame({"run": ["a b"], "length k": [2]})).get("run", {})
