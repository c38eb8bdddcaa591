"""rouge_core.corpora.corpus.SystemRanking: one declared test decides, the other is said where it
disagrees, the ranking is worded as groups (issue 27, item 7)."""

import pytest

import rouge_core
from rouge_core.corpora import corpus_io
from rouge_core.corpora.corpus import compare_systems, rank_systems
from tests.annotated_corpus import many_systems_csv


@pytest.fixture(scope="module")
def eight():
    corpus = corpus_io.build_corpus(corpus_io.read_csv(many_systems_csv(8, 25).encode()))
    return {s.removeprefix("candidate_"): rouge_core.score_corpus(list(c), list(corpus.references), ["rouge1"])
            for s, c in corpus.systems.items()}


def test_groups_in_words_and_every_disagreement_explained(eight):
    pytest.importorskip("pandas")
    ranking = rank_systems(eight, "rouge1", resamples=1000, seed=0)
    assert ranking.declared_test() == "approximate randomization, Holm-adjusted over 28 comparisons, α = 0.05"
    assert ranking.groups_in_words() == ("Top group: M7, M6; then M5, M4, M3, M2, M0, M1 (within it, 7 pairs differ "
                                         "significantly: see the table).")
    assert ranking.clusters() == [("M7", "M6"), ("M5", "M4", "M3", "M2", "M0", "M1")]
    pairs = ranking.pairs_frame()
    for c, row in zip(ranking.comparisons, pairs.itertuples()):
        excludes = c.difference.low > 0 or c.difference.high < 0
        assert row.verdict == ("significant" if ranking.significant(c) else "not significant")
        assert bool(row.other_test) == (excludes != ranking.significant(c))
    m5_m3 = ranking.comparison("M5", "M3")
    assert not ranking.significant(m5_m3) and m5_m3.difference.low > 0  # the case: an interval above 0 ...
    assert ranking.disagreement(m5_m3) == (f"the 95% bootstrap interval {m5_m3.difference.low:+.4f} to "
                                           f"{m5_m3.difference.high:+.4f} excludes 0 (it is not adjusted for the 28 "
                                           "comparisons)")  # ... drawn "not significant", and said why
    assert ranking.unreachable() == ""
    summary = ranking.summary()
    assert summary.endswith("19 of the 28 pairs differ significantly; the table lists every pair. On 4 pairs the "
                            "paired bootstrap disagrees (the table's other_test column says how).")


def test_the_bootstrap_as_declared_test_names_the_permutation_test_where_it_disagrees(eight):
    three = {s: eight[s] for s in ("M7", "M6", "M5")}
    ranking = rank_systems(three, "rouge1", resamples=300, seed=1, test="paired bootstrap", correction="none")
    assert ranking.declared_test() == "paired bootstrap, not adjusted for the comparisons, α = 0.05"
    for c in ranking.comparisons:
        said = ranking.disagreement(c)
        assert bool(said) == ((c.permutation.p_value < 0.05) != (c.bootstrap.p_value < 0.05))


def test_too_few_resamples_for_the_adjustment(eight):
    ranking = rank_systems(eight, "rouge1", resamples=200, seed=0)
    assert ranking.unreachable() == ("With 200 resamples no pair can be significant at α = 0.05: the smallest p-value "
                                     "approximate randomization can give is 0.00498, times 28 comparisons (Holm), "
                                     "0.139. Use at least 560 resamples.")
    assert ranking.unreachable() in ranking.summary()
    assert not any(ranking.significant(c) for c in ranking.comparisons)
    assert rank_systems(eight, "rouge1", resamples=200, seed=0, correction="none").unreachable() == ""


def test_two_systems_worded_by_one_declared_test(eight):
    c = compare_systems(eight["M5"], eight["M3"], "rouge1", names=("M5", "M3"), resamples=300, seed=0)
    words = c.summary(0.05, test="approximate randomization")
    boot, perm = c.significant(0.05)
    assert ("By approximate randomization, the difference is " + ("significant" if perm else "not significant")) in words
    assert words.endswith(f"The paired bootstrap {'agrees' if boot == perm else 'disagrees'} "
                          f"(p = {c.bootstrap.p_value:.4g}).")
    assert "treat the difference as uncertain" not in words
    with pytest.raises(ValueError, match="test must be one of"):
        c.summary(test="t-test")
