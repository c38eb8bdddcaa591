"""Run both command lines of the installed rouge-lens (its console scripts, beside this Python) on a
small corpus, and check what they print.

    python tests/packaging/command_lines.py

`.ci/python-matrix` runs this in the clean virtual environment where the built wheel is installed.
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys
import tempfile
from pathlib import Path

import rouge_core

BIN = Path(sys.executable).parent
CANDIDATES = ["the cat sat on the mat", "police killed the gunman"]
REFERENCES = ["the cat was on the mat", "police shot the gunman dead"]


def run(*argv: str, cwd: Path) -> str:
    proc = subprocess.run([str(BIN / argv[0]), *argv[1:]], cwd=cwd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(argv)} exited {proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "cands.txt").write_text("".join(c + "\n" for c in CANDIDATES), encoding="utf-8")
        (work / "refs.txt").write_text("".join(r + "\n" for r in REFERENCES), encoding="utf-8")
        rows = list(csv.DictReader(io.StringIO(run("rouge-lens", "-c", "cands.txt", "-r", "refs.txt", "-m", "rouge1",
                                                   "-p", "rouge-score", "-f", "csv", "--per-pair", cwd=work))))
        # the library's numbers for the same pairs, printed in full
        want = {str(i): repr(rouge_core.score(c, [r], ["rouge1"], "rouge-score")["rouge1"].fmeasure)
                for i, (c, r) in enumerate(zip(CANDIDATES, REFERENCES), start=1)}
        got = {row["pair"]: row["fmeasure"] for row in rows if row["pair"] in want}
        print(f"rouge-lens: {got}")
        if got != want:
            raise SystemExit(f"FAIL: rouge-lens printed {got}, the library gives {want}")
        (work / "peer.spl").write_text("the cat sat on the mat\n", encoding="utf-8")
        (work / "model.spl").write_text("the cat was on the mat\n", encoding="utf-8")
        (work / "list.txt").write_text(f"{work / 'peer.spl'} {work / 'model.spl'}\n", encoding="utf-8")
        report = run("rouge155", "-n", "1", "-z", "SPL", "list.txt", cwd=work)
        line = next(line for line in report.splitlines() if "ROUGE-1 Average_R" in line)
        print(f"rouge155: {line}")
        if not line.startswith("X ROUGE-1 Average_R: 0.83333 "):
            raise SystemExit(f"FAIL: rouge155 printed {line!r}")
    print("command lines: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
