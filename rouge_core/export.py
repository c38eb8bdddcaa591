"""CSV and JSON export of tables, each carrying the reproducibility signature.

Text cells that a spreadsheet would run as a formula (starting with =, +, -, @, or a tab /
carriage return that some spreadsheets skip before one of them) get a leading single quote.
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any, Mapping, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """A text cell that starts like a formula, prefixed with a single quote; others unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


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


def to_csv(frame, signature: str, *, signature_column: str = "signature") -> bytes:
    """UTF-8 CSV; every row carries the signature (unless the table already has a column for it)."""
    columns, rows = _records(frame)
    if signature_column not in columns:
        columns = columns + [signature_column]
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([neutralise(c) for c in columns])
    for row in rows:
        full = {signature_column: signature, **row}
        writer.writerow([neutralise(_plain(full.get(c))) if full.get(c) is not None else "" for c in columns])
    return out.getvalue().encode("utf-8")


def to_json(frame, signature: str, *, meta: Mapping[str, Any] | None = None) -> bytes:
    """{"signature": ..., "meta": {...}, "rows": [...]} with text cells neutralised too, so a
    JSON file converted to a sheet is just as safe."""
    _, rows = _records(frame)
    clean = [{str(k): neutralise(_plain(v)) for k, v in row.items()} for row in rows]
    payload = {"signature": signature, "meta": dict(meta or {}), "rows": clean}
    return json.dumps(payload, ensure_ascii=False, indent=2, default=str).encode("utf-8")


def export_names(stem: str) -> Sequence[str]:
    return (f"{stem}.csv", f"{stem}.json")
