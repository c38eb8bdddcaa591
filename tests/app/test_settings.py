"""lens_app.settings: the one owner of the shared settings, its defaults, choices and links."""

from __future__ import annotations

import pytest
from hypothesis import given, settings as hyp_settings
from hypothesis import strategies as st

import rouge_core
from lens_app.settings import CHOICES, QUERY, STEMMERS, Settings, stemmer_label
from rouge_core.text.languages import LANGUAGES
from rouge_core.text.stemming import get_stemmer
from rouge_core.text.words import TOKENIZER_LABELS, TOKENIZERS

SETTINGS = st.builds(
    Settings,
    profile=st.sampled_from(CHOICES["profile"]), tokenizer=st.sampled_from(CHOICES["tokenizer"]),
    language=st.sampled_from(CHOICES["language"]), strip_diacritics=st.booleans(), lowercase=st.booleans(),
    stemmer=st.sampled_from(CHOICES["stemmer"]), stopwords=st.sampled_from(CHOICES["stopwords"]),
    multi_ref=st.sampled_from(CHOICES["multi_ref"]), alpha=st.sampled_from([0.0, 0.2, 0.5, 1.0]),
    max_n=st.integers(1, 1000), skip_distance=st.integers(0, 10**6), skip_unlimited=st.booleans(),
    weight=st.sampled_from([1.0, 1.2, 1.55, 5.0]))


@hyp_settings(max_examples=200, deadline=None)
@given(SETTINGS)
def test_a_link_carries_the_settings_exactly(settings):
    query = {key: [value] for key, value in settings.to_query().items()}
    again, problems = Settings.from_query(query)
    assert (again, problems) == (settings, [])


def test_defaults_and_profiles_come_from_one_place():
    default = Settings()
    assert default.options() == rouge_core.profile("rouge-score")
    assert (default.max_n, default.distance, default.weight) == (rouge_core.NGRAM_N.default, rouge_core.SKIP_DISTANCE.default,
                                                                 rouge_core.WLCS_WEIGHT.default)
    assert default.methods() == ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
    perl = Settings.for_profile("rouge-1.5.5", stemmer="rouge155")
    assert perl.options() == rouge_core.profile("rouge-1.5.5", stemmer="rouge155") and perl.differing() == ["stemmer"]
    assert Settings.for_profile("rouge-1.5.5", skip_unlimited=True).methods()[-2:] == ["rougeS*", "rougeSU*"]
    assert Settings.from_options(rouge_core.profile("matlab")) == Settings.for_profile("matlab")
    with pytest.raises(ValueError, match="cannot express"):
        Settings.from_options(rouge_core.profile("rouge-score", sentence_split="punctuation"))


def test_a_links_bad_values_are_named_and_left_at_their_default():
    settings, problems = Settings.from_query({"profile": ["rouge-1.5.5"], "w": ["1000"], "n": ["x"], "stem": ["klingon"],
                                              "alpha": ["nan"], "d": ["999999"]})
    assert settings == Settings.for_profile("rouge-1.5.5", skip_distance=999999)
    assert [p.split(":")[0] for p in problems] == ["ignored the link's stem='klingon'", "ignored the link's alpha='nan'",
                                                   "ignored the link's n='x'", "ignored the link's w='1000'"]
    assert set(QUERY) == set(Settings.__dataclass_fields__)


def test_a_link_carries_language_and_diacritics_and_options_pass_them():
    settings = Settings.for_profile("multilingual", language="thai")
    query = settings.to_query()
    assert (query["profile"], query["tok"], query["lang"], query["strip"]) == ("multilingual", "multilingual", "thai", "0")
    again, problems = Settings.from_query({k: [v] for k, v in query.items()})
    assert (again, problems) == (settings, [])
    assert again.options() == rouge_core.profile("multilingual", language="thai")
    assert again.options().profile == "multilingual" and again.within_profile and again.differing() == ["language"]
    arabic = Settings(tokenizer="unicode", language="arabic", strip_diacritics=True)
    assert arabic.options() == rouge_core.profile("rouge-score", tokenizer="unicode", language="arabic",
                                                  strip_diacritics=True)
    assert arabic.differing() == ["tokenizer", "language", "strip_diacritics"] and not arabic.within_profile
    assert Settings.from_options(arabic.options()) == arabic.replace(profile="custom")


def test_a_links_language_accepts_aliases_and_names_an_unknown_one():
    settings, problems = Settings.from_query({"profile": ["multilingual"], "lang": ["Bangla"], "strip": ["1"]})
    assert (settings.language, settings.strip_diacritics, problems) == ("bengali", True, [])
    settings, problems = Settings.from_query({"profile": ["multilingual"], "lang": ["klingon"], "tok": ["unicode"]})
    assert settings == Settings.for_profile("multilingual", tokenizer="unicode")  # language left at the profile's
    assert settings.language == "none" and settings.options().language is None
    [problem] = problems
    assert problem.startswith("ignored the link's lang='klingon': unknown language 'klingon'; choose one of amharic")
    assert Settings.from_query({"lang": ["none"]}) == (Settings(), [])


def test_a_language_the_tokenizer_does_not_read_changes_no_option():
    # rouge-score's tokenizer reads no language: the profile stays exactly rouge-score's
    settings = Settings(language="thai", strip_diacritics=True)
    assert settings.options() == rouge_core.profile("rouge-score")
    assert settings.differing() == [] and settings.within_profile
    # the multilingual tokenizer reads the language but keeps every diacritic, as XL-Sum does
    xlsum = Settings.for_profile("multilingual", language="arabic", strip_diacritics=True)
    assert xlsum.options() == rouge_core.profile("multilingual", language="arabic")
    with pytest.raises(ValueError, match="cannot express"):
        Settings.from_options(rouge_core.profile("rouge-score", language="thai"))
    with pytest.raises(ValueError, match="cannot express"):
        Settings.from_options(rouge_core.Options(tokenizer=str.split))


def test_choosing_the_multilingual_profile_sets_its_fields():
    options = rouge_core.profile("multilingual")
    settings = Settings(tokenizer="unicode", language="thai", stemmer="porter", multi_ref="pooled").replace(
        profile="rouge-score")
    chosen = Settings.for_profile("multilingual", max_n=settings.max_n)
    assert (chosen.tokenizer, chosen.language, chosen.strip_diacritics, chosen.stemmer, chosen.multi_ref) == (
        options.tokenizer, "none", False, "none", options.multi_ref)
    assert chosen.options() == options


def test_tokenizer_labels_have_one_home_and_stemmers_offer_xlsums_that_run():
    import lens_app.settings as app_settings

    assert not hasattr(app_settings, "TOKENIZER_LABELS")
    assert set(TOKENIZER_LABELS) == set(TOKENIZERS)
    xlsum = [s for s in STEMMERS if s.startswith("xlsum-")]
    assert "xlsum-hindi" in xlsum and "xlsum-porter" in xlsum and "xlsum-bengali" not in xlsum  # its rule file is missing
    for name in xlsum:
        assert get_stemmer(name) is not None  # every offered stemmer runs here
        assert stemmer_label(name).startswith(f"{name}: XL-Sum's, ")
    assert get_stemmer("xlsum-hindi")("किताबें") == "किताब"
    # offered with the multilingual profile (and custom), not in every other tool's list
    assert Settings().stemmer_choices == ("none", "porter", "rouge155", "snowball-english")
    assert Settings.for_profile("multilingual").stemmer_choices == STEMMERS
    assert Settings.for_profile("custom").stemmer_choices == STEMMERS
    # ...but one a link chose under another profile stays selectable
    linked, problems = Settings.from_query({"profile": ["rouge-score"], "stem": ["xlsum-hindi"]})
    assert problems == [] and linked.stemmer in linked.stemmer_choices
    assert set(CHOICES["language"]) == {"none", *LANGUAGES}
