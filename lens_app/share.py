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

from . import sidebar, state
from .settings import QUERY, Settings

MAX_URL_CHARS = 6000  # encoded query-string characters; browsers and chat apps keep this safely
_LOADED_KEY = "_query_params_loaded"


def encode_view(candidate: str, references: list[str], settings: Settings) -> dict[str, str | list[str]]:
    """Query parameters for texts and settings."""
    return {**settings.to_query(), "c": candidate, "r": list(references)}


def encoded_length(params: dict[str, str | list[str]]) -> int:
    return len(urlencode(params, doseq=True))


def load_from_url_once() -> list[str]:
    """At the start of a session, take texts and settings from the URL. Runs before the
    sidebar draws its widgets, so their values can still be set."""
    ss = st.session_state
    if ss.get(_LOADED_KEY):
        return []
    ss[_LOADED_KEY] = True
    params = _url_params()
    if not params:
        return []
    settings, problems = Settings.from_query(params)
    sidebar.show(settings)
    if "c" in params or "r" in params:
        candidate = (params.get("c") or [""])[0]
        references = params.get("r") or [""]
        state.set_texts(candidate, references)
    return problems


def _url_params() -> dict[str, list[str]]:
    return {k: st.query_params.get_all(k) for k in st.query_params.keys()}


def _as_lists(params: dict[str, str | list[str]]) -> dict[str, list[str]]:
    return {k: (v if isinstance(v, list) else [v]) for k, v in params.items()}


LINK_PARAMS = frozenset(("c", "r", *(param for param, _, _ in QUERY.values())))  # what a share link writes


def _link_in_url() -> dict[str, list[str]]:
    return {k: v for k, v in _url_params().items() if k in LINK_PARAMS}


def _matches(link: dict[str, list[str]], candidate: str, references: list[str]) -> bool:
    """Every value the link holds is the current view's (a hand-made link may hold fewer)."""
    view = _as_lists(encode_view(candidate, references, state.current_settings()))
    return all(view.get(k) == v for k, v in link.items())


def shows_view(candidate: str, references: list[str]) -> bool:
    """Whether the address bar holds a link to this view, texts included."""
    link = _link_in_url()
    return "c" in link and _matches(link, candidate, references)


def write_to_url(candidate: str, references: list[str]) -> bool:
    """Put the view into the URL (the user asked for a link); False when the texts are too
    long (settings only then)."""
    params = encode_view(candidate, references, state.current_settings())
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
