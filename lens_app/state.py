"""The texts and settings every page shares, kept in st.session_state.

Pages read the current input with `current_texts()` and the sidebar's choices with
`current_options()` / `current_methods()`; changing a setting never clears the texts.
"""

from __future__ import annotations

import streamlit as st

import rouge_core

CANDIDATE_KEY = "candidate"
REFERENCES_KEY = "references"
OPTIONS_KEY = "options"  # a rouge_core.Options set by the sidebar in app.py
METHODS_KEY = "methods"  # a list of method names set by the sidebar in app.py


def current_texts() -> tuple[str, list[str]]:
    return st.session_state.get(CANDIDATE_KEY, ""), list(st.session_state.get(REFERENCES_KEY, [""]))


def set_texts(candidate: str, references: list[str]) -> None:
    st.session_state[CANDIDATE_KEY] = candidate
    st.session_state[REFERENCES_KEY] = list(references) or [""]


def current_options() -> rouge_core.Options:
    return st.session_state.get(OPTIONS_KEY) or rouge_core.profile("rouge-score")


def current_methods() -> list[str]:
    return list(st.session_state.get(METHODS_KEY) or rouge_core.DEFAULT_METHODS)
