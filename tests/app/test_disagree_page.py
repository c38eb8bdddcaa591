"""The disagreement page names the computed cause of each difference, on the user's text."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lens_app.markup import plain
from lens_app.settings import Settings
from rouge_core.teach import disagree

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "disagree.py")


TOOLS = [*disagree.VARIANTS, "your settings"]


def open_every_section(at: AppTest, baseline: str = "rouge-score") -> None:
    """The detail sections compute only while open (as a user opens them)."""
    for other in TOOLS:
        at.session_state[f"disagree_open_{baseline}_{other}"] = True
    at.session_state["disagree_open_stemming"] = True
    at.session_state["disagree_open_sentences"] = True


def run_page(candidate, references) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    at.session_state["candidate"] = candidate
    at.session_state["references"] = references
    open_every_section(at)
    at.run()
    assert not at.exception, at.exception
    return at


def causes_table(at: AppTest):
    return next(df.value for df in at.dataframe if "causes (in walk order)" in df.value.columns)


def token_tables(at: AppTest):
    return [df.value for df in at.dataframe if "word as typed" in df.value.columns]


def test_non_ascii_text_names_tokenization_and_shows_the_tokens():
    at = run_page("Le café était plein à midi.", ["Le cafe etait plein a midi."])
    causes = causes_table(at).set_index("tool")["causes (in walk order)"]
    assert "tokenization" in causes["MATLAB"]
    assert any("tokenization" in e.label for e in at.expander)
    words = {(row["word as typed"], row["tokens before"], row["tokens after"]) for t in token_tables(at) for _, row in t.iterrows()}
    assert ("café", "caf", "café") in words


def test_irregular_verbs_name_stemming():
    at = run_page("The children went home.", ["The child goes home."])
    causes = causes_table(at).set_index("tool")["causes (in walk order)"]
    assert "stemming" in causes["ROUGE-1.5.5 -m"]
    words = {(row["word as typed"], row["tokens after"]) for t in token_tables(at) for _, row in t.iterrows() if "tokens after" in t.columns}
    assert ("went", "go") in words and ("children", "child") in words


def test_side_by_side_table_matches_rouge_core():
    candidate, references = "The cat sat on the mat.", ["A cat sat on a mat."]
    at = run_page(candidate, references)
    shown = at.dataframe[0].value
    expected = disagree.side_by_side(candidate, references)
    for (_, row), exp in zip(shown.iterrows(), expected):
        for tool in disagree.VARIANTS:
            assert row[tool] == pytest.approx(exp[tool])


def test_baseline_can_change():
    at = run_page("The children went home.", ["The child goes home."])
    at.selectbox(key="disagree_baseline").set_value("ROUGE-1.5.5 -m").run()
    assert not at.exception
    tools = list(causes_table(at)["tool"])
    assert "rouge-score" in tools and "ROUGE-1.5.5 -m" not in tools


def test_empty_state_uses_the_example():
    at = AppTest.from_file(PAGE, default_timeout=90).run()
    assert not at.exception
    assert any("built-in example" in i.value for i in at.info)


def test_the_sidebar_settings_join_the_tools():
    import rouge_core

    at = AppTest.from_file(PAGE, default_timeout=90)
    at.session_state["candidate"] = "The children went home."
    at.session_state["references"] = ["The child goes home."]
    at.session_state["settings"] = Settings.from_options(rouge_core.profile("rouge-1.5.5", stemmer="rouge155"))
    at.run()
    assert not at.exception
    shown = at.dataframe[0].value.set_index("method")
    assert list(shown["your settings"]) == list(shown["ROUGE-1.5.5 -m"])
    causes = causes_table(at).set_index("tool")["causes (in walk order)"]
    assert causes["your settings"] == causes["ROUGE-1.5.5 -m"]
    assert not token_tables(at)  # the detail sections wait until opened


def test_a_score_above_one_is_explained_as_reval_quirk():
    at = run_page("a\na", ["a"])
    notes = [plain(i.value) for i in at.info if "above 1" in plain(i.value)]
    assert len(notes) == 1 and notes[0].startswith("reval: rougeLsum") and "named reval quirk" in notes[0]
    assert not [i for i in run_page("a b", ["a"]).info if "above 1" in i.value]
