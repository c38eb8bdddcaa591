"""`rouge155` / `python -m rouge_core.compat.rouge155`: a drop-in for ROUGE-1.5.5.pl."""

from __future__ import annotations

import os
import shlex
import sys
from typing import Sequence

from ...errors import short_text
from .api import evaluate_config
from .errors import USAGE_ERROR, Rouge155Error
from .flags import USAGE, Flags, parse_command_line

PROG = "rouge155"


def split_arguments(flags: Flags, rest: Sequence[str]) -> tuple[str, str | None, list[str]]:
    """CONFIG, SYSTEM_ID (or None) and the arguments left unread, by ROUGE-1.5.5.pl's rule.

    The script's options end at the first argument that is not one (Getopt::Std), so CONFIG
    and whatever follows it are plain arguments: it reads `$ARGV[0]` as CONFIG and `$ARGV[1]`
    as SYSTEM_ID (without -a, or with -z, which turns -a off), and nothing after them. pyrouge
    relies on it: with a configuration already in `rouge_args` it appends `-m <its own config>`,
    which the script never reads (so that `-m` does not stem either)."""
    config = rest[0]
    if flags.all_systems and not flags.list_format:
        return config, None, list(rest[1:])  # -a evaluates every system: a SYSTEM_ID is not read
    return config, (rest[1] if len(rest) > 1 else None), list(rest[2:])


def ignored_reason(flags: Flags, ignored: Sequence[str], rest: Sequence[str]) -> str:
    reasons = []
    if flags.all_systems and not flags.list_format and len(rest) > 1:
        reasons.append("-a evaluates every system, so no SYSTEM_ID is read")
    if len(rest) > 2 or not reasons:
        reasons.append("it reads CONFIG [SYSTEM_ID] and nothing after them")
    if any(a.startswith("-") and len(a) > 1 for a in ignored):
        reasons.append("flags after CONFIG do not apply (they go before it)")
    return "; ".join(reasons)


def _run(argv: Sequence[str]) -> int:
    flags, rest = parse_command_line(argv)
    if flags.help:
        print(USAGE)
        return 0
    if not rest:
        raise Rouge155Error("missing CONFIG (the ROUGE configuration file)", USAGE_ERROR)
    config, system_id, ignored = split_arguments(flags, rest)
    if ignored:
        print(f"{PROG}: note: ignoring {' '.join(shlex.quote(a) for a in ignored)} after CONFIG, as ROUGE-1.5.5.pl "
              f"does: {ignored_reason(flags, ignored, rest)}", file=sys.stderr)
    report = evaluate_config(config, flags, system_id)
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
