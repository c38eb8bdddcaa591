"""Teaching computations: the numbers behind each ROUGE method, laid out step by step.

Everything here is derived from the same functions that score (ngram, lcs, wlcs, skipgram,
scoring), so what the Learn page shows is what rouge_core computed, not a re-implementation.
Results are plain rows (lists of dicts) so they render as tables without pandas here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..scorer.cost import CostLimit, estimate, estimate_methods, raise_if_over
from ..families.lcs import best_sentence_lcs, lcs_alignment, lcs_table, traceback_path, union_lcs
from ..families.methods import FAMILIES, method_name, parse_method
from ..families.ngram import ngram_counts
from ..text.options import MULTI_REF_MODES, Options
from ..scorer.scoring import combine_references, prepare, score, score_from_stats
from ..families.skipgram import START_TOKEN, skip_bigram_counts, skip_bigram_positions, skip_stats
from ..stats import F_MEASURE, FMeasureRule, Score, Stats
from ..text.document import Document, tokens_by_word
from ..families.wlcs import weight, wlcs_paper, wlcs_rouge155

PAPER = 'Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries"'
PAPER_URL = "https://aclanthology.org/W04-1013/"
DOCS = {
    "ROUGE-1.5.5": "https://github.com/pltrdy/files2rouge/blob/master/files2rouge/RELEASE-1.5.5/README.txt",
    "rouge-score": "https://github.com/google-research/google-research/tree/master/rouge",
    "MATLAB rougeEvaluationScore": "https://www.mathworks.com/help/textanalytics/ref/rougeevaluationscore.html",
    "reval": "https://github.com/itsubaki/reval",
}


# --- numbers written out -------------------------------------------------------------------


def format_number(x: float) -> str:
    """A number as the app writes it: a whole number (a count) as an integer with thousands
    separators ("1,406"), any other to 4 decimals ("0.7403", "4,023.6541"); never in
    scientific notation (Python's "g" wrote 1004530 as "1.00453e+06")."""
    value = float(x)
    if value.is_integer():
        return f"{int(value):,}"
    return f"{value:,.4f}"


@dataclass(frozen=True)
class Fraction:
    """One ratio of a score, e.g. recall = hits / reference total (to the 1/w-th for ROUGE-W)."""

    symbol: str
    numerator: float
    denominator: float
    exponent: float = 1.0

    @property
    def value(self) -> float:
        return Stats(self.numerator, self.denominator, self.denominator, self.exponent).precision()

    def text(self) -> str:
        ratio = f"{format_number(self.numerator)} / {format_number(self.denominator)}"
        if self.exponent != 1.0:
            ratio = f"({ratio})^{format_number(self.exponent)}"
        return f"{self.symbol} = {ratio} = {self.value:.4f}"


@dataclass(frozen=True)
class Working:
    """Recall, precision and F written out, with the formulas beside them."""

    recall: Fraction
    precision: Fraction
    f_text: str
    recall_formula: str
    precision_formula: str
    f_formula: str
    score: Score


def working(stats: Stats, options: Options, rule: FMeasureRule | None = None) -> Working:
    """The working of `stats` under `options`, F by `rule` (the method family's `f_rule`; None:
    F_MEASURE, the options' α)."""
    rule = F_MEASURE if rule is None else rule
    recall = Fraction("R", stats.hits, stats.ref_total, stats.exponent)
    precision = Fraction("P", stats.hits, stats.cand_total, stats.exponent)
    result = score_from_stats(stats, options, rule)
    p, r = result.precision, result.recall
    a = rule.alpha(options)
    f_formula = rule.formula(options)
    if a is None:  # a rule of another form: its formula, then the value
        f_text = f"F({p:.4f}, {r:.4f}) = {result.fmeasure:.4f}"
    elif a == 0.5:
        f_text = f"F = 2·{p:.4f}·{r:.4f} / ({p:.4f} + {r:.4f}) = {result.fmeasure:.4f}"
    else:
        f_text = f"F = {p:.4f}·{r:.4f} / ({1 - a:g}·{p:.4f} + {a:g}·{r:.4f}) = {result.fmeasure:.4f}"
    if options.round_pr is not None:
        f_text += f"  (P and R rounded to {options.round_pr} decimals first, as ROUGE-1.5.5 does)"
    power = "" if stats.exponent == 1.0 else f", then to the power 1/w = {format_number(stats.exponent)}"
    return Working(
        recall,
        precision,
        f_text,
        f"R = matches / reference total{power}",
        f"P = matches / candidate total{power}",
        f_formula,
        result,
    )


# --- ROUGE-N -------------------------------------------------------------------------------


def ngram_table(cand: Sequence[str], ref: Sequence[str], n: int) -> list[dict]:
    """Every n-gram of either side: its count on each side and how many times it counts.

    The counted number is min(candidate count, reference count): the clipping that stops a
    candidate from scoring by repeating a word more often than the reference has it.
    """
    cand_counts, ref_counts = ngram_counts(cand, n), ngram_counts(ref, n)
    order = list(dict.fromkeys([*_grams_in_order(cand, n), *_grams_in_order(ref, n)]))
    rows = []
    for gram in order:
        c, r = cand_counts.get(gram, 0), ref_counts.get(gram, 0)
        counted = min(c, r)
        rows.append(
            {
                "n-gram": " ".join(gram) if isinstance(gram, tuple) else gram,
                "in candidate": c,
                "in reference": r,
                "counted": counted,
                "why": _clip_reason(c, r),
            }
        )
    return rows


def _grams_in_order(terms: Sequence[str], n: int) -> list:
    if n == 1:
        return list(terms)
    return [tuple(terms[i : i + n]) for i in range(len(terms) - n + 1)]


def _clip_reason(c: int, r: int) -> str:
    if c == 0:
        return "only in the reference: a missed n-gram (lowers recall)"
    if r == 0:
        return "only in the candidate: no match (lowers precision)"
    if c > r:
        return f"{c}× in the candidate but {r}× in the reference: counted {r}×, not {c}× (clipped)"
    if r > c:
        return f"{r}× in the reference but {c}× in the candidate: counted {c}×"
    return f"{c}× on both sides: counted {c}×"


def clipped_rows(rows: Sequence[dict]) -> list[dict]:
    """The rows where clipping changed something (the candidate repeats a gram too often)."""
    return [row for row in rows if row["in candidate"] > row["in reference"] > 0]


# --- ROUGE-L -------------------------------------------------------------------------------


def axis_labels(terms: Sequence[str]) -> list[str]:
    """Unique, ordered labels for a DP axis: "0 ·" for the empty prefix, then "1 the", ..."""
    return ["0 ·", *(f"{k} {t}" for k, t in enumerate(terms, start=1))]


def lcs_dp_cells(ref: Sequence[str], cand: Sequence[str]) -> list[dict]:
    """The LCS table in long form (one row per cell) with the traceback path marked.

    Rows run over reference prefixes (i), columns over candidate prefixes (j), as in
    rouge-score and ROUGE-1.5.5. `match` marks the diagonal steps that add an LCS token.
    """
    table = lcs_table(ref, cand)
    path = traceback_path(ref, cand, table)
    on_path = set(path)
    matched = set((i + 1, j + 1) for i, j in lcs_alignment(ref, cand, table))
    ref_labels, cand_labels = axis_labels(ref), axis_labels(cand)
    step = {cell: k for k, cell in enumerate(path)}
    cells = []
    for i in range(len(ref) + 1):
        for j in range(len(cand) + 1):
            cells.append(
                {
                    "i": i,
                    "j": j,
                    "reference": ref_labels[i],
                    "candidate": cand_labels[j],
                    "value": table[i][j],
                    "on_path": (i, j) in on_path,
                    "match": (i, j) in matched,
                    "step": step.get((i, j), -1),
                }
            )
    return cells


def union_lcs_walkthrough(cand: Document, ref: Document) -> dict:
    """Summary-level ROUGE-L step by step: per reference sentence, each candidate sentence's
    LCS, their union, and the hits; contrasted with summing LCS lengths and with reval's
    best-sentence form."""
    c_terms, r_terms = cand.terms, ref.terms
    stats, evidence = union_lcs(c_terms, cand.sentence_bounds, r_terms, ref.sentence_bounds, evidence=True)
    best_stats, best_evidence = best_sentence_lcs(c_terms, cand.sentence_bounds, r_terms, ref.sentence_bounds, evidence=True)
    cand_sentences = cand.sentence_terms()
    rows = []
    summed = 0
    for sentence in evidence.sentences:
        ra, rb = ref.sentence_bounds[sentence.ref_sentence]
        ref_sentence = r_terms[ra:rb]
        # the union's own alignments: per candidate sentence, the pairs of its LCS (the traceback scoring uses)
        aligned = dict(sentence.alignments)
        per_cand = [" ".join(r_terms[r] for _, r in aligned.get(c_index, ())) or "—" for c_index in range(len(cand_sentences))]
        lengths = sum(len(pairs) for pairs in aligned.values())
        summed += lengths
        rows.append(
            {
                "reference sentence": sentence.ref_sentence + 1,
                "words": " ".join(ref_sentence),
                "LCS with each candidate sentence": " | ".join(per_cand) if per_cand else "—",
                "sum of LCS lengths": lengths,
                "union": " ".join(r_terms[k] for k in sentence.union) or "—",
                "union hits": len(set(sentence.hits)),
            }
        )
    choices = [
        {
            "candidate sentence": c + 1,
            "words": " ".join(cand_sentences[c]),
            "best reference sentence": str(best + 1) if best >= 0 else "none",
            "LCS length": length,
        }
        for c, best, length in best_evidence.choices
    ]
    return {
        "rows": rows,
        "union_hits": stats.hits,
        "summed_lcs": summed,
        "best_sentence_hits": best_stats.hits,
        "best_sentence_choices": choices,
        "stats": stats,
        "best_sentence_stats": best_stats,
    }


# --- ROUGE-W -------------------------------------------------------------------------------


def weight_curve(w: float, k_max: int = 8) -> list[dict]:
    """f(k) = k^w next to plain k: how much a run of k consecutive matches is worth."""
    rows = []
    for k in range(0, k_max + 1):
        rows.append({"k": k, "value": weight(k, w), "curve": f"f(k) = k^{w:g}"})
        rows.append({"k": k, "value": float(k), "curve": "k (plain LCS)"})
    return rows


def w_runs(cand: Document, ref: Document, w: float) -> dict:
    """The consecutive runs of the weighted LCS and their weights, in both forms."""
    out = {}
    c_terms, r_terms = cand.terms, ref.terms
    paper_stats, paper_ev = wlcs_paper(c_terms, r_terms, w, evidence=True)
    script_stats, script_ev = wlcs_rouge155(c_terms, cand.sentence_bounds, r_terms, ref.sentence_bounds, w, evidence=True)
    for form, stats, ev in (("paper", paper_stats, paper_ev), ("rouge155", script_stats, script_ev)):
        out[form] = {
            "stats": stats,
            "runs": [
                {
                    "run": " ".join(r_terms[p] for p in run.ref_positions),
                    "length k": len(run.ref_positions),
                    "weight f(k)": run.weight,
                }
                for run in ev.runs
            ],
            "weighted_hits": ev.weighted_hits,
        }
    lengths = [b - a for a, b in ref.sentence_bounds]
    out["rouge155"]["ref_sentence_lengths"] = lengths
    return out


# --- ROUGE-S / SU --------------------------------------------------------------------------


def skip_bigrams(terms: Sequence[str], distance: int | None) -> list[dict]:
    """Every skip-bigram of a token list with at most `distance` tokens in the gap."""
    return [{"first": terms[i], "second": terms[j], "positions": f"{i + 1}–{j + 1}", "gap": j - i - 1}
            for i, j in skip_bigram_positions(len(terms), distance)]


def skip_bigram_table(cand: Sequence[str], ref: Sequence[str], distance: int | None) -> list[dict]:
    """Skip-bigram counts on each side and how many times each counts (clipped)."""
    c_counts, r_counts = skip_bigram_counts(cand, distance), skip_bigram_counts(ref, distance)
    rows = []
    for gram in dict.fromkeys([*c_counts, *r_counts]):
        c, r = c_counts.get(gram, 0), r_counts.get(gram, 0)
        rows.append({"skip-bigram": " … ".join(gram), "in candidate": c, "in reference": r, "counted": min(c, r)})
    return rows


def skip_growth(cand: Sequence[str], ref: Sequence[str], max_distance: int, *,
                cost_limit: CostLimit | None = None) -> list[dict]:
    """How the number of skip-bigrams (and matches) grows with the allowed gap (the whole
    walk checked against `cost_limit` first, as scoring is)."""
    raise_if_over(list(estimate_methods([method_name("S", d) for d in range(0, max_distance + 1)], len(cand), [len(ref)],
                                        evidence=False).values()), cost_limit)
    rows = []
    for d in range(0, max_distance + 1):
        stats, _ = skip_stats(cand, ref, d)
        rows += [
            {"distance": d, "count": stats.cand_total, "series": "candidate skip-bigrams"},
            {"distance": d, "count": stats.ref_total, "series": "reference skip-bigrams"},
            {"distance": d, "count": stats.hits, "series": "matches"},
        ]
    return rows


def su_comparison(cand: Sequence[str], ref: Sequence[str], distance: int | None, options: Options, *,
                  cost_limit: CostLimit | None = None) -> list[dict]:
    """ROUGE-S next to both SU forms: what adding unigrams does to the counts and scores (the
    three counts checked against `cost_limit` first, as scoring is)."""
    raise_if_over([estimate(method_name(family, distance), len(cand), [len(ref)], form, evidence=False)
                   for family, form in (("S", "rouge-score"), ("SU", "rouge-1.5.5"), ("SU", "matlab"))], cost_limit)
    rows = []
    forms = (
        ("S (skip-bigrams only)", None),
        ("SU, ROUGE-1.5.5 form (unigrams of all positions but the last)", "rouge155"),
        (f"SU, start-token form (prepend {START_TOKEN}; MATLAB)", "start-token"),
    )
    for label, form in forms:
        stats, _ = skip_stats(cand, ref, distance, form)
        result = score_from_stats(stats, options, FAMILIES["S" if form is None else "SU"].f_rule)
        rows.append(
            {
                "form": label,
                "matches": stats.hits,
                "candidate total": stats.cand_total,
                "reference total": stats.ref_total,
                "R": f"{format_number(stats.hits)} / {format_number(stats.ref_total)}",
                "P": f"{format_number(stats.hits)} / {format_number(stats.cand_total)}",
                "F": result.fmeasure,
            }
        )
    return rows


# --- multiple references -------------------------------------------------------------------

MODE_LABELS = {
    "pooled": "pooled (ROUGE-1.5.5 -f A)",
    "best-recall": "best by recall (ROUGE-1.5.5 -f B)",
    "best-f": "best by F (rouge-score score_multi)",
    "max": "max of P, R, F separately (MATLAB)",
    "mean": "mean over references",
}


def multi_reference(candidate, references: Sequence, method: str, options: Options) -> dict:
    """One method under every multi-reference mode, with the per-reference numbers behind it
    (scored once; each mode combines the same per-reference scores)."""
    method = parse_method(method, options)  # read under the user's profile (pooling below may leave it)
    base = score(candidate, list(references), [method], options.replace(multi_ref="pooled"), evidence=False)
    combined = base[method.name]
    per_reference = [
        {
            "reference": ref.index + 1,
            "matches": ref.stats.hits,
            "candidate total": ref.stats.cand_total,
            "reference total": ref.stats.ref_total,
            "P": ref.score.precision,
            "R": ref.score.recall,
            "F": ref.score.fmeasure,
        }
        for ref in combined.per_reference
    ]
    modes = []
    for mode in MULTI_REF_MODES:
        result = combine_references(combined.method, combined.per_reference, options.replace(multi_ref=mode),
                                    combined.signature)
        how = result.reason
        if result.stats is not None and mode == "pooled":
            w = working(result.stats, options, combined.method.spec.f_rule)
            how = f"{w.recall.text()}; {w.precision.text()} — {result.reason}"
        modes.append(
            {
                "mode": MODE_LABELS[mode],
                "P": result.precision,
                "R": result.recall,
                "F": result.fmeasure,
                "reference used": "all" if result.chosen is None or mode == "max" else str(result.chosen + 1),
                "how": how,
            }
        )
    return {"per_reference": per_reference, "modes": modes}


# --- tokenization ----------------------------------------------------------------------------

_TYPED_WORD = re.compile(r"\S+")


def tokenization_view(text: str, options: Options) -> list[dict]:
    """How the tokenizer under `options` reads the user's text, word by word as typed.

    One row per white-space-separated piece of the text: the piece as typed, its start and end
    (character offsets), the tokens made from it (after lower-casing, stopwords and stemming,
    exactly as scoring sees them), their offsets, and the characters of the piece that no
    token covers (punctuation, or letters a tokenizer drops, e.g. "é" under rouge155). A
    language written without spaces shows one piece per phrase, cut into its words. Rows are
    plain values: escape them before they reach HTML or Markdown.
    """
    doc = prepare(text, options)
    pieces = [(m.start(), m.end()) for m in _TYPED_WORD.finditer(text)]
    rows = []
    for (a, b), tokens in zip(pieces, tokens_by_word(doc.tokens, pieces)):
        covered = set()
        for token in tokens:
            covered.update(range(max(token.start, a), min(token.end, b)))
        rows.append({
            "as typed": text[a:b],
            "start": a,
            "end": b,
            "tokens": [t.term for t in tokens],
            "offsets": [(t.start, t.end) for t in tokens],
            "dropped": "".join(text[i] for i in range(a, b) if i not in covered),
        })
    return rows
