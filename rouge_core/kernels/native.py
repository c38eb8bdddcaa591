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
W_ROUNDING, the record fields the kernels fill) is defined once in rouge_core.kernels.kernel_spec;
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
    from ..text.document import Document

PURE_VARIABLE = "ROUGE_LENS_PURE"
TOKENS = "native-tokens"  # Document.memo key of a document's Tokens


def _load():
    if os.environ.get(PURE_VARIABLE, "").strip().lower() not in ("", "0", "no", "false"):
        return None, f"{PURE_VARIABLE} is set"
    from importlib.util import find_spec

    if find_spec(f"{__package__.rpartition('.')[0]}._native") is None:  # rouge_core._native
        return None, "the compiled kernels were not built (no C compiler when the package was installed)"
    try:
        from .. import _native
    except ImportError as exc:  # built for another Python, or broken
        return None, f"the compiled kernels do not load ({exc})"
    expected = kernel_spec.constants()
    built = getattr(_native, "SPEC", {})
    stale = sorted(name for name in expected.keys() | built.keys()
                   if expected.get(name) != built.get(name) and expected.get(name, 0) is not None)
    if stale:
        return None, (f"the compiled kernels were built from another rouge_core.kernels.kernel_spec ({', '.join(stale[:3])} "
                      "differ): rebuild them")
    _native.configure_record(kernel_spec.RECORD_KINDS.index("DOCUMENT"), None, kernel_spec.DOCUMENT_FIELDS)
    return _native, ""


def _check_lowerings(kernels) -> str:
    """'' when the kernels lower-case non-ASCII text as this Python's str.lower() does (their
    table, kernel_spec.lowerings, was written at build time by a Python of the same Unicode
    version, or by another whose table is the same); else why not. Then the kernels leave
    non-ASCII text under rouge-score's lower-casing to the pure path, and a RuntimeWarning says
    so (an abi3 build made by one Python serves others)."""
    import unicodedata

    version, table = kernels.LOWERINGS
    if version == unicodedata.unidata_version or table == kernel_spec.lowerings():
        kernels.configure_lowering(True)
        return ""
    kernels.configure_lowering(False)
    why = (f"the compiled kernels' lower-casing table comes from Unicode {version} and differs from this Python's "
           f"(Unicode {unicodedata.unidata_version}): non-ASCII text under rouge-score's lower-casing is tokenized "
           "on the pure path; rebuild the kernels for this Python (pip install --force-reinstall --no-binary "
           "rouge-lens, or python setup.py build_ext --inplace)")
    import warnings

    warnings.warn(f"rouge_core: {why}", RuntimeWarning, stacklevel=2)
    return why


KERNELS, WHY_PURE = _load()
WHY_NO_UNICODE = _check_lowerings(KERNELS) if KERNELS is not None else ""
"""Why non-ASCII text under rouge-score's lower-casing takes the pure tokenizer ('': it does not)."""
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


def configure_scoring(only_reference: str, no_evidence: object) -> None:
    """Hand the kernels the reason a single reference is chosen and the evidence of a score
    computed without it (rouge_core.scorer.scoring). Their F-measure is rouge_core.stats.f_measure
    itself, compiled (kernel_spec.RULES), at the call's α or at the α a family's own rule hands
    its kernel plan (rouge_core.scorer.scoring.kernel_f_rule)."""
    if KERNELS is not None:
        try:
            KERNELS.configure_scoring(only_reference, no_evidence)
        except TypeError as exc:  # a stale build (it took the reason alone)
            _turn_off(f"the compiled kernels were built for another rouge_core: rebuild them ({exc})")


def active() -> bool:
    """True when the compiled kernels compute."""
    return KERNELS is not None


def path() -> str:
    """"native" or "pure"."""
    return "native" if KERNELS is not None else "pure"


def describe() -> str:
    """One line: which path computes, and why the pure one when it is."""
    if KERNELS is None:
        return f"pure Python ({WHY_PURE})"
    return "native (compiled kernels)" + (f"; {WHY_NO_UNICODE}" if WHY_NO_UNICODE else "")


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
    return None if tokens is False else tokens  # False: terms that are not strings


def pair(cand: "Document", ref: "Document"):
    """(candidate Tokens, reference Tokens), or None when either side has none."""
    c = tokens_of(cand)
    if c is None:
        return None
    r = tokens_of(ref)
    return None if r is None else (c, r)


def layout(terms, bounds):
    """A CandidateLayout of `terms` in sentences `bounds`: the compiled one, or
    rouge_core.families.bitparallel_lcs's on the pure path (and for terms that are not strings)."""
    if KERNELS is not None:
        try:
            return KERNELS.Layout(terms, bounds)
        except TypeError:
            pass
    from ..families.bitparallel_lcs import CandidateLayout

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


def text_document_maker(cls, settings: tuple):
    """A function of a text giving its `cls` Document, tokenized by the compiled tokenizers of
    rouge-score and ROUGE-1.5.5 (None for a text they do not take: a lone surrogate); settings:
    (word rule, lazy_args) as rouge_core.text.tokenize gives them."""
    return partial(KERNELS.text_document, cls, *settings, TOKENS)


def text_document(cls, settings: tuple, text: str):
    return KERNELS.text_document(cls, *settings, TOKENS, text)


def text_scorer(cand_cls, ref_cls, settings: tuple):
    """A function scoring texts in one call: (plans, cand, refs, alpha, empty_nan, score_fn,
    max_side) -> (cand Document, reference Documents, records), None above max_side,
    NotImplemented when a method needs the references' own vocabulary or a text is one the
    tokenizers do not take."""
    return partial(KERNELS.score_texts, cand_cls, ref_cls, *settings, TOKENS)


def records_only(scorer):
    """A `text_scorer` function that makes no Document: (None, None, records)."""
    return partial(scorer.func, None, None, *scorer.args[2:])


_NO_PLANS: list = []  # the kernels' empty Plans, made on first use (documents_of_texts)


def documents_of_texts(scorer, cand: str, refs: tuple) -> tuple:
    """(cand Document, reference Documents) of texts a `text_scorer` function scored, made by
    that very function (so the same classes and contents as a call that made them at once),
    with no method to score: a result that left its Documents to be made when read
    (rouge_core.scorer.scoring's text results) makes them here, with the extension that scored
    them whichever path is active by then."""
    if not _NO_PLANS:
        _NO_PLANS.append(_EXTENSION.plans(()))
    made = scorer(_NO_PLANS[0], cand, refs, 0.5, False, None, 2**62, 0)
    return made[:2] if type(made) is tuple else None  # None: the function no longer takes them


def tokens_mapped(tokens, mapping: tuple):
    """`tokens` with its k-th distinct term replaced by mapping[k] (None: its tokens dropped),
    in the same sentences; None when the mapping holds something other than str and None."""
    try:
        return _EXTENSION.tokens_mapped(tokens, mapping)
    except TypeError:
        return None


def stem_map(keep, capacity: int):
    """A StemMap: `keep(term)` (a stem, a str, or None to drop the word) called once per word
    type, its answers kept in a table in C shared by every thread (at most `capacity` words;
    full, it starts afresh); tokens_stemmed and batch_job look words up there."""
    return _EXTENSION.stem_map(keep, capacity)


def tokens_stemmed(tokens, stems):
    """`tokens_mapped` with a StemMap's function, each word type looked up in its table; None
    when the function gives something other than a str or None."""
    return _EXTENSION.tokens_stemmed(tokens, stems)


def tokens(terms: tuple, bounds: tuple):
    """The Tokens of `terms` (str) in sentences `bounds` ((start, end) token indices), as a
    Document's (tokens_of)."""
    return KERNELS.tokens(terms, bounds)


def jieba_model(freq: dict, logtotal: float, start: tuple, trans: tuple, emit: tuple):
    """A copy in C of jieba's tables (its FREQ dict, math.log of its total, finalseg's start,
    transition and emission probabilities in the state order B, E, M, S) for jieba_cut; None
    when they hold what the copy does not take (rouge_core.text.segment decides when)."""
    return KERNELS.jieba_model(freq, logtotal, start, trans, emit)


def jieba_cut(model, text: str, words: bool = True) -> list:
    """list(jieba.cut(text)) (default mode: HMM on, no cut_all) on a jieba_model copy, or with
    `words` false the end offset of each word (they cover the text in order)."""
    return KERNELS.jieba_cut(model, text, words)


def tokenize_text(text: str, word_rule: int):
    """Tokens of a text under the compiled tokenizers (kernel_spec.WORD_RULES)."""
    return _EXTENSION.tokenize_text(text, word_rule)


# Evidence is often built later (rouge_core.deferred), on first read: of Tokens the extension
# made, so with the extension whichever path is active by then.

def ngram_evidence(cand, ref, n: int) -> tuple:
    """rouge_core.families.ngram.ngram_evidence's NgramMatch records of a pair of Tokens."""
    return _EXTENSION.ngram_evidence(cand, ref, n)


def skip_evidence(cand, ref, distance: int, form: int, start: str) -> tuple:
    """rouge_core.families.skipgram.skip_stats's SkipBigramRow records of a pair of Tokens."""
    return _EXTENSION.skip_evidence(cand, ref, distance, form, start)


def lcs_evidence(cand, ref) -> tuple:
    """rouge_core.families.lcs.sentence_lcs's evidence: ((cand index, ref index) pairs, LCS terms)."""
    return _EXTENSION.lcs_evidence(cand, ref)


def union_evidence(cand, ref) -> tuple:
    """rouge_core.families.lcs.union_lcs's evidence, per reference sentence (alignments, union, counted)."""
    return _EXTENSION.union_evidence(cand, ref)


def wlcs_alignment(ref, cand, w: float):
    """rouge_core.families.wlcs.wlcs_alignment compiled: (value, aligned (ref, cand) pairs); None on the
    pure path."""
    kernels = KERNELS
    return None if kernels is None else kernels.wlcs_alignment(ref, cand, w)


def first_partners(ref_sentences, cand_sentences, cand_starts, w: float):
    """rouge_core.families.wlcs._first_partners compiled; None on the pure path."""
    kernels = KERNELS
    return None if kernels is None else kernels.first_partners(ref_sentences, cand_sentences, cand_starts, w)


def reference_counts(refs: list) -> tuple[list[int], int]:
    """Per pair of a batch, how many references its list or tuple holds (0 for another value),
    and the largest count."""
    return KERNELS.reference_counts(refs)


def batch_job(plans, cands: list, refs: list, word_rule: int | None, max_bytes: int, max_refs: int,
              alpha: float, empty_nan: bool, block: int, stems=None):
    """A BatchJob: the pairs scored by the threads that run() it (rouge_core.corpora.batch); texts are
    tokenized by the kernels under word_rule (None: only Tokens are taken), their words stemmed
    through `stems` (a StemMap) when given."""
    return KERNELS.batch_job(plans, cands, refs, word_rule, max_bytes, max_refs, alpha, empty_nan, block, stems)


def batch_records(plans_for: tuple, values: bytes, offsets: bytes, counts: list, alpha: float, empty_nan: bool,
                  score_fn) -> list:
    """A finished BatchJob's records, per pair as score_pair gives them (None: left out)."""
    return KERNELS.batch_records(plans_for, values, offsets, counts, alpha, empty_nan, score_fn)


def resample_sums(values: bytes, size: int, n: int, rows: int, index: bytes | None, negate: bytes | None,
                  centres: bytes | None, compensated: bool) -> bytes:
    """Per row, the float Python's sum() gives of its n terms (rouge_core.corpora.significance's bulk
    path; kernels/resample.h): values[index] (values in order without an index), negated where
    `negate` says, squared distances to the row's centre when `centres` is given."""
    return KERNELS.resample_sums(values, size, n, rows, index, negate, centres, compensated)


def random_draws(state: bytearray, kind: int, n: int, count: int) -> bytes:
    """`count` draws of random.Random from `state` (its MT19937 words and position, advanced in
    place): kind 0, randrange(n) as int32; kind 1, random() >= 0.5 as bytes 0 or 1."""
    return KERNELS.random_draws(state, kind, n, count)


BOOTSTRAP_SUMS = 6  # per resample and method: P, R, F (NaN as 0), hits, candidate and reference totals
_PCG64_STATE_BYTES = 48


def bootstrap_state(state: dict) -> bytearray:
    """numpy's PCG64 `bit_generator.state` as bootstrap_sums reads and advances it."""
    import struct

    if state.get("bit_generator") != "PCG64":
        raise ValueError(f"bootstrap_sums draws as PCG64 does, not {state.get('bit_generator')}")
    s, inc = state["state"]["state"], state["state"]["inc"]
    mask = (1 << 64) - 1
    return bytearray(struct.pack("=6Q", s >> 64, s & mask, inc >> 64, inc & mask, int(state["has_uint32"]),
                                 int(state["uinteger"])))


def bootstrap_sums(state: bytearray, n: int, rows: int, columns, empty_nan: bool, threads: int):
    """The corpus bootstrap's sums, compiled (rouge_core.corpora.corpus.bootstrap_corpus; kernels/resample.h):
    `rows` resamples of the n pairs drawn as numpy's Generator.integers(0, n) draws them from the
    PCG64 `state` (bootstrap_state; advanced in place), and per resample and method the pairwise
    sums numpy gives of the gathered P, R, F (NaN as 0) and counts, with the P, R, F values that
    are not NaN counted. columns: per method ((hits, cand, ref) arrays of n uint32, uint16, uint8 or float64, strided or not,
    (P, R, F) float64 arrays or None where they derive from the counts, the alpha of the method's
    F: stats.f_measure's rule, spec.h). Returns float64
    sums (rows, methods, 6) and int64 counts (rows, methods, 3). None on the pure path."""
    import numpy as np

    kernels = KERNELS
    if kernels is None:
        return None
    if not 1 <= n < 1 << 32:
        raise ValueError("bootstrap_sums: n must be between 1 and 2**32 - 1")
    if not isinstance(state, bytearray) or len(state) != _PCG64_STATE_BYTES:
        raise TypeError("bootstrap_sums: the state must be bootstrap_state's bytearray")

    def checked(a, dtypes):
        if not (isinstance(a, np.ndarray) and a.dtype in dtypes and a.ndim == 1 and len(a) == n
                and a.strides[0] > 0 and a.strides[0] % a.itemsize == 0 and a.flags.aligned):
            raise ValueError(f"bootstrap_sums: a column must be an array of {n} {' or '.join(map(str, dtypes))}")
        return a

    kept, specs = [], []  # the arrays stay referenced for the call: the kernel reads their memory
    u32, f64, u16, u8 = np.dtype(np.uint32), np.dtype(np.float64), np.dtype(np.uint16), np.dtype(np.uint8)
    kinds = {u32: 0, f64: 1, u16: 2, u8: 3}  # resample.h's SIDE_U32, SIDE_F64, SIDE_U16, SIDE_U8
    for sides, scores, alpha in columns:
        sides = [checked(a, (u32, f64, u16, u8)) for a in sides]
        scores = [checked(a, (f64,)) for a in scores] if scores is not None else None
        scores = [np.ascontiguousarray(a) for a in scores] if scores is not None else None
        kept.extend(sides + (scores or []))
        specs.append(tuple(a.ctypes.data for a in sides) + tuple(kinds[a.dtype] for a in sides)
                     + tuple(a.strides[0] // a.itemsize for a in sides)
                     + (tuple(a.ctypes.data for a in scores) if scores else (0, 0, 0)) + (float(alpha),))
    sums, counts = kernels.bootstrap_sums(state, n, rows, tuple(specs), bool(empty_nan), int(threads))
    del kept
    methods = len(specs)
    return (np.frombuffer(sums, np.float64).reshape(rows, methods, BOOTSTRAP_SUMS),
            np.frombuffer(counts, np.int64).reshape(rows, methods, 3))
