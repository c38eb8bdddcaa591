"""lens_app.settings: the one owner of the shared settings, its defaults, choices and links."""

from __future__ import annotations

import pytest
from hypothesis import given, settings as hyp_settings
from hypothesis import strategies as st

import rouge_core
from lens_app.settings import CHOICES, QUERY, Settings

SETTINGS = st.builds(
    Settings,
    profile=st.sampled_from(CHOICES["profile"]), tokenizer=st.sampled_from(CHOICES["tokenizer"]), lowercase=st.booleans(),
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
