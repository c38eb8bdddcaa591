"""Stemmers by name: ROUGE-1.5.5's (WordNet-2.0 exceptions, then its Porter), NLTK's Porter
as rouge-score uses it, Snowball for other languages, and XL-Sum's per-language stemmers
(`xlsum-<language>`, rouge_core.text.multilingual)."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Callable

from ..errors import excerpt
from .porter155 import porter_stem
from .resources import exception_table

STEMMERS = ("none", "rouge155", "porter")  # plus "snowball-<language>" and "xlsum-<language>"


def is_stemmer_name(name: str) -> bool:
    """Whether `name` names a stemmer (its language is checked when it is loaded)."""
    return name in STEMMERS or name.startswith(("snowball-", "xlsum-"))


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

    def stem(term: str) -> str:
        return stemmer.stem(term) if len(term) > 3 else term

    return stem


def _snowball_stemmer(language: str) -> Callable[[str], str]:
    import snowballstemmer

    try:
        stemmer = snowballstemmer.stemmer(language)
    except KeyError as exc:
        known = ", ".join(sorted(snowballstemmer.algorithms()))
        raise ValueError(f"unknown Snowball language {excerpt(language)}; known: {known}") from exc
    return stemmer.stemWord


def get_stemmer(name: str, data_dir: str | None = None) -> Callable[[str], str] | None:
    """A stemming function by name: none, rouge155, porter, snowball-<language>, xlsum-<language>;
    one per name and data directory in the process, each with one cache of stems per word type
    (shared by every caller and thread: functools.lru_cache is thread-safe)."""
    if name in ("none", "", None):
        return None
    return _shared_stemmer(name, data_dir)  # positional: one cache key however the caller passes them


STEM_CACHE_SIZE = 1 << 18  # word types per stemmer; the cache is an LRU beyond that


@lru_cache(maxsize=32)
def _shared_stemmer(name: str, data_dir: str | None) -> Callable[[str], str]:
    stem = _load_stemmer(name, data_dir)
    lock = threading.Lock()  # Snowball's stemmers keep the word being stemmed in the object

    def stem_alone(term: str) -> str:
        with lock:
            return stem(term)

    stem_alone.__wrapped__ = stem  # type: ignore[attr-defined]
    cached = lru_cache(maxsize=STEM_CACHE_SIZE)(stem_alone)
    remember_cache(cached.cache_clear)
    return cached


_CACHES: list = []  # how to empty every cache of stems made, for clear_stem_caches


def remember_cache(clear: Callable[[], None]) -> None:
    """Register a cache of stems (its emptying function) for clear_stem_caches: the stemmers'
    own and the compiled kernels' tables (rouge_core.text.tokenize.stem_map)."""
    _CACHES.append(clear)


def clear_stem_caches() -> None:
    """Empty every cache of stems (bench/calibrate_costs.py prices a cold cache); the stemmers
    stay loaded."""
    for clear in _CACHES:
        clear()


def _load_stemmer(name: str, data_dir: str | None) -> Callable[[str], str]:
    if name == "rouge155":
        return _rouge155_stemmer(data_dir)
    if name == "porter":
        return _nltk_porter_stemmer()
    if name.startswith("snowball-"):
        return _snowball_stemmer(name.removeprefix("snowball-"))
    if name.startswith("xlsum-"):
        from .multilingual import xlsum_stemmer

        return xlsum_stemmer(name)
    raise ValueError(f"unknown stemmer {excerpt(name)}; choose one of {STEMMERS}, snowball-<language> or xlsum-<language>")
