"""`rouge_score.tokenize`: rouge-score's word splitting as a function, `tokenize(text, stemmer)`.

Lower-case, every character outside [a-z0-9] separates words, optional stemming of words
longer than 3 characters with `stemmer.stem`, empty words dropped. `bytes` are lower-cased as
bytes (ASCII letters only) and then decoded as UTF-8, as rouge-score does, so a non-ASCII
letter in bytes is a separator even where `str.lower` would have turned it into an ASCII one
("İ", the Kelvin sign).
"""

from __future__ import annotations

import re

__all__ = ["NON_ALPHANUM_PATTERN", "NON_ALPHANUM_RE", "SPACES_PATTERN", "SPACES_RE", "VALID_TOKEN_PATTERN",
           "VALID_TOKEN_RE", "as_text", "tokenize"]

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)


def as_text(text) -> str:
    """`text` as str: bytes (e.g. TensorFlow's `.numpy()` strings) are decoded as UTF-8."""
    return text.decode("utf-8") if isinstance(text, (bytes, bytearray)) else text


def lowered_text(text) -> str:
    """The lower-cased text rouge-score's tokenizer splits: bytes lower-cased before decoding."""
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).lower().decode("utf-8")
    return text.lower()


def tokenize(text, stemmer) -> list[str]:
    """rouge-score's tokens of `text` (str or UTF-8 bytes); `stemmer` is None or has `.stem(word)`."""
    words = NON_ALPHANUM_RE.sub(" ", lowered_text(text)).split()
    if stemmer:
        words = [stemmer.stem(w) if len(w) > 3 else w for w in words]
        # A stemmer may return anything; rouge-score keeps only [a-z0-9]+ results.
        words = [w for w in words if VALID_TOKEN_RE.match(w)]
    return words
