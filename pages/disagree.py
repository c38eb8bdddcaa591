"""Why do tools disagree? The same input under each tool's profile, and every difference
traced to the option that causes it (computed by rouge_core.teach.disagree, one field at a time).

The sidebar's settings join the tools as "your settings", so a user can see what separates
their own configuration from each tool. One cached Comparison per input shares every
tokenization and score between the table and the walks; the detail sections compute only
while they are open.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from lens_app import compute, costs
from lens_app.display import show_table
from lens_app.examples import DISAGREE_EXAMPLE
from lens_app.markup import md
from lens_app.state import current_options, texts_or_example
from rouge_core.teach import disagree, explain
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

YOURS = "your settings"


def table(rows, key: str, **kwargs) -> None:
    show_table(pd.DataFrame(list(rows)), key=key, **kwargs)


def fmt(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if 0 < abs(x) < 5e-5:
        return f"{x:+.1e}"  # rounding-sized changes would print as ±0.0000
    return f"{x:+.4f}"


def section(title: str, key: str):
    """An expander whose body runs only while it is open."""
    return st.expander(title, key=key, on_change="rerun")


def render_attribution(att: disagree.Attribution, key: str) -> None:
    totals = {m: fmt(att.total_delta(m)) for m in att.start_scores}
    st.markdown("Total change in F: " + " · ".join(f"{m} {d}" for m, d in totals.items()))
    quiet = []
    for number, step in enumerate(att.steps):
        if not step.matters:
            quiet.append(f"`{step.field}` ({md(repr(step.before))} → {md(repr(step.after))})")
            continue
        st.markdown(f"**{step.cause}** — `{step.field}`: {md(repr(step.before))} → {md(repr(step.after))}")
        table([{"method": m, "F before": step.scores_before[m].fmeasure, "F after": step.scores_after[m].fmeasure,
                "change": fmt(step.delta(m))} for m in step.changed_methods], key=f"{key}_{number}_scores")
        if step.token_diffs:
            st.markdown("Words of your text whose tokens differ:")
            table([{"text": d.text, "word as typed": d.surface, "tokens before": " ".join(d.before) or "(none)",
                    "tokens after": " ".join(d.after) or "(none)"} for d in step.token_diffs], key=f"{key}_{number}_tokens")
        for diff in step.sentence_diffs:
            st.markdown(f"Sentences of the {diff.text}: {len(diff.before)} before, {len(diff.after)} after.")
            table([{"before": " | ".join(diff.before), "after": " | ".join(diff.after)}], key=f"{key}_{number}_sentences")
        for note in step.notes:
            st.text(note)
    if quiet:
        st.caption("Also set differently, but no score changes on this input: " + ", ".join(quiet))


st.title("Why do tools disagree?")

candidate, references, from_example = texts_or_example(DISAGREE_EXAMPLE)
if from_example:
    st.info("No texts on the Score page yet, so this page uses a built-in example.")
variants = {**disagree.VARIANTS, YOURS: current_options()}
# The table and the walks from the baseline score the texts under a few dozen settings: estimated
# first (each tokenization and each set of statistics once), asked for when above the bound.
approval = costs.approval("disagree", candidate, tuple(references), current_options())
comparison = compute.comparison(candidate, tuple(references), costs.approved(approval))
planned = comparison.estimate(variants, st.session_state.get("disagree_baseline", "rouge-score"))
if not costs.affordable_estimate(planned, approval, "Comparing the tools on these texts"):
    st.stop()

st.markdown(
    "Each column is one tool as people usually run it, and the last one your settings from the sidebar. "
    "ROUGE-1.5.5 prints one ROUGE-L, the summary-level one (`rougeLsum` here); rouge-score offers both `rougeL` "
    "and `rougeLsum`; reval's summary-level form is `rougeLsum-best`. F-measures:"
)
table(comparison.side_by_side(variants), key="disagree_side_by_side", limit=None)
for note in comparison.above_one(variants):
    st.info(md(note), icon=":material/info:")

names = list(variants)
baseline = st.selectbox("Explain every difference from", names, index=names.index("rouge-score"), key="disagree_baseline")
st.caption(
    "How the causes are found: starting from the baseline's options, one field is changed at a time toward "
    "the other tool's, in this order — " + ", ".join(f"`{f}`" for f, _ in disagree.FIELD_CAUSES)
    + " — and the texts are re-scored after each change. Each change in score is put down to the field "
    "just changed. (The order matters where fields interact: a stemmer works on the tokenizer's output.)"
)

# The causes need only each step's scores; a walk's word-by-word diffs are computed when its section opens.
attributions = {other: comparison.attribute(variants[baseline], variants[other], details=False)
                for other in names if other != baseline}
st.markdown(f"#### What separates {md(baseline)} from each tool on this input")
table([{"tool": other, "causes (in walk order)": ", ".join(dict.fromkeys(att.causes)) or "no difference on this input"}
       for other, att in attributions.items()], key="disagree_causes", limit=None)

for number, (other, att) in enumerate(attributions.items()):
    title = f"{baseline} → {other}: " + (", ".join(dict.fromkeys(att.causes)) or "same numbers")
    with section(md(title), key=f"disagree_open_{baseline}_{other}") as container:
        if container.open:
            render_attribution(comparison.attribute(variants[baseline], variants[other]), key=f"disagree_walk_{number}")

with section("Stemming: exception lists against Porter", key="disagree_open_stemming") as container:
    if container.open:
        st.markdown(
            "ROUGE-1.5.5 `-m` looks words longer than 3 characters up in the WordNet-2.0 exception lists first "
            "(went → go, children → child, better → well) and only then runs the original Porter stemmer; "
            "rouge-score's `use_stemmer` runs NLTK's Porter alone, which leaves irregular forms as they are."
        )
        stem_rows = comparison.stemmer_diffs()
        if stem_rows:
            table([{"text": d.text, "word as typed": d.surface, "rouge-score (Porter)": " ".join(d.before),
                    "ROUGE-1.5.5 -m": " ".join(d.after)} for d in stem_rows], key="disagree_stems")
        else:
            st.caption("The two stemmers agree on every word of this input.")

with section("Sentence splitting: rougeL against rougeLsum", key="disagree_open_sentences") as container:
    if container.open:
        split = comparison.lsum_vs_l(variants[baseline])
        st.markdown(
            "rougeLsum works sentence by sentence, but rouge-score and ROUGE-1.5.5 only see sentences where the text "
            "has line breaks. Without newlines each text is one sentence and rougeLsum equals rougeL; rouge-score's "
            "`split_summaries` (punctuation splitting) changes that."
        )
        table([
            {"sentence splitting": v["sentence_split"], **{f"sentences in {k}": n for k, n in v["sentences"].items()},
             "rougeL F": v["rougeL"], "rougeLsum F": v["rougeLsum"], "equal": v["equal"]}
            for v in split.values()
        ], key="disagree_split", limit=None)

st.caption(
    f"Sources: [{explain.PAPER}]({explain.PAPER_URL}) · "
    + " · ".join(f"[{name} documentation]({url})" for name, url in explain.DOCS.items())
)
