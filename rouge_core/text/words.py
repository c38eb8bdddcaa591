"""Word splitters: a text -> (term, start, end) triples, one splitter per tokenizer.

Each reproduces one tool's idea of a word (ROUGE-1.5.5's bytes, rouge-score's [a-z0-9],
whitespace-separated tokens as given, Unicode words, CJK characters, XL-Sum's multilingual
tokenizer in rouge_core.text.multilingual) or takes the user's own function (`UserTokenizer`,
`load_tokenizer("module:function")`); offsets point into the text as typed.

`unicode` works on the NFC form: a word is a run of grapheme clusters (a letter or digit with
its combining marks), so Thai, Devanagari, Bengali or Arabic keep their vowel signs and
diacritics, and NFD "café" is NFC "café". Runs of scripts written without spaces are cut into
words by rouge_core.text.segment (Thai, Lao, Khmer, Myanmar; Han and kana as Chinese or Japanese);
Korean keeps its spacing words. `cjk` is the same with one token per Han or kana character.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Sequence

import regex  # Unicode properties and grapheme clusters (\X); installed with nltk

from ..errors import excerpt


_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]+")
_ASCII_LOWER_ALNUM = re.compile(r"[a-z0-9]+")
_NON_SPACE = re.compile(r"\S+")


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


# --- Unicode words -------------------------------------------------------------------------
# A word is a run of grapheme clusters (a letter, digit or mark with the marks that follow it),
# so no script loses its vowel signs or diacritics; apostrophes and Hebrew geresh/gershayim
# inside a word keep it whole ("don't", "צה״ל"). An emoji cluster (ZWJ sequences and flags
# included) is a token of its own. Matching runs on the NFC form; offsets are mapped back.
_WORD_CLUSTER = r"(?=[\p{L}\p{N}\p{M}])\X"
_UNICODE_TOKEN = regex.compile(
    rf"(?P<word>(?:{_WORD_CLUSTER})+(?:['’\u05F3\u05F4](?:{_WORD_CLUSTER})+)*)"
    r"|(?P<emoji>(?=[\p{Extended_Pictographic}\p{Regional_Indicator}])\X)")
_CLUSTER = regex.compile(r"\X")
# Scripts written without spaces between words, found per cluster by its first character.
_NO_SPACE_SCRIPT = regex.compile(r"[\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{scx=Han}\p{scx=Hira}\p{scx=Kana}]")
_KANA = regex.compile(r"[\p{Script=Hiragana}\p{Script=Katakana}]")  # kana letters (CJK punctuation is kana by scx too)
_SCRIPT_OF = (
    (regex.compile(r"\p{Thai}"), "thai"),
    (regex.compile(r"\p{Lao}"), "lao"),
    (regex.compile(r"\p{Khmer}"), "khmer"),
    (regex.compile(r"\p{Myanmar}"), "myanmar"),
    (regex.compile(r"[\p{scx=Han}\p{scx=Hira}\p{scx=Kana}]"), "han"),
)
# Arabic harakat and Quranic marks, Hebrew niqqud and cantillation, and the Arabic tatweel.
_SEMITIC_DIACRITICS = regex.compile(r"(?V1)[[\p{Mn}&&[\p{scx=Arab}\p{scx=Hebr}]]\u0640]")

Triples = list[tuple[str, int, int]]


def nfc_with_origin(text: str) -> tuple[str, list[int] | None, list[int] | None]:
    """`text` in NFC, with each character's [start, end) in `text` (None, None when NFC
    changes nothing: offsets are then the same). Normalised per grapheme cluster: a cluster
    NFC changes maps every character of its normal form to the whole cluster."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text, None, None
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for m in _CLUSTER.finditer(text):
        cluster = m.group()
        normal = unicodedata.normalize("NFC", cluster)
        pieces.append(normal)
        if normal == cluster:
            starts.extend(range(m.start(), m.end()))
            ends.extend(range(m.start() + 1, m.end() + 1))
        else:
            starts.extend([m.start()] * len(normal))
            ends.extend([m.end()] * len(normal))
    return "".join(pieces), starts, ends


def _script(cluster: str) -> str | None:
    for pattern, name in _SCRIPT_OF:
        if pattern.match(cluster):
            return name
    return None


def _script_runs(word: str) -> list[tuple[str | None, int, int]]:
    """The word cut where the script changes between ordinary letters and the scripts written
    without spaces: (script or None, start, end)."""
    runs: list[tuple[str | None, int, int]] = []
    for m in _CLUSTER.finditer(word):
        script = _script(m.group())
        if runs and runs[-1][0] == script:
            runs[-1] = (script, runs[-1][1], m.end())
        else:
            runs.append((script, m.start(), m.end()))
    return runs


def _han_language(text: str, language: str | None) -> str:
    """Chinese or Japanese words for Han characters: the language when it says, else Japanese
    when the text has kana."""
    from .languages import HAN_LANGUAGES

    if language in HAN_LANGUAGES:
        return HAN_LANGUAGES[language]
    return "japanese" if _KANA.search(text) else "chinese"


def _segment_word(word: str, han: str, per_character_han: bool) -> list[tuple[int, int]]:
    """Spans of the tokens inside one matched word."""
    from .segment import segment

    spans: list[tuple[int, int]] = []
    for script, start, end in _script_runs(word):
        if script is None:
            spans.append((start, end))
        elif script == "han" and per_character_han:
            spans.extend((start + m.start(), start + m.end()) for m in _CLUSTER.finditer(word[start:end]))
        else:
            name = han if script == "han" else script
            spans.extend((start + a, start + b) for a, b in segment(name, word[start:end]))
    return spans


def _split_words(text: str, lowercase: bool, *, per_character_han: bool, language: str | None = None,
                 strip_diacritics: bool = False) -> Triples:
    from .languages import TURKIC_CASE

    normal, starts, ends = nfc_with_origin(text)
    segmenting = not normal.isascii() and _NO_SPACE_SCRIPT.search(normal) is not None
    han = _han_language(normal, language) if segmenting else "chinese"
    turkic = language in TURKIC_CASE
    out: Triples = []
    for m in _UNICODE_TOKEN.finditer(normal):
        if m.lastgroup == "emoji" or not segmenting or _NO_SPACE_SCRIPT.search(m.group()) is None:
            spans = [(m.start(), m.end())]
        else:
            spans = [(m.start() + a, m.start() + b) for a, b in _segment_word(m.group(), han, per_character_han)]
        for a, b in spans:
            term = normal[a:b]
            if strip_diacritics:
                term = _SEMITIC_DIACRITICS.sub("", term)
                if not term:
                    continue
            if lowercase:
                if turkic:
                    term = term.replace("I", "ı").replace("İ", "i")
                term = term.lower()
            if starts is None:
                out.append((term, a, b))
            elif b > a:
                out.append((term, starts[a], ends[b - 1]))
            else:  # an empty span (a segmenter's normalised piece) stays empty in the original
                pos = starts[a] if a < len(starts) else len(text)
                out.append((term, pos, pos))
    return out


def _split_unicode(text: str, lowercase: bool) -> Triples:
    return _split_words(text, lowercase, per_character_han=False)


def _split_cjk(text: str, lowercase: bool) -> Triples:
    # Han and kana characters are tokens of their own; every other script as `unicode`.
    return _split_words(text, lowercase, per_character_han=True)


SPLITTERS: dict[str, Callable[[str, bool], list[tuple[str, int, int]]]] = {
    "rouge155": _split_rouge155,
    "rouge-score": _split_rouge_score,
    "whitespace": _split_whitespace,
    "unicode": _split_unicode,
    "cjk": _split_cjk,
}


def _split_multilingual(text: str, lowercase: bool) -> Triples:
    from .multilingual import split_xlsum

    return split_xlsum(text, lowercase, None)


def _split_xlsum_basic(text: str, lowercase: bool) -> Triples:
    from .multilingual import split_basic

    return split_basic(text, lowercase)


def _multilingual_terms(text: str, lowercase: bool) -> list[list[str]] | None:
    from .multilingual import xlsum_terms

    return xlsum_terms(text, lowercase, None)


def _xlsum_basic_terms(text: str, lowercase: bool) -> Sequence[Sequence[str]] | None:
    from .multilingual import _line_terms  # basic_terms' lines, as the tuples it keeps

    return _line_terms(text, lowercase)


# A splitter's `terms(text, lowercase)`, when it has one: its terms per sentence of one per
# non-empty line (rouge_core.text.sentences "newline"), without offsets (None: it cannot tell
# without them), for the pipeline's Documents whose Token objects are built only when read.
_split_multilingual.whole_text = True  # type: ignore[attr-defined]  # see rouge_core.text.multilingual
_split_multilingual.terms = _multilingual_terms  # type: ignore[attr-defined]
_split_xlsum_basic.terms = _xlsum_basic_terms  # type: ignore[attr-defined]
SPLITTERS["multilingual"] = _split_multilingual
SPLITTERS["xlsum-basic"] = _split_xlsum_basic
TOKENIZERS = tuple(SPLITTERS)
TOKENIZER_LABELS = {
    "rouge155": "rouge155: ASCII letters and digits (Perl)",
    "rouge-score": "rouge-score: lower-case, [a-z0-9]",
    "whitespace": "whitespace: tokens as written",
    "unicode": "unicode: words in any script (Thai, Lao, Khmer, Myanmar, Chinese, Japanese segmented)",
    "cjk": "cjk: one token per Chinese or Japanese character, words elsewhere",
    "multilingual": "multilingual: XL-Sum's tokenizer (punctuation split, its language's segmenter)",
    "xlsum-basic": "xlsum-basic: XL-Sum's basic tokenizer (its rougeLsum sentences)",
}
# The tokenizers whose words depend on the `language` option, and those that honour
# `strip_diacritics` (XL-Sum's tokenizer keeps every mark, as XL-Sum does).
LANGUAGE_AWARE = ("unicode", "cjk", "multilingual")
DIACRITICS_AWARE = ("unicode", "cjk")


# --- a tokenizer with its settings ---------------------------------------------------------


@dataclass(frozen=True)
class Splitter:
    """A named tokenizer together with the options that change its words (language,
    diacritics): what the tokenization pipeline calls, hashable so tokenizations cache."""

    tokenizer: str
    language: str | None = None
    strip_diacritics: bool = False

    @property
    def whole_text(self) -> bool:
        return self.tokenizer == "multilingual"

    def __str__(self) -> str:
        return self.tokenizer

    def terms(self, text: str, lowercase: bool) -> list[list[str]] | None:
        """As the named splitters' `terms`: XL-Sum's for its language; None for the others."""
        if self.tokenizer != "multilingual":
            return None
        from .multilingual import xlsum_terms

        return xlsum_terms(text, lowercase, self.language)

    def __call__(self, text: str, lowercase: bool) -> Triples:
        if self.tokenizer == "multilingual":
            from .multilingual import split_xlsum

            return split_xlsum(text, lowercase, self.language)
        return _split_words(text, lowercase, per_character_han=self.tokenizer == "cjk", language=self.language,
                            strip_diacritics=self.strip_diacritics)


def word_splitter(tokenizer, language: str | None = None, strip_diacritics: bool = False):
    """What the pipeline is given for a tokenizer under these options: the name itself when
    the options change nothing (so the ASCII tokenizers keep their fast path), a Splitter when
    they do, a UserTokenizer for a user's function."""
    if not isinstance(tokenizer, str):
        return tokenizer if isinstance(tokenizer, UserTokenizer) else UserTokenizer.wrap(tokenizer)
    if tokenizer in LANGUAGE_AWARE and (language is not None or strip_diacritics):
        return Splitter(tokenizer, language, strip_diacritics and tokenizer in DIACRITICS_AWARE)
    return tokenizer


def splitter(tokenizer) -> Callable[[str, bool], Triples]:
    """The splitting function for a tokenizer name, a Splitter or a user's tokenizer."""
    if isinstance(tokenizer, str):
        try:
            return SPLITTERS[tokenizer]
        except KeyError:
            raise ValueError(f"unknown tokenizer {excerpt(tokenizer)}; choose one of {TOKENIZERS} "
                             "or pass a function (text -> tokens)") from None
    if isinstance(tokenizer, (Splitter, UserTokenizer)):
        return tokenizer
    return UserTokenizer.wrap(tokenizer)


# --- the user's own tokenizer --------------------------------------------------------------


def qualified_name(obj) -> str:
    """`module.qualname` of a function, or of an object's class (the signature's `tok:`)."""
    target = obj if hasattr(obj, "__qualname__") else type(obj)
    module = getattr(target, "__module__", None) or "?"
    return f"{module}.{getattr(target, '__qualname__', getattr(target, '__name__', repr(target)))}"


@dataclass(frozen=True)
class UserTokenizer:
    """A user's tokenizer: a function text -> tokens (strings, found in the text in order to
    get their offsets) or (token, start, end) triples with offsets into the text, or an object
    with such a `tokenize` method (as rouge-score takes). Tokens are lower-cased when the
    `lowercase` option says so; empty tokens are dropped."""

    function: Callable = field(compare=True)
    name: str = field(compare=False, default="")

    @classmethod
    def wrap(cls, tokenizer) -> "UserTokenizer":
        if isinstance(tokenizer, UserTokenizer):
            return tokenizer
        if callable(tokenizer):
            return cls(tokenizer, qualified_name(tokenizer))
        if callable(getattr(tokenizer, "tokenize", None)):
            return cls(tokenizer.tokenize, qualified_name(tokenizer))
        raise TypeError(f"tokenizer must be one of {TOKENIZERS}, a function text -> tokens or an object with a "
                        f"tokenize(text) method, not {type(tokenizer).__name__}")

    def __str__(self) -> str:
        return self.name

    def __call__(self, text: str, lowercase: bool) -> Triples:
        try:
            result = self.function(text)
        except Exception as exc:
            raise ValueError(f"the tokenizer {self.name} failed on a text of {len(text)} characters: "
                             f"{type(exc).__name__}: {exc}") from exc
        if isinstance(result, (str, bytes)) or not hasattr(result, "__iter__"):
            raise TypeError(f"the tokenizer {self.name} must return a list of tokens, not {type(result).__name__}")
        items = list(result)
        if all(isinstance(item, str) for item in items):
            from .segment import align

            triples = [(tok, a, b) for tok, (a, b) in zip(items, align(items, text))]
        else:
            triples = [self._checked(item, k, len(text)) for k, item in enumerate(items, 1)]
        return [(tok.lower() if lowercase else tok, a, b) for tok, a, b in triples if tok]

    def _checked(self, item, k: int, length: int) -> tuple[str, int, int]:
        if (isinstance(item, (tuple, list)) and len(item) == 3 and isinstance(item[0], str)
                and all(isinstance(x, int) and not isinstance(x, bool) for x in item[1:])):
            tok, a, b = item
            if 0 <= a <= b <= length:
                return tok, a, b
            raise ValueError(f"the tokenizer {self.name}: token {k} ({excerpt(tok)}) has offsets {a}..{b} outside the "
                             f"text (0..{length})")
        raise TypeError(f"the tokenizer {self.name}: token {k} is {excerpt(item)}; a token is a string or a "
                        "(string, start, end) triple")


def load_tokenizer(spec: str) -> UserTokenizer:
    """Import a user's tokenizer from "module:function" (the command line's `--tokenizer`);
    `function` may be dotted ("pkg.mod:Class.method"). ValueError with a clear message when
    the module cannot be imported, the name is missing or it is not callable."""
    import importlib

    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"a tokenizer is one of {', '.join(TOKENIZERS)} or MODULE:FUNCTION (e.g. mypkg.tok:split), "
                         f"not {excerpt(spec)}")
    try:
        target = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import the tokenizer module {excerpt(module_name)}: {exc}") from exc
    except Exception as exc:  # the module itself fails while it loads (a syntax error, a raise)
        raise ValueError(f"the tokenizer module {excerpt(module_name)} failed to import: {type(exc).__name__}: {exc}") from exc
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"the module {excerpt(module_name)} has no {excerpt(attr)}") from None
    try:
        return UserTokenizer.wrap(target)
    except TypeError:
        raise ValueError(f"{spec} is not callable (a tokenizer is a function text -> tokens)") from None


def tokenizer_label(tokenizer) -> str:
    """The tokenizer as the signature names it: its name, or a user function's qualified name."""
    return tokenizer if isinstance(tokenizer, str) else UserTokenizer.wrap(tokenizer).name
