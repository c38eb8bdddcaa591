"""ROUGE-1.5.5's Basic Elements (-3): rouge155 against reports the original printed, and the
library's score_basic_elements.

rouge155-be.jsonl (made by tests/data/conformance/make_be_cases.py with the original script)
holds 240 synthetic cases over every mode, -m, -f A/B, -t 0/1/2, -p, -c and -r, each run as a
-z SIMPLE list with -d; the whole report must come out byte for byte.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from rouge_core.scorer.basic_elements import BE_MODES, BasicElementError, be_lines, be_units, score_basic_elements
from rouge_core.compat.rouge155 import evaluate, main
from tests.conformance import CONFORMANCE_DIR

DATA = CONFORMANCE_DIR / "rouge155-official" / "data"
CASES = [json.loads(line) for line in (CONFORMANCE_DIR / "rouge155-be.jsonl").read_text(encoding="utf-8").splitlines()]


def write_list(folder: Path, documents: list[dict]) -> Path:
    lines = []
    for d, doc in enumerate(documents):
        (folder / f"p{d}.be").write_bytes(doc["peer"].encode("utf-8"))
        models = []
        for m, model in enumerate(doc["models"]):
            (folder / f"m{d}.{m}.be").write_bytes(model.encode("utf-8"))
            models.append(str(folder / f"m{d}.{m}.be"))
        lines.append(" ".join([str(folder / f"p{d}.be"), *models]))
    listing = folder / "list"
    listing.write_text("\n".join(lines) + "\n")
    return listing


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_cases_cover_every_mode_and_flag():
    args = [case["args"] for case in CASES]
    for mode in BE_MODES:
        assert any(f"-3 {mode} " in a for a in args), mode
    for flag in ("-m", "-f B", "-t 1", "-t 2", "-p", "-c"):
        assert any(flag in a for a in args), flag


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_report_as_the_original_printed(case, tmp_path, capsys):
    listing = write_list(tmp_path, case["documents"])
    code, out, err = run(["-e", str(DATA), *shlex.split(case["args"]), "-z", "SIMPLE", str(listing), "S"], capsys)
    assert (code, err) == (0, "")
    assert out == case["expected"]


def test_known_units_and_scores():
    peer = "Gilbert|hurricane|nn\nswept|Dominican  Republic|toward\ngilbert|NIL|subj\n"
    model = "gilbert|Hurricane|NN\nswept|island|obj\nswept|dominican republic|gen\n"
    units = be_units(be_lines(peer), "HM")
    assert units.counts == {"gilbert|hurricane": 1, "swept|dominican  republic": 1} and units.total == 2
    # -m: WordNet's exception (swept -> sweep) or Porter's stem, word by word in multi-word slots
    assert be_units(be_lines(peer), "HM", stem=True).counts == {"gilbert|hurrican": 1, "sweep|dominican republ": 1}
    assert be_units(be_lines(peer), "H").counts == {"gilbert": 1}
    assert be_units(be_lines(peer), "HMR2").total == 3
    result = score_basic_elements(peer, [model], "HM", stemmer="rouge155", evidence=True)
    # 2 of the model's 3 units (gilbert|hurrican, sweep|dominican republ; not sweep|island) are the peer's 2
    assert (result.recall, result.precision, result.fmeasure) == (0.66667, 1.0, 0.8)
    assert result.per_reference[0].evidence.matches == (("gilbert|hurrican", 1, 1, 1), ("sweep|dominican republ", 1, 1, 1))
    assert result.signature.startswith("rougeBE-HM|profile:rouge-1.5.5|")


def test_the_count_key_quirk_of_mode_h():
    units = be_units(["_cn_|nil|nn", "storm|nil|nn"], "H")
    assert units.counts == {"storm": 1} and units.total == 3


def test_library_matches_rouge155_per_document_values(tmp_path, capsys):
    case = next(c for c in CASES if "-f B" in c["args"] and len(c["documents"][0]["models"]) > 1)
    mode = case["args"].split()[1]
    doc = case["documents"][0]
    options = dict(multi_ref="best-recall", stemmer="rouge155" if "-m" in case["args"].split() else "none")
    alpha = case["args"].split()[case["args"].split().index("-p") + 1] if "-p" in case["args"] else "0.5"
    got = score_basic_elements(doc["peer"], doc["models"], mode, data_dir=str(DATA), alpha=float(alpha), **options)
    report = evaluate(doc["peer"], doc["models"], f"-3 {mode} -f B -p {alpha} -d" + (" -m" if "-m" in case["args"].split() else ""),
                      input_format="SIMPLE", data_dir=str(DATA))
    printed = report.get(f"ROUGE-BE-{mode}").documents[0]
    assert (got.recall, got.precision, got.fmeasure) == (printed.recall, printed.precision, printed.f)
    assert got.stats.hits == printed.hit_count and got.stats.ref_total == printed.model_count


@pytest.mark.parametrize("text, message", [
    ("a|b\n", "line 1: 'a|b' is not a Basic Element: a BE line is HEAD|MODIFIER|RELATION (3 fields, found 2)"),
    ("a|b|c\n\nd|e|f\n", "line 2: '' is not a Basic Element"),
    ("a|b||\n", "found 2"),
    ("a|b|c|d\n", "found 4"),
])
def test_a_line_that_is_not_a_triple_is_named(tmp_path, capsys, text, message):
    assert be_units(be_lines("a|b|c|\n|b|c"), "HMR2").total == 2  # trailing empty fields dropped, leading kept
    with pytest.raises(BasicElementError, match=re.escape(message)):
        be_units(be_lines(text), "HM", source="x.be")
    (tmp_path / "peer.be").write_text(text)
    (tmp_path / "model.be").write_text("a|b|c\n")
    (tmp_path / "list").write_text(f"{tmp_path / 'peer.be'} {tmp_path / 'model.be'}\n")
    code, out, err = run(["-e", str(DATA), "-3", "HM", "-z", "SIMPLE", str(tmp_path / "list")], capsys)
    assert code == 1 and out == "" and f"{tmp_path / 'peer.be'}, line" in err


@pytest.mark.parametrize("argv, message", [
    (["-3", "hm"], "option -3 expects one of H, HM, HMR, HM1, HMR1, HMR2, got 'hm'"),
    (["-3", "HM", "-n", "2"], "-n (ROUGE-N) cannot be used with -3"),
    (["-3", "HM", "-w", "1.2", "-l", "10"], "-w (ROUGE-W), -l cannot be used with -3"),
    (["-3", "HMR", "-2", "4", "-s"], "-2 (ROUGE-S), -s cannot be used with -3"),
])
def test_flags_that_do_not_apply_to_basic_elements(capsys, argv, message):
    code, out, err = run([*argv, "-z", "SIMPLE", "list"], capsys)
    assert code == 2 and out == "" and message in err


def test_formats_and_basic_elements_must_agree(capsys, monkeypatch):
    official = CONFORMANCE_DIR / "rouge155-official"
    monkeypatch.chdir(official / "sample-test")
    code, _, err = run(["-e", "../data", "-3", "HM", "-n", "0", "DUC2002-ROUGE.in.26.spl.xml", "26"], capsys)
    assert code == 1 and "EVAL 1: -3 scores Basic Element files (INPUT-FORMAT SIMPLE), not SPL" in err
    code, _, err = run(["-e", "../data", "DUC2002-BE-F.in.26.simple.xml", "26"], capsys)
    assert code == 1 and "SIMPLE files hold Basic Elements: score them with -3" in err
    code, _, err = run(["-e", "../data", "-3", "H", "-z", "ISI", "DUC2002-BE-F.in.26.lst", "26"], capsys)
    assert code == 1 and "placeholder that reads nothing" in err


def test_library_settings_are_checked():
    with pytest.raises(BasicElementError, match="unknown Basic Element mode 'HX'"):
        score_basic_elements("a|b|c", ["a|b|c"], "HX")
    with pytest.raises(BasicElementError, match="stemmer must be one of none, rouge155, not 'porter'"):
        score_basic_elements("a|b|c", ["a|b|c"], "HM", "rouge-score", stemmer="porter")
    assert score_basic_elements("a|b|c", "a|b|c", "HMR", round_pr=None).fmeasure == 1.0
