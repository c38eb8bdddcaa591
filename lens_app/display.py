"""How the pages show tables: scores with 4 decimals everywhere, and big tables summarised.

A table of thousands of rows (a skip-bigram table, a corpus) is never shipped to the
browser whole: the page shows its first rows, says how many there are, and offers the full
table as a CSV download (with the signature and spreadsheet-safe cells, rouge_core.export).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rouge_core import export

SHOWN_ROWS = 200  # rows of a big table sent to the browser; the rest is in the download
SCORE_FORMAT = "%.4f"


def score_columns(frame: pd.DataFrame) -> dict:
    """Column settings that print every float column with 4 decimals."""
    return {c: st.column_config.NumberColumn(format=SCORE_FORMAT) for c in frame.columns
            if pd.api.types.is_float_dtype(frame[c])}


def show_table(frame: pd.DataFrame, *, key: str, limit: int | None = SHOWN_ROWS, signature: str = "",
               download_name: str | None = None, column_config: dict | None = None, **kwargs):
    """`st.dataframe` with 4-decimal scores; past `limit` rows only the first ones are shown,
    with their count and a download of the whole table. Returns what st.dataframe returns."""
    config = {**score_columns(frame), **(column_config or {})}
    shown = frame if limit is None or len(frame) <= limit else frame.head(limit)
    event = st.dataframe(shown, hide_index=True, width="stretch", column_config=config, key=key, **kwargs)
    if len(shown) < len(frame):
        st.caption(f"Showing the first {len(shown):,} of {len(frame):,} rows; the download has them all.")
        # Built when clicked: writing 7,600 skip-bigram rows took 0.3 s, paid on every rerun.
        st.download_button(f"Download all {len(frame):,} rows (CSV)", lambda: export.to_csv(frame, signature),
                           file_name=download_name or f"{key}.csv", mime="text/csv", key=f"{key}_download",
                           on_click="ignore")
    return event
