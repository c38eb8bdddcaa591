"""The source document on the Score page: where the candidate's words come from (source,
reference, both, neither), the extractive fragments on both texts, coverage, density,
compression and novel n-grams (rouge_core.studies.source), its cost asked before it is paid."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rouge_core
from rouge_core.studies import source as src
from rouge_core.viz.source_highlight import ORIGIN_LEGEND, fragments_html, origins_html

from . import costs
from .display import show_table
from .markup import md

SEARCH_LABELS = {"newsroom": "as the Newsroom code (published)", "longest": "longest match at each word"}


@st.cache_data(max_entries=16, show_spinner=False)
def statistics(candidate: str, references: tuple[str, ...], source: str, options: rouge_core.Options,
               search: str) -> src.Abstractiveness:
    return src.abstractiveness(candidate, source, options, references=references, search=search,
                               cost_limit=rouge_core.UNBOUNDED)  # the page asked the cost first


@st.cache_data(max_entries=16, show_spinner=False)
def estimate(candidate: str, source: str, options: rouge_core.Options, search: str):
    opts = src.source_options(options)
    from rouge_core.scorer.scoring import prepare

    return src.estimate(prepare(candidate, opts, "candidate"), src.SourceIndex(prepare(source, opts, "source").term_tuple),
                        search)


def metrics(result: src.Abstractiveness) -> None:
    values = result.values()
    columns = st.columns(7)
    helps = {"coverage": "Share of the candidate's tokens inside an extractive fragment.",
             "density": "Σ |fragment|² / candidate tokens: the mean length of the fragment a token belongs to.",
             "compression": "Source tokens / candidate tokens."}
    for column, name in zip(columns, src.STATISTICS):
        value = values[name]
        if name.startswith("novel"):
            n = int(name[-1])
            counts = result.novel[n]
            shown = "—" if value != value else f"{value:.1%}"
            column.metric(src.STATISTIC_LABELS[name], shown,
                          help=f"{counts.novel:,} of the candidate's {counts.total:,} {n}-grams occur nowhere in the "
                               "source.")
        else:
            column.metric(name, f"{value:.4f}" if name != "compression" else f"{value:.2f}", help=helps[name])


@st.fragment
def render(candidate: str, references: tuple[str, ...], source: str, options: rouge_core.Options) -> None:
    st.subheader("The source document")
    search = st.segmented_control("Fragments", list(SEARCH_LABELS), format_func=SEARCH_LABELS.get, default="newsroom",
                                  key="source_fragment_search") or "newsroom"
    found = estimate(candidate, source, options, search)
    key = costs.approval(f"abstractiveness {search}", candidate, (source,), options)
    if not (costs.within_bound(found) or costs.approved(key)):
        costs.ask(found, key, "Matching the candidate against the source")
        return
    result = statistics(candidate, tuple(references), source, options, search)
    metrics(result)
    counts = result.origin_counts()
    total = sum(counts.values())
    st.markdown("**Where the candidate's words come from**")
    st.html(ORIGIN_LEGEND + origins_html(result))
    if total:
        st.caption(" · ".join(f"{src_label}: {counts[o]:,} ({counts[o] / total:.0%})" for o, src_label in
                              (("both", "source and reference"), ("source", "source only"),
                               ("reference", "reference only"), ("novel", "neither"))) +
                   ". A word is from the source when it lies in an extractive fragment (its word occurs in the source), "
                   "from a reference when a reference has it.")
    st.markdown("**Extractive fragments** (Grusky et al. 2018): the same number marks a fragment on both texts.")
    longest = max((f.length for f in result.fragments), default=1)
    min_length = st.slider("Show fragments of at least this many tokens", 1, max(2, longest), 1,
                           key="source_min_fragment") if longest > 1 else 1
    cand_html, source_html = fragments_html(result, min_length, source_height="24rem")
    left, right = st.columns(2)
    with left:
        st.markdown("**Candidate**")
        st.html(cand_html)
    with right:
        st.markdown("**Source**")
        st.html(source_html)
    rows = [{k: v for k, v in row.items() if k not in ("summary_chars", "source_chars")} for row in
            result.fragment_rows() if row["length"] >= min_length]
    if rows:
        with st.expander(f"The {len(rows):,} fragments as a table", key="source_fragments_open", on_change="rerun") as view:
            if view.open:
                show_table(pd.DataFrame(rows), key="source_fragments_table", signature=result.signature,
                           counts=("fragment", "length", "summary_start", "source_start"))
    st.caption(f"Signature: {md(result.signature)}. Tokens as the sidebar's settings make them (ROUGE's length limits "
               "aside).")


def report_button(candidate: str, references: tuple[str, ...], source: str, options: rouge_core.Options,
                  methods: tuple[str, ...]) -> None:
    """A download of this pair as one self-contained HTML file (scores, evidence, and the source
    statistics with the fragments when a source is given), built when clicked."""
    from rouge_core.report import pair_report_html

    def build() -> bytes:
        result = rouge_core.score(candidate, list(references), list(methods), options, evidence=True)
        statistics_of_source = (src.abstractiveness(candidate, source, options, references=references)
                                if source.strip() else None)
        return pair_report_html(result, statistics_of_source).encode("utf-8")

    st.download_button("Download a report of this pair (HTML)", build, file_name="rouge-lens-pair.html",
                       mime="text/html", key="download_pair_report", on_click="ignore", icon=":material/description:",
                       help="One file that opens in any browser without the app or the network: the scores, the "
                            "matched words and, with a source, the fragments, with the signature and the texts' "
                            "SHA-256.")

