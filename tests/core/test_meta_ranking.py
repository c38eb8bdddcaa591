"""rouge_core.studies.meta: variants ranked only on the same documents (coverage, rank_metrics, the
paired bootstrap against the best) and the judgements' system names matched to a corpus's
(column_suffix, match_systems, HumanJudgements.renamed)."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rouge_core.studies import meta
from rouge_core.corpora.significance import holm
from tests.fuzzing import FUZZ, fuzz

SYSTEMS = [f"S{i}" for i in range(5)]
DOCS = [f"d{j}" for j in range(10)]


def judged(seed: int = 0) -> dict:
    rng = random.Random(seed)
    return {(s, d): float(rng.randint(1, 5)) for s in SYSTEMS for d in DOCS}


def noisy(human: dict, spread: float, seed: int) -> dict:
    rng = random.Random(seed)
    return {k: v + rng.gauss(0, spread) for k, v in human.items()}


def test_a_metric_computed_on_fewer_documents_is_kept_apart_whatever_its_correlation():
    human = judged()
    good, fair, noise = noisy(human, 1.0, 1), noisy(human, 1.5, 2), noisy(human, 20.0, 3)
    # perfect where it has scores, but none on 6 of the 10 documents
    thin = {k: (v if k[1] in DOCS[:4] else math.nan) for k, v in human.items()}
    ranking = meta.rank_metrics({"thin": thin, "good": good, "fair": fair, "noise": noise}, human, "summary",
                                "kendall", "b", resamples=300, seed=2)
    assert [r.name for r in ranking.apart] == ["thin"] and ranking.apart[0].verdict == meta.APART
    assert ranking.apart[0].correlation.value == 1.0 and ranking.best.correlation.value < 1.0
    cov = ranking.apart[0].coverage
    assert (cov.fraction, cov.missing, cov.unscored, cov.unscored_documents) == ("4 / 10", 6, 30, tuple(DOCS[4:]))
    assert cov.why() == ("6 documents where the variant gives no score to a summary (30 judged summaries in all have "
                         "nothing to count under it, e.g. a summary too short for its units)")
    values = {r.name: r.correlation.value for r in ranking.ranked}
    assert [r.name for r in ranking.ranked] == sorted(values, key=lambda n: -values[n])
    assert all(r.coverage.fraction == "10 / 10" for r in ranking.ranked)
    # each ranked metric's interval is correlate()'s, its test bootstrap_difference()'s, Holm-adjusted
    scores = {"good": good, "fair": fair, "noise": noise}
    best = ranking.best.name
    raw = []
    for r in ranking.ranked:
        c = meta.correlate(scores[r.name], human, "summary", "kendall", "b", bootstrap=300, seed=2)
        assert (r.correlation.value, r.correlation.low, r.correlation.high) == (c.value, c.low, c.high)
        if r.name != best:
            t = meta.bootstrap_difference(scores[best], scores[r.name], human, "summary", "kendall", "b",
                                          resamples=300, seed=2)
            assert (r.difference, r.low, r.high, r.p_value) == (t.difference, t.low, t.high, t.p_value)
            raw.append(t.p_value)
    assert [r.adjusted_p for r in ranking.ranked[1:]] == holm(raw)
    assert [r.verdict for r in ranking.ranked[1:]] == [meta.TIED if q >= 0.05 else meta.WORSE for q in holm(raw)]
    thin_alone = meta.correlate(thin, human, "summary", "kendall", "b", bootstrap=300, seed=2)
    assert (ranking.apart[0].correlation.low, ranking.apart[0].correlation.high) == (thin_alone.low, thin_alone.high)


def test_the_summary_names_the_best_the_test_and_its_level():
    human = judged()
    metrics = {"good": noisy(human, 0.3, 1), "close": noisy(human, 0.35, 2), "noise": noisy(human, 30.0, 3)}
    ranking = meta.rank_metrics(metrics, human, "summary", "pearson", None, resamples=200, seed=0, confidence=90)
    assert ranking.alpha == 0.1 and ranking.tied_with_best() == ["close"]
    best = ranking.best.correlation
    assert ranking.summary() == (
        f"Highest summary-level Pearson r: good, {best.value:.4f} (90% interval {best.low:.4f} to {best.high:.4f}), "
        "on 10 of 10 judged documents. Statistically indistinguishable from it by the paired bootstrap of the "
        "difference in Pearson r over 200 resamples of the documents, seed 0, two-sided, Holm-adjusted over 2 "
        "comparisons with the best, α = 0.1: close. Significantly worse: noise.")
    untested = meta.rank_metrics(metrics, human, "system", "pearson", None, resamples=0)
    assert untested.summary().endswith("Set the resamples above 0 to test which of the other 2 ranked variants are "
                                       "statistically indistinguishable from it.")
    assert {r.verdict for r in untested.ranked[1:]} == {meta.UNTESTED} and untested.best.correlation.low is None
    same = meta.rank_metrics({"a": metrics["good"], "b": dict(metrics["good"])}, human, resamples=50)
    assert same.ranked[1].p_value == 1.0 and "do not single out a best variant" in same.summary()
    assert same.summary().startswith("Highest summary-level Pearson r: ") and ", shared by 2 variants (a and b), " \
        "on 10 of 10 judged documents." in same.summary()  # an exact tie crowns neither


def test_why_documents_are_missing():
    human = judged()
    human.update({(s, "d9"): 3.0 for s in SYSTEMS})  # the humans tie on d9: no metric can use it
    metric = noisy(human, 1.0, 4)
    metric.update({(s, "d0"): 0.5 for s in SYSTEMS})  # the metric ties on d0
    cov = meta.coverage(metric, human, "summary", "spearman")
    assert (cov.fraction, cov.tied_documents, cov.human_tied_documents) == ("8 / 10", ("d0",), ("d9",))
    assert cov.why() == ("1 document where it gives every system the same score (the correlation there is "
                         "undefined); 1 document where the humans gave every system the same score or judged fewer "
                         "than two systems (missing for every variant)")
    # at the system level every document is used (system means)
    assert meta.coverage(metric, human, "system", "spearman").fraction == "10 / 10"
    flat = {k: 1.0 for k in human}
    cov = meta.coverage(flat, human, "system")
    assert cov.fraction == "0 / 10" and cov.why().startswith("every system has the same mean score under this variant")
    humans_tie = meta.coverage(metric, {k: 2.0 for k in human}, "system")
    assert humans_tie.why() == "the humans give every system the same mean score (undefined for every variant)"
    # a metric with no score at all is apart, with every document missing
    ranking = meta.rank_metrics({"none": {}, "m": metric}, human, resamples=0)
    assert [r.name for r in ranking.apart] == ["none"] and ranking.apart[0].coverage.missing == 10


@fuzz
@FUZZ
@given(st.lists(st.lists(st.sampled_from([math.nan, 0.0, 0.25, 0.5, 1.0]), min_size=12, max_size=12),
                min_size=1, max_size=5),
       st.lists(st.integers(1, 5), min_size=12, max_size=12), st.sampled_from(meta.LEVELS))
def test_no_metric_on_fewer_documents_is_ever_ranked(metric_cells, human_cells, level):
    """Whatever holes and ties the metrics have, the ranked ones share their documents, and no
    metric kept apart is computed on more documents than they are."""
    keys = [(s, d) for s in ("A", "B", "C") for d in ("x", "y", "z", "w")]
    human = dict(zip(keys, map(float, human_cells)))
    metrics = {f"m{i}": {k: v for k, v in zip(keys, cells) if not math.isnan(v)} for i, cells in enumerate(metric_cells)}
    ranking = meta.rank_metrics(metrics, human, level, "kendall", "b", resamples=0)
    assert len(ranking.ranked) + len(ranking.apart) == len(metrics)
    used = {r.coverage.documents_used for r in ranking.ranked}
    assert len(used) <= 1
    most = max((len(r.coverage.documents_used) for r in (*ranking.ranked, *ranking.apart)), default=0)
    if ranking.ranked:
        assert len(next(iter(used))) == most > 0
        values = [r.correlation.value for r in ranking.ranked]
        assert values == sorted(values, reverse=True) and not any(math.isnan(v) for v in values)
    else:
        assert most == 0


# --- system names ---------------------------------------------------------------------------------

def test_column_suffix_follows_the_corpus_loaders_candidate_columns():
    assert meta.column_suffix("candidate_M0") == "M0"
    assert meta.column_suffix("prediction-gpt 4") == "gpt 4"
    assert meta.column_suffix("Candidates B") == "B"
    assert meta.column_suffix("candidate") is None and meta.column_suffix("M0") is None
    assert meta.column_suffix("reference_1") is None


def test_systems_match_by_exact_name_then_column_suffix_then_choice():
    corpus = ["candidate_M0", "candidate_M1", "M1", "candidate_X", "prediction_X", "lead3"]
    match = meta.match_systems(["M0", "M1", "X", "lead3", "other"], corpus)
    assert match.mapping == {"M0": "candidate_M0", "M1": "M1", "lead3": "lead3"}
    assert match.how == {"M0": meta.SUFFIX, "M1": meta.EXACT, "lead3": meta.EXACT}
    assert match.unmatched == ("X", "other") and match.ambiguous == {"X": ("candidate_X", "prediction_X")}
    assert match.unjudged == ("candidate_M1", "candidate_X", "prediction_X")
    chosen = meta.match_systems(["M0", "M1", "X", "lead3", "other"], corpus,
                                {"X": "prediction_X", "other": "candidate_M1", "lead3": None})
    assert chosen.mapping == {"M0": "candidate_M0", "M1": "M1", "X": "prediction_X", "other": "candidate_M1"}
    assert chosen.how["X"] == chosen.how["other"] == meta.CHOSEN and chosen.unmatched == ("lead3",)
    assert chosen.renames == {"M0": "candidate_M0", "X": "prediction_X", "other": "candidate_M1"}
    with pytest.raises(ValueError, match="M0 and other are both matched to the corpus system candidate_M0"):
        meta.match_systems(["M0", "other"], corpus, {"M0": "candidate_M0", "other": "candidate_M0"})
    with pytest.raises(ValueError, match="not a system of this corpus: nope"):
        meta.match_systems(["M0"], corpus, {"M0": "nope"})
    # a suffix already taken by an exact name is not matched twice
    assert meta.match_systems(["candidate_M0", "M0"], ["candidate_M0"]).unmatched == ("M0",)


def test_renamed_judgements_score_the_corpus_systems():
    rows = (meta.HumanScore("M0", "d1", "a", "", 4.0), meta.HumanScore("M0", "d1", "b", "", 2.0),
            meta.HumanScore("Q", "d1", "a", "", 1.0))
    judgements = meta.HumanJudgements(rows, "j.csv")
    renamed = judgements.renamed({"M0": "candidate_M0"})
    assert renamed.scores() == {("candidate_M0", "d1"): 3.0, ("Q", "d1"): 1.0} and renamed.source == "j.csv"
