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
import math
import os
import sys
import threading
from functools import lru_cache
from typing import Callable, Sequence

from ..kernels import native

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


class CompiledJieba:
    """jieba's default cut, `list(jieba.cut(text))`, compiled (rouge_core/kernels/jieba.c) on a
    copy of the loaded jieba's own tables (its prefix dictionary and total, finalseg's HMM),
    made on first use and made again when they change: a user dictionary (jieba.add_word,
    load_userdict, suggest_freq(tune=True), set_dictionary) changes the dictionary's size or
    total. jieba itself cuts where the copy cannot follow it: on the pure path
    (ROUGE_LENS_PURE), with a jieba other than the version whose steps the kernel reproduces,
    in jieba's parallel mode or with jieba.cut replaced, once a word is forced apart (a word
    added with frequency 0: finalseg's Force_Split_Words), or when the tables hold what the copy
    does not take (a negative or huge frequency). A change made by writing into jieba's
    dictionaries directly, not through its functions, is not seen."""

    VERSION = "0.42.1"  # the jieba whose Tokenizer.cut and finalseg.cut the kernel reproduces

    def __init__(self, jieba) -> None:
        self._jieba = jieba
        self._key: tuple | None = None
        self._model = None
        self._lock = threading.Lock()

    @classmethod
    def can_follow(cls, jieba) -> bool:
        """Whether the copy can cut as this jieba does (before its tables are read)."""
        dt, cut = jieba.dt, jieba.cut
        return (native.active() and jieba.__version__ == cls.VERSION and getattr(cut, "__self__", None) is dt
                and getattr(cut, "__func__", None) is jieba.Tokenizer.cut and not jieba.finalseg.Force_Split_Words)

    def model(self):
        """The compiled copy of jieba's current tables, or None where jieba must cut."""
        jieba = self._jieba
        dt, finalseg = jieba.dt, jieba.finalseg
        if not self.can_follow(jieba):
            return None
        if not dt.initialized:
            dt.initialize()  # as jieba.cut would, on its first block of Chinese
        key = (id(dt.FREQ), len(dt.FREQ), dt.total, dt.dictionary, id(finalseg.start_P), id(finalseg.trans_P),
               id(finalseg.emit_P))
        if key != self._key:
            with self._lock:
                if key != self._key:
                    self._model = self._copy(dt, finalseg)
                    self._key = key
        return self._model

    @staticmethod
    def _copy(dt, finalseg):
        if not isinstance(dt.total, int) or dt.total <= 0:
            return None  # jieba's own cut fails (log of the total) or does what it does
        low = finalseg.MIN_FLOAT
        states = "BEMS"  # finalseg's letters in order: its tie-breaks compare them
        return native.jieba_model(dt.FREQ, math.log(dt.total), tuple(finalseg.start_P.get(s, low) for s in states),
                                  tuple(finalseg.trans_P.get(a, {}).get(b, low) for a in states for b in states),
                                  tuple(finalseg.emit_P.get(s, {}) for s in states))

    def words(self, text: str) -> list[str]:
        """list(jieba.cut(text))"""
        model = self.model()
        if model is None:
            return list(self._jieba.cut(text))
        return native.jieba_cut(model, text)


@lru_cache(maxsize=1)
def compiled_jieba() -> CompiledJieba:
    """The process's CompiledJieba (jieba loaded and its dictionary read once)."""
    jieba = require("jieba", SEGMENTERS["chinese"][0])
    import logging

    jieba.setLogLevel(logging.WARNING)  # no "Building prefix dict" chatter on stderr
    jieba.initialize()
    compiled = CompiledJieba(jieba)
    compiled.model()  # on the compiled path the copy is part of the first use (rouge_core.text.loading)
    return compiled


def chinese_compiled() -> bool:
    """Whether Chinese is cut by the compiled copy (CompiledJieba) at this point, not by jieba's
    own cut, about 15 times slower: the cost model prices the one that runs."""
    if not native.active():
        return False
    if compiled_jieba.cache_info().currsize:
        return compiled_jieba().model() is not None
    jieba = sys.modules.get("jieba")
    return jieba is None or getattr(jieba, "dt", None) is None or CompiledJieba.can_follow(jieba)


@lru_cache(maxsize=1)
def chinese_segmenter() -> Callable[[str], list[str]]:
    """jieba's default mode (dictionary + HMM for unknown words); its dictionary loads once.
    Compiled on the compiled path (CompiledJieba: the same words)."""
    return compiled_jieba().words


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
