"""Issue 30 on the Review page: a corpus with source documents shows the source beside the
summary (rating and blinded comparison), and a reload from the link brings the sources back from
the judgements database."""

import sys
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lens_app import review_tasks as rt  # noqa: E402
from tests.app.test_review_meta_pages import CORPUS, review  # noqa: E402

SOURCED = replace(CORPUS, sources=tuple(f"Source <i>document</i> of {i} with its whole story." for i in CORPUS.ids))


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGE_LENS_DB", str(tmp_path / "judgements.sqlite3"))


def html(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def test_the_source_is_beside_the_summary_and_comes_back_with_the_link(db):
    at = review(corpus=SOURCED)
    assert "Source &lt;i&gt;document&lt;/i&gt; of doc00" in html(at)
    assert any(m.value == "**Source document**" for m in at.markdown)
    at.button(key="verdict_1").click().run()  # stores the corpus with the first verdict
    reloaded = review(annotator="", params=dict(at.query_params), corpus=None)
    assert reloaded.session_state["corpus_data"] == SOURCED
    assert "Source &lt;i&gt;document&lt;/i&gt; of doc00" in html(reloaded)
    at.selectbox(key="review_task").set_value(rt.DEFAULT_TASKS[1].name).run()  # the blinded comparison
    assert not at.exception, at.exception
    assert "Source &lt;i&gt;document&lt;/i&gt; of doc00" in html(at)


def test_no_source_no_column(db):
    at = review()
    assert not any(m.value == "**Source document**" for m in at.markdown)
