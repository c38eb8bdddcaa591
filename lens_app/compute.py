"""The app's computations, cached on their real inputs (texts, Options, method names).

Every page asks here instead of calling rouge_core directly, so a result computed once
(for one view, one page or one session) serves every rerun that needs it again, and a
rerun pays only for what changed. Functions take hashable arguments only (texts as str,
references as a tuple, Options is a frozen dataclass). Nothing here draws anything.
"""

from __future__ import annotations

import streamlit as st

import rouge_core
from rouge_core import disagree, explain, sweep

HEADLINE_METHODS = ("rouge1", "rouge2", "rougeL", "rougeLsum")  # shown large whatever n is


@st.cache_data(max_entries=64, show_spinner=False)
def scores(candidate: str, references: tuple[str, ...], methods: tuple[str, ...], options: rouge_core.Options
           ) -> rouge_core.Result:
    """Scores without evidence (the evidence views ask for theirs one at a time)."""
    return rouge_core.score(candidate, list(references), methods, options, evidence=False)


@st.cache_data(max_entries=64, show_spinner=False)
def evidence(candidate: str, reference: str, method: str, options: rouge_core.Options) -> rouge_core.Result:
    """One method against one reference, with its evidence. A reference's evidence does not
    depend on the other references, so it is computed for the one being shown."""
    return rouge_core.score(candidate, [reference], [method], options, evidence=True)


@st.cache_data(max_entries=16, show_spinner=False)
def sweep_n(candidate: str, references: tuple[str, ...], options: rouge_core.Options, current: int):
    return sweep.sweep_n(candidate, list(references), options, current=current)


@st.cache_data(max_entries=16, show_spinner=False)
def sweep_skip(candidate: str, references: tuple[str, ...], options: rouge_core.Options, current: int | None):
    return sweep.sweep_skip_distance(candidate, list(references), options, current=current)


@st.cache_data(max_entries=16, show_spinner=False)
def sweep_beta(candidate: str, references: tuple[str, ...], options: rouge_core.Options, methods: tuple[str, ...]):
    return sweep.sweep_beta(candidate, list(references), options, list(methods))


@st.cache_data(max_entries=16, show_spinner=False)
def sweep_weight(candidate: str, references: tuple[str, ...], options: rouge_core.Options, current: float):
    return sweep.sweep_weight(candidate, list(references), options, current=current)


@st.cache_data(max_entries=16, show_spinner=False)
def profiles(candidate: str, references: tuple[str, ...], methods: tuple[str, ...], options: rouge_core.Options):
    return sweep.compare_profiles(candidate, list(references), list(methods), current=options)


@st.cache_data(max_entries=16, show_spinner=False)
def documents(candidate: str, references: tuple[str, ...], options: rouge_core.Options):
    return explain.documents(candidate, list(references), options)


@st.cache_data(max_entries=16, show_spinner=False)
def side_by_side(candidate: str, references: tuple[str, ...]):
    return disagree.side_by_side(candidate, list(references))


@st.cache_data(max_entries=32, show_spinner=False)
def attribution(candidate: str, references: tuple[str, ...], baseline: str, other: str):
    return disagree.attribute(candidate, list(references), baseline, other)
