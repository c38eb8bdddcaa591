"""Languages in the app (issue 17): the sidebar's language and diacritics settings, the
multilingual profile, XL-Sum's stemmers and the language examples, each checked against the
numbers rouge_core gives for the same texts and options."""

from __future__ import annotations

import pytest

import rouge_core as rc
from tests.app.sidebar_widgets import widget
from lens_app import examples, sidebar, state
from lens_app.markup import plain
from lens_app.settings import stemmer_label
from rouge_core.text import languages
from tests.app.test_score_page import app_test, assert_table_matches, fresh_app, scores, set_texts, settings_of
from tests.extras import needs_multilingual

pytestmark = needs_multilingual

THAI_CANDIDATE, THAI_REFERENCE = languages.EXAMPLES["thai"]

# rouge1 (P, R) of each language example under the multilingual profile with its language:
# the words rouge_core's highlight tests check (tests/core/test_multilingual_highlight.py).
EXAMPLE_ROUGE1 = {"thai": (3 / 6, 1.0), "hindi": (4 / 5, 4 / 5), "chinese": (2 / 4, 2 / 3), "japanese": (4 / 7, 4 / 5)}


def one_reference_app():
    """The app with a one-reference example loaded (the first visit's example has two)."""
    at = fresh_app()
    return at.button(key="example_reval-cat").click().run()


def rouge1(at) -> tuple[float, float]:
    row = scores(at).iloc[0]
    assert row["signature"].startswith("rouge1|")
    return row["P"], row["R"]


def sidebar_captions(at) -> list[str]:
    return [plain(c.value) for c in at.sidebar.caption]


def test_the_sidebar_language_changes_the_scores_to_xlsums():
    at = one_reference_app()
    set_texts(at, THAI_CANDIDATE, [THAI_REFERENCE])
    widget(at, "profile").select("multilingual").run()
    assert not at.exception, at.exception
    assert widget(at, "tokenizer").value == "multilingual"
    assert settings_of(at).options() == rc.profile("multilingual")
    assert_table_matches(at, THAI_CANDIDATE, [THAI_REFERENCE])
    # without a language XL-Sum has no Thai segmenter: OpenNMT keeps each phrase whole
    assert rouge1(at) == (0.0, 0.0)

    widget(at, "language").select("thai").run()
    assert not at.exception, at.exception
    expected = rc.score(THAI_CANDIDATE, [THAI_REFERENCE], settings_of(at).methods(), "multilingual", language="thai")
    assert settings_of(at).options() == expected.options
    assert_table_matches(at, THAI_CANDIDATE, [THAI_REFERENCE])
    assert rouge1(at) == pytest.approx((3 / 6, 1.0))  # ผม ชอบ หมา of ผม ชอบ แมว ␠ และ หมา
    assert "|lang:thai|" in scores(at).iloc[0]["signature"]
    assert any(c.startswith("Set within the multilingual profile: language.") for c in sidebar_captions(at))
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == THAI_CANDIDATE  # texts kept


def test_language_and_diacritics_apply_to_the_tokenizers_that_read_them():
    at = one_reference_app()
    assert widget(at, "language").disabled and widget(at, "strip_diacritics").disabled
    widget(at, "tokenizer").select("unicode").run()
    assert not widget(at, "language").disabled and not widget(at, "strip_diacritics").disabled
    candidate, reference = "كَتَبَ الوَلَدُ الدَّرْسَ", "كتب الولد الدرس"
    set_texts(at, candidate, [reference])
    assert rouge1(at) == (0.0, 0.0)  # vowelled words are other words
    widget(at, "language").select("arabic")
    widget(at, "strip_diacritics").check().run()
    assert not at.exception, at.exception
    assert settings_of(at).options() == rc.profile("rouge-score", tokenizer="unicode", language="arabic",
                                                   strip_diacritics=True)
    assert_table_matches(at, candidate, [reference])
    assert rouge1(at) == (1.0, 1.0)
    assert any("Changed from the rouge-score profile: tokenizer, language, strip_diacritics." in c
               for c in sidebar_captions(at))

    # back to rouge-score's tokenizer: both grey out, keep their values and change no option
    widget(at, "tokenizer").select("rouge-score").run()
    assert widget(at, "language").disabled and widget(at, "language").value == "arabic"
    assert widget(at, "strip_diacritics").value
    assert settings_of(at).options() == rc.profile("rouge-score")
    assert not any("Changed from" in c for c in sidebar_captions(at))
    widget(at, "tokenizer").select("cjk").run()
    assert settings_of(at).options().language == "arabic" and rouge1(at) == (1.0, 1.0)


def test_xlsums_stemmer_is_offered_and_stays_within_the_profile():
    at = one_reference_app()
    candidate, reference = languages.EXAMPLES["hindi"]
    set_texts(at, "मुझे किताब पसंद है", [reference])
    assert not [s for s in widget(at, "stemmer").options if s.startswith("xlsum-")]  # rouge-score's list
    widget(at, "profile").select("multilingual")
    at.run()
    widget(at, "language").select("hindi").run()
    unstemmed = rouge1(at)
    assert stemmer_label("xlsum-hindi") in widget(at, "stemmer").options
    widget(at, "stemmer").select("xlsum-hindi").run()
    assert not at.exception, at.exception
    assert settings_of(at).options() == rc.profile("multilingual", language="hindi", stemmer="xlsum-hindi")
    assert settings_of(at).options().profile == "multilingual"
    assert_table_matches(at, "मुझे किताब पसंद है", [reference])
    # किताबें -> किताब matches; है and हैं have 3 characters or fewer, which XL-Sum leaves alone
    assert unstemmed == pytest.approx((2 / 4, 2 / 5)) and rouge1(at) == pytest.approx((3 / 4, 3 / 5))


@pytest.mark.parametrize("language", list(languages.EXAMPLES))
def test_a_language_example_loads_the_pair_and_the_multilingual_profile(language):
    at = fresh_app()
    widget(at, "max_n").set_value(3).run()
    at.button(key=f"example_language-{language}").click().run()
    assert not at.exception, at.exception
    candidate, reference = languages.EXAMPLES[language]
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == candidate
    assert at.text_area(key=state.reference_input_key(0, at.session_state)).value == reference
    assert widget(at, "profile").value == "multilingual"
    assert widget(at, "language").value == language
    assert settings_of(at).options() == rc.profile("multilingual", language=language)
    assert settings_of(at).max_n == 3  # the method parameters stay
    assert_table_matches(at, candidate, [reference])
    assert rouge1(at) == pytest.approx(EXAMPLE_ROUGE1[language])
    example = examples.get_example(f"language-{language}")
    assert any(plain(c.value).startswith(f"Loaded: {example.title} — ") for c in at.caption)


def test_a_link_carries_the_language():
    at = app_test()
    candidate, reference = languages.EXAMPLES["chinese"]
    at.query_params.update({"c": candidate, "r": reference, "profile": "multilingual", "lang": "chinese_simplified"})
    at.run()
    assert not at.exception, at.exception
    assert widget(at, "language").value == "chinese"  # XL-Sum's alias, read as its language
    assert_table_matches(at, candidate, [reference])
    assert rouge1(at) == pytest.approx(EXAMPLE_ROUGE1["chinese"])
    at.button(key="create_share_link").click().run()
    assert (at.query_params["lang"], at.query_params["profile"]) == ("chinese", "multilingual")


def test_a_links_unknown_language_is_named_and_left_out():
    at = app_test()
    at.query_params.update({"c": "the cat sat", "r": "the cat", "profile": "multilingual", "lang": "klingon"})
    at.run()
    assert not at.exception, at.exception
    assert widget(at, "language").value == "none"
    assert settings_of(at).options() == rc.profile("multilingual")
    warnings = [plain(w.value) for w in at.sidebar.warning]
    assert any(w.startswith("ignored the link's lang='klingon': unknown language 'klingon'; choose one of") for w in warnings)
    assert_table_matches(at, "the cat sat", ["the cat"])
