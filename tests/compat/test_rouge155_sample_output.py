"""Byte-for-byte: all 17 official ROUGE-1.5.5 sample outputs (1000 bootstrap resamples each),
the four Basic Element (-3) runs included."""

from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path

import pytest

from rouge_core.compat.rouge155 import main
from rouge_core.compat.rouge155.api import evaluate_config
from rouge_core.compat.rouge155.flags import parse_command_line
from tests.conformance import CONFORMANCE_DIR


OFFICIAL = CONFORMANCE_DIR / "rouge155-official"
_BASE = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2"
# (expected output, flags, config, system id) as in rouge155-official/README.md
RUNS = [
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a.out", f"{_BASE} -a", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out", f"{_BASE} -a -m", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-s.out", f"{_BASE} -a -m -s", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a.out", f"{_BASE} -l 10 -a", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m.out", f"{_BASE} -l 10 -a -m", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m-s.out", f"{_BASE} -l 10 -a -m -s", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a.out", f"{_BASE} -b 75 -a", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m.out", f"{_BASE} -b 75 -a -m", "ROUGE-test.xml", None),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out", f"{_BASE} -b 75 -a -m -s", "ROUGE-test.xml", None),
    ("DUC2002-ROUGE.in.26.spl.lst.out", "-n 4 -z SPL", "DUC2002-ROUGE.in.26.spl.lst", "26"),
    ("DUC2002-ROUGE.in.26.spl.out", "-n 4", "DUC2002-ROUGE.in.26.spl.xml", "26"),
    ("verify-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out", f"{_BASE} -b 75 -a -m -s", "verify.xml", None),
    ("verify-spl-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out", f"{_BASE} -b 75 -a -m -s", "verify-spl.xml", None),
    # Basic Elements, pre-extracted (runROUGE-test.pl's -3 HM runs)
    ("DUC2002-BE-F.in.26.lst.out", "-3 HM -z SIMPLE", "DUC2002-BE-F.in.26.lst", "26"),
    ("DUC2002-BE-F.in.26.simple.out", "-3 HM", "DUC2002-BE-F.in.26.simple.xml", "26"),
    ("DUC2002-BE-L.in.26.lst.out", "-3 HM -z SIMPLE", "DUC2002-BE-L.in.26.lst", "26"),
    ("DUC2002-BE-L.in.26.simple.out", "-3 HM", "DUC2002-BE-L.in.26.simple.xml", "26"),
]
IDS = [r[0] for r in RUNS]
# The transcribed counting covers the text metrics; Basic Elements have their own tests.
TEXT_RUNS = [r for r in RUNS if " -m" not in r[1] and "-3" not in r[1]]


@pytest.fixture
def sample_test_dir(monkeypatch):
    monkeypatch.chdir(OFFICIAL / "sample-test")  # the configs' paths are relative to it
    return OFFICIAL


@pytest.mark.parametrize("expected, flags, config, system_id", RUNS, ids=IDS)
def test_sample_output_byte_for_byte(sample_test_dir, capsys, expected, flags, config, system_id):
    argv = ["-e", "../data", *shlex.split(flags), config] + ([system_id] if system_id else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out == (sample_test_dir / "sample-output" / expected).read_text()


def _reference_scorer():
    spec = importlib.util.spec_from_file_location(
        "rouge155_reference_oracle", Path(__file__).with_name("test_rouge155_reference.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.reference_counts


@pytest.mark.parametrize("expected, flags, config, system_id", TEXT_RUNS, ids=[r[0] for r in TEXT_RUNS])
def test_front_door_with_transcribed_counts(sample_test_dir, expected, flags, config, system_id):
    """The report layer alone, fed by the test's transcription of the script's counting."""
    options, _ = parse_command_line(["-e", "../data", *shlex.split(flags)])
    report = evaluate_config(config, options, system_id, scorer=_reference_scorer())
    assert report.text() == (sample_test_dir / "sample-output" / expected).read_text()


def test_every_official_output_is_reproduced():
    assert sorted(r[0] for r in RUNS) == sorted(p.name for p in (OFFICIAL / "sample-output").iterdir())
    assert len(RUNS) == 17
