"""The sidebar: the widgets that show and change the shared Settings (lens_app.settings).

Each Settings field has one widget (keys in WIDGETS); the β widget is a second view of α.
Choosing a profile loads its values into the widgets; changing a widget afterwards keeps the
profile name but the options become "custom" in the signature (the caption says which
settings differ). After the widgets are drawn, `render` stores the one Settings value the
pages read (lens_app.state.current_settings). Texts are never touched here.
"""

from __future__ import annotations

import streamlit as st

from rouge_core.params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT
from rouge_core.stats import alpha_from_beta, beta_from_alpha
from rouge_core.words import TOKENIZERS

from . import state
from .settings import (MULTI_REF_LABELS, PROFILE_CHOICES, STEMMERS, STOPWORDS, TOKENIZER_LABELS, Settings)

# Settings field -> its widget's key
WIDGETS = {
    "profile": "sb_profile",
    "tokenizer": "sb_tokenizer",
    "lowercase": "sb_lowercase",
    "stemmer": "sb_stemmer",
    "stopwords": "sb_stopwords",
    "multi_ref": "sb_multi_ref",
    "alpha": "sb_alpha",
    "max_n": "sb_n",
    "skip_distance": "sb_skip",
    "skip_unlimited": "sb_skip_unlimited",
    "weight": "sb_w",
}
PROFILE, TOKENIZER, STEMMER, MULTI_REF = WIDGETS["profile"], WIDGETS["tokenizer"], WIDGETS["stemmer"], WIDGETS["multi_ref"]
ALPHA, MAX_N, SKIP, SKIP_UNLIMITED, WEIGHT = (WIDGETS[f] for f in ("alpha", "max_n", "skip_distance", "skip_unlimited",
                                                                  "weight"))
F_PARAM = "sb_f_param"  # which of β / α is drawn
BETA = "sb_beta"


def widget_values(settings: Settings) -> dict:
    """The widget state that shows `settings` (β included)."""
    values = {WIDGETS[field]: getattr(settings, field) for field in WIDGETS}
    values[BETA] = _beta(settings.alpha)
    return values


def _beta(alpha: float) -> float:
    return round(beta_from_alpha(alpha), 4) if alpha > 0 else 0.0


def from_widgets() -> Settings:
    ss = st.session_state
    return Settings(**{field: ss[key] for field, key in WIDGETS.items()}).replace(
        lowercase=bool(ss[WIDGETS["lowercase"]]), alpha=float(ss[ALPHA]), max_n=int(ss[MAX_N]),
        skip_distance=int(ss[SKIP]), skip_unlimited=bool(ss[SKIP_UNLIMITED]), weight=round(float(ss[WEIGHT]), 4))


def show(settings: Settings) -> None:
    """Make the widgets show `settings` on their next draw (a share link, a profile choice)."""
    st.session_state.update(widget_values(settings))


def ensure_defaults() -> None:
    """Give every settings widget a value before it is drawn (never both a default and a key)."""
    ss = st.session_state
    # Only one of β / α is drawn at a time and Streamlit forgets the hidden one: rebuild it.
    if ALPHA not in ss and BETA in ss:
        ss[ALPHA] = round(alpha_from_beta(ss[BETA]), 6)
    if BETA not in ss and ALPHA in ss:
        ss[BETA] = _beta(ss[ALPHA])
    for key, value in widget_values(Settings()).items():
        ss.setdefault(key, value)
    ss.setdefault(F_PARAM, "β")


def _load_profile() -> None:
    name = st.session_state[PROFILE]
    current = from_widgets()
    show(Settings.for_profile(name, max_n=current.max_n, skip_distance=current.skip_distance,
                              skip_unlimited=current.skip_unlimited, weight=current.weight)
         if name != "custom" else current)


def _beta_changed() -> None:
    st.session_state[ALPHA] = round(alpha_from_beta(st.session_state[BETA]), 6)


def _alpha_changed() -> None:
    st.session_state[BETA] = _beta(st.session_state[ALPHA])


def render() -> Settings:
    """Draw the settings and store them (lens_app.state.current_settings)."""
    ensure_defaults()
    ss = st.session_state
    sb = st.sidebar
    sb.markdown("### Settings")
    sb.caption("Shared by every page. Changing them keeps your texts.")
    sb.selectbox("Profile", PROFILE_CHOICES, key=PROFILE, on_change=_load_profile,
                 help="A preset that makes the numbers equal one tool's: ROUGE-1.5.5 (Perl), Google's rouge-score, "
                      "MATLAB rougeEvaluationScore or the Go reval package.")
    sb.selectbox("Tokenizer", TOKENIZERS, key=TOKENIZER, format_func=lambda t: TOKENIZER_LABELS.get(t, t))
    sb.checkbox("Lower-case", key=WIDGETS["lowercase"])
    sb.selectbox("Stemmer", STEMMERS, key=STEMMER, help="porter: NLTK (rouge-score); rouge155: WordNet exceptions + Porter (-m)")
    sb.selectbox("Stopwords", STOPWORDS, key=WIDGETS["stopwords"], help="smart: the SMART list ROUGE-1.5.5 removes with -s")
    sb.selectbox("Several references", list(MULTI_REF_LABELS), key=MULTI_REF, format_func=MULTI_REF_LABELS.get)
    sb.radio("F-measure weight", ("β", "α"), key=F_PARAM, horizontal=True,
             help="F = PR / ((1-α)P + αR); α = 1/(1+β²). β > 1 (α < 0.5) favours recall.")
    if ss[F_PARAM] == "β":
        sb.number_input("β", min_value=0.0, max_value=100.0, step=0.25, key=BETA, on_change=_beta_changed)
    else:
        sb.number_input("α", min_value=0.0, max_value=1.0, step=0.05, key=ALPHA, on_change=_alpha_changed)
    sb.markdown("**Method parameters**")
    # The widgets' bounds are the methods' own ranges (rouge_core.params), so a valid value
    # from a link is kept as it is.
    sb.number_input("n: ROUGE-1 … ROUGE-n", min_value=NGRAM_N.minimum, max_value=NGRAM_N.maximum, step=1, key=MAX_N)
    col_d, col_u = sb.columns([3, 2], vertical_alignment="bottom")
    col_d.number_input("Skip distance (S, SU)", min_value=SKIP_DISTANCE.minimum, max_value=SKIP_DISTANCE.maximum, step=1,
                       key=SKIP, disabled=bool(ss[SKIP_UNLIMITED]),
                       help="At most this many tokens between the two words of a skip-bigram.")
    col_u.checkbox("unlimited", key=SKIP_UNLIMITED)
    sb.number_input("W weight", min_value=WLCS_WEIGHT.minimum, max_value=WLCS_WEIGHT.maximum, step=0.1, format="%.2f",
                    key=WEIGHT, help=f"ROUGE-W weighs a run of k consecutive matches as k^w; w = 1 is plain LCS. "
                                     f"w is {WLCS_WEIGHT.describe()}.")

    settings = from_widgets()
    ss[state.SETTINGS_KEY] = settings
    changed = settings.differing()
    if changed:
        sb.caption(f"Changed from the {settings.profile} profile: {', '.join(changed)}. "
                   "The numbers no longer claim to equal that tool's.")
    return settings
