"""The command line, in process and as `python -m rouge_core`."""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_core.cli import main
from rouge_core.version import __version__

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "cands.txt").write_text("the cat is sitting on the mat\nthe cat sat<q>it was cute\n", encoding="utf-8")
    (tmp_path / "refs.txt").write_text("the cat sat on the mat\nthe cat sat<q>it is cute\n", encoding="utf-8")
    (tmp_path / "refs2.txt").write_text("a cat was on the mat\nit was cute\n", encoding="utf-8")
    return tmp_path


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_table_mean_and_signature(files, capsys):
    code, out, err = run(["-c", files / "cands.txt", "-r", files / "refs.txt", "-m", "rouge1", "rougeL"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    # pair 1: P 5/7, R 5/6, F 10/13; pair 2 ("was" vs "is"): 5/6 each
    mean_r1 = next(l for l in lines if l.split()[:2] == ["mean", "rouge1"])
    assert mean_r1.split()[2:] == [f"{(5/7 + 5/6) / 2:.4f}", f"{5/6:.4f}", f"{(10/13 + 5/6) / 2:.4f}"]
    assert any("rouge1|profile:rouge-score|" in l and "refs:1" in l for l in lines)


def test_csv_per_pair_and_mean(files, capsys):
    code, out, _ = run(["-c", files / "cands.txt", "-r", files / "refs.txt", "-m", "rouge1", "-f", "csv"], capsys)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["pair"] for r in rows] == ["1", "2", "mean", "micro"]
    assert float(rows[3]["precision"]) == 10 / 13 and float(rows[3]["recall"]) == 10 / 12  # pooled: (5+5)/(7+6), (5+5)/(6+6)
    assert float(rows[0]["precision"]) == 5 / 7 and float(rows[0]["recall"]) == 5 / 6
    assert float(rows[1]["recall"]) == 5 / 6
    assert float(rows[2]["precision"]) == pytest.approx((5 / 7 + 5 / 6) / 2)
    assert float(rows[2]["recall"]) == pytest.approx(5 / 6)
    assert rows[0]["signature"].startswith("rouge1|profile:rouge-score")


def test_sentence_separator_feeds_rougelsum(files, capsys):
    code, out, _ = run(["-c", files / "cands.txt", "-r", files / "refs.txt", "-m", "rougeLsum", "-f", "json"], capsys)
    doc = json.loads(out)
    pair2 = doc["pairs"][1]["scores"]["rougeLsum"]
    # sentences ["the cat sat", "it was cute"] vs ["the cat sat", "it is cute"]: 5 of 6 tokens
    assert pair2["precision"] == pytest.approx(5 / 6) and pair2["recall"] == pytest.approx(5 / 6)
    code, out, _ = run(["-c", files / "cands.txt", "-r", files / "refs.txt", "-m", "rougeLsum", "-f", "json",
                        "--sentence-sep", ""], capsys)
    # without the separator "<q>" stays in the text and is tokenized as the word "q"
    assert json.loads(out)["pairs"][1]["scores"]["rougeLsum"]["recall"] == pytest.approx(6 / 7)


def test_multiple_references_and_modes(files, capsys):
    base = ["-c", files / "cands.txt", "-r", files / "refs.txt", "-r", files / "refs2.txt", "-m", "rouge1", "-f", "json"]
    _, out, _ = run(base, capsys)
    doc = json.loads(out)
    assert doc["pairs"][0]["scores"]["rouge1"]["recall"] == pytest.approx(5 / 6)  # best F: refs.txt
    assert "refs:2" in doc["signatures"]["rouge1"]
    _, out, _ = run(base + ["--profile", "rouge-1.5.5", "--multi-ref", "pooled"], capsys)
    doc = json.loads(out)
    # pooled: hits 5 + 4 (a cat was on the mat vs candidate: cat on the mat... clipped), refs 6 + 6
    assert doc["pairs"][0]["scores"]["rouge1"]["recall"] == pytest.approx(round((5 + 4) / 12, 5))
    assert "profile:rouge-1.5.5" in doc["signatures"]["rouge1"] and "multi:pooled" in doc["signatures"]["rouge1"]


def test_jsonl_with_sentence_lists(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(o) for o in [
        {"candidate": ["the cat is on the mat", "it is cute"],
         "references": [["the dog is on the mat", "the animal is cute", "the pet sleeps well"]]},
        {"candidate": "a b c", "references": "c b a"},
    ]) + "\n", encoding="utf-8")
    code, out, _ = run(["--jsonl", path, "-m", "rougeLsum", "rougeLsum-best", "rougeL", "--profile", "reval", "-f", "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    best = doc["pairs"][0]["scores"]["rougeLsum-best"]
    assert (round(best["precision"], 4), best["recall"]) == (0.7778, 0.5)
    assert doc["pairs"][1]["scores"]["rougeL"]["fmeasure"] == pytest.approx(1 / 3)


def test_options_alpha_beta_stopwords_stemmer(files, tmp_path, capsys):
    base = ["-c", files / "cands.txt", "-r", files / "refs.txt", "-m", "rouge1", "-f", "json"]
    _, out, _ = run(base + ["--beta", "1e9"], capsys)  # F -> recall
    assert json.loads(out)["pairs"][0]["scores"]["rouge1"]["fmeasure"] == pytest.approx(5 / 6, rel=1e-6)
    _, out, _ = run(base + ["--alpha", "1"], capsys)  # alpha 1: F = P
    assert json.loads(out)["pairs"][0]["scores"]["rouge1"]["fmeasure"] == pytest.approx(5 / 7)
    _, out, _ = run(base + ["--alpha", "0"], capsys)  # alpha 0: F = R
    assert json.loads(out)["pairs"][0]["scores"]["rouge1"]["fmeasure"] == pytest.approx(5 / 6)
    stop = tmp_path / "stop.txt"
    stop.write_text("the\n", encoding="utf-8")
    _, out, _ = run(base + ["--stopwords", stop], capsys)
    # without "the": cat is sitting on mat (5) vs cat sat on mat (4): hits 3
    s = json.loads(out)["pairs"][0]["scores"]["rouge1"]
    assert (s["precision"], s["recall"]) == (3 / 5, 3 / 4)
    _, out, _ = run(base + ["--stemmer", "porter"], capsys)
    assert "stem:porter" in json.loads(out)["signatures"]["rouge1"]


def test_output_file(files, tmp_path, capsys):
    target = tmp_path / "out.csv"
    code, out, _ = run(["-c", files / "cands.txt", "-r", files / "refs.txt", "-f", "csv", "-o", target], capsys)
    assert code == 0 and out == ""
    assert target.read_bytes().startswith(
        b"system,pair,method,precision,recall,fmeasure,fmeasure_low,fmeasure_high,p_bootstrap,p_permutation,signature\r\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_output_to_what_is_not_a_regular_file_is_written_into_it_not_replaced(files, tmp_path, capsys):
    """-o /dev/null or a FIFO: the output is written into it. Renaming a finished temporary file
    onto the path (what a regular file gets) replaced the device or pipe itself with a plain file
    (run as root, `-o /dev/null` turned /dev/null into a regular file)."""
    import stat
    import threading

    (tmp_path / "out").mkdir()
    fifo = tmp_path / "out" / "out.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, out, _ = run(["-c", files / "cands.txt", "-r", files / "refs.txt", "-f", "csv", "-o", fifo], capsys)
    reader.join(timeout=30)
    assert code == 0 and out == ""
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received and received[0].startswith(b"system,pair,method,")
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["out.fifo"]  # no temporary left beside it


def test_output_through_a_symbolic_link_replaces_its_target(files, tmp_path, capsys):
    """A link to the output file stays a link; its target gets the output (renamed next to it)."""
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.csv"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    code, _, _ = run(["-c", files / "cands.txt", "-r", files / "refs.txt", "-f", "csv", "-o", link], capsys)
    assert code == 0 and link.is_symlink()
    assert target.read_bytes().startswith(b"system,pair,method,")
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["out.csv"]


def test_progress_on_stderr(tmp_path, capsys):
    (tmp_path / "c.txt").write_text("a b\n" * 2001, encoding="utf-8")
    (tmp_path / "r.txt").write_text("a c\n" * 2001, encoding="utf-8")
    code, out, err = run(["-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "-m", "rouge1"], capsys)
    assert code == 0
    # streamed: the total is not known ahead; a few lines per tenfold (1,000, 2,000, ... 10,000, 20,000, ...)
    assert err.splitlines() == ["rouge-lens: scored 1,000 pairs", "rouge-lens: scored 2,000 pairs"]
    code, out, err = run(["-q", "-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "-m", "rouge1"], capsys)
    assert err == ""


@pytest.mark.parametrize("argv, message", [
    (["-c", "missing.txt", "-r", "{refs}"], "missing.txt: no such file"),
    (["-c", "{cands}", "-r", "{short}"], "different line counts"),
    (["-c", "{latin1}", "-r", "{short}"], "latin1.txt is not UTF-8 text: line 1 has byte 0xe9 (offset 3)"),
    (["-c", "{cands}", "-r", "{refs}", "-m", "rougeX"], "unknown ROUGE method 'rougeX'"),
    (["-c", "{cands}", "-r", "{refs}", "--profile", "nope"], "unknown profile 'nope'"),
    (["-c", "{cands}", "-r", "{refs}", "--bogus"], "unrecognized arguments: --bogus"),
    (["-c", "{cands}", "-r", "{refs}", "--alpha", "2"], "alpha must be in [0, 1]"),
    (["-c", "{cands}", "-r", "{refs}", "--alpha", "x"], "invalid float value"),
    (["-c", "{cands}", "-r", "{refs}", "--stemmer", "snowball-klingon"], "unknown Snowball language"),
    (["-c", "{cands}"], "give -c CANDIDATES and at least one -r"),
    (["--jsonl", "{badjson}"], "badjson.jsonl line 2 is not valid JSON (Expecting property name"),
    (["--jsonl", "{badjson}", "-c", "{cands}"], "give one input: -c/-r files, --jsonl FILE or --corpus FILE"),
])
def test_errors_are_one_line_exit_2(files, capsys, argv, message):
    (files / "short.txt").write_text("one\n", encoding="utf-8")
    (files / "latin1.txt").write_bytes(b"caf\xe9\n")
    (files / "badjson.jsonl").write_text('{"candidate": "a", "references": ["a"]}\n{oops\n', encoding="utf-8")
    names = {"refs": files / "refs.txt", "cands": files / "cands.txt", "short": files / "short.txt",
             "latin1": files / "latin1.txt", "badjson": files / "badjson.jsonl"}
    code, out, err = run([a.format(**{k: str(v) for k, v in names.items()}) for a in argv], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("rouge-lens: error: ") and message in err
    assert "Traceback" not in err


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_subprocess_module_entry(files):
    proc = subprocess.run([sys.executable, "-m", "rouge_core", "-c", str(files / "cands.txt"), "-r", str(files / "refs.txt"),
                           "-m", "rouge1", "-f", "csv"], capture_output=True, text=True, env=_env(), cwd=files)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert float(rows[0]["fmeasure"]) == pytest.approx(10 / 13)


def test_subprocess_error_has_no_traceback(files):
    proc = subprocess.run([sys.executable, "-m", "rouge_core", "-c", "nope.txt", "-r", "nope2.txt"],
                          capture_output=True, text=True, env=_env(), cwd=files)
    assert proc.returncode == 2
    assert proc.stderr == "rouge-lens: error: nope.txt: no such file\n"
    assert proc.stdout == ""


# --- issue 14: the command line reads files as the app does (rouge_core.text.textio) -------------

@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\r"])
def test_line_files_end_lines_only_at_newline(tmp_path, capsys, sep):
    (tmp_path / "c.txt").write_bytes(f"a b{sep}c\r\nd e\n".encode())
    (tmp_path / "r.txt").write_bytes(b"a b c\nx y\n")
    code, out, err = run(["-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "-m", "rouge1", "-f", "json",
                          "--tokenizer", "whitespace"], capsys)
    assert (code, err) == (0, "")
    pairs = json.loads(out)["pairs"]
    assert len(pairs) == 2 and pairs[1]["scores"]["rouge1"]["recall"] == 0.0  # "d e" vs "x y", not shifted


def test_jsonl_with_raw_u2028_and_utf16_files(tmp_path, capsys):
    line = json.dumps({"candidate": "the cat\u2028sat", "references": ["the cat sat"]}, ensure_ascii=False)
    (tmp_path / "p.jsonl").write_bytes((line + "\n").encode("utf-16"))
    code, out, err = run(["--jsonl", tmp_path / "p.jsonl", "-m", "rouge1", "-f", "json"], capsys)
    assert (code, err) == (0, "") and json.loads(out)["pairs"][0]["scores"]["rouge1"]["fmeasure"] == 1.0
    (tmp_path / "c.txt").write_bytes(codecs.BOM_UTF16_BE + "le thé\n".encode("utf-16-be"))
    (tmp_path / "r.txt").write_bytes("\ufeffle thé\n".encode("utf-8"))
    code, out, err = run(["-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "-m", "rouge1", "-f", "json",
                          "--tokenizer", "unicode"], capsys)
    assert (code, err) == (0, "") and json.loads(out)["pairs"][0]["scores"]["rouge1"]["fmeasure"] == 1.0


@pytest.mark.parametrize("data, message", [
    (b"[" * 100000, "p.jsonl line 1 is nested more than 100 levels deep"),
    (b'{"candidate": ' + b"1" * 5000 + b', "references": ["r"]}', "p.jsonl line 1 holds an integer of more than 4,300 digits"),
    (b'{"candidate": "\\ud800", "references": ["r"]}', "p.jsonl line 1 holds a lone surrogate (\\ud800)"),
    ("x\n".encode("utf-16-le"), "looks like UTF-16 (little-endian) text without a byte-order mark"),
])
def test_hostile_files_are_one_line_errors(tmp_path, capsys, data, message):
    (tmp_path / "p.jsonl").write_bytes(data)
    code, out, err = run(["--jsonl", tmp_path / "p.jsonl"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"rouge-lens: error: {tmp_path}") and message in err and err.count("\n") == 1
    assert "Error:" not in err  # a documented message, not an exception's name


def test_cost_limit_is_a_one_line_error(tmp_path, capsys):
    # 4,500 distinct words: well above the bound (3,000 measure 1.2 s and 767 MB, but are
    # estimated just inside it: see tests/core/test_guard_rails.py's DISTINCT_LONG)
    (tmp_path / "c.txt").write_text(" ".join(f"w{i}" for i in range(4500)) + "\n", encoding="utf-8")
    code, out, err = run(["-c", tmp_path / "c.txt", "-r", tmp_path / "c.txt", "-m", "rougeS*"], capsys)
    assert (code, out) == (2, "") and err.startswith("rouge-lens: error: ") and err.count("\n") == 1
    assert "--no-cost-limit" in err and "CostLimitError" not in err and "ROUGE_LENS_DEBUG" not in err


def test_help_and_version_return_instead_of_exiting(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"rouge-lens {__version__}\n"
    assert main(["--help"]) == 0
    assert "Files are UTF-8" in capsys.readouterr().out


# --- issue 15 #4 and issue 18 #5: one corpus path, and what the library offers -------------------

def _systems(tmp_path):
    refs = ["the cat sat on the mat", "a dog ran home", "the sun is hot today", "rain fell all day long"] * 5
    better = ["the cat sat on a mat", "a dog ran home fast", "the sun is hot", "rain fell all night"] * 5
    worse = ["a cat", "dog", "sun hot", "it rained"] * 5
    for name, lines in (("refs.txt", refs), ("better.txt", better), ("worse.txt", worse)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return refs, better, worse


def test_standard_input_is_a_file_called_dash(files, capsys):
    data = (files / "cands.txt").read_bytes()
    code = main(["-c", "-", "-r", str(files / "refs.txt"), "-m", "rouge1", "-f", "json"], stdin=io.BytesIO(data))
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert json.loads(out)["pairs"][0]["scores"]["rouge1"]["precision"] == 5 / 7
    code = main(["-c", "-", "-r", "-"], stdin=io.BytesIO(data))
    assert code == 2 and "only one input can be read from standard input" in capsys.readouterr().err


def test_bootstrap_intervals_are_the_librarys(tmp_path, capsys):
    import rouge_core

    refs, better, _ = _systems(tmp_path)
    code, out, _ = run(["-c", tmp_path / "better.txt", "-r", tmp_path / "refs.txt", "-m", "rouge1", "rougeL",
                        "--bootstrap", "300", "--seed", "7", "--confidence", "90", "-f", "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    want = rouge_core.score_corpus(better, [[r] for r in refs], ["rouge1", "rougeL"]).bootstrap(300, 7, 90)
    shown = doc["systems"][0]["intervals"]
    for method in ("rouge1", "rougeL"):
        assert shown["mean"][method] == {"low": want.macro[method]["fmeasure"].low, "high": want.macro[method]["fmeasure"].high}
        assert shown["micro"][method]["low"] == want.micro[method]["fmeasure"].low
    assert doc["bootstrap"] == {"resamples": 300, "seed": 7, "confidence": 90.0}


def test_several_systems_with_paired_tests_in_every_format(tmp_path, capsys):
    import rouge_core
    from rouge_core.corpora.corpus import compare_systems

    refs, better, worse = _systems(tmp_path)
    argv = ["-c", tmp_path / "better.txt", "-c", tmp_path / "worse.txt", "-r", tmp_path / "refs.txt", "-m", "rouge1",
            "--bootstrap", "200"]
    code, out, _ = run(argv + ["-f", "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert [s["name"] for s in doc["systems"]] == [str(tmp_path / "better.txt"), str(tmp_path / "worse.txt")]
    a = rouge_core.score_corpus(better, [[r] for r in refs], ["rouge1"])
    b = rouge_core.score_corpus(worse, [[r] for r in refs], ["rouge1"])
    want = compare_systems(a, b, "rouge1", names=(str(tmp_path / "better.txt"), str(tmp_path / "worse.txt")), resamples=200)
    [shown] = doc["comparisons"]
    assert (shown["p_bootstrap"], shown["p_permutation"], shown["difference"]) == \
        (want.bootstrap.p_value, want.permutation.p_value, want.difference.value)
    assert shown["summary"] == want.summary() and "Both tests find the difference significant" in shown["summary"]
    code, out, _ = run(argv, capsys)
    assert want.summary() in out and out.count("system ") == 2
    code, out, _ = run(argv + ["-f", "csv"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    [difference] = [r for r in rows if r["pair"] == "difference"]
    assert float(difference["p_bootstrap"]) == want.bootstrap.p_value and difference["signature"].startswith("rouge1|")


def test_a_corpus_table_and_workers_give_the_same_numbers(tmp_path, capsys):
    refs, better, worse = _systems(tmp_path)
    rows = ["id,candidate_A,candidate_B,reference"] + [f"p{i},{b},{w},{r}" for i, (b, w, r) in enumerate(zip(better, worse, refs))]
    (tmp_path / "corpus.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    _, sequential, _ = run(["--corpus", tmp_path / "corpus.csv", "-m", "rouge1", "rougeLsum", "-f", "json"], capsys)
    _, parallel, _ = run(["--corpus", tmp_path / "corpus.csv", "-m", "rouge1", "rougeLsum", "-f", "json", "--workers", "2"],
                         capsys)
    assert json.loads(sequential) == json.loads(parallel)
    doc = json.loads(sequential)
    assert [s["name"] for s in doc["systems"]] == ["candidate_A", "candidate_B"]
    assert doc["systems"][0]["pairs"][0]["pair"] == "p0"
