"""lens_app.display.show_table: big tables show their first rows, a count and the whole
table as a CSV download, written only when the download is clicked."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from lens_app import display
from rouge_core.corpora import export


class FakeStreamlit:
    """Records what show_table draws."""

    column_config = st.column_config

    def __init__(self):
        self.frames, self.captions, self.downloads = [], [], []

    def dataframe(self, frame, **kwargs):
        self.frames.append(frame)

    def caption(self, text):
        self.captions.append(text)

    def download_button(self, label, data, **kwargs):
        self.downloads.append((label, data, kwargs))


def test_a_big_table_shows_its_first_rows_and_writes_the_whole_csv_when_clicked(monkeypatch):
    fake = FakeStreamlit()
    monkeypatch.setattr(display, "st", fake)
    frame = pd.DataFrame({"gram": [f"=w{i} x" for i in range(450)], "F": [i / 450 for i in range(450)]})
    written = []
    real_to_csv = export.to_csv
    monkeypatch.setattr(export, "to_csv", lambda *args, **kw: written.append(args) or real_to_csv(*args, **kw))
    display.show_table(frame, key="grams", signature="sig-1", limit=200)
    assert len(fake.frames[0]) == 200 and fake.frames[0]["gram"].iloc[-1] == "=w199 x"
    assert fake.captions == ["Showing the first 200 of 450 rows; the download has them all."]
    [(label, data, kwargs)] = fake.downloads
    assert label == "Download all 450 rows (CSV)" and kwargs["file_name"] == "grams.csv"
    assert not written  # nothing is written until the button is clicked
    assert data() == real_to_csv(frame, "sig-1")
    lines = data().decode("utf-8").splitlines()
    assert len(lines) == 451 and lines[1].startswith("'=w0 x")  # every row, spreadsheet-safe


def test_a_small_table_is_shown_whole_without_a_download(monkeypatch):
    fake = FakeStreamlit()
    monkeypatch.setattr(display, "st", fake)
    display.show_table(pd.DataFrame({"F": [0.5, 0.25]}), key="small")
    assert len(fake.frames[0]) == 2 and not fake.captions and not fake.downloads
