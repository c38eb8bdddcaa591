import csv
import io
import json
import math
import re

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from rouge_core import score_corpus
from rouge_core.studies.agreement import cohen_kappa, pairwise_agreement
from rouge_core.corpora.export import csv_prefixed_cells, neutralise, restore, to_csv, to_json


@pytest.mark.parametrize("text", ["=1+1", "+cmd", "-2", "@SUM(A1)", "\t=x", " =x", "\ufeff=x", "\u200b@x", "＝1", "''=x"])
def test_formula_starts_are_neutralised(text):
    assert neutralise(text) == "'" + text
    assert restore(neutralise(text)) == text


@pytest.mark.parametrize("value", ["plain", "a=b", "", "'quoted", "\tplain", 3, -2.5, None])
def test_other_cells_unchanged(value):
    assert neutralise(value) == value
    assert restore(value) == value


def test_csv_and_json_carry_signature_and_are_safe():
    frame = pd.DataFrame([{"id": "1", "candidate": "=HYPERLINK(\"x\")", "score": -0.5, "missing": math.nan}])
    rows = list(csv.DictReader(io.StringIO(to_csv(frame, "rouge1|v:0.1.0").decode())))
    assert rows[0]["candidate"] == "'=HYPERLINK(\"x\")"
    assert rows[0]["score"] == "-0.5"  # numbers are not text cells
    assert rows[0]["signature"] == "rouge1|v:0.1.0"
    payload = json.loads(to_json(frame, "rouge1|v:0.1.0", meta={"seed": 0}))
    assert payload["signature"] == "rouge1|v:0.1.0" and payload["meta"] == {"seed": 0}
    assert payload["rows"][0]["candidate"] == "=HYPERLINK(\"x\")"  # JSON is data: exact
    assert payload["rows"][0]["missing"] is None


def test_corpus_exports_round_trip():
    result = score_corpus(["-a b", "c"], [["a b"], ["c"]], ["rouge1"])
    rows = list(csv.DictReader(io.StringIO(to_csv(result.to_frame(), result.signature).decode())))
    assert rows[0]["candidate"] == "'-a b"
    assert float(rows[1]["rouge1_fmeasure"]) == 1.0
    agg = result.aggregates_frame()
    data = json.loads(to_json(agg, result.signature))
    assert data["rows"][0]["signature"].startswith("rouge1|")


def test_cohen_kappa_hand_checked():
    # 10 items: agree on 7; a says yes 5×, b says yes 6× -> p_e = .5*.6 + .5*.4 = .5; κ = (.7-.5)/.5 = .4
    a = ["y"] * 5 + ["n"] * 5
    b = ["y", "y", "y", "y", "n", "y", "y", "n", "n", "n"]
    assert sum(x == y for x, y in zip(a, b)) == 7
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(a, a) == 1.0
    assert cohen_kappa(["3", "3"], ["3", "3"]) == 1.0
    assert cohen_kappa(["1", "5"], ["2", "5"], weights="quadratic", categories="12345") > cohen_kappa(["1", "5"], ["2", "5"])
    rows = pairwise_agreement({"ann": {"p1": "A", "p2": "B"}, "bob": {"p1": "A", "p2": "A", "p3": "tie"}})
    assert (rows[0].items, rows[0].agreed) == (2, 1)


# --- issue 14: a spreadsheet never sees a formula, and exports keep the data ----------------

FORMULA_FIRST = set("=+-@＝＋－＠﹦﹢﹣﹫")


def _physical_lines_start_safe(data: bytes) -> None:
    # A spreadsheet (or an importer that ignores quotes) may start a row or cell after any
    # CR or LF: no physical line may start, after invisible characters, with a formula character.
    for line in re.split(r"\r\n|\r|\n", data.decode("utf-8")):
        for cell in line.split(","):
            stripped = cell.lstrip("\" \t\ufeff\u200b\u200c\u200d\u2060\u3000")
            assert not stripped or stripped[0] not in FORMULA_FIRST, (line, cell)


def test_bare_cr_cannot_start_a_row():
    cell = "the cat\r=cmd|' /C calc'!A0"
    data = to_csv(pd.DataFrame([{"candidate": cell}]), "sig")
    assert b"\"the cat\r'=cmd|' /C calc'!A0\"" in data  # quoted, and the second line neutralised
    rows = list(csv.reader(io.StringIO(data.decode(), newline="")))
    assert rows == [["candidate", "signature"], ["the cat\r'=cmd|' /C calc'!A0", "sig"]]
    _physical_lines_start_safe(data)


@pytest.mark.parametrize("cell", [" =1", "\ufeff=1", "\u200b=1", "\u3000+1", "＝1+1", "＋1", "－1", "＠SUM(A1)",
                                  "a\n=1", "a\r\n-1", "a\u2028@x", "a\r \u200b=1"])
def test_invisible_prefixes_and_every_line_are_covered(cell):
    data = to_csv(pd.DataFrame([{"text": cell}]), "sig")
    _physical_lines_start_safe(data)
    back = list(csv.DictReader(io.StringIO(data.decode(), newline="")))[0]["text"]
    assert back != cell and restore(back) == cell


def test_csv_quotes_every_cell_with_a_line_break():
    data = to_csv(pd.DataFrame([{"a": "x\ry", "b": "x\ny", "c": "plain"}]), "sig")
    assert data.split(b"\r\n") == [b"a,b,c,signature", b'"x\ry","x\ny",plain,sig', b""]


def test_prefixed_cells_are_counted_for_the_note():
    frame = pd.DataFrame([{"id": "d1", "candidate": "-LRB- the cat -RRB-", "reference": "a\n@b"},
                          {"id": "d2", "candidate": "plain", "reference": "plain"}])
    assert csv_prefixed_cells(frame, "sig") == 2
    assert csv_prefixed_cells(frame.iloc[[1]], "sig") == 0


def test_json_export_is_exact():
    texts = ["-LRB- a", "=1+1", "'quoted", "a\r=b", "\u2028"]
    payload = json.loads(to_json(pd.DataFrame([{"text": t} for t in texts]), "sig"))
    assert [r["text"] for r in payload["rows"]] == texts
    odd = to_json([{"text": "\ud800"}], "sig")  # a lone surrogate stays exact through JSON's escapes
    assert json.loads(odd)["rows"][0]["text"] == "\ud800"


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("a1é ='\t\r\n\u2028\u200b+-@＝")), max_size=8))
def test_neutralise_is_the_line_by_line_rule_on_every_text(text):
    """neutralise's shortcut (one line starting with a letter or digit is left as it is) gives
    what the line-by-line rule gives."""
    from rouge_core.corpora.export import _lines_changed, _runs_as_formula

    assert neutralise(text) == (_lines_changed(text, lambda line: "'" + line if _runs_as_formula(line) else line)
                                if text else text)
    assert restore(neutralise(text)) == text
