"""Tokenized texts: tokens that keep the character offsets of what the user typed, grouped
into sentences, and the per-document memo that scoring shares between methods.

Every token keeps the character offsets of its surface form in the user's original text,
so pages can highlight what the user typed rather than a normalised copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Sequence


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


def tokens_by_word(tokens: Sequence[Token], words: Sequence[tuple[int, int]]) -> list[list[Token]]:
    """The tokens of each typed word [start, end) (words in text order, e.g. white-space
    separated pieces): a token belongs to the last word starting at or before it (a token
    standing for a gap, as XL-Sum's Thai space token does, goes with the word before it)."""
    from bisect import bisect_right

    starts = [a for a, _ in words]
    out: list[list[Token]] = [[] for _ in words]
    for token in tokens:
        k = bisect_right(starts, token.start) - 1
        if k >= 0:
            out[k].append(token)
    return out
