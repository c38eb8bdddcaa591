"""Corpus: upload a corpus, score every pair, aggregate with intervals, chart and export."""

import streamlit as st

from lens_app import corpus_ui as ui
from lens_app.display import column_settings
from rouge_core.viz import corpus_charts as charts
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

st.title("Corpus")
ui.settings_caption()
ui.corpus_loader("corpus")
ui.score_button()

results = ui.current_results()
if not results:
    st.stop()

systems = list(results)
system = st.selectbox("System", systems, key="corpus_system") if len(systems) > 1 else systems[0]
result = results[system]
methods = list(result.methods)
st.caption(f"Signature: `{result.signature}`")

# --- aggregates with bootstrap intervals ------------------------------------------------------
st.subheader("Aggregates")
c1, c2, c3 = st.columns(3)
resamples = c1.number_input("Bootstrap resamples", 10, 100_000, 1000, step=100, key="corpus_resamples")
seed = c2.number_input("Seed", 0, 2**31 - 1, 0, key="corpus_seed")
confidence = c3.number_input("Confidence (%)", 50.0, 99.9, 95.0, key="corpus_confidence")
boot = ui.bootstrap_for(system, result, int(resamples), int(seed), float(confidence))
aggregates = result.aggregates_frame(boot)
st.caption("Macro = mean of per-pair scores; micro = scores of the pooled (summed) statistics. "
           + (f"{int(resamples)} resamples, seed {int(seed)}, {confidence:g}% percentile intervals on F."
              if boot is not None else "No intervals until the bootstrap is computed (see above)."))
shown_aggregates = aggregates.drop(columns=["signature"])
st.dataframe(shown_aggregates, hide_index=True, key="corpus_aggregates", column_config=column_settings(shown_aggregates))
ui.download_pair("Aggregates", aggregates, result.signature, f"aggregates_{system}", "dl_aggregates",
                 meta={"system": system, "resamples": int(resamples), "seed": int(seed), "confidence": float(confidence)})

# --- per-pair table -----------------------------------------------------------------------------
st.subheader("Pairs")
frame = result.to_frame()
f1, f2, f3 = st.columns([2, 1, 2])
search = f1.text_input("Search id or text", key="corpus_search")
filter_method = f2.selectbox("Filter by", methods, key="corpus_filter_method")
low, high = f3.slider(f"{filter_method} F range", 0.0, 1.0, (0.0, 1.0), 0.01, key="corpus_filter_range")
view = frame
if search:
    needle = search.lower()
    view = view[view["id"].str.lower().str.contains(needle, regex=False)
                | view["candidate"].str.lower().str.contains(needle, regex=False)
                | view["references"].str.lower().str.contains(needle, regex=False)]
column = f"{filter_method}_fmeasure"
view = view[(view[column].fillna(0) >= low - 1e-12) & (view[column].fillna(0) <= high + 1e-12)]
st.caption(f"{len(view)} of {len(frame)} pairs. Click a row to open it with its evidence on the Score page.")
event = st.dataframe(view, hide_index=True, on_select="rerun", selection_mode="single-row", key="corpus_pairs",
                     column_config={c: st.column_config.NumberColumn(format="%.4f") for c in view.columns if "_" in c and c != "id"})
rows = event.selection.rows if event is not None else []
if rows:
    index = int(view.index[rows[0]])
    ui.open_on_score_page(result.candidates[index], list(result.references[index]), "corpus_opened",
                          (system, result.ids[index]))
else:
    st.session_state.pop("corpus_opened", None)
ui.download_pair("Per-pair table", frame, result.signature, f"pairs_{system}", "dl_pairs", meta={"system": system})

# --- charts ---------------------------------------------------------------------------------------
st.subheader("Charts")
st.altair_chart(charts.score_distributions(frame, methods, signature=result.signature), width="stretch")
means = aggregates.rename(columns={})
st.altair_chart(charts.means_with_intervals(means, signature=result.signature), width="stretch")
if len(methods) >= 2:
    s1, s2 = st.columns(2)
    x_method = s1.selectbox("Scatter x", methods, index=0, key="corpus_scatter_x")
    y_method = s2.selectbox("Scatter y", methods, index=1, key="corpus_scatter_y")
    st.altair_chart(charts.method_scatter(frame, x_method, y_method, signature=result.signature), width="stretch")
    gap = (frame[f"{x_method}_fmeasure"] - frame[f"{y_method}_fmeasure"]).abs()
    st.caption("Pairs where the two methods disagree most:")
    st.dataframe(frame.assign(disagreement=gap).nlargest(5, "disagreement")[["id", "candidate", f"{x_method}_fmeasure",
                 f"{y_method}_fmeasure", "disagreement"]], hide_index=True, key="corpus_disagree")
