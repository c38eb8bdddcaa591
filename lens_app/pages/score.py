"""Score: every ROUGE method side by side, with the evidence behind each number."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

import rouge_core
from lens_app import inputs, share, state
from lens_app.markup import md
from rouge_core import sweep
from rouge_core.textio import input_problems, pair_to_json
from rouge_core.viz import charts, highlight, tables

NUMBER = st.column_config.NumberColumn(format="%.4f")


@st.cache_data(max_entries=64, show_spinner=False)
def compute(candidate: str, references: tuple[str, ...], methods: tuple[str, ...], options: rouge_core.Options) -> rouge_core.Result:
    return rouge_core.score(candidate, list(references), methods, options)


@st.cache_data(max_entries=32, show_spinner=False)
def sweeps(candidate: str, references: tuple[str, ...], options: rouge_core.Options, methods: tuple[str, ...],
           n: int, skip_distance: int | None, w: float):
    refs = list(references)
    return {
        "n": sweep.sweep_n(candidate, refs, options, current=n),
        "skip": sweep.sweep_skip_distance(candidate, refs, options, current=skip_distance),
        "beta": sweep.sweep_beta(candidate, refs, options, methods),
        "w": sweep.sweep_weight(candidate, refs, options, current=w),
    }


@st.cache_data(max_entries=32, show_spinner=False)
def profiles(candidate: str, references: tuple[str, ...], methods: tuple[str, ...], options: rouge_core.Options):
    return sweep.compare_profiles(candidate, list(references), methods, current=options)


def show_html(markup: str) -> None:
    st.html(markup)


def render_headline(result: rouge_core.Result) -> None:
    """The F of the most quoted methods, large, before the full table."""
    shown = [m for m in result if m.method.family in ("N", "L", "Lsum")][:4]
    for column, m in zip(st.columns(len(shown)), shown):
        column.metric(f"{tables.short_label(m.method)} F", f"{m.fmeasure:.4f}",
                      help=f"precision {m.precision:.4f}, recall {m.recall:.4f}; {m.reason}")


def render_scores(result: rouge_core.Result) -> None:
    st.subheader("Scores")
    render_headline(result)
    frame = tables.scores_table(result)
    st.dataframe(
        frame.drop(columns=["name", "short"]),
        hide_index=True,
        width="stretch",
        column_config={"P": NUMBER, "R": NUMBER, "F": NUMBER,
                       "why": st.column_config.TextColumn("why this reference", width="medium"),
                       "signature": st.column_config.TextColumn("signature", width="medium")},
        key="scores_table",
    )
    col_csv, col_toggle = st.columns([1, 3], vertical_alignment="center")
    col_csv.download_button("Download scores (CSV)", frame.to_csv(index=False).encode("utf-8"),
                            file_name="rouge-lens-scores.csv", mime="text/csv", key="download_scores")
    if col_toggle.toggle("Show per-reference scores", key="show_per_reference"):
        st.dataframe(tables.per_reference_table(result), hide_index=True, width="stretch",
                     column_config={"P": NUMBER, "R": NUMBER, "F": NUMBER}, key="per_reference_table")
    st.altair_chart(charts.prf_bars(frame), width="stretch")


def render_ngrams(result: rouge_core.Result, ref_index: int, candidate: str, references: tuple[str, ...],
                  options: rouge_core.Options, max_n: int) -> None:
    n = st.segmented_control("n", list(range(1, max(max_n, 4) + 1)), default=1, key=f"highlight_n_up_to_{max(max_n, 4)}",
                             format_func=lambda k: f"{k}-grams") or 1
    name = f"rouge{n}"
    ngram_result = result if name in result.methods else compute(candidate, references, (name,), options)
    ref_score = ngram_result[name].per_reference[ref_index]
    evidence = ref_score.evidence
    show_html(highlight.NGRAM_LEGEND)
    show_side_by_side(highlight.ngram_highlight_html(result.candidate, evidence, "candidate"),
                      highlight.ngram_highlight_html(result.references[ref_index], evidence, "reference"), ref_index)
    stats = ref_score.stats
    st.caption(
        f"ROUGE-{n} against reference {ref_index + 1}: {stats.hits:g} matched {n}-grams; "
        f"precision = {stats.hits:g} / {stats.cand_total:g} candidate {n}-grams = {ref_score.score.precision:.4f}, "
        f"recall = {stats.hits:g} / {stats.ref_total:g} reference {n}-grams = {ref_score.score.recall:.4f}. "
        "Hover over a word to see its n-gram and counts."
    )
    with st.expander(f"Matched {n}-grams as a table"):
        st.dataframe(tables.ngram_table(evidence), hide_index=True, width="stretch")


def show_side_by_side(cand_html: str, ref_html: str, ref_index: int) -> None:
    col_c, col_r = st.columns(2)
    with col_c:
        st.markdown("**Candidate**")
        show_html(cand_html)
    with col_r:
        st.markdown(f"**Reference {ref_index + 1}**")
        show_html(ref_html)


def render_lcs(result: rouge_core.Result, ref_index: int) -> None:
    cand, ref = result.candidate, result.references[ref_index]
    lcs = result["rougeL"].per_reference[ref_index]
    st.markdown("**ROUGE-L, sentence level**: one LCS over the whole texts; the same number marks both ends of a pair.")
    show_side_by_side(*highlight.lcs_alignment_html(cand, ref, lcs.evidence), ref_index)
    st.caption(f"LCS length {lcs.stats.hits:g}: precision {lcs.stats.hits:g}/{lcs.stats.cand_total:g}, "
               f"recall {lcs.stats.hits:g}/{lcs.stats.ref_total:g}.")
    lsum = result["rougeLsum"].per_reference[ref_index]
    st.markdown("**ROUGE-Lsum, summary level**: per reference sentence, the LCS with every candidate sentence, "
                "then their union; a union token counts while both texts still have an unused copy of it.")
    show_html(highlight.legend_html((highlight.MATCHED_STYLE, "in the union, counted"),
                                    (highlight.CLIPPED_STYLE, "in the union, not counted")))
    show_html(highlight.union_lcs_html(cand, ref, lsum.evidence))
    st.caption(f"Union-LCS hits {lsum.stats.hits:g}: precision {lsum.stats.hits:g}/{lsum.stats.cand_total:g}, "
               f"recall {lsum.stats.hits:g}/{lsum.stats.ref_total:g}.")


def render_wlcs(result: rouge_core.Result, ref_index: int, w: float) -> None:
    name = f"rougeW-{w:g}"
    ref_score = result[name].per_reference[ref_index]
    evidence = ref_score.evidence
    form = "ROUGE-1.5.5's form (per reference sentence)" if evidence.form == "rouge155" else "the paper's form (Lin 2004)"
    st.markdown(f"**ROUGE-W, w = {w:g}**, {form}: runs of consecutive matches weigh k^{w:g}, so one long run "
                "beats several short ones. Each run has its own colour and number.")
    show_side_by_side(*highlight.wlcs_runs_html(result.candidate, result.references[ref_index], evidence), ref_index)
    st.dataframe(tables.wlcs_runs_table(evidence, result.references[ref_index]), hide_index=True, width="stretch",
                 column_config={f"weight k^{evidence.w:g}": NUMBER})
    st.caption(f"Weighted hits {evidence.weighted_hits:.4f}; P {ref_score.score.precision:.4f}, R {ref_score.score.recall:.4f}.")


def render_skipgrams(result: rouge_core.Result, ref_index: int, skip_distance: int | None) -> None:
    d = "*" if skip_distance is None else str(skip_distance)
    gap = "any number of" if skip_distance is None else f"at most {skip_distance}"
    # Options stay the same when the distance changes, so the widget keeps a valid value.
    kind = st.radio("Method", ("S", "SU"), horizontal=True, key="skip_family",
                    format_func=lambda k: "ROUGE-S (skip-bigrams)" if k == "S" else "ROUGE-SU (skip-bigrams + unigrams)")
    family = f"rouge{kind}{d}"
    st.caption(f"A skip-bigram is an ordered word pair with {gap} words between them (skip distance in the sidebar). "
               "Click a column header to sort.")
    evidence = result[family].per_reference[ref_index].evidence
    col_f, col_m, col_c = st.columns([2, 1, 1], vertical_alignment="bottom")
    text_filter = col_f.text_input("Filter grams containing", key="skip_filter", placeholder="e.g. cat")
    only_matched = col_m.checkbox("Only matched", key="skip_only_matched")
    candidate_only = col_c.checkbox("Add candidate-only grams", key="skip_candidate_only")
    frame = tables.skipgram_table(evidence, include_candidate_only=candidate_only)
    if text_filter.strip():
        frame = frame[frame["gram"].str.contains(text_filter.strip(), case=False, regex=False)]
    if only_matched:
        frame = frame[frame["matched"] > 0]
    st.dataframe(frame, hide_index=True, width="stretch", key="skipgram_table")
    st.caption(f"{len(frame)} row(s) shown. Totals: candidate {evidence.cand_total}, reference {evidence.ref_total}; "
               f"matched {result[family].per_reference[ref_index].stats.hits:g}. Rows marked “unigram (SU)” count for ROUGE-SU only.")


def render_evidence(result: rouge_core.Result, candidate: str, references: tuple[str, ...], options: rouge_core.Options) -> None:
    st.subheader("Why these numbers")
    ref_index = 0
    if len(result.references) > 1:
        first = next(iter(result))
        default = first.chosen if first.chosen is not None else 0
        # The key names the reference count, so removing a reference never leaves a stale choice.
        ref_index = st.selectbox("Show the evidence against", range(len(result.references)), index=default,
                                 format_func=lambda i: f"reference {i + 1}", key=f"evidence_reference_of_{len(result.references)}")
    tab_n, tab_l, tab_w, tab_s = st.tabs(["Matched n-grams (ROUGE-N)", "LCS alignment (ROUGE-L, Lsum)",
                                          "Weighted runs (ROUGE-W)", "Skip-bigrams (ROUGE-S, SU)"])
    with tab_n:
        render_ngrams(result, ref_index, candidate, references, options, state.current_n())
    with tab_l:
        render_lcs(result, ref_index)
    with tab_w:
        render_wlcs(result, ref_index, state.current_w())
    with tab_s:
        render_skipgrams(result, ref_index, state.current_skip_distance())


def render_sweeps(candidate: str, references: tuple[str, ...], options: rouge_core.Options, methods: tuple[str, ...]) -> None:
    st.subheader("How the score moves with each parameter")
    st.caption("The dashed red line marks your current setting in the sidebar.")
    data = sweeps(candidate, references, options, methods, state.current_n(), state.current_skip_distance(), state.current_w())
    row1 = st.columns(2)
    row1[0].altair_chart(charts.sweep_chart(data["n"], "ROUGE-N against n", "n"), width="stretch")
    row1[1].altair_chart(charts.sweep_chart(data["skip"], "ROUGE-S / SU against skip distance", "skip distance (∞ = unlimited)"),
                         width="stretch")
    row2 = st.columns(2)
    row2[0].altair_chart(charts.sweep_chart(data["beta"], "F of each method against β (β > 1 favours recall)", "β"),
                         width="stretch")
    row2[1].altair_chart(charts.sweep_chart(data["w"], "ROUGE-W against the weight w", "w"), width="stretch")


def render_profiles(candidate: str, references: tuple[str, ...], options: rouge_core.Options, methods: tuple[str, ...]) -> None:
    st.subheader("The same input under each tool's profile")
    st.caption("Each tool tokenizes and combines references its own way; see “Why do tools disagree?” for the details.")
    frame = profiles(candidate, references, methods, options)
    st.altair_chart(charts.profiles_chart(frame), width="stretch")
    with st.expander("Profiles as a table"):
        st.dataframe(frame, hide_index=True, width="stretch",
                     column_config={"precision": NUMBER, "recall": NUMBER, "fmeasure": NUMBER})


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
        query = urlencode(share.encode_view(candidate, references, share.current_settings()), doseq=True)
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

options = state.current_options()
methods = tuple(state.current_methods())
problems = input_problems(candidate, references)
if problems:
    for problem in problems:
        st.warning(problem, icon=":material/edit:")
    st.info("Scores appear as soon as the candidate and every reference hold some text.")
else:
    refs = tuple(references)
    try:
        result = compute(candidate, refs, methods, options)
    except ValueError as exc:  # e.g. a setting the tokenizer cannot honour
        st.error(f"These settings cannot score the texts: {md(exc)}")
    else:
        if not len(result.candidate) or not any(len(r) for r in result.references):
            st.warning("After tokenization the candidate or the references hold no tokens (with this tokenizer, "
                       "stopword list or the text's script); every score is 0. Try another tokenizer in the sidebar.")
        render_scores(result)
        render_evidence(result, candidate, refs, options)
        render_sweeps(candidate, refs, options, methods)
        render_profiles(candidate, refs, options, methods)
    render_share(candidate, references)
