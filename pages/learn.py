"""Learn: each ROUGE method walked through step by step on the user's own texts.

Thin page: widgets -> rouge_core.teach.explain (through lens_app.compute's caches) -> render.
Every number shown comes from rouge_core. A section computes only while it is open.
"""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

import rouge_core
from lens_app import compute, costs, tokens_ui
from lens_app.display import show_table
from lens_app.examples import LEARN_EXAMPLE
from lens_app.markup import md
from lens_app.state import current_options, current_settings, texts_or_example
from rouge_core.teach import explain
from rouge_core.families.methods import lessons
from rouge_core import SKIP_DISTANCE, WLCS_WEIGHT
from rouge_core.scorer.scoring import above_one_note, score_from_stats
from rouge_core.viz import learn_charts
from rouge_core.viz.highlight import SCROLL_BOX_HEIGHT, box_html, candidate_view
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

MAX_DP_TOKENS = 40  # a larger DP heatmap is unreadable; the walk-through uses the first tokens
MAX_CLIPPING_LINES = 8  # the rest are in the table above them


def section(title: str, key: str, expanded: bool = False):
    """An expander whose body runs only while it is open."""
    return st.expander(title, expanded=expanded, key=key, on_change="rerun")


def sources(*tools: str) -> None:
    links = [f"[{explain.PAPER}]({explain.PAPER_URL})"]
    links += [f"[{name} documentation]({explain.DOCS[name]})" for name in tools]
    st.caption("Sources: " + " · ".join(links))


def show_working(stats: rouge_core.Stats, options: rouge_core.Options, rule=None) -> None:
    """Recall, precision and F as fractions, each with its formula beside it (F by `rule`, a
    method family's `f_rule`; None: the options' α)."""
    w = explain.working(stats, options, rule)
    left, right = st.columns([3, 2])
    for line, formula in (
        (w.recall.text(), w.recall_formula),
        (w.precision.text(), w.precision_formula),
        (w.f_text, w.f_formula),
    ):
        left.markdown(f"`{line}`")
        right.markdown(f"*{formula}*")


def table(rows, key: str, **kwargs) -> None:
    show_table(pd.DataFrame(list(rows)), key=key, **kwargs)


def token_box(terms, empty: str) -> None:
    # A plain box, not st.code: the code element loads a 1.5 MB highlighter script in the
    # browser on first use (~0.3 s on the first visit of this page) to show plain text.
    # Bounded: a long text's tokens scroll inside it, so the first lesson stays on the first screen.
    st.html(box_html(" ".join(terms) or empty, max_height=SCROLL_BOX_HEIGHT))


def tokens_line(label: str, terms) -> None:
    st.markdown(f"**{label}** ({len(terms):,} tokens)")
    token_box(terms, "(no tokens)")


st.title("Learn how ROUGE counts")

candidate, references, from_example = texts_or_example(LEARN_EXAMPLE)
if from_example:
    st.info("No texts on the Score page yet, so this walk-through uses a built-in example. Enter your own texts on the Score page and come back.")
options = current_options()
st.caption(f"Tokenized as the current settings say: {tokens_ui.settings_text(options)}; "
           f"sentences split by `{options.sentence_split}` (profile `{options.profile}`).")

try:
    cand_doc, ref_docs = compute.documents(candidate, tuple(references), options)
except ValueError as exc:  # e.g. a segmenter or stemmer whose package is not installed
    st.error(f"These settings cannot tokenize the texts: {md(exc)}")
    st.stop()
ref_index = 0
if len(ref_docs) > 1:
    ref_index = st.selectbox(
        "Walk through against reference", range(len(ref_docs)), format_func=lambda k: f"reference {k + 1}", key="learn_reference"
    )
ref_doc = ref_docs[ref_index]
reference = references[ref_index]
c_terms, r_terms = cand_doc.terms, ref_doc.terms
tokens_line("Candidate", c_terms)
tokens_line(f"Reference {ref_index + 1}", r_terms)


def per_reference_stats(method: str) -> rouge_core.Stats:
    """The statistics rouge_core scores this pair with (the fractions below are these)."""
    return compute.reference_stats(candidate, reference, method, options)


def affordable(*methods: str) -> bool:
    return costs.affordable(candidate, (reference,), methods, options, evidence=True, what="This walk-through")


# --- tokens --------------------------------------------------------------------------------
def tokens_section() -> None:
    tokens_ui.render(candidate, reference, f"Reference {ref_index + 1}", cand_doc, ref_doc, options)


# --- ROUGE-N -------------------------------------------------------------------------------
def ngram_section(families) -> None:
    st.markdown(
        "ROUGE-N counts the n-grams (runs of n tokens) the candidate shares with the reference. "
        "A shared n-gram counts as often as it occurs on the side where it is **rarer** — the clipping "
        "that stops a candidate from scoring by repeating a word."
    )
    n = st.radio("n", [1, 2, 3, 4], horizontal=True, key="learn_n")
    name = families[0].method(n).name
    if not affordable(name):
        return
    rows = explain.ngram_table(c_terms, r_terms, n)
    table(rows, key="learn_ngrams")
    clipped = explain.clipped_rows(rows)
    for row in clipped[:MAX_CLIPPING_LINES]:
        st.markdown(
            f"Clipping: “{md(row['n-gram'])}” occurs {row['in candidate']}× in the candidate but only "
            f"{row['in reference']}× in the reference, so it counts {row['counted']}×, not {row['in candidate']}×."
        )
    if len(clipped) > MAX_CLIPPING_LINES:
        st.caption(f"… and {len(clipped) - MAX_CLIPPING_LINES:,} more clipped {n}-grams (the table shows them all).")
    stats = per_reference_stats(name)
    st.markdown(f"**Matches** = sum of *counted* = {explain.format_number(stats.hits)}; "
                f"the candidate has {explain.format_number(stats.cand_total)} {n}-grams, the reference {explain.format_number(stats.ref_total)}.")
    show_working(stats, options)
    sources("ROUGE-1.5.5", "rouge-score")


# --- ROUGE-L -------------------------------------------------------------------------------
def lcs_section(families) -> None:
    st.markdown(
        "ROUGE-L looks for the longest sequence of tokens that appears in both texts **in the same order**, "
        "gaps allowed. The table below is the dynamic program: cell (i, j) holds the LCS length of the first "
        "i reference tokens and the first j candidate tokens. A matching pair adds one to the diagonal "
        "neighbour; otherwise the cell copies the larger of its upper and left neighbours. The red path is "
        "the traceback from the bottom-right corner; its circled diagonal steps are the LCS."
    )
    if not affordable("rougeL", "rougeLsum", "rougeLsum-best"):
        return
    dp_ref, dp_cand = r_terms[:MAX_DP_TOKENS], c_terms[:MAX_DP_TOKENS]
    if len(r_terms) > MAX_DP_TOKENS or len(c_terms) > MAX_DP_TOKENS:
        st.caption(f"Only the first {MAX_DP_TOKENS} tokens of each side are drawn; the scores below use all tokens.")
    cells = explain.lcs_dp_cells(dp_ref, dp_cand)
    st.altair_chart(learn_charts.lcs_heatmap(cells), width="content")
    lcs_evidence = compute.evidence(candidate, reference, "rougeL", options)["rougeL"].per_reference[0].evidence
    st.markdown(f"**LCS** ({len(lcs_evidence.lcs):,} tokens):")
    token_box(lcs_evidence.lcs, "(empty)")
    show_working(per_reference_stats("rougeL"), options)

    st.markdown("#### Summary-level ROUGE-L (rougeLsum)")
    st.markdown(
        "With several sentences, ROUGE-1.5.5 and rouge-score's `rougeLsum` take, for each reference sentence, "
        "the **union** of its LCS with every candidate sentence, so one reference token counts at most once "
        "(and no token more often than it occurs on both sides). Summing the per-sentence LCS lengths instead "
        "would count a reference token again for every candidate sentence that reuses it. reval "
        "(`rougeLsum-best`) takes, per candidate sentence, only the reference sentence with the longest LCS."
    )
    walk = compute.union_walkthrough(candidate, reference, options)
    if len(cand_doc.sentence_bounds) < 2 and len(ref_doc.sentence_bounds) < 2:
        st.caption("Both texts are one sentence here (sentences split by "
                   f"`{options.sentence_split}`), so rougeLsum equals rougeL. Put sentences on separate lines to see the difference.")
    table(walk["rows"], key="learn_union")
    st.markdown(
        f"Union hits: **{explain.format_number(walk['union_hits'])}** · summed per-sentence LCS: "
        f"**{explain.format_number(walk['summed_lcs'])}** · reval's best-sentence total: "
        f"**{explain.format_number(walk['best_sentence_hits'])}**"
    )
    table(walk["best_sentence_choices"], key="learn_best_sentence")
    st.markdown("rougeLsum (union):")
    show_working(per_reference_stats("rougeLsum"), options)
    st.markdown("rougeLsum-best (reval):")
    best_sentence = per_reference_stats("rougeLsum-best")
    show_working(best_sentence, options)
    if note := above_one_note("rougeLsum-best", score_from_stats(best_sentence, options)):
        st.info(note, icon=":material/info:")
    sources("ROUGE-1.5.5", "rouge-score", "reval")


# --- ROUGE-W -------------------------------------------------------------------------------
MAX_LENGTH_TERMS = 8  # a longer sum of weighted sentence lengths is written with its ends only


def weighted_lengths(lengths) -> str:
    """Σ f(|rᵢ|) written out, e.g. "f(9) + f(6)"; a long text's 80 sentences as its first and
    last terms and their count."""
    terms = [f"f({k})" for k in lengths]
    if len(terms) <= MAX_LENGTH_TERMS:
        return " + ".join(terms)
    return f"{' + '.join(terms[:3])} + … + {' + '.join(terms[-2:])}, {len(terms):,} reference sentences"


def wlcs_section(families) -> None:
    st.markdown(
        "Plain LCS gives *the cat* … *sat* the same credit whether the matches are adjacent or scattered. "
        "ROUGE-W weights a run of k consecutive matches by f(k) = k^w (w > 1), so one run of 3 is worth more "
        "than three runs of 1; R and P are then turned back into the LCS scale with f⁻¹(x) = x^(1/w)."
    )
    w = st.slider("weight w", WLCS_WEIGHT.minimum, 3.0, min(current_settings().weight, 3.0), 0.05, key="learn_w",
                  help="Starts at the sidebar's W weight.")
    if not affordable(families[0].method(w).name):
        return
    runs = compute.w_runs(candidate, reference, options, w)
    run_lengths = sorted({r["length k"] for form in ("paper", "rouge155") for r in runs[form]["runs"]})
    st.altair_chart(learn_charts.weight_curve_chart(explain.weight_curve(w, max([8, *run_lengths])), run_lengths), width="content")
    paper_col, script_col = st.columns(2)
    with paper_col:
        st.markdown("**Paper form** (Lin 2004): one weighted DP over the whole texts; "
                    "R = f⁻¹(WLCS / f(|r|)), P = f⁻¹(WLCS / f(|c|)).")
        table(runs["paper"]["runs"], key="learn_w_paper", text_width="small")  # half the page wide
        st.markdown(f"WLCS = Σ f(k) = {explain.format_number(runs['paper']['weighted_hits'])}")
        show_working(runs["paper"]["stats"], options)
    with script_col:
        lengths = weighted_lengths(runs["rouge155"]["ref_sentence_lengths"])
        st.markdown("**ROUGE-1.5.5 form**: runs in the union over reference sentences, and recall divides by "
                    f"f(Σ f(|rᵢ|)) = f({lengths}) — the reference length is weighted twice, so its recall is lower.")
        table(runs["rouge155"]["runs"], key="learn_w_rouge155", text_width="small")
        st.markdown(f"hits = Σ f(k) = {explain.format_number(runs['rouge155']['weighted_hits'])}")
        show_working(runs["rouge155"]["stats"], options)
    sources("ROUGE-1.5.5")


# --- ROUGE-S / SU --------------------------------------------------------------------------
def skip_section(families) -> None:
    st.markdown(
        "A skip-bigram is any ordered pair of tokens with at most d tokens between them. ROUGE-S counts the "
        "shared skip-bigrams (clipped, like n-grams); ROUGE-SU also counts unigrams, so a candidate with no "
        "shared pair still gets credit for shared words."
    )
    longest = max(len(c_terms), len(r_terms), 2)
    widest_gap = min(longest - 2, 12) if longest > 2 else 1
    chosen = current_settings().distance
    distance = st.slider("maximum gap d", 0, widest_gap,
                         min(SKIP_DISTANCE.default if chosen is None else chosen, max(longest - 2, 0), widest_gap),
                         key="learn_skip", help="Starts at the sidebar's skip distance.")
    widest = min(longest, 12)
    skip, with_unigrams = families  # ROUGE-S, ROUGE-SU
    if not affordable(with_unigrams.method(max(distance, widest)).name):
        return
    walk = compute.skip_walkthrough(candidate, reference, options, distance, widest)
    st.markdown(f"The candidate's {len(walk['listed']):,} skip-bigrams with gap ≤ {distance}:")
    table(walk["listed"], key="learn_skip_listed", height=220)
    st.markdown("Shared skip-bigrams and how many times each counts:")
    table(walk["shared"], key="learn_skip_shared", height=220)
    show_working(per_reference_stats(skip.method(distance).name), options)
    st.altair_chart(learn_charts.skip_growth_chart(walk["growth"], distance), width="content")
    st.markdown(
        "**Adding unigrams.** ROUGE-1.5.5 (`-u`) adds the unigram of every position *but the last* (its loop stops one "
        "short); Lin's definition, used by MATLAB, prepends a start token so each (⟨s⟩, w) pair plays a unigram's part."
    )
    table(walk["su"], key="learn_su", limit=None)
    sources("ROUGE-1.5.5", "MATLAB rougeEvaluationScore")


# --- multiple references -------------------------------------------------------------------
def multi_section() -> None:
    st.markdown(
        "With several references each tool combines the per-reference numbers differently: ROUGE-1.5.5 pools "
        "the counts (`-f A`) or takes the reference with the best recall (`-f B`); rouge-score's `score_multi` "
        "takes the best F; MATLAB takes the maximum of P, R and F separately; a plain mean is a fifth choice."
    )
    if len(references) < 2:
        st.caption("There is only one reference, so every mode gives the same numbers. Add a second reference on the Score page.")
    method = st.selectbox("method", ["rouge1", "rouge2", "rougeL", "rougeLsum"], key="learn_multi_method")
    if not costs.affordable(candidate, tuple(references), [method], options, evidence=False, what="This walk-through"):
        return
    multi = compute.multi_reference(candidate, tuple(references), method, options)
    st.markdown("Per reference:")
    table(multi["per_reference"], key="learn_multi_per_reference", limit=None)
    st.markdown("Combined:")
    table(multi["modes"], key="learn_multi_modes", limit=None)
    st.altair_chart(learn_charts.multi_reference_chart(multi["modes"]), width="content")
    sources("ROUGE-1.5.5", "rouge-score", "MATLAB rougeEvaluationScore")


# --- any other family: its statistics and their working ------------------------------------
def family_section(families) -> None:
    """The lesson of a family this page has no walk-through of its own for: what it measures,
    its statistics on the pair and their working, and its evidence where it is drawn."""
    settings = current_settings()
    for family in families:
        st.markdown(f"**{md(family.title)}** measures {md(family.summary)}.")
        for method in family.app_methods(settings.parameter_values()):
            if not affordable(method.name):
                return
            result = compute.evidence(candidate, reference, method.name, options)
            ref_score = result[method.name].per_reference[0]
            st.markdown(f"{md(method.label)}: {explain.format_number(ref_score.stats.hits)} matched "
                        f"({family.unit or 'units'}).")
            view = candidate_view(ref_score.evidence, result.candidate, result.references[0])
            if view is not None:
                st.html(view[0])
            show_working(ref_score.stats, options, family.f_rule)


# --- the page: each section computes only while it is open --------------------------------
# The page's own walk-throughs of the built-in families, by their lesson's key (rouge_core.families.methods
# Family.lesson); any other family's lesson is family_section.
WALKS = {"n": ngram_section, "l": lcs_section, "w": wlcs_section, "s": skip_section}
SECTIONS = (
    ("How your text is tokenized", tokens_section, "learn_open_tokens", False),
    *((lesson.title, partial(WALKS.get(lesson.key, family_section), families), f"learn_open_{lesson.key}",
       lesson.key == "n") for lesson, families in lessons()),
    ("Multiple references: five ways to combine them", multi_section, "learn_open_multi", False),
)
for title, body, key, expanded in SECTIONS:
    with section(title, key, expanded) as container:
        if container.open:
            body()
