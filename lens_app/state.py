"""The texts and settings every page shares, kept in st.session_state.

Pages read the current input with `current_texts()` and the sidebar's Settings with
`current_settings()` (lens_app.settings; `current_options()` / `current_methods()` are its
Options and method names); changing a setting never clears the texts.

Texts live under plain (non-widget) keys, so they survive page switches: Streamlit drops
a widget's state when a page that does not draw it runs. Input widgets have their own keys,
new ones whenever `set_texts` replaces the texts (each starts with its text as its value).
"""

from __future__ import annotations

import streamlit as st

import rouge_core

from .settings import Settings

CANDIDATE_KEY = "candidate"
REFERENCES_KEY = "references"
SETTINGS_KEY = "settings"  # the Settings the sidebar in app.py drew

# Widget keys of the Score page's text inputs (tests set texts through them), the start of them:
# each replacement of the texts on screen draws new text areas (see set_texts).
CANDIDATE_INPUT_KEY = "candidate_input"
REFERENCE_INPUT_PREFIX = "reference_input_"
_TEXTS_GENERATION_KEY = "_text_inputs_generation"


def box_key(base: str, generation_key: str, session=None) -> str:
    """The key a replaceable text box has now: `base`, then a new one each time the text it
    shows is replaced (`replace_boxes`); `session`: st.session_state, or an AppTest's."""
    session = st.session_state if session is None else session
    generation = session[generation_key] if generation_key in session else 0
    return base if generation == 0 else f"{base}_g{generation}"


def replace_boxes(generation_key: str, drawn_key: str, session=None) -> None:
    """The boxes of `generation_key`, when drawn (`drawn_key` is in the session), are drawn anew
    under new keys, starting with their texts as their value. An edit the browser sent before it
    had drawn the replaced text (a box typed into while an example loads) belongs to the old box
    and is dropped with it. Writing the new text into the old box's state instead let such an
    edit overwrite it on the server while the box showed it, and a run interrupted after that
    write left the box showing a text the server no longer had: a page scoring another text than
    it showed. (Streamlit forgets the old boxes once a run does not draw them.)"""
    session = st.session_state if session is None else session
    if drawn_key in session:
        session[generation_key] = (session[generation_key] if generation_key in session else 0) + 1


def candidate_input_key(session=None) -> str:
    """The candidate text area's key now (`session`: st.session_state, or an AppTest's)."""
    return box_key(CANDIDATE_INPUT_KEY, _TEXTS_GENERATION_KEY, session)


def reference_input_key(index: int, session=None) -> str:
    return box_key(f"{REFERENCE_INPUT_PREFIX}{index}", _TEXTS_GENERATION_KEY, session)


def current_texts() -> tuple[str, list[str]]:
    return st.session_state.get(CANDIDATE_KEY, ""), list(st.session_state.get(REFERENCES_KEY, [""]))


def texts_or_example(example) -> tuple[str, list[str], bool]:
    """The Score page's candidate and non-empty references, or `example`'s texts when either
    side is empty; the flag says the example is used."""
    candidate, references = current_texts()
    references = [r for r in references if r.strip()]
    if candidate.strip() and references:
        return candidate, references, False
    return example.candidate, list(example.references), True


def set_texts(candidate: str, references: list[str], session=None) -> None:
    """Replace the shared texts (`session`: st.session_state, or an AppTest's); the Score
    page's text areas show them on their next draw, new boxes if they were drawn
    (`replace_boxes`)."""
    ss = st.session_state if session is None else session
    ss[CANDIDATE_KEY] = candidate
    ss[REFERENCES_KEY] = list(references) or [""]
    replace_boxes(_TEXTS_GENERATION_KEY, candidate_input_key(ss), ss)


def has_texts() -> bool:
    return CANDIDATE_KEY in st.session_state


def current_settings() -> Settings:
    return st.session_state.get(SETTINGS_KEY) or Settings()


def current_options() -> rouge_core.Options:
    return current_settings().options()


def current_methods() -> list[str]:
    return current_settings().methods()
