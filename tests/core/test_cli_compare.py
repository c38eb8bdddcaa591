"""`rouge-lens compare` (issue 30): two systems compared from the command line, with sources, and
the self-contained HTML report."""

from __future__ import annotations

import io
import json

from rouge_core.cli import main

A = "the cat sat on the mat\na dog ran home\nrain fell on the town\n"
B = "a cat is on a mat\nthe dog slept\nthe town was wet\n"
R = "the cat sat on a mat<q>it was happy\na dog ran home<q>then it slept\nrain fell<q>the town was wet\n"
S = "the cat sat on the mat all day. it was happy.\na dog ran home and then it slept\nrain fell on the town\n"


def files(tmp_path):
    for name, text in (("A.txt", A), ("B.txt", B), ("R.txt", R), ("S.txt", S)):
        (tmp_path / name).write_text(text)
    return [str(tmp_path / n) for n in ("A.txt", "B.txt", "R.txt", "S.txt")]


def test_compare_json_with_sources_and_report(tmp_path, capsys):
    a, b, r, s = files(tmp_path)
    report = tmp_path / "report.html"
    code = main(["compare", "-c", a, "-c", b, "-r", r, "--source", s, "--bootstrap", "100", "-f", "json", "-q",
                 "--report", str(report)], stdin=io.BytesIO())
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["system_a"], doc["system_b"], doc["method"]) == (a, b, "rouge1")
    assert doc["signature"].startswith("rouge1|") and doc["source_signature"].startswith("abstractiveness|")
    mine = {row["ngram"]: row for row in doc["tables"][f"n-grams {a}"]}
    assert mine["a dog ran home"]["matched_a"] == 1 and mine["a dog ran home"]["matched_b"] == 0
    source = {(row["system"], row["label"]): row["mean"] for row in doc["tables"]["source"]}
    # A's first summary is copied whole (coverage 1); its second ("a dog ran home") too; its third too
    assert source[(a, "coverage")] == 1.0
    html = report.read_text()
    assert html.startswith("<!doctype html>") and "<script" not in html and html.count("<svg") >= 6
    assert doc["data_sha256"]["sources"] in html


def test_compare_refusals(tmp_path, capsys):
    a, b, r, s = files(tmp_path)
    assert main(["compare", "-c", a, "-r", r], stdin=io.BytesIO()) == 2
    assert "comparing needs two systems" in capsys.readouterr().err
    assert main(["compare", "-c", a, "-c", b, "-r", r, "-a", "nope"], stdin=io.BytesIO()) == 2
    assert "--system-a: no system 'nope'" in capsys.readouterr().err
    assert main(["compare", "-c", a, "-c", b, "-r", r, "--source", str(tmp_path / "missing.txt")],
                stdin=io.BytesIO()) == 2
    assert "no such file" in capsys.readouterr().err
    # the scoring command is unchanged
    assert main(["-c", a, "-r", r, "-q"], stdin=io.BytesIO()) == 0
