"""The app's computations, cached on their real inputs (texts, Options, method names).

Every page asks here instead of calling rouge_core directly, so a result computed once
(for one view, one page or one session) serves every rerun that needs it again, and a
rerun pays only for what changed. Functions take hashable arguments only (texts as str,
references as a tuple, Options is a frozen dataclass). Nothing here draws anything.
"""

from __future__ import annotations

import threading

import streamlit as st

import rouge_core
from rouge_core import UNBOUNDED
from rouge_core.scorer import cost
from rouge_core.teach import disagree, explain, sweep
from rouge_core.scorer.scoring import prepare_pair
from rouge_core.text.stemming import get_stemmer

HEADLINE_METHODS = ("rouge1", "rouge2", "rougeL", "rougeLsum")  # shown large whatever n is


@st.cache_resource(show_spinner=False)
def warm_stemmer() -> threading.Thread:
    """Load NLTK's Porter stemmer (rouge-score's) once per server, in the background: importing
    NLTK takes 1-3 s, which the first switch to that stemmer in the sidebar would otherwise pay."""
    thread = threading.Thread(target=get_stemmer, args=("porter",), name="warm-porter-stemmer", daemon=True)
    thread.start()
    return thread


@st.cache_data(max_entries=64, show_spinner=False)
def estimates(candidate: str, references: tuple[str, ...], methods: tuple[str, ...], options: rouge_core.Options,
              evidence: bool) -> dict[str, cost.CostEstimate]:
    """What each method would cost on these texts, before anything is computed
    (rouge_core.scorer.cost.estimate_texts): {method name: its estimate}, and under
    cost.TOKENIZING what reading the texts costs (every view needs it first; when it alone is
    above the bound, the texts are not tokenized to estimate the rest)."""
    return cost.estimate_texts(methods, candidate, list(references), options, evidence=evidence)


# The callers below check each method's estimate first (lens_app.costs): what they ask for
# is within the bound or was explicitly approved, so the calls themselves are unbounded.

@st.cache_data(max_entries=64, show_spinner=False)
def scores(candidate: str, references: tuple[str, ...], methods: tuple[str, ...], options: rouge_core.Options
           ) -> rouge_core.Result:
    """Scores without evidence (the evidence views ask for theirs one at a time)."""
    return rouge_core.score(candidate, list(references), methods, options, evidence=False, cost_limit=UNBOUNDED)


@st.cache_data(max_entries=64, show_spinner=False)
def evidence(candidate: str, reference: str, method: str, options: rouge_core.Options) -> rouge_core.Result:
    """One method against one reference, with its evidence. A reference's evidence does not
    depend on the other references, so it is computed for the one being shown."""
    return rouge_core.score(candidate, [reference], [method], options, evidence=True, cost_limit=UNBOUNDED)


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
    return prepare_pair(candidate, list(references), options)


@st.cache_resource(max_entries=8, show_spinner=False)
def comparison(candidate: str, references: tuple[str, ...], approved: bool = False) -> disagree.Comparison:
    """One Comparison per input, shared by reruns: it keeps every tokenization and every set
    of statistics the disagreement walks need (they fill it as they go; it only grows, and
    what it holds depends on the texts alone). `approved`: its work was estimated above the
    bound and the user asked for it anyway (no bound then)."""
    return disagree.Comparison(candidate, list(references), cost_limit=UNBOUNDED if approved else None)


# --- the Learn page's walk-throughs (each on the candidate and one reference) ----------------

@st.cache_data(max_entries=16, show_spinner=False)
def reference_stats(candidate: str, reference: str, method: str, options: rouge_core.Options) -> rouge_core.Stats:
    return scores(candidate, (reference,), (method,), options)[method].per_reference[0].stats


@st.cache_data(max_entries=16, show_spinner=False)
def union_walkthrough(candidate: str, reference: str, options: rouge_core.Options) -> dict:
    cand, (ref,) = prepare_pair(candidate, [reference], options)
    return explain.union_lcs_walkthrough(cand, ref)


@st.cache_data(max_entries=16, show_spinner=False)
def w_runs(candidate: str, reference: str, options: rouge_core.Options, w: float) -> dict:
    cand, (ref,) = prepare_pair(candidate, [reference], options)
    return explain.w_runs(cand, ref, w)


@st.cache_data(max_entries=16, show_spinner=False)
def skip_walkthrough(candidate: str, reference: str, options: rouge_core.Options, distance: int, max_distance: int) -> dict:
    cand, (ref,) = prepare_pair(candidate, [reference], options)
    c, r = cand.terms, ref.terms
    return {
        "listed": explain.skip_bigrams(c, distance),
        "shared": [row for row in explain.skip_bigram_table(c, r, distance) if row["counted"] > 0],
        "growth": explain.skip_growth(c, r, max_distance, cost_limit=UNBOUNDED),
        "su": explain.su_comparison(c, r, distance, options, cost_limit=UNBOUNDED),
    }


@st.cache_data(max_entries=16, show_spinner=False)
def multi_reference(candidate: str, references: tuple[str, ...], method: str, options: rouge_core.Options) -> dict:
    return explain.multi_reference(candidate, list(references), method, options)


@st.cache_data(max_entries=16, show_spinner=False)
def tokenization(text: str, options: rouge_core.Options) -> list[dict]:
    """How the tokenizer reads one text, word by word as typed (rouge_core.teach.explain)."""
    return explain.tokenization_view(text, options)
