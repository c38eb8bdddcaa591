"""Compare systems: per-system aggregates, per-pair differences and paired significance tests."""

import pandas as pd
import streamlit as st

from lens_app import corpus_ui as ui
from lens_app.markup import md
from rouge_core.significance import approximate_randomization, paired_bootstrap
from rouge_core.viz import corpus_charts as charts

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
rows = []
for system, result in results.items():
    for kind, table in (("macro", result.macro()), ("micro", result.micro())):
        for method, s in table.items():
            rows.append({"system": system, "method": method, "aggregate": kind, "precision": s.precision,
                         "recall": s.recall, "fmeasure": s.fmeasure})
system_table = pd.DataFrame(rows)
st.dataframe(system_table.pivot_table(index=["method", "aggregate"], columns="system", values="fmeasure"), key="compare_aggregates")
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

a_scores = results[system_a].values(method)
b_scores = results[system_b].values(method)
kept = [i for i, (x, y) in enumerate(zip(a_scores, b_scores)) if x == x and y == y]  # NaN != NaN
if len(kept) < len(a_scores):
    st.caption(f"{len(a_scores) - len(kept)} pair(s) with an undefined score are left out of the tests.")
a_kept, b_kept = [a_scores[i] for i in kept], [b_scores[i] for i in kept]
if not kept:
    st.warning("No pair has a defined score for both systems.")
    st.stop()
tests = [paired_bootstrap(a_kept, b_kept, int(resamples), int(seed)),
         approximate_randomization(a_kept, b_kept, int(resamples), int(seed))]
st.subheader("Significance")
test_frame = pd.DataFrame([{**t.as_dict(), "system_a": system_a, "system_b": system_b, "method": method} for t in tests])
st.dataframe(test_frame, hide_index=True, key="compare_tests")
st.caption(f"Two-sided tests of mean({md(system_a)}) − mean({md(system_b)}) of {method} F over {len(kept)} pairs; "
           f"seed {int(seed)}. The permutation test enumerates all 2^n swaps when that is no more than the resamples.")
ui.download_pair("Significance tests", test_frame, results[system_a].signatures[method], "significance", "dl_tests")

st.subheader("Per-pair differences")
ids = first.ids
diffs = pd.DataFrame({"id": [ids[i] for i in kept], system_a: a_kept, system_b: b_kept,
                      "difference": [x - y for x, y in zip(a_kept, b_kept)], "row": kept})
st.altair_chart(charts.pair_differences(diffs, system_a, system_b, signature=results[system_a].signatures[method]), width="stretch")
top = diffs.reindex(diffs["difference"].abs().sort_values(ascending=False).index).head(20)
st.caption("Pairs where the systems differ most. Click a row to open system A's candidate with its evidence on the Score page.")
event = st.dataframe(top.drop(columns=["row"]), hide_index=True, on_select="rerun", selection_mode="single-row", key="compare_top")
picked = event.selection.rows if event is not None else []
if picked:
    row = int(top.iloc[picked[0]]["row"])
    ui.open_on_score_page(results[system_a].candidates[row], list(first.references[row]), "compare_opened",
                          (system_a, ids[row]))
else:
    st.session_state.pop("compare_opened", None)
ui.download_pair("Per-pair differences", diffs.drop(columns=["row"]), results[system_a].signatures[method],
                 "differences", "dl_diffs")
