"""What a ROUGE computation will cost, known before it is paid, and the per-call bound.

A call goes through stages, and each is estimated from what is known before it runs:

    tokenizing   per text, from its characters (the tokenizer that runs on it: the compiled
                 one, or a Python one: rouge-score's on non-ASCII text, whitespace, unicode,
                 cjk, XL-Sum's, the user's), the characters of each script a segmenter reads
                 (Thai, Lao, Khmer, Myanmar, Chinese, Japanese), then, once the words are
                 split, from their number and their distinct number: Token records,
                 stopwords, stemming (each stemmer caches per word type)
    texts        on the compiled path, a text tokenized in Python is interned to ids once,
                 and each reference is joined to the candidate's vocabulary once
    methods      every method from the token, sentence and distinct-token counts of the two
                 sides, on the path that computes it (the compiled kernels or the pure
                 Python reference):
                   N       n-grams of each side
                   L       LCS rows x 64-bit words (bit-parallel)
                   Lsum    the same over the candidate's sentences side by side, per
                           reference sentence, with a traceback
                   Lbest   every (candidate sentence, reference sentence) LCS length
                   W       DP cells (Lin's form or ROUGE-1.5.5's)
                   S, SU   skip-bigrams of both sides
    evidence     the records a view or an export reads, built on first read on the
                 compiled path (rouge_core.deferred); the estimate with evidence includes
                 reading all of it

Each stage counts units of work (`Terms`), which the fitted constants of
rouge_core.scorer.cost_model turn into seconds and bytes; bench/calibrate_costs.py measures them on
a grid of lengths, sentence counts, methods and profiles, per path, fits the constants and
writes that module (a change of which code runs on which input, such as a tokenizer moving
to the compiled path, is a change to `route` plus a new calibration). Memory is what a call
holds at its peak: what it keeps (documents, evidence) plus the largest working set of one
method.

`estimate(method, candidate, references, options, evidence=...)` returns a `CostEstimate`
(seconds and peak bytes on the machine the constants were measured on, the dominant unit and
its count, and a bounded alternative where one exists); `estimate_texts` adds the
tokenizing of texts. `rouge_core.score(..., cost_limit=...)` checks every stage against a
`CostLimit` before running it and raises `CostLimitError` above it: by default
`DEFAULT_COST_LIMIT` (2 s and 500 MB), `UNBOUNDED` to lift it. The bound is an argument of
each call, never a module setting, so concurrent callers (app sessions) cannot change each
other's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ..kernels import native
from .cost_model import BYTES, SECONDS
from .inputs import _compiled_tokenizers, prepare_pair
# the units of work and each family's formula, rouge_core.scorer.cost's names before rouge_core.families.cost_terms held them
from ..families.cost_terms import (BOUNDED_DISTANCE, S_CACHE_GRAMS, Shape, Terms, _interned, _layout_terms, _path,
                                   _texts_terms, best_sentence_cost, distinct_tokens, lcs_cost, ngram_cost, pair_shapes,
                                   skip_cost, union_lcs_cost, wlcs_cost)

if TYPE_CHECKING:
    from ..text.document import Document
    from ..families.methods import Method
    from ..text.options import Options

MB = 10**6


@dataclass(frozen=True)
class CostLimit:
    """A bound on one call: estimated seconds and peak bytes (None: no bound on that)."""

    seconds: float | None = 2.0
    peak_bytes: float | None = 500 * MB

    def __post_init__(self) -> None:
        for name in ("seconds", "peak_bytes"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not value > 0 or value != value):
                raise ValueError(f"CostLimit {name} must be a positive number or None, got {_short(value)}")

    @property
    def unbounded(self) -> bool:
        return self.seconds is None and self.peak_bytes is None

    def allows(self, estimate: "CostEstimate") -> bool:
        return ((self.seconds is None or estimate.seconds <= self.seconds)
                and (self.peak_bytes is None or estimate.peak_bytes <= self.peak_bytes))

    def scaled(self, factor: float) -> "CostLimit":
        """This bound times `factor` (a share of it kept for another stage)."""
        return CostLimit(None if self.seconds is None else self.seconds * factor,
                         None if self.peak_bytes is None else self.peak_bytes * factor)

    def describe(self) -> str:
        parts = []
        if self.seconds is not None:
            parts.append(format_seconds(self.seconds))
        if self.peak_bytes is not None:
            parts.append(format_bytes(self.peak_bytes))
        return " and ".join(parts) if parts else "no bound"


DEFAULT_COST_LIMIT = CostLimit()
"""2 s and 500 MB per call (estimated) on the machine the constants were measured on."""

UNBOUNDED = CostLimit(None, None)
"""No bound: compute whatever it costs."""


def resolve_limit(cost_limit: CostLimit | None) -> CostLimit:
    """None is the default bound; anything else must be a CostLimit."""
    if cost_limit is None:
        return DEFAULT_COST_LIMIT
    if not isinstance(cost_limit, CostLimit):
        raise TypeError("cost_limit must be a rouge_core.scorer.cost.CostLimit (or None for the default bound, "
                        f"rouge_core.scorer.cost.UNBOUNDED for none), not {type(cost_limit).__name__}")
    return cost_limit


def _short(value) -> str:
    from ..errors import excerpt

    return excerpt(value)


def format_seconds(seconds: float) -> str:
    if seconds < 0.01:
        return "under 0.01 s"
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 3600:
        return f"{seconds:,.0f} s"
    return f"{seconds / 3600:,.1f} h"


def approximately(seconds: float) -> str:
    """'about 3.2 s', or 'under 0.01 s' (never 'about under')."""
    text = format_seconds(seconds)
    return text if text.startswith("under") else f"about {text}"


def format_bytes(n: float) -> str:
    if n < MB:
        return "under 1 MB"
    if n < 1000 * MB:
        return f"{n / MB:,.0f} MB"
    return f"{n / (1000 * MB):,.1f} GB"


@dataclass(frozen=True)
class CostEstimate:
    """The estimated cost of a method (summed over the references), a stage or a whole call.

    seconds, peak_bytes: on the machine the constants were measured on (calibrated to lie at
      or a little above what was measured there).
    unit, count: the dominant unit of work and how many ("skip-bigrams", 12345678).
    alternative: a bounded method computing nearly the same thing, where one exists
      (rougeS* -> rougeS4, rougeSU* -> rougeSU4); None otherwise.
    kept_bytes: the part of peak_bytes that stays held after the computation (documents,
      evidence); the rest is working memory, freed before the next method runs. None: all kept.
    shared: ((key, seconds, bytes), ...): parts of the above that every method of one call
      shares (the texts' ids, the candidate's bit masks), counted once by `total`.
    """

    method: str
    seconds: float
    peak_bytes: float
    unit: str
    count: int
    alternative: str | None = None
    kept_bytes: float | None = None
    shared: tuple = ()

    def describe(self) -> str:
        """e.g. 'about 54 s and 2.1 GB (12,345,678 skip-bigrams)'."""
        return (f"{approximately(self.seconds)} and {format_bytes(self.peak_bytes)} "
                f"({self.count:,} {self.unit})")

    def times(self, k: float, label: str | None = None) -> "CostEstimate":
        """The cost of doing this k times over (e.g. for every system of a corpus), memory not
        multiplied (one at a time)."""
        return CostEstimate(label or self.method, self.seconds * k, self.peak_bytes, self.unit, int(self.count * k),
                            self.alternative, self.kept_bytes)


def total(estimates: Iterable[CostEstimate], label: str = "all methods") -> CostEstimate:
    """One estimate for several computations done in one call: times added (the shared parts
    once), memory the kept parts added plus the largest working set."""
    items = list(estimates)
    seconds = kept = work = 0.0
    shared: dict = {}
    for e in items:
        own_kept = e.peak_bytes if e.kept_bytes is None else e.kept_bytes
        work = max(work, e.peak_bytes - own_kept)
        seconds += e.seconds
        kept += own_kept
        for key, s, b in e.shared:
            seconds -= s
            kept -= b
            shared[key] = (s, b)
    seconds += sum(s for s, _ in shared.values())
    kept += sum(b for _, b in shared.values())
    units = {e.unit for e in items}
    unit = units.pop() if len(units) == 1 else "units of work"
    return CostEstimate(label, max(seconds, 0.0), max(kept, 0.0) + work, unit, sum(e.count for e in items),
                        kept_bytes=max(kept, 0.0))


class CostLimitError(ValueError):
    """A call would cost more than its bound; raised before any expensive work.

    method: the costliest method (or stage, e.g. "tokenizing") of the call; estimate: its
    CostEstimate (all references); total: the whole call's CostEstimate; limit: the
    CostLimit; alternative: a bounded method to use instead of `method`, or None;
    alternatives: {method: bounded method} for every method of the call that has one; pair:
    the corpus pair (id) when scoring a corpus. `str(error)` says how to lift the bound in
    Python terms; `message(lift=...)` words it for another caller (a command line names its
    flag).
    """

    PYTHON_LIFT = "pass cost_limit=rouge_core.UNBOUNDED to lift the bound"

    def __init__(self, estimate: CostEstimate, total: CostEstimate, limit: CostLimit,
                 pair: str | None = None, lift: str = PYTHON_LIFT, alternatives: dict[str, str] | None = None,
                 advice: str = "shorten the texts"):
        self.advice = advice
        self.method = estimate.method
        self.estimate = estimate
        self.total = total
        self.limit = limit
        self.alternative = estimate.alternative
        self.alternatives = dict(alternatives or ({self.method: self.alternative} if self.alternative else {}))
        self.pair = pair
        self.lift = lift
        super().__init__(self.message(lift))

    def __reduce__(self):  # picklable across process pools
        return (CostLimitError, (self.estimate, self.total, self.limit, self.pair, self.lift, self.alternatives,
                                 self.advice))

    def message(self, lift: str | None = None, scope: str = "call") -> str:
        """The message, with `lift` saying how to lift the bound and `scope` what the bound
        applies to ("call"; a command line says "pair" or "document")."""
        from ..errors import short_text

        lift = self.lift if lift is None else lift
        where = f"pair {short_text(str(self.pair))}: " if self.pair is not None else ""
        what = f"{self.method} would take {self.estimate.describe()}"
        if self.total.seconds > self.estimate.seconds * 1.01 or self.total.peak_bytes > self.estimate.peak_bytes * 1.01:
            what += f"; the whole {scope} {self.total.describe()}"
        options = []
        if self.alternatives:
            options.append("use " + ", ".join(f"{alt} instead of {m}" for m, alt in self.alternatives.items()))
        options.append(self.advice)
        options.append(lift)
        return (f"{where}{what}, above the bound of {self.limit.describe()} per {scope}. "
                f"{options[0][0].upper()}{options[0][1:]}, " + ", or ".join(options[1:]) + ".")

    def with_pair(self, pair: str) -> "CostLimitError":
        return CostLimitError(self.estimate, self.total, self.limit, pair, self.lift, self.alternatives, self.advice)

    def with_lift(self, lift: str) -> "CostLimitError":
        return CostLimitError(self.estimate, self.total, self.limit, self.pair, lift, self.alternatives, self.advice)


# --- the constants that price units of work (rouge_core.families.cost_terms counts them) ----------

def price(terms: Terms, seconds_per: dict | None = None, bytes_per: dict | None = None) -> tuple[float, float, float]:
    """(seconds, kept bytes, working bytes) of `terms` under the fitted constants (or, for the
    calibration that fits them, under `seconds_per` and `bytes_per`)."""
    seconds_per = SECONDS if seconds_per is None else seconds_per
    bytes_per = BYTES if bytes_per is None else bytes_per
    seconds = sum(seconds_per.get(name, 0.0) * count for name, count in terms.time.items())
    kept = sum(bytes_per.get(name, 0.0) * count for name, count in terms.kept.items())
    work = sum(bytes_per.get(name, 0.0) * count for name, count in terms.work.items())
    return seconds, kept, work


# --- a method on a candidate and its references ----------------------------------------------

def _method_terms(method: "Method", cand: Shape, refs: Sequence[Shape], evidence: bool, options: "Options",
                  pairs: Sequence[tuple[Shape, Shape]] | None = None, *, per_call: bool = True
                  ) -> tuple[list[Terms], dict[str, Terms], str, int]:
    """Per reference the method's own Terms (one computation each), the Terms it shares with
    the call's other methods by key ("texts": the ids of the texts; "layout": the candidate's
    bit masks), the unit and the count. `pairs`: the (candidate, reference) Shapes of each
    pair when known (`pair_shapes`), else the sides as given. `per_call`: with what a call of
    `score` adds per method and reference (its records, signature and dispatch; a corpus's
    pairs, scored in batches into statistics arrays, do not pay it)."""
    spec = method.spec
    count = 0
    unit = spec.unit
    p = _path()
    per_ref = []
    for c_shape, ref in pairs or [(cand, r) for r in refs]:
        terms, unit, k = spec.cost(method, c_shape, ref, evidence, options)
        # a call's records and dispatch, and what the family's kernel sets up on every pair
        kernel = _kernel_key(method, options)
        if per_call:  # a result record per method and reference
            terms.t(f"{p}.call", 1).k(f"{p}.record", 1).t(f"{p}.{kernel}.call", 1)
            if evidence:
                terms.t(f"{p}.{kernel}ev.call", 1)
        per_ref.append(terms)
        count += k
    shared = {}
    if per_call:  # what a call of `score` sets up once, whatever its methods and references
        shared["call"] = Terms().k(f"{p}.call", 1)
    texts = _texts_terms(cand, refs)
    if texts.time:
        shared["texts"] = texts
    if spec.shares_layout(native.active(), evidence) and not cand.view:
        shared["layout"] = _layout_terms(cand)
    return per_ref, shared, unit, count


def _kernel_key(method: "Method", options: "Options") -> str:
    """Which kernel computes the method (ROUGE-N's unigram, bigram and longer kernels differ,
    as do ROUGE-W's two forms): the family says (Family.kernel_key)."""
    return method.spec.kernel_key(method, options)


def _method_estimate(method: "Method", cand: Shape, refs: Sequence[Shape], evidence: bool, options: "Options",
                     pairs: Sequence[tuple[Shape, Shape]] | None = None) -> CostEstimate:
    per_ref, shared_terms, unit, count = _method_terms(method, cand, refs, evidence, options, pairs)
    seconds = kept = work = 0.0
    for terms in per_ref:
        s, k, w = price(terms)
        seconds += s
        kept += k
        work = max(work, w)  # the references one after the other
    shared = []
    for key, terms in shared_terms.items():
        s, k, w = price(terms)
        seconds += s
        kept += k + w
        shared.append((key, s, k + w))
    return CostEstimate(method.name, seconds, kept + work, unit, count, method.spec.alternative(method), kept,
                        tuple(shared))


def call_terms(methods: Iterable[str | Method], cand: "Document", refs: Sequence["Document"], options: "Options",
               evidence: bool, texts: Sequence[TextShape | None] = (), freed: bool = False
               ) -> tuple[list[Terms], dict[str, Terms]]:
    """The units of work of a whole call, as `estimate_texts` and `total` count them: the
    separate computations (each text's tokenizing, each method on each reference; the call's
    peak holds what they keep plus the largest one's working memory) and the shared ones by
    key (counted once). `texts`: the TextShape of each text tokenized (candidate first), None
    for one given as a Document; `freed`: the texts scored as texts (`texts_freed`). For
    bench/calibrate_costs.py, which fits the constants."""
    from ..families.methods import parse_method

    docs = [cand, *refs]
    items = [tokenize_terms(ts, options, len(d), distinct_tokens(d), held) if ts is not None else given_terms(d)
             for ts, d, held in zip(texts, docs, tokens_held(len(docs), freed, options))]
    shared: dict[str, Terms] = {}
    pairs = pair_shapes(cand, refs)
    c, rs = pairs[0][0] if pairs else Shape.of(cand), [r for _, r in pairs]
    for name in methods:
        per_ref, method_shared, _, _ = _method_terms(parse_method(name, options), c, rs, evidence, options, pairs)
        items.extend(per_ref)
        shared.update(method_shared)
    return items, shared


def _options(options: "Options | str | None") -> "Options":
    from ..text.options import Options, profile

    if isinstance(options, Options):
        return options
    return profile(options or "rouge-score")


def _reference_list(references) -> list:
    from ..text.document import Document

    if isinstance(references, (Document, Shape, int)) or (
            isinstance(references, (list, tuple)) and references and all(isinstance(n, int) for n in references)):
        return [references]  # one reference
    return list(references)


def estimate(method: str | Method, candidate, references, options: "Options | str | None" = None, *,
             evidence: bool = False) -> CostEstimate:
    """The cost of one method on a candidate against its references (tokenizing aside: see
    `estimate_texts`).

    candidate / each reference: a Document (tokenized once, as scoring does), a token
    count, or a list of sentence lengths. `references` is a list of those (a single one is
    taken as one reference). `options` (an Options or a profile name) decides the ROUGE-W
    and ROUGE-SU forms. `evidence` as the call to `score` gives it (False by default, as there).
    On the path that computes (rouge_core.kernels.native)."""
    from ..families.methods import parse_method

    options = _options(options)
    pairs = pair_shapes(candidate, _reference_list(references))
    return _method_estimate(parse_method(method, options), Shape.of(candidate), [r for _, r in pairs], evidence,
                            options, pairs)


def estimate_methods(methods: Iterable[str | Method], candidate, references, options: "Options | str | None" = None,
                     *, evidence: bool = False) -> dict[str, CostEstimate]:
    """`estimate` for each method, by method name, in the order given; `total(...)` of the
    values is the whole call's cost, which is what a CostLimit bounds."""
    from ..families.methods import parse_method

    options = _options(options)
    cand = Shape.of(candidate)
    pairs = pair_shapes(candidate, _reference_list(references))
    refs = [r for _, r in pairs]
    out: dict[str, CostEstimate] = {}
    for spec in methods:
        method = parse_method(spec, options)
        out[method.name] = _method_estimate(method, cand, refs, evidence, options, pairs)
    return out


# --- tokenizing ------------------------------------------------------------------------------

TOKENIZING = "tokenizing"  # the stage's name in estimates and messages


@dataclass(frozen=True)
class TextShape:
    """What tokenizing a text costs depends on: its characters, which tokenizer code runs on
    it (`rouge_core.text.tokenize.route`), its lines, the characters and runs of each script a
    segmenter reads, whether ROUGE-1.5.5's `-b` view tokenizes it twice."""

    chars: int
    route: str
    lines: int = 1
    segments: tuple = ()  # ((segmenter, characters, runs), ...)
    view: bool = False
    wide: int = 0  # bytes of UTF-8 beyond one per character (non-ASCII text on the compiled route)


def text_shape(text: str, options: "Options") -> TextShape:
    """The TextShape of `text` under `options`, without tokenizing it (a few passes in C
    over the text where a segmenter may read it)."""
    from ..text.tokenize import route, segmenter_runs

    key = options.tokenize_key()
    path = route(text, key)
    segments = segmenter_runs(text, key, path) if not text.isascii() else ()
    lines = text.count("\n") + 1
    view = bool(key[7] and not key[6] and key[8])  # limit_bytes without limit_words, with the -b defect
    return TextShape(len(text), path, lines, segments, view, _wide(text, path))


def _wide(text: str, path: str) -> int:
    """The UTF-8 bytes of `text` beyond one per character, on the compiled route (which reads
    UTF-8); 0 elsewhere."""
    if path != "compiled" or text.isascii():
        return 0
    return len(text.encode("utf-8", "surrogatepass")) - len(text)


def _stemmer_kind(stemmer: str) -> str | None:
    if stemmer == "none":
        return None
    if stemmer in ("rouge155", "porter"):
        return stemmer
    if stemmer.startswith("snowball-"):
        return "snowball"
    if stemmer in ("xlsum-hindi", "xlsum-turkish"):
        return stemmer
    return "xlsum"  # NLTK's Snowball stemmers (Porter included) on tokens longer than 3 characters


# How long a text's tokens are held (tokenize_terms): as a Document (kept by the result), or, when
# the kernels score texts as texts (texts_freed), the kernels' own arrays for the whole call (the
# candidate; references whose words stemming or stopwords change) or while that text is scored
# (the other references, read one at a time); or as a Document every system's pairs share, kept
# for the whole corpus (rouge_core.studies.meta.score_variants: the kernels' arrays of a compiled
# one, the terms a Python tokenizer made of another: own constants, corpus.shared.*, fitted on
# those corpora).
HELD_DOCUMENT, HELD_CALL, HELD_TEXT, HELD_SHARED = "document", "call", "text", "shared"


VOCABULARY_CACHE_TYPES = 2**18  # word types whose vocabulary entries fit the caches


def tokenize_terms(ts: TextShape, options: "Options", tokens: int | None = None, distinct: int | None = None,
                   held: str = HELD_DOCUMENT) -> Terms:
    """The units of work of tokenizing one text: its characters (and segmented scripts) read
    by the tokenizer; with `tokens` (and `distinct`) known, the words too: their records,
    stopwords, stemming; kept or working memory as `held` says."""
    terms = Terms()
    route = ts.route
    chars = ts.chars
    stopwords = options.stopwords
    stopping = stopwords != "none" and stopwords != frozenset()
    stem = _stemmer_kind(options.stemmer)
    if route == "compiled":
        # the compiled tokenizer reads UTF-8: a non-ASCII character costs its extra bytes, and
        # lower-casing one under rouge-score a look-up in the kernels' table
        hold = terms.w if held == HELD_TEXT else terms.k
        terms.t("tok.compiled.char", chars)
        hold("tok.compiled.char", chars)
        terms.t("tok.compiled.wide", ts.wide)
        hold("tok.compiled.wide", ts.wide)
        if tokens is None:
            return terms
        distinct = tokens if distinct is None else distinct
        # a word found in the vocabulary, or entered as a new type (a reference read while it is
        # scored is only looked up), each new type a cache miss too once the vocabulary outgrows
        # the caches (per type 60 ns at 500,000 types, 140 at 8 million: 1.1 s, priced by
        # characters at 0.07)
        types = 0 if held == HELD_TEXT else distinct
        terms.t("tok.compiled.token", tokens).t("tok.compiled.type", types)
        terms.t("tok.compiled.typemiss", types * min(1.0, types / VOCABULARY_CACHE_TYPES))
        # the Tokens: an id and a span a token, a vocabulary entry a word type (or the kernels'
        # own arrays, released before the call returns)
        if held == HELD_DOCUMENT:
            terms.k("tok.compiled.token", tokens).k("tok.compiled.type", distinct)
        elif held == HELD_SHARED:
            terms.k("corpus.shared.compiled.token", tokens).k("corpus.shared.compiled.type", distinct)
        else:  # a reference read while it is scored is looked up in the candidate's vocabulary: no types of its own
            hold("tok.freed.token", tokens)
            hold("tok.freed.type", distinct if held == HELD_CALL else 0)
        if stem is None and not stopping:
            return terms
        # stemming and stopwords once per word type (a str each, kept by the stemmer's cache:
        # stem.*.type), the Tokens mapped in C
        terms.t("tok.compiled.mapped.type", distinct)
        terms.t("tok.compiled.mapped.token", tokens)
        if held in (HELD_DOCUMENT, HELD_SHARED):
            terms.k("tok.compiled.mapped.token", tokens)
        else:
            hold("tok.freed.token", tokens)
        times = 1
    else:
        times = 2 if ts.view else 1
        kind = route.split(":", 1)[1] if ":" in route else route
        terms.t(f"tok.{kind}.char", chars * times).w(f"tok.{kind}.char", chars).t("tok.line", ts.lines * times)
        for segmenter, seg_chars, runs in ts.segments:
            terms.t(f"seg.{segmenter}.char", seg_chars * times).t(f"seg.{segmenter}.run", runs * times)
            # a segmenter's time grows faster than the characters of a run it reads (PyThaiNLP's
            # dictionary walk over one long run: twice the characters, about three times the
            # time): characters times the average run's length (XL-Sum's segmenters read the
            # whole text as one run, so there the square of its characters)
            terms.t(f"seg.{segmenter}.runchar", seg_chars * seg_chars / max(runs, 1) * times)
            terms.w(f"seg.{segmenter}.char", seg_chars)
        if tokens is None:
            return terms
        distinct = tokens if distinct is None else distinct
        # lazy: terms only; split: terms and offsets in arrays; eager: a Token record each
        record = "tok." + route.split(":", 1)[0]
        terms.t(f"tok.{kind}.token", tokens * times).t(f"{record}.token", tokens * times)
        held_as = f"corpus.shared.{route.split(':', 1)[0]}" if held == HELD_SHARED else record
        terms.k(f"{held_as}.token", tokens).k(f"{held_as}.type", distinct)
        if stopping:
            terms.t("tok.stop.token", tokens * times)
        if ts.segments:  # a segmenter's words, as Python strings and its own records, while it runs
            terms.w("seg.token", tokens)
    if stem is not None:
        terms.t(f"stem.{stem}.type", distinct * times).t(f"stem.{stem}.token", tokens * times)
        terms.k(f"stem.{stem}.type", distinct)
    return terms


def given_terms(doc: "Document") -> Terms:
    """What a text given as a list of tokens holds once it is a Document: a record a token,
    its words (one str a word type)."""
    return Terms().k("tok.given.token", len(doc)).k("tok.given.type", distinct_tokens(doc))


def _given_estimate(doc: "Document") -> CostEstimate:
    _, kept, _ = price(given_terms(doc))
    return CostEstimate(TOKENIZING, 0.0, kept, "tokens", len(doc), kept_bytes=kept)


def tokenize_estimate(ts: TextShape, options: "Options", tokens: int | None = None, distinct: int | None = None,
                      held: str = HELD_DOCUMENT) -> CostEstimate:
    """The CostEstimate of tokenizing one text (see `tokenize_terms`)."""
    seconds, kept, work = price(tokenize_terms(ts, options, tokens, distinct, held))
    return CostEstimate(TOKENIZING, seconds, kept + work, "characters", ts.chars, kept_bytes=kept)


def libraries_needed(options: "Options", shapes: Iterable[TextShape | None]) -> tuple[str, ...]:
    """The libraries (rouge_core.text.loading) tokenizing texts of these shapes under `options`
    loads on first use: its stemmer's, its segmenters'."""
    from ..text.loading import libraries_for

    return libraries_for(options.stemmer, {s[0] for ts in shapes if ts is not None for s in ts.segments})


def loading_terms(libraries: Iterable[str]) -> Terms:
    """A library's first use in the process (NLTK's import, jieba's dictionary): once each."""
    terms = Terms()
    for name in libraries:
        terms.t(f"load.{name}", 1).k(f"load.{name}", 1)
    return terms


def loading_estimate(libraries: Iterable[str]) -> CostEstimate | None:
    """What loading the libraries not loaded in this process yet costs (None when all are)."""
    from ..text.loading import not_loaded

    missing = not_loaded(libraries)
    if not missing:
        return None
    seconds, kept, _ = price(loading_terms(missing))
    return CostEstimate(TOKENIZING, seconds, kept, "libraries", len(missing), kept_bytes=kept)


def estimate_texts(methods: Iterable[str | Method], candidate, references, options: "Options | str | None" = None, *,
                   evidence: bool = False, documents=None, tokenize: bool = True, loading: bool = True,
                   cost_limit: CostLimit | None = None) -> dict[str, CostEstimate]:
    """Every stage of `rouge_core.score(candidate, references, methods, options, evidence=...)`
    on texts: {"tokenizing": the texts' tokenizing, method name: each method} (`total` of the
    values is the call's cost). `documents` (the (candidate, references) Documents when
    already tokenized) gives the exact token counts; without them the texts are tokenized
    here when that is within the default bound (and `tokenize`), else the methods are
    estimated from the words a quick count finds (`proxy_shape`). With `loading`, the
    tokenizing includes loading the libraries it needs that this process has not loaded
    (`loading_estimate`). `cost_limit` as the call gives it (None: the default bound): below
    it, texts without evidence are scored as texts, their tokens freed within the call
    (`texts_freed`)."""
    options = _options(options)
    texts = [candidate, *([references] if isinstance(references, str) else references)]
    shapes = [text_shape(t, options) if isinstance(t, str) else None for t in texts]
    libraries = libraries_needed(options, shapes) if loading else ()
    first_use = loading_estimate(libraries)
    if documents is None and tokenize:
        first = total([*(tokenize_estimate(ts, options) for ts in shapes if ts is not None),
                       *([first_use] if first_use is not None else [])])
        if DEFAULT_COST_LIMIT.allows(first):
            documents = prepare_pair(candidate, references, options)
            first_use = loading_estimate(libraries)  # paid by that tokenizing
    if documents is not None:
        cand, refs = documents
        docs = [cand, *refs]
        freed = not evidence and texts_freed(candidate, references, methods, options, cost_limit, docs)
        held = tokens_held(len(docs), freed, options)
        tokenizing = [tokenize_estimate(ts, options, len(d), distinct_tokens(d), h) if ts is not None
                      else _given_estimate(d) for ts, d, h in zip(shapes, docs, held)]
        per_method = estimate_methods(methods, cand, list(refs), options, evidence=evidence)
    else:
        sides = [proxy_shape(t, ts) for t, ts in zip(texts, shapes)]
        tokenizing = [tokenize_estimate(ts, options, side.tokens, side.distinct) for ts, side in zip(shapes, sides)
                      if ts is not None]
        per_method = estimate_methods(methods, sides[0], sides[1:], options, evidence=evidence)
    if first_use is not None:
        tokenizing.append(first_use)
    out = {}
    if tokenizing:
        out[TOKENIZING] = total(tokenizing, TOKENIZING)
    out.update(per_method)
    return out


_WORD = None


def proxy_shape(text, ts: TextShape | None) -> Shape:
    """About the Shape a text tokenizes to, without tokenizing it: its runs of word characters
    (and, where a segmenter cuts a script written without spaces, a word per two of its
    characters, a token per character of cjk's Han), its non-empty lines. For estimates of
    texts not tokenized yet (a corpus, a page's computation before it runs)."""
    global _WORD
    from ..text.document import Document

    if isinstance(text, Document):
        return Shape.of(text)
    if not isinstance(text, str):  # a token list
        return Shape(len(text), 1, len(set(text)), len(text), False)
    if _WORD is None:
        import re

        _WORD = re.compile(r"\w+")
    words = _WORD.findall(text.lower())
    tokens, distinct = len(words), len(set(words))
    for segmenter, chars, runs in (ts.segments if ts is not None else ()):
        extra = chars if segmenter == "cjk-han" else chars // 2
        tokens += max(extra - runs, 0)
        distinct += max(extra - runs, 0) // 2
    lines = [line for line in text.split("\n") if line.strip()]
    longest = max((len(_WORD.findall(line)) for line in lines), default=0)
    return Shape(tokens, max(len(lines), 1), max(distinct, 0), max(longest, 1),
                 ts is not None and ts.route == "compiled")


def corpus_terms(systems, references: Sequence[Sequence], methods: Sequence, options: "Options", *,
                 shared_references: bool = False, evidence: bool = False, sample: int = 48
                 ) -> tuple[Terms, Terms, int]:
    """The units of work of scoring every system's candidates against the references (one
    pair's texts tokenized and its methods run after another): from up to `sample` pairs
    spread evenly over the systems and documents (each text's shape found by `proxy_shape`,
    without tokenizing), scaled to all of them. `shared_references`: each document's
    references are tokenized once for every system (rouge_core.studies.meta.score_variants), not once
    per pair (score_corpus). Returns (the work scaled to the corpus, one pair's work, pairs)."""
    from ..families.methods import parse_method

    options = _options(options)
    names = list(systems)
    documents = len(references)
    pairs = documents * len(names)
    whole, one = Terms(), Terms()
    if not pairs:
        return whole, one, 0
    chosen = _sampled_pairs(pairs, sample)
    seen_docs: dict[int, list[Terms]] = {}
    ref_shapes: dict[int, list[Shape]] = {}
    parsed = [parse_method(m, options) for m in methods]
    for p in chosen:
        system, doc = names[p // documents], p % documents
        candidate = systems[system][doc]
        ts = text_shape(candidate, options) if isinstance(candidate, str) else None
        c = proxy_shape(candidate, ts)
        pair = Terms()
        held = HELD_SHARED if shared_references else HELD_DOCUMENT
        if ts is not None:
            pair.add(tokenize_terms(ts, options, c.tokens, c.distinct, held))
        if doc not in ref_shapes:
            seen_docs[doc], ref_shapes[doc] = [], []
            for ref in references[doc]:
                rts = text_shape(ref, options) if isinstance(ref, str) else None
                r = proxy_shape(ref, rts)
                ref_shapes[doc].append(r)
                if rts is not None:
                    seen_docs[doc].append(tokenize_terms(rts, options, r.tokens, r.distinct, held))
                if shared_references:  # interned once with its tokens, for every system
                    seen_docs[doc].append(_texts_terms(r, ()))
        refs = ref_shapes[doc]
        if shared_references:
            refs = [replace(r, interned=True) for r in refs]
        # what a pair's methods share (the texts' ids and joins, the candidate's layout) is paid once
        shared_once: dict[str, Terms] = {}
        for method in parsed:
            per_ref, shared, _, _ = _method_terms(method, c, refs, evidence, options, per_call=False)
            for terms in per_ref:
                pair.add(terms)
            shared_once.update(shared)
        for terms in shared_once.values():
            pair.add(terms)
        if shared_references:
            pair.add(variants_records_terms(len(parsed), len(refs), options.round_pr is not None))
            pair.k("corpus.shared.score", len(parsed))  # each method's score of the pair, kept in a dict
        else:
            pair.add(corpus_records_terms(len(parsed), len(refs), options.round_pr is not None))
            if ts is not None and ts.route != "compiled":  # tokenized in Python, held with a batch's chunk
                pair.k("corpus.held.token", c.tokens + sum(r.tokens for r in refs))
        whole.add(pair, pairs / len(chosen))
        one = pair if not one.time else one
        if not shared_references:
            for terms in seen_docs[doc]:
                whole.add(terms, pairs / len(chosen))
    if shared_references:  # each document's references once, for every system
        for terms_list in seen_docs.values():
            for terms in terms_list:
                whole.add(terms, documents / len(seen_docs))
    else:  # score_corpus once per system: its statistics' columns filled chunk by chunk
        whole.t(f"{_path()}.corpus.column", len(names) * len(parsed) * -(-documents // CORPUS_CHUNK))
    _stem_first_seen(whole, systems, references, options, native.active() and not shared_references)
    whole.k(PAIRS, pairs)
    return whole, one, pairs


# the most characters whose distinct words corpus_terms counts (one regular-expression pass);
# a larger corpus keeps every text's word types priced as new to the stemmer
STEM_TYPES_CHARS = 4_000_000


def _sampled_pairs(pairs: int, sample: int) -> list[int]:
    """Up to `sample` of a corpus's pairs (system-major), spread evenly."""
    k = min(sample, pairs)
    return sorted({(j * pairs) // k for j in range(k)}) if k else []


def corpus_libraries(systems, references: Sequence[Sequence], options: "Options", sample: int = 48
                     ) -> tuple[str, ...]:
    """The libraries scoring the corpus loads on first use (`libraries_needed`): its stemmer's,
    and the segmenters the texts of the pairs `corpus_terms` samples need."""
    names, documents = list(systems), len(references)
    shapes = []
    for p in _sampled_pairs(documents * len(names), sample):
        doc = p % documents
        for text in (systems[names[p // documents]][doc], *references[doc]):
            if isinstance(text, str):
                shapes.append(text_shape(text, options))
    return libraries_needed(options, shapes)


def _stem_first_seen(whole: Terms, systems, references: Sequence[Sequence], options: "Options",
                     batch: bool = False) -> None:
    """Stemming a word type in Python happens once per process (the stemmers' caches and the
    kernels' shared table of stems, rouge_core.text.tokenize.stem_map), not once per text: the
    corpus's stem.*.type units become its distinct words (issue 29 item 3: a 16 x 100 x 11
    corpus with Porter stemming was estimated at 11 s, each text's types priced as new, and took
    0.43 s). Counted over every text when the corpus has at most STEM_TYPES_CHARS characters
    (an upper bound on the types the stemmer sees: the ones in its cache already cost less).
    `batch`: score_corpus on the compiled kernels, which tokenize and map every word through the
    shared table in C (rouge_core.corpora.batch): a word type goes to Python (a str, its stem)
    only when new to the table, and the tokens' mapping is the kernels' (tok.compiled.mapped.token)."""
    global _WORD
    units = [name for name in whole.time if name.startswith("stem.") and name.endswith(".type")]
    if not units:
        return
    if batch and "tok.compiled.mapped.type" in whole.time:
        units.append("tok.compiled.mapped.type")
        for name in [n for n in whole.time if n.startswith("stem.") and n.endswith(".token")]:
            del whole.time[name]
    # what the caches keep of a word type, once per process too
    kept = [name for name in units if name in whole.kept]
    texts = [t for group in (*systems.values(), *references) for t in group]
    if not all(isinstance(t, str) for t in texts) or sum(map(len, texts)) > STEM_TYPES_CHARS:
        return
    if _WORD is None:
        import re

        _WORD = re.compile(r"\w+")
    words: set = set()
    for text in texts:
        words.update(_WORD.findall(text.lower()))
    for name in units:
        whole.time[name] = min(whole.time[name], len(words))
    for name in kept:
        whole.kept[name] = min(whole.kept[name], len(words))


def variants_records_terms(methods: int, references: int, rounded: bool = False) -> Terms:
    """What rouge_core.studies.meta.score_variants does in Python per pair beside the kernels:
    a `score_documents` call (its dispatch and result), per method the references combined and
    its record, per method and reference a ReferenceScore with its Stats and Score, and under a
    profile that rounds P and R (ROUGE-1.5.5's) each of those scores printed and read back
    (the "Which ROUGE agrees" page's estimate was 0.36x what it took without them)."""
    p = _path()
    terms = (Terms().t(f"{p}.variants.pair", 1).t(f"{p}.variants.method", methods)
             .t(f"{p}.variants.reference", methods * references))
    if rounded:
        terms.t(f"{p}.variants.rounded", methods * references)
    return terms


def corpus_records_terms(methods: int, references: int, rounded: bool = False) -> Terms:
    """What score_corpus does in Python per pair beside the kernels (rouge_core.corpora.batch):
    per method the pair's record (a MethodScore, the references combined by
    scoring.combine_references) and its numbers appended to the statistics' columns, per
    method and reference a ReferenceScore with its Stats and Score, and under a profile that
    rounds P and R (ROUGE-1.5.5's) each of those scores computed in Python (issue 27 item 9:
    unpriced, the Corpus page's 16 x 100 x 11 estimate was 0.28-0.40x the time it took)."""
    p = _path()
    terms = Terms().t(f"{p}.corpus.method", methods).t(f"{p}.corpus.reference", methods * references)
    if rounded:
        terms.t(f"{p}.corpus.rounded", methods * references)
    return terms


# What score_corpus keeps per pair and method: its statistics arrays, at most three float64
# counts and three float64 scores (rouge_core.corpora.corpus_stats.STORE_BYTES_MAX)
CORPUS_STATISTICS_BYTES = 48

# score_corpus scores CORPUS_CHUNK pairs at a time and holds their records until the chunk's
# numbers are in the statistics: per pair its record and texts' entries, per pair and method a
# MethodScore, per pair, method and reference a ReferenceScore with its Stats and Score (bytes
# per unit fitted by bench/calibrate_costs.py on score_corpus's measured peaks, its corpus cases)
CORPUS_CHUNK = 8192


def chunk_records_terms(documents: int, references: int, methods: int) -> Terms:
    """The records score_corpus holds for one chunk of a system's `documents` pairs with
    `references` references in all (the chunk takes its share of them)."""
    chunk = min(documents, CORPUS_CHUNK)
    if not chunk:
        return Terms()
    per_pair_refs = references / documents
    return (Terms().k("corpus.chunk.pair", chunk).k("corpus.chunk.method", chunk * methods)
            .k("corpus.chunk.reference", chunk * methods * per_pair_refs))


def chunk_records_bytes(documents: int, references: int, methods: int) -> float:
    """The bytes of chunk_records_terms under the fitted constants."""
    return price(chunk_records_terms(documents, references, methods))[1]


def estimate_corpus(systems, references: Sequence[Sequence], methods: Sequence, options: "Options | str | None" = None,
                    *, shared_references: bool = False, evidence: bool = False, sample: int = 48,
                    loading: bool = True) -> CostEstimate:
    """What scoring a corpus costs (`corpus_terms`): seconds for every pair, memory for the
    largest pair at a time and a chunk's records (score_corpus; `chunk_records_bytes`) plus the
    statistics every pair leaves (CORPUS_STATISTICS_BYTES). With `loading`, plus the libraries
    it needs that this process has not loaded (`corpus_libraries`), each a shared part keyed by
    its name, so that `total` over several corpora scored in one process counts each once."""
    options = _options(options)
    whole, one, pairs = corpus_terms(systems, references, methods, options,
                                     shared_references=shared_references, evidence=evidence, sample=sample)
    seconds, peak, records = corpus_cost(whole, one, pairs, len(methods), len(references),
                                         sum(len(r) for r in references), shared_references,
                                         pairs_held=corpus_pairs_held(systems, references, options))
    shared = []
    if loading:
        from ..text.loading import not_loaded

        for library in not_loaded(corpus_libraries(systems, references, options, sample)):
            s, b, _ = price(loading_terms([library]))
            seconds, peak, records = seconds + s, peak + b, records + b
            shared.append((f"load.{library}", s, b))
    return CostEstimate(f"scoring {pairs:,} pairs", seconds, peak, "pairs", pairs, kept_bytes=records,
                        shared=tuple(shared))


# score_corpus's batches (rouge_core.corpora.batch) tokenize in Python this many pairs at a time
# when the kernels cannot tokenize the texts themselves, holding their Documents until the
# kernels have scored them
BATCH_CHUNK = 64


def corpus_pairs_held(systems, references: Sequence[Sequence], options: "Options") -> int:
    """How many pairs' Documents score_corpus holds at once: one, or a batch's chunk
    (BATCH_CHUNK, at most a system's pairs) when Python tokenizes the texts (judged on the
    first candidate: a corpus's texts share a tokenizer)."""
    documents = len(references)
    if not native.active():  # the pure path scores pair by pair
        return 1
    first = next((texts[0] for texts in systems.values() if len(texts)), None) if documents else None
    if not isinstance(first, str) or text_shape(first, options).route == "compiled":
        return 1
    return min(documents, BATCH_CHUNK)


def corpus_cost(whole: Terms, one: Terms, pairs: int, methods: int, documents: int, references: int,
                shared_references: bool, seconds_per: dict | None = None, bytes_per: dict | None = None,
                pairs_held: int = 1) -> tuple[float, float, float]:
    """(seconds, peak bytes, kept bytes) of a corpus's `corpus_terms` (`references`: the
    documents' references in all; `pairs_held`: corpus_pairs_held), under the fitted constants
    (or `seconds_per` and `bytes_per`: bench/calibrate_costs.py prices its corpus cases so while
    it fits them)."""
    seconds, _, _ = price(whole, seconds_per, bytes_per)
    _, held, work = price(corpus_memory_terms(whole, one, methods, documents, references, shared_references,
                                              pairs_held), seconds_per, bytes_per)
    records = pairs * methods * CORPUS_STATISTICS_BYTES  # the statistics kept, not records
    seconds += (SECONDS if seconds_per is None else seconds_per).get(f"{_path()}.call", 0.0)
    return seconds, held + work + records, records


def corpus_memory_terms(whole: Terms, one: Terms, methods: int, documents: int, references: int,
                        shared_references: bool, pairs_held: int = 1) -> Terms:
    """What scoring a corpus holds at its peak besides the statistics (see corpus_cost): with
    shared references (rouge_core.studies.meta.score_variants) every text's Document, kept for
    the whole corpus, with no records; score_corpus (one system after another) `pairs_held`
    pairs' Documents at a time and one chunk's records; and one pair's working memory."""
    if shared_references:
        terms = Terms()
        terms.kept = dict(whole.kept)
    else:
        terms = chunk_records_terms(documents, references, methods)
        for name, count in one.kept.items():
            if name != HELD_TOKEN:
                terms.k(name, count)
        # a batch's chunk of pairs tokenized in Python, their Documents and Tokens held together
        pairs = max(pairs_count(whole), 1)
        terms.k(HELD_TOKEN, whole.kept.get(HELD_TOKEN, 0) / pairs * pairs_held)
    terms.work = dict(one.work)
    return terms


HELD_TOKEN = "corpus.held.token"  # a token of a text tokenized in Python, held with its batch's chunk
PAIRS = "corpus.pairs"  # the pairs a corpus's Terms count (not priced)


def pairs_count(whole: Terms) -> float:
    return whole.kept.get(PAIRS, 0)


# --- a call's budget: every stage charged against the call's bound -----------------------------

class Budget:
    """What one call has been estimated to cost so far, stage by stage, against its bound:
    `charge(key, estimate)` records (or replaces) a stage's estimate and raises
    CostLimitError once the call's total is above the bound. Scoring makes one per call."""

    __slots__ = ("limit", "stages", "compiled_chars", "quick", "estimating", "covered")

    def __init__(self, limit: CostLimit | None = None):
        self.limit = resolve_limit(limit)
        self.stages: dict[str, CostEstimate] = {}
        self.compiled_chars = 0  # characters the compiled tokenizer read so far (see read_compiled)
        self.quick = (0.0, 0.0)  # the most the short texts passed without an estimate can cost
        self.estimating = False  # True once they could cost more than QUICK_SHARE of the bound
        self.covered = False  # True when `precheck_texts` found every text of the call within that share

    @property
    def unbounded(self) -> bool:
        return self.limit.unbounded

    def charge(self, key: str, estimate: CostEstimate) -> None:
        self.stages[key] = estimate
        if self.limit.unbounded:
            return
        spent = total(self.stages.values())
        if not self.limit.allows(spent):
            raise_if_over(list(self.stages.values()), self.limit)

    def spent(self) -> CostEstimate:
        return total(self.stages.values(), "so far")

    # What tokenizing a call's texts asks of its budget (rouge_core.scorer.inputs, below this module,
    # knows the budget only by these).
    def precheck_texts(self, texts: Sequence[tuple[str, object]], options: "Options") -> None:
        precheck_texts(self, texts, options)

    def read_compiled(self, what: str, text: str, options: "Options", tokenize: Callable):
        return read_compiled(self, what, text, options, tokenize)

    def tokenizing_check(self, what: str, text: str, options: "Options"):
        return tokenizing_check(self, what, text, options)

    def within_share(self) -> bool:
        """Whether the call's tokenizing stayed within its share of the bound (then the
        methods' quick checks, made against the rest, hold for the whole call)."""
        spent = _tokenizing_spent(self)
        return not spent or self.limit.scaled(TOKENIZING_SHARE).allows(total(spent))


# Texts tokenized within this share of the bound leave the rest of it to the methods, checked
# as they would be alone (the quick checks below use the bound less this share).
TOKENIZING_SHARE = 0.1


def check_tokenizing(budget: "Budget | None", what: str, ts: TextShape, options: "Options", tokens: int | None = None,
                     distinct: int | None = None) -> None:
    """Charge tokenizing one text (`what`: "candidate", "reference 2") to the call's budget;
    CostLimitError when the call goes above its bound."""
    if budget is None or budget.unbounded:
        return
    budget.charge(f"{TOKENIZING} {what}", tokenize_estimate(ts, options, tokens, distinct))


# Short texts are not estimated one by one: while the call's texts so far could cost at most
# this share of the bound (their characters times the most a character can cost), they pass.
QUICK_SHARE = 0.05


def _most_per_char(path: str, options: "Options", chars: int) -> tuple[float, float]:
    """The most one character of a text of `chars` characters can cost (seconds, bytes) on
    this route: each character a token of its own, a line, and read by every segmenter the
    route may run, in one run as long as the text (a segmenter's time per character grows
    with the run's length)."""
    seconds, nbytes, per_run_char = _most_per_char_terms(path, options)
    return seconds + per_run_char * chars, nbytes


@lru_cache(maxsize=256)
def _most_per_char_terms(path: str, options: "Options") -> tuple[float, float, float]:
    kind = path.split(":", 1)[1] if ":" in path else path
    if kind in ("unicode", "cjk"):
        segmenters = ("thai", "lao", "khmer", "myanmar", "chinese", "chinese-compiled", "japanese", "cjk-han")
    elif kind == "multilingual":
        segmenters = tuple(f"xlsum-{s}" for s in ("thai", "chinese", "chinese-compiled", "japanese", "burmese"))
    else:
        segmenters = ()
    segments = tuple((s, 1, 1) for s in segmenters)
    seconds, kept, work = price(tokenize_terms(TextShape(1, path, 1, segments, wide=3), options, 1, 1))
    per_run_char = sum(price(Terms().t(f"seg.{s}.runchar", 1))[0] for s in segmenters)
    return seconds, kept + work, per_run_char


def tokenizing_check(budget: "Budget | None", what: str, text: str, options: "Options"):
    """For tokenizing `text` within a call: charge what reading its characters costs now, and
    return the check `tokenize_with` calls once the words are split (their records and
    stemming charged before they run). None when the call is not bounded, or while the call's
    texts are short enough to pass without an estimate (QUICK_SHARE)."""
    if budget is None or budget.unbounded or budget.covered:
        return None
    from ..text.tokenize import route

    if not budget.estimating:
        most_s, most_b = _most_per_char(route(text, options.tokenize_key()), options, len(text))
        quick = (budget.quick[0] + len(text) * most_s, budget.quick[1] + len(text) * most_b)
        if budget.limit.scaled(QUICK_SHARE).allows(CostEstimate("", quick[0], quick[1], "", 0)):
            budget.quick = quick
            return None
        budget.estimating = True  # from here on every text is estimated; the short ones so far at their most
        if budget.quick[0] or budget.quick[1]:
            budget.charge(f"{TOKENIZING} (short texts)", CostEstimate(TOKENIZING, *budget.quick, "characters", 0))
    ts = text_shape(text, options)
    check_tokenizing(budget, what, ts, options)

    def after_split(tokens: int, distinct) -> None:
        check_tokenizing(budget, what, ts, options, tokens, distinct() if distinct is not None else None)

    return after_split


def precheck_texts(budget: "Budget | None", texts: Sequence[tuple[str, object]], options: "Options") -> None:
    """Before a call tokenizes any of its texts ((what, text) pairs, "candidate", "reference 1",
    ...): when all of them together could cost at most QUICK_SHARE of the bound, none needs an
    estimate; otherwise each is charged what reading its characters costs, so that a call of
    too many or too long texts is refused before the first one is tokenized."""
    if budget is None or budget.unbounded or budget.estimating or budget.covered:
        return
    from ..text.tokenize import route

    key = options.tokenize_key()
    quick_s, quick_b = budget.quick
    python_texts = []
    for what, text in texts:
        if type(text) is not str:
            continue
        path = route(text, key)
        if path == "compiled" and not _changes_words(options):
            continue  # charged by read_compiled as the compiled tokenizer reads it
        most_s, most_b = _most_per_char(path, options, len(text))
        quick_s += len(text) * most_s
        quick_b += len(text) * most_b
        python_texts.append((what, text))
    if budget.limit.scaled(QUICK_SHARE).allows(CostEstimate("", quick_s, quick_b, "", 0)):
        budget.quick = (quick_s, quick_b)
        budget.covered = True  # every text of the call is within the quick share: no estimate each
        return
    budget.estimating = True
    for what, text in python_texts:
        check_tokenizing(budget, what, text_shape(text, options), options)


def _changes_words(options: "Options") -> bool:
    """Whether stemming or stopwords follow the tokenizer (then the compiled route's words are
    charged once split, before they are stemmed, as a Python tokenizer's are)."""
    return options.stemmer not in ("none", "", None) or options.stopwords not in ("none", frozenset(), None)


def read_compiled(budget: "Budget", what: str, text: str, options: "Options", tokenize: Callable):
    """The compiled tokenizer's Document of `text` (`tokenize(text[, most_tokens, most_types])`,
    None for a text it does not take) within the call's budget. Once the call's texts pass
    `compiled_chars_bound` (a running count of characters), a text is charged its characters
    before it is read, read within the room the bound leaves it (`_compiled_tokens_room`: the
    tokenizer stops past it, `_refuse_compiled_tokens`) and charged its tokens once read, before
    anything scores them: by its characters alone a text of many one-letter words was priced at
    a third of what it holds (300 million characters: 858 MB accepted)."""
    if budget.unbounded:
        return tokenize(text)
    budget.compiled_chars += len(text)
    if budget.compiled_chars <= compiled_chars_bound(budget.limit):
        return tokenize(text)
    ts = TextShape(len(text), "compiled", wide=_wide(text, "compiled"))
    check_tokenizing(budget, what, ts, options)
    room = _compiled_tokens_room(budget, options)
    doc = tokenize(text, *room)
    if type(doc) is tuple:  # more tokens or word types than the bound leaves room for
        _refuse_compiled_tokens(budget, what, ts, room, doc, options)
    if doc is not None:
        # an id a token, a vocabulary entry a word type, as the kernels hold them
        held = tokenize_estimate(ts, options, len(doc), distinct_tokens(doc), HELD_CALL)
        budget.charge(f"{TOKENIZING} {what}", held)
    return doc


def _compiled_tokens_room(budget: "Budget", options: "Options") -> tuple[int, int]:
    """The most tokens and word types the compiled tokenizer may build for a text within the
    time and memory the call's bound has left, each counted alone (together they take at most
    twice what is left), so that finding out that a text has too many costs no more than that
    (native.text_document stops there)."""
    spent, limit = budget.spent(), budget.limit
    many = VOCABULARY_CACHE_TYPES  # priced as that many: a new type past the caches costs its miss

    def room(new_types: bool) -> int:
        some = tokenize_estimate(TextShape(0, "compiled"), options, many, many if new_types else 0, HELD_CALL)
        most = ANY_SIZE
        for bound, used, cost in ((limit.seconds, spent.seconds, some.seconds / many),
                                  (limit.peak_bytes, spent.peak_bytes, some.peak_bytes / many)):
            if bound is not None and cost > 0:
                most = min(most, int(max(bound - used, 0.0) / cost))
        return most

    return room(False), room(True)


def _refuse_compiled_tokens(budget: "Budget", what: str, ts: TextShape, room: tuple[int, int],
                            stop: tuple[int, int], options: "Options") -> None:
    """Raise CostLimitError for a text the compiled tokenizer stopped reading at `room`
    (`stop`: (1 past its tokens or 2 past its word types, the UTF-8 byte where it stopped)):
    its tokens estimated from those it read, as many again in the rest of its bytes (its word
    types, at least one past the room)."""
    (most_tokens, most_types), (over, at) = room, stop
    read = (most_tokens if over == 1 else most_types) + 1
    tokens = max(read, math.ceil(read * (ts.chars + ts.wide) / max(at, 1)))
    distinct = 1 if over == 1 else most_types + 1
    estimate = tokenize_estimate(ts, options, tokens, distinct, HELD_CALL)
    budget.charge(f"{TOKENIZING} {what}", estimate)
    raise CostLimitError(estimate, budget.spent(), budget.limit)  # (the charge raises: it is past what was left)


def _tokenizing_spent(budget: "Budget | None") -> list[CostEstimate]:
    if budget is None:
        return []
    return [e for key, e in budget.stages.items() if key.startswith(TOKENIZING)]


# --- the per-call check (scoring's front door) -----------------------------------------------

def _quick_shape(doc: "Document") -> Shape:
    n = len(doc)
    # (the compiled Tokens know their word types: 50 million tokens of one word, each assumed a
    # new type, were priced over the bound and then counted in Python, 1.6 s and 400 MB)
    return Shape(n, len(doc.sentence_bounds), distinct_tokens(doc, count=False), n, _interned(doc),
                 doc.lcs_view is not None)


def check_call(methods: Sequence[Method], cand: "Document", refs: Sequence["Document"], options: "Options",
               evidence: bool, limit: CostLimit | None, budget: Budget | None = None) -> None:
    """Raise CostLimitError when scoring `methods` on these Documents would exceed `limit`
    (None: the default bound), together with what `budget` (the call's tokenizing) holds.

    Small texts need no estimate; on the native path neither do texts within the largest
    sides that certainly fit (`_uniform_bound`, kept per call shape). Then with every token
    assumed distinct where the compiled Tokens do not know their word types (no pass over the
    tokens); only when that is over the bound and the texts hold at most COUNTED_TOKENS tokens,
    again with the tokens counted (one count per text, kept on it)."""
    limit = resolve_limit(limit)
    if limit.unbounded:
        return
    spent = _tokenizing_spent(budget)
    tokenizing = total(spent) if spent else None
    quick_limit = limit.scaled(1 - TOKENIZING_SHARE)
    if tokenizing is None or limit.scaled(TOKENIZING_SHARE).allows(tokenizing):
        if _small_call(methods, cand, refs, evidence, quick_limit):
            return
        if _native_costs():  # the compiled kernels' estimates grow with every size: one bound serves all calls
            bound = _uniform_bound(tuple(methods), options, len(refs), evidence, quick_limit)
            if len(cand) <= bound and len(cand.sentence_bounds) <= bound and all(
                    len(r) <= bound and len(r.sentence_bounds) <= bound for r in refs):
                return
    shapes = (_quick_shape(cand), [_quick_shape(r) for r in refs])
    estimates = spent + _call_estimates(methods, *shapes, evidence, options)
    if limit.allows(total(estimates)):
        return
    if len(cand) + sum(map(len, refs)) > COUNTED_TOKENS:  # counting them would cost more than it could save
        raise_if_over(estimates, limit)
    pairs = pair_shapes(cand, refs)
    raise_if_over(spent + [_method_estimate(m, Shape.of(cand), [r for _, r in pairs], evidence, options, pairs)
                           for m in methods], limit)


# The most tokens check_call counts in Python (a pass over each text: about 0.1 s) to price
# a call more closely once the estimate that assumes every token distinct is over the bound.
COUNTED_TOKENS = 1 << 22


def raise_if_over(estimates: Sequence[CostEstimate], limit: CostLimit | None) -> None:
    """CostLimitError when the estimates together exceed `limit` (None: the default bound),
    naming the costliest method and every bounded alternative."""
    limit = resolve_limit(limit)
    call = total(estimates)
    if limit.allows(call):
        return
    worst = max(estimates, key=lambda e: max(e.seconds / (limit.seconds or math.inf),
                                             e.peak_bytes / (limit.peak_bytes or math.inf)))
    alternatives = {e.method: e.alternative for e in estimates if e.alternative}
    raise CostLimitError(worst, call, limit, alternatives=alternatives)


def _native_costs() -> bool:
    return native.active()


_last_bound: tuple = (None, None, -1, None, -1)  # the last native_bound call's key and bound


def native_bound(methods: tuple, options: "Options", n_refs: int, limit: CostLimit | None) -> int:
    """On the native path: the largest number of tokens and of sentences every side may have
    for `methods` (no evidence) to fit `limit` whatever the texts (`_uniform_bound`, with the
    share of the bound its tokenizing may take kept aside); the last call's answer is kept (a
    corpus asks the same for every pair)."""
    global _last_bound
    last_methods, last_options, last_n, last_limit, bound = _last_bound
    if methods is last_methods and options is last_options and n_refs == last_n and limit is last_limit:
        return bound
    bound = _uniform_bound(methods, options, n_refs, False, resolve_limit(limit).scaled(1 - TOKENIZING_SHARE))
    _last_bound = (methods, options, n_refs, limit, bound)
    return bound


ANY_SIZE = 2**62  # a side or text size no bound refuses


def text_call_bounds(methods: tuple, options: "Options", n_refs: int, limit: CostLimit | None) -> tuple[int, int]:
    """(the most tokens and sentences of any side, the most characters of all the texts) of a
    call on texts without evidence that `score` scores without estimating it first: the kernels
    tokenize and score the texts in one call (scoring.text_result), within `native_bound` and
    the characters the tokenizing's share of `limit` reads (`compiled_chars_bound`)."""
    if limit is UNBOUNDED:
        return ANY_SIZE, ANY_SIZE
    return native_bound(methods, options, n_refs, limit), compiled_chars_bound(limit, options)


def tokens_held(texts: int, freed: bool, options: "Options") -> list[str]:
    """How long each text's tokens are held (candidate first; `tokenize_terms`), the texts scored
    as texts (`texts_freed`) or not."""
    if not freed:
        return [HELD_DOCUMENT] * texts
    return [HELD_CALL] + [HELD_CALL if _changes_words(options) else HELD_TEXT] * (texts - 1)


def texts_freed(candidate, references, methods, options: "Options | str | None", limit: CostLimit | None,
                docs: Sequence["Document"]) -> bool:
    """Whether `score(candidate, references, methods, options, evidence=False, cost_limit=limit)`
    scores these texts as texts (`text_call_bounds`), the kernels freeing their tokens within
    the call; `docs`: the texts' Documents (candidate first), for the sizes the kernels check."""
    from ..families.methods import Method, parse_method

    references = (references,) if type(references) is str else tuple(references)
    if not references or type(candidate) is not str or any(type(r) is not str for r in references):
        return False
    options = _options(options)
    if native.KERNELS is None or _compiled_tokenizers(options)[1] is None:
        return False
    parsed = tuple(parse_method(m, options) for m in ([methods] if isinstance(methods, (str, Method)) else methods))
    if any(m.spec.native_plan(m, options) is None for m in parsed):
        return False
    max_side, max_chars = text_call_bounds(parsed, options, len(references), limit)
    return (len(candidate) + sum(map(len, references)) <= max_chars
            and all(len(d) <= max_side and len(d.sentence_bounds) <= max_side for d in docs))


def compiled_chars_bound(limit: CostLimit | None, options: "Options | None" = None) -> int:
    """The most characters the compiled tokenizer reads within the share of `limit` kept for
    tokenizing, whatever words they hold (as many words as characters, as many of them new as
    can be: `most_word_types`), stemmed or stopped as `options` say (None: neither). Longer
    texts are estimated first, their tokens charged as they are read."""
    changed = options if options is not None and _changes_words(options) else None
    return _compiled_chars_bound(resolve_limit(limit), changed)


@lru_cache(maxsize=64)
def _compiled_chars_bound(limit: CostLimit, options: "Options | None") -> int:
    if limit.unbounded:
        return 2**62
    share, options = limit.scaled(TOKENIZING_SHARE), options or _options("rouge-score")

    def fits(chars: int) -> bool:  # held as Documents, or by the kernels for the call
        ts, types = TextShape(chars, "compiled"), most_word_types(chars)
        return all(share.allows(tokenize_estimate(ts, options, chars, types, held)) for held in (HELD_DOCUMENT, HELD_CALL))

    return largest_fitting(fits)


# The compiled tokenizers' words are runs of ASCII letters and digits (kernels/tokens.c): a text
# holds at most 62**n distinct words of n characters.
COMPILED_WORD_SYMBOLS = 62


def most_word_types(chars: int) -> int:
    """The most distinct words the compiled tokenizers find in `chars` characters: the
    shortest words first, each counted as its own characters only (the character between two
    can be part of the word before: rouge-score lower-cases U+0130 to "i" and a combining dot)."""
    types, length = 0, 1
    while chars >= length:
        fit = min(COMPILED_WORD_SYMBOLS ** length, chars // length)
        types += fit
        chars -= fit * length
        length += 1
    return types


def largest_fitting(fits: Callable[[int], bool]) -> int:
    """The largest size n >= 1 with fits(n) (fits false beyond some size; 0 when even 1 does not
    fit; at most about 2**40), by doubling then bisection."""
    if not fits(1):
        return 0
    low, high = 1, 2
    while fits(high) and high < 2**40:
        low, high = high, high * 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if fits(mid) else (low, mid)
    return low


def _call_estimates(methods, cand: Shape, refs: list[Shape], evidence: bool, options) -> list[CostEstimate]:
    return [_method_estimate(m, cand, refs, evidence, options) for m in methods]


# Texts up to this size (tokens plus sentences, each side) cost at most `_SMALL_PAIR` per
# method and reference under every method; a call of a few such pairs needs no estimate.
_SMALL_SIDE = 200


def _worst_small_pair() -> tuple[float, float]:
    from ..families.methods import parse_method
    from ..text.options import Options

    worst_s = worst_b = 0.0
    names = ("rouge1", "rouge2", "rouge9", "rougeL", "rougeLsum", "rougeLsum-best", "rougeW-1.2", "rougeS*", "rougeSU*")
    for interned in (True, False):
        side = Shape(_SMALL_SIDE, _SMALL_SIDE, _SMALL_SIDE, 1, interned)
        one_sentence = Shape(_SMALL_SIDE, 1, _SMALL_SIDE, _SMALL_SIDE, interned)
        for name in names:
            method = parse_method(name)
            for wlcs_form in ("paper", "rouge155"):
                for su_form in ("rouge155", "start-token"):
                    options = Options(wlcs_form=wlcs_form, su_form=su_form)
                    for c, r in ((side, side), (one_sentence, one_sentence), (side, one_sentence),
                                 (one_sentence, side)):
                        for evidence in (False, True):
                            e = _method_estimate(method, c, [r], evidence, options)
                            worst_s, worst_b = max(worst_s, e.seconds), max(worst_b, e.peak_bytes)
        # ROUGE-N's cost peaks at n near half the tokens
        for n in range(1, _SMALL_SIDE + 1):
            e = _method_estimate(parse_method(f"rouge{n}"), side, [side], True, Options())
            worst_s, worst_b = max(worst_s, e.seconds), max(worst_b, e.peak_bytes)
    return worst_s, worst_b


_SMALL_PAIR: dict[str, tuple[float, float]] = {}  # per path (rouge_core.kernels.native.path())


def _small_call(methods, cand, refs, evidence, limit: CostLimit) -> bool:
    if len(cand) + len(cand.sentence_bounds) > _SMALL_SIDE:
        return False
    for ref in refs:
        if len(ref) + len(ref.sentence_bounds) > _SMALL_SIDE:
            return False
    worst = _SMALL_PAIR.get(native.path())
    if worst is None:
        worst = _SMALL_PAIR[native.path()] = _worst_small_pair()
    k = len(methods) * len(refs)
    return ((limit.seconds is None or k * worst[0] <= limit.seconds)
            and (limit.peak_bytes is None or k * worst[1] <= limit.peak_bytes))


@lru_cache(maxsize=1024)
def _uniform_bound(methods: tuple, options: "Options", n_refs: int, evidence: bool, limit: CostLimit) -> int:
    """The largest T such that scoring `methods` against n_refs references fits `limit`
    whenever every side has at most T tokens and at most T sentences; -1 when even empty
    texts do not fit. Used on the native path, where every estimate grows with a side's
    tokens, sentences and distinct tokens, so that Shape(T, T, T) bounds them all (the pure
    path's ROUGE-W estimate switches between its Python and NumPy kernels, so it need not)."""

    def fits(t: int) -> bool:
        side = Shape(t, t, t, t, False)
        return limit.allows(total(_call_estimates(methods, side, [side] * n_refs, evidence, options)))

    if not fits(0):
        return -1
    low, high = 0, 64
    while fits(high):
        low, high = high, high * 2
        if high > 2**40:
            return low
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if fits(mid) else (low, mid)
    return low


# --- resampling: bootstrap intervals and paired tests ------------------------------------------

FEWER_RESAMPLES = "use fewer resamples"

# The corpus bootstrap draws and sums its resamples in blocks of about this many elements (an
# int64 index and a float64 value each), so its memory stays bounded whatever the resamples.
RESAMPLE_BLOCK = 1 << 21


def _resampling_estimate(what: str, terms: Terms, count: int) -> CostEstimate:
    seconds, kept, work = price(terms)
    return CostEstimate(what, seconds, kept + work, "resampled values", count, kept_bytes=kept)


def _resamples(resamples) -> int:
    """The number of resamples, checked: an integer of at least 1."""
    from ..errors import excerpt

    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"resamples must be an integer of at least 1, got {excerpt(resamples)}")
    return resamples


def bootstrap_corpus_terms(pairs: int, resamples: int, methods: int, rebuilt: int | None = None,
                           compiled: bool = False) -> Terms:
    """`rebuilt`: how many of the methods keep no P, R and F but rebuild them from the pairs'
    counts (rouge_core.corpora.corpus_stats: a score_corpus result's usual case, and the
    default: all of them), gathering three count columns and computing three measures per
    resampled element where a stored method gathers its three stored measures. `compiled`:
    the compiled kernel runs it (rouge_core.corpora.corpus._takes_kernel), which holds no block
    of resampled indices and values (two index buffers of 4 bytes per pair, next to the
    statistics' 12 or more); its time is still priced as the NumPy path's (calibrated there:
    an upper bound, several times the kernel's)."""
    rebuilt = methods if rebuilt is None else min(max(rebuilt, 0), methods)
    elements = resamples * pairs
    block = 0 if compiled else min(resamples, max(1, RESAMPLE_BLOCK // max(pairs, 1))) * pairs
    terms = (Terms().t("boot.draw", elements).t("boot.gather", elements * methods).t("boot.score", resamples * methods)
             .w("boot.block", block).k("boot.resample", resamples * methods).t("boot.call", 1))
    if rebuilt:
        terms.t("boot.rebuild", elements * rebuilt).w("boot.rebuild", block)
    return terms


def bootstrap_corpus_estimate(pairs: int, resamples: int, methods: int, rebuilt: int | None = None,
                              compiled: bool = False) -> CostEstimate:
    """`CorpusResult.bootstrap`: every method's macro means and micro scores over `resamples`
    resamples of `pairs` pairs (drawn and summed in blocks; the resampled values kept for the
    percentiles); `rebuilt`, `compiled`: see bootstrap_corpus_terms (None: every method, the
    upper of the two; the NumPy path, the upper of the two)."""
    return _resampling_estimate(f"the bootstrap ({resamples:,} resamples of {pairs:,} pairs)",
                                bootstrap_corpus_terms(pairs, resamples, methods, rebuilt, compiled),
                                resamples * pairs * methods)


def paired_tests_terms(pairs: int, resamples: int, comparisons: int = 1) -> Terms:
    exact = pairs <= 20 and 2**pairs <= resamples
    permutation = ("boot.exact.element", 2**pairs * pairs) if exact else ("boot.perm.element", resamples * pairs)
    one = (Terms().t("boot.paired.element", resamples * pairs).t(*permutation).t("boot.paired.resample", resamples)
           .k("boot.paired.resample", resamples).w("boot.paired.pair", pairs).t("boot.call", 1))
    # comparisons run one after another (rank_systems): their times add, but each lets go of its
    # resamples before the next, so the memory is one comparison's
    terms = Terms().add(one, comparisons)
    terms.kept, terms.work = dict(one.kept), dict(one.work)
    return terms


def paired_tests_estimate(pairs: int, resamples: int, comparisons: int = 1) -> CostEstimate:
    """`compare_systems` (the paired bootstrap with its effect size, and approximate
    randomization) for `comparisons` pairs of systems on `pairs` pairs."""
    terms = paired_tests_terms(pairs, resamples, comparisons)
    label = f"the paired tests ({resamples:,} resamples of {pairs:,} pairs" + (
        f", {comparisons:,} pairs of systems)" if comparisons != 1 else ")")
    return _resampling_estimate(label, terms, resamples * pairs * comparisons)


SMALL_INTS = 257  # CPython keeps one int object of each value below this: an index list shares them


def rouge155_bootstrap_terms(instances: int, resamples: int, columns: int) -> Terms:
    """The index lists are drawn once and kept (a tuple per resample, a pointer per draw, and
    an int object per draw of an index CPython does not share); the columns are resampled
    three at a time (a metric's R, P and F of one peer), each list of values summarised and
    dropped before the next three."""
    elements = resamples * instances
    unshared = elements * max(0, instances - SMALL_INTS) / max(instances, 1)
    return (Terms().t("r155.draw", elements).t("r155.sum", elements * columns).t("r155.resample", resamples * columns)
            .k("r155.index", elements).k("r155.bigindex", unshared).k("r155.list", resamples)
            .w("r155.resample", resamples * min(columns, 3)).t("boot.call", 1))


def rouge155_bootstrap_estimate(instances: int, resamples: int, columns: int) -> CostEstimate:
    """ROUGE-1.5.5's bootstrap (rouge_core.compat.rouge155): `resamples` index lists of
    `instances` draws of its own generator, each summed for `columns` score columns."""
    elements = resamples * instances
    terms = rouge155_bootstrap_terms(instances, resamples, columns)
    return _resampling_estimate(f"ROUGE-1.5.5's bootstrap ({resamples:,} resamples of {instances:,} documents)", terms,
                                elements * columns)


def correlation_estimate(systems: int, documents: int, metrics: int, resamples: int, method: str, level: str,
                         resample: str) -> CostEstimate:
    """rouge_core.studies.meta's correlations of `metrics` metrics at `level` with `resamples`
    bootstrap resamples (0: the coefficients alone): resampling documents at the summary
    level reuses each document's coefficient; otherwise every resample recomputes it (a
    coefficient over k items costs k for Pearson, k^2 for Spearman and Kendall)."""
    terms = correlation_terms(systems, documents, metrics, resamples, method, level, resample)
    label = f"the correlations ({metrics:,} metric(s)" + (f", {resamples:,} resamples)" if resamples else ")")
    return _resampling_estimate(label, terms, metrics * max(resamples, 1) * systems * documents)


def correlation_terms(systems: int, documents: int, metrics: int, resamples: int, method: str, level: str,
                      resample: str) -> Terms:
    pairwise = method != "pearson"
    rows = documents if level == "summary" else 1  # coefficients per resample
    items = systems  # items per coefficient
    per_coefficient = items * items if pairwise else items
    terms = Terms().t("meta.call", metrics)
    terms.t(f"meta.{method}.item", metrics * documents * (per_coefficient if level == "summary" else 1))
    if level == "system":
        terms.t(f"meta.{method}.item", metrics * per_coefficient)
    if resamples:
        cells = resamples * systems * documents
        # the drawn indices (rouge_core.studies.meta._draws): systems, documents or both per resample
        drawn = ((systems if resample in ("systems", "both") else 0)
                 + (documents if resample in ("documents", "both") else 0))
        terms.t("meta.draw", resamples * drawn).k("meta.draw", resamples * drawn)
        terms.k("meta.resample", resamples * metrics)
        if level == "summary" and resample == "documents":
            terms.t("meta.docmean", resamples * documents * metrics)
        else:
            terms.t("meta.cell", cells * metrics).t(f"meta.{method}.item", resamples * rows * per_coefficient * metrics)
            # resamples in blocks of about 2^22 cells times the systems (rouge_core.studies.meta._CELLS),
            # Spearman's and Kendall's pairwise comparisons in blocks of at most 2^22 elements
            block = min(resamples, max(1, (1 << 22) // max(systems * documents * systems, 1)))
            terms.w("meta.block", block * systems * documents)
            # the coefficients' rows at once: a block's (summary level), every resample's system
            # means (system level: rouge_core.studies.meta._resampled_means, then one _rows call)
            coefficient_rows = resamples if level == "system" else block * rows
            if method == "kendall":  # every pair of items compared, rows in blocks of about 2^22 pairs
                terms.w("meta.pairblock", min(coefficient_rows * per_coefficient, 1 << 22))
            elif method == "spearman" and level == "summary":  # a block's rows of items ranked (the
                # system level ranks a resample's system means: a few bytes per resample)
                terms.w("meta.rankblock", coefficient_rows * items)
            elif level == "summary":  # Pearson: a block's rows centred and multiplied (NumPy's temporaries)
                terms.w("meta.pearsonblock", coefficient_rows * items)
    return terms


def check_resampling(estimate: CostEstimate, cost_limit: CostLimit | None, lift: str = CostLimitError.PYTHON_LIFT,
                     advice: str = FEWER_RESAMPLES) -> None:
    """CostLimitError when a resampling computation's estimate is above `cost_limit` (None:
    the default bound), advising fewer resamples."""
    limit = resolve_limit(cost_limit)
    if not limit.allows(estimate):
        raise CostLimitError(estimate, estimate, limit, lift=lift, advice=advice)
