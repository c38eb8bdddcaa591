"""pandas tables built from results and evidence (no Streamlit)."""

from __future__ import annotations

import pandas as pd

from ..scorer.scoring import Result
from ..families.skipgram import START_TOKEN, SkipBigramEvidence
from ..families.ngram import NgramEvidence
from ..text.document import Document
from ..families.wlcs import WlcsEvidence


def scores_table(result: Result) -> pd.DataFrame:
    """One row per method: P, R, F, the winning reference and why, and the signature."""
    rows = []
    for m in result:
        rows.append(
            {
                "method": m.method.label,
                "name": m.name,
                "short": m.method.short_label,
                "P": m.precision,
                "R": m.recall,
                "F": m.fmeasure,
                "winning reference": "all (combined)" if m.chosen is None else f"reference {m.chosen + 1}",
                "why": m.reason,
                "signature": m.signature,
            }
        )
    return pd.DataFrame(rows, columns=["method", "name", "short", "P", "R", "F", "winning reference", "why", "signature"])


# The per-reference table's counts: whole numbers, but ROUGE-W's are weighted (fractional) and
# its ROUGE-1.5.5 reference total is a sum of weighted lengths; a page writes them cell by cell.
PER_REFERENCE_COUNTS = ("hits", "candidate total", "reference total")


def per_reference_table(result: Result) -> pd.DataFrame:
    """One row per method and reference, with the counts behind each score (PER_REFERENCE_COUNTS)."""
    rows = []
    for m in result:
        for ref in m.per_reference:
            rows.append(
                {
                    "method": m.method.label,
                    "reference": ref.index + 1,
                    "P": ref.score.precision,
                    "R": ref.score.recall,
                    "F": ref.score.fmeasure,
                    "hits": ref.stats.hits,
                    "candidate total": ref.stats.cand_total,
                    "reference total": ref.stats.ref_total,
                    "chosen": m.chosen is None or m.chosen == ref.index,
                }
            )
    return pd.DataFrame(
        rows, columns=["method", "reference", "P", "R", "F", "hits", "candidate total", "reference total", "chosen"]
    )


def ngram_table(evidence: NgramEvidence) -> pd.DataFrame:
    """Every n-gram found on both sides with its counts and clipped matches."""
    rows = [
        {
            "n-gram": " ".join(m.ngram),
            "in candidate": m.cand_count,
            "in reference": m.ref_count,
            "matched": m.matched,
            "clipped": max(m.cand_count, m.ref_count) - m.matched,
        }
        for m in evidence.matches
    ]
    return pd.DataFrame(rows, columns=["n-gram", "in candidate", "in reference", "matched", "clipped"])


def _gram_label(gram: tuple[str, ...]) -> str:
    if len(gram) == 1:
        return gram[0]
    if gram[0] == START_TOKEN:
        return f"{START_TOKEN} {gram[1]}"
    return f"{gram[0]} … {gram[1]}"


def skipgram_table(evidence: SkipBigramEvidence, *, include_candidate_only: bool = False) -> pd.DataFrame:
    """Every skip-bigram of the reference with its counts; SU's unigram rows are marked.

    With include_candidate_only, the candidate's grams absent from the reference follow
    (they count in the precision's denominator only).
    """
    rows = []
    for row in evidence.rows:
        if row.ref_count == 0 and not include_candidate_only:
            continue
        rows.append(
            {
                "gram": _gram_label(row.gram),
                "kind": "unigram (SU)" if row.is_unigram else "skip-bigram",
                "in candidate": row.cand_count,
                "in reference": row.ref_count,
                "matched": row.matched,
            }
        )
    return pd.DataFrame(rows, columns=["gram", "kind", "in candidate", "in reference", "matched"])


def wlcs_runs_table(evidence: WlcsEvidence, ref: Document) -> pd.DataFrame:
    """The runs of consecutive matches behind a ROUGE-W score and what each adds."""
    rows = [
        {
            "run": f"r{i}",
            "tokens": " ".join(ref.tokens[r].term for r in run.ref_positions),
            "length k": len(run.ref_positions),
            f"weight k^{evidence.w:g}": run.weight,
        }
        for i, run in enumerate(evidence.runs, start=1)
    ]
    return pd.DataFrame(rows, columns=["run", "tokens", "length k", f"weight k^{evidence.w:g}"])
