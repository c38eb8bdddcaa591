"""pyrouge 0.1.3 runs the ROUGE-1.5.5.pl shim of rouge_core.compat.rouge155.home, as it runs
the Perl script, and reads the same numbers rouge155 computes."""

from __future__ import annotations

import pytest

from rouge_core.compat.rouge155 import evaluate
from rouge_core.compat.rouge155.home import make_home

pyrouge = pytest.importorskip("pyrouge", reason="pyrouge is a test dependency (requirements-test.txt)")

SYSTEM = {"1": "the cat sat on the mat\nit was happy", "2": "police killed the gunman"}
MODELS = {"1": ["the cat was on the mat\nthe cat was happy", "a cat sat on a mat"],
          "2": ["police shot the gunman dead", "the gunman was killed by police"]}


def test_pyrouge_runs_the_shim_and_gets_rouge155s_numbers(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # pyrouge keeps its settings in ~/.pyrouge
    shim = make_home(tmp_path / "rouge-home")
    system_dir, model_dir = tmp_path / "system", tmp_path / "model"
    system_dir.mkdir()
    model_dir.mkdir()
    for doc, text in SYSTEM.items():
        (system_dir / f"doc{doc}.txt").write_text(text, encoding="utf-8")
        for k, model in enumerate(MODELS[doc]):
            (model_dir / f"doc{doc}.{'AB'[k]}.txt").write_text(model, encoding="utf-8")

    rouge = pyrouge.Rouge155(rouge_dir=str(shim.parent))
    rouge.system_dir, rouge.model_dir = str(system_dir), str(model_dir)
    rouge.system_filename_pattern = r"doc(\d+).txt"
    rouge.model_filename_pattern = "doc#ID#.[A-Z].txt"
    output = rouge.convert_and_evaluate()
    scores = rouge.output_to_dict(output)

    # pyrouge's default flags, on the same texts given to rouge155 directly
    report = evaluate([SYSTEM[d] for d in sorted(SYSTEM)], [MODELS[d] for d in sorted(SYSTEM)],
                      "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m")
    for metric, key in (("ROUGE-1", "rouge_1"), ("ROUGE-2", "rouge_2"), ("ROUGE-L", "rouge_l"),
                        ("ROUGE-SU*", "rouge_su*")):
        row = report.get(metric)
        assert scores[f"{key}_recall"] == pytest.approx(row.recall.value, abs=5e-6), metric
        assert scores[f"{key}_f_score"] == pytest.approx(row.f.value, abs=5e-6), metric
    assert scores["rouge_1_recall"] > 0.5
