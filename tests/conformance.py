"""Shared helpers for the conformance data in tests/data/conformance (a copy of the team's
shared/conformance; see its README). The data is part of the repository: a missing file is an
error, never a skip."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import rouge_core
from rouge_core.compat.rouge155.flags import parse_command_line
from rouge_core.compat.rouge155.scoring import metrics_for

REPO = Path(__file__).resolve().parents[1]
CONFORMANCE_DIR = Path(os.environ.get("ROUGE_CONFORMANCE_DIR", REPO / "tests" / "data" / "conformance"))


def load_cases(name: str) -> list[dict]:
    path = CONFORMANCE_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"conformance data {path} is missing (it belongs to the repository)")
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def rouge155_setup(args: str) -> tuple[rouge_core.Options, dict[str, str]]:
    """Options and {printed metric name: rouge_core method name} for a ROUGE-1.5.5 flag string,
    as the drop-in maps its flags onto the `rouge-1.5.5` profile."""
    flags, _ = parse_command_line(shlex.split(args))
    return flags.options, {metric.name: metric.method.name for metric in metrics_for(flags)}
