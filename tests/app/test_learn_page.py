"""The Learn page shows the fractions rouge_core computes, and the LCS heatmap of the pair."""

from pathlib import Path

import html
import re

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

import rouge_core
from lens_app.settings import Settings
from rouge_core.teach import explain
from rouge_core.text import languages
from rouge_core.scorer.scoring import prepare_pair
from tests.extras import needs_multilingual

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "learn.py")

INPUTS = [
    ("the cat sat on the the mat", ["the cat is on the mat"], rouge_core.profile("rouge-score")),
    ("Police killed the gunman.\nThe gunman died.", ["The gunman was shot dead by police.", "Police shot the gunman"], rouge_core.profile("rouge-1.5.5")),
    ("The children went home", ["The child goes home early"], rouge_core.profile("rouge-1.5.5", stemmer="rouge155")),
]


SECTION_KEYS = ("learn_open_n", "learn_open_l", "learn_open_w", "learn_open_s", "learn_open_multi")


def run_page(candidate, references, options, open_sections=SECTION_KEYS) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["candidate"] = candidate
    at.session_state["references"] = references
    at.session_state["settings"] = Settings.from_options(options)
    for key in open_sections:  # each section computes only while it is open
        at.session_state[key] = True
    at.run()
    assert not at.exception, at.exception
    return at


def shown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def expected_fractions(candidate, references, options, method, ref_index=0) -> list[str]:
    stats = rouge_core.score(candidate, references, [method], options)[method].per_reference[ref_index].stats
    w = explain.working(stats, options)
    return [w.recall.text(), w.precision.text(), w.f_text]


def chart_frames(at: AppTest) -> list:
    frames = []
    for chart in at.get("vega_lite_chart"):
        frames.append([pa.ipc.open_stream(d.data.data).read_all().to_pandas() for d in chart.proto.datasets])
    return frames


@pytest.mark.parametrize("candidate,references,options", INPUTS)
def test_fractions_shown_equal_rouge_core_statistics(candidate, references, options):
    at = run_page(candidate, references, options)
    text = shown(at)
    for method in ("rouge1", "rougeL", "rougeLsum", "rougeLsum-best", "rougeS4"):
        for line in expected_fractions(candidate, references, options, method):
            assert f"`{line}`" in text, (method, line)
    stats = rouge_core.score(candidate, references, ["rouge1"], options)["rouge1"].per_reference[0].stats
    assert f"R = {explain.format_number(stats.hits)} / {explain.format_number(stats.ref_total)}" in text


@pytest.mark.parametrize("candidate,references,options", INPUTS)
def test_changing_n_and_reference_updates_the_fractions(candidate, references, options):
    at = run_page(candidate, references, options)
    at.radio(key="learn_n").set_value(2).run()
    ref_index = 0
    if len(references) > 1:
        ref_index = 1
        at.selectbox(key="learn_reference").set_value(1).run()
    text = shown(at)
    for line in expected_fractions(candidate, references, options, "rouge2", ref_index):
        assert f"`{line}`" in text


def test_clipping_is_explained():
    at = run_page("the the the cat", ["the cat the"], rouge_core.profile("rouge-score"))
    assert "counts 2×, not 3×" in shown(at)
    assert "`R = 3 / 3 = 1.0000`" in shown(at)


@pytest.mark.parametrize("candidate,references,options", INPUTS)
def test_heatmap_holds_the_lcs_table(candidate, references, options):
    at = run_page(candidate, references, options)
    cand, refs = prepare_pair(candidate, references, options)
    cells = explain.lcs_dp_cells(refs[0].terms, cand.terms)
    (heatmap,) = [frames[0] for frames in chart_frames(at) if "on_path" in frames[0].columns]
    assert heatmap[["i", "j", "value", "on_path", "match"]].to_dict("records") == [
        {k: c[k] for k in ("i", "j", "value", "on_path", "match")} for c in cells
    ]
    scored = rouge_core.score(candidate, references, ["rougeL"], options, evidence=True)
    lcs = scored["rougeL"].per_reference[0].evidence.lcs
    lcs_box = [re.sub(r"<[^>]*>", "", body) for body in section_html(at) if "rl-token" not in body]
    assert html.unescape(lcs_box[0]) == (" ".join(lcs) or "(empty)")  # the LCS, under the heatmap


def test_w_slider_and_skip_slider():
    candidate, references, options = INPUTS[0]
    at = run_page(candidate, references, options)
    at.slider(key="learn_w").set_value(2.0).run()
    at.slider(key="learn_skip").set_value(1).run()
    text = shown(at)
    for line in expected_fractions(candidate, references, options.replace(wlcs_form="paper"), "rougeW-2"):
        assert f"`{line}`" in text
    for line in expected_fractions(candidate, references, options, "rougeS1"):
        assert f"`{line}`" in text


def test_multi_reference_section_shows_every_mode():
    candidate, references, options = INPUTS[1]
    at = run_page(candidate, references, options)
    frames = [df.value for df in at.dataframe]
    modes = next(f for f in frames if "mode" in f.columns)
    assert len(modes) == 5
    for (_, row), mode in zip(modes.iterrows(), rouge_core.MULTI_REF_MODES):
        expected = rouge_core.score(candidate, references, ["rouge1"], options.replace(multi_ref=mode))["rouge1"].score
        assert row["F"] == pytest.approx(expected.fmeasure)


def test_empty_state_uses_the_example_and_names_the_paper():
    at = AppTest.from_file(PAGE, default_timeout=60)
    for key in SECTION_KEYS:
        at.session_state[key] = True
    at.run()
    assert not at.exception
    assert any("built-in example" in i.value for i in at.info)
    assert len(at.expander) == 6  # the tokenization section and the five methods' sections
    assert all("Lin (2004)" in c.value for c in at.caption if c.value.startswith("Sources"))
    assert sum(c.value.startswith("Sources") for c in at.caption) == 5


def test_learn_page_through_the_router():
    if not (ROOT / "app.py").exists():
        pytest.skip("app.py not written yet")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["candidate"] = "the cat sat on the the mat"
    at.session_state["references"] = ["the cat is on the mat"]
    at.run()
    at.switch_page("pages/learn.py").run()
    assert not at.exception, at.exception
    assert any(t.value == "Learn how ROUGE counts" for t in at.title)


def test_a_closed_section_computes_nothing():
    at = run_page(*INPUTS[0], open_sections=())
    assert [e.label for e in at.expander][:2] == ["How your text is tokenized", "ROUGE-N: counting shared n-grams"]
    assert not [df for df in at.dataframe if "made into" in df.value.columns] and not section_html(at)  # tokens wait too
    assert len(at.get("vega_lite_chart")) == 0  # the heatmap, weight curve and growth charts wait
    assert "Union hits" not in shown(at) and "Clipping:" in shown(at)  # ROUGE-N is open by default


def test_reval_best_sentence_recall_above_one_is_named_as_reval_quirk():
    """Issue 14 #10: reval's unclipped rougeLsum-best may exceed 1; the page says why."""
    at = run_page("a\na", ["a"], rouge_core.profile("reval"))
    notes = [i.value for i in at.info if "above 1" in i.value]
    assert notes == [rouge_core.scorer.scoring.above_one_note("rougeLsum-best", rouge_core.Score(1.0, 2.0, 4 / 3))]
    assert "2.0000 is above 1" in notes[0] and "named reval quirk" in notes[0]
    clipped = run_page("a\na", ["a"], rouge_core.profile("rouge-score"))
    assert not [i for i in clipped.info if "above 1" in i.value]


TOKENS_SECTION = "learn_open_tokens"


def token_tables(at: AppTest) -> list:
    return [df.value for df in at.dataframe if "made into" in df.value.columns]


TOKEN_LINES = 2  # the candidate's and the reference's tokens, drawn above the sections


def token_lines(at: AppTest) -> list[str]:
    """The text of the token lines at the top of the page (plain boxes, unescaped)."""
    return [html.unescape(re.sub(r"<[^>]*>", "", h.value)) for h in at.html[:TOKEN_LINES]]


def section_html(at: AppTest) -> list[str]:
    """The HTML the open sections drew, below the token lines."""
    return [h.value for h in at.html[TOKEN_LINES:]]


def marked_tokens(at: AppTest) -> list[list[str]]:
    """The text of every token span drawn, per text box."""
    return [[html.unescape(t) for t in re.findall(r'<span class="rl-token"[^>]*>([^<]*)</span>', body)]
            for body in section_html(at)]


@needs_multilingual
@pytest.mark.parametrize("language", list(languages.EXAMPLES))
def test_the_tokenization_section_shows_the_tokens_of_the_users_texts(language):
    candidate, reference = languages.EXAMPLES[language]
    options = rouge_core.profile("multilingual", language=language)
    at = run_page(candidate, [reference], options, open_sections=(TOKENS_SECTION,))
    cand_doc, (ref_doc,) = prepare_pair(candidate, [reference], options)
    # every scoring token is marked on the characters typed, in order
    assert marked_tokens(at) == [[candidate[t.start:t.end] for t in cand_doc.tokens],
                                 [reference[t.start:t.end] for t in ref_doc.tokens]]
    tables = token_tables(at)
    assert len(tables) == 2
    for frame, text in zip(tables, (candidate, reference)):
        rows = explain.tokenization_view(text, options)
        assert frame["as typed"].tolist() == [r["as typed"] for r in rows]
        assert frame["tokens"].tolist() == [len(r["tokens"]) for r in rows]
        assert frame["made into"].tolist() == [" ".join(f"“{t}”" for t in r["tokens"]) for r in rows]
        assert frame["dropped"].tolist() == [r["dropped"] for r in rows]
    assert f"language **{languages.display_name(language)}" in "\n".join(c.value for c in at.caption)


@needs_multilingual
def test_the_tokenization_section_shows_segmented_and_dropped_words():
    thai, _ = languages.EXAMPLES["thai"]
    at = run_page(thai, ["หมา"], rouge_core.profile("multilingual", language="thai"), open_sections=(TOKENS_SECTION,))
    first = token_tables(at)[0].iloc[0]
    # segmented into its words, and XL-Sum's joining space (a token it counts) shown with them
    assert (first["as typed"], first["start"], first["end"], first["made into"], first["offsets"]) == (
        "ผมชอบแมว", 0, 8, "“ผม” “ชอบ” “แมว” “ ”", "0–2 2–5 5–8 8–9")
    hindi, _ = languages.EXAMPLES["hindi"]
    at = run_page(hindi, ["मुझे"], rouge_core.profile("rouge-score"), open_sections=(TOKENS_SECTION,))
    frame = token_tables(at)[0]
    assert frame["tokens"].tolist() == [0] * 5  # rouge-score keeps [a-z0-9]: every Hindi word is dropped whole
    assert frame["dropped"].tolist() == hindi.split()
    assert marked_tokens(at) == [[], []]


def test_the_tokenization_section_escapes_the_users_text():
    candidate = "the <b>cat</b> & <script>alert(1)</script> dog"
    at = run_page(candidate, ["the cat"], rouge_core.profile("rouge-score", tokenizer="whitespace"),
                  open_sections=(TOKENS_SECTION,))
    bodies = section_html(at)
    assert all("<b>" not in h.value and "<script>" not in h.value for h in at.html)
    assert "&lt;b&gt;cat&lt;/b&gt;" in bodies[0] and "&amp;" in bodies[0]
    assert marked_tokens(at)[0] == candidate.split()
    assert token_tables(at)[0]["as typed"].tolist() == candidate.split()
    assert token_lines(at) == [candidate, "the cat"]  # the tokens above the sections, as text
