"""Random sequences of sidebar actions through AppTest (a hypothesis state machine): after
every step the scores on the Score page are rouge_core.score under the settings the sidebar
DISPLAYS, the Settings the pages read are those settings, and the share link reproduces them.

The actions are what a user does: choose a profile, switch β/α, type β, α, n, d, w, tick
"unlimited", pick a tokenizer, language, stemmer, stopwords, reference mode or length limit,
open another page and come back, open the share link in a fresh session. The budget is fixed
(CI runs it every time); `ROUGE_LENS_MACHINE_EXAMPLES` raises it for a long run.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import rouge_core as rc
from lens_app import examples, share, sidebar, state
from lens_app.settings import LANGUAGE_CHOICES, LENGTH_LIMIT, LENGTH_UNITS, PROFILE_CHOICES, STEMMERS, STOPWORDS, Settings
from rouge_core.text.options import MULTI_REF_MODES
from rouge_core.text.words import TOKENIZERS
from rouge_core.stats import alpha_from_beta
from tests.app.sidebar_widgets import widget
from tests.app.test_score_page import app_test
from tests.extras import needs_multilingual

pytestmark = needs_multilingual  # the multilingual profile is one of the choices

EXAMPLES = int(os.environ.get("ROUGE_LENS_MACHINE_EXAMPLES", "6"))
# A pair where every setting shows: case, a stemmable word, stopwords, two sentences, two references.
CANDIDATE = "The cats sat on the mat.\nA dog was running in the park"
REFERENCES = ["the cat sat on a mat\nthe dog ran in the park", "A cat is sitting on the mat; dogs run."]


def displayed_settings(at) -> Settings:
    """The settings the sidebar shows, read off its widgets (never from session state)."""
    shown = {name: widget(at, name) for name in sidebar.LABELS}
    values = {name: shown[name].value for name in ("profile", "tokenizer", "language", "strip_diacritics", "lowercase",
                                                   "stemmer", "stopwords", "multi_ref", "max_n", "skip_distance",
                                                   "skip_unlimited", "weight")}
    if shown["f_view"].value == "β":
        if shown["beta"] is None:  # β = ∞ or beyond the field: said in words, with its α
            caption = " ".join(c.value for c in at.sidebar.caption if c.value.startswith("β = "))
            assert caption, "the β view shows neither a β field nor a β in words"
            values["alpha"] = 0.0 if "β = ∞" in caption else float(caption.split("(α = ")[1].split(")")[0])
        else:
            values["alpha"] = alpha_from_beta(shown["beta"].value)
    else:
        values["alpha"] = shown["alpha"].value
    unit = shown["length_unit"].value
    count = shown["length"].value if shown["length"] is not None else 0
    assert (unit == "none") == (shown["length"] is None)
    return Settings(**values).with_length_limit(unit, count)


def score_rows(at):
    frame = at.dataframe[0].value
    assert list(frame.columns[:4]) == ["method", "P", "R", "F"]
    return [(row["P"], row["R"], row["F"], row["signature"]) for _, row in frame.iterrows()]


def expected_rows(displayed: Settings):
    result = rc.score(CANDIDATE, REFERENCES, displayed.methods(), displayed.options(), cost_limit=rc.UNBOUNDED)
    return [(m.precision, m.recall, m.fmeasure, m.signature) for m in result]


def same_rows(shown, expected) -> bool:
    """Equal to the bit, NaN equal to NaN (MATLAB's rules give NaN for undefined ratios)."""
    def key(row):
        return tuple("nan" if isinstance(v, float) and v != v else v for v in row)
    return [key(r) for r in shown] == [key(r) for r in expected]


class SidebarMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.at = app_test()
        self.at.run()
        self.at.text_area(key=state.candidate_input_key(self.at.session_state)).input(CANDIDATE)
        while len(self.at.session_state[state.REFERENCES_KEY]) < len(REFERENCES):
            self.at.button(key="add_reference").click().run()
        for i, text in enumerate(REFERENCES):
            self.at.text_area(key=state.reference_input_key(i, self.at.session_state)).input(text)
        self.run()
        self.on_score = True

    def run(self):
        self.at.run()
        assert not self.at.exception, self.at.exception

    def set(self, name, value):
        w = widget(self.at, name)
        if w is None or w.disabled:
            return
        w.set_value(value)
        self.run()

    # --- actions ---------------------------------------------------------------------------
    @rule(name=st.sampled_from(PROFILE_CHOICES))
    def profile(self, name):
        self.set("profile", name)

    @rule(view=st.sampled_from(sidebar.F_VIEWS))
    def f_view(self, view):
        self.set("f_view", view)

    @rule(beta=st.sampled_from([0.0, 0.5, 1.0, 1.3, 2.0, 1.23456, 100.0]))
    def beta(self, beta):
        self.set("beta", beta)

    @rule(alpha=st.sampled_from([0.0, 0.2, 0.3, 0.5, 0.123456789, 1.0, 0.00001]))
    def alpha(self, alpha):
        self.set("alpha", alpha)

    @rule(n=st.integers(1, 5))
    def max_n(self, n):
        self.set("max_n", n)

    @rule(d=st.integers(0, 9))
    def skip(self, d):
        self.set("skip_distance", d)

    @rule()
    def unlimited(self):
        self.set("skip_unlimited", not widget(self.at, "skip_unlimited").value)

    @rule(w=st.sampled_from([1.0, 1.2, 1.5, 1.234567, 5.0]))
    def weight(self, w):
        self.set("weight", w)

    @rule(data=st.data(), name=st.sampled_from(["tokenizer", "language", "stemmer", "stopwords", "multi_ref",
                                                 "length_unit"]))
    def choose(self, data, name):
        w = widget(self.at, name)
        if w is not None and not w.disabled:
            self.set(name, data.draw(st.sampled_from(_values(w, name))))

    @rule(name=st.sampled_from(["lowercase", "strip_diacritics"]))
    def tick(self, name):
        self.set(name, not widget(self.at, name).value)

    @rule(count=st.sampled_from([1, 5, 12, 30, LENGTH_LIMIT.default["bytes"]]))
    def length(self, count):
        self.set("length", count)

    @rule()
    def other_page_and_back(self):
        # AppTest runs a switched-to page script alone (no router, so no sidebar): a run in
        # which no sidebar widget is drawn and Streamlit drops their state. The settings
        # must come back whole when the sidebar is drawn again.
        self.at.switch_page("pages/learn.py")
        self.run()
        self.at.switch_page("app.py")
        self.run()
        assert widget(self.at, "profile") is not None

    @rule()
    def share_link_reproduces(self):
        shown = displayed_settings(self.at)
        params = share.encode_view(CANDIDATE, REFERENCES, shown)
        fresh = app_test()
        for key, value in params.items():
            fresh.query_params[key] = value
        fresh.run()
        assert not fresh.exception, fresh.exception
        assert displayed_settings(fresh) == shown
        assert same_rows(score_rows(fresh), score_rows(self.at))

    # --- what must hold after every step --------------------------------------------------
    @invariant()
    def scores_are_those_of_the_displayed_settings(self):
        shown = displayed_settings(self.at)
        assert self.at.session_state[state.SETTINGS_KEY] == shown
        assert same_rows(score_rows(self.at), expected_rows(shown))


SOURCES = {"tokenizer": TOKENIZERS, "language": LANGUAGE_CHOICES, "stemmer": STEMMERS, "stopwords": STOPWORDS,
           "multi_ref": MULTI_REF_MODES, "length_unit": LENGTH_UNITS}


def _values(selectbox, name: str) -> list:
    """The values a sidebar selectbox offers (AppTest's `options` are the labels it shows)."""
    return [v for v in SOURCES[name] if str(selectbox.format_func(v)) in selectbox.options]


# No shrinking: every step is a run of the app, and a failing sequence of 12 steps reads well.
SidebarMachine.TestCase.settings = settings(max_examples=EXAMPLES, stateful_step_count=12, deadline=None,
                                            suppress_health_check=list(HealthCheck),
                                            phases=(Phase.explicit, Phase.reuse, Phase.generate))
test_sidebar_actions_never_drift = SidebarMachine.TestCase


def run_with_stale(at, *stale_states):
    """A rerun whose message also carries widgets the page no longer draws (their states as
    captured when they were drawn), as a browser that has not yet applied the last run's
    changes sends them (issue 27, item 1)."""
    states = at._tree.get_widget_states()
    for stale in stale_states:
        states.widgets.append(stale)
    at._run(states)
    assert not at.exception, at.exception


def test_a_stale_alpha_from_the_browser_changes_no_setting():
    """β = 2, switch to α, back to β, β = 1, n = 3, with the browser still sending the α field
    it showed: the β shown (1) is the β used, in the scores and the signature."""
    at = app_test()
    at.run()
    widget(at, "beta").set_value(2.0).run()
    widget(at, "f_view").set_value("α").run()
    assert widget(at, "alpha").value == pytest.approx(0.2)
    stale_alpha = widget(at, "alpha")._widget_state
    widget(at, "f_view").set_value("β").run()
    widget(at, "beta").set_value(1.0)
    run_with_stale(at, stale_alpha)
    widget(at, "max_n").set_value(3)
    run_with_stale(at, stale_alpha)
    assert widget(at, "beta").value == 1.0
    used = at.session_state[state.SETTINGS_KEY]
    assert used.alpha == 0.5 and used.max_n == 3
    frame = at.dataframe[0].value
    assert all("|alpha:0.5|" in s for s in frame["signature"])
    example = examples.DEFAULT_EXAMPLE
    expected = rc.score(example.candidate, list(example.references), used.methods(), used.options())
    assert frame["F"].tolist() == [m.fmeasure for m in expected]
