"""The sidebar: the widgets that show and change the shared Settings (lens_app.settings).

One source of truth: the Settings value in st.session_state (lens_app.state.SETTINGS_KEY).
Every widget is drawn from it and writes back to it in one place, its change callback
(`_widget_changed`); nothing reads a widget's own state anywhere else, so a widget that is
not drawn (the α field while β is shown), or a stale value the browser sends while a rerun
is in flight, can never change a number.

A widget's value is only ever set by the user or by its first draw. When a setting changes
by another route (a profile choice loads its values, a share link, a page's "use these
settings", switching between β and α), `show` bumps the generation of each widget whose value
changed, so that widget is drawn afresh under a new key from the new Settings: the browser
can never send back the old value and overwrite the new one (with one key, a value set by the
server races with the value the browser still shows).

Choosing a profile loads its values; changing a widget afterwards keeps the profile name,
and the caption (and the signature) says which settings differ.
"""

from __future__ import annotations

import streamlit as st

from rouge_core.text.languages import language_choices
from rouge_core.families.methods import UiParameter
from rouge_core.stats import alpha_from_beta, beta_from_alpha
from rouge_core.text.words import DIACRITICS_AWARE, LANGUAGE_AWARE, TOKENIZER_LABELS, TOKENIZERS

from . import state
from .settings import (CUSTOM, LANGUAGE_CHOICES, LENGTH_LIMIT, LENGTH_UNITS, MULTI_REF_LABELS, NO_LANGUAGE,
                       PARAMETER_FIELDS, PARAMETERS, PROFILE_CHOICES, STOPWORDS, Settings, stemmer_label)

_GENERATIONS_KEY = "_sidebar_generations"  # widget name -> how often the server redrew it
_F_VIEW_KEY = "_sidebar_f_view"  # "β" or "α": which of the two views of the F weight is drawn

UNLIMITED_LABEL = "unlimited"  # the tick beside a parameter that may be unlimited
# The sidebar's widgets by name: the label each is drawn with (tests find them by it).
LABELS = {
    "profile": "Profile",
    "tokenizer": "Tokenizer",
    "language": "Language",
    "strip_diacritics": "Strip Arabic/Hebrew diacritics",
    "lowercase": "Lower-case",
    "stemmer": "Stemmer",
    "stopwords": "Stopwords",
    "multi_ref": "Several references",
    "length_unit": "Length limit (ROUGE-1.5.5 -l / -b)",
    "length": "Keep at most",
    "f_view": "F-measure weight",
    "beta": "β",
    "alpha": "α",
    # the method parameters, as their families declare them (rouge_core.families.methods.UiParameter)
    **{name: label for p in PARAMETERS
       for name, label in ((p.setting, p.label), (p.unlimited_setting, UNLIMITED_LABEL)) if name},
}
# Which widgets show a Settings field (β and α both show `alpha`; the length limit's two
# widgets show `limit_words` and `limit_bytes`).
_SHOWS = {name: (name,) for name in LABELS}
_SHOWS.update({"beta": ("alpha",), "alpha": ("alpha",), "f_view": (), "length_unit": ("limit_words", "limit_bytes"),
               "length": ("limit_words", "limit_bytes")})

F_VIEWS = ("β", "α")
F_VIEWS_FIELDS = {"beta": "β", "alpha": "α"}  # the field drawn in each view
# The β and w fields hold this many decimals (a method name carries w to 6 digits); α is kept
# exactly as typed. A value typed with more is rounded and the field redrawn to show it.
DECIMALS = 4
BETA_MAXIMUM = 100.0


# --- the one Settings value ----------------------------------------------------------------
def current() -> Settings:
    ss = st.session_state
    if state.SETTINGS_KEY not in ss:
        ss[state.SETTINGS_KEY] = Settings()
    return ss[state.SETTINGS_KEY]


def _generations() -> dict[str, int]:
    return st.session_state.setdefault(_GENERATIONS_KEY, {})


def widget_key(name: str) -> str:
    """The key the widget `name` (one of LABELS) has on this draw."""
    return f"sb_{name}@{_generations().get(name, 0)}"


def _redraw(*names: str) -> None:
    """Draw these widgets afresh (new keys) from the Settings on the next run."""
    generations = _generations()
    for name in names:
        generations[name] = generations.get(name, 0) + 1


def show(settings: Settings, *, shown_by: str | None = None) -> None:
    """Make `settings` the current settings; every widget whose value changes is redrawn
    from it (`shown_by`, the widget the user just changed, already shows its value)."""
    before = current()
    st.session_state[state.SETTINGS_KEY] = settings
    changed = {field for field in before.as_dict() if getattr(before, field) != getattr(settings, field)}
    _redraw(*(name for name, fields in _SHOWS.items() if name != shown_by and changed.intersection(fields)))


def choose_profile(name: str, **changes) -> None:
    """Load a profile's values (then `changes`), keeping the method parameters; "custom"
    keeps every value."""
    settings = current()
    if name == CUSTOM:
        show(settings.replace(profile=CUSTOM, **changes))
        return
    show(Settings.for_profile(name, **{**{field: getattr(settings, field) for field in PARAMETER_FIELDS}, **changes}))


# --- the F weight: one number, two views ------------------------------------------------------
def _f_view() -> str:
    return st.session_state.get(_F_VIEW_KEY, "β")


def displayed_beta(alpha: float) -> float:
    """The β field's value for `alpha` (only called with alpha > 0)."""
    return round(beta_from_alpha(alpha), DECIMALS)


def beta_field_holds(alpha: float) -> bool:
    """Whether the β field can hold the β of `alpha` (β = ∞ and β above its range cannot)."""
    return alpha > 0 and displayed_beta(alpha) <= BETA_MAXIMUM


def beta_shows_exactly(alpha: float) -> bool:
    """Whether the β field shows `alpha` exactly (its β, to DECIMALS decimals, gives it back)."""
    return beta_field_holds(alpha) and alpha_from_beta(displayed_beta(alpha)) == alpha


def _switch_f_view(key: str) -> None:
    """β ↔ α. The β field holds 4 decimals: an α it cannot show exactly becomes the α of the
    β it shows (a change in the 5th decimal of β at most, and the numbers follow it), so the
    field always means the number in use."""
    if _is_stale("f_view", key):
        return
    view = st.session_state[key]
    st.session_state[_F_VIEW_KEY] = view
    _redraw("beta", "alpha")
    settings = current()
    if view == "β" and beta_field_holds(settings.alpha) and not beta_shows_exactly(settings.alpha):
        show(settings.replace(alpha=alpha_from_beta(displayed_beta(settings.alpha))))


# --- widget changes: the one place the widgets write to the Settings ------------------------
def _is_stale(name: str, key: str) -> bool:
    """Whether `key` is an earlier draw of widget `name`: a browser that has not yet applied
    the last run still shows it and may send its old value, which must change nothing."""
    return key != widget_key(name) or (name in F_VIEWS_FIELDS and F_VIEWS_FIELDS[name] != _f_view())


def _widget_changed(name: str, key: str) -> None:
    if _is_stale(name, key):
        return
    value = st.session_state[key]
    settings = current()
    if name == "profile":
        choose_profile(value)
        return
    if name == "beta" or name in _DECIMAL_PARAMETERS:
        rounded = round(float(value), DECIMALS)
        new = (settings.replace(alpha=alpha_from_beta(rounded)) if name == "beta"
               else settings.replace(**{name: rounded}))
        show(new, shown_by=name)
        if rounded != value:
            _redraw(name)  # the field shows the value in use, not the extra digits typed
        return
    if name == "alpha":
        show(settings.replace(alpha=float(value)), shown_by="alpha")
        return
    if name == "length_unit":
        show(settings.with_length_limit(value, settings.length_limit or LENGTH_LIMIT.default[value]), shown_by=name)
        return
    if name == "length":
        show(settings.with_length_limit(settings.length_unit, int(value)), shown_by=name)
        return
    converters = {"lowercase": bool, "strip_diacritics": bool, **_PARAMETER_CONVERTERS}
    show(settings.replace(**{name: converters.get(name, str)(value)}), shown_by=name)


# the method parameters' widgets: a number box (whole numbers, or held to DECIMALS decimals) and
# the "unlimited" tick of a parameter that may be unlimited
_DECIMAL_PARAMETERS = {p.setting for p in PARAMETERS if not p.range.integer}
_PARAMETER_CONVERTERS = {name: kind for p in PARAMETERS
                         for name, kind in ((p.setting, int if p.range.integer else float), (p.unlimited_setting, bool))
                         if name}


def _args(name: str) -> dict:
    key = widget_key(name)
    return {"key": key, "on_change": _widget_changed, "args": (name, key), "label": LABELS[name]}


def _select(container, name: str, options, value, **kwargs) -> None:
    options = list(options)
    container.selectbox(options=options, index=options.index(value), **_args(name), **kwargs)


_LANGUAGE_LABELS = {(value or NO_LANGUAGE): label for value, label in language_choices()}


def render() -> Settings:
    """Draw the settings from the current Settings value and return it."""
    settings = current()
    sb = st.sidebar
    sb.markdown("### Settings")
    sb.caption("Shared by every page. Changing them keeps your texts.")
    _select(sb, "profile", PROFILE_CHOICES, settings.profile,
            help="A preset that makes the numbers equal one tool's: ROUGE-1.5.5 (Perl), Google's rouge-score, "
                 "MATLAB rougeEvaluationScore or the Go reval package.")
    _select(sb, "tokenizer", TOKENIZERS, settings.tokenizer, format_func=lambda t: TOKENIZER_LABELS.get(t, t))
    _select(sb, "language", LANGUAGE_CHOICES, settings.language, format_func=_LANGUAGE_LABELS.get,
            disabled=not settings.reads_language,
            help="Which language the texts are in. The unicode and cjk tokenizers read Han characters as Chinese "
                 "or Japanese words and Turkish or Azerbaijani dotted and dotless i by it; the multilingual profile "
                 f"chooses XL-Sum's segmenter. Only the {', '.join(LANGUAGE_AWARE)} tokenizers read it.")
    sb.checkbox(value=settings.strip_diacritics, disabled=not settings.reads_diacritics, **_args("strip_diacritics"),
                help="Drop Arabic harakat and the tatweel, Hebrew niqqud and cantillation from words, so a vowelled word "
                     f"matches the same word without vowels. Only the {', '.join(DIACRITICS_AWARE)} tokenizers do.")
    sb.checkbox(value=settings.lowercase, **_args("lowercase"))
    _select(sb, "stemmer", settings.stemmer_choices, settings.stemmer, format_func=stemmer_label,
            help="porter: NLTK (rouge-score); rouge155: WordNet exceptions + Porter (-m); xlsum-…: XL-Sum's "
                 "stemmer of that language (tokens longer than 3 characters)")
    _select(sb, "stopwords", STOPWORDS, settings.stopwords, help="smart: the SMART list ROUGE-1.5.5 removes with -s")
    _select(sb, "multi_ref", MULTI_REF_LABELS, settings.multi_ref, format_func=MULTI_REF_LABELS.get)
    _length_limit(sb, settings)
    _f_weight(sb, settings)
    sb.markdown("**Method parameters**")
    for parameter in PARAMETERS:
        _parameter(sb, settings, parameter)

    changed = settings.differing()
    if changed and settings.within_profile:
        sb.caption(f"Set within the {settings.profile} profile: {', '.join(changed)}. The tool offers "
                   f"{'these' if len(changed) > 1 else 'this'} itself, so the numbers still equal that tool's.")
    elif changed:
        sb.caption(f"Changed from the {settings.profile} profile: {', '.join(changed)}. "
                   "The numbers no longer claim to equal that tool's.")
    return settings


def _parameter(sb, settings: Settings, parameter: UiParameter) -> None:
    """A method parameter's number box (beside its "unlimited" tick when it has one). Its
    bounds are the parameter's own range (rouge_core.params), so a valid value from a link is
    kept as it is."""
    container, tick = (sb, None) if parameter.unlimited_setting is None else sb.columns([3, 2],
                                                                                        vertical_alignment="bottom")
    unlimited = parameter.unlimited_setting is not None and getattr(settings, parameter.unlimited_setting)
    if parameter.range.integer:
        bounds = dict(min_value=int(parameter.range.minimum), max_value=int(parameter.maximum), step=1)
    else:
        bounds = dict(min_value=float(parameter.range.minimum), max_value=float(parameter.maximum),
                      step=float(parameter.step), format="%g")
    container.number_input(value=getattr(settings, parameter.setting), disabled=unlimited,
                           help=parameter.help or None, **bounds, **_args(parameter.setting))
    if tick is not None:
        tick.checkbox(value=unlimited, **_args(parameter.unlimited_setting))


def _length_limit(sb, settings: Settings) -> None:
    _select(sb, "length_unit", LENGTH_UNITS, settings.length_unit, format_func=LENGTH_LIMIT.labels.get,
            help="Keep only the start of every text, candidate and references alike, as ROUGE-1.5.5's -l (words, "
                 "counted on the raw line: punctuation counts) and -b (bytes of UTF-8) do. ROUGE-1.5.5 offers it "
                 "itself, so its profile keeps its name.")
    if settings.length_unit != "none":
        sb.number_input(min_value=1, max_value=LENGTH_LIMIT.maximum, step=1, value=settings.length_limit,
                        **_args("length"), help=f"{settings.length_unit} per text")


def _f_weight(sb, settings: Settings) -> None:
    view = _f_view()
    key = widget_key("f_view")
    sb.radio(options=F_VIEWS, index=F_VIEWS.index(view), horizontal=True, key=key, on_change=_switch_f_view,
             args=(key,), label=LABELS["f_view"],
             help="F = PR / ((1-α)P + αR); α = 1/(1+β²). β > 1 (α < 0.5) favours recall.")
    if view == "α":
        sb.number_input(min_value=0.0, max_value=1.0, step=0.05, format="%g", value=float(settings.alpha),
                        **_args("alpha"))
    elif not beta_field_holds(settings.alpha):
        beta = "∞ (α = 0: recall only)" if settings.alpha == 0 else f"{beta_from_alpha(settings.alpha):g} (α = {settings.alpha:g})"
        sb.caption(f"β = {beta}, beyond the β field's range (0 to {BETA_MAXIMUM:g}); choose α to change it.")
    else:
        sb.number_input(min_value=0.0, max_value=BETA_MAXIMUM, step=0.25, format="%g",
                        value=displayed_beta(settings.alpha), **_args("beta"))
