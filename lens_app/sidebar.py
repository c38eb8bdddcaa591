"""The settings every page shares, drawn in the sidebar by app.py.

Results go to session state: an `rouge_core.Options` under "options", method names under
"methods", and "n", "skip distance", "w". Choosing a profile loads its settings into the
widgets; changing a widget afterwards keeps the profile name in the box but the options
become "custom" (the caption says which settings differ). Texts are never touched here.
"""

from __future__ import annotations

import streamlit as st

import rouge_core
from rouge_core.methods import method_name
from rouge_core.params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT
from rouge_core.stats import alpha_from_beta, beta_from_alpha
from rouge_core.words import TOKENIZERS

from . import state

PROFILE_CHOICES = (*rouge_core.PROFILES, "custom")
STEMMERS = ("none", "porter", "rouge155", "snowball-english")
STOPWORDS = ("none", "smart")
MULTI_REF_LABELS = {
    "pooled": "pooled: counts summed over references (ROUGE-1.5.5 -f A)",
    "best-recall": "best recall (ROUGE-1.5.5 -f B)",
    "best-f": "best F (rouge-score)",
    "max": "max of P, R, F separately (MATLAB)",
    "mean": "mean over references",
}
TOKENIZER_LABELS = {
    "rouge155": "rouge155: ASCII letters and digits (Perl)",
    "rouge-score": "rouge-score: lower-case, [a-z0-9]",
    "whitespace": "whitespace: tokens as written",
    "unicode": "unicode: words in any script",
    "cjk": "cjk: one token per CJK character",
}

# Widget keys; share.py reads and writes the same keys for links.
PROFILE = "sb_profile"
TOKENIZER = "sb_tokenizer"
LOWERCASE = "sb_lowercase"
STEMMER = "sb_stemmer"
STOPWORD_LIST = "sb_stopwords"
MULTI_REF = "sb_multi_ref"
F_PARAM = "sb_f_param"  # "β" or "α"
BETA = "sb_beta"
ALPHA = "sb_alpha"
MAX_N = "sb_n"
SKIP = "sb_skip"
SKIP_UNLIMITED = "sb_skip_unlimited"
WEIGHT = "sb_w"

DEFAULT_PROFILE = "rouge-score"


def profile_widget_values(name: str) -> dict:
    """The settings widgets' values that a profile stands for."""
    opts = rouge_core.profile(name)
    return {
        TOKENIZER: opts.tokenizer,
        LOWERCASE: opts.lowercase,
        STEMMER: opts.stemmer,
        STOPWORD_LIST: opts.stopwords if isinstance(opts.stopwords, str) else "none",
        MULTI_REF: opts.multi_ref,
        ALPHA: opts.alpha,
        BETA: round(opts.beta, 4),
    }


def ensure_defaults() -> None:
    """Give every settings widget a value before it is drawn (never both a default and a key)."""
    ss = st.session_state
    if PROFILE not in ss:
        ss[PROFILE] = DEFAULT_PROFILE
    # Only one of β / α is drawn at a time and Streamlit forgets the hidden one: rebuild it.
    if ALPHA not in ss and BETA in ss:
        ss[ALPHA] = round(alpha_from_beta(ss[BETA]), 6)
    if BETA not in ss and ALPHA in ss:
        ss[BETA] = round(beta_from_alpha(ss[ALPHA]), 4) if ss[ALPHA] > 0 else 0.0
    for key, value in profile_widget_values(DEFAULT_PROFILE).items():
        ss.setdefault(key, value)
    ss.setdefault(F_PARAM, "β")
    ss.setdefault(MAX_N, NGRAM_N.default)
    ss.setdefault(SKIP, SKIP_DISTANCE.default)
    ss.setdefault(SKIP_UNLIMITED, False)
    ss.setdefault(WEIGHT, WLCS_WEIGHT.default)


def _load_profile() -> None:
    name = st.session_state[PROFILE]
    if name != "custom":
        st.session_state.update(profile_widget_values(name))


def _beta_changed() -> None:
    st.session_state[ALPHA] = round(alpha_from_beta(st.session_state[BETA]), 6)


def _alpha_changed() -> None:
    alpha = st.session_state[ALPHA]
    st.session_state[BETA] = round(beta_from_alpha(alpha), 4) if 0 < alpha else 0.0


def options_from_widgets() -> rouge_core.Options:
    ss = st.session_state
    fields = dict(
        tokenizer=ss[TOKENIZER],
        lowercase=bool(ss[LOWERCASE]),
        stemmer=ss[STEMMER],
        stopwords=ss[STOPWORD_LIST],
        multi_ref=ss[MULTI_REF],
        alpha=float(ss[ALPHA]),
    )
    if ss[PROFILE] == "custom":
        return rouge_core.Options(**fields)
    return rouge_core.profile(ss[PROFILE], **fields)


def methods_for(n: int, skip_distance: int | None, w: float) -> list[str]:
    """Every method family with the sidebar's parameters."""
    return [*(method_name("N", k) for k in range(1, n + 1)), method_name("L"), method_name("Lsum"), method_name("W", w),
            method_name("S", skip_distance), method_name("SU", skip_distance)]


def differing_settings(options: rouge_core.Options, profile_name: str) -> list[str]:
    if profile_name == "custom":
        return []
    preset = rouge_core.profile(profile_name)
    names = ("tokenizer", "lowercase", "stemmer", "stopwords", "multi_ref", "alpha")
    return [f for f in names if getattr(options, f) != getattr(preset, f)]


def render() -> rouge_core.Options:
    """Draw the settings and store their result in session state."""
    ensure_defaults()
    ss = st.session_state
    sb = st.sidebar
    sb.markdown("### Settings")
    sb.caption("Shared by every page. Changing them keeps your texts.")
    sb.selectbox("Profile", PROFILE_CHOICES, key=PROFILE, on_change=_load_profile,
                 help="A preset that makes the numbers equal one tool's: ROUGE-1.5.5 (Perl), Google's rouge-score, "
                      "MATLAB rougeEvaluationScore or the Go reval package.")
    sb.selectbox("Tokenizer", TOKENIZERS, key=TOKENIZER, format_func=lambda t: TOKENIZER_LABELS.get(t, t))
    sb.checkbox("Lower-case", key=LOWERCASE)
    sb.selectbox("Stemmer", STEMMERS, key=STEMMER, help="porter: NLTK (rouge-score); rouge155: WordNet exceptions + Porter (-m)")
    sb.selectbox("Stopwords", STOPWORDS, key=STOPWORD_LIST, help="smart: the SMART list ROUGE-1.5.5 removes with -s")
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

    options = options_from_widgets()
    n = int(ss[MAX_N])
    skip_distance = None if ss[SKIP_UNLIMITED] else int(ss[SKIP])
    w = round(float(ss[WEIGHT]), 4)
    ss[state.OPTIONS_KEY] = options
    ss[state.METHODS_KEY] = methods_for(n, skip_distance, w)
    ss[state.N_KEY] = n
    ss[state.SKIP_DISTANCE_KEY] = skip_distance
    ss[state.W_KEY] = w
    changed = differing_settings(options, ss[PROFILE])
    if changed:
        sb.caption(f"Changed from the {ss[PROFILE]} profile: {', '.join(changed)}. "
                   "The numbers no longer claim to equal that tool's.")
    return options
