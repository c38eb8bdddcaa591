"""The Compare systems page's pieces: the ranking of every system (rouge_core.corpora.corpus.rank_systems),
computed once per choice in a session and estimated before it runs, and one document's summaries
with the evidence of one method."""

from __future__ import annotations

import streamlit as st

import rouge_core
from rouge_core.scorer import cost
from rouge_core.corpora.corpus import CorpusResult, rank_systems
from rouge_core.viz import highlight

from . import compute

_RANKING_KEY = "ranking_cache"

# The one test that decides, colours and words a difference on the Compare page. Ranking k systems makes
# k(k−1)/2 comparisons (28 for 8 systems): unadjusted, a false "significant" somewhere is likely, so the
# p-values are Holm-adjusted by default. Approximate randomization (the paired permutation test) is exact
# under its null hypothesis (the two systems' scores of a pair are exchangeable) and assumes nothing about
# their distribution, while the paired bootstrap's p-value runs low on few pairs (Riezler & Maxwell 2005);
# the bootstrap stays the right tool for the interval of a difference, which the chart draws, and where its
# interval says otherwise the page says so beside the declared verdict.
DECLARED_TEST = "approximate randomization"
WHY_DECLARED = ("Significance is decided by one test: approximate randomization (the paired permutation test, exact "
                "under the null hypothesis that a pair's two scores are exchangeable), its p-values Holm-adjusted for "
                "the k(k−1)/2 comparisons of k systems. The paired bootstrap gives the interval of each difference, "
                "drawn in the chart at the confidence 1 − α and not adjusted; where it says otherwise than the "
                "declared test, the other_test column and the chart's colour say so.")
def ranking_estimate(systems: int, pairs: int, resamples: int) -> cost.CostEstimate:
    """What ranking costs (rouge_core.scorer.cost.paired_tests_estimate): k(k−1)/2 comparisons, each
    two tests of `resamples` over the pairs."""
    return cost.paired_tests_estimate(pairs, resamples, systems * (systems - 1) // 2)


def interval_confidence(alpha: float) -> float:
    """The bootstrap intervals' confidence that matches the test's level: 100 · (1 − α)."""
    return round(100 * (1 - alpha), 10)


def ranking_for(results: dict[str, CorpusResult], method: str, resamples: int, seed: int, alpha: float,
                correction: str, test: str = DECLARED_TEST):
    """`rank_systems` once per choice in this session, with a progress bar while it runs; the
    intervals at the confidence matching α."""
    confidence = interval_confidence(alpha)
    cache = st.session_state.setdefault(_RANKING_KEY, {})
    key = (tuple((s, id(r)) for s, r in results.items()), method, resamples, seed, alpha, test, correction, confidence)
    if key not in cache:
        bar = st.progress(0.0, text="Comparing every pair of systems…")

        def progress(done: int, total: int) -> None:
            if done % max(1, total // 100) == 0 or done == total:
                bar.progress(done / total, text=f"Comparing every pair of systems: {done:,} of {total:,} resamples")

        if len(cache) >= 4:
            cache.pop(next(iter(cache)))
        # the page estimated it first (`ranking_estimate`) and asked when above the bound
        cache[key] = rank_systems(results, method, resamples=resamples, seed=seed, alpha=alpha, test=test,
                                  correction=correction, confidence=confidence, progress=progress,
                                  cost_limit=rouge_core.UNBOUNDED)
        bar.empty()
    return cache[key]


def not_comparable(corpus, results: dict[str, CorpusResult]) -> str:
    """Why the page cannot compare yet ("" when it can), judged on the loaded corpus first: a corpus
    of several systems loaded but not scored yet asks for scoring, not for more systems."""
    if corpus is None:
        return ""  # nothing loaded: the loader says what to load
    if len(corpus.systems) < 2:
        return "Only one system is loaded; comparing needs two or more candidate columns or files."
    if len(results) < 2 or set(results) != set(corpus.systems):
        return f"{len(corpus.systems)} systems are loaded: score them to compare them."
    return ""


def candidate_evidence(candidate: str, references: tuple[str, ...], method: str,
                       options: rouge_core.Options) -> tuple[str, int | None, str]:
    """The candidate as HTML with `method`'s evidence against the reference the method chose,
    as its family's evidence is drawn (rouge_core.viz.highlight.candidate_view): matched
    n-grams (ROUGE-N), the LCS alignment (L), the union LCS per reference sentence (Lsum), the
    weighted runs (W); for a family whose evidence has no such view (the skip-bigram methods,
    whose evidence is a table), the matched words. Returns the HTML, the reference's index
    (None: pooled over all references) and a note on what is marked."""
    method_score = compute.scores(candidate, references, (method,), options)[method]
    ref_index = method_score.chosen
    family = rouge_core.parse_method(method).spec
    viewed = highlight.has_candidate_view(family.evidence)
    shown = method if viewed else "rouge1"
    result = compute.evidence(candidate, references[ref_index or 0], shown, options)
    evidence = result[shown].per_reference[0].evidence
    html, note = highlight.candidate_view(evidence, result.candidate, result.references[0])
    if not viewed:
        note = (f"matched words marked (the {family.unit or 'evidence'} of {family.title} are a table: open the "
                "summary on the Score page)")
    return html, ref_index, note
