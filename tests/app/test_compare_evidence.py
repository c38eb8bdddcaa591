"""The Compare page's evidence of one method draws each family's evidence as its type's view
(rouge_core.viz.highlight.candidate_view) and, for a family without one, the matched words."""

from __future__ import annotations

import pytest

import rouge_core
from lens_app.compare_ui import candidate_evidence
from rouge_core.viz import highlight

CANDIDATE = "the cat sat on the mat\nthe dog barked"
REFERENCES = ("a cat sat on a mat\nthe dog barked loudly", "the cat was on the mat")
OPTIONS = rouge_core.profile("rouge-score")


@pytest.mark.parametrize("method,draw,note", [
    ("rouge2", lambda c, r, e: highlight.ngram_highlight_html(c, e, "candidate"), "matched n-grams marked"),
    ("rougeL", lambda c, r, e: highlight.lcs_alignment_html(c, r, e)[0], "the LCS with the reference, pairs numbered"),
    ("rougeLsum", highlight.union_lcs_html, "per reference sentence, its LCS with each summary sentence"),
    ("rougeW-1.2", lambda c, r, e: highlight.wlcs_runs_html(c, r, e)[0], "runs of consecutive matches, numbered"),
])
def test_each_family_s_evidence_is_drawn_by_its_view(method, draw, note):
    html, ref_index, said = candidate_evidence(CANDIDATE, REFERENCES, method, OPTIONS)
    chosen = rouge_core.score(CANDIDATE, list(REFERENCES), [method], OPTIONS)[method].chosen
    assert ref_index == chosen
    result = rouge_core.score(CANDIDATE, [REFERENCES[chosen or 0]], [method], OPTIONS, evidence=True)
    assert html == draw(result.candidate, result.references[0], result[method].per_reference[0].evidence)
    assert said == note


@pytest.mark.parametrize("method,title", [("rougeS4", "ROUGE-S"), ("rougeSU*", "ROUGE-SU")])
def test_a_family_without_a_view_shows_the_matched_words(method, title):
    html, ref_index, said = candidate_evidence(CANDIDATE, REFERENCES, method, OPTIONS)
    result = rouge_core.score(CANDIDATE, [REFERENCES[ref_index or 0]], ["rouge1"], OPTIONS, evidence=True)
    assert html == highlight.ngram_highlight_html(result.candidate, result["rouge1"].per_reference[0].evidence,
                                                  "candidate")
    assert said == (f"matched words marked (the skip-bigrams of {title} are a table: open the summary on the "
                    "Score page)")
    assert not highlight.has_candidate_view(rouge_core.parse_method(method).spec.evidence)
