"""rouge-lens reads -c/-r files and --jsonl a chunk at a time (rouge_core.corpora.corpus_stream) and
gives what the whole-file path gives (--corpus reads the same file into memory)."""

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rouge_core import cli
from rouge_core.corpora import corpus_stream
from rouge_core.cli import main

WORDS = ["the", "cat", "sat", "on", "mat", "é", "dog", "ran"]


def jsonl(n, seed=0, systems=("candidate",)):
    import random

    rng = random.Random(seed)

    def text():
        return "\n".join(" ".join(rng.choices(WORDS, k=rng.randint(1, 6))) for _ in range(rng.randint(1, 2)))

    lines = []
    for i in range(n):
        row = {name: text() for name in systems}
        row["references"] = [text() for _ in range(2)]
        lines.append(json.dumps(row, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


def run(argv, capsys, stdin=None):
    code = main([str(a) for a in argv], stdin=stdin)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(1, 5), block=st.integers(1, 40), n=st.integers(1, 9))
def test_streamed_output_is_the_whole_file_output_in_every_chunking(rows, block, n, tmp_path_factory, capsys):
    """Chunks of 1..5 pairs, read in blocks of 1..40 bytes (boundaries inside a line's
    references, inside a UTF-8 character): the CSV, JSON and table are the in-memory ones."""
    folder = tmp_path_factory.mktemp("s")
    path = folder / "p.jsonl"
    path.write_bytes(jsonl(n, seed=n + block, systems=("candidate_A", "candidate_B")))
    common = ["-m", "rouge1", "rougeL", "rougeW-1.2", "--bootstrap", "20", "--seed", "3", "-q"]
    for fmt in ("csv", "json", "table"):
        whole = run(["--corpus", path, "-f", fmt, *common, "--per-pair"], capsys)
        old = (cli.STREAM_ROWS, corpus_stream.READ_BLOCK)
        cli.STREAM_ROWS, corpus_stream.READ_BLOCK = rows, block
        try:
            streamed = run(["--jsonl", path, "-f", fmt, *common, "--per-pair"], capsys)
            piped = run(["--jsonl", "-", "-f", fmt, *common, "--per-pair"], capsys, stdin=io.BytesIO(path.read_bytes()))
        finally:
            cli.STREAM_ROWS, corpus_stream.READ_BLOCK = old
        assert streamed == whole == piped, fmt


def test_parallel_files_stream_and_their_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "STREAM_ROWS", 2)
    (tmp_path / "c.txt").write_text("the cat sat\na dog<q>ran far\nit sat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on the mat\na dog ran\nit sat\n", encoding="utf-8")
    (tmp_path / "short.txt").write_text("the cat\n", encoding="utf-8")
    out = run(["-c", tmp_path / "c.txt", "-r", tmp_path / "r.txt", "-m", "rouge1", "-f", "csv"], capsys)
    lines = out.splitlines()
    assert lines[1].startswith("c.txt,1,rouge1,1.0,0.5,") or lines[1].split(",")[1:4] == ["1", "rouge1", "1.0"]
    assert [l.split(",")[1] for l in lines[1:4]] == ["1", "2", "3"] and lines[4].split(",")[1] == "mean"
    code = main([str(a) for a in ["-c", tmp_path / "c.txt", "-r", tmp_path / "short.txt", "-o", tmp_path / "o.csv"]])
    err = capsys.readouterr().err
    assert code == 2 and "different line counts" in err and err.count("\n") == 1
    assert not (tmp_path / "o.csv").exists() and not list(tmp_path.glob(".rouge-lens-*"))


def test_an_input_longer_than_the_bound_on_standard_input_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(cli, "MAX_INPUT_BYTES", 100)
    code = main(["--jsonl", "-", "-m", "rouge1"], stdin=io.BytesIO(jsonl(50)))
    err = capsys.readouterr().err
    assert code == 2 and "standard input" in err and "--no-cost-limit" in err
    assert main(["--jsonl", "-", "-m", "rouge1", "-q", "--no-cost-limit"], stdin=io.BytesIO(jsonl(50))) == 0


def test_a_later_line_with_a_new_candidate_column_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "STREAM_ROWS", 1)
    path = tmp_path / "p.jsonl"
    path.write_text('{"candidate": "a b", "reference": "a"}\n{"candidate": "a", "candidate_B": "b", "reference": "a"}\n',
                    encoding="utf-8")
    code = main(["--jsonl", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "line 2" in err and "candidate_B" in err


_CELL_TEXT = st.text(st.sampled_from(list("ab1 ,\"'\r\n=+-@\t\u2028é")), max_size=6)
_SCORE = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 1.0, 0.5]))


@settings(max_examples=150, deadline=None)
@given(system=_CELL_TEXT, rows=st.lists(st.tuples(_CELL_TEXT, _CELL_TEXT, _SCORE, _SCORE, _SCORE, _CELL_TEXT), max_size=6))
def test_per_pair_rows_written_fast_are_the_rows_the_csv_writer_writes(system, rows):
    """CsvRows.write_pair_scores builds the per-pair lines itself (a streamed corpus writes
    millions); they must be byte for byte what the csv writer writes for the same rows: quoting
    of commas, quotes and line ends, formula protection, every float's repr (0.0, -0.0, nan, inf,
    negative ones too)."""
    fast, slow = io.StringIO(newline=""), io.StringIO(newline="")
    cli.CsvRows(fast).write_pair_scores(system, rows)
    cli.CsvRows(slow).write(
        {"system": system, "pair": pair, "method": method, "precision": p, "recall": r, "fmeasure": f,
         "signature": signature} for pair, method, p, r, f, signature in rows)
    assert fast.getvalue() == slow.getvalue()
