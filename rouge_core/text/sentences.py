"""Sentence splitting: where a text's sentences start and end (rougeLsum and the
summary-level views work on them)."""

from __future__ import annotations

import re

from ..errors import excerpt

SENTENCE_SPLITTERS = ("newline", "punctuation", "none")


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])[\"'”’)\]]*\s+")


def split_sentences(text: str, how: str = "newline", *, keep_blank: bool = False) -> list[tuple[int, int]]:
    """Sentence spans [start, end) in `text`.

    newline: one sentence per line; empty lines are skipped (as ROUGE-1.5.5 and rouge-score
    do), a whitespace-only line is kept unless `keep_blank` is False and it is empty.
    punctuation: also break after ., !, ? (and CJK stops) followed by white space.
    none: the whole text is one sentence.
    """
    if how == "none":
        return [(0, len(text))] if text else []
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        start, end = pos, pos + len(line)
        pos = end + 1
        if not line and not keep_blank:
            continue
        if how == "punctuation":
            piece_start = start
            for m in _SENTENCE_END.finditer(line):
                spans.append((piece_start, start + m.start()))
                piece_start = start + m.end()
            if piece_start < end or piece_start == start:
                spans.append((piece_start, end))
        elif how == "newline":
            spans.append((start, end))
        else:
            raise ValueError(f"unknown sentence splitter {excerpt(how)}; choose one of {SENTENCE_SPLITTERS}")
    return spans
