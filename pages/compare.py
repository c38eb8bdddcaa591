"""Compare systems: per-system aggregates, the conclusion in words, paired significance tests
and per-pair differences (rouge_core.corpus.compare_systems computes all of it)."""

import pandas as pd
import streamlit as st

from lens_app import corpus_ui as ui
from lens_app.display import show_table
from lens_app.markup import md
from rouge_core.corpus import systems_frame
from rouge_core.viz import corpus_charts as charts
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

st.title("Compare systems")
ui.settings_caption()
st.caption("Give one candidate column per system (e.g. `candidate_A`, `candidate_B`) or one candidate file per system.")
ui.corpus_loader("compare")
ui.score_button("Score all systems", key="compare_score")

results = ui.current_results()
if len(results) < 2:
    if results:
        st.info("Only one system is loaded; comparing needs two or more candidate columns or files.")
    st.stop()

systems = list(results)
first = results[systems[0]]
methods = list(first.methods)

st.subheader("Per-system aggregates")
system_table = systems_frame(results)
st.dataframe(system_table.pivot_table(index=["method", "aggregate"], columns="system", values="fmeasure"),
             column_config={s: st.column_config.NumberColumn(format="%.4f") for s in systems}, key="compare_aggregates")
ui.download_pair("System aggregates", system_table, first.signature, "system_aggregates", "dl_systems")

c1, c2, c3 = st.columns(3)
system_a = c1.selectbox("System A", systems, index=0, key="compare_a")
system_b = c2.selectbox("System B", systems, index=1, key="compare_b")
method = c3.selectbox("Method (F)", methods, key="compare_method")
c4, c5 = st.columns(2)
resamples = c4.number_input("Resamples", 10, 100_000, 1000, step=100, key="compare_resamples")
seed = c5.number_input("Seed", 0, 2**31 - 1, 0, key="compare_seed")
if system_a == system_b:
    st.warning("Choose two different systems.")
    st.stop()

try:
    comparison = ui.comparison_for(system_a, system_b, method, int(resamples), int(seed))
except ValueError as exc:  # e.g. no pair with a defined score for both systems
    st.warning(md(exc))
    st.stop()

st.subheader("Conclusion")
st.markdown(md(comparison.summary()))
st.subheader("Significance")
tests = comparison.tests_frame()
show_table(tests, key="compare_tests", limit=None)
st.caption(f"Two-sided tests of mean({md(system_a)}) − mean({md(system_b)}) of {method} F over {comparison.pairs:,} pairs; "
           f"seed {int(seed)}. The permutation test enumerates all 2^n swaps when that is no more than the resamples.")
ui.download_pair("Significance tests", tests, comparison.signature, "significance", "dl_tests")

st.subheader("Per-pair differences")
a_values, b_values = results[system_a].values(method), results[system_b].values(method)
kept = [i for i, (x, y) in enumerate(zip(a_values, b_values)) if x == x and y == y]  # NaN != NaN
diffs = pd.DataFrame({"id": [first.ids[i] for i in kept], system_a: [a_values[i] for i in kept],
                      system_b: [b_values[i] for i in kept],
                      "difference": [a_values[i] - b_values[i] for i in kept], "row": kept})
st.altair_chart(charts.pair_differences(diffs, system_a, system_b, signature=comparison.signature), width="stretch")
top = diffs.reindex(diffs["difference"].abs().sort_values(ascending=False).index).head(20)
st.caption("Pairs where the systems differ most. Click a row to open system A's candidate with its evidence on the Score page.")
event = show_table(top.drop(columns=["row"]), key="compare_top", limit=None, on_select="rerun", selection_mode="single-row")
picked = event.selection.rows if event is not None else []
if picked:
    row = int(top.iloc[picked[0]]["row"])
    ui.open_on_score_page(results[system_a].candidates[row], list(first.references[row]), "compare_opened",
                          (system_a, first.ids[row]))
else:
    st.session_state.pop("compare_opened", None)
ui.download_pair("Per-pair differences", diffs.drop(columns=["row"]), comparison.signature, "differences", "dl_diffs")
