"""`rouge_score.tokenizers`: the Tokenizer interface and rouge-score's DefaultTokenizer.

A user tokenizer subclasses `Tokenizer` (or is any object with `.tokenize(text) -> tokens`)
and is passed as `RougeScorer(..., tokenizer=...)`. `DefaultTokenizer(use_stemmer)` gives
rouge-score's tokens (`tokenize.tokenize` with NLTK's Porter stemmer); a RougeScorer given
one computes with rouge_core's own rouge-score tokenizer, the same tokens without the
per-text Python calls.
"""

from __future__ import annotations

import abc
from functools import lru_cache

from . import tokenize as _tokenize

__all__ = ["DefaultTokenizer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """Turns a text into a list of tokens; subclasses implement `tokenize`."""

    @abc.abstractmethod
    def tokenize(self, text) -> list[str]:
        raise NotImplementedError("Tokenizer must override tokenize() method")


@lru_cache(maxsize=1)
def _porter():
    from nltk.stem import porter

    return porter.PorterStemmer()


class DefaultTokenizer(Tokenizer):
    """rouge-score's tokens: lower-cased [a-z0-9]+ words, Porter-stemmed (longer than 3) if asked."""

    def __init__(self, use_stemmer: bool = False):
        self.use_stemmer = bool(use_stemmer)
        self._stemmer = _porter() if use_stemmer else None

    def tokenize(self, text) -> list[str]:
        return _tokenize.tokenize(text, self._stemmer)
