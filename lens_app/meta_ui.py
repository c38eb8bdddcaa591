"""The "Which ROUGE agrees with your annotators?" page's computations: the corpus scored under
every ROUGE variant (profile × stemming) and method, and the correlation of each with the human
scores at both levels (rouge_core.meta). Results are kept per session and per choice, so a
rerun pays only for what changed."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import pandas as pd
import streamlit as st

from rouge_core import cost, meta
from rouge_core.corpus import score_corpus
from rouge_core.corpus_io import Corpus
from rouge_core.version import __version__

from .markup import md

ASK_ABOVE_SECONDS = 10.0  # the correlation table (every variant, both levels) runs in one go up to this, then asks
_SCORED_KEY = "_meta_scored"  # (fingerprint, methods, variants, measure) -> VariantScores
_TABLES_KEY = "_meta_tables"
ESTIMATE_SAMPLE = 500  # pairs whose cost is estimated; a larger corpus is scaled from them


@dataclass(frozen=True)
class VariantScores:
    """Every method's per-pair scores under one variant: {method: {(system, pair id): score}}."""

    variant: meta.Variant
    scores: dict[str, dict]
    signatures: dict[str, str]


def estimated_seconds(corpus: Corpus, methods: Sequence[str], variant_count: int) -> float:
    """About how long scoring every system under every variant takes (from token counts; a
    sample of the pairs stands for a large corpus)."""
    n = len(corpus)
    if n == 0:
        return 0.0
    step = max(1, n // ESTIMATE_SAMPLE)
    sampled = range(0, n, step)
    seconds = 0.0
    for i in sampled:
        refs = [len(r.split()) for r in corpus.references[i]]
        for candidates in corpus.systems.values():
            seconds += sum(cost.estimate(m, len(candidates[i].split()), refs, "rouge-score", evidence=False).seconds
                           for m in methods)
    return seconds * (n / len(sampled)) * variant_count


def score_variants(corpus: Corpus, methods: Sequence[str], variants: Sequence[meta.Variant],
                   measure: str = "fmeasure") -> list[VariantScores]:
    """The corpus scored under each variant (once per choice in this session), with a progress bar."""
    cache = st.session_state.setdefault(_SCORED_KEY, {})
    key = (corpus.fingerprint(), tuple(methods), tuple(variants), measure)
    if key in cache:
        return cache[key]
    total = len(variants) * len(corpus.systems)
    bar = st.progress(0.0, text="Scoring every variant…")
    out = []
    for v_index, variant in enumerate(variants):
        results = {}
        for s_index, (system, candidates) in enumerate(corpus.systems.items()):
            done = v_index * len(corpus.systems) + s_index
            bar.progress(done / total, text=f"Scoring {md(system)} under {md(variant.label)} ({done + 1} of {total})")
            results[system] = score_corpus(list(candidates), list(corpus.references), methods, variant.options,
                                           ids=list(corpus.ids))
        first = next(iter(results.values()))
        out.append(VariantScores(variant, {m: meta.metric_scores(results, m, measure) for m in first.methods},
                                 dict(first.signatures)))
    bar.empty()
    cache.clear()  # one scoring kept: a corpus scored under every variant can be large
    cache[key] = out
    return out


def metric_label(method: str, variant: meta.Variant) -> str:
    return f"{method} · {variant.label}"


def correlation_table(scored: Sequence[VariantScores], human: dict, method: str, variant: str | None, *,
                      bootstrap: int, seed: int, confidence: float, resample: str,
                      progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """One row per ROUGE method and variant: the summary- and system-level coefficient with
    their intervals, sorted by the summary level (best first)."""
    rows = []
    jobs = [(vs, m) for vs in scored for m in vs.scores]
    for done, (vs, m) in enumerate(jobs, 1):
        row = {"method": m, "profile": vs.variant.profile, "stemmer": vs.variant.stemmer,
               "variant": metric_label(m, vs.variant)}
        for level in meta.LEVELS:
            c = meta.correlate(vs.scores[m], human, level, method, variant, bootstrap=bootstrap, seed=seed,
                               confidence=confidence, resample=resample)
            row[level] = c.value
            if bootstrap:
                row[f"{level}_low"], row[f"{level}_high"] = c.low, c.high
            if level == "summary":
                row["documents"], row["left_out"] = c.averaged, len(c.left_out)
            else:
                row["systems"], row["items"] = c.averaged, c.items
        row["signature"] = vs.signatures[m]
        rows.append(row)
        if progress is not None:
            progress(done, len(jobs))
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    return frame.sort_values(["summary", "system"], ascending=False, na_position="last", kind="stable",
                             ignore_index=True)


def cached_table(key: tuple, compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
    """`compute()` once per key in this session (the last few kept)."""
    tables = st.session_state.setdefault(_TABLES_KEY, {})
    if key not in tables:
        if len(tables) >= 8:
            tables.pop(next(iter(tables)))
        tables[key] = compute()
    return tables[key]


def chart_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The table in long form for meta_charts.correlations_chart: variant, level, value, low, high."""
    rows = []
    for _, row in table.iterrows():
        for level in meta.LEVELS:
            rows.append({"variant": row["variant"], "level": level, "value": row[level],
                         "low": row.get(f"{level}_low", math.nan), "high": row.get(f"{level}_high", math.nan)})
    return pd.DataFrame(rows)


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


# Seconds per element of the resampled arrays (measured on 2 busy cores: 16 systems × 100 documents,
# 1,000 resamples of both, take about 0.7 s for Pearson and 6.5 s for Kendall).
_SECONDS_PER_ELEMENT = {"pearson": 2e-7, "spearman": 2.5e-7, "kendall": 2.5e-7}


def correlation_seconds(systems: int, documents: int, metrics: int, bootstrap: int, method: str,
                        resample: str) -> float:
    """About how long the table's correlations take: every metric at both levels, each
    resample recomputing its coefficients (resampling documents at the summary level reuses
    each document's coefficient)."""
    per = _SECONDS_PER_ELEMENT[method]
    pairwise = systems if method != "pearson" else 1
    resamples = max(bootstrap, 1)
    summary = documents * systems * pairwise * per * (1 if resample == "documents" else resamples)
    system = resamples * (systems * documents * 2e-8 + systems * pairwise * per)
    return metrics * (summary + system)
