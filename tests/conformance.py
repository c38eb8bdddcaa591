"""Shared helpers for the conformance data in tests/data/conformance (a copy of the team's
shared/conformance; see its README). The data is part of the repository: a missing file is an
error, never a skip."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import rouge_core

REPO = Path(__file__).resolve().parents[1]
CONFORMANCE_DIR = Path(os.environ.get("ROUGE_CONFORMANCE_DIR", REPO / "tests" / "data" / "conformance"))


def load_cases(name: str) -> list[dict]:
    path = CONFORMANCE_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"conformance data {path} is missing (it belongs to the repository)")
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def rouge155_setup(args: str) -> tuple[rouge_core.Options, dict[str, str]]:
    """Options and {printed metric name: rouge_core method} for a ROUGE-1.5.5 flag string."""
    words = shlex.split(args)
    flags: dict[str, str | bool] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-n", "-2", "-w", "-f", "-p", "-r", "-l", "-b", "-c"):
            flags[word] = words[i + 1]
            i += 2
        else:
            flags[word] = True
            i += 1
    opts = rouge_core.profile(
        "rouge-1.5.5",
        stemmer="rouge155" if flags.get("-m") else "none",
        stopwords="smart" if flags.get("-s") else "none",
        multi_ref="best-recall" if flags.get("-f") == "B" else "pooled",
        alpha=float(flags.get("-p", 0.5)),
        limit_words=int(flags["-l"]) if "-l" in flags else None,
        limit_bytes=int(flags["-b"]) if "-b" in flags else None,
    )
    methods = {f"ROUGE-{n}": f"rouge{n}" for n in range(1, int(flags.get("-n", 0)) + 1)}
    if not flags.get("-x"):
        methods["ROUGE-L"] = "rougeLsum"
    if "-w" in flags:
        methods[f"ROUGE-W-{float(flags['-w']):g}"] = f"rougeW-{flags['-w']}"
    if "-2" in flags:
        d = int(flags["-2"])
        tag = "*" if d < 0 else str(d)
        if flags.get("-U") or not flags.get("-u"):
            methods[f"ROUGE-S{tag}"] = f"rougeS{tag}"
        if flags.get("-u") or flags.get("-U"):
            methods[f"ROUGE-SU{tag}"] = f"rougeSU{tag}"
    return opts, methods
