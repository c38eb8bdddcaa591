"""Score: every ROUGE method side by side, with the evidence behind each number.

Only what is on screen is computed. The scores come without evidence; the evidence view of
the open tab is computed against the one reference shown; the sweeps and the profile
comparison run when their section is opened. Everything is cached on the texts and settings
(lens_app.compute), and each section below the scores is a fragment: a widget inside it
reruns that section alone.
"""

from __future__ import annotations

from typing import Callable
from urllib.parse import urlencode

import streamlit as st

import rouge_core
from lens_app import compute, costs, inputs, share, source_ui, state
from lens_app.display import column_settings, show_table
from lens_app.markup import md
from rouge_core.teach.explain import format_number as num
from rouge_core.families.methods import evidence_tabs
from rouge_core.scorer.scoring import merge_references
from rouge_core.text.textio import input_problems, pair_to_json
from rouge_core.viz import charts, highlight, tables
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

SWEEPS = {"n": "n (ROUGE-N)", "skip": "skip distance (S, SU)", "beta": "β (F weight)", "w": "w (ROUGE-W)"}


def show_html(markup: str) -> None:
    st.html(markup)


def render_headline(result: rouge_core.Result) -> None:
    """The F of ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum, large, before the full table."""
    for column, name in zip(st.columns(len(compute.HEADLINE_METHODS)), compute.HEADLINE_METHODS):
        method = rouge_core.parse_method(name)
        if name not in result.methods:
            column.metric(f"{method.short_label} F", "—", help="not computed: above the cost bound (see below)")
            continue
        m = result[name]
        column.metric(f"{method.short_label} F", f"{m.fmeasure:.4f}",
                      help=f"precision {m.precision:.4f}, recall {m.recall:.4f}; {m.reason}")


def score_within_bounds(candidate: str, refs: tuple[str, ...], methods: tuple[str, ...], options: rouge_core.Options):
    """The headline, then every method whose estimated cost is within the bound (or was
    approved: computed reference by reference, with progress); returns the result in the
    order of `methods` and, for the others, {name: (estimate, approval key)}."""
    wanted = tuple(dict.fromkeys((*compute.HEADLINE_METHODS, *methods)))
    estimates = dict(compute.estimates(candidate, refs, wanted, options, evidence=False))
    reading = estimates.pop(costs.TOKENIZING, None)
    if reading is not None and not costs.within_bound(reading):
        key = costs.approval(costs.TOKENIZING, candidate, refs, options)
        if not costs.approved(key):
            return None, {costs.READING: (reading, key)}
    runnable, expensive, waiting = [], [], {}
    for name, estimate in estimates.items():
        key = costs.approval(name, candidate, refs, options)
        if costs.within_bound(estimate):
            runnable.append(name)
        elif costs.approved(key):
            expensive.append(name)
        else:
            waiting[name] = (estimate, key)
    headline = compute.scores(candidate, refs, tuple(m for m in compute.HEADLINE_METHODS if m in runnable), options)
    render_headline(headline)
    parts = [compute.scores(candidate, refs, tuple(m for m in methods if m in runnable), options)]
    for name in expensive:
        parts.append(score_with_progress(candidate, refs, name, options, estimates[name]))
    found = {name: m for part in parts for name, m in part.methods.items()}
    ordered = {name: found[name] for name in (rouge_core.parse_method(m).name for m in methods) if name in found}
    first = parts[0]
    return rouge_core.Result(first.candidate, first.references, options, ordered), waiting


def score_with_progress(candidate: str, refs: tuple[str, ...], name: str, options: rouge_core.Options, estimate):
    """An approved computation above the bound: one reference at a time, with a progress bar."""
    bar = st.progress(0.0, text=f"Computing {name} ({estimate.describe()})…")
    per_reference = []
    for i, ref in enumerate(refs):
        per_reference.append(compute.scores(candidate, (ref,), (name,), options))
        bar.progress((i + 1) / len(refs), text=f"Computing {name}: reference {i + 1} of {len(refs)} done")
    bar.empty()
    return merge_references(per_reference)


def render_scores(result: rouge_core.Result) -> None:
    frame = tables.scores_table(result)
    st.dataframe(
        frame.drop(columns=["name", "short"]),
        hide_index=True,
        width="stretch",
        column_config={**column_settings(frame),
                       "why": st.column_config.TextColumn("why this reference", width="medium"),
                       "signature": st.column_config.TextColumn("signature", width="medium")},
        key="scores_table",
    )
    st.download_button("Download scores (CSV)", frame.to_csv(index=False).encode("utf-8"),
                       file_name="rouge-lens-scores.csv", mime="text/csv", key="download_scores")
    render_per_reference(result)
    st.altair_chart(charts.prf_bars(frame), width="stretch")


@st.fragment
def render_per_reference(result: rouge_core.Result) -> None:
    if st.toggle("Show per-reference scores", key="show_per_reference"):
        show_table(tables.per_reference_table(result), key="per_reference_table", limit=None,
                   counts=tables.PER_REFERENCE_COUNTS)


# --- evidence: one view, one reference ------------------------------------------------------

def evidence_affordable(candidate: str, reference: str, names, options: rouge_core.Options) -> bool:
    return costs.affordable(candidate, (reference,), names, options, evidence=True,
                            what="The evidence against this reference")


def show_side_by_side(cand_html: str, ref_html: str, ref_index: int, result: rouge_core.Result,
                      draw: Callable[[int | None], tuple[str, str]], view: str) -> None:
    """The candidate and the reference as `draw(tokens_shown)` marks them, each drawn up to
    highlight.TOKENS_SHOWN; when either is cut, the whole view is a download (built on click)."""
    col_c, col_r = st.columns(2)
    with col_c:
        st.markdown("**Candidate**")
        show_html(cand_html)
    with col_r:
        st.markdown(f"**Reference {ref_index + 1}**")
        show_html(ref_html)
    cut = [name for name, doc in (("candidate", result.candidate), ("reference", result.references[0]))
           if highlight.drawn_tokens(doc) < len(doc)]
    if cut:
        def whole_page() -> bytes:
            cand_whole, ref_whole = draw(None)
            return highlight.page_html(f"ROUGE Lens: {view}, reference {ref_index + 1}",
                                       [("Candidate", cand_whole), (f"Reference {ref_index + 1}", ref_whole)],
                                       next(iter(result)).signature).encode("utf-8")

        st.download_button(f"Download the whole {view} view (HTML)", whole_page, file_name=f"rouge-lens-{view.lower().replace(' ', '-')}.html",
                           mime="text/html", key=f"whole_view_{view}", on_click="ignore",
                           help=f"The {' and the '.join(cut)} {'are' if len(cut) > 1 else 'is'} drawn here up to about "
                                f"{highlight.TOKENS_SHOWN:,} tokens; the file has every token, marked the same way.")


def render_ngrams(candidate: str, reference: str, ref_index: int, options: rouge_core.Options, max_n: int,
                  family) -> None:
    n = st.segmented_control("n", list(range(1, max(max_n, 4) + 1)), default=1, key=f"highlight_n_up_to_{max(max_n, 4)}",
                             format_func=lambda k: f"{k}-grams") or 1
    name = family.method(n).name
    if not evidence_affordable(candidate, reference, [name], options):
        return
    result = compute.evidence(candidate, reference, name, options)
    ref_score = next(iter(result)).per_reference[0]
    evidence = ref_score.evidence
    show_html(highlight.NGRAM_LEGEND)
    def draw(tokens_shown: int | None = highlight.TOKENS_SHOWN) -> tuple[str, str]:
        return (highlight.ngram_highlight_html(result.candidate, evidence, "candidate", tokens_shown),
                highlight.ngram_highlight_html(result.references[0], evidence, "reference", tokens_shown))

    show_side_by_side(*draw(), ref_index, result, draw, f"matched {n}-grams")
    stats = ref_score.stats
    st.caption(
        f"ROUGE-{n} against reference {ref_index + 1}: {num(stats.hits)} matched {n}-grams; "
        f"precision = {num(stats.hits)} / {num(stats.cand_total)} candidate {n}-grams = {ref_score.score.precision:.4f}, "
        f"recall = {num(stats.hits)} / {num(stats.ref_total)} reference {n}-grams = {ref_score.score.recall:.4f}. "
        "Hover over a word to see its n-gram and counts."
    )
    with st.expander(f"Matched {n}-grams as a table", key=f"ngram_table_open_{n}", on_change="rerun") as table_view:
        if table_view.open:
            show_table(tables.ngram_table(evidence), key=f"ngram_table_{n}", signature=next(iter(result)).signature)


def render_lcs(candidate: str, reference: str, ref_index: int, options: rouge_core.Options) -> None:
    if not evidence_affordable(candidate, reference, ["rougeL", "rougeLsum"], options):
        return
    result = compute.evidence(candidate, reference, "rougeL", options)
    cand, ref = result.candidate, result.references[0]
    lcs = result["rougeL"].per_reference[0]
    st.markdown("**ROUGE-L, sentence level**: one LCS over the whole texts; the same number marks both ends of a pair.")
    def draw(tokens_shown: int | None = highlight.TOKENS_SHOWN) -> tuple[str, str]:
        return highlight.lcs_alignment_html(cand, ref, lcs.evidence, tokens_shown)

    show_side_by_side(*draw(), ref_index, result, draw, "LCS alignment")
    st.caption(f"LCS length {num(lcs.stats.hits)}: precision {num(lcs.stats.hits)} / {num(lcs.stats.cand_total)}, "
               f"recall {num(lcs.stats.hits)} / {num(lcs.stats.ref_total)}.")
    lsum = compute.evidence(candidate, reference, "rougeLsum", options)["rougeLsum"].per_reference[0]
    st.markdown("**ROUGE-Lsum, summary level**: per reference sentence, the LCS with every candidate sentence, "
                "then their union; a union token counts while both texts still have an unused copy of it.")
    show_html(highlight.legend_html((highlight.MATCHED_STYLE, "in the union, counted"),
                                    (highlight.CLIPPED_STYLE, "in the union, not counted")))
    show_html(highlight.union_lcs_html(cand, ref, lsum.evidence))
    st.caption(f"Union-LCS hits {num(lsum.stats.hits)}: precision {num(lsum.stats.hits)} / {num(lsum.stats.cand_total)}, "
               f"recall {num(lsum.stats.hits)} / {num(lsum.stats.ref_total)}.")


def render_wlcs(candidate: str, reference: str, ref_index: int, options: rouge_core.Options, w: float,
                family) -> None:
    method = family.method(w)
    if not evidence_affordable(candidate, reference, [method.name], options):
        return
    result = compute.evidence(candidate, reference, method.name, options)
    ref_score = result[method.name].per_reference[0]
    evidence = ref_score.evidence
    form = "ROUGE-1.5.5's form (per reference sentence)" if evidence.form == "rouge155" else "the paper's form (Lin 2004)"
    st.markdown(f"**ROUGE-W, w = {w:g}**, {form}: runs of consecutive matches weigh k^{w:g}, so one long run "
                "beats several short ones. Each run has its own colour and number.")
    def draw(tokens_shown: int | None = highlight.TOKENS_SHOWN) -> tuple[str, str]:
        return highlight.wlcs_runs_html(result.candidate, result.references[0], evidence, tokens_shown)

    show_side_by_side(*draw(), ref_index, result, draw, "weighted runs")
    show_table(tables.wlcs_runs_table(evidence, result.references[0]), key="wlcs_runs_table",
               signature=result[method.name].signature)
    st.caption(f"Weighted hits {num(evidence.weighted_hits)}; P {ref_score.score.precision:.4f}, R {ref_score.score.recall:.4f}.")


def render_skipgrams(candidate: str, reference: str, ref_index: int, options: rouge_core.Options,
                     skip_distance: int | None, families) -> None:
    gap = "any number of" if skip_distance is None else f"at most {skip_distance}"
    by_key = {family.key: family for family in families}  # ROUGE-S and ROUGE-SU
    kind = st.radio("Method", tuple(by_key), horizontal=True, key="skip_family", format_func=lambda k: by_key[k].title,
                    captions=[family.summary for family in families])
    name = by_key[kind].method(skip_distance).name
    st.caption(f"A skip-bigram is an ordered word pair with {gap} words between them (skip distance in the sidebar). "
               "Click a column header to sort.")
    if not evidence_affordable(candidate, reference, [name], options):
        return
    result = compute.evidence(candidate, reference, name, options)
    method_score = result[name]
    evidence = method_score.per_reference[0].evidence
    col_f, col_m, col_c = st.columns([2, 1, 1], vertical_alignment="bottom")
    text_filter = col_f.text_input("Filter grams containing", key="skip_filter", placeholder="e.g. cat")
    only_matched = col_m.checkbox("Only matched", key="skip_only_matched")
    candidate_only = col_c.checkbox("Add candidate-only grams", key="skip_candidate_only")
    frame = tables.skipgram_table(evidence, include_candidate_only=candidate_only)
    if text_filter.strip():
        frame = frame[frame["gram"].str.contains(text_filter.strip(), case=False, regex=False)]
    if only_matched:
        frame = frame[frame["matched"] > 0]
    show_table(frame, key="skipgram_table", signature=method_score.signature, download_name=f"{name}-grams.csv")
    st.caption(f"{len(frame):,} row(s). Totals: candidate {num(evidence.cand_total)}, reference {num(evidence.ref_total)}; "
               f"matched {num(method_score.per_reference[0].stats.hits)}. Rows marked “unigram (SU)” count for ROUGE-SU only.")


@st.fragment
def render_evidence(candidate: str, references: tuple[str, ...], options: rouge_core.Options, chosen: int | None) -> None:
    st.subheader("Why these numbers")
    ref_index = 0
    if len(references) > 1:
        # The key names the reference count, so removing a reference never leaves a stale choice.
        ref_index = st.selectbox("Show the evidence against", range(len(references)), index=chosen or 0,
                                 format_func=lambda i: f"reference {i + 1}", key=f"evidence_reference_of_{len(references)}")
    reference = references[ref_index]
    tabs = evidence_tabs()  # one per family (or group of families) the app scores
    for tab, (section, families) in zip(st.tabs([s.title for s, _ in tabs], key="evidence_tab", on_change="rerun"),
                                        tabs):
        if tab.open:  # only the open tab computes its evidence
            with tab:
                view = OWN_VIEWS.get(section.key, render_family_evidence)
                view(candidate, reference, ref_index, options, families, state.current_settings())


def render_family_evidence(candidate: str, reference: str, ref_index: int, options: rouge_core.Options, families,
                           settings) -> None:
    """The evidence of a family this page has no view of its own for: each of its methods'
    statistics, and its evidence on the candidate where rouge_core.viz.highlight draws it."""
    names = [m.name for family in families for m in family.app_methods(settings.parameter_values())]
    if not evidence_affordable(candidate, reference, names, options):
        return
    for name in names:
        result = compute.evidence(candidate, reference, name, options)
        ref_score = result[name].per_reference[0]
        st.markdown(f"**{md(rouge_core.parse_method(name).label)}**")
        view = highlight.candidate_view(ref_score.evidence, result.candidate, result.references[0])
        if view is not None:
            show_html(view[0])
        stats = ref_score.stats
        st.caption(f"{num(stats.hits)} matched: precision {num(stats.hits)} / {num(stats.cand_total)} = "
                   f"{ref_score.score.precision:.4f}, recall {num(stats.hits)} / {num(stats.ref_total)} = "
                   f"{ref_score.score.recall:.4f} against reference {ref_index + 1}.")


# The page's own views of the built-in families' evidence, by their tab's key (rouge_core.families.methods
# Family.evidence_tab); any other family's tab is drawn by render_family_evidence.
OWN_VIEWS = {
    "n": lambda c, r, i, o, families, s: render_ngrams(c, r, i, o, s.max_n, families[0]),
    "lcs": lambda c, r, i, o, families, s: render_lcs(c, r, i, o),
    "w": lambda c, r, i, o, families, s: render_wlcs(c, r, i, o, s.weight, families[0]),
    "skip": lambda c, r, i, o, families, s: render_skipgrams(c, r, i, o, s.distance, families),
}


# --- sweeps and profiles: computed when opened ----------------------------------------------

@st.fragment
def render_sweeps(candidate: str, references: tuple[str, ...], options: rouge_core.Options, methods: tuple[str, ...]) -> None:
    with st.expander("How the score moves with each parameter", key="sweeps_open", on_change="rerun") as section:
        if not section.open:
            return
        which = st.segmented_control("Parameter", list(SWEEPS), format_func=SWEEPS.get, default="n",
                                     key="sweep_parameter") or "n"
        st.caption("The dashed red line marks your current setting in the sidebar.")
        if which == "n":
            frame = compute.sweep_n(candidate, references, options, state.current_settings().max_n)
            chart = charts.sweep_chart(frame, "ROUGE-N against n", "n")
        elif which == "skip":
            frame = compute.sweep_skip(candidate, references, options, state.current_settings().distance)
            chart = charts.sweep_chart(frame, "ROUGE-S / SU against skip distance", "skip distance (∞ = unlimited)")
        elif which == "beta":
            frame = compute.sweep_beta(candidate, references, options, methods)
            chart = charts.sweep_chart(frame, "F of each method against β (β > 1 favours recall)", "β")
        else:
            frame = compute.sweep_weight(candidate, references, options, state.current_settings().weight)
            chart = charts.sweep_chart(frame, "ROUGE-W against the weight w", "w")
        st.altair_chart(chart, width="stretch")
        show_skipped(frame, SWEEPS[which], "label")


def show_skipped(frame, point: str, label: str) -> None:
    """Points of a sweep (or profiles) not computed because of their cost, with the reason:
    `label` names a point's column, `point` says what it is."""
    for _, row in frame[frame["skipped"].notna()].drop_duplicates(label).iterrows():
        st.caption(f"Not computed for {point} {md(row[label])}: {md(row['skipped'])}")


@st.fragment
def render_profiles(candidate: str, references: tuple[str, ...], options: rouge_core.Options, methods: tuple[str, ...]) -> None:
    with st.expander("The same input under each tool's profile", key="profiles_open", on_change="rerun") as section:
        if not section.open:
            return
        st.caption("Each tool tokenizes and combines references its own way; see “Why do tools disagree?” for the details.")
        frame = compute.profiles(candidate, references, methods, options)
        st.altair_chart(charts.profiles_chart(frame), width="stretch")
        # The reason a profile was not computed, in a column only when some profile was not.
        show_table(frame.rename(columns={"skipped": "not computed because"}), key="profiles_table", limit=None)
        show_skipped(frame, "the profile", "profile")


def render_share(candidate: str, references: list[str]) -> None:
    st.subheader("Share this view")
    share.drop_stale_link(candidate, references)
    if st.button("Create a share link", icon=":material/link:", key="create_share_link",
                 help="Puts these texts and settings into the page address, to send to someone. "
                      "Nothing goes into the address until you ask."):
        if not share.write_to_url(candidate, references):
            st.warning(f"These texts are too long for a link (more than {share.MAX_URL_CHARS:,} characters once "
                       "encoded). The link keeps only the settings; send the texts as a JSON file, which the upload "
                       "box reads back.")
    if share.shows_view(candidate, references):
        st.caption("The address bar now holds these texts and settings: send the link and it opens this same view.")
        base = (getattr(st.context, "url", None) or "").split("?")[0].rstrip("/")
        query = urlencode(share.encode_view(candidate, references, state.current_settings()), doseq=True)
        st.code(f"{base}/?{query}", language=None, wrap_lines=True)
    st.download_button("Download texts (JSON)", pair_to_json(candidate, references).encode("utf-8"),
                       file_name="rouge-lens-texts.json", mime="application/json", key="download_texts")


st.title("ROUGE Lens: Score")
st.markdown("**ROUGE Lens** scores a summary against reference summaries with every ROUGE variant — N, L, Lsum, W, S "
            "and SU — exactly as ROUGE-1.5.5, rouge-score, MATLAB and reval compute them, and shows why each number is what it is.")

inputs.render_examples()
inputs.render_uploads()
inputs.show_upload_errors()
candidate, references = inputs.render_text_inputs()
source = inputs.render_source_input()

options = state.current_options()
methods = tuple(state.current_methods())
problems = input_problems(candidate, references)
if problems:
    for problem in problems:
        st.warning(problem, icon=":material/edit:")
    st.info(f"Scores appear once the candidate and every reference have text. {inputs.APPLY_HINT}")
else:
    refs = tuple(references)
    try:
        st.subheader("Scores")
        result, waiting = score_within_bounds(candidate, refs, methods, options)
    except ValueError as exc:  # e.g. a setting the tokenizer cannot honour
        st.error(f"These settings cannot score the texts: {md(exc)}")
    else:
        if result is None:  # reading the texts alone is above the bound: nothing is computed until approved
            for name, (estimate, key) in waiting.items():
                costs.ask(estimate, key, name)
            render_share(candidate, references)
            st.stop()
        if not len(result.candidate) or not any(len(r) for r in result.references):
            st.warning("After tokenization the candidate or the references hold no tokens (with this tokenizer, "
                       "stopword list or the text's script); every score is 0. Try another tokenizer in the sidebar.")
        for name, (estimate, key) in waiting.items():
            costs.ask(estimate, key, name)
        if result.methods:
            render_scores(result)
            render_evidence(candidate, refs, options, next(iter(result)).chosen)
        if source.strip():
            source_ui.render(candidate, refs, source, options)
        render_sweeps(candidate, refs, options, methods)
        render_profiles(candidate, refs, options, methods)
    render_share(candidate, references)
    if not problems:
        source_ui.report_button(candidate, tuple(references), source, options, methods)
