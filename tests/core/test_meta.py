"""rouge_core.studies.meta against scipy.stats, a worked example by hand, and the judgements reader."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rouge_core.studies import meta
from rouge_core.corpora.corpus_io import CorpusError
from tests.fuzzing import FUZZ, fuzz

scipy_stats = pytest.importorskip("scipy.stats")

TOLERANCE = 1e-12


def scipy_coefficient(x, z, method, variant=None) -> float:
    """scipy's statistic, NaN where scipy finds it undefined (fewer than 2 items: NaN too)."""
    x, z = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    if x.size < 2:
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "pearson":
            return float(scipy_stats.pearsonr(x, z)[0])
        if method == "spearman":
            return float(scipy_stats.spearmanr(x, z)[0])
        return float(scipy_stats.kendalltau(x, z, variant=variant)[0])


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= TOLERANCE


def scipy_summary(metric, human, method, variant=None):
    """The summary level written out with scipy: per document across systems, then the mean."""
    docs = sorted({d for _, d in metric} & {d for _, d in human}, key=str)
    values, left_out = [], []
    for d in docs:
        systems = sorted(s for s, dd in metric if dd == d and (s, d) in human)
        r = scipy_coefficient([metric[(s, d)] for s in systems], [human[(s, d)] for s in systems], method, variant)
        (left_out.append(d) if math.isnan(r) else values.append(r))
    return (sum(values) / len(values) if values else math.nan), left_out


def scipy_system(metric, human, method, variant=None):
    """The system level written out with scipy: per-system means, then one coefficient."""
    shared = set(metric) & set(human)
    systems = sorted({s for s, _ in shared}, key=str)
    means = [(np.mean([metric[k] for k in shared if k[0] == s]), np.mean([human[k] for k in shared if k[0] == s]))
             for s in systems]
    return scipy_coefficient([m for m, _ in means], [h for _, h in means], method, variant)


def random_scores(rng, systems=5, documents=12, missing=0.1, ties=True):
    metric, human = {}, {}
    for s in range(systems):
        for d in range(documents):
            if rng.random() < missing:
                continue
            key = (f"sys{s}", f"doc{d:02d}")
            metric[key] = float(rng.integers(0, 6)) / 5 if ties and rng.random() < 0.5 else float(rng.random())
            human[key] = float(rng.integers(1, 6)) if ties else float(rng.random() * 5)
    return metric, human


# --- coefficients ---------------------------------------------------------------------------------

@pytest.mark.parametrize("method,variant", meta.COEFFICIENTS)
def test_coefficients_equal_scipy_on_random_data_with_ties(method, variant):
    rng = np.random.default_rng(7)
    for trial in range(120):
        n = int(rng.integers(2, 40))
        x = rng.integers(0, 4, n).astype(float) if trial % 2 else rng.normal(size=n)
        z = rng.integers(1, 6, n).astype(float) if trial % 3 else rng.normal(size=n) * 1e3 + 7
        assert same(meta.coefficient(x, z, method, variant), scipy_coefficient(x, z, method, variant)), (x, z)


@fuzz
@FUZZ
@given(st.lists(st.tuples(st.integers(0, 4), st.floats(-1e6, 1e6, allow_nan=False)), min_size=0, max_size=25),
       st.sampled_from(meta.COEFFICIENTS))
def test_coefficients_equal_scipy_on_any_values(pairs, coefficient):
    method, variant = coefficient
    x = [float(a) for a, _ in pairs]
    z = [b for _, b in pairs]
    ours, theirs = meta.coefficient(x, z, method, variant), scipy_coefficient(x, z, method, variant)
    assert (math.isnan(ours) and math.isnan(theirs)) or abs(ours - theirs) <= 1e-9, (x, z, ours, theirs)


def test_constant_or_short_inputs_are_undefined_as_in_scipy():
    for method, variant in meta.COEFFICIENTS:
        assert math.isnan(meta.coefficient([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], method, variant))
        assert math.isnan(meta.coefficient([0.5], [2.0], method, variant))
        assert math.isnan(meta.coefficient([], [], method, variant))
        assert meta.coefficient([0.1, 0.2], [3.0, 1.0], method, variant) == pytest.approx(-1.0, abs=1e-15)
    with pytest.raises(ValueError, match="equally long"):
        meta.coefficient([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="variant must be one of 'b', 'c'"):
        meta.coefficient([1, 2], [1, 2], "kendall", "a")
    with pytest.raises(ValueError, match="method must be one of"):
        meta.coefficient([1, 2], [1, 2], "cosine")


def test_large_inputs_are_computed_in_blocks_with_the_same_values(monkeypatch):
    rng = np.random.default_rng(3)
    x, z = rng.integers(0, 7, 300).astype(float), rng.integers(0, 5, 300).astype(float)
    whole = [meta.coefficient(x, z, m, v) for m, v in meta.COEFFICIENTS]
    monkeypatch.setattr(meta, "_CELLS", 1000)  # blocks of a few rows and columns
    assert [meta.coefficient(x, z, m, v) for m, v in meta.COEFFICIENTS] == whole
    for (m, v), value in zip(meta.COEFFICIENTS, whole):
        assert same(value, scipy_coefficient(x, z, m, v))


# --- levels ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("method,variant", meta.COEFFICIENTS)
def test_levels_equal_scipy_on_random_data(method, variant):
    rng = np.random.default_rng(11)
    for _ in range(8):
        metric, human = random_scores(rng, systems=int(rng.integers(2, 7)), documents=int(rng.integers(3, 15)))
        human[("sys0", "doc00")] = human[("sys1", "doc00")] = 3.0  # ties across systems
        for s in range(7):  # a document where the humans gave every system the same score
            if (f"sys{s}", "doc01") in human:
                human[(f"sys{s}", "doc01")] = 4.0
        summary = meta.correlate(metric, human, "summary", method, variant)
        want, left_out = scipy_summary(metric, human, method, variant)
        assert same(summary.value, want)
        assert list(summary.left_out) == left_out and "doc01" in left_out
        assert summary.averaged == summary.documents - len(left_out)
        assert summary.items == len(set(metric) & set(human))
        system = meta.correlate(metric, human, "system", method, variant)
        assert same(system.value, scipy_system(metric, human, method, variant))


# A worked example, by hand. Three systems A, B, C on three documents:
#   d1: metric 0.2 0.4 0.6, humans 1 3 2. Centred: (-0.2, 0, 0.2) and (-1, 1, 0): r = 0.2 / sqrt(0.08 * 2) = 0.5.
#       Ranks (1 2 3) and (1 3 2): rho = 1 - 6 * 2 / (3 * 8) = 0.5. Pairs AB +, AC +, BC -: S = 1, tau = 1/3.
#   d2: metric 0.5 0.5 0.1, humans 4 4 1: proportional deviations, r = rho = 1. AB tied on both sides, AC +,
#       BC +: S = 2, n0 = 3, n1 = n2 = 1: tau-b = 2 / sqrt(2 * 2) = 1; m = 2: tau-c = 2 * 2 / (9 * 1/2) = 8/9.
#   d3: metric 0.3 0.6 0.9, humans 3 3 3: undefined, left out.
# Summary level: r = (0.5 + 1) / 2 = 3/4, tau-b = (1/3 + 1) / 2 = 2/3, tau-c = (1/3 + 8/9) / 2 = 11/18.
# System level: metric means 1/3, 1/2, 8/15; human means 8/3, 10/3, 2. Scaled by 15 and 3: (5, 7.5, 8) and
#   (8, 10, 6); centred (-11/6, 2/3, 7/6) and (0, 2, -2): sum = -1, squares 31/6 and 8: r = -1 / sqrt(124/3).
#   Order A < B < C against B > A > C: AB +, AC -, BC -: tau = -1/3.
WORKED_METRIC = {("A", "d1"): 0.2, ("B", "d1"): 0.4, ("C", "d1"): 0.6, ("A", "d2"): 0.5, ("B", "d2"): 0.5,
                 ("C", "d2"): 0.1, ("A", "d3"): 0.3, ("B", "d3"): 0.6, ("C", "d3"): 0.9}
WORKED_HUMAN = {("A", "d1"): 1, ("B", "d1"): 3, ("C", "d1"): 2, ("A", "d2"): 4, ("B", "d2"): 4, ("C", "d2"): 1,
                ("A", "d3"): 3, ("B", "d3"): 3, ("C", "d3"): 3}


@pytest.mark.parametrize("level,method,variant,expected", [
    ("summary", "pearson", None, Fraction(3, 4)),
    ("summary", "spearman", None, Fraction(3, 4)),
    ("summary", "kendall", "b", Fraction(2, 3)),
    ("summary", "kendall", "c", Fraction(11, 18)),
    ("system", "pearson", None, -1 / math.sqrt(124 / 3)),
    ("system", "kendall", "b", Fraction(-1, 3)),
])
def test_worked_example(level, method, variant, expected):
    result = meta.correlate(WORKED_METRIC, WORKED_HUMAN, level, method, variant)
    assert abs(result.value - float(expected)) <= TOLERANCE
    assert (result.items, result.systems, result.documents) == (9, 3, 3)
    if level == "summary":
        assert result.left_out == ("d3",) and result.averaged == 2
    reference = scipy_summary(WORKED_METRIC, WORKED_HUMAN, method, variant)[0] if level == "summary" \
        else scipy_system(WORKED_METRIC, WORKED_HUMAN, method, variant)
    assert same(result.value, reference)


def test_document_correlations_put_the_worst_disagreement_first():
    rows = meta.document_correlations(WORKED_METRIC, WORKED_HUMAN)
    assert [d for d, _, _ in rows] == ["d1", "d2", "d3"]
    assert rows[0][1] == pytest.approx(0.5) and rows[1][1] == pytest.approx(1.0) and math.isnan(rows[2][1])
    assert [n for _, _, n in rows] == [3, 3, 3]


def test_only_items_both_sides_score_count_and_nothing_is_not_a_number():
    metric = {**WORKED_METRIC, ("A", "d9"): 0.7, ("B", "d1"): math.nan}
    human = {**WORKED_HUMAN, ("Z", "d1"): 5.0}
    result = meta.correlate(metric, human)
    assert result.items == 8 and result.systems == 3 and result.documents == 3
    empty = meta.correlate({("A", "d1"): 0.5}, {("B", "d1"): 1.0}, bootstrap=10)
    assert empty.items == 0 and math.isnan(empty.value) and empty.resamples == 0
    every_doc_undefined = meta.correlate({("A", "d1"): 0.5, ("B", "d1"): 0.6}, {("A", "d1"): 2, ("B", "d1"): 2})
    assert math.isnan(every_doc_undefined.value) and every_doc_undefined.left_out == ("d1",)
    with pytest.raises(ValueError, match="keyed by \\(system, doc_id\\)"):
        meta.correlate({"A": 1.0}, {"A": 2.0})
    with pytest.raises(ValueError, match="level must be one of 'summary', 'system'"):
        meta.correlate(WORKED_METRIC, WORKED_HUMAN, "global")


# --- bootstrap ------------------------------------------------------------------------------------

def scipy_bootstrap(metric, human, level, method, variant, resamples, seed, resample, confidence=95):
    """The bootstrap written out: the same draws (systems, then documents), scipy for each resample."""
    systems = sorted({s for s, _ in metric}, key=str)
    docs = sorted({d for _, d in metric}, key=str)
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, len(systems), (resamples, len(systems))) if resample in ("systems", "both") else None
    cols = rng.integers(0, len(docs), (resamples, len(docs))) if resample in ("documents", "both") else None
    values = []
    for r in range(resamples):
        drawn_s = [systems[i] for i in rows[r]] if rows is not None else systems
        drawn_d = [docs[j] for j in cols[r]] if cols is not None else docs
        if level == "summary":
            terms = [scipy_coefficient([metric[(s, d)] for s in drawn_s], [human[(s, d)] for s in drawn_s], method, variant)
                     for d in drawn_d]
            terms = [t for t in terms if not math.isnan(t)]
            values.append(sum(terms) / len(terms) if terms else math.nan)
        else:
            xs = [np.mean([metric[(s, d)] for d in drawn_d]) for s in drawn_s]
            zs = [np.mean([human[(s, d)] for d in drawn_d]) for s in drawn_s]
            values.append(scipy_coefficient(xs, zs, method, variant))
    defined = [v for v in values if not math.isnan(v)]
    low, high = np.percentile(defined, [(100 - confidence) / 2, 100 - (100 - confidence) / 2])
    return low, high, len(values) - len(defined)


@pytest.mark.parametrize("level", meta.LEVELS)
@pytest.mark.parametrize("resample", meta.RESAMPLE)
def test_bootstrap_interval_equals_the_written_out_resampling(level, resample):
    rng = np.random.default_rng(5)
    metric, human = random_scores(rng, systems=4, documents=9, missing=0.0)
    for method, variant in (("pearson", None), ("kendall", "c")):
        result = meta.correlate(metric, human, level, method, variant, bootstrap=60, seed=9, resample=resample)
        low, high, undefined = scipy_bootstrap(metric, human, level, method, variant, 60, 9, resample)
        assert abs(result.low - low) <= TOLERANCE and abs(result.high - high) <= TOLERANCE
        assert result.undefined_resamples == undefined
        assert (result.resamples, result.seed, result.resample, result.confidence) == (60, 9, resample, 95.0)


def test_bootstrap_is_seeded_and_its_interval_covers_a_clear_correlation():
    rng = np.random.default_rng(2)
    metric = {(f"s{s}", f"d{d}"): float(rng.random()) for s in range(6) for d in range(30)}
    human = {k: 5 * v + float(rng.normal(0, 0.3)) for k, v in metric.items()}
    first = meta.correlate(metric, human, "summary", "spearman", bootstrap=300, seed=4, resample="both")
    assert first == meta.correlate(metric, human, "summary", "spearman", bootstrap=300, seed=4, resample="both")
    other = meta.correlate(metric, human, "summary", "spearman", bootstrap=300, seed=5, resample="both")
    assert (other.low, other.high) != (first.low, first.high)
    assert 0.5 < first.low <= first.value <= first.high <= 1.0
    with pytest.raises(ValueError, match="resample must be one of"):
        meta.correlate(metric, human, bootstrap=10, resample="pairs")
    with pytest.raises(ValueError, match="confidence"):
        meta.correlate(metric, human, bootstrap=10, confidence=100)


def test_documents_shortcut_equals_the_general_resampling():
    """Resampling documents at the summary level reuses each document's coefficient: the
    same numbers as recomputing each resample from its matrices."""
    rng = np.random.default_rng(8)
    metric, human = random_scores(rng, systems=5, documents=10)
    m = meta._matrices(metric, human)
    x, z = m.arrays
    (fast,) = meta._resampled_values([x], z, "summary", "kendall", "b", 40, 3, "documents", None)
    cols = np.random.default_rng(3).integers(0, z.shape[1], (40, z.shape[1]))
    slow = meta._level_values(x[:, cols].transpose(1, 0, 2), z[:, cols].transpose(1, 0, 2), "summary", "kendall", "b")
    assert np.array_equal(fast, slow, equal_nan=True)


# --- two metrics ----------------------------------------------------------------------------------

def two_metrics(seed=0, systems=6, documents=40, noise_b=2.0):
    rng = np.random.default_rng(seed)
    quality = {(f"s{s}", f"d{d}"): float(rng.random()) for s in range(systems) for d in range(documents)}
    human = {k: v + float(rng.normal(0, 0.1)) for k, v in quality.items()}
    good = {k: v + float(rng.normal(0, 0.1)) for k, v in quality.items()}
    poor = {k: v + float(rng.normal(0, noise_b)) for k, v in quality.items()}
    return good, poor, human


def test_williams_equals_psych_r_test():
    """psych::r.test values (as printed in danieldeutsch/nlpstats' tests) for scipy-computed r."""
    np.random.seed(12)
    x, y, z = (np.random.random((9, 5)) for _ in range(3))
    r12 = abs(scipy_stats.pearsonr(x.ravel(), z.ravel())[0])
    r13 = scipy_stats.pearsonr(y.ravel(), z.ravel())[0]
    r23 = scipy_stats.pearsonr(x.ravel(), y.ravel())[0]
    assert meta.williams(r12, r13, r23, 45, "greater")[1] == pytest.approx(0.2716978, abs=5e-8)
    assert meta.williams(r12, r13, r23, 45)[1] == pytest.approx(0.5433956, abs=5e-8)
    assert meta.williams(r13, r12, r23, 45, "less")[1] == pytest.approx(0.2716978, abs=5e-8)
    x, y, z = (np.random.random((9, 5)).mean(axis=1) for _ in range(3))
    r12, r13, r23 = (scipy_stats.spearmanr(a, b)[0] for a, b in ((x, z), (y, z), (x, y)))
    assert meta.williams(r13, r12, r23, 9, "greater")[1] == pytest.approx(0.4658712, abs=5e-8)
    assert meta.williams(r12, r13, r23, 9)[1] == pytest.approx(0.9317423, abs=5e-8)
    with pytest.raises(ValueError, match="at least 4 units"):
        meta.williams(0.5, 0.4, 0.3, 3)


def test_student_t_equals_scipy():
    for df in (1, 2, 3, 4, 7, 20, 97, 1000):
        for t in (-30.0, -2.5, -0.4, 0.0, 0.1, 1.0, 2.2, 6.0, 40.0):
            assert meta.student_t_sf(t, df) == pytest.approx(float(scipy_stats.t.sf(t, df)), rel=1e-10, abs=1e-300)


def test_williams_difference_on_system_level_pearson():
    good, poor, human = two_metrics(systems=8, documents=20)
    result = meta.williams_difference(good, poor, human)
    systems = sorted({s for s, _ in human})

    def means(scores):
        return [np.mean([v for (s, _), v in scores.items() if s == name]) for name in systems]

    r12, r13, r23 = (scipy_stats.pearsonr(a, b)[0] for a, b in
                     ((means(good), means(human)), (means(poor), means(human)), (means(good), means(poor))))
    t, p = meta.williams(r12, r13, r23, 8)
    assert abs(result.value_a - r12) <= TOLERANCE and abs(result.value_b - r13) <= TOLERANCE
    assert result.statistic == pytest.approx(t, rel=1e-12) and result.p_value == pytest.approx(p, rel=1e-12)
    assert (result.units, result.df, result.test) == (8, 5, "Williams")
    expected_t = (r12 - r13) * math.sqrt(7 * (1 + r23) / (2 * 7 / 5 * (1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23)
                                                         + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3))
    assert t == pytest.approx(expected_t, rel=1e-12)
    assert p == pytest.approx(2 * scipy_stats.t.sf(abs(expected_t), 5), rel=1e-10)
    with pytest.raises(ValueError, match="use level='system'"):
        meta.williams_difference(good, poor, human, level="summary")


@pytest.mark.parametrize("level", meta.LEVELS)
def test_a_better_metric_wins_and_identical_metrics_do_not(level):
    good, poor, human = two_metrics()
    boot = meta.bootstrap_difference(good, poor, human, level, resamples=300, seed=1)
    perm = meta.permutation_difference(good, poor, human, level, resamples=300, seed=1)
    assert boot.difference > 0 and boot.low <= boot.difference <= boot.high
    if level == "summary":  # 40 documents: a clear difference
        assert boot.p_value < 0.01 and perm.p_value < 0.01 and boot.low > 0
    same_boot = meta.bootstrap_difference(good, good, human, level, resamples=100, seed=1)
    same_perm = meta.permutation_difference(good, good, human, level, resamples=100, seed=1)
    assert same_boot.difference == 0 and same_boot.p_value == 1.0 and same_perm.p_value == 1.0
    assert perm == meta.permutation_difference(good, poor, human, level, resamples=300, seed=1)


def test_permutation_equals_the_written_out_swaps():
    good, poor, human = two_metrics(documents=8, systems=4)
    keys = sorted(human)
    systems, docs = sorted({s for s, _ in keys}), sorted({d for _, d in keys})

    def standard(scores):
        values = np.array([scores[k] for k in keys])
        return {k: (scores[k] - values.mean()) / values.std() for k in keys}

    x, y = standard(good), standard(poor)
    observed = meta.correlate(good, human, "summary").value - meta.correlate(poor, human, "summary").value
    for permute in meta.RESAMPLE:
        result = meta.permutation_difference(good, poor, human, "summary", resamples=50, seed=2, permute=permute)
        rng = np.random.default_rng(2)
        if permute == "documents":
            draws = rng.random((50, 1, len(docs))) < 0.5
        elif permute == "systems":
            draws = rng.random((50, len(systems), 1)) < 0.5
        else:
            draws = rng.random((50, len(systems), len(docs))) < 0.5
        extreme = 0
        for draw in draws:
            swap = np.broadcast_to(draw, (len(systems), len(docs)))
            xp = {(s, d): (y if swap[i, j] else x)[(s, d)] for i, s in enumerate(systems) for j, d in enumerate(docs)}
            yp = {(s, d): (x if swap[i, j] else y)[(s, d)] for i, s in enumerate(systems) for j, d in enumerate(docs)}
            delta = scipy_summary(xp, human, "pearson")[0] - scipy_summary(yp, human, "pearson")[0]
            extreme += abs(delta) >= abs(observed) - 1e-12
        assert result.p_value == (extreme + 1) / 51, permute


def test_compare_correlations_runs_every_test_that_applies():
    good, poor, human = two_metrics(systems=5, documents=10)
    tests = meta.compare_correlations(good, poor, human, "system", resamples=50)
    assert [t.test for t in tests] == ["paired bootstrap", "permutation", "Williams"]
    tests = meta.compare_correlations(good, poor, human, "summary", "kendall", "c", resamples=50)
    assert [t.test for t in tests] == ["paired bootstrap", "permutation"]
    assert tests[0].as_dict()["coefficient"] == "Kendall τ-c"
    constant = {k: 0.5 for k in human}
    with pytest.raises(ValueError, match="undefined for one metric"):
        meta.bootstrap_difference(good, constant, human, "system", resamples=10)


def test_correlation_rows_cover_every_metric_level_and_coefficient():
    good, poor, human = two_metrics(systems=4, documents=6)
    rows = meta.correlation_rows({"good": good, "poor": poor}, human, coefficients=meta.COEFFICIENTS, bootstrap=20)
    assert len(rows) == 2 * 2 * 4
    row = next(r for r in rows if r["metric"] == "poor" and r["level"] == "system" and r["coefficient"] == "Spearman ρ")
    assert row["value"] == meta.correlate(poor, human, "system", "spearman").value
    assert row["resamples"] == 20 and row["low"] <= row["high"]


# --- human judgements -----------------------------------------------------------------------------

def test_read_judgements_csv_and_jsonl():
    csv = ("system,doc_id,annotator,score,aspect\n"
           "A,d1,ann1,4,coherence\nA,d1,ann2,2,coherence\nB,d1,ann1,5,coherence\nA,d1,ann1,3,fluency\n")
    judgements = meta.read_judgements(csv.encode(), "j.csv")
    assert len(judgements) == 4 and judgements.aspects() == ["coherence", "fluency"]
    assert judgements.scores("coherence") == {("A", "d1"): 3.0, ("B", "d1"): 5.0}
    assert judgements.scores("coherence", annotators=["ann2"]) == {("A", "d1"): 2.0}
    assert judgements.by_annotator("coherence")["ann1"] == {("A", "d1"): 4.0, ("B", "d1"): 5.0}
    with pytest.raises(ValueError, match="2 aspects \\(coherence, fluency\\); choose one"):
        judgements.scores()
    jsonl = b'{"model": "A", "id": 7, "rating": 3.5}\n{"model": "B", "id": 7, "rating": 1}\n'
    other = meta.read_judgements(jsonl, "j.jsonl")
    assert other.scores() == {("A", "7"): 3.5, ("B", "7"): 1.0} and other.annotators() == [""]
    both = judgements.merged(other)
    assert len(both) == 6 and both.source == "j.csv + j.jsonl"


def test_read_judgements_names_every_problem():
    with pytest.raises(CorpusError, match="no doc_id and no score column \\(found: system, annotator, x\\)"):
        meta.read_judgements(b"system,annotator,x\nA,a,1\n", "bad.csv")
    bad = ("system,doc_id,annotator,score\nA,d1,a,4\nA,d1,a,5\nB,,a,3\nC,d2,a,lots\nD,d2,a,nan\n")
    with pytest.raises(CorpusError) as caught:
        meta.read_judgements(bad.encode(), "bad.csv")
    assert caught.value.problems == [
        "bad.csv line 3: system A, document d1, annotator a already has a score (line 2)",
        "bad.csv line 4: doc_id is empty",
        "bad.csv line 5: score 'lots' is not a number",
        "bad.csv line 6: score 'nan' is not a finite number",
    ]
    with pytest.raises(CorpusError, match="doc_id must be a text or a whole number, not float"):
        meta.read_judgements(b'{"system": "A", "doc_id": 1.5, "score": 1}\n', "f.jsonl")
    with pytest.raises(CorpusError, match="score must be a number, not True"):
        meta.read_judgements(b'{"system": "A", "doc_id": "1", "score": true}\n', "f.jsonl")


def test_metric_scores_and_paired_items_from_corpus_results():
    import rouge_core

    results = {name: rouge_core.score_corpus(cands, [["the cat sat"], ["a dog ran"]], ["rouge1"], ids=["d1", "d2"])
               for name, cands in {"A": ["the cat sat", "a dog"], "B": ["cat", ""]}.items()}
    scores = meta.metric_scores(results, "rouge1")
    assert scores[("A", "d1")] == 1.0 and scores[("B", "d2")] == 0.0 and len(scores) == 4
    items = meta.paired_items(scores, {("A", "d1"): 5.0, ("B", "d1"): 1.0})
    assert items == [("A", "d1", 1.0, 5.0), ("B", "d1", pytest.approx(2 / 4), 1.0)]


def test_variants_are_every_profile_with_stemming_off_and_on():
    import rouge_core

    found = meta.variants()
    assert len(found) == 2 * len(rouge_core.PROFILES)
    assert meta.Variant("rouge-1.5.5", "rouge155") in found and meta.Variant("matlab", "porter") in found
    assert found[0].options == rouge_core.profile(found[0].profile)
    assert meta.Variant("rouge-score", "porter").options.stemmer == "porter"
    assert meta.Variant("reval", "none").label == "reval, no stemming"
    assert [v.stemmer for v in meta.variants(["rouge-1.5.5"], stemming=(True,))] == ["rouge155"]
    with pytest.raises(ValueError, match="unknown profile"):
        meta.variants(["perl"])
