"""Costs known before they are paid: what the app does with a computation above the bound.

Every method's cost is estimated from token counts first (rouge_core.scorer.cost). A computation
within the bound (about 2 s and 500 MB, rouge_core.DEFAULT_COST_LIMIT) runs; one above it
does not: the page says what it would cost and offers the bounded alternative (d = 4 for an
unlimited skip distance) or an explicit "Compute anyway", which the user grants for these
very texts and settings only (an approval is keyed by everything the cost depends on).
"""

from __future__ import annotations

import hashlib

import streamlit as st

import rouge_core
from rouge_core.scorer.cost import TOKENIZING, CostEstimate

from . import compute, sidebar, state
from .markup import md

_APPROVED_KEY = "_compute_anyway"  # approvals: digests of (what, texts, options)


def within_bound(estimate: CostEstimate) -> bool:
    return rouge_core.DEFAULT_COST_LIMIT.allows(estimate)


def approval(what: str, candidate: str, references, options: rouge_core.Options) -> str:
    """The key of one approval: this computation on these texts under these options."""
    payload = repr((what, candidate, tuple(references), options)).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()


def approved(key: str) -> bool:
    return key in st.session_state.get(_APPROVED_KEY, ())


def _approve(key: str) -> None:
    st.session_state.setdefault(_APPROVED_KEY, set()).add(key)


def _use_bounded_distance() -> None:
    sidebar.show(state.current_settings().replace(skip_unlimited=False, skip_distance=rouge_core.SKIP_DISTANCE.default))


def ask(estimate: CostEstimate, key: str, what: str) -> None:
    """Say what `what` would cost and offer the bounded alternative or computing anyway."""
    limit = rouge_core.DEFAULT_COST_LIMIT.describe()
    st.warning(f"**{md(what)}** is not computed: it would take {estimate.describe()}, above this app's bound of {limit} "
               "per computation.", icon=":material/hourglass_top:")
    left, right = st.columns(2)
    if estimate.alternative is not None:
        left.button(f"Use {estimate.alternative} instead (skip distance {rouge_core.SKIP_DISTANCE.default})",
                    key=f"bounded_{key}", on_click=_use_bounded_distance, icon=":material/speed:")
    right.button(f"Compute anyway ({estimate.describe()})", key=f"anyway_{key}", on_click=_approve, args=(key,),
                 icon=":material/play_arrow:")


READING = "Reading these texts"  # how the tokenizing of the texts is named when it asks


def reading_affordable(candidate: str, references, options: rouge_core.Options, estimates: dict) -> bool:
    """Whether tokenizing the texts (estimates[cost.TOKENIZING], when there) is within the bound or
    approved; when not, asks (every view needs the tokens first)."""
    estimate = estimates.get(TOKENIZING)
    if estimate is None:
        return True
    key = approval(TOKENIZING, candidate, references, options)
    if within_bound(estimate) or approved(key):
        return True
    ask(estimate, key, READING)
    return False


def affordable(candidate: str, references, names, options: rouge_core.Options, *, evidence: bool, what: str = "") -> bool:
    """Whether these methods on these texts are within the bound (or approved); when not,
    says what each would cost and offers the alternatives. `what` names the view."""
    estimates = compute.estimates(candidate, tuple(references), tuple(names), options, evidence)
    if not reading_affordable(candidate, references, options, estimates):
        return False
    ok = True
    for name, estimate in estimates.items():
        if name == TOKENIZING:
            continue
        key = approval(f"{name} {what}", candidate, references, options)
        if not (within_bound(estimate) or approved(key)):
            ask(estimate, key, f"{what} of {name}" if what else name)
            ok = False
    return ok


def affordable_estimate(estimate: CostEstimate, key: str, what: str) -> bool:
    """Whether one computation's estimate is within the bound or approved (by `key`); when not,
    asks, naming it `what`."""
    if within_bound(estimate) or approved(key):
        return True
    ask(estimate, key, what)
    return False
