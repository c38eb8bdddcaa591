"""Review: step through pairs side by side, record verdicts and notes in SQLite."""

import logging
import sqlite3

import pandas as pd
import streamlit as st

import rouge_core
from lens_app import corpus_ui as ui
from lens_app import state
from lens_app.review_store import ReviewStore, configured_path
from rouge_core.agreement import pairwise_agreement
from lens_app.markup import md
from rouge_core.viz import corpus_charts as charts
from rouge_core.viz.highlight import box_html, ngram_highlight_html
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router


AB_SCALE = ["A better", "B better", "tie"]
RATING_SCALE = ["1", "2", "3", "4", "5"]

st.title("Review")
ui.corpus_loader("review")
corpus = ui.current_corpus()

# The annotator name lives in the URL too, so a reload keeps it. The database location is
# server configuration (never a URL or a text field: a link must not make the server create files).
if "review_annotator" not in st.session_state:
    st.session_state["review_annotator"] = st.query_params.get("annotator", "")
annotator = st.text_input("Annotator name", key="review_annotator")
if "db" in st.query_params:  # links made by earlier versions carried a path: never used
    del st.query_params["db"]
st.query_params["annotator"] = annotator
try:
    store = ReviewStore(configured_path(st.secrets.to_dict() if st.secrets.load_if_toml_exists() else None))
except (OSError, sqlite3.Error):
    logging.getLogger(__name__).exception("cannot open the judgements database")
    st.error("The judgements database cannot be opened, so judgements cannot be saved. Whoever runs this server "
             "sets its location (ROUGE_LENS_DB or judgements_db in .streamlit/secrets.toml; see the README).")
    st.stop()
st.caption("Judgements are saved as you make them, in the judgements database this server is configured with.")

if corpus is None:
    st.info("Load a corpus to review it.")
    everything = store.frame()
    if not everything.empty:
        st.subheader("Judgements in this database")
        latest = everything.sort_values("updated_at").iloc[-1]
        st.caption(f"{len(everything)} judgement(s) stored; latest: pair {md(latest['pair_id'])} by "
                   f"{md(latest['annotator'])}: {md(latest['verdict'] or '(no verdict)')} at {md(latest['updated_at'])}")
        st.dataframe(everything, hide_index=True, key="review_all_judgements")
        ui.download_pair("All judgements", everything, "judgements|all", "judgements_all", "dl_all_judgements")
    st.stop()

systems = corpus.system_names
modes = ["One system against the reference"] + (["System A vs system B"] if len(systems) > 1 else [])
m1, m2, m3 = st.columns(3)
mode = m1.radio("Task", modes, key="review_mode")
if mode == modes[0]:
    system_a = m2.selectbox("System", systems, key="review_sys")
    system_b = None
    scale_name = m3.radio("Verdict", ["1–5 rating", "A better / B better / tie"], key="review_scale_single",
                          help="A = the candidate, B = the reference")
else:
    system_a = m2.selectbox("System A", systems, index=0, key="review_sys_a")
    system_b = m3.selectbox("System B", systems, index=1, key="review_sys_b")
    scale_name = st.radio("Verdict", ["A better / B better / tie", "1–5 rating"], horizontal=True, key="review_scale_ab",
                          help="1–5: how much better A is than B (3 = the same)")
scale = RATING_SCALE if scale_name.startswith("1") else AB_SCALE
task = ("rating:" + system_a if system_b is None else f"compare:{system_a}|{system_b}") + f"|scale:{scale_name[:3]}"
fingerprint = corpus.fingerprint()

n = len(corpus)
position = min(st.session_state.get("review_index", 0), n - 1)


def go(step: int) -> None:
    st.session_state["review_index"] = max(0, min(n - 1, st.session_state.get("review_index", 0) + step))


b1, b2, b3 = st.columns([1, 1, 3])
b1.button("← Previous (k)", on_click=go, args=(-1,), key="review_prev", shortcut="k", disabled=position == 0)
b2.button("Next (j) →", on_click=go, args=(1,), key="review_next", shortcut="j", disabled=position >= n - 1)
b3.progress((position + 1) / n, text=f"Pair {position + 1} of {n}: id {md(corpus.ids[position])}")

pair_id = corpus.ids[position]
references = list(corpus.references[position])
options = state.current_options()


def highlighted(text: str, other: list[str]) -> str:
    """`text` with its ROUGE-1 matches against `other` marked (escaped HTML, for st.html)."""
    result = rouge_core.score(text, other or [""], ["rouge1"], options)
    ms = result["rouge1"]
    evidence = ms.per_reference[ms.chosen if ms.chosen is not None else 0].evidence
    return ngram_highlight_html(result.candidate, evidence, "candidate")


candidate_a = corpus.systems[system_a][position]
if system_b is None:
    left, right = st.columns(2)
    with left:
        st.markdown("**Reference" + ("s" if len(references) > 1 else "") + "** (words found in the candidate marked)")
        for ref in references:
            st.html(highlighted(ref, [candidate_a]))
    with right:
        st.markdown(f"**Candidate — {md(system_a)}** (words found in a reference marked)")
        st.html(highlighted(candidate_a, references))
else:
    candidate_b = corpus.systems[system_b][position]
    st.markdown("**Reference" + ("s" if len(references) > 1 else "") + "**")
    for ref in references:
        st.html(box_html(ref))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**A — {md(system_a)}**")
        st.html(highlighted(candidate_a, references))
    with right:
        st.markdown(f"**B — {md(system_b)}**")
        st.html(highlighted(candidate_b, references))

# --- verdict and note, saved on every change --------------------------------------------------
widget_suffix = f"{fingerprint}_{task}_{pair_id}_{annotator}"
verdict_key, note_key = f"verdict_{widget_suffix}", f"note_{widget_suffix}"
stored = store.get(fingerprint, task, pair_id, annotator) if annotator.strip() else None
if verdict_key not in st.session_state:
    st.session_state[verdict_key] = stored.verdict if stored and stored.verdict in scale else None
if note_key not in st.session_state:
    st.session_state[note_key] = stored.note if stored else ""


def save() -> None:
    verdict = st.session_state.get(verdict_key) or ""
    try:
        store.save(fingerprint, task, pair_id, annotator, verdict, st.session_state.get(note_key, ""), corpus.source)
        st.session_state["review_saved"] = f"Saved pair {md(pair_id)}: {md(verdict or '(no verdict)')}"
    except Exception as e:  # shown, never swallowed silently
        st.session_state["review_saved"] = f"NOT saved: {md(e)}"


if not annotator.strip():
    st.warning("Enter your annotator name to record judgements.")
st.radio("Verdict", scale, key=verdict_key, horizontal=True, on_change=save, disabled=not annotator.strip(), index=None)
st.text_area("Note", key=note_key, on_change=save, disabled=not annotator.strip())
message = st.session_state.pop("review_saved", None)
if message:
    (st.error if message.startswith("NOT") else st.success)(message)
if stored:
    st.caption(f"Last saved {md(stored.updated_at)} by {md(stored.annotator)}")

# --- all judgements: export, agreement, relation to ROUGE -----------------------------------------
st.subheader("Judgements")
judgements = store.frame(fingerprint)
if judgements.empty:
    st.caption("No judgements for this corpus yet.")
    st.stop()
st.dataframe(judgements.drop(columns=["corpus"]), hide_index=True, key="review_judgements")
ui.download_pair("Judgements", judgements, f"judgements|corpus:{fingerprint}|task:{task}", "judgements", "dl_judgements")

current = judgements[(judgements["task"] == task) & (judgements["verdict"] != "")]
by_annotator = {a: dict(zip(g["pair_id"], g["verdict"])) for a, g in current.groupby("annotator")}
if len(by_annotator) >= 2:
    rows = []
    for pa in pairwise_agreement(by_annotator):
        row = {"annotator_a": pa.annotator_a, "annotator_b": pa.annotator_b, "items": pa.items, "agreed": pa.agreed,
               "observed": pa.observed, "cohen_kappa": pa.kappa}
        if scale is RATING_SCALE:
            weighted = pairwise_agreement(by_annotator, weights="quadratic", categories=RATING_SCALE)
            row["kappa_quadratic"] = next(w.kappa for w in weighted if (w.annotator_a, w.annotator_b) == (pa.annotator_a, pa.annotator_b))
        rows.append(row)
    st.markdown("**Agreement between annotators** (this task)")
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="review_agreement")
else:
    st.caption("Agreement needs judgements from two annotators on this task.")

results = ui.current_results()
if results and ui.results_current(corpus) and system_a in results and not current.empty:
    method = results[system_a].methods[0]
    index = {pid: i for i, pid in enumerate(corpus.ids)}
    a_values = results[system_a].values(method)
    b_values = results[system_b].values(method) if system_b in results else None
    data = current.assign(difference=[a_values[index[p]] - (b_values[index[p]] if b_values else 0.0) for p in current["pair_id"]])
    st.altair_chart(charts.verdicts_vs_difference(data, signature=results[system_a].signatures[method]), width="stretch")
elif not current.empty:
    st.caption("Score the corpus (Corpus page) to see how the verdicts relate to ROUGE.")
