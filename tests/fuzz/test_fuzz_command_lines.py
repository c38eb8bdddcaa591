"""Fuzzing both command lines, `rouge-lens` (rouge_core.cli) and `rouge155`, on random argv
and random files: `main()` returns an exit status, never raises (SystemExit included), and
fails only with its documented one-line errors. The debug switches make any other exception
escape `main`'s last-resort handler, so the test sees it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import event, given
from hypothesis import strategies as st

from rouge_core import cli
from rouge_core.compat import rouge155
from tests.fuzzing import FUZZ, fuzz

TRICKY = "\u2028\u0085\x0c\x0b\x1c\r\t \ufeff=+-@'\",<>&é{}[]:"
WORDS = ["the", "cat", "sat", "on", "mat", "<q>", "<s>", "-LRB-", "é", "a.", "B"]


def line_text():
    return st.lists(st.one_of(st.sampled_from(WORDS), st.text(TRICKY, max_size=3)), max_size=8).map(" ".join)


ENCODINGS = ["utf-8", "utf-16", "utf-8-sig"]


def junk():
    return st.one_of(st.binary(max_size=60), st.text(TRICKY + "[]{}0123456789\\u\n", max_size=60).map(str.encode),
                     st.integers(1, 2000).map(lambda k: b"[" * k), st.just(b'{"candidate": ' + b"1" * 5000 + b"}"))


@st.composite
def files(draw):
    """f0.txt and f2.txt (line files, mostly of the same length: pairs get scored), f1.jsonl;
    now and then junk in place of any of them."""
    n = draw(st.integers(0, 4))
    lines = st.lists(line_text(), min_size=n, max_size=n).map(lambda ls: "\n".join(ls) + "\n")
    rows = st.lists(st.fixed_dictionaries({"candidate": line_text(), "references": st.lists(line_text(), max_size=2)}),
                    max_size=3).map(lambda rows: "\n".join(json.dumps(r, ensure_ascii=False) for r in rows))
    result = {}
    for name, text in (("f0.txt", lines), ("f1.jsonl", rows), ("f2.txt", lines)):
        data = draw(text).encode(draw(st.sampled_from(ENCODINGS)))
        result[name] = draw(junk()) if draw(st.integers(0, 5)) == 0 else data
    return result


# Free tokens never hold a path separator (a random "-o/abs/path" must not write outside the
# temporary folder the test runs in), nor three digits in a row (a random "-r99999" would only
# spend time on bootstrap resamples).
free_tokens = st.text(st.sampled_from("-abcmrfo0123456789.=*_ q" + TRICKY), max_size=8).filter(
    lambda t: os.sep not in t and "/" not in t and "\\" not in t and not re.search(r"\d{3}", t))
FILES = ["f0.txt", "f1.jsonl", "f2.txt", "f3.xml", "missing.txt", "."]


def argv_of(units: list[list[str]]) -> list[str]:
    return [token for unit in units for token in unit]


rouge_lens_units = st.one_of(
    st.tuples(st.sampled_from(["-c", "-r", "--jsonl", "--stopwords"]), st.sampled_from(FILES)).map(list),
    st.tuples(st.just("-m"), st.lists(st.sampled_from(["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeLsum-best",
                                                       "rougeW-1.2", "rougeS4", "rougeS*", "rougeSU*", "ROUGE-SU4",
                                                       "rouge0", "rougeW-0", "rougeX"]), min_size=1, max_size=3))
    .map(lambda t: [t[0], *t[1]]),
    st.tuples(st.sampled_from(["-p", "--tokenizer", "--stemmer", "--multi-ref", "--sentence-split", "--sentence-sep",
                               "-f", "--alpha", "--beta"]),
              st.sampled_from(["rouge-score", "rouge-1.5.5", "matlab", "reval", "unicode", "porter", "pooled", "max",
                               "newline", "punctuation", "csv", "json", "table", "0.5", "2", "-1", "nan", "", "<q>"]))
    .map(list),
    st.sampled_from([["--per-pair"], ["-q"], ["--case-sensitive"], ["-o", "out.txt"], ["--help"], ["--version"]]),
    free_tokens.map(lambda t: [t]),
)

rouge155_units = st.one_of(
    st.sampled_from([["-a"], ["-d"], ["-m"], ["-s"], ["-u"], ["-U"], ["-x"], ["-v"], ["-h"], ["-M"], ["-3", "HM"]]),
    st.tuples(st.sampled_from(["-n", "-l", "-b", "-2", "-t", "-c", "-p", "-w", "-r", "-f", "-z"]),
              st.sampled_from(["0", "1", "2", "4", "-1", "95", "0.5", "1.2", "B", "A", "SPL", "SEE", "x", ""])).map(list),
    st.tuples(st.just("-e"), st.sampled_from(["data", "missing", "."])).map(list),
    st.sampled_from(FILES).map(lambda f: [f]),
    st.just(["S"]),
    free_tokens.map(lambda t: [t]),
)


def _xml_config() -> bytes:
    return (b"<ROUGE_EVAL><EVAL ID='1'><PEER-ROOT>.</PEER-ROOT><MODEL-ROOT>.</MODEL-ROOT>"
            b"<INPUT-FORMAT TYPE='SPL'/><PEERS><P ID='S'>f0.txt</P></PEERS>"
            b"<MODELS><M ID='A'>f2.txt</M><M ID='B'>f1.jsonl</M></MODELS></EVAL></ROUGE_EVAL>")


@contextlib.contextmanager
def _sandbox(files: dict[str, bytes], **env: str):
    """A temporary working folder holding the files, the debug switch on, output captured."""
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder), mock.patch.dict(os.environ, env):
        for name, data in files.items():
            Path(name).write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err


rouge_lens_inputs = st.sampled_from([["-c", "f0.txt", "-r", "f2.txt"], ["-c", "f0.txt", "-r", "f2.txt", "-r", "f0.txt"],
                                      ["--jsonl", "f1.jsonl"], []])


@fuzz
@FUZZ
@given(rouge_lens_inputs, st.lists(rouge_lens_units, max_size=4).map(argv_of), files())
def test_rouge_lens_main_returns_a_status(inputs, extra, contents):
    argv = inputs + extra
    with _sandbox({**contents, "f3.xml": _xml_config()}, ROUGE_LENS_DEBUG="1") as (out, err):
        try:
            status = cli.main(argv)
        except SystemExit as exc:  # pragma: no cover - the property is that this never happens
            raise AssertionError(f"main raised SystemExit({exc.code})") from exc
    assert status in (0, 2)
    event(f"status {status}" + (": " + err.getvalue().split(":")[2][:30] if status else ""))
    if status == 2:
        assert err.getvalue().startswith("rouge-lens: error: ") and err.getvalue().count("\n") == 1
        assert out.getvalue() == ""


rouge155_configs = st.sampled_from([["f3.xml", "S"], ["-a", "f3.xml"], ["-z", "SPL", "f4.lst", "S"], ["f3.xml"], []])


@fuzz
@FUZZ
@given(st.lists(rouge155_units, max_size=5).map(argv_of), rouge155_configs, st.lists(rouge155_units, max_size=1).map(argv_of),
       files())
def test_rouge155_main_returns_a_status(flags, config, extra, contents):
    argv = ["-r", "20", *flags, *config, *extra]  # -r 20: the default 1000 resamples would only cost time
    lst = b"f0.txt f2.txt\nf2.txt f0.txt f2.txt\n"
    with _sandbox({**contents, "f3.xml": _xml_config(), "f4.lst": lst}, ROUGE155_DEBUG="1") as (out, err):
        try:
            status = rouge155.main(argv)
        except SystemExit as exc:  # pragma: no cover
            raise AssertionError(f"main raised SystemExit({exc.code})") from exc
    assert status in (0, 1, 2)
    event(f"status {status}" + (": " + err.getvalue().split("error: ")[-1][:30] if status else ""))
    if status:
        errors = [line for line in err.getvalue().splitlines() if line.startswith("rouge155: error: ")]
        assert len(errors) == 1 and out.getvalue() == ""
