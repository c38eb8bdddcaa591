"""Which path computes: the compiled kernels (`rouge_core._native`, a C extension built by
`pip install`) or the pure-Python reference. Both give the same numbers, bit for bit.

The kernels are used when they were built and `ROUGE_LENS_PURE` is not set (`1`, `yes`,
`true`: the pure path, e.g. to check a result against the reference implementation);
`rouge_core.accelerated` says which path is active, `describe()` why. A machine without a
C compiler installs the pure package, which works the same, only slower.

The pure modules stay the reference: each kernel reproduces one of them (the C file names
which), and tests compare the two on random inputs (tests/core/test_native.py). This module
also gives scoring what it needs from the kernels: a Document's `Tokens` (its terms as ids,
kept on the Document), the candidate's bit layout, and `pure()` for tests that run both paths
in one process.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .document import Document

PURE_VARIABLE = "ROUGE_LENS_PURE"
TOKENS = "native-tokens"  # Document.memo key of a document's Tokens


def _load():
    if os.environ.get(PURE_VARIABLE, "").strip().lower() not in ("", "0", "no", "false"):
        return None, f"{PURE_VARIABLE} is set"
    from importlib.util import find_spec

    if find_spec(f"{__package__}._native") is None:
        return None, "the compiled kernels were not built (no C compiler when the package was installed)"
    try:
        from . import _native
    except ImportError as exc:  # built for another Python, or broken
        return None, f"the compiled kernels do not load ({exc})"
    return _native, ""


KERNELS, WHY_PURE = _load()
"""The kernels module, or None on the pure path (then WHY_PURE says why)."""


def active() -> bool:
    """True when the compiled kernels compute."""
    return KERNELS is not None


def path() -> str:
    """"native" or "pure"."""
    return "native" if KERNELS is not None else "pure"


def describe() -> str:
    """One line: which path computes, and why the pure one when it is."""
    return "native (compiled kernels)" if KERNELS is not None else f"pure Python ({WHY_PURE})"


@contextmanager
def pure():
    """Run the block on the pure-Python path (tests compare both paths in one process; not
    for threads running meanwhile, which would see the switch)."""
    global KERNELS
    saved = KERNELS
    KERNELS = None
    try:
        yield
    finally:
        KERNELS = saved


def tokens_of(doc: "Document"):
    """The document's terms as a `Tokens` (ids, counts, sentence bounds), built once and kept
    on the Document; None on the pure path or for terms that are not strings."""
    kernels = KERNELS
    if kernels is None:
        return None
    tokens = doc._memo.get(TOKENS)
    if tokens is None:
        deferred = getattr(doc, "_tokens", None)  # a compiled Document whose Tokens wait to be built
        tokens = deferred() if deferred is not None else None
    if tokens is None:
        try:
            tokens = kernels.tokens(doc.term_tuple, doc.sentence_bounds)
        except TypeError:  # a Document built by hand with terms that are not str: pure path
            tokens = False
        doc.memo(TOKENS, lambda: tokens)
    return tokens or None


def pair(cand: "Document", ref: "Document"):
    """(candidate Tokens, reference Tokens), or None when either side has none."""
    c = tokens_of(cand)
    if c is None:
        return None
    r = tokens_of(ref)
    return None if r is None else (c, r)


def layout(terms, bounds):
    """A CandidateLayout of `terms` in sentences `bounds`: the compiled one, or
    rouge_core.bitparallel_lcs's on the pure path (and for terms that are not strings)."""
    if KERNELS is not None:
        try:
            return KERNELS.Layout(terms, bounds)
        except TypeError:
            pass
    from .bitparallel_lcs import CandidateLayout

    return CandidateLayout(terms, bounds)


def layout_of(doc: "Document"):
    """The compiled layout of a Document's sentences (kept with its Tokens); None on the pure
    path."""
    tokens = tokens_of(doc)
    return None if tokens is None else KERNELS.layout_of(tokens)
