"""Word splitters: a text -> (term, start, end) triples, one splitter per tokenizer.

Each reproduces one tool's idea of a word (ROUGE-1.5.5's bytes, rouge-score's [a-z0-9],
whitespace-separated tokens as given, Unicode words, CJK characters); offsets point into the
text as typed.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable

TOKENIZERS = ("rouge155", "rouge-score", "whitespace", "unicode", "cjk")


_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]+")
_ASCII_LOWER_ALNUM = re.compile(r"[a-z0-9]+")
_NON_SPACE = re.compile(r"\S+")
_UNICODE_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def _split_rouge155(text: str, lowercase: bool) -> list[tuple[str, int, int]]:
    # ROUGE-1.5.5 works on bytes: every byte outside [A-Za-z0-9] separates tokens, so
    # non-ASCII letters (all their UTF-8 bytes are >= 0x80) vanish: "café" -> "caf".
    return [
        (m.group().lower() if lowercase else m.group(), m.start(), m.end())
        for m in _ASCII_ALNUM.finditer(text)
    ]


def _split_rouge_score(text: str, lowercase: bool) -> list[tuple[str, int, int]]:
    # rouge-score lower-cases with Python's Unicode rules *before* dropping non-[a-z0-9],
    # so "İ" (lower: "i" + U+0307) keeps an "i" and the Kelvin sign becomes "k".
    if not lowercase:
        return _split_rouge155(text, lowercase=False)
    if text.isascii():
        return [(m.group().lower(), m.start(), m.end()) for m in _ASCII_ALNUM.finditer(text)]
    lowered: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        low = ch.lower()
        lowered.append(low)
        origin.extend([i] * len(low))
    flat = "".join(lowered)
    return [
        (m.group(), origin[m.start()], origin[m.end() - 1] + 1)
        for m in _ASCII_LOWER_ALNUM.finditer(flat)
    ]


def _split_whitespace(text: str, lowercase: bool) -> list[tuple[str, int, int]]:
    return [
        (m.group().lower() if lowercase else m.group(), m.start(), m.end())
        for m in _NON_SPACE.finditer(text)
    ]


def _split_unicode(text: str, lowercase: bool) -> list[tuple[str, int, int]]:
    out = []
    for m in _UNICODE_WORD.finditer(text):
        term = unicodedata.normalize("NFC", m.group())
        out.append((term.lower() if lowercase else term, m.start(), m.end()))
    return out


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (
        0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0x3400 <= code <= 0x4DBF  # extension A
        or 0x20000 <= code <= 0x2FA1F  # extensions B.. and compatibility supplement
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or 0x3040 <= code <= 0x30FF  # hiragana, katakana
        or 0xAC00 <= code <= 0xD7AF  # hangul syllables
    )


def _split_cjk(text: str, lowercase: bool) -> list[tuple[str, int, int]]:
    # CJK characters are tokens of their own; runs of other word characters stay words.
    out = []
    for term, start, end in _split_unicode(text, lowercase):
        run_start = None
        for i in range(start, end):
            if _is_cjk(text[i]):
                if run_start is not None:
                    out.append((term[run_start - start : i - start], run_start, i))
                    run_start = None
                out.append((text[i], i, i + 1))
            elif run_start is None:
                run_start = i
        if run_start is not None:
            out.append((term[run_start - start :], run_start, end))
    return out


SPLITTERS: dict[str, Callable[[str, bool], list[tuple[str, int, int]]]] = {
    "rouge155": _split_rouge155,
    "rouge-score": _split_rouge_score,
    "whitespace": _split_whitespace,
    "unicode": _split_unicode,
    "cjk": _split_cjk,
}
