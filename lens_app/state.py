"""The texts and settings every page shares, kept in st.session_state.

Pages read the current input with `current_texts()` and the sidebar's choices with
`current_options()` / `current_methods()`; changing a setting never clears the texts.

Texts live under plain (non-widget) keys, so they survive page switches: Streamlit drops
a widget's state when a page that does not draw it runs. Input widgets have their own keys
and are refilled from the texts whenever `set_texts` marks them stale.
"""

from __future__ import annotations

import streamlit as st

import rouge_core

CANDIDATE_KEY = "candidate"
REFERENCES_KEY = "references"
OPTIONS_KEY = "options"  # a rouge_core.Options set by the sidebar in app.py
METHODS_KEY = "methods"  # a list of method names set by the sidebar in app.py
N_KEY = "n"  # ROUGE-N goes up to this n
SKIP_DISTANCE_KEY = "skip distance"  # int, or None for unlimited
W_KEY = "w"  # the ROUGE-W weight

# Widget keys of the Score page's text inputs (tests set texts through them).
CANDIDATE_INPUT_KEY = "candidate_input"
_INPUTS_STALE_KEY = "_text_inputs_stale"


def reference_input_key(index: int) -> str:
    return f"reference_input_{index}"


def current_texts() -> tuple[str, list[str]]:
    return st.session_state.get(CANDIDATE_KEY, ""), list(st.session_state.get(REFERENCES_KEY, [""]))


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


def current_options() -> rouge_core.Options:
    return st.session_state.get(OPTIONS_KEY) or rouge_core.profile("rouge-score")


def current_methods() -> list[str]:
    return list(st.session_state.get(METHODS_KEY) or rouge_core.DEFAULT_METHODS)


def current_n() -> int:
    return int(st.session_state.get(N_KEY, 2))


def current_skip_distance() -> int | None:
    return st.session_state.get(SKIP_DISTANCE_KEY, 4)


def current_w() -> float:
    return float(st.session_state.get(W_KEY, 1.2))
