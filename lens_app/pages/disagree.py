"""Why do tools disagree? The same input under each tool's profile, and every difference
traced to the option that causes it (computed by rouge_core.disagree, one field at a time)."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from lens_app.state import current_texts
from rouge_core import disagree, explain

# Shown when the Score page has no input: non-ASCII words, hyphens, a decimal, irregular forms.
EXAMPLE_CANDIDATE = "The children went to the café. Results are state-of-the-art at 3.14 points."
EXAMPLE_REFERENCES = ["The child goes to a cafe. The results were better at 3.14 points."]


def table(rows, **kwargs) -> None:
    st.dataframe(pd.DataFrame(list(rows)), hide_index=True, width="stretch", **kwargs)


def fmt(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if 0 < abs(x) < 5e-5:
        return f"{x:+.1e}"  # rounding-sized changes would print as ±0.0000
    return f"{x:+.4f}"


st.title("Why do tools disagree?")

candidate, references = current_texts()
references = [r for r in references if r.strip()]
if not candidate.strip() or not references:
    candidate, references = EXAMPLE_CANDIDATE, EXAMPLE_REFERENCES
    st.info("No texts on the Score page yet, so this page uses a built-in example.")

st.markdown(
    "Each column is one tool as people usually run it. ROUGE-1.5.5 prints one ROUGE-L, the summary-level "
    "one (`rougeLsum` here); rouge-score offers both `rougeL` and `rougeLsum`; reval's summary-level form is "
    "`rougeLsum-best`. F-measures:"
)
rows = disagree.side_by_side(candidate, references)
frame = pd.DataFrame(rows)
st.dataframe(
    frame,
    hide_index=True,
    width="stretch",
    column_config={c: st.column_config.NumberColumn(format="%.4f") for c in frame.columns if c != "method"},
)

names = list(disagree.VARIANTS)
baseline = st.selectbox("Explain every difference from", names, index=names.index("rouge-score"), key="disagree_baseline")
st.caption(
    "How the causes are found: starting from the baseline's options, one field is changed at a time toward "
    "the other tool's, in this order — " + ", ".join(f"`{f}`" for f, _ in disagree.FIELD_CAUSES)
    + " — and the texts are re-scored after each change. Each change in score is put down to the field "
    "just changed. (The order matters where fields interact: a stemmer works on the tokenizer's output.)"
)

summary = []
attributions = {}
for other in names:
    if other == baseline:
        continue
    att = disagree.attribute(candidate, references, baseline, other)
    attributions[other] = att
    summary.append({"tool": other, "causes (in walk order)": ", ".join(dict.fromkeys(att.causes)) or "no difference on this input"})
st.markdown(f"#### What separates {baseline} from each tool on this input")
table(summary)

for other, att in attributions.items():
    with st.expander(f"{baseline} → {other}: " + (", ".join(dict.fromkeys(att.causes)) or "same numbers")):
        totals = {m: fmt(att.total_delta(m)) for m in att.start_scores}
        st.markdown("Total change in F: " + " · ".join(f"{m} {d}" for m, d in totals.items()))
        quiet = []
        for step in att.steps:
            if not step.matters:
                quiet.append(f"`{step.field}` ({step.before!r} → {step.after!r})")
                continue
            st.markdown(f"**{step.cause}** — `{step.field}`: `{step.before!r}` → `{step.after!r}`")
            table([{"method": m, "F before": step.scores_before[m].fmeasure, "F after": step.scores_after[m].fmeasure,
                    "change": fmt(step.delta(m))} for m in step.changed_methods])
            if step.token_diffs:
                st.markdown("Words of your text whose tokens differ:")
                table([{"text": d.text, "word as typed": d.surface, "tokens before": " ".join(d.before) or "(none)",
                        "tokens after": " ".join(d.after) or "(none)"} for d in step.token_diffs])
            for diff in step.sentence_diffs:
                st.markdown(f"Sentences of the {diff.text}: {len(diff.before)} before, {len(diff.after)} after.")
                table([{"before": " | ".join(diff.before), "after": " | ".join(diff.after)}])
            for note in step.notes:
                st.text(note)
        if quiet:
            st.caption("Also set differently, but no score changes on this input: " + ", ".join(quiet))

with st.expander("Stemming: exception lists against Porter"):
    st.markdown(
        "ROUGE-1.5.5 `-m` looks words longer than 3 characters up in the WordNet-2.0 exception lists first "
        "(went → go, children → child, better → well) and only then runs the original Porter stemmer; "
        "rouge-score's `use_stemmer` runs NLTK's Porter alone, which leaves irregular forms as they are."
    )
    stem_rows = disagree.stemmer_diffs(candidate, references)
    if stem_rows:
        table([{"text": d.text, "word as typed": d.surface, "rouge-score (Porter)": " ".join(d.before),
                "ROUGE-1.5.5 -m": " ".join(d.after)} for d in stem_rows])
    else:
        st.caption("The two stemmers agree on every word of this input.")

with st.expander("Sentence splitting: rougeL against rougeLsum"):
    baseline_options = disagree.VARIANTS[baseline]
    split = disagree.lsum_vs_l(candidate, references, baseline_options)
    st.markdown(
        "rougeLsum works sentence by sentence, but rouge-score and ROUGE-1.5.5 only see sentences where the text "
        "has line breaks. Without newlines each text is one sentence and rougeLsum equals rougeL; rouge-score's "
        "`split_summaries` (punctuation splitting) changes that."
    )
    table([
        {"sentence splitting": v["sentence_split"], **{f"sentences in {k}": n for k, n in v["sentences"].items()},
         "rougeL F": v["rougeL"], "rougeLsum F": v["rougeLsum"], "equal": v["equal"]}
        for v in split.values()
    ])

st.caption(
    f"Sources: [{explain.PAPER}]({explain.PAPER_URL}) · "
    + " · ".join(f"[{name} documentation]({url})" for name, url in explain.DOCS.items())
)
