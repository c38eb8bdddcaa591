"""Compare systems (pages/compare.py) tells one story (issue 27, item 7): one declared test colours
and words every difference, the other is shown where it disagrees, the ranking is summarised as
groups with every pair in a table, and a freshly loaded multi-system file is not called a single
system."""

import json
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rouge_core  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from rouge_core.corpora.corpus import rank_systems  # noqa: E402
from tests.annotated_corpus import corpus_csv, many_systems_csv  # noqa: E402

EIGHT = many_systems_csv(8, 25)


def page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "compare.py"), default_timeout=300)
    at.run()
    at.radio(key="compare_kind").set_value("Paste CSV / JSONL").run()
    return at


def load(at: AppTest, csv: str) -> None:
    at.text_area(key="compare_paste").set_value(csv).run()
    assert not at.exception, at.exception


def charts(at: AppTest) -> list[dict]:
    return [json.loads(e.proto.spec) for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]


def frame_with(at: AppTest, *columns: str):
    for df in at.dataframe:
        if all(c in df.value.columns for c in columns):
            return df.value
    raise AssertionError(f"no table with columns {columns}")


def test_a_multi_system_file_loaded_after_one_system_is_not_called_one_system():
    at = AppTest.from_file(str(ROOT / "pages" / "compare.py"), default_timeout=300)
    at.run()
    upload = at.file_uploader(key="compare_file")
    upload.set_value(("one.csv", b"id,candidate,reference\n1,the cat sat,the cat sat on the mat\n2,a dog,the dog ran\n",
                      "text/csv")).run()
    at.button(key="compare_score").click().run()
    assert any("Only one system is loaded" in plain(i.value) for i in at.info)
    at.file_uploader(key="compare_file").set_value(("three.csv", corpus_csv(systems=3, documents=25).encode(),
                                                    "text/csv")).run()  # loaded, not scored yet
    assert not at.exception, at.exception
    assert at.session_state["corpus_data"].system_names == ["candidate_alpha", "candidate_beta", "candidate_gamma"]
    assert not any("Only one system is loaded" in plain(i.value) for i in at.info)
    assert any(plain(i.value) == "3 systems are loaded: score them to compare them." for i in at.info)
    at.button(key="compare_score").click().run()
    assert not any("systems are loaded" in plain(i.value) for i in at.info)
    assert any(plain(m.value).startswith("Ranking of 3 systems") for m in at.markdown)


def test_one_declared_test_colours_and_words_the_ranking_of_eight_systems():
    at = page()
    load(at, EIGHT)
    at.button(key="compare_score").click().run()
    assert not at.exception, at.exception
    corpus = corpus_io.build_corpus(corpus_io.read_csv(EIGHT.encode()))
    scored = {s: rouge_core.score_corpus(list(c), list(corpus.references), ["rouge1"], ids=list(corpus.ids))
              for s, c in corpus.systems.items()}
    want = rank_systems(scored, "rouge1", resamples=1000, seed=0)  # approximate randomization, Holm, α = 0.05
    shown = next(plain(m.value) for m in at.markdown if plain(m.value).startswith("Ranking of 8 systems"))
    assert shown == "\n\n".join(want.summary_parts())  # a paragraph each: order, test, groups, counts
    words = want.summary()
    assert ("Significance by approximate randomization, Holm-adjusted over 28 comparisons, α = 0.05. Top group: "
            "candidate_M7, candidate_M6; then candidate_M5, ") in words
    assert "No significant difference between" not in words and words.count(" p = ") == 0  # pairs are in the table
    pairs = frame_with(at, "verdict", "other_test", "adjusted_p")
    assert len(pairs) == 28
    # Every interval that excludes 0 is drawn "significant", or its row says why not.
    excludes = (pairs["difference_low"] > 0) | (pairs["difference_high"] < 0)
    unexplained = pairs[excludes & (pairs["verdict"] == "not significant") & (pairs["other_test"] == "")]
    assert unexplained.empty
    disagreeing = pairs[pairs["other_test"] != ""]
    assert len(disagreeing) == 4 and set(disagreeing["verdict"]) == {"not significant"}
    row = disagreeing.iloc[0]
    assert row["other_test"] == (f"the 95% bootstrap interval {row['difference_low']:+.4f} to "
                                 f"{row['difference_high']:+.4f} excludes 0 (it is not adjusted for the 28 comparisons)")
    assert "On 4 pairs the paired bootstrap disagrees (the table's other_test column says how)." in words
    # The chart's colours follow the declared test, named in its legend; the disagreeing pairs have their own colour.
    chart = next(c for c in charts(at) if c.get("title", {}).get("text") == "Every pair of systems: difference with "
                                                                            "its interval")
    colour = chart["layer"][1]["encoding"]["color"]
    assert " ".join(colour["title"]) == ("Colour: approximate randomization, Holm-adjusted over 28 comparisons, "
                                         "α = 0.05")
    assert colour["scale"]["domain"] == ["significant", "not significant",
                                         "not significant, though the 95% bootstrap interval disagrees"]
    # Two systems in detail are worded by the same test.
    at.selectbox(key="compare_a").set_value("candidate_M7").run()
    at.selectbox(key="compare_b").set_value("candidate_M5").run()
    at.number_input(key="compare_resamples").set_value(300).run()
    detail = next(plain(m.value) for m in at.markdown if plain(m.value).startswith("Over 25 pairs, candidate_M7"))
    assert "By approximate randomization, the difference is significant at the 0.05 level" in detail
    assert any("not adjusted: the ranking above adjusts for all 28 comparisons" in plain(c.value) for c in at.caption)


def test_too_few_resamples_for_the_adjustment_are_said():
    at = page()
    load(at, EIGHT)
    at.button(key="compare_score").click().run()
    at.number_input(key="rank_resamples").set_value(500).run()
    assert any(plain(w.value) == "With 500 resamples no pair can be significant at α = 0.05: the smallest p-value "
               "approximate randomization can give is 0.002, times 28 comparisons (Holm), 0.0559. Use at least 560 "
               "resamples." for w in at.warning)
