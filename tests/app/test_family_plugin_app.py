"""A method family registered in the test only (tests/core/test_family_plugin.py's toy
ROUGE-Lead) appears in the app with no other change: a row of the Score page's table, an
evidence tab drawn by the generic view, and a lesson on the Learn page."""

from __future__ import annotations

import rouge_core as rc
from lens_app.markup import plain
from tests.app.test_learn_page import run_page
from tests.app.test_score_page import assert_table_matches, fresh_app, scores, set_texts
from tests.core.test_family_plugin import lead  # noqa: F401 (the fixture that registers the toy family)


def test_the_score_page_scores_it_and_shows_its_evidence(lead):
    at = fresh_app()
    candidate, references = "the cat sat on the mat", ["the cat lay on a mat"]
    set_texts(at, candidate, references)
    at.button(key="remove_reference_1").click().run()  # the example's second reference
    assert not at.exception, at.exception
    assert list(scores(at)["method"])[-1] == "ROUGE-Lead (first 3 tokens)"
    assert_table_matches(at, candidate, references)  # the same numbers and signature as rouge_core's
    at.session_state["evidence_tab"] = "Lead (toy)"
    at.run()
    assert not at.exception, at.exception
    stats = rc.score(candidate, references, ["rougeLead3"])["rougeLead3"].per_reference[0].stats
    assert stats.hits == 2
    assert "**ROUGE-Lead (first 3 tokens)**" in [plain(m.value) for m in at.markdown]
    assert any(plain(c.value).startswith("2 matched: precision 2 / 3 = 0.6667, recall 2 / 3 = 0.6667")
               for c in at.caption)


def test_the_learn_page_teaches_it(lead):
    at = run_page("the cat sat on the mat", ["the cat lay on a mat"], rc.profile("rouge-score"),
                  open_sections=("learn_open_lead",))
    assert [e.label for e in at.expander if e.label.startswith("ROUGE-Lead")] == ["ROUGE-Lead: the first words"]
    text = [plain(m.value) for m in at.markdown]
    assert "**ROUGE-Lead** measures the leading tokens both texts share." in text
    assert "ROUGE-Lead (first 3 tokens): 2 matched (tokens)." in text
    assert any("2/3" in m.value or "2 / 3" in m.value for m in at.markdown)  # the working of its fractions
