"""A ROUGE home folder for tools that call the Perl script (pyrouge, files2rouge): a
`ROUGE-1.5.5.pl` that runs `rouge155`, and the `data/` folder it reads.

    python -m rouge_core.compat.rouge155.home ~/rouge155-home
    pyrouge_set_rouge_path ~/rouge155-home     # or Rouge155(rouge_dir=...)

pyrouge runs `<home>/ROUGE-1.5.5.pl -e <home>/data <flags> -m <config.xml>` as a program;
the shim hands those arguments to rouge155 (this Python, this installation), which prints
the same report the Perl script prints.
"""

from __future__ import annotations

import shlex
import shutil
import stat
import sys
from pathlib import Path

from ...text.resources import BUNDLED_DATA_DIR, DATA_FILES

SCRIPT = "ROUGE-1.5.5.pl"


def make_home(directory: str | Path, python: str | None = None) -> Path:
    """Write `<directory>/ROUGE-1.5.5.pl` (executable) and `<directory>/data/`; returns the shim."""
    home = Path(directory).expanduser()
    data = home / "data"
    for name in DATA_FILES:
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(BUNDLED_DATA_DIR / name, data / name)
    shim = home / SCRIPT
    interpreter = shlex.quote(python or sys.executable)
    shim.write_text(f'#!/bin/sh\n# ROUGE-1.5.5.pl for tools that call it: runs rouge_core\'s rouge155.\n'
                    f'exec {interpreter} -m rouge_core.compat.rouge155 "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return shim


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print("usage: python -m rouge_core.compat.rouge155.home DIRECTORY\n"
              "writes DIRECTORY/ROUGE-1.5.5.pl (runs rouge155) and DIRECTORY/data for pyrouge and files2rouge",
              file=sys.stderr if len(argv) != 1 else sys.stdout)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    try:
        shim = make_home(argv[0])
    except OSError as exc:
        print(f"rouge155-home: error: {argv[0]}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {shim} and {shim.parent / 'data'}; point pyrouge at {shim.parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
