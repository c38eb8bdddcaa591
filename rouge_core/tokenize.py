"""Tokenizers, stemmers, stopwords and sentence splitting.

Every token keeps the character offsets of its surface form in the user's original text,
so pages can highlight what the user typed rather than a normalised copy.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, fields, replace
from functools import cached_property, lru_cache
from typing import Callable, Sequence

from .limits import limit_spans, perl_lcs_byte_spans
from .porter155 import porter_stem
from .resources import exception_table, smart_stopwords

TOKENIZERS = ("rouge155", "rouge-score", "whitespace", "unicode", "cjk")
STEMMERS = ("none", "rouge155", "porter")  # plus "snowball-<language>"
SENTENCE_SPLITTERS = ("newline", "punctuation", "none")


@dataclass(frozen=True, slots=True)
class Token:
    """One token: the form used for matching, and where its surface stands in the text."""

    term: str
    start: int
    end: int
    sentence: int


@dataclass(frozen=True)
class Document:
    """A tokenized text: its tokens in order and, per sentence, the slice of tokens."""

    text: str
    tokens: tuple[Token, ...]
    sentence_bounds: tuple[tuple[int, int], ...]  # [start, end) token indices per sentence
    sentence_spans: tuple[tuple[int, int], ...]  # [start, end) character offsets per sentence
    lcs_view: "Document | None" = None  # ROUGE-1.5.5 `-b`: what its L/W reader sees

    @property
    def terms(self) -> list[str]:
        return list(self.term_tuple)

    @cached_property
    def term_tuple(self) -> tuple[str, ...]:
        """The terms as a tuple, computed once per Document (the scoring kernels use it; once
        cached, reading it is a plain attribute lookup)."""
        return tuple(t.term for t in self.tokens)

    @cached_property
    def _memo(self) -> dict:
        return {}

    def memoized(self, key):
        """What `memo` keeps under `key`, or None when nothing has built it yet."""
        return self._memo.get(key)

    def memo(self, key, build: Callable, *args):
        """`build(*args)`, computed once per Document: what scoring derives from one text
        alone (n-gram counts, bit masks) is shared by every method and reference using it."""
        cache = self._memo
        value = cache.get(key)
        if value is None:
            value = cache[key] = build(*args)
        return value

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_memo", None)  # derived; rebuilt on demand after unpickling
        return state

    def sentence_terms(self) -> list[list[str]]:
        terms = self.terms
        return [terms[a:b] for a, b in self.sentence_bounds]

    def __len__(self) -> int:
        return len(self.tokens)


# --- raw word splitting: (term, start, end) triples --------------------------------------

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


_SPLITTERS: dict[str, Callable[[str, bool], list[tuple[str, int, int]]]] = {
    "rouge155": _split_rouge155,
    "rouge-score": _split_rouge_score,
    "whitespace": _split_whitespace,
    "unicode": _split_unicode,
    "cjk": _split_cjk,
}


# --- stemmers ------------------------------------------------------------------------------


def _rouge155_stemmer(data_dir: str | None) -> Callable[[str], str]:
    table = exception_table(data_dir)

    def stem(term: str) -> str:
        # ROUGE-1.5.5 leaves tokens of 3 characters or fewer alone, uses the WordNet
        # exception value when there is one, and the original Porter stemmer otherwise.
        if len(term) <= 3:
            return term
        return table.get(term) or porter_stem(term)

    return stem


def _nltk_porter_stemmer() -> Callable[[str], str]:
    from nltk.stem import porter

    stemmer = porter.PorterStemmer()  # NLTK_EXTENSIONS mode, as rouge-score uses it

    @lru_cache(maxsize=200_000)
    def stem(term: str) -> str:
        return stemmer.stem(term) if len(term) > 3 else term

    return stem


def _snowball_stemmer(language: str) -> Callable[[str], str]:
    import snowballstemmer

    try:
        stemmer = snowballstemmer.stemmer(language)
    except KeyError as exc:
        known = ", ".join(sorted(snowballstemmer.algorithms()))
        raise ValueError(f"unknown Snowball language {language!r}; known: {known}") from exc
    return lru_cache(maxsize=200_000)(stemmer.stemWord)


def snowball_languages() -> list[str]:
    import snowballstemmer

    return sorted(snowballstemmer.algorithms())


@lru_cache(maxsize=32)
def get_stemmer(name: str, data_dir: str | None = None) -> Callable[[str], str] | None:
    """A stemming function by name: none, rouge155, porter, snowball-<language>."""
    if name in ("none", "", None):
        return None
    if name == "rouge155":
        return _rouge155_stemmer(data_dir)
    if name == "porter":
        return _nltk_porter_stemmer()
    if name.startswith("snowball-"):
        return _snowball_stemmer(name.removeprefix("snowball-"))
    raise ValueError(f"unknown stemmer {name!r}; choose one of {STEMMERS} or snowball-<language>")


@lru_cache(maxsize=32)
def get_stopwords(spec: str | frozenset | None, data_dir: str | None = None) -> frozenset[str]:
    """Stopwords by spec: "none", "smart" (ROUGE-1.5.5 -s), or a frozenset of words."""
    if spec in (None, "none", ""):
        return frozenset()
    if spec == "smart":
        return smart_stopwords(data_dir)
    if isinstance(spec, frozenset):
        return spec
    raise ValueError(f"unknown stopword list {spec!r}; use 'none', 'smart' or a set of words")


# --- sentence splitting --------------------------------------------------------------------

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
            raise ValueError(f"unknown sentence splitter {how!r}; choose one of {SENTENCE_SPLITTERS}")
    return spans


# --- the whole pipeline --------------------------------------------------------------------


def tokenize(
    text: str,
    *,
    tokenizer: str = "rouge-score",
    lowercase: bool = True,
    stemmer: str = "none",
    stopwords: str | frozenset | None = "none",
    sentence_split: str = "newline",
    data_dir: str | None = None,
    limit_words: int | None = None,
    limit_bytes: int | None = None,
    lcs_byte_limit_defect: bool = False,
) -> Document:
    """Tokenize `text` into a Document whose tokens keep their character offsets.

    Order of work, as in ROUGE-1.5.5: split into words, lower-case, drop stopwords, stem.
    `limit_words` / `limit_bytes` keep only the start of the text (ROUGE-1.5.5 `-l` / `-b`).
    With `lcs_byte_limit_defect`, the Document also carries `lcs_view`, the differently cut
    sentences ROUGE-1.5.5's ROUGE-L/W reader uses under `-b`.
    """
    return tokenize_with(text, tokenizer, lowercase, stemmer, stopwords, sentence_split, data_dir, limit_words,
                         limit_bytes, lcs_byte_limit_defect)


def tokenize_with(text: str, tokenizer: str, lowercase: bool, stemmer: str, stopwords, sentence_split: str,
                  data_dir: str | None, limit_words: int | None, limit_bytes: int | None,
                  lcs_byte_limit_defect: bool) -> Document:
    """`tokenize` with its settings in the order of `Options.tokenize_key()` (scoring calls
    it once per text, so it skips the keyword handling)."""
    if tokenizer not in _SPLITTERS:
        raise ValueError(f"unknown tokenizer {tokenizer!r}; choose one of {TOKENIZERS}")
    if sentence_split == "newline" and not limit_words and not limit_bytes:
        fast = _lazy_document(text, None, tokenizer, lowercase, stemmer, stopwords, data_dir)
        if fast is not None:
            return fast
    spans = split_sentences(text, sentence_split)
    lcs_view = None
    if limit_bytes and not limit_words and lcs_byte_limit_defect:  # a word limit wins, as in limit_spans
        lcs_spans = perl_lcs_byte_spans(text, spans, limit_bytes)
        lcs_view = _tokenize_spans(text, lcs_spans, tokenizer, lowercase, stemmer, stopwords, data_dir)
    spans = limit_spans(text, spans, words=limit_words, byte_limit=limit_bytes)
    if lcs_view is None:
        fast = _lazy_document(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir)
        if fast is not None:
            return fast
    doc = _tokenize_spans(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir)
    return replace(doc, lcs_view=lcs_view) if lcs_view is not None else doc


def _tokenize_spans(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir) -> Document:
    split_words = _SPLITTERS[tokenizer]
    stem = get_stemmer(stemmer, data_dir)
    stop = get_stopwords(stopwords, data_dir)
    tokens: list[Token] = []
    bounds: list[tuple[int, int]] = []
    for s_index, (s_start, s_end) in enumerate(spans):
        first = len(tokens)
        for term, start, end in split_words(text[s_start:s_end], lowercase):
            if stop and term in stop:
                continue
            if stem is not None:
                term = stem(term)
            tokens.append(Token(term, s_start + start, s_start + end, s_index))
        bounds.append((first, len(tokens)))
    return Document(text, tuple(tokens), tuple(bounds), tuple(spans))


class _LazyDocument(Document):
    """A Document whose Token objects are built only when someone asks for them.

    Scoring needs only the terms and the sentence bounds; those come from one regex pass per
    sentence. `tokens` (with character offsets) is produced on first access by the very same
    code as an eager Document, so both are equal field by field.
    """

    @cached_property
    def tokens(self) -> tuple[Token, ...]:  # type: ignore[override]
        d = self.__dict__
        return _tokenize_spans(self.text, self.sentence_spans, *d["_lazy_args"]).tokens

    @cached_property
    def sentence_spans(self) -> tuple[tuple[int, int], ...]:  # type: ignore[override]
        # Only Documents of whole texts split at newlines leave their spans to be found here.
        return tuple(split_sentences(self.text, "newline"))

    def __len__(self) -> int:
        return len(self.term_tuple)

    def __eq__(self, other):
        if not isinstance(other, Document):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(Document))

    __hash__ = Document.__hash__

    def __reduce__(self):
        # Pickle (process pools, Dask) as the lazy form: terms and bounds, no Token objects.
        state = self.__getstate__()
        if "_lazy_args" in state:
            state.pop("tokens", None)  # rebuilt on demand
        return (_rebuild_lazy, (state,))


def _rebuild_lazy(state: dict) -> _LazyDocument:
    doc = object.__new__(_LazyDocument)
    doc.__dict__.update(state)
    return doc


def _ascii_word_table(lowercase: bool) -> bytes:
    """A bytes.translate table keeping [A-Za-z0-9] (lower-cased if asked) and the newline and
    turning every other byte into a space, so that str.split() yields the ASCII tokenizers'
    words."""
    table = bytearray(b" " * 256)
    table[10] = 10  # newlines stay: a translated text has the original's lines
    for c in b"0123456789abcdefghijklmnopqrstuvwxyz":
        table[c] = c
    for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        table[c] = c + 32 if lowercase else c
    return bytes(table)


_ASCII_WORDS = {True: _ascii_word_table(True), False: _ascii_word_table(False)}


def _lazy_document(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir) -> Document | None:
    """Terms and sentence bounds without Token objects, for the common tokenizers; None when
    the eager path is needed (non-ASCII text for the ASCII tokenizers, other tokenizers).
    `spans` None means one sentence per non-empty line of the whole text; the spans are
    then found only if someone asks for them."""
    if tokenizer in ("rouge-score", "rouge155"):
        if not text.isascii():
            return None
        # One translate maps every separator byte but the newline to a space (offsets
        # unchanged: one byte is one character in ASCII); split() then gives
        # [a-z0-9]+ / [A-Za-z0-9]+ words.
        source = text.encode("ascii").translate(_ASCII_WORDS[lowercase]).decode("ascii")
        lower_each = False
    elif tokenizer == "whitespace":
        source, lower_each = text, lowercase
    else:
        return None
    stem = None if stemmer == "none" else get_stemmer(stemmer, data_dir)
    stop = None if stopwords == "none" else get_stopwords(stopwords, data_dir)
    if spans is None:
        # As split_sentences: empty lines are skipped, blank ones are sentences.
        sentences = [line.split() for line in source.split("\n") if line]
    else:
        sentences = [source[s_start:s_end].split() for s_start, s_end in spans]
    terms: list[str] = []
    bounds: list[tuple[int, int]] = []
    for words in sentences:
        if lower_each:
            words = [w.lower() for w in words]
        if stop:
            words = [w for w in words if w not in stop]
        if stem is not None:
            words = [stem(w) for w in words]
        first = len(terms)
        terms.extend(words)
        bounds.append((first, len(terms)))
    doc = object.__new__(_LazyDocument)
    state = doc.__dict__
    state.update(
        text=text,
        sentence_bounds=tuple(bounds),
        lcs_view=None,
        term_tuple=tuple(terms),
        _lazy_args=(tokenizer, lowercase, stemmer, stopwords, data_dir),
    )
    if spans is not None:
        state["sentence_spans"] = tuple(spans)
    return doc


def pretokenized(sentences: Sequence[Sequence[str]] | Sequence[str], *, lowercase: bool = False) -> Document:
    """A Document from tokens the caller already has (MATLAB and reval take token lists).

    Accepts a flat list of tokens (one sentence) or a list of sentences. The text is the
    tokens joined by spaces (sentences by newlines), so offsets still point somewhere real.
    """
    if sentences and all(isinstance(s, str) for s in sentences):
        sentences = [list(sentences)]  # type: ignore[list-item]
    tokens: list[Token] = []
    bounds: list[tuple[int, int]] = []
    spans: list[tuple[int, int]] = []
    pieces: list[str] = []
    pos = 0
    for s_index, sentence in enumerate(sentences):
        first = len(tokens)
        s_start = pos
        for k, tok in enumerate(sentence):
            if k:
                pieces.append(" ")
                pos += 1
            tokens.append(Token(tok.lower() if lowercase else tok, pos, pos + len(tok), s_index))
            pieces.append(tok)
            pos += len(tok)
        bounds.append((first, len(tokens)))
        spans.append((s_start, pos))
        pieces.append("\n")
        pos += 1
    return Document("".join(pieces), tuple(tokens), tuple(bounds), tuple(spans))
