"""The Compare systems page beyond the scores: copying from the source per system, the reference
n-grams one system matches and the other misses (with examples that open on the Score page),
scores in buckets, lengths, and the report to share. Each is computed once per choice in a
session (a progress bar the first time); every later action reads what was computed."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rouge_core.studies import analysis
from rouge_core import report
from rouge_core.studies.source import corpus_abstractiveness
from rouge_core.viz import analysis_charts as charts

from . import corpus_ui
from .display import show_table
from .markup import md

_CACHE_KEY = "analysis_cache"
BUCKETS = {"reference": "Reference length", "candidate": "Candidate length", "frequency": "Word frequency",
           "position": "Reference sentence position"}
N_CHOICES = {0: "all n", 1: "1-grams", 2: "2-grams", 3: "3-grams", 4: "4-grams"}


def source_of(corpus, index: int) -> str:
    """The source document of a pair ("" when the corpus has none)."""
    return corpus.sources[index] if corpus.sources is not None else ""


def _cached(key: tuple, build, label: str):
    cache = st.session_state.setdefault(_CACHE_KEY, {})
    if key not in cache:
        if len(cache) >= 24:
            cache.pop(next(iter(cache)))
        with st.spinner(label):
            cache[key] = build()
    return cache[key]


def _results_key(results) -> tuple:
    return tuple((s, id(r)) for s, r in results.items())


def tokenized(corpus, results) -> analysis.TokenizedCorpus:
    first = next(iter(results.values()))

    def build():
        bar = st.progress(0.0, text="Reading the corpus's words…")

        def progress(done: int, total: int) -> None:
            bar.progress(min(1.0, done / total), text=f"Reading the corpus's words: {done:,} of {total:,} texts")

        out = analysis.tokenize_corpus(corpus.systems, corpus.references, first.options, corpus.ids, progress)
        bar.empty()
        return out

    return _cached(("tokens", _results_key(results)), build, "Reading the corpus's words…")


def source_statistics(corpus, results, resamples: int, seed: int, confidence: float):
    first = next(iter(results.values()))

    def build():
        bar = st.progress(0.0, text="Matching every summary against its source…")

        def progress(done: int, total: int) -> None:
            if done % 50 == 0 or done == total:
                bar.progress(done / total, text=f"Matching every summary against its source: {done:,} of {total:,}")

        out = corpus_abstractiveness(corpus.systems, corpus.sources, first.options, ids=corpus.ids,
                                     resamples=resamples, seed=seed, confidence=confidence, progress=progress)
        bar.empty()
        return out

    return _cached(("source", corpus.fingerprint(), first.options, resamples, seed, confidence), build,
                   "Matching every summary against its source…")


def render_source(corpus, results, resamples: int, seed: int, confidence: float) -> None:
    st.subheader("Copying from the source")
    if corpus.sources is None:
        st.caption("Give the corpus a `source` column (the documents summarised) to see how much each system copies: "
                   "coverage, density, compression (Grusky et al. 2018) and novel n-grams per system, beside the "
                   "ROUGE scores.")
        return
    result = source_statistics(corpus, results, resamples, seed, confidence)
    wide = result.wide_frame()
    first = next(iter(results.values()))
    method = first.methods[0]
    wide.insert(1, f"{method} F", [results[s].macro()[method].fmeasure for s in wide["system"]])
    show_table(wide, key="source_wide", limit=None, signature=result.signature)
    st.altair_chart(charts.source_statistics_chart(result.frame(), result.signature, confidence), width="stretch")
    st.caption(f"Means over the pairs with {confidence:g}% bootstrap intervals ({resamples:,} resamples of the pairs, "
               f"seed {seed}). Coverage: share of summary words inside a fragment copied from the source; density: "
               "mean length of that fragment (high: long copied passages); compression: source words per summary word; "
               "novel n-grams: share of the summary's n-grams the source does not have. A system that scores well "
               "with high density scores well by copying.")
    corpus_ui.download_pair("Source statistics", result.frame(), result.signature, "source_statistics", "dl_source")


def render_ngrams(corpus, results, tokens, system_a: str, system_b: str, method: str) -> None:
    st.subheader("What one system gets that the other misses")
    signature = results[system_a].signatures[results[system_a].method_key(method)]
    diffs = _cached(("ngrams", _results_key(results), system_a, system_b),
                    lambda: analysis.ngram_differences(tokens, system_a, system_b, signature=signature),
                    "Counting the reference n-grams each system matches…")
    c1, c2 = st.columns([1, 3])
    n = c1.selectbox("n-grams", list(N_CHOICES), format_func=N_CHOICES.get, key="ngram_diff_n") or None
    limit = c2.slider("Listed per system", 5, 50, 15, key="ngram_diff_limit")
    st.caption("Reference n-grams counted over the corpus as ROUGE-N clips them (compare-mt's analysis). p: exact sign "
               "test over the documents where one system matched the n-gram more often than the other; adjusted_p: "
               f"Holm over all {len(diffs.table):,} n-grams. salience (m_A + 1) / (m_A + m_B + 2) as compare-mt. Click a "
               "row for the documents; open one on the Score page.")
    for side, (favouring, other) in enumerate(((system_a, system_b), (system_b, system_a))):
        top = diffs.top(favouring, limit, n=n)
        st.markdown(f"**{md(favouring)} matches, {md(other)} misses**")
        if top.empty:
            st.caption("None.")
            continue
        event = show_table(top, key=f"ngram_top_{side}", limit=None, on_select="rerun", selection_mode="single-row",
                           signature=signature, counts=("n", "matched_a", "matched_b", "difference", "pairs_a",
                                                        "pairs_b"))
        picked = event.selection.rows if event is not None else []
        if picked:
            examples(corpus, diffs, top.iloc[picked[0]]["ngram"], favouring, other, side)
    both = pd.concat([diffs.top(system_a, max(1, limit // 2), n=n), diffs.top(system_b, max(1, limit // 2), n=n)])
    if not both.empty:
        st.altair_chart(charts.ngram_difference_chart(both, system_a, system_b, signature), width="stretch")
    corpus_ui.download_pair("Every n-gram", diffs.frame(), signature, "ngram_differences", "dl_ngrams")


def examples(corpus, diffs, gram: str, favouring: str, other: str, side: int) -> None:
    pairs = diffs.example_pairs(gram, favouring)
    st.caption(f"“{md(gram)}”: {len(pairs):,} document(s) where {md(favouring)} matches it more often than "
               f"{md(other)}. Open one on the Score page:")
    cells = st.columns(min(5, max(1, len(pairs))))
    for k, i in enumerate(pairs[:10]):
        if cells[k % len(cells)].button(md(corpus.ids[i]), key=f"ngram_open_{side}_{k}", icon=":material/open_in_new:",
                                        help=f"{md(favouring)}'s summary of pair {md(corpus.ids[i])} with its evidence"):
            corpus_ui.open_on_score_page(corpus.systems[favouring][i], list(corpus.references[i]), "ngram_opened",
                                         (favouring, corpus.ids[i], gram), source_of(corpus, i))


def buckets_for(results, tokens, kind: str, system_a: str, system_b: str, method: str, resamples: int, seed: int,
                confidence: float) -> analysis.Buckets:
    first = results[system_a]
    signature = first.signatures[first.method_key(method)]
    kw = dict(resamples=resamples, seed=seed, confidence=confidence, signature=signature)
    systems = [system_a, system_b]

    def build():
        if kind in ("reference", "candidate"):
            return analysis.bucket_by_length(tokens, {s: results[s].values(method) for s in systems}, kind,
                                             measure=f"{method} F", **kw)
        if kind == "frequency":
            return analysis.bucket_by_frequency(tokens, systems, **kw)
        return analysis.bucket_by_sentence_position(tokens, systems, **kw)

    return _cached(("buckets", _results_key(results), kind, system_a, system_b, method, resamples, seed, confidence),
                   build, "Bucketing…")


def render_buckets(results, tokens, system_a: str, system_b: str, method: str, resamples: int, seed: int,
                   confidence: float) -> None:
    st.subheader("Scores in buckets")
    kind = st.segmented_control("Bucket by", list(BUCKETS), format_func=BUCKETS.get, default="reference",
                                key="bucket_kind") or "reference"
    buckets = buckets_for(results, tokens, kind, system_a, system_b, method, resamples, seed, confidence)
    frame = buckets.frame()
    st.altair_chart(charts.bucket_chart(frame, buckets.title, buckets.measure, buckets.signature, confidence),
                    width="stretch")
    notes = {"reference": "Mean F of the pairs whose references (mean length) fall in each bucket; the cut-offs split "
                          "the corpus into groups of similar size.",
             "candidate": "Mean F of each system's pairs by the length of its own candidate.",
             "frequency": "compare-mt's word F-measure by how often a word occurs in the corpus's references: how "
                          "well rare words (left) are matched. count: reference words in the bucket.",
             "position": "Recall of each reference sentence by its position: does a system cover what a reference "
                         "says first? count: reference words at that position."}
    st.caption(f"{notes[kind]} {confidence:g}% intervals from {resamples:,} resamples of the documents (seed {seed}).")
    show_table(frame.drop(columns=["order"]), key=f"bucket_table_{kind}", limit=None, signature=buckets.signature,
               counts=("count",))


def render_lengths(results, tokens, system_a: str, resamples: int, seed: int, confidence: float) -> None:
    st.subheader("Length")
    first = results[system_a]
    lengths = _cached(("lengths", _results_key(results), resamples, seed, confidence),
                      lambda: analysis.length_statistics(tokens, resamples=resamples, seed=seed, confidence=confidence,
                                                         signature=first.signature), "Measuring lengths…")
    show_table(lengths.frame(), key="length_table", limit=None, signature=lengths.signature, counts=("pairs",))
    st.altair_chart(charts.length_ratio_chart(lengths.pairs_frame(), lengths.signature), width="stretch")
    st.caption("Candidate tokens over the mean reference length, per pair. ROUGE recall rewards length: a system whose "
               "ratio is well above 1 gains recall by saying more; compare its precision.")


def render_report(corpus, results, tokens, system_a: str, system_b: str, method: str, resamples: int, seed: int,
                  confidence: float) -> None:
    st.subheader("A report to share")

    def build() -> bytes:
        source = source_statistics(corpus, results, resamples, seed, confidence) if corpus.sources is not None else None
        result = report.compare_systems_report(corpus, results, system_a, system_b, method, resamples=resamples,
                                               seed=seed, confidence=confidence, tokenized=tokens, source=source)
        return report.systems_report_html(corpus, result).encode("utf-8")

    st.download_button(f"Download the comparison of {md(system_a)} and {md(system_b)} (HTML)", build,
                       file_name="rouge-lens-comparison.html", mime="text/html", key="download_comparison_report",
                       on_click="ignore", icon=":material/description:", type="primary")
    st.caption("One file that opens in any browser without the app or the network: every table and chart of this "
               "comparison, examples with their evidence, the signature and the SHA-256 of the corpus's texts.")


def render(corpus, results, system_a: str, system_b: str, method: str, resamples: int, seed: int,
           confidence: float) -> None:
    """Every section, for the two systems chosen above."""
    render_source(corpus, results, resamples, seed, confidence)
    if system_a == system_b:
        st.info("Choose two different systems above to see what one gets that the other misses.")
        return
    tokens = tokenized(corpus, results)
    render_ngrams(corpus, results, tokens, system_a, system_b, method)
    render_buckets(results, tokens, system_a, system_b, method, resamples, seed, confidence)
    render_lengths(results, tokens, system_a, resamples, seed, confidence)
    render_report(corpus, results, tokens, system_a, system_b, method, resamples, seed, confidence)
