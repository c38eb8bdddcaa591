"""Length limits as ROUGE-1.5.5 applies them (`-l` words, `-b` bytes), to both sides.

Limits cut sentence spans, never copy text, so token offsets still point into the user's
original text. Words are counted the script's way: Perl's `split(/\\s+/, $line)` on the raw
line, so punctuation counts, words joined by U+00A0 count as one, and a line that starts
with white space counts one extra, empty word.
"""

from __future__ import annotations

import re

_PERL_WORD = re.compile(r"[^ \t\n\r\f\v]+")
_PERL_SPACE = " \t\n\r\f\v"


def perl_whitespace_split(line: str) -> list[str]:
    """The fields of Perl's split(/\\s+/, $line) on a byte string (ASCII white space): a leading
    empty field when the line starts with white space, trailing empty fields dropped."""
    fields = _PERL_WORD.findall(line)
    if fields and line[0] in _PERL_SPACE:
        fields.insert(0, "")
    return fields


def _word_ends(line: str) -> list[int]:
    """End offset of each field of Perl's split(/\\s+/, line), trailing empty fields dropped."""
    ends = [m.end() for m in _PERL_WORD.finditer(line)]
    if ends and line[0] in _PERL_SPACE:
        ends.insert(0, 0)  # the leading empty field
    return ends


def _byte_cut(line: str, limit: int, encoding: str) -> int:
    """The character offset where the first `limit` bytes of `line` (encoded) end."""
    used = 0
    for i, ch in enumerate(line):
        used += len(ch.encode(encoding))
        if used > limit:
            return i
    return len(line)


def limit_spans(
    text: str, spans: list[tuple[int, int]], *, words: int | None = None, byte_limit: int | None = None,
    encoding: str = "utf-8",
) -> list[tuple[int, int]]:
    """Cut sentence spans to the first `words` words or `byte_limit` bytes of the text.

    As the script's reader: whole sentences are kept while the running total stays below
    the limit; the sentence that reaches it is cut, and the rest are dropped. Bytes count
    the sentences' own bytes (not the joins) in `encoding` (the rouge155 command line reads
    raw bytes as latin-1, one character per byte). A word limit wins over a byte limit.
    """
    if not words and not byte_limit:
        return spans
    out: list[tuple[int, int]] = []
    used = 0
    for start, end in spans:
        line = text[start:end]
        if words:
            ends = _word_ends(line)
            size, limit = len(ends), words
        else:
            size, limit = len(line.encode(encoding)), byte_limit
        if used + size < limit:
            out.append((start, end))
            used += size
            continue
        keep = limit - used
        if words:
            out.append((start, start + (ends[keep - 1] if keep > 0 else 0)))
        else:
            out.append((start, start + _byte_cut(line, keep, encoding)))
        break
    return out


def perl_lcs_byte_spans(text: str, spans: list[tuple[int, int]], byte_limit: int,
                        encoding: str = "utf-8") -> list[tuple[int, int]]:
    """The spans ROUGE-1.5.5's ROUGE-L/W reader keeps under `-b` (a defect, reproduced).

    Its byte counter never advances, so every sentence shorter than the limit is kept whole
    and only the first sentence at least as long as the limit is cut (and ends the text).
    """
    out: list[tuple[int, int]] = []
    for start, end in spans:
        line = text[start:end]
        if len(line.encode(encoding)) < byte_limit:
            out.append((start, end))
            continue
        out.append((start, start + _byte_cut(line, byte_limit, encoding)))
        break
    return out
