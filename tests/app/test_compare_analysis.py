"""Issue 30 on the Compare systems page: copying from the source per system beside ROUGE, the
reference n-grams one system matches and the other misses (an example opens on the Score page
with its source), buckets, lengths and the HTML report."""

import csv
import io
import json
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app import inputs, state  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from rouge_core import profile  # noqa: E402
from rouge_core.studies.analysis import ngram_differences, tokenize_corpus  # noqa: E402
from rouge_core.studies.source import corpus_abstractiveness  # noqa: E402

ROWS = [
    ("d1", "the cat sat on the mat", "a cat sat on a mat", "the cat sat on the mat\nit purred",
     "Yesterday the cat sat on the mat and purred."),
    ("d2", "the dog ran home fast", "a dog went home", "the dog ran home\nit was late",
     "The dog ran home fast because it was late."),
    ("d3", "rain fell on the town", "it rained on the <b>town</b>", "rain fell on the town\nstreets were wet",
     "Rain fell on the town all night and the streets were wet."),
    ("d4", "the market rose sharply", "stocks went up", "the market rose\ninvestors cheered",
     "The market rose sharply on Monday as investors cheered."),
]


def corpus_csv(with_sources: bool = True) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["id", "candidate_copy", "candidate_para", "reference", "source"][:5 if with_sources else 4])
    writer.writerows(row[:5 if with_sources else 4] for row in ROWS)
    return out.getvalue()


def scored_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "compare.py"), default_timeout=300)
    at.run()
    at.radio(key="compare_kind").set_value("Paste CSV / JSONL").run()
    at.text_area(key="compare_paste").set_value(corpus_csv()).run()
    at.button(key="compare_score").click().run()
    assert not at.exception, at.exception
    return at


def frame_with(at, *columns):
    return next(df.value for df in at.dataframe if all(c in df.value.columns for c in columns))


def test_copying_ngrams_buckets_lengths_and_report():
    at = scored_page()
    opts = at.session_state["corpus_results"]["candidate_copy"].options
    sources = [r[4] for r in ROWS]
    systems = {"candidate_copy": [r[1] for r in ROWS], "candidate_para": [r[2] for r in ROWS]}
    expected = corpus_abstractiveness(systems, sources, opts, resamples=1000, seed=0, confidence=95)
    wide = frame_with(at, "coverage", "density").set_index("system")
    assert wide.loc["candidate_copy", "coverage"] == expected.intervals["candidate_copy"]["coverage"].value == 1.0
    assert wide.loc["candidate_para", "density"] == expected.intervals["candidate_para"]["density"].value
    assert "rouge1 F" in wide.columns
    # the n-grams each system matches and the other misses
    diffs = ngram_differences(tokenize_corpus(systems, [[r[3]] for r in ROWS], opts), "candidate_copy",
                              "candidate_para")
    top = frame_with(at, "ngram", "matched_a", "pairs_a")
    assert list(top["ngram"]) == list(diffs.top("candidate_copy", 15)["ngram"])
    # buckets and lengths
    assert any(set(df.value.columns) >= {"bucket", "value", "low", "high"} for df in at.dataframe)
    lengths = frame_with(at, "mean_ratio", "longer_than_reference").set_index("system")
    assert lengths.loc["candidate_copy", "mean_ratio"] > lengths.loc["candidate_para", "mean_ratio"]
    specs = [json.loads(e.proto.spec) for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]
    titles = [json.dumps(s.get("title", "")) for s in specs]
    assert any("Copying from the source" in t for t in titles) and any("Length ratio" in t for t in titles)
    assert any(b.label.startswith("Download the comparison of") for b in at.get("download_button"))


def test_bucket_choices_and_an_example_opens_on_the_score_page_with_its_source():
    at = scored_page()
    at.segmented_control(key="bucket_kind").set_value("frequency").run()
    assert not at.exception, at.exception
    assert any("Word F-measure" in json.dumps(json.loads(e.proto.spec).get("title", "")) for e in at.main
               if getattr(e, "type", "") == "vega_lite_chart")
    at.segmented_control(key="bucket_kind").set_value("position").run()
    assert not at.exception, at.exception
    # choose an n-gram of the first system's table: its documents are offered
    table = next(df for df in at.dataframe if "ngram" in df.value.columns)
    gram = table.value.iloc[0]["ngram"]
    at.session_state["ngram_top_0"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    button = next(b for b in at.button if b.key and b.key.startswith("ngram_open_0_"))
    pair_id = button.label
    button.click().run()
    row = next(r for r in ROWS if r[0] == pair_id)
    assert at.session_state[state.CANDIDATE_KEY] == row[1] and at.session_state[inputs.SOURCE_KEY] == row[4]
    assert gram in {r["ngram"] for r in table.value.to_dict("records")}


def test_without_sources_the_page_says_how_to_get_them():
    at = AppTest.from_file(str(ROOT / "pages" / "compare.py"), default_timeout=300)
    at.run()
    at.radio(key="compare_kind").set_value("Paste CSV / JSONL").run()
    at.text_area(key="compare_paste").set_value(corpus_csv(with_sources=False)).run()
    at.button(key="compare_score").click().run()
    assert not at.exception, at.exception
    assert any("source` column" in c.value for c in at.caption)
