"""issue 34 item 1: evidence is built only when asked for (`evidence=True`). Every front door
that takes `evidence` defaults to False; the scores and signatures are the same to the bit either
way; a score computed without evidence says so (NO_EVIDENCE, and EvidenceNotComputedError naming
`evidence=True` on any read) instead of an AttributeError of None; the rouge-score drop-in and
`compute()` never build evidence."""

from __future__ import annotations

import contextlib
import copy
import pickle
import struct

import pytest

import rouge_core
from rouge_core import NO_EVIDENCE, EvidenceNotComputedError
from rouge_core.compat.rouge_score import rouge_scorer
from rouge_core.families.methods import Family
from rouge_core.kernels import native
from rouge_core.scorer import cost
from rouge_core.scorer.basic_elements import score_basic_elements
from rouge_core.scorer.scoring import merge_references, prepare_pair, rescore, score_documents

CAND = "The cat sat on the mat. It was happy there."
REFS = ["The cat is on the mat. It is happy.", "A dog sat on a mat today."]
METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4", "rougeS*"]
PATHS = ["native", "pure"]


def on_path(path: str):
    return native.pure() if path == "pure" else contextlib.nullcontext()


def bits(x) -> bytes | object:
    """A float by its bytes (so -0.0 and NaN compare exactly), anything else as it is."""
    return struct.pack("<d", x) if isinstance(x, float) else x


def numbers(result) -> list:
    """Every number, choice, reason and signature of a Result, floats by their bits."""
    out = []
    for name, m in result.methods.items():
        out.append((name, m.signature, m.chosen, m.reason, [bits(v) for v in (m.precision, m.recall, m.fmeasure)],
                    None if m.stats is None else [bits(v) for v in (m.stats.hits, m.stats.cand_total,
                                                                    m.stats.ref_total)]))
        for r in m.per_reference:
            out.append((r.index, [bits(v) for v in (r.score.precision, r.score.recall, r.score.fmeasure)],
                        [bits(v) for v in (r.stats.hits, r.stats.cand_total, r.stats.ref_total)]))
    return out


def assert_without_evidence(result) -> None:
    for m in result.methods.values():
        for r in m.per_reference:
            assert r.evidence is NO_EVIDENCE


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("profile", ["rouge-score", "rouge-1.5.5", "matlab"])
def test_score_builds_no_evidence_by_default_and_the_same_numbers(path, profile):
    with on_path(path):
        default = rouge_core.score(CAND, REFS, METHODS, profile)
        without = rouge_core.score(CAND, REFS, METHODS, profile, evidence=False)
        with_evidence = rouge_core.score(CAND, REFS, METHODS, profile, evidence=True)
    assert numbers(default) == numbers(without) == numbers(with_evidence)
    assert_without_evidence(default)
    rouge1 = with_evidence["rouge1"].per_reference[0].evidence
    matched = {m.ngram: m.matched for m in rouge1.matches if m.matched}
    if profile == "matlab":  # whitespace tokens, case kept
        assert matched == {("The",): 1, ("cat",): 1, ("on",): 1, ("the",): 1, ("mat.",): 1, ("It",): 1}
    else:
        assert matched == {("the",): 2, ("cat",): 1, ("on",): 1, ("mat",): 1, ("it",): 1, ("happy",): 1}
    assert sum(matched.values()) == with_evidence["rouge1"].per_reference[0].stats.hits


@pytest.mark.parametrize("path", PATHS)
def test_score_documents_builds_no_evidence_by_default(path):
    opts = rouge_core.profile("rouge-score")
    cand, refs = prepare_pair(CAND, REFS, opts, None)
    with on_path(path):
        default = score_documents(cand, refs, METHODS, opts)
        with_evidence = score_documents(cand, refs, METHODS, opts, evidence=True)
    assert numbers(default) == numbers(with_evidence)
    assert_without_evidence(default)
    assert with_evidence["rougeL"].per_reference[0].evidence.pairs  # the LCS alignment is there when asked


def test_pretokenized_and_several_references_take_the_default_too():
    default = rouge_core.score(CAND.split(), [r.split() for r in REFS], ["rouge1", "rougeL"], "rouge-score",
                               multi_ref="pooled")
    with_evidence = rouge_core.score(CAND.split(), [r.split() for r in REFS], ["rouge1", "rougeL"], "rouge-score",
                                     multi_ref="pooled", evidence=True)
    assert numbers(default) == numbers(with_evidence)
    assert_without_evidence(default)


def test_reading_evidence_that_was_not_computed_says_to_pass_evidence_true():
    ev = rouge_core.score(CAND, REFS[:1], ["rouge1"])["rouge1"].per_reference[0].evidence
    assert ev is NO_EVIDENCE and not ev and repr(ev) == "NO_EVIDENCE"
    with pytest.raises(EvidenceNotComputedError, match=r"evidence=True") as caught:
        ev.matches
    assert isinstance(caught.value, ValueError) and "'matches'" in str(caught.value)
    assert not isinstance(caught.value, AttributeError)
    # the record still prints, compares, copies and pickles
    record = rouge_core.score(CAND, REFS[:1], ["rouge1"])["rouge1"].per_reference[0]
    assert "evidence=NO_EVIDENCE" in repr(record)
    assert pickle.loads(pickle.dumps(record)).evidence is NO_EVIDENCE
    assert copy.deepcopy(record) == record and copy.deepcopy(record).evidence is NO_EVIDENCE


def test_rescore_and_merge_keep_the_absence_of_evidence():
    opts = rouge_core.profile("rouge-score")
    result = rouge_core.score(CAND, REFS, ["rouge1"], opts)
    assert_without_evidence(rescore(result, opts.with_beta(2.0)))
    merged = merge_references([rouge_core.score(CAND, [r], ["rouge1"], opts) for r in REFS])
    assert_without_evidence(merged)
    assert numbers(merged) == numbers(result)


def test_basic_elements_keep_their_units_when_evidence_is_asked():
    be = score_basic_elements("gilbert|hurricane|nn", ["gilbert|hurricane|nn"], "HM", evidence=True)
    assert be.per_reference[0].evidence.matches == (("gilbert|hurricane", 1, 1, 1),)


def test_score_basic_elements_builds_no_evidence_by_default():
    default = score_basic_elements("gilbert|hurricane|nn\nsweep|island|vb", ["gilbert|hurricane|nn"], "HM")
    with_evidence = score_basic_elements("gilbert|hurricane|nn\nsweep|island|vb", ["gilbert|hurricane|nn"], "HM",
                                         evidence=True)
    assert [bits(v) for v in (default.precision, default.recall, default.fmeasure)] == \
        [bits(v) for v in (with_evidence.precision, with_evidence.recall, with_evidence.fmeasure)] == \
        [bits(0.5), bits(1.0), bits(0.66667)]  # ROUGE-1.5.5 prints 5 places
    assert default.signature == with_evidence.signature
    assert default.per_reference[0].evidence is NO_EVIDENCE
    with pytest.raises(EvidenceNotComputedError, match="evidence=True"):
        default.per_reference[0].evidence.matches


def test_the_cost_estimates_price_the_call_as_score_makes_it_by_default():
    # rougeL on 60,000 tokens a side: admitted without evidence, refused with its alignment
    for method, tokens in (("rougeL", 60_000), ("rougeSU4", 2_000), ("rouge1", 500)):
        default = cost.estimate(method, tokens, [tokens])
        assert default == cost.estimate(method, tokens, [tokens], evidence=False)
        assert default != cost.estimate(method, tokens, [tokens], evidence=True)
        assert cost.estimate_methods([method], tokens, [tokens]) == \
            cost.estimate_methods([method], tokens, [tokens], evidence=False)
    texts = cost.estimate_texts(["rouge1", "rougeL"], CAND, REFS)
    assert texts == cost.estimate_texts(["rouge1", "rougeL"], CAND, REFS, evidence=False)
    assert texts != cost.estimate_texts(["rouge1", "rougeL"], CAND, REFS, evidence=True)


@pytest.fixture
def evidence_spy(monkeypatch):
    """Fails any evidence built: a family asked for it, or a compiled evidence call."""
    asked = []
    family_compute = Family.compute

    def compute(self, method, cand, ref, options, evidence):
        if evidence:
            asked.append(method.name)
        return family_compute(self, method, cand, ref, options, evidence)

    monkeypatch.setattr(Family, "compute", compute)
    for name in ("ngram_evidence", "skip_evidence", "lcs_evidence", "union_evidence"):
        monkeypatch.setattr(native, name, lambda *a, _n=name, **k: asked.append(_n))
    return asked


@pytest.mark.parametrize("path", PATHS)
def test_the_rouge_score_drop_in_and_compute_build_no_evidence(path, evidence_spy):
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    with on_path(path):
        one = scorer.score(REFS[0], CAND)
        best = scorer.score_multi(REFS, CAND)
        listed = scorer.score(REFS[0].encode(), CAND)  # bytes: the per-type path
        out = rouge_core.compute([CAND, CAND], [REFS[0], REFS], use_aggregator=False)
        default = rouge_core.score(CAND, REFS, METHODS)
    assert evidence_spy == []
    assert one["rouge1"].fmeasure == pytest.approx(2 * 7 / (10 + 9)) and best["rouge1"] == one["rouge1"]
    assert listed["rouge1"].recall > 0 and out["rouge1"][0] == pytest.approx(2 * 7 / (10 + 9))
    assert_without_evidence(default)
    with on_path(path):
        rouge_core.score(CAND, REFS, ["rouge1"], evidence=True)  # the spy sees evidence when it is built
    assert evidence_spy


def test_a_stale_build_of_the_kernels_is_turned_off_not_an_import_error(monkeypatch):
    class BuiltBefore:  # configure_scoring took the reason alone
        def configure_scoring(self, only_reference):
            raise TypeError("configure_scoring() takes exactly one argument (2 given)")

    monkeypatch.setattr(native, "KERNELS", BuiltBefore())
    monkeypatch.setattr(native, "WHY_PURE", "")
    native.configure_scoring("the only reference", NO_EVIDENCE)
    assert native.KERNELS is None and "rebuild" in native.WHY_PURE
