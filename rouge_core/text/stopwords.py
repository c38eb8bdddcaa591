"""Stopword lists by spec: none, ROUGE-1.5.5's SMART list (-s), or the user's own words."""

from __future__ import annotations

from functools import lru_cache

from ..errors import excerpt
from .resources import smart_stopwords


@lru_cache(maxsize=32)
def get_stopwords(spec: str | frozenset | None, data_dir: str | None = None) -> frozenset[str]:
    """Stopwords by spec: "none", "smart" (ROUGE-1.5.5 -s), or a frozenset of words."""
    if spec in (None, "none", ""):
        return frozenset()
    if spec == "smart":
        return smart_stopwords(data_dir)
    if isinstance(spec, frozenset):
        return spec
    raise ValueError(f"unknown stopword list {excerpt(spec)}; use 'none', 'smart' or a set of words")
