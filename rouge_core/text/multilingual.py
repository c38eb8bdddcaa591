"""XL-Sum's multilingual ROUGE tokenization and stemming (the `multilingual` tokenizer and
profile, and rouge_core.compat.multilingual_rouge).

XL-Sum's scorer (csebuetnlp's fork of rouge-score, on PyPI as `multilingual-rouge`) reads a
text in these steps, reproduced here with every token keeping its offsets in the user's text:

1. lower-case the whole text (Python's `str.lower`);
2. its BERT-style basic tokenizer: drop control and format characters (category C, but tab
   and line ends), NUL and U+FFFD; split at white space and at punctuation (Unicode category
   P and every ASCII character that is not a letter or digit), dropping the punctuation;
   combining marks stay; the pieces are joined again with single spaces;
3. its language's segmenter on that joined text: PyThaiNLP `newmm` for Thai (which returns the
   joining spaces as tokens of their own, and XL-Sum counts them), jieba for Chinese (same),
   MeCab (fugashi, wakati) for Japanese, a rule-based syllable splitter for Burmese (which
   removes all white space first, so Latin words in Burmese text fall apart into letters);
4. without a segmenter (or when it finds nothing), OpenNMT's `aggressive` tokenizer
   (pyonmttok: letters split from digits, every symbol a token) and then one token per CJK
   ideograph;
5. with `use_stemmer`, its language's stemmer on tokens longer than 3 characters (Porter
   without a language); empty tokens are dropped.

Its rougeLsum reads each line with step 2 alone (no segmenter, no OpenNMT): the
`xlsum-basic` tokenizer; the drop-in reproduces that. The whole text is tokenized at once
(segmenters see line ends as the joining spaces), so the `multilingual` splitter is marked
`whole_text`: the pipeline cuts its tokens into sentences by their offsets.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from itertools import chain
from functools import lru_cache
from typing import Callable

from ..errors import excerpt
from .languages import ALIASES, UNRUNNABLE_STEMMERS, XLSUM_STEMMED
from ..kernels import native
from .segment import (MissingExtraError, align, chinese_segmenter, compiled_jieba, japanese_segmenter, require,
                      thai_segmenter)

Triples = list[tuple[str, int, int]]
# One character of a rebuilt text: where it stands in the user's text, [start, end).
Origin = tuple[int, int]

STEMMER_PREFIX = "xlsum-"
# The stemmers XL-Sum's scorer has: its languages' own, and Porter when no language is given.
STEMMER_LANGUAGES = ("porter", *XLSUM_STEMMED)
MIN_STEM_LENGTH = 3  # XL-Sum stems tokens longer than this (its min_char_length)


# --- step 1: lower-case, keeping where each character came from ----------------------------


def lower_with_origin(text: str, lowercase: bool = True) -> tuple[str, list[int]]:
    """`text.lower()` of the whole text (so a final Σ becomes ς, as Python does it) and, per
    character of the result, its index in `text` ("İ" lower-cases to two characters)."""
    if not lowercase:
        return text, list(range(len(text)))
    lowered = text.lower()
    if len(lowered) == len(text):  # no character grew (none lower-cases to nothing): one to one
        return lowered, list(range(len(text)))
    origin: list[int] = []
    for i, ch in enumerate(text):
        origin.extend([i] * len(ch.lower()))
    if len(origin) != len(lowered):  # no context rule changes a length today; stay safe if one does
        lowered = "".join(ch.lower() for ch in text)
    return lowered, origin


# --- step 2: the basic tokenizer -----------------------------------------------------------


def _is_dropped(ch: str) -> bool:
    if ch in "\t\n\r":
        return False
    return ch == "\0" or ch == "\ufffd" or unicodedata.category(ch).startswith("C")


def _is_space(ch: str) -> bool:
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


class _BasicClasses(dict):
    """str.translate's table of the basic tokenizer's classes, filled as characters are met: a
    dropped character maps to None, a separator (white space or punctuation) to a space, any
    other character to itself."""

    def __missing__(self, code: int):
        ch = chr(code)
        if _is_dropped(ch):
            value = None
        elif _is_space(ch) or ch.isspace() or _is_punctuation(ch):
            value = " "
        else:
            value = ch
        self[code] = value
        return value


_CLASSES = _BasicClasses()
_NOT_SPACE = re.compile(r"[^ ]+")


def basic_pieces(text: str, lowercase: bool = True) -> list[tuple[str, list[int]]]:
    """The basic tokenizer's pieces of `text`, each with the index in `text` of every one of
    its characters."""
    lowered, origin = lower_with_origin(text, lowercase)
    classed = lowered.translate(_CLASSES)
    if len(classed) == len(lowered):  # nothing dropped: the pieces are the runs between separators
        return [(m.group(), origin[m.start():m.end()]) for m in _NOT_SPACE.finditer(classed)]
    return _basic_pieces(lowered, origin)


def _basic_pieces(lowered: str, origin: list[int]) -> list[tuple[str, list[int]]]:
    """basic_pieces character by character (text holding characters the tokenizer drops)."""
    chars: list[str] = []
    where: list[int] = []
    for ch, i in zip(lowered, origin):
        if _is_dropped(ch):
            continue
        chars.append(" " if _is_space(ch) else ch)
        where.append(i)
    pieces: list[tuple[str, list[int]]] = []
    current: list[int] = []  # positions in chars of the piece being read

    def close() -> None:
        if current:
            pieces.append(("".join(chars[k] for k in current), [where[k] for k in current]))
            current.clear()

    for k, ch in enumerate(chars):
        # Python's str.split() white space (it also splits at U+2028, U+2029 and the like)
        if ch.isspace() or _is_punctuation(ch):
            close()
        else:
            current.append(k)
    close()
    return pieces


def split_basic(text: str, lowercase: bool = True) -> Triples:
    """XL-Sum's basic tokenizer (step 2): the `xlsum-basic` tokenizer."""
    pieces = _fast_pieces(text, lowercase)
    if pieces is None:
        pieces = basic_pieces(text, lowercase)
    return [(piece, where[0], where[-1] + 1) for piece, where in pieces]


def _joined(pieces: list[tuple[str, list[int]]]) -> tuple[str, "_Origins"]:
    """The pieces joined by single spaces, as XL-Sum passes them to a segmenter, with each
    character's span in the user's text; a joining space spans the gap it stands for."""
    return " ".join(piece for piece, _ in pieces), _Origins(pieces)


class _Origins(Sequence):
    """Per character of the joined pieces, its span [start, end) in the user's text (a piece's
    character: its own; a joining space: the gap between the pieces), found when asked."""

    __slots__ = ("_pieces", "_starts", "_length")

    def __init__(self, pieces: list[tuple[str, list[int]]]) -> None:
        self._pieces = pieces
        starts = []
        position = 0
        for piece, _ in pieces:
            starts.append(position)
            position += len(piece) + 1
        self._starts = starts
        self._length = max(position - 1, 0)

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, position: int) -> Origin:
        if position < 0:
            position += self._length
        if not 0 <= position < self._length:
            raise IndexError(position)
        k = bisect_right(self._starts, position) - 1
        offset = position - self._starts[k]
        piece, where = self._pieces[k]
        if offset < len(piece):
            return where[offset], where[offset] + 1
        gap_start = where[-1] + 1  # the space after piece k
        return gap_start, max(gap_start, self._pieces[k + 1][1][0])


# --- steps 3 and 4: segmenters and the OpenNMT fallback ------------------------------------


_TX = "\u1037\u103a"  # Myanmar dot below + asat, which XL-Sum reorders to asat + dot below
_ASAT = "\u103a"
_STACK = "\u1039"
_DEPENDENT = frozenset([chr(0x102B + k) for k in range(8)] + [chr(0x1036 + k) for k in range(3)]
                       + [chr(0x103B + k) for k in range(4)] + [_ASAT])


def _burmese_units(text: str, origins: list[Origin]) -> list[tuple[str, list[Origin]]]:
    """XL-Sum's rule-based Burmese splitter (syllable-like units), on characters that keep
    their origins: reorder dot below + asat; remove all white space; attach dependent signs to
    the character before them; attach a short unit holding an asat to the unit before it (a
    unit that was itself attached leaves an empty slot, so the next one stays alone, as in
    XL-Sum); glue units around a lone stacking sign."""
    chars = list(text)
    where = list(origins)
    k = 0
    while k < len(chars) - 1:  # str.replace(TX, XT): left to right, without overlaps
        if chars[k] + chars[k + 1] == _TX:
            chars[k], chars[k + 1] = chars[k + 1], chars[k]
            where[k], where[k + 1] = where[k + 1], where[k]
            k += 2
        else:
            k += 1
    kept = [(c, o) for c, o in zip(chars, where) if not c.isspace()]
    units: list[tuple[str, list[Origin]]] = []
    for c, o in kept:
        if units and c in _DEPENDENT:
            units[-1] = (units[-1][0] + c, units[-1][1] + [o])
        else:
            units.append((c, [o]))
    slots: list[tuple[str, list[Origin]]] = list(units)
    for i in range(1, len(slots)):
        unit, orig = slots[i]
        if _ASAT in unit and len(unit) < 4:
            slots[i - 1] = (slots[i - 1][0] + unit, slots[i - 1][1] + orig)
            slots[i] = ("", [])
    units = [s for s in slots if s[0]]
    # " ္ " -> "္" on the units joined by spaces (left to right, without overlaps), then split
    chars: list[str] = []
    where: list[Origin | None] = []
    for k, (unit, orig) in enumerate(units):
        if k:
            chars.append(" ")
            where.append(None)
        chars.extend(unit)
        where.extend(orig)
    result: list[tuple[str, list[Origin]]] = []
    current_chars: list[str] = []
    current_where: list[Origin] = []
    k = 0
    while k < len(chars):
        if chars[k] == " " and k + 2 < len(chars) and chars[k + 1] == _STACK and chars[k + 2] == " ":
            current_chars.append(_STACK)
            current_where.append(where[k + 1])
            k += 3
            continue
        if chars[k] == " ":
            result.append(("".join(current_chars), current_where))
            current_chars, current_where = [], []
        else:
            current_chars.append(chars[k])
            current_where.append(where[k])
        k += 1
    if current_chars:
        result.append(("".join(current_chars), current_where))
    return [(u, o) for u, o in result if u]


@lru_cache(maxsize=1)
def _onmt() -> Callable[[str], list[str]]:
    pyonmttok = require("pyonmttok", "XL-Sum's multilingual tokenizer (OpenNMT)")
    tokenizer = pyonmttok.Tokenizer("aggressive")
    return lambda text: tokenizer.tokenize(text)[0]


def _is_cjk_ideograph(cp: int) -> bool:
    # The ranges XL-Sum's basic tokenizer calls Chinese characters (ideographs only, no kana).
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF
            or 0x2F800 <= cp <= 0x2FA1F)


_CJK_IDEOGRAPH = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f"
                            "\U0002b740-\U0002b81f\U0002b820-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f]")


def _onmt_spans(joined: str) -> list[tuple[str, int, int]]:
    """Step 4: OpenNMT aggressive tokens, then one token per CJK ideograph."""
    tokens = _onmt()(joined)
    # OpenNMT writes its joiner sign U+FFED as "■"; everything else is a substring.
    spans = align(tokens, joined.replace("\uffed", "■"))
    if not _CJK_IDEOGRAPH.search(joined):  # no ideograph to cut out: every token as it is
        return [(tok, a, b) for tok, (a, b) in zip(tokens, spans)]
    return _cut_ideographs(tokens, spans)


def _cut_ideographs(tokens: list[str], spans: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    """Each CJK ideograph of the tokens a token of its own (the rest of a token stays whole)."""
    out = []
    for tok, (a, b) in zip(tokens, spans):
        run = a
        for k, ch in enumerate(tok):
            if _is_cjk_ideograph(ord(ch)):
                if run < a + k:
                    out.append((tok[run - a:k], run, a + k))
                out.append((ch, a + k, a + k + 1))
                run = a + k + 1
        if run < a + len(tok) or not tok:
            out.append((tok[run - a:], run, b))
    return out


_SEGMENTERS = {"thai": thai_segmenter, "chinese": chinese_segmenter, "japanese": japanese_segmenter}
_SEGMENTED = ("burmese", *_SEGMENTERS)  # languages whose tokens need offsets to find their lines


def _segmenter(language: str | None) -> Callable[[str], list[str]] | None:
    make = _SEGMENTERS.get(language) if language is not None else None
    return make() if make is not None else None


# --- steps 1-4 without a Python loop per character ---------------------------------------
# The same tokens and offsets as the reference steps above, which walk the text character by
# character: the basic tokenizer's treatment of each character is looked up once per distinct
# character (str.translate reads the table in C), and OpenNMT's tokens once per distinct
# piece. tests/core/test_tokens_from_anywhere.py checks both against the reference steps.


def _character_class(code_points: list[int]) -> str:
    """A regular expression character class of these code points (sorted), as ranges."""
    parts = []
    k = 0
    while k < len(code_points):
        first = last = code_points[k]
        while k + 1 < len(code_points) and code_points[k + 1] == last + 1:
            k += 1
            last = code_points[k]
        parts.append(f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}")
        k += 1
    return "".join(parts)


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@lru_cache(maxsize=1)
def _basic_patterns() -> tuple[re.Pattern, re.Pattern]:
    """(dropped, piece run) over the Basic Multilingual Plane: a character the basic tokenizer
    drops (`_is_dropped`), and a run of the characters a piece is made of (neither white space
    nor punctuation: kept or dropped), as regular expressions of this Python's Unicode data,
    built once per process. Text with characters beyond the plane (emoji, historic scripts)
    takes the reference steps: the regular expression engine tests such characters against a
    class range by range."""
    dropped, separators = [], []
    for cp in range(0x10000):
        ch = chr(cp)
        if _is_dropped(ch):
            dropped.append(cp)
        elif _is_space(ch) or ch.isspace() or _is_punctuation(ch):
            separators.append(cp)
    return re.compile(f"[{_character_class(dropped)}]"), re.compile(f"[^{_character_class(separators)}]+")


def _fast_pieces(text: str, lowercase: bool) -> list[tuple[str, Sequence[int]]] | None:
    """`basic_pieces` of `text` (positions as a range when a piece's characters stand side by
    side); None when lower-casing changes the text's length ("İ"), which the reference steps
    map character by character."""
    lowered = text.lower() if lowercase else text
    if len(lowered) != len(text) or _ASTRAL.search(lowered):
        return None
    dropped, piece_run = _basic_patterns()
    if dropped.search(lowered) is None:
        return [(m.group(), range(m.start(), m.end())) for m in piece_run.finditer(lowered)]
    pieces: list[tuple[str, Sequence[int]]] = []
    for m in piece_run.finditer(lowered):  # runs of kept and dropped characters
        where = [m.start() + k for k, ch in enumerate(m.group()) if not dropped.match(ch)]
        if where:  # a piece closes over the dropped characters inside it
            pieces.append(("".join(lowered[i] for i in where), where))
    return pieces


@lru_cache(maxsize=16)
def _line_terms(text: str, lowercase: bool) -> tuple[tuple[str, ...], ...] | None:
    """`split_basic`'s terms per non-empty line (a sentence), without their offsets (each line
    lower-cased alone gives the text's lower case: str.lower()'s one context rule, the final
    sigma, does not look past a line end); None for text beyond the Basic Multilingual Plane.
    Kept for the last few texts: XL-Sum's rougeLsum reads a text's lines again (xlsum-basic)
    right after its other types read them (multilingual)."""
    if _ASTRAL.search(text):
        return None
    dropped, piece_run = _basic_patterns()
    return tuple(tuple(piece_run.findall(dropped.sub("", line.lower() if lowercase else line)))
                 for line in text.split("\n") if line)


def reads_by_line(text: str, language: str | None, basic: bool) -> bool:
    """Whether `basic_terms` (basic) or `xlsum_terms` can find this text's terms line by line
    (no segmenter for the language but Chinese on the compiled jieba, no character beyond the
    Basic Multilingual Plane); the latter may still need the offsets, for a piece whose OpenNMT
    tokens do not spell it out."""
    if not basic and language == "chinese":
        compiled = _compiled_jieba()
        if compiled is None or compiled.model() is None:
            return False
    elif not basic and language in _SEGMENTED:
        return False
    return _ASTRAL.search(text) is None


def basic_terms(text: str, lowercase: bool = True) -> list[list[str]] | None:
    """`split_basic`'s terms per sentence (non-empty line), without their offsets; None where
    the reference steps must tell (text beyond the Basic Multilingual Plane)."""
    lines = _line_terms(text, lowercase)
    return None if lines is None else list(map(list, lines))


def xlsum_terms(text: str, lowercase: bool, language: str | None) -> list[list[str]] | None:
    """`split_xlsum`'s terms per sentence (non-empty line: a token belongs to the line its
    piece stands on), without their offsets; None where offsets are needed to tell (a
    segmenter's words may be anywhere in the joined text, Burmese's units) or OpenNMT's tokens
    do not spell a piece out."""
    if language == "chinese":
        return _chinese_terms(text, lowercase)
    if language in _SEGMENTED:
        return None
    lines = _line_terms(text, lowercase)
    if lines is None:
        return None
    try:  # a piece whose tokens do not spell it out (None) stops the chain: TypeError
        return [list(chain.from_iterable(map(_onmt_terms, pieces))) for pieces in lines]
    except TypeError:
        return None


def _chinese_terms(text: str, lowercase: bool) -> list[list[str]] | None:
    """`xlsum_terms` for Chinese, on the compiled jieba (None where jieba itself must cut: see
    rouge_core.text.segment.CompiledJieba). jieba never joins characters across white space (a
    space is a word of its own, and its blocks hold no space), so its words of the joined pieces
    are those of each line's pieces joined, and the joining space after a line's last piece
    (a word XL-Sum counts) belongs to that line: it starts where the piece ends, inside the line
    or at its end (tokenize's rule: a word between two sentences goes to the one before)."""
    compiled = _compiled_jieba()
    model = compiled.model() if compiled is not None else None
    if model is None:
        return None
    lines = _line_terms(text, lowercase)
    if lines is None:
        return None
    last = len(lines) - 1
    while last >= 0 and not lines[last]:
        last -= 1
    out = []
    for k, pieces in enumerate(lines):
        if not pieces:
            out.append([])
            continue
        words = native.jieba_cut(model, " ".join(pieces))
        if k < last:
            words.append(" ")
        out.append(words)
    return out


def _compiled_jieba():
    """The compiled jieba, or None when jieba is not installed (the reference steps say so)."""
    try:
        return compiled_jieba()
    except MissingExtraError:
        return None


@lru_cache(maxsize=100_000)
def _onmt_piece(piece: str) -> tuple[tuple[str, int, int], ...] | None:
    """OpenNMT's tokens (then one per CJK ideograph) of one piece, with their spans in it; None
    unless they spell the piece out one after the other, or when the piece starts with a
    combining mark (OpenNMT joins such a mark to the space before it: "a \u0301" gives "a",
    "％0020\u0301"). Otherwise OpenNMT tokenizes each space-separated word on its own, so these
    tokens are the joined text's tokens at that piece's place; kept per distinct piece (words
    repeat)."""
    if unicodedata.category(piece[0]).startswith("M"):
        return None
    spans = _onmt_spans(piece)
    at = 0
    for _, a, b in spans:
        if a != at or b <= a:
            return None
        at = b
    return tuple(spans) if at == len(piece) else None


@lru_cache(maxsize=100_000)
def _onmt_terms(piece: str) -> tuple[str, ...] | None:
    """The terms of `_onmt_piece`."""
    spans = _onmt_piece(piece)
    return None if spans is None else tuple(term for term, _, _ in spans)


def forget_tokenizer() -> None:
    """Forget OpenNMT's tokenizer and every piece it tokenized, so that the next text finds the
    package afresh (a test hiding pyonmttok; the pieces would otherwise skip the import)."""
    for cache in (_onmt, _onmt_piece, _onmt_terms):
        cache.cache_clear()


def _fast_split_xlsum(text: str, lowercase: bool, language: str | None) -> Triples | None:
    """`split_xlsum` without a loop per character; None where the reference steps must run
    (Burmese's units, a length-changing lower case, OpenNMT tokens that do not spell a piece
    out)."""
    if language == "burmese":
        return None
    pieces = _fast_pieces(text, lowercase)
    if pieces is None:
        return None
    if not pieces:
        return []
    joined = " ".join(piece for piece, _ in pieces)
    starts = []  # where each piece starts in `joined`
    at = 0
    for piece, _ in pieces:
        starts.append(at)
        at += len(piece) + 1
    found: list[tuple[str, int, int]] | None = None
    segmenter = _segmenter(language)
    if segmenter is not None:
        words = segmenter(joined)
        found = [(w, a, b) for w, (a, b) in zip(words, align(words, joined))]
    if not found:
        found = []
        for (piece, _), start in zip(pieces, starts):
            spans = _onmt_piece(piece)
            if spans is None:
                found = _onmt_spans(joined)
                break
            found.extend((term, start + a, start + b) for term, a, b in spans)

    def origin(x: int) -> tuple[int, int]:
        # `_joined`'s origins[x]: a piece's character, or the joining space after piece k
        k = bisect_right(starts, x) - 1
        piece, where = pieces[k]
        j = x - starts[k]
        if j < len(piece):
            return where[j], where[j] + 1
        gap = where[-1] + 1
        return gap, max(gap, pieces[k + 1][1][0])

    out: Triples = []
    for term, a, b in found:
        if not term:
            continue
        if b > a:
            out.append((term, origin(a)[0], origin(b - 1)[1]))
        else:
            pos = origin(a)[0] if a < len(joined) else origin(len(joined) - 1)[1]
            out.append((term, pos, pos))
    return out


def split_xlsum(text: str, lowercase: bool, language: str | None) -> Triples:
    """XL-Sum's tokens of `text` (steps 1-4), with offsets into `text`."""
    fast = _fast_split_xlsum(text, lowercase, language)
    return fast if fast is not None else _reference_split_xlsum(text, lowercase, language)


def _reference_split_xlsum(text: str, lowercase: bool, language: str | None) -> Triples:
    """`split_xlsum` step by step, character by character (the reference of the fast path)."""
    joined, origins = _joined(basic_pieces(text, lowercase))
    if not joined:
        return []
    found: list[tuple[str, int, int]] = []
    if language == "burmese":
        for unit, where in _burmese_units(joined, origins):
            found.append((unit, min(a for a, _ in where), max(b for _, b in where)))
        if found:
            return found
    else:
        segmenter = _segmenter(language)
        if segmenter is not None:
            pieces = segmenter(joined)
            found = [(p, a, b) for p, (a, b) in zip(pieces, align(pieces, joined))]
    if not found:
        found = _onmt_spans(joined)
    out: Triples = []
    for term, a, b in found:
        if not term:
            continue
        if b > a:
            out.append((term, origins[a][0], origins[b - 1][1]))
        else:
            pos = origins[a][0] if a < len(origins) else origins[-1][1]
            out.append((term, pos, pos))
    return out


split_xlsum.whole_text = True  # type: ignore[attr-defined]


# --- step 5: stemmers ----------------------------------------------------------------------

# Ramanathan & Rao (2003), "A Lightweight Stemmer for Hindi": suffixes stripped longest first.
_HINDI_SUFFIXES = """
    ो े ू ु ी ि ा
    कर ाओ िए ाई ाए ने नी ना ते ीं ती ता ाँ ां ों ें
    ाकर ाइए ाईं ाया ेगी ेगा ोगी ोगे ाने ाना ाते ाती ाता तीं ाओं ाएं ुओं ुएं ुआं
    ाएगी ाएगा ाओगी ाओगे एंगी ेंगी एंगे ेंगे ूंगी ूंगा ातीं नाओं नाएं ताओं ताएं ियाँ ियों ियां
    ाएंगी ाएंगे ाऊंगी ाऊंगा ाइयाँ ाइयों ाइयां
""".split()
_HINDI_BY_LENGTH = {n: frozenset(s for s in _HINDI_SUFFIXES if len(s) == n) for n in range(5, 0, -1)}


def hindi_stem(token: str) -> str:
    """The longest listed suffix that leaves at least two characters is removed."""
    for n, suffixes in _HINDI_BY_LENGTH.items():
        if len(token) > n + 1 and token[-n:] in suffixes:
            return token[:-n]
    return token


# XL-Sum's stemmers that need a package of the [multilingual] extra (the others are NLTK's or ours)
STEMMER_PACKAGES = {"turkish": "TurkishStemmer"}


def stemmer_installed(name: str) -> bool:
    """Whether the package the stemmer `xlsum-<language>` needs (if any) is installed here."""
    package = STEMMER_PACKAGES.get(name.removeprefix(STEMMER_PREFIX))
    return package is None or importlib.util.find_spec(package) is not None


def _language_stemmer(language: str) -> Callable[[str], str]:
    if language == "hindi":
        return hindi_stem
    if language == "turkish":
        module = require(STEMMER_PACKAGES["turkish"], "XL-Sum's Turkish stemmer")
        return module.TurkishStemmer().stem
    if language in UNRUNNABLE_STEMMERS:
        raise ValueError(UNRUNNABLE_STEMMERS[language])
    from nltk.stem.snowball import SnowballStemmer

    # XL-Sum asks NLTK to leave NLTK's stopwords unstemmed (ignore_stopwords=True); that needs
    # NLTK's stopword data, which is not installed with NLTK, so stopwords are stemmed here.
    return SnowballStemmer(language).stem


@lru_cache(maxsize=32)
def xlsum_stemmer(name: str) -> Callable[[str], str]:
    """The stemmer `xlsum-<language>` (or `xlsum-porter`): XL-Sum's stemmer of that language on
    tokens longer than 3 characters."""
    language = name.removeprefix(STEMMER_PREFIX)
    if language not in STEMMER_LANGUAGES:
        raise ValueError(f"unknown XL-Sum stemmer {excerpt(name)}; choose xlsum-<language> with a language among "
                         f"{', '.join(STEMMER_LANGUAGES)}")
    stem = _language_stemmer(language)

    def stem_long(token: str) -> str:  # cached per word type by rouge_core.text.stemming.get_stemmer
        return stem(token) if len(token) > MIN_STEM_LENGTH else token

    return stem_long


def stemmer_name(language: str | None, use_stemmer: bool = True) -> str:
    """The stemmer XL-Sum uses for `language` with `use_stemmer`: Porter without a language,
    the language's own when it has one, none for a language without one."""
    if not use_stemmer:
        return "none"
    if language is None:
        return STEMMER_PREFIX + "porter"
    language = ALIASES.get(language, language)
    return STEMMER_PREFIX + language if language in XLSUM_STEMMED else "none"
