"""Compare systems: per-system aggregates; every system ranked with pairwise significance decided
by one declared test (approximate randomization, Holm-adjusted: lens_app.compare_ui.DECLARED_TEST),
the paired bootstrap's intervals beside it and said where they disagree (groups in words, rank
ranges, every pair in a table and a chart: rouge_core.corpora.corpus.rank_systems); two systems in detail
(rouge_core.corpora.corpus.compare_systems); and one document's summaries side by side with their evidence."""

import pandas as pd
import streamlit as st

import rouge_core
from lens_app import analysis_ui, compare_ui, costs, state
from lens_app import corpus_ui as ui
from lens_app.display import show_table
from lens_app.markup import md
from rouge_core.corpora.corpus import CORRECTIONS, MEASURE_LABELS, systems_frame
from rouge_core.viz import corpus_charts as charts
from rouge_core.viz import ranking_charts
from rouge_core.viz.highlight import box_html
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

st.title("Compare systems")
ui.settings_caption()
st.caption("Give one candidate column per system (e.g. `candidate_A`, `candidate_B`, `candidate_C`) or one candidate "
           "file per system.")
ui.corpus_loader("compare")
ui.score_button("Score all systems", key="compare_score")

corpus = ui.current_corpus()
results = ui.current_results()
message = compare_ui.not_comparable(corpus, results)
if corpus is None or message:
    if message:
        st.info(message)
    st.stop()

systems = list(results)
first = results[systems[0]]
methods = list(first.methods)

st.subheader("Per-system aggregates")
system_table = systems_frame(results)
st.dataframe(system_table.pivot_table(index=["method", "aggregate"], columns="system", values="fmeasure"),
             column_config={s: st.column_config.NumberColumn(format="%.4f") for s in systems}, key="compare_aggregates")
ui.download_pair("System aggregates", system_table, first.signature, "system_aggregates", "dl_systems")

# --- every system ranked ------------------------------------------------------------------------
st.subheader("Ranking")
st.caption(compare_ui.WHY_DECLARED)
c1, c2, c3 = st.columns(3)
rank_method = c1.selectbox("Method (F)", methods, key="rank_method")
correction = c2.selectbox("Multiple comparisons", CORRECTIONS, key="rank_correction",
                          format_func={"holm": "Holm–Bonferroni", "none": "no correction"}.get,
                          help="Ranking k systems makes k(k−1)/2 comparisons; Holm's correction keeps the chance of "
                               "any false difference at α.")
alpha = float(c3.number_input("α", 0.001, 0.5, 0.05, step=0.01, format="%.3f", key="rank_alpha",
                              help="The declared test's level; the bootstrap intervals are drawn at 1 − α."))
c4, c5 = st.columns(2)
rank_resamples = int(c4.number_input("Resamples", 10, 100_000, 1000, step=100, key="rank_resamples"))
rank_seed = int(c5.number_input("Seed", 0, 2**31 - 1, 0, key="rank_seed"))
estimate = compare_ui.ranking_estimate(len(systems), len(first), rank_resamples)
approval = ("rank", len(systems), len(first), rank_resamples)
ranking = None
if not costs.within_bound(estimate) and st.session_state.get("rank_approved") != approval:
    st.warning(f"Ranking {len(systems)} systems compares {len(systems) * (len(systems) - 1) // 2} pairs of systems "
               f"with {rank_resamples:,} resamples each over {len(first):,} pairs: {estimate.describe()}, above this "
               f"app's bound of {rouge_core.DEFAULT_COST_LIMIT.describe()} per computation. Lower the resamples, or "
               "compute it anyway.", icon=":material/hourglass_top:")
    if st.button(f"Compute anyway ({estimate.describe()})", key="rank_anyway", icon=":material/play_arrow:"):
        st.session_state["rank_approved"] = approval
        st.rerun()
else:
    try:
        ranking = compare_ui.ranking_for(results, rank_method, rank_resamples, rank_seed, alpha, correction)
    except ValueError as exc:  # e.g. no pair with a defined score for two systems
        st.warning(md(exc))
if ranking is not None:
    if ranking.unreachable():
        st.warning(md(ranking.unreachable()))
    st.markdown("\n\n".join(md(part) for part in ranking.summary_parts()))
    ranking_table = ranking.ranking_frame()
    show_table(ranking_table, key="rank_table", limit=None)
    st.caption("Rank range: a system's best rank is 1 + the systems significantly better than it, its worst rank the "
               "number of systems minus those significantly worse. A group (cluster) is cut off from the next "
               "wherever every system above is significantly better than every system below.")
    pairs = ranking.pairs_frame()
    st.altair_chart(ranking_charts.pairwise_differences(pairs, MEASURE_LABELS[ranking.measure], ranking.signature,
                                                        test=f"Colour: {ranking.declared_test()}",
                                                        other=f"{ranking.confidence:g}% bootstrap interval"),
                    width="stretch")
    st.markdown(f"**Every pair of systems** ({len(pairs):,})")
    show_table(pairs, key="rank_pairs", limit=None,  # the other test's words, where it disagrees, in full
               column_config={"other_test": st.column_config.TextColumn(width="large")} if pairs["other_test"].any()
               else None)
    st.caption(f"verdict and adjusted_p: {md(ranking.declared_test())}. other_test: where the paired bootstrap's "
               f"{ranking.confidence:g}% interval of the difference says otherwise (it is not adjusted for the "
               "comparisons). Effect size d_z = mean difference / standard deviation of the per-pair differences "
               "(0.2 small, 0.5 medium, 0.8 large), with its interval; permutation_p and bootstrap_p: each test's "
               "p-value before adjustment.")
    how = {"test": ranking.test, "correction": ranking.correction, "alpha": ranking.alpha,
           "resamples": ranking.resamples, "seed": ranking.seed, "confidence": ranking.confidence}
    r1, r2 = st.columns(2)
    with r1:
        ui.download_pair("Ranking", ranking_table, ranking.signature, "ranking", "dl_ranking", meta=how)
    with r2:
        ui.download_pair("Pairwise comparisons", pairs, ranking.signature, "pairwise", "dl_pairwise", meta=how)

# --- two systems in detail ------------------------------------------------------------------------
st.subheader("Two systems in detail")
c1, c2, c3 = st.columns(3)
system_a = c1.selectbox("System A", systems, index=0, key="compare_a")
system_b = c2.selectbox("System B", systems, index=1, key="compare_b")
method = c3.selectbox("Method (F)", methods, key="compare_method")
c4, c5 = st.columns(2)
resamples = c4.number_input("Resamples", 10, 100_000, 1000, step=100, key="compare_resamples")
seed = c5.number_input("Seed", 0, 2**31 - 1, 0, key="compare_seed")


def two_systems() -> None:
    if system_a == system_b:
        st.warning("Choose two different systems.")
        return
    estimate = compare_ui.ranking_estimate(2, len(first), int(resamples))
    key = ("tests", system_a, system_b, method, len(first), int(resamples))
    if not costs.affordable_estimate(estimate, repr(key), "The two significance tests"):
        return
    try:
        comparison = ui.comparison_for(system_a, system_b, method, int(resamples), int(seed),
                                       compare_ui.interval_confidence(alpha))
    except ValueError as exc:  # e.g. no pair with a defined score for both systems
        st.warning(md(exc))
        return
    st.markdown("**Conclusion**")
    st.markdown(md(comparison.summary(alpha, test=compare_ui.DECLARED_TEST)))
    if len(systems) > 2:
        st.caption(f"One comparison at α = {alpha:g}, not adjusted: the ranking above adjusts for all "
                   f"{len(systems) * (len(systems) - 1) // 2} comparisons.")
    st.markdown("**Significance**")
    tests = comparison.tests_frame()
    show_table(tests, key="compare_tests", limit=None)
    st.caption(f"Two-sided tests of mean({md(system_a)}) − mean({md(system_b)}) of {method} F over "
               f"{comparison.pairs:,} pairs; seed {int(seed)}. The permutation test enumerates all 2^n swaps when that "
               "is no more than the resamples.")
    ui.download_pair("Significance tests", tests, comparison.signature, "significance", "dl_tests")

    st.markdown("**Per-pair differences**")
    a_values, b_values = results[system_a].values(method), results[system_b].values(method)
    kept = [i for i, (x, y) in enumerate(zip(a_values, b_values)) if x == x and y == y]  # NaN != NaN
    diffs = pd.DataFrame({"id": [first.ids[i] for i in kept], system_a: [a_values[i] for i in kept],
                          system_b: [b_values[i] for i in kept],
                          "difference": [a_values[i] - b_values[i] for i in kept], "row": kept})
    st.altair_chart(charts.pair_differences(diffs, system_a, system_b, signature=comparison.signature),
                    width="stretch")
    top = diffs.reindex(diffs["difference"].abs().sort_values(ascending=False).index).head(20)
    st.caption("Pairs where the systems differ most. Click a row to open system A's candidate with its evidence on the "
               "Score page.")
    event = show_table(top.drop(columns=["row"]), key="compare_top", limit=None, on_select="rerun",
                       selection_mode="single-row")
    picked = event.selection.rows if event is not None else []
    if picked:
        row = int(top.iloc[picked[0]]["row"])
        ui.open_on_score_page(results[system_a].candidates[row], list(first.references[row]), "compare_opened",
                              (system_a, first.ids[row]), analysis_ui.source_of(corpus, row))
    else:
        st.session_state.pop("compare_opened", None)
    ui.download_pair("Per-pair differences", diffs.drop(columns=["row"]), comparison.signature, "differences",
                     "dl_diffs")


two_systems()

# --- beyond the scores: copying, n-grams, buckets, lengths, the report (lens_app.analysis_ui) -----------
analysis_ui.render(corpus, results, system_a, system_b, method, int(resamples), int(seed),
                   compare_ui.interval_confidence(alpha))

# --- one document, two systems side by side --------------------------------------------------------
st.subheader("Side by side: one document, two systems")
c1, c2, c3, c4 = st.columns([2, 2, 2, 1])
position = c1.selectbox("Document", range(len(first)), format_func=lambda i: first.ids[i], key="side_doc")
left_system = c2.selectbox("Left", systems, index=0, key="side_a")
right_system = c3.selectbox("Right", systems, index=1, key="side_b")
side_method = c4.selectbox("Evidence of", methods, key="side_method")
references = tuple(first.references[position])
options = state.current_options()
plural = "s" if len(references) > 1 else ""
st.markdown(f"**Reference{plural}**")
for ref in references:
    st.html(box_html(ref))
if left_system == right_system:
    st.info("Choose two different systems to see them side by side.")
for side, (column, system) in enumerate(zip(st.columns(2), dict.fromkeys((left_system, right_system)))):
    with column:
        candidate = results[system].candidates[position]
        scores = results[system].pairs[position]
        st.markdown(f"**{md(system)}**")
        st.dataframe(pd.DataFrame([{"method": m, "precision": scores[m].score.precision, "recall": scores[m].score.recall,
                                    "fmeasure": scores[m].score.fmeasure} for m in methods]),
                     hide_index=True, column_config={c: st.column_config.NumberColumn(format="%.4f")
                                                     for c in ("precision", "recall", "fmeasure")},
                     key=f"side_scores_{side}")
        if costs.affordable(candidate, references, [side_method], options, evidence=True,
                            what=f"The evidence of {system}"):
            html, ref_index, note = compare_ui.candidate_evidence(candidate, references, side_method, options)
            st.html(html)
            against = "every reference, pooled" if ref_index is None else f"reference {ref_index + 1}"
            st.caption(f"{side_method} against {against}: {note}.")
        if st.button("Open on the Score page", key=f"side_open_{side}", icon=":material/open_in_new:"):
            ui.open_on_score_page(candidate, list(references), "side_opened", (system, first.ids[position]),
                                  analysis_ui.source_of(corpus, position))
