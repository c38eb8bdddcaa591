"""Every ROUGE-1.5.5 case of generated.jsonl and seeds.jsonl, through the command line.

Each case is written as SPL files plus an XML configuration in a tmp dir and run as
`rouge155 -d -e <data> <args> CONFIG S`; the per-document lines must print exactly the
5-decimal values the original printed.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from rouge_core.compat.rouge155 import main
from tests.conformance import CONFORMANCE_DIR, load_cases


def _cases() -> list:
    cases = []
    for name in ("generated.jsonl", "seeds.jsonl"):
        for case in load_cases(name):
            if case.get("tool") == "rouge155":
                cases.append(pytest.param(case, id=case["id"]))
    return cases


PER_DOC = re.compile(r"^S (ROUGE-\S+) Eval 1\.S R:(\S+) P:(\S+) F:(\S+)$")


def _write_case(folder: Path, case: dict) -> Path:
    (folder / "peer.spl").write_bytes(case["candidate"].encode("utf-8"))
    models = ""
    for i, ref in enumerate(case["references"]):
        (folder / f"model{i}.spl").write_bytes(ref.encode("utf-8"))
        models += f'<M ID="{i}">model{i}.spl</M>\n'
    config = folder / "config.xml"
    config.write_text(
        f'<ROUGE_EVAL version="1.0">\n<EVAL ID="1">\n<PEER-ROOT>{folder}</PEER-ROOT>\n'
        f'<MODEL-ROOT>{folder}</MODEL-ROOT>\n<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>\n'
        f'<PEERS><P ID="S">peer.spl</P></PEERS>\n<MODELS>\n{models}</MODELS>\n</EVAL>\n</ROUGE_EVAL>\n',
        encoding="utf-8")
    return config


@pytest.mark.parametrize("case", _cases())
def test_case_through_the_command_line(case, tmp_path, capsys):
    config = _write_case(tmp_path, case)
    data = CONFORMANCE_DIR / "rouge155-official" / "data"
    code = main(["-d", "-e", str(data), *shlex.split(case["args"]), str(config), "S"])
    out = capsys.readouterr().out
    assert code == 0
    printed = {}
    for line in out.splitlines():
        m = PER_DOC.match(line)
        if m:
            printed[m.group(1)] = {"r": m.group(2), "p": m.group(3), "f": m.group(4)}
    expected = {metric: {k: "%.5f" % v for k, v in prf.items()} for metric, prf in case["expected"].items()}
    assert printed == expected
