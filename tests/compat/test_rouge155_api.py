"""`evaluate(...)`: summaries as strings or files, flags as a string or keywords, data out."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from rouge_core.compat.rouge155 import evaluate, runner
from rouge_core.compat.rouge155.errors import Rouge155Error

DATA = str(Path(__file__).resolve().parents[2] / "rouge_core" / "data")


@pytest.fixture
def oracle(monkeypatch):
    """Score with the test's transcription of the script, so only this layer is under test."""
    spec = importlib.util.spec_from_file_location(
        "rouge155_reference_oracle", Path(__file__).with_name("test_rouge155_reference.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    monkeypatch.setattr(runner, "_default_scorer", lambda: module.reference_counts)


def test_strings_and_keywords(oracle):
    report = evaluate("the cat sat on the mat", ["the cat was on the mat"], "-n 2", e=DATA, r=10)
    one = report.get("ROUGE-1")
    assert (one.recall.value, one.precision.value) == (0.83333, 0.83333)
    (doc,) = one.documents
    assert (doc.test_id, doc.recall, doc.hit_count, doc.model_count) == ("1.X", 0.83333, 5, 6)
    assert [r.metric for r in report.results] == ["ROUGE-1", "ROUGE-2", "ROUGE-L"]


def test_files_and_several_documents(oracle, tmp_path):
    (tmp_path / "p1.spl").write_text("a b c\n")
    (tmp_path / "m1.spl").write_text("a b d\n")
    report = evaluate([tmp_path / "p1.spl", "x y\n"], [[tmp_path / "m1.spl"], ["x z", "x y"]],
                      max_n=1, formula="B", data_dir=DATA, resamples=5, per_document=True)
    docs = report.get("ROUGE-1").documents
    assert [(d.eval_id, d.recall) for d in docs] == [("1", 0.66667), ("2", 1.0)]  # -f B: best model
    assert "X ROUGE-1 Eval 2.X R:1.00000 P:1.00000 F:1.00000" in report.text()


def test_pooled_and_raw_count_modes(oracle):
    raw = evaluate("the cat sat on the mat", ["the cat was on the mat"], "-n 1 -x -t 2 -d", e=DATA)
    assert raw.text() == ("-" * 45 + "\nX ROUGE-1 M_count: 6 P_count: 6 H_count: 5\n" + "." * 45 +
                          "\nX ROUGE-1 Eval 1.X R:6 P:6 F:5\n")
    pooled = evaluate("the cat sat on the mat", ["the cat was on the mat"], "-n 1 -x -t 1 -r 3", e=DATA)
    assert pooled.get("ROUGE-1").f.value == 0.83333


def test_bad_keyword():
    with pytest.raises(Rouge155Error, match="unknown option 'colour'"):
        evaluate("a", ["a"], colour="red")


def test_with_the_engine():
    report = evaluate("the fast brown fox jumped over the lazy dog",
                      ["the quick brown animal jumped over the lazy dog",
                       "the quick brown fox jumped over the lazy dog"],
                      "-n 2 -2 4 -U -w 1.2 -f A -p 0.5 -r 1", e=DATA)
    w = report.get("ROUGE-W-1.2").documents[0]
    assert (w.precision, w.recall, w.f) == (0.76421, 0.49245, 0.59895)  # seeds.jsonl, ROUGE-1.5.5
