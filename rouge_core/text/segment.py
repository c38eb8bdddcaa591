"""Word segmentation for scripts written without spaces between words.

Thai, Lao, Khmer, Myanmar, Chinese and Japanese put no space between words, so a Unicode word
pattern alone would make a whole phrase one token. Each script gets a dictionary segmenter
from a well-kept package (the optional `[multilingual]` extra):

- Thai: PyThaiNLP's `newmm` (the segmenter XL-Sum's scorer uses);
- Lao, Khmer, Myanmar: ICU's dictionary word break (icu4py ships ICU with its dictionaries);
- Chinese: jieba; Japanese: MeCab through fugashi with the unidic-lite dictionary.

Every segmenter is loaded once per process (dictionaries are large) and returns the spans
[start, end) of the words of one run of text, so tokens keep offsets into the user's text.
A missing package raises `MissingExtraError`, whose message names the extra to install.
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import lru_cache
from typing import Callable, Sequence

EXTRA = "multilingual"
INSTALL_HINT = "pip install 'rouge-lens[multilingual]'"

# script -> (what it is called in messages, the package that segments it)
SEGMENTERS = {
    "thai": ("Thai word segmentation", "pythainlp"),
    "lao": ("Lao word segmentation", "icu4py"),
    "khmer": ("Khmer word segmentation", "icu4py"),
    "myanmar": ("Myanmar word segmentation", "icu4py"),
    "chinese": ("Chinese word segmentation", "jieba"),
    "japanese": ("Japanese word segmentation", "fugashi"),
}

Spans = list[tuple[int, int]]


class MissingExtraError(ImportError, ValueError):
    """A package of the `[multilingual]` extra is needed but not installed. Also a ValueError,
    so every front door that reports a bad setting in one line (the command line, the app's
    pages) reports this one too."""


# Packages of the extra that are not published for every Python rouge-lens supports, so the extra
# leaves them out there (pyproject.toml's markers; tests/core/test_packaging.py checks the two agree):
# package -> (first Python it installs on, first Python it does not), None for no bound.
PYTHON_RANGES: dict[str, tuple[tuple[int, int] | None, tuple[int, int] | None]] = {
    "icu4py": ((3, 11), None),   # icu4py 1.2 needs Python 3.11
    "pyonmttok": (None, (3, 13)),  # no build for Python 3.13 (pyonmttok 1.38)
}


def not_published_here(package: str, version: tuple[int, int] | None = None) -> str | None:
    """Why the [multilingual] extra does not install `package` on this Python (or `version`), or None."""
    low, high = PYTHON_RANGES.get(package, (None, None))
    major, minor = version or sys.version_info[:2]
    if low is not None and (major, minor) < low:
        return f"{package} needs Python {low[0]}.{low[1]} or later, where the [{EXTRA}] extra installs it"
    if high is not None and (major, minor) >= high:
        return (f"{package} has no build for Python {major}.{minor}; the [{EXTRA}] extra installs it on Python 3.10 "
                f"to {high[0]}.{high[1] - 1}")
    return None


def require(module: str, purpose: str, package: str | None = None):
    """`import module`, or MissingExtraError naming the purpose, the package and the extra (or
    why the extra cannot install that package on this Python)."""
    package = package or module.split(".")[0]
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        reason = not_published_here(package)
        if reason is not None:
            raise MissingExtraError(f"{purpose} needs the package {package}, which is not installed here: "
                                    f"{reason}") from exc
        raise MissingExtraError(
            f"{purpose} needs the package {package}, part of the optional [{EXTRA}] extra; "
            f"install it with: {INSTALL_HINT}") from exc


def align(pieces: Sequence[str], text: str) -> Spans:
    """Spans of `pieces` found one after the other in `text` (segmenters return substrings of
    their input, in order). A piece that is not found (a segmenter that normalised it) gets an
    empty span where the search stands, so its term still counts but marks nothing."""
    spans: Spans = []
    pos = 0
    for piece in pieces:
        found = text.find(piece, pos) if piece else -1
        if found < 0:
            spans.append((pos, pos))
            continue
        spans.append((found, found + len(piece)))
        pos = found + len(piece)
    return spans


def _words_only(spans: Spans, text: str) -> Spans:
    return [(a, b) for a, b in spans if b > a and not text[a:b].isspace()]


@lru_cache(maxsize=1)
def thai_segmenter() -> Callable[[str], list[str]]:
    """PyThaiNLP's newmm (dictionary maximal matching within Thai character clusters)."""
    tokenize = require("pythainlp.tokenize", SEGMENTERS["thai"][0], "pythainlp").word_tokenize

    def words(text: str) -> list[str]:
        return tokenize(text, engine="newmm")

    words("ก")  # newmm reads its word list on first use: loaded here, once (rouge_core.text.loading)
    return words


@lru_cache(maxsize=1)
def chinese_segmenter() -> Callable[[str], list[str]]:
    """jieba's default mode (dictionary + HMM for unknown words); its dictionary loads once."""
    jieba = require("jieba", SEGMENTERS["chinese"][0])
    import logging

    jieba.setLogLevel(logging.WARNING)  # no "Building prefix dict" chatter on stderr
    jieba.initialize()

    def words(text: str) -> list[str]:
        return list(jieba.cut(text))

    return words


@lru_cache(maxsize=1)
def japanese_segmenter() -> Callable[[str], list[str]]:
    """MeCab (fugashi) in wakati mode with unidic-lite, as XL-Sum's scorer runs it."""
    fugashi = require("fugashi", SEGMENTERS["japanese"][0])
    dicdir = require("unidic_lite", SEGMENTERS["japanese"][0], "unidic-lite").DICDIR
    tagger = fugashi.Tagger(f'-O wakati -b 50000 -r "{os.path.join(dicdir, "mecabrc")}" -d "{dicdir}"')

    def words(text: str) -> list[str]:
        return tagger.parse(text).split()

    return words


_ICU_LOCALES = {"lao": "lo", "khmer": "km", "myanmar": "my"}


@lru_cache(maxsize=4)
def icu_segmenter(script: str) -> Callable[[str], Spans]:
    """ICU's dictionary-based word break for Lao, Khmer or Myanmar."""
    breakers = require("icu4py.breakers", SEGMENTERS[script][0], "icu4py")
    locale = _ICU_LOCALES[script]

    def spans(text: str) -> Spans:
        # ICU counts UTF-16 units; these scripts lie in the Basic Multilingual Plane, so a
        # run of them has one unit per character and the spans are character offsets.
        return list(breakers.WordBreaker(text, locale).segments())

    return spans


def segment(script: str, text: str) -> Spans:
    """The word spans of `text`, a run of one script written without spaces."""
    if script in _ICU_LOCALES:
        return _words_only(icu_segmenter(script)(text), text)
    segmenter = {"thai": thai_segmenter, "chinese": chinese_segmenter, "japanese": japanese_segmenter}[script]()
    return _words_only(align(segmenter(text), text), text)


def available(script: str) -> bool:
    """Whether the segmenter of `script` can be loaded here."""
    try:
        segment(script, "")
        return True
    except MissingExtraError:
        return False
