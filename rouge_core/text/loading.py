"""Libraries a stemmer or a segmenter loads once per process, on first use, and whether this
process has loaded them yet.

Their first use costs far more than any text does: NLTK's import (the Porter and Snowball
stemmers) about 1.3 s and 80 MB, jieba's prefix dictionary (Chinese) about 1.1 s and 65 MB
(on the compiled path its copy for the compiled cut adds about 0.3 s and 35 MB),
PyThaiNLP's word list (Thai) about 0.8 s and 75 MB, measured in fresh processes by
bench/calibrate_costs.py's "loading" group. rouge_core.scorer.cost adds a library not loaded
yet to the estimate of the tokenizing that needs it (`cost.loading_estimate`).
"""

from __future__ import annotations

import sys
from typing import Iterable

LIBRARIES = ("nltk", "jieba", "pythainlp")

# XL-Sum's stemmers that are not NLTK's Snowball (rouge_core.text.multilingual._language_stemmer)
_XLSUM_OWN_STEMMERS = ("xlsum-hindi", "xlsum-turkish")


def _stemmer_library(stemmer: str | None) -> str | None:
    if stemmer == "porter" or (stemmer and stemmer.startswith("xlsum-") and stemmer not in _XLSUM_OWN_STEMMERS):
        return "nltk"
    return None


def _segmenter_library(segmenter: str) -> str | None:
    """The library of a segmenter as rouge_core.text.tokenize.segmenter_runs names it
    ("thai", "xlsum-chinese", ...)."""
    return {"thai": "pythainlp", "chinese": "jieba"}.get(segmenter.removeprefix("xlsum-").removesuffix("-compiled"))


def libraries_for(stemmer: str | None, segmenters: Iterable[str] = ()) -> tuple[str, ...]:
    """The libraries tokenizing with `stemmer` and these segmenters loads on first use."""
    found = [_stemmer_library(stemmer), *(_segmenter_library(s) for s in segmenters)]
    return tuple(name for name in LIBRARIES if name in found)


def loaded(library: str) -> bool:
    """Whether this process has loaded `library` (its first use is paid)."""
    if library == "nltk":
        return _imported("nltk")
    if library == "jieba":  # its dictionary read, and (on the compiled path) copied for the compiled cut
        jieba = sys.modules.get("jieba")
        from .segment import compiled_jieba

        return (jieba is not None and bool(getattr(getattr(jieba, "dt", None), "initialized", False))
                and compiled_jieba.cache_info().currsize > 0)
    if library == "pythainlp":
        from .segment import thai_segmenter

        return thai_segmenter.cache_info().currsize > 0
    raise ValueError(f"unknown library {library!r}; known: {', '.join(LIBRARIES)}")


def _imported(name: str) -> bool:
    """Whether module `name` is imported in full (a module being imported, say by the app's
    warm-up thread, is in sys.modules already while its import still runs)."""
    module = sys.modules.get(name)
    return module is not None and not getattr(getattr(module, "__spec__", None), "_initializing", False)


def not_loaded(libraries: Iterable[str]) -> tuple[str, ...]:
    return tuple(name for name in libraries if not loaded(name))


def load(library: str) -> None:
    """Load `library` as its first use does (bench/calibrate_costs.py times this in a fresh process)."""
    if library == "nltk":
        from .stemming import get_stemmer

        get_stemmer("porter")
    elif library == "jieba":
        from .segment import chinese_segmenter

        chinese_segmenter()
    elif library == "pythainlp":
        from .segment import thai_segmenter

        thai_segmenter()
    else:
        raise ValueError(f"unknown library {library!r}; known: {', '.join(LIBRARIES)}")
