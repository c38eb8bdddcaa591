"""rouge_core.teach.explain: every teaching number equals the statistics rouge_core scores with."""

import pytest

import rouge_core
from lens_app.examples import LEARN_EXAMPLE
from rouge_core.teach import explain
from rouge_core.scorer.scoring import prepare_pair
from rouge_core.families.lcs import lcs_alignment, lcs_length, lcs_table
from rouge_core.families.skipgram import skip_stats
from rouge_core.viz import learn_charts

PAIRS = [
    ("the cat sat on the the mat", "the cat is on the mat"),
    ("police killed the gunman", "the gunman was shot dead by police"),
    ("a b c d e f", "f e d c b a"),
    ("the cat sat\non the mat", "the cat is on the mat\nthe mat sat"),
    ("one", "two"),
]
OPTIONS = rouge_core.profile("rouge-score")


def docs(cand, ref, options=OPTIONS):
    c, (r,) = prepare_pair(cand, [ref], options)
    return c, r


def pair_stats(cand, ref, method, options=OPTIONS):
    return rouge_core.score(cand, [ref], [method], options)[method].per_reference[0].stats


@pytest.mark.parametrize("cand,ref", PAIRS)
@pytest.mark.parametrize("n", [1, 2, 3])
def test_ngram_table_counts_sum_to_the_hits(cand, ref, n):
    c, r = docs(cand, ref)
    rows = explain.ngram_table(c.terms, r.terms, n)
    stats = pair_stats(cand, ref, f"rouge{n}")
    assert sum(row["counted"] for row in rows) == stats.hits
    assert sum(row["in candidate"] for row in rows) == stats.cand_total
    assert sum(row["in reference"] for row in rows) == stats.ref_total


def test_clipping_row_explains_the_repeated_word():
    rows = explain.ngram_table("the the the cat".split(), "the cat the".split(), 1)
    (clipped,) = explain.clipped_rows(rows)
    assert (clipped["n-gram"], clipped["in candidate"], clipped["in reference"], clipped["counted"]) == ("the", 3, 2, 2)
    assert "not 3×" in clipped["why"]


@pytest.mark.parametrize("cand,ref", PAIRS)
@pytest.mark.parametrize("options", [rouge_core.profile("rouge-score"), rouge_core.profile("rouge-1.5.5"), rouge_core.profile("rouge-score", alpha=0.2)])
def test_working_fractions_are_the_statistics(cand, ref, options):
    for method in ("rouge1", "rougeL", "rougeW-1.2"):
        result = rouge_core.score(cand, [ref], [method], options)[method]
        w = explain.working(result.stats, options)
        assert (w.recall.numerator, w.recall.denominator) == (result.stats.hits, result.stats.ref_total)
        assert (w.precision.numerator, w.precision.denominator) == (result.stats.hits, result.stats.cand_total)
        assert w.score == result.score
        assert w.recall.value == pytest.approx(result.stats.recall())


def test_fraction_text_is_written_out():
    assert explain.Fraction("R", 3, 6).text() == "R = 3 / 6 = 0.5000"
    assert explain.Fraction("P", 2.5, 4.0, 0.5).text().startswith("P = (2.5000 / 4)^0.5000")


@pytest.mark.parametrize("cand,ref", PAIRS)
def test_dp_cells_hold_the_lcs_table_and_its_traceback(cand, ref):
    c, r = docs(cand, ref)
    cells = explain.lcs_dp_cells(r.terms, c.terms)
    table = lcs_table(r.terms, c.terms)
    assert len(cells) == (len(r.terms) + 1) * (len(c.terms) + 1)
    assert all(cell["value"] == table[cell["i"]][cell["j"]] for cell in cells)
    matches = sorted((cell["i"] - 1, cell["j"] - 1) for cell in cells if cell["match"])
    assert matches == lcs_alignment(r.terms, c.terms)
    path = sorted((cell["step"], cell["i"], cell["j"]) for cell in cells if cell["on_path"])
    assert path[-1][1:] == (len(r.terms), len(c.terms))
    assert 0 in path[0][1:]  # the traceback stops at an edge of the table
    assert len(matches) == lcs_length(c.terms, r.terms)


@pytest.mark.parametrize("cand,ref", PAIRS)
def test_union_walkthrough_matches_summary_level_scores(cand, ref):
    c, r = docs(cand, ref)
    walk = explain.union_lcs_walkthrough(c, r)
    assert walk["union_hits"] == pair_stats(cand, ref, "rougeLsum").hits
    assert walk["best_sentence_hits"] == pair_stats(cand, ref, "rougeLsum-best").hits
    assert walk["summed_lcs"] >= walk["union_hits"] or walk["union_hits"] == 0
    assert sum(row["union hits"] for row in walk["rows"]) == walk["union_hits"]


def test_union_differs_from_summed_lcs_when_sentences_reuse_tokens():
    c, r = docs("the cat sat\non the mat", "the cat is on the mat\nthe mat sat")
    walk = explain.union_lcs_walkthrough(c, r)
    assert walk["summed_lcs"] > walk["union_hits"]


@pytest.mark.parametrize("cand,ref", PAIRS)
@pytest.mark.parametrize("w", [1.2, 2.0])
def test_w_runs_weigh_to_the_hits_of_both_forms(cand, ref, w):
    c, r = docs(cand, ref)
    runs = explain.w_runs(c, r, w)
    for form in ("paper", "rouge155"):
        stats = pair_stats(cand, ref, f"rougeW-{w:g}", OPTIONS.replace(wlcs_form=form))
        assert runs[form]["stats"] == stats
        assert sum(row["weight f(k)"] for row in runs[form]["runs"]) == pytest.approx(stats.hits)
        assert all(row["weight f(k)"] == pytest.approx(row["length k"] ** w) for row in runs[form]["runs"])


def test_weight_curve():
    rows = explain.weight_curve(2.0, 4)
    weighted = {row["k"]: row["value"] for row in rows if row["curve"].startswith("f")}
    assert weighted == {0: 0.0, 1: 1.0, 2: 4.0, 3: 9.0, 4: 16.0}


@pytest.mark.parametrize("cand,ref", PAIRS)
@pytest.mark.parametrize("d", [0, 1, 4, None])
def test_skip_bigrams_enumerate_what_rouge_s_counts(cand, ref, d):
    c, r = docs(cand, ref)
    stats, _ = skip_stats(c.terms, r.terms, d)
    assert len(explain.skip_bigrams(c.terms, d)) == stats.cand_total
    assert len(explain.skip_bigrams(r.terms, d)) == stats.ref_total
    assert sum(row["counted"] for row in explain.skip_bigram_table(c.terms, r.terms, d)) == stats.hits
    if d is not None:
        assert pair_stats(cand, ref, f"rougeS{d}") == stats
        assert all(row["gap"] <= d for row in explain.skip_bigrams(c.terms, d))


def test_skip_growth_and_su_forms():
    c, r = docs(*PAIRS[0])
    growth = explain.skip_growth(c.terms, r.terms, 5)
    counts = [row["count"] for row in growth if row["series"] == "candidate skip-bigrams"]
    assert counts == sorted(counts) and counts[0] == len(c.terms) - 1
    rows = explain.su_comparison(c.terms, r.terms, 4, OPTIONS)
    for row, form in zip(rows, (None, "rouge155", "start-token")):
        stats, _ = skip_stats(c.terms, r.terms, 4, form)
        assert (row["matches"], row["candidate total"], row["reference total"]) == (stats.hits, stats.cand_total, stats.ref_total)
    assert rows[1]["candidate total"] == rows[0]["candidate total"] + len(c.terms) - 1  # all positions but the last


def test_multi_reference_modes_equal_scoring_under_each_mode():
    cand, refs = LEARN_EXAMPLE.candidate, list(LEARN_EXAMPLE.references)
    out = explain.multi_reference(cand, refs, "rouge1", OPTIONS)
    assert [row["reference"] for row in out["per_reference"]] == [1, 2]
    for row, mode in zip(out["modes"], rouge_core.MULTI_REF_MODES):
        expected = rouge_core.score(cand, refs, ["rouge1"], OPTIONS.replace(multi_ref=mode))["rouge1"].score
        assert (row["P"], row["R"], row["F"]) == (expected.precision, expected.recall, expected.fmeasure)
    per_f = [row["F"] for row in out["per_reference"]]
    assert out["modes"][2]["F"] == max(per_f)  # best-f
    assert out["modes"][4]["F"] == pytest.approx(sum(per_f) / 2)  # mean


def test_lcs_heatmap_spec_holds_the_table():
    c, r = docs(*PAIRS[0])
    cells = explain.lcs_dp_cells(r.terms, c.terms)
    spec = learn_charts.lcs_heatmap(cells).to_dict()
    (data,) = spec["datasets"].values()
    assert [(d["i"], d["j"], d["value"], d["on_path"]) for d in data] == [(d["i"], d["j"], d["value"], d["on_path"]) for d in cells]
    assert len(spec["layer"]) == 5


def test_other_charts_build():
    learn_charts.weight_curve_chart(explain.weight_curve(1.2), [2, 3]).to_dict()
    learn_charts.skip_growth_chart(explain.skip_growth(["a", "b", "c"], ["a", "c"], 3), 1).to_dict()
    modes = explain.multi_reference("a b", ["a", "b c"], "rouge1", OPTIONS)["modes"]
    assert len(learn_charts.multi_reference_chart(modes).to_dict()["datasets"]) == 1
