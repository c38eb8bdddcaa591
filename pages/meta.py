"""Which ROUGE agrees with your annotators? Every ROUGE method under every profile, with stemming
off and on, correlated with human scores at the summary and the system level (rouge_core.studies.meta),
with bootstrap intervals, a chart, the documents where a variant and the humans disagree most,
and a significance test between two variants. Human scores come from the Review page's
judgements of the corpus and / or an imported file."""

import math

import pandas as pd
import streamlit as st

import rouge_core
from lens_app import corpus_ui as ui
from lens_app import costs, identity, meta_ui, review_ui, sidebar, state
from lens_app import review_tasks as rt
from lens_app.display import show_table
from lens_app.markup import md
from lens_app.settings import Settings
from rouge_core.studies import meta
from rouge_core.corpora.corpus import MEASURE_LABELS
from rouge_core.scorer.scoring import missing_extra
from rouge_core.viz import meta_charts
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

IMPORTED = "meta_imported"  # rouge_core.studies.meta.HumanJudgements read from a file, kept across page switches
OPEN_ON_SCORE = "_meta_open_on_score"
COEFFICIENT_LABELS = {meta.coefficient_name(m, v): (m, v) for m, v in meta.COEFFICIENTS}

st.title("Which ROUGE agrees with your annotators?")
st.caption("Every ROUGE method under every profile, stemming off and on, correlated with your annotators' scores: "
           "per document across systems (summary level) and over system means (system level), as in SummEval and "
           "sacrerouge, on your own corpus.")
if st.session_state.pop(OPEN_ON_SCORE, False):
    try:
        st.switch_page(ui.SCORE_PAGE)
    except st.errors.StreamlitAPIException:
        st.info("The summary's texts and the variant's settings are set; open the Score page to see its evidence.")

store = review_ui.open_store()
viewer = identity.analysis_viewer()  # with logins: who reads, and so whose judgements
review_ui.corpus_from_link(store)
ui.corpus_loader("meta")
corpus = ui.current_corpus()
if corpus is None:
    st.info("Load the corpus the judgements are about (one candidate column per system), or reopen a stored one.")
    review_ui.stored_corpora(store, "meta")
    st.stop()
fingerprint = review_ui.name_in_link(store, corpus)  # stores nothing: judgements do
systems = corpus.system_names


# --- 1. human scores ------------------------------------------------------------------------------
st.subheader("1. Human scores")
made_here = rt.human_judgements([rt.StoredJudgement(j.task, j.pair_id, j.annotator, j.verdict)
                                 for j in review_ui.judgements_for_analysis(store, viewer, fingerprint, corpus.ids)
                                 if j.verdict], systems, "this app's judgements")
review_ui.priming_note(store, fingerprint, systems)
meta_ui.judgements_import(IMPORTED, IMPORTED not in st.session_state and not len(made_here),
                          st.session_state.get(ui.CORPUS_FILE_KEY), ui.UPLOAD_MB)

ui.example_judgements(IMPORTED)  # the example corpus's judgements in one click, with their provenance

sources = [j for j in (made_here, st.session_state.get(IMPORTED)) if j is not None and len(j)]
if not sources:
    st.info("No human scores yet: judge this corpus on the Review page, or import judgements above.")
    st.stop()
judgements = sources[0] if len(sources) == 1 else sources[0].merged(sources[1])
judgements, system_match = meta_ui.match_systems(judgements, systems, f"meta_system_{corpus.fingerprint()}")
c1, c2 = st.columns(2)
aspect = c1.selectbox("Aspect (task)", judgements.aspects(), key="meta_aspect", format_func=lambda a: a or "(no aspect)")
everyone = judgements.annotators(aspect)
annotators = c2.multiselect("Annotators", everyone, default=everyone, key=f"meta_annotators_{aspect}",
                            format_func=lambda a: a or "(unnamed)")
if not annotators:
    st.warning("Choose at least one annotator.")
    st.stop()
human_all = judgements.scores(aspect, annotators)
in_corpus = set(corpus.ids)
human = {k: v for k, v in human_all.items() if k[0] in corpus.systems and k[1] in in_corpus}
judged_systems = sorted({s for s, _ in human})
judged_docs = {d for _, d in human}
st.caption(f"{len(human):,} human scores ({md(judgements.source)}) for {len(judged_systems)} system(s) × "
           f"{len(judged_docs):,} document(s) of this corpus; the score of a summary is the mean over "
           f"{len(annotators)} annotator(s).")
if system_match.unmatched:  # whatever the aspect: the names differ
    st.warning(meta_ui.systems_left_out(system_match, systems, sum(k[0] not in corpus.systems for k in human_all)))
other_documents = sorted({d for s, d in human_all if s in corpus.systems and d not in in_corpus}, key=str)
if other_documents:
    scores_out = sum(s in corpus.systems and d not in in_corpus for s, d in human_all)
    st.warning(f"{scores_out:,} human score(s) name {len(other_documents):,} document id(s) this corpus does not have "
               f"and are left out: {meta_ui.names_in_words(other_documents, 5)}. This corpus's ids are: "
               f"{meta_ui.names_in_words(corpus.ids, 5)}.")
if len(judged_systems) < 2:
    st.warning("Correlations need human scores for at least two systems of this corpus.")
    st.stop()
with st.expander("Agreement between annotators (the ceiling a metric can hope for)", key="meta_iaa_open",
                 on_change="rerun") as iaa:
    if iaa.open:
        by_annotator = judgements.by_annotator(aspect)
        rows = []
        for i, a in enumerate(annotators):
            for b in annotators[i + 1:]:
                shared = sorted(set(by_annotator.get(a, {})) & set(by_annotator.get(b, {})), key=str)
                xs = [by_annotator[a][k] for k in shared]
                ys = [by_annotator[b][k] for k in shared]
                rows.append({"annotator_a": a, "annotator_b": b, "items": len(shared),
                             **{name: meta.coefficient(xs, ys, m, v) for name, (m, v) in COEFFICIENT_LABELS.items()}})
        if rows:
            show_table(pd.DataFrame(rows), key="meta_iaa", limit=None)
        else:
            st.caption("One annotator: nothing to compare.")

# --- 2. ROUGE variants ------------------------------------------------------------------------------
st.subheader("2. ROUGE variants")
c1, c2, c3 = st.columns([2, 2, 1])
methods = c1.multiselect("Methods", state.current_methods(), default=state.current_methods(), key="meta_methods",
                         help="The sidebar's methods (its n, skip distance and W weight).")
unavailable = {p: why for p in rouge_core.PROFILES if (why := missing_extra(rouge_core.profile(p)))}
runnable = [p for p in rouge_core.PROFILES if p not in unavailable]
profiles = c2.multiselect("Profiles", runnable, default=runnable, key="meta_profiles")
measure = c3.selectbox("Measure", ["fmeasure", "recall", "precision"], key="meta_measure",
                       format_func=MEASURE_LABELS.get)
stemming = st.segmented_control("Stemming", ["off", "on"], selection_mode="multi", default=["off", "on"],
                                key="meta_stemming", help="On: ROUGE-1.5.5's stemmer (-m) for its profile, NLTK's "
                                                          "Porter stemmer (rouge-score's) for the others.")
for name, why in unavailable.items():
    st.caption(f"The {name} profile cannot run here: {md(why)}")
if not methods or not profiles or not stemming:
    st.info("Choose at least one method, one profile and stemming off or on.")
    st.stop()
variants = meta.variants(profiles, [s == "on" for s in ["off", "on"] if s in stemming])
what = (f"{len(corpus):,} pairs × {len(systems)} system(s) × {len(variants)} variant(s) × {len(methods)} method(s)")
scored_key = ("meta_scored_for", fingerprint, tuple(methods), tuple(variants), measure)
if st.session_state.get("meta_scored_for") != scored_key:
    estimates = meta_ui.scoring_estimates(corpus, methods, variants)
    st.caption(f"Scoring {what} takes {meta_ui.scoring_in_words(estimates)}, each variant under its own profile.")
    if not st.button("Score every variant", key="meta_score", type="primary", icon=":material/play_arrow:"):
        st.stop()
    st.session_state["meta_scored_for"] = scored_key
try:
    scored = meta_ui.score_variants(corpus, methods, variants, measure)
except (rouge_core.CostLimitError, ValueError) as e:  # a pair above the cost bound, or a text that cannot be scored
    st.session_state.pop("meta_scored_for", None)
    st.error(md(e))
    st.stop()
st.caption(f"Scored {what}.")

# --- 3. correlations --------------------------------------------------------------------------------
st.subheader("3. Correlations with the human scores")
coefficient = st.segmented_control("Coefficient", list(COEFFICIENT_LABELS), default="Kendall τ-b", required=True,
                                   key="meta_coefficient")
c1, c2, c3, c4, c5 = st.columns(5)
rank_level = c1.selectbox("Rank by", list(meta.LEVELS), key="meta_rank_level", format_func=lambda lv: f"{lv} level",
                          help="The level whose correlation orders the variants and is tested against the best.")
bootstrap = int(c2.number_input("Resamples", 0, 10_000, 1000, step=100, key="meta_resamples",
                                help="Bootstrap resamples for the intervals and the test against the best; 0: "
                                     "neither."))
seed = int(c3.number_input("Seed", 0, 2**31 - 1, 0, key="meta_seed"))
confidence = float(c4.number_input("Confidence %", 50, 99, 95, key="meta_confidence",
                                   help="Of the intervals; the test against the best is read at α = 1 − confidence."))
resample = c5.selectbox("Resample", list(meta.RESAMPLE), key="meta_resample",
                        help="What the bootstrap draws with replacement: documents (the default), systems, or both "
                             "(Deutsch et al. 2021).")
method, variant = COEFFICIENT_LABELS[coefficient]
table_key = (scored_key, tuple(sorted(human.items())), coefficient, bootstrap, seed, confidence, resample, rank_level)


def compute_table() -> tuple[pd.DataFrame, meta.MetricRanking]:
    bar = st.progress(0.0, text="Correlating…")

    def progress(done: int, total: int) -> None:
        bar.progress(done / total, text=f"Correlating: step {done} of {total}")

    result = meta_ui.correlation_table(scored, human, method, variant, bootstrap=bootstrap, seed=seed,
                                       confidence=confidence, resample=resample, level=rank_level, progress=progress)
    bar.empty()
    return result


estimate = meta_ui.correlation_estimate(len(judged_systems), len(judged_docs), sum(len(vs.scores) for vs in scored),
                                       bootstrap, method, rank_level, resample)
if not (costs.within_bound(estimate) or st.session_state.get("meta_approved") == table_key):
    st.warning(f"These correlations with {bootstrap:,} resamples of the {resample} would take {estimate.describe()}, "
               f"above this app's bound of {rouge_core.DEFAULT_COST_LIMIT.describe()} per computation. Lower the "
               "resamples, resample documents only, or compute them anyway.", icon=":material/hourglass_top:")
    if st.button(f"Compute anyway ({estimate.describe()})", key="meta_anyway", icon=":material/play_arrow:"):
        st.session_state["meta_approved"] = table_key
        st.rerun()
    st.stop()
table, ranking = meta_ui.cached_table(table_key, compute_table)
if table.empty:
    st.info("No ROUGE scores to correlate.")
    st.stop()
st.markdown(md(ranking.summary()))
ranked, apart = meta_ui.ranked_rows(table), meta_ui.apart_rows(table)
PICKED = "meta_picked"  # the variant whose row was clicked last, in either table


def pick(widget_key: str, frame: pd.DataFrame):
    def picked() -> None:
        rows = st.session_state[widget_key].selection.rows
        st.session_state[PICKED] = frame.iloc[rows[0]]["variant"] if rows else None
    return picked


st.caption(f"{coefficient} of each variant's {MEASURE_LABELS[measure]} with the human scores "
           f"({md(aspect or 'no aspect')}), ranked by the {rank_level} level among the variants computed on the same "
           "documents (coverage: documents used / documents judged). Summary level: per document across systems, then "
           "the mean over documents; system level: over the systems' mean scores. vs_best: the test against the best "
           "(best_minus_this with its interval, p_value, adjusted_p). Click a row to see its scores.")
ranked_shown = ranked.drop(columns=["signature"] + ([] if ranked["why_missing"].any() else ["why_missing"]))
ranked_shown = ranked_shown.astype({"rank": int})
show_table(ranked_shown, key="meta_table", limit=None, on_select=pick("meta_table", ranked_shown),
           selection_mode="single-row")
export_signature = meta_ui.signature(fingerprint, judgements.source, aspect, len(annotators), coefficient, bootstrap,
                                     seed, confidence, resample, measure)
ui.download_pair("Correlations", table, export_signature, "correlations", "dl_correlations",
                 meta={"coefficient": coefficient, "measure": measure, "aspect": aspect, "annotators": annotators,
                       "human_scores": judgements.source, "resamples": bootstrap, "seed": seed,
                       "confidence": confidence, "resample": resample, "ranked_by": rank_level,
                       "test_against_best": ranking.test_name() if bootstrap else "none"})
CHARTED = 20  # variants drawn: a chart of all 56 default ones is too tall to read
if not ranked.empty:
    st.altair_chart(meta_charts.correlations_chart(meta_ui.chart_rows(ranked.head(CHARTED)), coefficient,
                                                   signature=export_signature, ranked_by=rank_level,
                                                   test=ranking.test_name() if bootstrap else ""), width="stretch")
if len(ranked) > CHARTED:
    st.caption(f"The chart shows the {CHARTED} best ranked variants; the table and the downloads have all "
               f"{len(ranked)}.")
if not apart.empty:
    st.markdown(f"**Not ranked: {len(apart):,} variant(s) computed on other or fewer documents**")
    st.caption("Their correlations stand on other documents than the ranked variants' and are not compared with them. "
               "why_missing says why documents are missing.")
    apart_shown = apart.drop(columns=["rank", "vs_best", "signature", "best_minus_this", "difference_low",
                                      "difference_high", "p_value", "adjusted_p"], errors="ignore")
    first = ["variant", "coverage", "missing", "why_missing"]  # how many are missing and why, in view
    apart_shown = apart_shown[first + [c for c in apart_shown.columns if c not in first]]
    show_table(apart_shown, key="meta_apart", limit=None, on_select=pick("meta_apart", apart_shown),
               selection_mode="single-row", column_config={"why_missing": st.column_config.TextColumn(width="large")})

# --- 4. one variant: scatter and the documents where it disagrees most ---------------------------------
picked_variant = st.session_state.get(PICKED)
picked = picked_variant in set(table["variant"])
row = table[table["variant"] == picked_variant].iloc[0] if picked else table.iloc[0]
chosen = next(vs for vs in scored if vs.variant.profile == row["profile"] and vs.variant.stemmer == row["stemmer"])
scores = chosen.scores[row["method"]]
st.subheader(f"4. {md(row['variant'])}")
if not picked:
    sharing = int((ranked[rank_level] == ranked[rank_level].iloc[0]).sum()) if not ranked.empty else 0
    if not sharing:
        shown_is = f"The first variant listed apart (none has a defined {rank_level}-level {coefficient})"
    else:
        shown_is = (f"{f'One of the {sharing} variants sharing' if sharing > 1 else 'The'} highest {rank_level}-level "
                    f"{coefficient} among the variants computed on the same documents")
    st.caption(f"{shown_is}; click a row above to see another.")
items = pd.DataFrame(meta.paired_items(scores, human), columns=["system", "doc_id", "metric", "human"])
st.altair_chart(meta_charts.metric_human_scatter(items, row["method"], signature=row["signature"]), width="stretch")

worst = [d for d in meta.document_correlations(scores, human, method, variant) if not math.isnan(d[1])][:10]
detail = []
for doc_id, r, _ in worst:
    here = items[items["doc_id"] == doc_id]
    ranks = here.assign(human_rank=here["human"].rank(ascending=False), metric_rank=here["metric"].rank(ascending=False))
    for _, item in ranks.iterrows():
        detail.append({"doc_id": doc_id, coefficient: r, "system": item["system"], "human": item["human"],
                       "metric": item["metric"], "human_rank": item["human_rank"], "metric_rank": item["metric_rank"]})
detail_frame = pd.DataFrame(detail)
st.markdown("**Documents where this variant and the humans disagree most** (lowest per-document "
            f"{coefficient} first; ranks within the document, 1 = best)")


def open_on_score() -> None:
    """A row was clicked: the summary, its references and the variant's settings go to the
    Score page (set here, in a callback, before the sidebar draws its widgets)."""
    selection = st.session_state["meta_disagreements"].selection.rows
    if not selection:
        return
    item = detail_frame.iloc[selection[0]]
    position = corpus.ids.index(item["doc_id"])
    state.set_texts(corpus.systems[item["system"]][position], list(corpus.references[position]))
    current = state.current_settings()
    sidebar.show(Settings.for_profile(chosen.variant.profile, stemmer=chosen.variant.stemmer, max_n=current.max_n,
                                      skip_distance=current.skip_distance, skip_unlimited=current.skip_unlimited,
                                      weight=current.weight))
    st.session_state[OPEN_ON_SCORE] = True


if detail_frame.empty:
    st.caption("No document has a defined correlation.")
else:
    ranks = {c: st.column_config.NumberColumn(format="%.1f") for c in ("human_rank", "metric_rank")}
    show_table(detail_frame, key="meta_disagreements", limit=None, on_select=open_on_score,
               selection_mode="single-row", column_config=ranks)
    st.caption(f"Click a row to open that summary on the Score page with its evidence, under {md(chosen.variant.label)}.")

# --- 5. two variants: is the difference significant? ----------------------------------------------------
with st.expander("Is one variant significantly better than another?", key="meta_compare_open",
                 on_change="rerun") as comparing:
    if comparing.open:
        labels = list(table["variant"])
        c1, c2, c3 = st.columns([2, 2, 1])
        first = c1.selectbox("Variant", labels, index=0, key="meta_compare_a")
        second = c2.selectbox("against", labels, index=min(1, len(labels) - 1), key="meta_compare_b")
        level = c3.radio("Level", list(meta.LEVELS), key="meta_compare_level")
        c4, c5, c6 = st.columns(3)
        test_resamples = int(c4.number_input("Resamples", 10, 10_000, 1000, step=100, key="meta_compare_resamples"))
        test_seed = int(c5.number_input("Seed", 0, 2**31 - 1, 0, key="meta_compare_seed"))
        permute = c6.selectbox("Permute per", list(meta.RESAMPLE), index=2, key="meta_compare_permute")
        by_label = {meta_ui.metric_label(m, vs.variant): vs.scores[m] for vs in scored for m in vs.scores}
        test_estimate = meta_ui.tests_estimate(len(judged_systems), len(judged_docs), test_resamples, method, level,
                                               resample)
        test_key = costs.approval(f"tests {first} {second} {level} {test_resamples} {permute} {resample} {coefficient}",
                                  fingerprint, (aspect,), rouge_core.Options())
        if first == second:
            st.info("Choose two different variants.")
        elif not (costs.within_bound(test_estimate) or costs.approved(test_key)):
            costs.ask(test_estimate, test_key, "These two tests")
        else:
            bar = st.progress(0.0, text="Testing…")
            try:
                tests = meta.compare_correlations(by_label[first], by_label[second], human, level, method, variant,
                                                  resamples=test_resamples, seed=test_seed, confidence=confidence,
                                                  resample=resample, permute=permute, cost_limit=rouge_core.UNBOUNDED,
                                                  progress=lambda d, t: bar.progress(d / t, text=f"Testing: {d} of {t}"))
            except ValueError as e:
                tests = []
                st.warning(md(e))
            bar.empty()
            if tests:
                st.markdown(md(meta_ui.difference_in_words(first, second, level, coefficient, tests)))
                frame = pd.DataFrame([t.as_dict() for t in tests])
                show_table(frame, key="meta_compare_tests", limit=None)
                ui.download_pair("Tests", frame.assign(variant_a=first, variant_b=second), export_signature,
                                 "correlation_tests", "dl_correlation_tests")

with st.expander("How these numbers are computed", key="meta_method_open"):
    st.code(meta.__doc__.split("Human judgements come")[0].strip(), language=None, wrap_lines=True)
