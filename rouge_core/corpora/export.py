"""CSV and JSON export of tables, each carrying the reproducibility signature.

CSV is for spreadsheets, so it is made safe to open in one:
- every cell holding a CR or LF is quoted (rows end in "\\r\\n", and Python's csv module
  quotes any cell that holds a character of the row end), so no text starts a new row;
- a text that a spreadsheet would run as a formula gets a leading single quote: a text whose
  start, or the start of any of its lines (after CR, LF or any other line break), is one of
  = + - @ (or the full-width ＝ ＋ － ＠ and small ﹦ ﹢ ﹣ ﹫), possibly after spaces, tabs,
  a BOM, zero-width or other invisible characters. A text that already starts with such
  quotes before one of them gets one more, so `restore` undoes `neutralise` exactly (the
  corpus reader does when it loads a ROUGE Lens CSV back). DUC texts starting with -LRB-
  are changed this way: `csv_prefixed_cells` counts the changed cells so the app can say so.

JSON is data, not a spreadsheet: it holds every value exactly as in the table.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import unicodedata
from typing import Any, Mapping

FORMULA_STARTS = frozenset("=+-@＝＋－＠﹦﹢﹣﹫")
# Where a spreadsheet (or a CSV importer that ignores quotes) may begin a new cell: "\r\n"
# and every character str.splitlines breaks at.
_LINE_BREAK = re.compile("(\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029])")


def _invisible(char: str) -> bool:
    """What a spreadsheet may skip before a formula character: whitespace, control and format
    characters (BOM, zero-width space and joiners, direction marks, soft hyphen...)."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf")


def _runs_as_formula(line: str) -> bool:
    """Single quotes, then invisible characters, then a formula character. The leading quotes
    make `neutralise` reversible: a line that already starts with them gets one more."""
    i, n = 0, len(line)
    while i < n and line[i] == "'":
        i += 1
    while i < n and _invisible(line[i]):
        i += 1
    return i < n and line[i] in FORMULA_STARTS


def _lines_changed(value: str, change) -> str:
    parts = _LINE_BREAK.split(value)  # lines at even positions, the breaks between them
    parts[::2] = [change(line) for line in parts[::2]]
    return "".join(parts)


def neutralise(value: Any) -> Any:
    """A text with a single quote before every line that starts like a formula; other values
    unchanged."""
    if not isinstance(value, str) or not value:
        return value
    if value[0].isalnum() and _LINE_BREAK.search(value) is None:
        return value  # one line that starts with a letter or digit: the common case, at no cost
    return _lines_changed(value, lambda line: "'" + line if _runs_as_formula(line) else line)


def restore(value: Any) -> Any:
    """The text `neutralise` was given (its exact inverse); other values unchanged."""
    if not isinstance(value, str) or "'" not in value:
        return value
    return _lines_changed(value, lambda line: line[1:] if line[:1] == "'" and _runs_as_formula(line[1:]) else line)


def _records(frame) -> tuple[list[str], list[dict]]:
    if hasattr(frame, "to_dict"):
        return [str(c) for c in frame.columns], frame.to_dict(orient="records")
    rows = list(frame)
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return list(columns), rows


def _plain(value: Any) -> Any:
    """numpy scalars -> Python; NaN -> None (JSON has no NaN)."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _csv_cells(frame, signature: str, signature_column: str) -> tuple[list[str], list[list[Any]]]:
    """The header and rows `to_csv` writes, before neutralising."""
    columns, rows = _records(frame)
    if signature_column not in columns:
        columns = columns + [signature_column]
    body = []
    for row in rows:
        full = {signature_column: signature, **row}
        body.append([_plain(full.get(c)) if full.get(c) is not None else "" for c in columns])
    return columns, body


def to_csv(frame, signature: str, *, signature_column: str = "signature") -> bytes:
    """UTF-8 CSV, safe in a spreadsheet (see the module docstring); every row carries the
    signature (unless the table already has a column for it)."""
    columns, body = _csv_cells(frame, signature, signature_column)
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow([neutralise(c) for c in columns])
    for row in body:
        writer.writerow([neutralise(v) for v in row])
    return out.getvalue().encode("utf-8", "backslashreplace")  # a lone surrogate is no character: written \\udXXX


def csv_prefixed_cells(frame, signature: str = "", *, signature_column: str = "signature") -> int:
    """How many cells (header included) `to_csv` writes with an added single quote."""
    columns, body = _csv_cells(frame, signature, signature_column)
    return sum(neutralise(v) != v for v in columns) + sum(neutralise(v) != v for row in body for v in row)


def to_json(frame, signature: str, *, meta: Mapping[str, Any] | None = None) -> bytes:
    """{"signature": ..., "meta": {...}, "rows": [...]}, every value as in the table (NaN as
    null); `corpus_io` reads the rows back."""
    _, rows = _records(frame)
    clean = [{str(k): _plain(v) for k, v in row.items()} for row in rows]
    payload = {"signature": signature, "meta": dict(meta or {}), "rows": clean}
    text = json.dumps(payload, ensure_ascii=False, indent=2, default=str)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only JSON's \\u escapes keep it exactly
        return json.dumps(payload, ensure_ascii=True, indent=2, default=str).encode("ascii")
