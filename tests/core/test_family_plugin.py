"""A method family is one plug-in: a family registered here, in the test only, is read by
parse_method, the signature (and its round trip), scoring, the cost estimate and guard, the
command line's help, and the app's settings, without touching any other module."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import rouge_core
from rouge_core.scorer import cost
from rouge_core.families.methods import (FAMILIES, Family, Method, Section, UiParameter, evidence_tabs, lessons, parse_method,
                                register, spellings, ui_parameters, unregister)
from rouge_core.params import ParameterRange
from rouge_core.scorer.signature import Signature
from rouge_core.stats import Stats

LEAD_K = ParameterRange(name="the lead length k", key="k", minimum=1, maximum=50, integer=True, unlimited=False,
                      default=3, meaning="how many leading tokens are compared")


@dataclass(frozen=True)
class LeadFamily(Family):
    """A toy family: the tokens of the candidate's first k that occur among the reference's
    first k (clipped by `best_sentence_clip`, a STATISTICS option it reads)."""

    def name(self, value=None) -> str:
        return f"rougeLead{value}"

    def rouge155_name(self, value=None, typed=None) -> None:
        return None

    def label(self, value=None) -> str:
        return f"ROUGE-Lead (first {value} tokens)"

    def short_label(self, value=None) -> str:
        return f"ROUGE-Lead{value}"

    def parse(self, key: str) -> Method | None:
        m = re.fullmatch(r"rouge-?lead(\d+)", key)
        return None if m is None else self.method(int(m[1]))

    def compute_pure(self, method, cand, ref, options, evidence):
        c, r = cand.term_tuple[:method.n], list(ref.term_tuple[:method.n])
        hits = 0
        for term in c:
            if term in r:
                hits += 1
                if options.best_sentence_clip:
                    r.remove(term)
        return Stats(hits, len(c), len(ref.term_tuple[:method.n])), None

    def cost(self, method, cand, ref, evidence, options):
        return cost.ngram_cost(1, cand, ref, evidence)  # at most ROUGE-1's work

    def kernel_key(self, method, options) -> str:
        return "N1"  # its per-call cost is measured as the unigram kernel's


LEAD_SETTING = UiParameter("lead_k", "k: ROUGE-Lead", LEAD_K, "How many leading tokens are compared.")
LEAD = LeadFamily("Lead", "ROUGE-Lead", "the leading tokens both texts share", LEAD_K, "n",
                  statistics_options=("best_sentence_clip",), unit="tokens", ui=(LEAD_SETTING,),
                  lesson=Section("lead", "ROUGE-Lead: the first words"), evidence_tab=Section("lead", "Lead (toy)"))


@pytest.fixture
def lead():
    register(LEAD)
    try:
        yield LEAD
    finally:
        unregister("Lead")


def test_parse_method_reads_the_registered_family(lead):
    method = parse_method("rougeLead5")
    assert method == Method("Lead", n=5) and method.name == "rougeLead5" and method.label == "ROUGE-Lead (first 5 tokens)"
    assert parse_method("ROUGE_lead2").n == 2
    with pytest.raises(ValueError, match="lead length k must be"):
        parse_method("rougeLead99")  # its own range
    assert "rougeLead3" in spellings()
    with pytest.raises(ValueError, match="rougeLead3"):  # the unknown-name message lists it
        parse_method("rougeNope")


def test_unregistered_it_is_unknown():
    with pytest.raises(ValueError, match="unknown ROUGE method"):
        parse_method("rougeLead5")
    assert "Lead" not in FAMILIES


def test_scoring_and_the_signature_round_trip(lead):
    options = rouge_core.profile("rouge-score")
    result = rouge_core.score("the cat the dog", ["the the cat sat"], ["rougeLead3", "rouge1"], options)
    lead_score = result["rougeLead3"]
    assert lead_score.per_reference[0].stats == Stats(3, 3, 3)  # the, cat, the against the, the, cat
    unclipped = rouge_core.score("the the the", ["the cat sat"], ["rougeLead3"], options.replace(best_sentence_clip=False))
    assert unclipped["rougeLead3"].per_reference[0].stats == Stats(3, 3, 3)
    clipped = rouge_core.score("the the the", ["the cat sat"], ["rougeLead3"], options)
    assert clipped["rougeLead3"].per_reference[0].stats == Stats(1, 3, 3)
    sig = Signature.parse(lead_score.signature)
    assert sig.method == "rougeLead3" and sig.family == (("bestclip", "yes"),)
    assert Signature.parse(sig.short) == sig == Signature.of(parse_method("rougeLead3"), options, 1)
    assert "bestclip:no" in unclipped["rougeLead3"].signature


def test_the_cost_estimate_and_guard_read_it(lead):
    estimate = cost.estimate("rougeLead3", 200, [300])
    rouge1 = cost.estimate("rouge1", 200, [300])
    assert estimate.unit == "n-grams" and estimate.count == rouge1.count and estimate.seconds == rouge1.seconds
    assert list(cost.estimate_methods(["rougeLead3", "rouge2"], 10, [12])) == ["rougeLead3", "rouge2"]


def test_registering_checks_the_plug_in(lead):
    with pytest.raises(ValueError, match="registered already"):
        register(LEAD)
    with pytest.raises(ValueError, match="not STATISTICS options"):
        register(LeadFamily("Lead2", "ROUGE-Lead2", "x", LEAD.parameter, "n", statistics_options=("alpha",)))
    clash = UiParameter("lead_k", "another label", LEAD.parameter)
    with pytest.raises(ValueError, match="differs"):
        register(LeadFamily("Lead3", "ROUGE-Lead3", "x", LEAD.parameter, "n", ui=(clash,)))
    assert set(FAMILIES) == {"N", "L", "Lsum", "Lbest", "W", "S", "SU", "Lead"}


def test_the_app_s_lists_read_it(lead):
    assert ui_parameters()[-1] is LEAD_SETTING
    assert (LEAD.lesson, (LEAD,)) in lessons() and (LEAD.evidence_tab, (LEAD,)) in evidence_tabs()
    from lens_app.settings import Settings

    settings = Settings()
    assert settings.methods()[-1] == "rougeLead3"  # at its default: this Settings has no field for it
    assert settings.parameter_values()["lead_k"] == 3


def test_the_command_line_help_lists_it(lead, capsys):
    from rouge_core.cli import build_parser

    assert "rougeLead3" in " ".join(build_parser().format_help().split())
