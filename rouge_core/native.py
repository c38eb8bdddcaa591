"""Which path computes: the compiled kernels (`rouge_core._native`, a C extension built by
`pip install`) or the pure-Python reference. Both give the same numbers, bit for bit.

The kernels are used when they were built and `ROUGE_LENS_PURE` is not set (`1`, `yes`,
`true`: the pure path, e.g. to check a result against the reference implementation);
`rouge_core.accelerated` says which path is active, `describe()` why. A machine without a
C compiler installs the pure package, which works the same, only slower.

This is the only module that imports the extension: the rest of rouge_core calls the
functions below, which hand the kernels Documents' `Tokens` (their terms as ids, kept on the
Document), plans and options, and return what the pure modules return. The pure modules stay
the reference: each kernel reproduces one of them (its C file names which), and tests compare
the two on random inputs (tests/core/test_native.py). What both sides share (kernel codes,
W_ROUNDING, the record fields the kernels fill) is defined once in rouge_core.kernel_spec;
a build made from another spec is not used (`describe()` says so). docs/architecture.md
describes the layers.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

from . import kernel_spec

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
    expected = kernel_spec.constants()
    built = getattr(_native, "SPEC", {})
    stale = sorted(name for name in expected.keys() | built.keys()
                   if expected.get(name) != built.get(name) and expected.get(name, 0) is not None)
    if stale:
        return None, (f"the compiled kernels were built from another rouge_core.kernel_spec ({', '.join(stale[:3])} "
                      "differ): rebuild them")
    _native.configure_record(kernel_spec.RECORD_KINDS.index("DOCUMENT"), None, kernel_spec.DOCUMENT_FIELDS)
    return _native, ""


KERNELS, WHY_PURE = _load()
"""The kernels module, or None on the pure path (then WHY_PURE says why). Other modules call
the functions below rather than this module's."""
_EXTENSION = KERNELS  # the extension as loaded: deferred evidence of its Tokens is built with it whatever the path


def _turn_off(why: str) -> None:
    global KERNELS, WHY_PURE
    KERNELS, WHY_PURE = None, why


def register_records(*classes: type) -> None:
    """Hand the kernels the record classes they fill (kernel_spec.RECORDS), from the modules
    that define them. A class whose fields differ from the build's turns the kernels off."""
    if KERNELS is None:
        return
    for cls in classes:
        kind = kernel_spec.record_kind(cls)
        try:
            KERNELS.configure_record(kind, cls, kernel_spec.record_fields(kernel_spec.RECORD_KINDS[kind]))
        except ValueError as exc:  # a stale build
            _turn_off(f"the compiled kernels do not fit the record classes ({exc})")
            return


def configure_scoring(only_reference: str) -> None:
    """Hand the kernels the reason a single reference is chosen (rouge_core.scoring). Their
    F-measure is rouge_core.stats.f_measure itself, compiled (kernel_spec.RULES)."""
    if KERNELS is not None:
        KERNELS.configure_scoring(only_reference)


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


# --- the kernels, for the modules that use them (each only on the native path) ----------------

def plans(compiled: tuple):
    """The kernels' form of scoring.native_plans' plans, read once (score_pair, batch_job)."""
    return KERNELS.plans(compiled)


def stats(plan: tuple, cand, ref):
    """Stats of one method's kernel plan (Family.native_plan) on a pair of Tokens."""
    return KERNELS.stats(plan, cand, ref)


def score_pair(plans, cand, refs: tuple, alpha: float, empty_nan: bool, score_fn, max_side: int, combine: int = 0):
    """Every planned method on candidate Tokens against reference Tokens: {name: MethodScore}
    for one reference (or several the kernels combine: `combine`, 1 best F, 2 best recall),
    else per plan its ReferenceScores; None above max_side tokens or sentences a side."""
    return KERNELS.score_pair(plans, cand, refs, alpha, empty_nan, score_fn, max_side, combine)


def ascii_document_maker(cls, settings: tuple):
    """A function of an ASCII text giving its `cls` Document, tokenized by the compiled ASCII
    tokenizers; settings: (lowercase, lazy_args) as rouge_core.tokenize gives them."""
    return partial(KERNELS.ascii_document, cls, *settings, TOKENS)


def ascii_document(cls, settings: tuple, text: str):
    return KERNELS.ascii_document(cls, *settings, TOKENS, text)


def ascii_scorer(cand_cls, ref_cls, settings: tuple):
    """A function scoring ASCII texts in one call: (plans, cand, refs, alpha, empty_nan, score_fn,
    max_side) -> (cand Document, reference Documents, records), None above max_side,
    NotImplemented when a method needs the references' own vocabulary."""
    return partial(KERNELS.score_texts, cand_cls, ref_cls, *settings, TOKENS)


def records_only(scorer):
    """An `ascii_scorer` function that makes no Document: (None, None, records)."""
    return partial(scorer.func, None, None, *scorer.args[2:])


def tokenize_ascii(text: str, lowercase: bool):
    """Tokens of an ASCII text under the ASCII tokenizers."""
    return KERNELS.tokenize_ascii(text, lowercase)


# Evidence is often built later (rouge_core.deferred), on first read: of Tokens the extension
# made, so with the extension whichever path is active by then.

def ngram_evidence(cand, ref, n: int) -> tuple:
    """rouge_core.ngram.ngram_evidence's NgramMatch records of a pair of Tokens."""
    return _EXTENSION.ngram_evidence(cand, ref, n)


def skip_evidence(cand, ref, distance: int, form: int, start: str) -> tuple:
    """rouge_core.skipgram.skip_stats's SkipBigramRow records of a pair of Tokens."""
    return _EXTENSION.skip_evidence(cand, ref, distance, form, start)


def lcs_evidence(cand, ref) -> tuple:
    """rouge_core.lcs.sentence_lcs's evidence: ((cand index, ref index) pairs, LCS terms)."""
    return _EXTENSION.lcs_evidence(cand, ref)


def union_evidence(cand, ref) -> tuple:
    """rouge_core.lcs.union_lcs's evidence, per reference sentence (alignments, union, counted)."""
    return _EXTENSION.union_evidence(cand, ref)


def wlcs_alignment(ref, cand, w: float):
    """rouge_core.wlcs.wlcs_alignment compiled: (value, aligned (ref, cand) pairs); None on the
    pure path."""
    kernels = KERNELS
    return None if kernels is None else kernels.wlcs_alignment(ref, cand, w)


def first_partners(ref_sentences, cand_sentences, cand_starts, w: float):
    """rouge_core.wlcs._first_partners compiled; None on the pure path."""
    kernels = KERNELS
    return None if kernels is None else kernels.first_partners(ref_sentences, cand_sentences, cand_starts, w)


def batch_job(plans, cands: list, refs: list, tokenize: bool, lowercase: bool, max_chars: int, max_refs: int,
              alpha: float, empty_nan: bool, block: int):
    """A BatchJob: the pairs scored by the threads that run() it (rouge_core.batch)."""
    return KERNELS.batch_job(plans, cands, refs, tokenize, lowercase, max_chars, max_refs, alpha, empty_nan, block)


def batch_records(plans_for: tuple, values: bytes, offsets: bytes, counts: list, alpha: float, empty_nan: bool,
                  score_fn) -> list:
    """A finished BatchJob's records, per pair as score_pair gives them (None: left out)."""
    return KERNELS.batch_records(plans_for, values, offsets, counts, alpha, empty_nan, score_fn)


def resample_sums(values: bytes, size: int, n: int, rows: int, index: bytes | None, negate: bytes | None,
                  centres: bytes | None, compensated: bool) -> bytes:
    """Per row, the float Python's sum() gives of its n terms (rouge_core.significance's bulk
    path; kernels/resample.h): values[index] (values in order without an index), negated where
    `negate` says, squared distances to the row's centre when `centres` is given."""
    return KERNELS.resample_sums(values, size, n, rows, index, negate, centres, compensated)


def random_draws(state: bytearray, kind: int, n: int, count: int) -> bytes:
    """`count` draws of random.Random from `state` (its MT19937 words and position, advanced in
    place): kind 0, randrange(n) as int32; kind 1, random() >= 0.5 as bytes 0 or 1."""
    return KERNELS.random_draws(state, kind, n, count)
