"""Fuzzing the exporters: CSV and JSON tables (rouge_core.corpora.export) and the evidence HTML
(rouge_core.viz.highlight). CSV parses back to the same rows and no cell is a formula to a
spreadsheet; JSON is exact; HTML holds user text only as escaped text."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import unicodedata
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

import rouge_core
from rouge_core.corpora.export import neutralise, restore, to_csv, to_json
from rouge_core.viz import highlight
from tests.fuzzing import FUZZ, fuzz

TRICKY = "\u2028\u2029\u0085\x0c\x0b\x1c\x1d\x1e\r\n\t \ufeff\u200b\u200d\u0600\xad'\"=+-@＝＋－＠﹦,;<>&é"
FORMULA = set("=+-@＝＋－＠﹦﹢﹣﹫")
LINE_BREAKS = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def texts(max_pieces: int = 3):
    tricky = st.text(TRICKY, max_size=6)
    anything = st.text(st.characters(exclude_categories=("Cs",)), max_size=6)
    return st.lists(st.one_of(tricky, anything), max_size=max_pieces).map("".join)


cells = st.one_of(texts(), st.none(), st.integers(-10**6, 10**6), st.floats(allow_infinity=False))


@st.composite
def tables(draw):
    columns = draw(st.lists(texts(2).filter(lambda c: c and c != "signature"), min_size=1, max_size=4, unique=True))
    n = draw(st.integers(0, 4))
    return columns, [{c: draw(cells) for c in columns} for _ in range(n)]


def _spreadsheet_safe(cell: str) -> bool:
    """No line of the cell, once invisible characters are skipped, starts with a formula character."""
    for line in LINE_BREAKS.split(cell):
        visible = line.lstrip("".join(ch for ch in set(line) if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf")))
        if visible[:1] in FORMULA:
            return False
    return True


def _expected_cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return neutralise(value) if isinstance(value, str) else str(value)


@fuzz
@FUZZ
@given(tables(), texts())
def test_csv_parses_back_and_is_spreadsheet_safe(table, signature):
    columns, rows = table
    columns = columns if rows else []  # a table without rows has no columns but the signature
    data = to_csv(rows, signature)
    parsed = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    assert len(parsed) == 1 + len(rows)  # no text starts a row of its own
    assert parsed[0] == [neutralise(c) for c in columns] + ["signature"]
    for row, cells_back in zip(rows, parsed[1:]):
        assert cells_back == [_expected_cell(row[c]) for c in columns] + [neutralise(signature)]
        for c, cell in zip(columns, cells_back):
            if isinstance(row[c], str):
                assert restore(cell) == row[c]
                assert _spreadsheet_safe(cell), cell
            elif isinstance(row[c], float) and not math.isnan(row[c]):
                assert float(cell) == row[c]
    assert all(_spreadsheet_safe(c) for c in parsed[0])


@fuzz
@FUZZ
@given(tables(), texts())
def test_json_export_is_exact(table, signature):
    columns, rows = table
    payload = json.loads(to_json(rows, signature, meta={"note": signature}))
    assert payload["signature"] == signature and payload["meta"] == {"note": signature}
    expected = [{c: None if isinstance(v, float) and math.isnan(v) else v for c, v in row.items()} for row in rows]
    assert payload["rows"] == expected


class _Html(HTMLParser):
    """Tags, attributes and text of a rendered snippet."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes.update(name for name, _ in attrs)

    def handle_data(self, data):
        self.text.append(data)


def _parsed(snippet: str) -> _Html:
    parser = _Html()
    parser.feed(snippet)
    parser.close()
    assert parser.tags <= {"div", "span", "sup", "b"}, parser.tags  # user text never became a tag
    assert parser.attributes <= {"class", "style", "title"}, parser.attributes
    return parser


def _visible_text(snippet: str) -> str:
    return "".join(_parsed(snippet).text)


words = st.lists(st.one_of(st.sampled_from(["the", "cat", "<b>", "a&b", "\"x\"", "'y'", "<script>alert(1)</script>",
                                            "-->", "é", "Cat", "&amp;", "\r", "\n", "\u2028", ">"]), texts(1)),
                 max_size=12).map(" ".join)


@fuzz
@FUZZ
@given(words, words, st.sampled_from(["rouge-score", "rouge-1.5.5", "matlab", "reval"]))
def test_highlight_html_escapes_user_text(candidate, reference, profile):
    methods = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2"]
    result = rouge_core.score(candidate, [reference], methods, profile, evidence=True)
    cand, ref = result.candidate, result.references[0]
    for side, doc in (("candidate", cand), ("reference", ref)):
        for method in ("rouge1", "rouge2"):
            snippet = highlight.ngram_highlight_html(doc, result[method].per_reference[0].evidence, side)
            assert _visible_text(snippet) == doc.text  # the text as typed, every character escaped
    for snippet in (*highlight.lcs_alignment_html(cand, ref, result["rougeL"].per_reference[0].evidence),
                    highlight.union_lcs_html(cand, ref, result["rougeLsum"].per_reference[0].evidence),
                    *highlight.wlcs_runs_html(cand, ref, result["rougeW-1.2"].per_reference[0].evidence)):
        _parsed(snippet)
