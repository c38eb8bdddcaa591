"""Shareable links: the texts and settings in the page URL (st.query_params).

A teacher sends the link; it opens with the same texts and settings. Texts go into the
address bar only when the user asks for a link (`write_to_url`), never on a keystroke, and a
link that no longer shows the current view is taken out again (`drop_stale_link`). URLs have
practical length limits, so past MAX_URL_CHARS encoded characters only the settings go into
the URL and the page offers the texts as a JSON download instead.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from rouge_core.params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT

from . import sidebar, state

MAX_URL_CHARS = 6000  # encoded query-string characters; browsers and chat apps keep this safely
_LOADED_KEY = "_query_params_loaded"

# URL parameter -> (sidebar widget key, to-text, from-text)
_SETTINGS = {
    "profile": (sidebar.PROFILE, str, str),
    "tok": (sidebar.TOKENIZER, str, str),
    "lc": (sidebar.LOWERCASE, lambda v: "1" if v else "0", lambda s: s == "1"),
    "stem": (sidebar.STEMMER, str, str),
    "sw": (sidebar.STOPWORD_LIST, str, str),
    "multi": (sidebar.MULTI_REF, str, str),
    "alpha": (sidebar.ALPHA, lambda v: f"{float(v):g}", float),
    "n": (sidebar.MAX_N, str, int),
    "d": (sidebar.SKIP, str, int),
    "dinf": (sidebar.SKIP_UNLIMITED, lambda v: "1" if v else "0", lambda s: s == "1"),
    "w": (sidebar.WEIGHT, lambda v: f"{float(v):g}", float),
}
# URL parameter -> the method parameter's one definition of its range
_PARAMETERS = {"n": NGRAM_N, "d": SKIP_DISTANCE, "w": WLCS_WEIGHT}
_CHOICES = {
    "profile": sidebar.PROFILE_CHOICES,
    "tok": None,
    "stem": sidebar.STEMMERS,
    "sw": sidebar.STOPWORDS,
    "multi": tuple(sidebar.MULTI_REF_LABELS),
}


def encode_view(candidate: str, references: list[str], settings: dict[str, object]) -> dict[str, str | list[str]]:
    """Query parameters for texts and settings (settings keyed by sidebar widget key)."""
    params: dict[str, str | list[str]] = {}
    for name, (key, to_text, _) in _SETTINGS.items():
        if key in settings:
            params[name] = to_text(settings[key])
    params["c"] = candidate
    params["r"] = list(references)
    return params


def encoded_length(params: dict[str, str | list[str]]) -> int:
    return len(urlencode(params, doseq=True))


def decode_settings(params: dict[str, list[str]]) -> tuple[dict[str, object], list[str]]:
    """Widget values from query parameters, and messages for values that made no sense."""
    from rouge_core.words import TOKENIZERS

    values: dict[str, object] = {}
    problems = []
    for name, (key, _, from_text) in _SETTINGS.items():
        if name not in params or not params[name]:
            continue
        raw = params[name][0]
        choices = TOKENIZERS if name == "tok" else _CHOICES.get(name)
        try:
            value = from_text(raw)
        except ValueError:
            problems.append(f"ignored the link's {name}={raw!r}")
            continue
        if choices is not None and value not in choices:
            problems.append(f"ignored the link's {name}={raw!r}")
            continue
        values[key] = value
    if sidebar.ALPHA in values and not 0.0 <= values[sidebar.ALPHA] <= 1.0:  # type: ignore[operator]
        problems.append("ignored the link's alpha (must be in [0, 1])")
        values.pop(sidebar.ALPHA)
    for name, parameter in _PARAMETERS.items():
        key = _SETTINGS[name][0]
        if key in values:
            try:
                values[key] = parameter.check(values[key])
            except ValueError as exc:
                problems.append(f"ignored the link's {name}={params[name][0]!r}: {exc}")
                values.pop(key)
    return values, problems


def load_from_url_once() -> list[str]:
    """At the start of a session, take texts and settings from the URL. Runs before the
    sidebar draws its widgets, so their values can still be set."""
    ss = st.session_state
    if ss.get(_LOADED_KEY):
        return []
    ss[_LOADED_KEY] = True
    params = {k: st.query_params.get_all(k) for k in st.query_params.keys()}
    if not params:
        return []
    values, problems = decode_settings(params)
    profile = values.get(sidebar.PROFILE)
    if profile not in (None, "custom"):
        ss.update(sidebar.profile_widget_values(profile))  # the link's own settings override these
    ss.update(values)
    if sidebar.ALPHA in values:
        ss.pop(sidebar.BETA, None)  # rebuilt from α by sidebar.ensure_defaults
    if "c" in params or "r" in params:
        candidate = (params.get("c") or [""])[0]
        references = params.get("r") or [""]
        state.set_texts(candidate, references)
    return problems


def current_settings() -> dict[str, object]:
    return {key: st.session_state[key] for key, _, _ in _SETTINGS.values() if key in st.session_state}


def _url_params() -> dict[str, list[str]]:
    return {k: st.query_params.get_all(k) for k in st.query_params.keys()}


def _as_lists(params: dict[str, str | list[str]]) -> dict[str, list[str]]:
    return {k: (v if isinstance(v, list) else [v]) for k, v in params.items()}


LINK_PARAMS = frozenset(("c", "r", *_SETTINGS))  # what a share link writes into the URL


def _link_in_url() -> dict[str, list[str]]:
    return {k: v for k, v in _url_params().items() if k in LINK_PARAMS}


def _matches(link: dict[str, list[str]], candidate: str, references: list[str]) -> bool:
    """Every value the link holds is the current view's (a hand-made link may hold fewer)."""
    view = _as_lists(encode_view(candidate, references, current_settings()))
    return all(view.get(k) == v for k, v in link.items())


def shows_view(candidate: str, references: list[str]) -> bool:
    """Whether the address bar holds a link to this view, texts included."""
    link = _link_in_url()
    return "c" in link and _matches(link, candidate, references)


def write_to_url(candidate: str, references: list[str]) -> bool:
    """Put the view into the URL (the user asked for a link); False when the texts are too
    long (settings only then)."""
    params = encode_view(candidate, references, current_settings())
    fits = encoded_length(params) <= MAX_URL_CHARS
    if not fits:
        params.pop("c")
        params.pop("r")
    others = {k: v for k, v in _url_params().items() if k not in LINK_PARAMS}
    st.query_params.from_dict({**others, **params})
    return fits


def drop_stale_link(candidate: str, references: list[str]) -> None:
    """Take a link out of the URL once the view has changed: the address bar never keeps
    texts the page no longer shows (nor texts the user did not ask to put there)."""
    link = _link_in_url()
    if link and not _matches(link, candidate, references):
        for key in link:
            del st.query_params[key]
