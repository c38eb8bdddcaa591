"""The "Which ROUGE agrees with your annotators?" page's computations: the corpus scored under
every ROUGE variant (profile × stemming) and method, and the correlation of each with the human
scores at both levels (rouge_core.studies.meta). Results are kept per session and per choice, so a
rerun pays only for what changed."""

from __future__ import annotations

import math
from typing import Callable, Sequence

import pandas as pd
import streamlit as st

from rouge_core.scorer import cost
from rouge_core.studies import meta
from rouge_core.corpora.corpus_io import Corpus, CorpusError
from rouge_core.version import __version__

from .markup import md, md_list

_SCORED_KEY = "_meta_scored"  # (fingerprint, methods, variants, measure) -> [meta.VariantScores]
_TABLES_KEY = "_meta_tables"
_ESTIMATES_KEY = "_meta_estimates"
VariantScores = meta.VariantScores


def scoring_estimates(corpus: Corpus, methods: Sequence[str], variants: Sequence[meta.Variant]
                      ) -> list[tuple[meta.Variant, cost.CostEstimate]]:
    """What scoring every system under each variant costs, each under its own profile and on the
    path its texts take (rouge_core.scorer.cost.estimate_corpus: each document's references tokenized
    once per variant, as `meta.score_variants` does), kept per choice in this session."""
    cache = st.session_state.setdefault(_ESTIMATES_KEY, {})
    key = (corpus.fingerprint(), tuple(methods), tuple(variants))
    if key not in cache:
        if len(cache) >= 8:
            cache.pop(next(iter(cache)))
        cache[key] = [(v, cost.estimate_corpus(corpus.systems, corpus.references, methods, v.options,
                                               shared_references=True)) for v in variants]
    return cache[key]


def scoring_in_words(estimates: Sequence[tuple[meta.Variant, cost.CostEstimate]]) -> str:
    """The estimate of scoring every variant, and the costliest variant's share of it."""
    whole = cost.total([e for _, e in estimates], "every variant")
    costliest, estimate = max(estimates, key=lambda ve: ve[1].seconds)
    head = cost.approximately(whole.seconds)
    if len(estimates) > 1 and estimate.seconds > 0.25 * whole.seconds:
        head += f" ({md(costliest.label)}: {cost.format_seconds(estimate.seconds)})"
    return head


def score_variants(corpus: Corpus, methods: Sequence[str], variants: Sequence[meta.Variant],
                   measure: str = "fmeasure") -> list[meta.VariantScores]:
    """The corpus scored under each variant (rouge_core.studies.meta.score_variants: each text tokenized
    once per variant), once per choice in this session, with a progress bar."""
    cache = st.session_state.setdefault(_SCORED_KEY, {})
    key = (corpus.fingerprint(), tuple(methods), tuple(variants), measure)
    if key in cache:
        return cache[key]
    systems = len(corpus.systems)
    bar = st.progress(0.0, text="Scoring every variant…")

    def progress(done: int, total: int) -> None:
        variant = variants[min((done - 1) // max(systems, 1), len(variants) - 1)]
        bar.progress(done / total, text=f"Scoring under {md(variant.label)} ({done} of {total} system scorings)")

    out = meta.score_variants(corpus.systems, corpus.references, corpus.ids, methods, variants, measure,
                              progress=progress)
    bar.empty()
    cache.clear()  # one scoring kept: a corpus scored under every variant can be large
    cache[key] = out
    return out


def metric_label(method: str, variant: meta.Variant) -> str:
    return f"{method} · {variant.label}"


def correlation_table(scored: Sequence[VariantScores], human: dict, method: str, variant: str | None, *,
                      bootstrap: int, seed: int, confidence: float, resample: str, level: str = "summary",
                      progress: Callable[[int, int], None] | None = None) -> tuple[pd.DataFrame, meta.MetricRanking]:
    """One row per ROUGE method and variant: the summary- and system-level coefficient with
    their intervals, and the ranking at `level` (rouge_core.studies.meta.rank_metrics): the variants
    computed on the same documents first, best first, each with its coverage and its test
    against the best; then the variants computed on other (fewer) documents, with why."""
    metrics = {metric_label(m, vs.variant): vs.scores[m] for vs in scored for m in vs.scores}
    origin = {metric_label(m, vs.variant): (vs, m) for vs in scored for m in vs.scores}
    if not metrics:
        return pd.DataFrame(), meta.rank_metrics({}, human, level, method, variant, resamples=0)
    # every map as an array over one index, converted once for every computation below
    *tables, human = meta.score_tables(*metrics.values(), human)
    metrics = dict(zip(metrics, tables))
    other = next(lv for lv in meta.LEVELS if lv != level)
    steps = 2 * len(metrics)  # the ranking (as many steps as metrics), then the other level per metric

    def ranking_progress(done: int, total: int) -> None:
        if progress is not None:
            progress(max(1, round(done / total * len(metrics))), steps)

    # the page asked before it runs (`correlation_estimate` against the bound), so no bound here
    ranking = meta.rank_metrics(metrics, human, level, method, variant, resamples=bootstrap, seed=seed,
                                confidence=confidence, resample=resample, progress=ranking_progress,
                                cost_limit=cost.UNBOUNDED)
    at_others = meta.correlate_many(metrics, human, other, method, variant, bootstrap=bootstrap, seed=seed,
                                    confidence=confidence, resample=resample, cost_limit=cost.UNBOUNDED)
    rows = []
    for position, ranked in enumerate((*ranking.ranked, *ranking.apart), 1):
        vs, m = origin[ranked.name]
        at_level = ranked.correlation
        at_other = at_others[ranked.name]
        cov = ranked.coverage
        row = {"rank": position if ranked.verdict != meta.APART else None, "variant": ranked.name,
               "vs_best": ranked.verdict, "coverage": cov.fraction}
        for c in sorted((at_level, at_other), key=lambda c: meta.LEVELS.index(c.level)):
            row[c.level] = c.value
            if bootstrap:
                row[f"{c.level}_low"], row[f"{c.level}_high"] = c.low, c.high
        if bootstrap:
            row.update(best_minus_this=ranked.difference, difference_low=ranked.low, difference_high=ranked.high,
                       p_value=ranked.p_value, adjusted_p=ranked.adjusted_p)
        row.update({"documents_used": len(cov.documents_used), "documents_judged": len(cov.documents_judged),
                    "missing": cov.missing, "why_missing": cov.why(), "systems": at_level.systems,
                    "items": cov.summaries_used, "method": m, "profile": vs.variant.profile,
                    "stemmer": vs.variant.stemmer, "signature": vs.signatures[m]})
        rows.append(row)
        if progress is not None:
            progress(len(metrics) + position, steps)
    return pd.DataFrame(rows), ranking


def tests_estimate(systems: int, documents: int, resamples: int, method: str, level: str,
                   resample: str) -> cost.CostEstimate:
    """What `meta.compare_correlations` costs: the paired bootstrap (resampling `resample`) and the
    permutation test (every permutation recomputes both coefficients) of two metrics."""
    return cost.total([cost.correlation_estimate(systems, documents, 2, resamples, method, level, resample),
                       cost.correlation_estimate(systems, documents, 2, resamples, method, level, "both")],
                      "the two tests")


def cached_table(key: tuple, compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
    """`compute()` once per key in this session (the last few kept)."""
    tables = st.session_state.setdefault(_TABLES_KEY, {})
    if key not in tables:
        if len(tables) >= 8:
            tables.pop(next(iter(tables)))
        tables[key] = compute()
    return tables[key]


def chart_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The table in long form for meta_charts.correlations_chart: variant, level, value, low,
    high and the variant's standing against the best (vs_best)."""
    rows = []
    for _, row in table.iterrows():
        for level in meta.LEVELS:
            rows.append({"variant": row["variant"], "level": level, "value": row[level],
                         "low": row.get(f"{level}_low", math.nan), "high": row.get(f"{level}_high", math.nan),
                         "vs_best": row["vs_best"]})
    return pd.DataFrame(rows)


def ranked_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The variants ranked (computed on the same documents)."""
    return table[table["vs_best"] != meta.APART] if not table.empty else table


def apart_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The variants computed on other or fewer documents, kept out of the ranking."""
    return table[table["vs_best"] == meta.APART] if not table.empty else table


def signature(fingerprint: str, human_source: str, aspect: str, annotators: int, coefficient: str, bootstrap: int,
              seed: int, confidence: float, resample: str, measure: str) -> str:
    """The export's signature: what was correlated with what, and how (each row also carries
    its ROUGE variant's own signature)."""
    interval = f"resamples:{bootstrap}|seed:{seed}|confidence:{confidence:g}|resample:{resample}" if bootstrap \
        else "resamples:0"
    return (f"meta|corpus:{fingerprint}|human:{human_source}|aspect:{aspect or '-'}|annotators:{annotators}|"
            f"coefficient:{coefficient}|measure:{measure}|{interval}|v:{__version__}")


def difference_in_words(label_a: str, label_b: str, level: str, coefficient: str,
                        tests: Sequence[meta.CorrelationDifference], alpha: float = 0.05) -> str:
    """Two variants' correlations compared, in words: which agrees better with the humans, by
    how much (with the paired bootstrap's interval), and what the tests say."""
    first = tests[0]
    d = first.difference
    if d == 0:
        head = f"At the {level} level, {label_a} and {label_b} have the same {coefficient} ({first.value_a:.4f})."
    else:
        higher, lower = (label_a, label_b) if d > 0 else (label_b, label_a)
        interval = next((t for t in tests if t.low is not None), None)
        spread = (f"; {interval.confidence:g}% interval of the difference {label_a} − {label_b}: "
                  f"{interval.low:+.4f} to {interval.high:+.4f}") if interval is not None else ""
        head = (f"At the {level} level, {higher} agrees better with the humans than {lower}: {coefficient} "
                f"{max(first.value_a, first.value_b):.4f} against {min(first.value_a, first.value_b):.4f} "
                f"(difference {abs(d):.4f}{spread}).")
    said = ", ".join(f"{t.test} p = {t.p_value:.4g}" for t in tests)
    significant = [t.p_value < alpha for t in tests]
    if all(significant):
        verdict = f"Every test finds the difference significant at the {alpha:g} level ({said})."
    elif not any(significant):
        verdict = (f"No test finds the difference significant at the {alpha:g} level ({said}): these judgements do "
                   "not show that one variant agrees better.")
    else:
        verdict = (f"The tests disagree at the {alpha:g} level ({said}); treat the difference as uncertain.")
    return f"{head} {verdict}"


def correlation_estimate(systems: int, documents: int, metrics: int, bootstrap: int, method: str, level: str,
                         resample: str) -> cost.CostEstimate:
    """What `correlation_table` costs (rouge_core.scorer.cost.correlation_estimate): the ranking at
    `level` with its resamples, and every metric's correlation at the other level."""
    other = next(lv for lv in meta.LEVELS if lv != level)
    return cost.total([cost.correlation_estimate(systems, documents, metrics, bootstrap, method, level, resample),
                       cost.correlation_estimate(systems, documents, metrics, bootstrap, method, other, resample)],
                      "the correlations")


# --- the judgements' system names against the corpus's ---------------------------------------------------

NOT_IN_CORPUS = ""  # the mapping control's choice "this judgement system is not in the corpus"
LISTED = 20  # names listed in a message before "and N more"


def names_in_words(names: Sequence[str], listed: int = LISTED) -> str:
    """User names escaped for Markdown, the first `listed` of them, then how many more."""
    shown = ", ".join(md(n) for n in names[:listed])
    return shown + (f" and {len(names) - listed:,} more" if len(names) > listed else "")


def match_systems(judgements: meta.HumanJudgements, corpus_systems: Sequence[str],
                  key: str) -> tuple[meta.HumanJudgements, meta.SystemMatch]:
    """The judgements with their systems named as the corpus names them: exact names, then the
    corpus's column suffixes (rouge_core.studies.meta.match_systems), then the user's choices. When a
    judgement system is not an exact corpus name, an expander lists both sides' names and offers
    a choice of corpus system per judgement system (its widgets keyed by `key` and the name)."""
    judged = judgements.systems()
    automatic = meta.match_systems(judged, corpus_systems)
    to_choose = [j for j in judged if automatic.how.get(j) != meta.EXACT]
    if not to_choose:
        return judgements, automatic
    options = [NOT_IN_CORPUS, *corpus_systems]
    unresolved = len(automatic.unmatched)
    title = (f"System names: {unresolved:,} of the judgements' {len(judged):,} systems are not matched to this corpus"
             if unresolved else f"System names: the judgements' {len(judged):,} systems matched to this corpus's")
    chosen: dict[str, str | None] = {}
    with st.expander(title, expanded=bool(unresolved), icon=":material/link:"):
        st.caption("A judgement's system is the corpus system of the same name, else the one whose column is named "
                   "after it (`M0` is the system of column `candidate_M0`); choose the others here.")
        columns = st.columns(min(4, len(to_choose)))
        for i, j in enumerate(to_choose):
            default = automatic.mapping.get(j, NOT_IN_CORPUS)
            picked = columns[i % len(columns)].selectbox(
                md(j), options, index=options.index(default), key=f"{key}_{j}",
                format_func=lambda c: "(not in this corpus)" if c == NOT_IN_CORPUS else c)
            if picked != default:
                chosen[j] = picked or None
        try:
            match = meta.match_systems(judged, corpus_systems, chosen)
        except ValueError as e:
            st.error(md(e))
            st.stop()
        st.dataframe(pd.DataFrame([{"judgement system": j, "corpus system": match.mapping.get(j, "(not in this corpus)"),
                                    "matched by": match.how.get(j, "not matched")} for j in judged]),
                     hide_index=True, key=f"{key}_table")
        if match.unjudged:
            st.caption(f"Corpus systems no judgement names: {names_in_words(match.unjudged)}.")
        for j, candidates in match.ambiguous.items():
            st.caption(f"{md(j)} is the column suffix of several corpus systems ({names_in_words(candidates)}): "
                       "choose one.")
    return _renamed(judgements, match.renames), match


_RENAMED_KEY = "_meta_renamed"


def _renamed(judgements: meta.HumanJudgements, renames: dict) -> meta.HumanJudgements:
    """judgements.renamed(renames), kept for the same judgements object (thousands of rows are
    not copied again on every rerun)."""
    if not renames:
        return judgements
    kept = st.session_state.get(_RENAMED_KEY)
    key = tuple(sorted(renames.items()))
    if kept is not None and kept[0] is judgements and kept[1] == key:
        return kept[2]
    renamed = judgements.renamed(renames)
    st.session_state[_RENAMED_KEY] = (judgements, key, renamed)
    return renamed


def systems_left_out(match: meta.SystemMatch, corpus_systems: Sequence[str], scores_left_out: int) -> str:
    """The warning when judgements name systems the corpus does not have: which, how many of
    this aspect's scores that leaves out, and the corpus's own names."""
    return (f"The judgements name {len(match.unmatched):,} system(s) this corpus does not have: "
            f"{names_in_words(match.unmatched)}. Their scores are left out ({scores_left_out:,} under this aspect). "
            f"This corpus's systems are: {names_in_words(corpus_systems)}. Choose which corpus system each one is "
            "under “System names” above.")


# --- importing judgements ---------------------------------------------------------------------------------

JUDGEMENT_FILE_TYPES = ["csv", "tsv", "jsonl", "ndjson", "json", "pkl", "gz"]


@st.cache_resource(max_entries=4, show_spinner=False)  # read-only: one object, not a copy per rerun
def read_judgements(data: bytes, name: str, include_automatic: bool = False) -> meta.HumanJudgements:
    return meta.read_judgements(data, name, include_automatic=include_automatic)


def _import(imported_key: str, data: bytes, name: str, include_automatic: bool) -> None:
    try:
        st.session_state[imported_key] = read_judgements(data, name, include_automatic)
    except CorpusError as e:
        st.error("**These judgements could not be read.**\n\n" + "\n".join(f"- {md(p)}" for p in e.problems))


def judgements_import(imported_key: str, expanded: bool, corpus_file: tuple[str, bytes] | None,
                      upload_mb: int) -> None:
    """The "Import judgements from a file" section: a table of judgements, or the released
    files of SummEval, sacrerouge and REALSumm recognised by their content; when the corpus was
    read from such a file, its human scores in one click. What was recognised and read, and what
    was left out, is said; the imported judgements are kept under `imported_key`."""
    with st.expander("Import judgements from a file", expanded=expanded, key="meta_import_open", on_change="rerun"):
        st.caption("CSV, TSV, JSON lines or JSON with one row per system, document and annotator: columns `system`, "
                   "`doc_id` (the corpus's ids), `score`, and optionally `annotator` and `aspect` (e.g. coherence, "
                   "consistency, fluency, relevance). Recognised by their content: SummEval's "
                   "`model_annotations.aligned…jsonl` (expert and turker scores of each aspect), sacrerouge's "
                   "`metrics.jsonl` and REALSumm's scores dicts (`abs.pkl`, `ext.pkl`, read as plain data without "
                   "running code, or their JSON: `litepyramid_recall`), gzip-compressed or not. The human score of a "
                   "summary is the mean over its annotators.")
        automatic = st.checkbox("Also read the automatic metrics' scores these files carry (ROUGE, BERTScore, …) as "
                                "aspects", key="meta_import_automatic",
                                help="They are a metric's scores, not human judgements: left out unless asked for.")
        if corpus_file is not None:
            name, data = corpus_file
            if st.button(f"Use the human scores in {md(name)}, the corpus's file", key="meta_import_corpus_file",
                         icon=":material/rate_review:"):
                _import(imported_key, data, name, automatic)
        upload = st.file_uploader("Judgements file", type=JUDGEMENT_FILE_TYPES, key="meta_judgements_file",
                                  max_upload_size=upload_mb)
        if upload is not None:
            _import(imported_key, upload.getvalue(), upload.name, automatic)
        imported = st.session_state.get(imported_key)
        if imported is not None:
            st.caption(f"Imported: **{md(imported.source)}**, {len(imported):,} scores from "
                       f"{len(imported.annotators()):,} annotator(s), aspects: {md_list(imported.aspects()) or '(none)'}")
            if imported.recognised:
                st.info(md(imported.recognised), icon=":material/fact_check:")
            for warning in imported.warnings[:10]:
                st.caption(md(warning))
            if st.button("Forget the imported judgements", key="meta_forget"):
                del st.session_state[imported_key]
                st.rerun()
