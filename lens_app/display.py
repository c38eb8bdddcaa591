"""How the pages show tables: numbers written alike everywhere, and big tables summarised.

Numbers: whole numbers (counts, totals, row numbers) as integers with thousands separators
("1,406"), scores and other measures with 4 decimals ("0.7403"); never "1406.0000" or
"1.00453e+06" (rouge_core.teach.explain.format_number writes them the same way in text). A column
of nothing (every cell empty) is left out: it says nothing. A long text column is kept to a
medium width (small in a narrow column), so the numbers beside it stay in view.

A table of thousands of rows (a skip-bigram table, a corpus) is never shipped to the
browser whole: the page shows its first rows, says how many there are, and offers the full
table as a CSV download (with the signature and spreadsheet-safe cells, rouge_core.corpora.export).
"""

from __future__ import annotations

from typing import Iterable

import pandas as pd
import streamlit as st

from rouge_core.corpora import export
from rouge_core.teach.explain import format_number

SHOWN_ROWS = 200  # rows of a big table sent to the browser; the rest is in the download
COUNT_FORMAT = "%,d"  # whole numbers: 1,406
SCORE_FORMAT = "%,.4f"  # scores and other measures: 0.7403 (4,023.6541 when large)
LONG_TEXT = 40  # characters: a text column with longer cells is drawn at a medium width


def _whole(values: pd.Series) -> bool:
    """Every non-empty value is a whole number (a float column of counts)."""
    present = values.dropna()
    return bool(len(present)) and bool((present == present.round()).all())


def _mixed_counts(frame: pd.DataFrame, counts: Iterable[str]) -> list[str]:
    """The `counts` columns holding whole and fractional numbers (a hits column where
    ROUGE-W's weighted hits sit beside plain counts): written cell by cell."""
    return [c for c in counts if c in frame.columns and pd.api.types.is_float_dtype(frame[c])
            and not _whole(frame[c])]


def column_settings(frame: pd.DataFrame, counts: Iterable[str] = (), text_width: str = "medium") -> dict:
    """st.column_config settings for `frame`: integer columns, and float columns of whole
    numbers that are `counts` or reach 2 (no score does), as integers with thousands
    separators; other float columns with 4 decimals (a `counts` column mixing whole and
    fractional numbers gets no format here: `show_table` writes it cell by cell); long text
    columns at `text_width` ("medium"; "small" for a table in a narrow column) when numbers
    sit beside them."""
    counts = set(counts)
    config: dict = {}
    numeric = False
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_bool_dtype(values):
            continue
        if pd.api.types.is_integer_dtype(values):
            config[column] = st.column_config.NumberColumn(format=COUNT_FORMAT)
        elif pd.api.types.is_float_dtype(values):
            if _whole(values) and (column in counts or values.abs().max() >= 2):
                config[column] = st.column_config.NumberColumn(format=COUNT_FORMAT)
            elif column not in counts:
                config[column] = st.column_config.NumberColumn(format=SCORE_FORMAT)
        else:
            continue
        numeric = True
    if numeric:
        for column in frame.columns:
            values = frame[column]
            if (pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values)) and len(values) \
                    and values.map(lambda v: len(v) if isinstance(v, str) else 0).max() > LONG_TEXT:
                config[column] = st.column_config.TextColumn(width=text_width)
    return config


def empty_columns(frame: pd.DataFrame) -> list[str]:
    """Columns where every cell is empty (None or NaN), in a frame that has rows."""
    if frame.empty:
        return []
    return [c for c in frame.columns if frame[c].isna().all()]


def show_table(frame: pd.DataFrame, *, key: str, limit: int | None = SHOWN_ROWS, signature: str = "",
               download_name: str | None = None, column_config: dict | None = None, counts: Iterable[str] = (),
               text_width: str = "medium", **kwargs):
    """`st.dataframe` with numbers written as `column_settings` says (`counts` names the
    columns that hold counts, `text_width` the width of long text columns), without its
    columns of nothing; past `limit` rows only the first ones are shown, with their count and
    a download of the whole table. Returns what st.dataframe returns."""
    frame = frame.drop(columns=empty_columns(frame))
    counts = tuple(counts)
    config = {**column_settings(frame, counts, text_width), **(column_config or {})}
    shown = frame if limit is None or len(frame) <= limit else frame.head(limit)
    mixed = _mixed_counts(shown, counts)
    data = shown.style.format({c: format_number for c in mixed}, na_rep="") if mixed else shown
    event = st.dataframe(data, hide_index=True, width="stretch", column_config=config, key=key, **kwargs)
    if len(shown) < len(frame):
        st.caption(f"Showing the first {len(shown):,} of {len(frame):,} rows; the download has them all.")
        # Built when clicked: writing 7,600 skip-bigram rows took 0.3 s, paid on every rerun.
        st.download_button(f"Download all {len(frame):,} rows (CSV)", lambda: export.to_csv(frame, signature),
                           file_name=download_name or f"{key}.csv", mime="text/csv", key=f"{key}_download",
                           on_click="ignore")
    return event
