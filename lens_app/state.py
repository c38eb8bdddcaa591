"""The texts and settings every page shares, kept in st.session_state.

Pages read the current input with `current_texts()` and the sidebar's Settings with
`current_settings()` (lens_app.settings; `current_options()` / `current_methods()` are its
Options and method names); changing a setting never clears the texts.

Texts live under plain (non-widget) keys, so they survive page switches: Streamlit drops
a widget's state when a page that does not draw it runs. Input widgets have their own keys
and are refilled from the texts whenever `set_texts` marks them stale.
"""

from __future__ import annotations

import streamlit as st

import rouge_core

from .settings import Settings

CANDIDATE_KEY = "candidate"
REFERENCES_KEY = "references"
SETTINGS_KEY = "settings"  # the Settings the sidebar in app.py drew

# Widget keys of the Score page's text inputs (tests set texts through them).
CANDIDATE_INPUT_KEY = "candidate_input"
REFERENCE_INPUT_PREFIX = "reference_input_"
_INPUTS_STALE_KEY = "_text_inputs_stale"


def reference_input_key(index: int) -> str:
    return f"{REFERENCE_INPUT_PREFIX}{index}"


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


def set_texts(candidate: str, references: list[str]) -> None:
    """Replace the shared texts; input widgets pick them up on their next draw."""
    st.session_state[CANDIDATE_KEY] = candidate
    st.session_state[REFERENCES_KEY] = list(references) or [""]
    st.session_state[_INPUTS_STALE_KEY] = True


def inputs_stale() -> bool:
    return bool(st.session_state.get(_INPUTS_STALE_KEY, False))


def mark_inputs_fresh() -> None:
    st.session_state[_INPUTS_STALE_KEY] = False


def has_texts() -> bool:
    return CANDIDATE_KEY in st.session_state


def current_settings() -> Settings:
    return st.session_state.get(SETTINGS_KEY) or Settings()


def current_options() -> rouge_core.Options:
    return current_settings().options()


def current_methods() -> list[str]:
    return current_settings().methods()
