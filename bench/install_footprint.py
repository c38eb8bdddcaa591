"""What installing ROUGE Lens costs: disk size of a fresh virtual environment and `import rouge_core` time.

    python bench/install_footprint.py                 # this checkout: core install and the app's requirements
    python bench/install_footprint.py --source DIR    # another checkout (e.g. an older commit's clone)

For each install kind it creates a new venv (python3 -m venv), records the size of an empty
venv, runs pip, and reports what pip added on disk (MB), the number of distributions
installed, and the wall time of `python -c "import rouge_core"` in fresh interpreters
(median of --runs, after one warm-up run that compiles the byte code). Not part of the
test suite: it installs from the package index and takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KINDS = {
    "core": lambda src: [str(src)],                               # pip install .
    "app": lambda src: ["-r", str(src / "requirements.txt")],     # the README's command
}


def tree_size(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            full = os.path.join(root, name)
            if not os.path.islink(full):
                total += os.path.getsize(full)
    return total


def import_seconds(python: Path, runs: int, cwd: Path) -> float:
    command = [str(python), "-c", "import rouge_core"]
    # Byte code written and reused, as on a user's machine (some shells set PYTHONDONTWRITEBYTECODE).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, check=True, cwd=cwd, env=env)  # warm-up: byte code compiled once
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, cwd=cwd, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bare_interpreter_seconds(python: Path, runs: int, cwd: Path) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([str(python), "-c", "pass"], check=True, cwd=cwd)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(kind: str, source: Path, runs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"footprint-{kind}-") as scratch:
        venv = Path(scratch) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        empty = tree_size(venv)
        python = venv / "bin" / "python"
        # The requirements file names `-e .`, relative to the directory pip runs in.
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        *KINDS[kind](source)], check=True, cwd=source)
        added = tree_size(venv) - empty
        listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"], check=True,
                                capture_output=True, text=True, cwd=scratch).stdout.split()
        neutral = Path(scratch)  # not the checkout, so an installed (not a local) rouge_core is timed for "core"
        return {
            "kind": kind, "added_mb": added / 1e6, "distributions": len(listed),
            "import_s": import_seconds(python, runs, neutral if kind == "core" else source),
            "interpreter_s": bare_interpreter_seconds(python, runs, neutral),
        }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--kinds", nargs="+", choices=sorted(KINDS), default=list(KINDS))
    args = parser.parse_args(argv)
    if shutil.which("git"):
        head = subprocess.run(["git", "-C", str(args.source), "log", "-1", "--format=%h %s"],
                              capture_output=True, text=True).stdout.strip()
        print(f"source: {args.source} ({head[:72]})")
    print("| install | added on disk | distributions | import rouge_core | bare interpreter |")
    print("|---|---|---|---|---|")
    for kind in args.kinds:
        row = measure(kind, args.source.resolve(), args.runs)
        print(f"| {row['kind']} | {row['added_mb']:.1f} MB | {row['distributions']} | "
              f"{row['import_s'] * 1000:.0f} ms | {row['interpreter_s'] * 1000:.0f} ms |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
