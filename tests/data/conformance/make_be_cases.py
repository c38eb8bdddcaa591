"""Generate rouge155-be.jsonl: Basic Element (-3) cases with the reports ROUGE-1.5.5.pl printed.

    python tests/data/conformance/make_be_cases.py --script ROUGE-1.5.5.pl --data DATA_DIR [--cases 240]

Needs Perl with XML::DOM and DB_File, the original script and a ROUGE data folder whose
WordNet-2.0.exc.db opens with this machine's Berkeley DB. Each case is a few documents of
synthetic BE files (seeded; multi-word heads, NIL slots, upper case, inflections for -m,
white-space runs, non-ASCII bytes, the `_cn_` head, trailing `|`) under a random mode and
flag set; the script runs them as a `-z SIMPLE` list with `-d` and its whole standard output
is kept. Not run by the tests (they replay the file with rouge155).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path

MODES = ["H", "HM", "HMR", "HM1", "HMR1", "HMR2"]
HEADS = ["gilbert", "swept", "hurricane", "storms", "is going", "Dominican Republic", "better", "best", "running",
         "ran", "winds", "agreement", "new  york", " leading space", "trailing space ", "café", "-LRB-", "Flooding",
         "was", "ISLANDS", "caused", "damages", "the storm", "_cn_", "x1", "as"]
MODIFIERS = HEADS[:14] + ["NIL", "nil", "NIL", "Nil", "powerful", "its", "miles per hour"]
RELATIONS = ["nn", "subj", "obj", "NIL", "nil", "toward", "gen", "mod", "punc", "NN"]


def be_line(rng: random.Random) -> str:
    line = "|".join([rng.choice(HEADS), rng.choice(MODIFIERS), rng.choice(RELATIONS)])
    return line + "|" if rng.random() < 0.05 else line  # a trailing empty field is dropped


def be_text(rng: random.Random, base: list[str]) -> str:
    """A BE file sharing about half of its lines with `base` (a summary of the same document)."""
    lines = [line for line in base if rng.random() < 0.5] + [be_line(rng) for _ in range(rng.randint(0, 12))]
    rng.shuffle(lines)
    ending = rng.choice(["\n", "\n", "\n", ""]) if lines else ""
    return "\n".join(lines) + ending


def make_case(rng: random.Random, number: int) -> dict:
    documents = []
    for _ in range(rng.randint(1, 4)):
        base = [be_line(rng) for _ in range(rng.randint(3, 15))]
        documents.append({"peer": be_text(rng, base),
                          "models": [be_text(rng, base) for _ in range(rng.randint(1, 3))]})
    flags = ["-3", rng.choice(MODES), "-d", "-r", str(rng.choice([1, 10, 50]))]
    if rng.random() < 0.5:
        flags.append("-m")
    if rng.random() < 0.4:
        flags += ["-f", "B"]
    if rng.random() < 0.3:
        flags += ["-t", rng.choice(["1", "2"])]
    if rng.random() < 0.3:
        flags += ["-p", rng.choice(["0.2", "0.8", "1", "0"])]
    if rng.random() < 0.2:
        flags += ["-c", rng.choice(["90", "99"])]
    return {"id": f"be-{number:04d}", "args": " ".join(flags), "documents": documents}


def run_script(case: dict, script: Path, data: Path) -> str:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        lines = []
        for d, doc in enumerate(case["documents"]):
            (folder / f"p{d}.be").write_bytes(doc["peer"].encode("utf-8"))
            models = []
            for m, model in enumerate(doc["models"]):
                (folder / f"m{d}.{m}.be").write_bytes(model.encode("utf-8"))
                models.append(f"m{d}.{m}.be")
            lines.append(" ".join([f"p{d}.be", *models]))
        (folder / "list").write_text("\n".join(lines) + "\n")
        run = subprocess.run(["perl", str(script), "-e", str(data), *case["args"].split(), "-z", "SIMPLE", "list", "S"],
                             cwd=folder, capture_output=True, check=True)
        return run.stdout.decode("utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--cases", type=int, default=240)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("rouge155-be.jsonl"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with args.out.open("w", encoding="utf-8") as out:
        for number in range(args.cases):
            case = make_case(rng, number)
            case["expected"] = run_script(case, args.script.resolve(), args.data.resolve())
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
