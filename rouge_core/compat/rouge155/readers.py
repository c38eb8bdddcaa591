"""Summary files as the script reads them: SEE (HTML), SPL, ISI, and SIMPLE Basic Element
files (`-3`: one head|modifier|relation line each); bytes in, byte lines out.

The script works on bytes, so the lines stay bytes until they reach the scorer: `-b` counts
bytes and non-ASCII bytes only ever separate tokens.
"""

from __future__ import annotations

import re

from ...errors import excerpt
from rouge_core.scorer.basic_elements import be_lines

from .errors import Rouge155Error

# The two SEE sentence patterns of readText: text runs to the first "<" (entities stay as is).
_SEE = (
    re.compile(rb'<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'),
    re.compile(rb'<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'),
)
_ISI = re.compile(rb'<S SNTNO="[0-9a-z,]+">([^<]+)</S>')


def _perl_lines(data: bytes) -> list[bytes]:
    """Perl's `<FH>` records: split after each newline, the newline kept."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def sentences_from_bytes(data: bytes, input_format: str, source: str = "<text>") -> list[bytes]:
    """The sentence list (`@sntList`) of one summary."""
    fmt = input_format.upper()
    if fmt == "SPL":
        # Every non-empty line (after removing its newline) is a sentence; a line of
        # whitespace is a sentence without tokens.
        return [line for line in data.split(b"\n") if line]
    if fmt == "SEE":
        out = []
        for line in _perl_lines(data):
            m = _SEE[0].match(line) or _SEE[1].match(line)
            if m:
                out.append(m.group(2))
        return out
    if fmt == "ISI":
        out = []
        for line in _perl_lines(data):
            m = _ISI.match(line)
            if m:
                out.append(m.group(1))
        return out
    if fmt == "SIMPLE":
        # Basic Element lines, each without its newline (checked when the units are built).
        return [line.encode("latin-1") for line in be_lines(data)]
    raise Rouge155Error(f"{source}: unknown input format {excerpt(input_format)}")


def read_sentences(path: str, input_format: str) -> list[bytes]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise Rouge155Error(f"{path}: summary file not found") from None
    except IsADirectoryError:
        raise Rouge155Error(f"{path}: is a directory, not a summary file") from None
    except OSError as exc:
        raise Rouge155Error(f"{path}: cannot read summary file ({exc.strerror})") from None
    return sentences_from_bytes(data, input_format, path)
