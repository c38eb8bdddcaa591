"""`rouge155` / `python -m rouge_core.compat.rouge155`: a drop-in for ROUGE-1.5.5.pl."""

from __future__ import annotations

import os
import sys
from typing import Sequence

from ...errors import excerpt, short_text
from .api import evaluate_config
from .errors import USAGE_ERROR, Rouge155Error
from .flags import USAGE, parse_command_line

PROG = "rouge155"


def _run(argv: Sequence[str]) -> int:
    flags, rest = parse_command_line(argv)
    if flags.help:
        print(USAGE)
        return 0
    if not rest:
        raise Rouge155Error("missing CONFIG (the ROUGE configuration file)", USAGE_ERROR)
    if len(rest) > 2:
        raise Rouge155Error(
            f"unexpected argument {excerpt(rest[2])}: flags go before CONFIG [SYSTEM_ID]", USAGE_ERROR)
    report = evaluate_config(rest[0], flags, rest[1] if len(rest) > 1 else None)
    sys.stdout.write(report.text())
    sys.stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _run(argv)
    except Rouge155Error as exc:
        print(f"{PROG}: error: {short_text(' '.join(exc.message.split(chr(10))), 1000)}", file=sys.stderr)
        if exc.exit_code == USAGE_ERROR:
            print(f"{PROG}: try '{PROG} -h' for the usage", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one line, never a traceback, unless asked for
        if os.environ.get("ROUGE155_DEBUG"):
            raise
        print(f"{PROG}: error: {type(exc).__name__}: {exc} (set ROUGE155_DEBUG=1 for details)",
              file=sys.stderr)
        return 1
