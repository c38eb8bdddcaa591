"""The units of work of each kernel, below the method registry: `Terms` (units by constant
name), `Shape` (what a side's cost depends on) and each family's formula (`ngram_cost`,
`lcs_cost`, ... : the `Family.cost` hooks of rouge_core.families.methods call them). Pricing the units
(rouge_core.scorer.cost_model's constants), the estimates and the per-call bound are
rouge_core.scorer.cost, which builds on the registry and re-exports these names."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from ..kernels import native
from ..kernels.kernel_spec import w155_most_blocks

if TYPE_CHECKING:
    from ..text.document import Document

# --- units of work ---------------------------------------

class Terms:
    """Units of work by constant name: `time` (each unit costs SECONDS[name]), `kept` and
    `work` (each unit holds BYTES[name], kept to the end of the call or only while the
    computation runs). rouge_core.scorer.cost_model holds the constants and `rouge_core.scorer.cost.price`
    applies them; bench/calibrate_costs.py reads the units to fit them."""

    __slots__ = ("time", "kept", "work")

    def __init__(self) -> None:
        self.time: dict[str, float] = {}
        self.kept: dict[str, float] = {}
        self.work: dict[str, float] = {}

    def t(self, name: str, count: float) -> "Terms":
        if count:
            self.time[name] = self.time.get(name, 0) + count
        return self

    def k(self, name: str, count: float) -> "Terms":
        if count:
            self.kept[name] = self.kept.get(name, 0) + count
        return self

    def w(self, name: str, count: float) -> "Terms":
        if count:
            self.work[name] = self.work.get(name, 0) + count
        return self

    def add(self, other: "Terms", times: float = 1) -> "Terms":
        for mine, theirs in ((self.time, other.time), (self.kept, other.kept), (self.work, other.work)):
            for name, count in theirs.items():
                mine[name] = mine.get(name, 0) + count * times
        return self

    def names(self) -> tuple[set, set]:
        return set(self.time), set(self.kept) | set(self.work)


def _words(bits: int) -> int:
    return bits // 64 + 1


# --- shapes --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Shape:
    """What the cost of a side depends on: tokens, sentences, distinct tokens (an upper
    bound: the tokens themselves when unknown), the longest sentence (tokens when unknown),
    whether its tokens are already ids of the compiled kernels (`interned`: tokenized by
    them, nothing to intern), whether it carries ROUGE-1.5.5's `-b` view (`view`: the L
    and W families then run in Python), and how many of its tokens the other side of the
    pair has (`common`; `pair_shapes` counts it for two Documents)."""

    tokens: int
    sentences: int
    distinct: int
    longest: int = -1
    interned: bool = True
    view: bool = False
    common: int = -1  # tokens whose term the other side has too (-1: unknown, all of them)
    matches: int = -1  # pairs of equal tokens across the two sides, sum over terms of count x count (-1: unknown)
    singletons: int = 0  # distinct tokens that occur once (0 when unknown)
    # (this side's Document, the other side's) when `pair_shapes` made it: what a family may
    # count from the tokens themselves when the counts above cannot bound its work (`ordered_pairs`)
    docs: tuple = field(default=(), compare=False, repr=False)

    @property
    def longest_sentence(self) -> int:
        return self.tokens if self.longest < 0 else self.longest

    @property
    def shared(self) -> float:
        """The share of the tokens whose term the other side has (1 when unknown): the compiled
        kernels count n-grams and skip-bigrams of those only."""
        if self.common < 0 or not self.tokens:
            return 1.0
        return self.common / self.tokens

    @staticmethod
    def of(side) -> "Shape":
        """A Document, a token count, or a sequence of sentence lengths."""
        from ..text.document import Document

        if isinstance(side, Shape):
            return side
        if isinstance(side, Document):
            return Shape(len(side), len(side.sentence_bounds), distinct_tokens(side), _longest(side),
                         _interned(side), side.lcs_view is not None)
        if isinstance(side, int) and not isinstance(side, bool):
            if side < 0:
                raise ValueError(f"a token count must be non-negative, got {side}")
            return Shape(side, 1, side, side)
        if isinstance(side, (list, tuple)) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                                   for n in side):
            tokens = sum(side)
            return Shape(tokens, len(side), tokens, max(side, default=0))
        raise TypeError("a side is a Document, a token count, or a list of sentence lengths, "
                        f"not {type(side).__name__}")


_DISTINCT = "distinct-tokens"  # Document.memo key


def distinct_tokens(doc: "Document", count: bool = True) -> int:
    """The distinct tokens of `doc` (with count=False, when they would take a pass to count:
    its tokens, every one assumed distinct)."""
    from ..kernels.native import TOKENS

    tokens = doc.memoized(TOKENS)
    if tokens:  # the compiled kernels' Tokens know it
        return tokens.distinct
    if not count:
        return len(doc)
    return doc.memo(_DISTINCT, _count_distinct, doc.term_tuple)


def _count_distinct(terms) -> int:
    return len(set(terms))


_COUNTS = "term-counts"  # Document.memo key


def _term_counts(doc: "Document") -> dict:
    from collections import Counter

    return doc.memo(_COUNTS, Counter, doc.term_tuple)


def pair_shapes(cand, refs: Sequence) -> list[tuple[Shape, Shape]]:
    """Per reference, the (candidate, reference) Shapes of that pair; for two Documents each
    knows how many of its tokens the other has (`Shape.common`)."""
    from dataclasses import replace

    from ..text.document import Document

    c = Shape.of(cand)
    out = []
    for ref in refs:
        r = Shape.of(ref)
        if isinstance(cand, Document) and isinstance(ref, Document):
            a, b = _term_counts(cand), _term_counts(ref)
            both = a.keys() & b.keys()
            matches = sum(a[t] * b[t] for t in both)
            out.append((replace(c, common=sum(a[t] for t in both), matches=matches, singletons=_singletons(cand),
                                docs=(cand, ref)),
                        replace(r, common=sum(b[t] for t in both), matches=matches, singletons=_singletons(ref),
                                docs=(ref, cand))))
        else:
            out.append((c, r))
    return out


def _singletons(doc: "Document") -> int:
    return doc.memo("singletons", lambda: sum(1 for n in _term_counts(doc).values() if n == 1))


def _distinct_pairs(vocabulary: int, singletons: int) -> int:
    """At most how many distinct ordered pairs of tokens a text has: two tokens that occur once
    each come in one order only."""
    return vocabulary * vocabulary - singletons * (singletons - 1) // 2


def ordered_pairs(terms: Sequence, keep=None) -> int:
    """How many distinct ordered pairs (a, b) a token sequence has with an a before a b (only
    tokens in `keep`, when given): its distinct skip-bigrams at unlimited distance, and so a
    bound at any distance. Counts alone cannot tell a text of distinct words (every pair
    distinct) from a Zipf text (most pairs repeats): per term, the distinct terms after its
    first occurrence, in one pass from the end."""
    seen: set = set()
    after: dict = {}
    for term in reversed(terms):
        if keep is None or term in keep:
            after[term] = len(seen)
            seen.add(term)
    return sum(after.values())


SKIP_COUNT_CAP = 1 << 22  # the most skip-bigrams counted one by one (as int64 keys: 32 MB)


def distinct_skip_bigrams(terms: Sequence, distance: int | None) -> int:
    """How many distinct skip-bigrams `terms` has within `distance` (`ordered_pairs` when the
    distance spans the text), or -1 when it has more than SKIP_COUNT_CAP grams to look at."""
    from .skipgram import skip_bigram_total

    n = len(terms)
    if distance is None or distance < 0 or distance + 1 >= n - 1:
        return ordered_pairs(terms)
    if skip_bigram_total(n, distance) > SKIP_COUNT_CAP:
        return -1
    import numpy as np

    index: dict = {}
    ids = np.fromiter((index.setdefault(t, len(index)) for t in terms), dtype=np.int64, count=n)
    keys = np.concatenate([ids[:-gap] * len(index) + ids[gap:] for gap in range(1, distance + 2)])
    return int(np.unique(keys).size)


def _side_pairs(side: Shape, common_only: bool, distance: int | None = None) -> int:
    """For a side made by `pair_shapes`: its distinct skip-bigrams within `distance`
    (`distinct_skip_bigrams`), or with `common_only` its distinct ordered pairs of the tokens
    the other side has (a bound at any distance); -1 when the Shape carries no tokens or the
    count would cost too much."""
    if not side.docs:
        return -1
    doc, other = side.docs
    if common_only:
        return ordered_pairs(doc.term_tuple, _term_counts(other).keys())
    key = (_PAIRS, distance if distance is not None and distance >= 0 else None)
    count = doc.memo(key, distinct_skip_bigrams, doc.term_tuple, key[1])
    return count if count >= 0 else doc.memo(_PAIRS, ordered_pairs, doc.term_tuple)


_PAIRS = "ordered-pairs"  # Document.memo key


def _longest(doc: "Document") -> int:
    return max((b - a for a, b in doc.sentence_bounds), default=0)


def _interned(doc: "Document") -> bool:
    from ..text.tokenize import compiled_document

    return compiled_document(doc)


# --- the texts of a call (compiled path: interning, the reference's join) ------------------

def _texts_terms(c: Shape, refs: Sequence[Shape]) -> Terms:
    """On the compiled path: each side tokenized in Python interned to ids once, each
    reference joined to the candidate's vocabulary once (shared by every method)."""
    terms = Terms()
    if not native.active():
        return terms
    for side in (c, *refs):
        if not side.interned:
            terms.t("native.intern.token", side.tokens).t("native.intern.type", side.distinct)
            terms.k("native.intern.token", side.tokens).k("native.intern.type", side.distinct)
    for r in refs:
        terms.t("native.join.token", r.tokens).t("native.join.type", r.distinct)
    return terms


def _layout_terms(c: Shape) -> Terms:
    """The candidate's bit masks, one per distinct token over its sentences side by side
    (built once per call, shared by the LCS family and ROUGE-1)."""
    width = c.tokens + c.sentences + 1
    masks = min(c.distinct, c.tokens) * _words(width)
    p = _path()
    return (Terms().t(f"{p}.layout.token", c.tokens).t(f"{p}.layout.maskword", masks)
            .t(f"{p}.layout.mask", min(c.distinct, c.tokens)).k(f"{p}.layout.maskword", masks)
            .k(f"{p}.layout.mask", min(c.distinct, c.tokens)))


def _path() -> str:
    return native.path()


# --- per-family units of work: (Terms, unit, count) of one method on one pair --------------
# (each family of rouge_core.families.methods calls its own: `Family.cost`)

def ngram_cost(n: int, c: Shape, r: Shape, evidence: bool):
    c_grams, r_grams = max(c.tokens - n + 1, 0), max(r.tokens - n + 1, 0)
    grams = c_grams + r_grams
    # distinct grams: at most the grams, at most distinct^n
    c_distinct = min(c_grams, c.distinct ** n if n < 8 else c_grams)
    r_distinct = min(r_grams, r.distinct ** n if n < 8 else r_grams)
    matched = min(c_distinct, r_distinct)
    terms = Terms()
    if native.active():
        # the kernels slide over every window and count those of tokens both sides have
        common = c_grams * c.shared ** n + r_grams * r.shared ** n
        if n == 1:  # a count per window too (a 130-million-token text was priced at its call alone)
            terms.t("native.N1.type", min(c.distinct, c.tokens)).t("native.N1.window", grams)
        elif n == 2:  # a table sized to the candidate's bigrams of common tokens
            terms.t("native.N2.window", grams).t("native.N2.common", common).w("native.N2.slot", c_grams * c.shared ** 2)
        else:  # a table of up to 2^20 slots to start with, grown to the candidate's distinct grams
            terms.t("native.Nn.window", grams).t("native.Nn.common", common)
            terms.w("native.Nn.slot", max(min(c_grams, 1 << 20), 2 * c_distinct * c.shared ** n))
        if evidence:  # every window's start listed, a record per matched gram with its start positions
            matched = min(c_distinct * c.shared ** n, r_distinct * r.shared ** n)
            terms.t("native.Nev.window", grams).t("native.Nev.common", common).t("native.Nev.match", matched)
            terms.w("native.Nev.window", grams).k("native.Nev.common", common).k("native.Nev.match", matched)
            terms.k("native.Nev.matchtoken", matched * n)
        return terms, "n-grams", grams
    terms.t("pure.N.gram", grams).t("pure.N.gramtoken", grams * n).t("pure.N.distinct", c_distinct + r_distinct)
    terms.w("pure.N.distinct", c_distinct + r_distinct).w("pure.N.distincttoken", (c_distinct + r_distinct) * n)
    if n > 1:  # the n shifted slices zip() reads
        terms.w("pure.N.slice", min(n, c.tokens) * c.tokens + min(n, r.tokens) * r.tokens)
    if evidence:
        terms.t("pure.Nev.gram", grams).t("pure.Nev.match", matched).t("pure.Nev.matchtoken", matched * n)
        terms.w("pure.Nev.gram", grams).w("pure.Nev.distinct", c_distinct + r_distinct)
        terms.k("pure.Nev.match", matched).k("pure.Nev.position", grams)
    return terms, "n-grams", grams


def lcs_cost(c: Shape, r: Shape, evidence: bool):
    width = c.tokens + 1
    words = _words(width)
    cells = c.tokens * r.tokens
    terms = Terms()
    pairs = min(c.tokens, r.tokens)
    if native.active():
        terms.t("native.L.row", r.tokens).t("native.L.word", r.tokens * words).t("native.L.token", c.tokens)
        if evidence:  # the forward rows kept, mirrored and walked back (over the layout: _layout_terms)
            terms.t("native.Lev.row", r.tokens).t("native.Lev.word", r.tokens * words).t("native.Lev.pair", pairs)
            terms.w("native.Lev.word", r.tokens * words).k("native.Lev.pair", pairs)
        else:  # a mask for each of the candidate's word types the reference has, a bit for each of their
            # tokens (kernels/lcs.c, compact_lcs): a mask for every word type had priced 2 million distinct
            # words against a two-word reference at 500 GB
            shared_types = min(c.distinct, r.distinct, c.tokens, r.tokens)
            terms.w("native.L.maskword", shared_types * _words(round(c.tokens * c.shared) + 1))
        return terms, "LCS cells", cells
    terms.t("pure.L.row", r.tokens).t("pure.L.word", r.tokens * words)
    if evidence:  # a layout of its own, the rows kept for the traceback
        terms.t("pure.Lev.token", c.tokens).t("pure.Lev.row", r.tokens).t("pure.Lev.word", r.tokens * words)
        terms.t("pure.Lev.pair", pairs)
        terms.w("pure.Lev.row", r.tokens).w("pure.Lev.word", r.tokens * words)
        terms.w("pure.Lev.mask", min(c.distinct, c.tokens)).w("pure.Lev.maskword", min(c.distinct, c.tokens) * words)
        terms.k("pure.Lev.pair", pairs)
    return terms, "LCS cells", cells


def union_lcs_cost(c: Shape, r: Shape, evidence: bool):
    width = c.tokens + c.sentences + 1
    words = _words(width)
    cells = width * r.tokens
    # aligned pairs: at most one per reference token and candidate sentence, and at most the
    # pairs of equal tokens across the sides
    pairs = min(r.tokens * c.sentences, r.sentences * c.tokens)
    if r.matches >= 0:
        pairs = min(pairs, r.matches)
    sentence_pairs = r.sentences * c.sentences
    terms = Terms()
    if native.active() and not (c.view or r.view):
        terms.t("native.Lsum.row", r.tokens).t("native.Lsum.word", r.tokens * words)
        terms.t("native.Lsum.sentence", r.sentences).t("native.Lsum.sentpair", sentence_pairs)
        terms.w("native.Lsum.traceword", r.longest_sentence * words)
        if evidence:
            terms.t("native.Lsumev.pair", pairs).t("native.Lsumev.sentpair", sentence_pairs)
            terms.t("native.Lsumev.sentence", r.sentences).t("native.Lsumev.token", r.tokens)
            terms.k("native.Lsumev.pair", pairs).k("native.Lsumev.sentpair", sentence_pairs)
            terms.k("native.Lsumev.sentence", r.sentences).k("native.Lsumev.token", r.tokens)
        return terms, "LCS cells", cells
    terms.t("pure.Lsum.row", r.tokens).t("pure.Lsum.word", r.tokens * words).t("pure.Lsum.sentence", r.sentences)
    terms.t("pure.Lsum.sentpair", sentence_pairs)
    terms.w("pure.Lsum.row", r.longest_sentence).w("pure.Lsum.word", r.longest_sentence * words)
    if evidence:
        terms.t("pure.Lsumev.pair", pairs).t("pure.Lsumev.sentpair", sentence_pairs)
        terms.t("pure.Lsumev.sentence", r.sentences).t("pure.Lsumev.token", r.tokens + c.tokens)
        terms.k("pure.Lsumev.pair", pairs).k("pure.Lsumev.sentpair", sentence_pairs)
        terms.k("pure.Lsumev.sentence", r.sentences).k("pure.Lsumev.token", r.tokens + c.tokens)
    return terms, "LCS cells", cells


def best_sentence_cost(c: Shape, r: Shape, evidence: bool, clip: bool = True):
    # The reference sentences side by side in one layout; per candidate sentence one pass
    # gives its LCS with every reference sentence (a list of them), the best one's traceback
    # clips the hits (`clip`: all but reval's profile). The loop runs in Python on both paths.
    width = r.tokens + r.sentences + 1
    words = _words(width)
    cells = c.tokens * r.tokens
    sentence_pairs = c.sentences * r.sentences
    p = _path()
    terms = Terms()
    terms.t(f"{p}.Lbest.row", c.tokens).t(f"{p}.Lbest.word", c.tokens * words).t(f"{p}.Lbest.sentence", c.sentences)
    terms.t(f"{p}.Lbest.sentpair", sentence_pairs).t(f"{p}.Lbest.token", r.tokens)
    terms.t(f"{p}.Lbest.traceword", c.tokens * _words(r.longest_sentence + 1))
    terms.w(f"{p}.Lbest.maskword", min(r.distinct, r.tokens) * words).w(f"{p}.Lbest.sentpair", r.sentences)
    terms.w(f"{p}.Lbest.token", r.tokens + c.tokens)
    if clip:  # per candidate sentence its best pair's alignment (a layout of the sentence, its tokens
        # counted), then the reference's counts: unpriced, the tools' comparison of a 20,000-word
        # pair was estimated at 0.35-0.5x (the calibration's cases were reval's, which does not clip)
        terms.t(f"{p}.Lbest.clipsentence", c.sentences).t(f"{p}.Lbest.cliptoken", c.tokens)
        terms.t(f"{p}.Lbest.clipref", r.tokens)
    if evidence:
        terms.k(f"{p}.Lbestev.sentence", c.sentences)
    return terms, "LCS cells", cells


def _numpy_available() -> bool:
    from .wlcs import _numpy_kernel

    return _numpy_kernel() is not None


def _uses_numpy(rows: int, width: int) -> bool:
    from .wlcs import _NUMPY_MIN_CELLS, _NUMPY_MIN_WIDTH

    return width >= _NUMPY_MIN_WIDTH and rows * width >= _NUMPY_MIN_CELLS and _numpy_available()


def wlcs_cost(c: Shape, r: Shape, evidence: bool, form: str):
    terms = Terms()
    if native.active() and not (c.view or r.view):
        if form == "paper":
            width, rows = c.tokens, r.tokens
            cells = rows * width
            terms.t("native.Wp.cell", cells).t("native.Wp.row", rows).t("native.Wp.token", c.tokens)
            terms.w("native.Wp.column", width)
            if evidence:  # one traceback bit a cell, then the walk
                pairs = min(c.tokens, r.tokens)
                terms.t("native.Wpev.cell", cells).t("native.Wpev.pair", pairs)
                terms.w("native.Wpev.cell", cells).k("native.Wpev.pair", pairs)
            return terms, "DP cells", cells
        width, rows = c.tokens + c.sentences, r.tokens
        cells = rows * width
        pairs = min(c.tokens, r.tokens)  # a partner per reference position
        terms.t("native.W155.cell", cells).t("native.W155.row", rows).t("native.W155.sentence", r.sentences)
        terms.t("native.W155.pair", pairs)
        terms.w("native.W155.column", width)
        # a reference sentence visits candidate sentences one by one (block buffers of its own
        # and one candidate sentence's length) and sweeps them all at once, with a traceback bit
        # per cell of its longest sentence, only after more than a few (kernels/wlcs.c
        # wlcs_partners: most_blocks), so the candidate must have more sentences than that
        if c.sentences > w155_most_blocks(c.sentences):
            terms.w("native.W155.cell", r.longest_sentence * width)
        if evidence:
            terms.t("native.W155ev.pair", pairs).k("native.W155ev.pair", pairs)
        return terms, "DP cells", cells
    if form == "paper":
        rows, width, blocks = r.tokens, c.tokens, 1
        pairs = min(c.tokens, r.tokens)
    else:  # every reference sentence against every candidate sentence, each behind a zero row/column
        rows, width, blocks = r.tokens + r.sentences, c.tokens + c.sentences, r.sentences * c.sentences
        pairs = min(r.tokens * c.sentences, r.sentences * c.tokens)
    cells = rows * width
    walk = c.tokens + r.tokens  # the longest traceback
    kind = "np" if _uses_numpy(rows, width) else "py"
    terms.t(f"pure.W{kind}.cell", c.tokens * r.tokens).t(f"pure.W{kind}.row", rows).t(f"pure.W{kind}.block", blocks)
    terms.t(f"pure.W{kind}.walk", walk).t("pure.W.pair", pairs).t("pure.W.token", c.tokens + r.tokens)
    terms.w(f"pure.W{kind}.cell", cells).w(f"pure.W{kind}.row", rows).w(f"pure.W{kind}.column", width)
    terms.w(f"pure.W{kind}.block", blocks).w("pure.W.pair", pairs)
    if form != "paper":
        terms.t(f"pure.W155{kind}.cell", c.tokens * r.tokens).t(f"pure.W155{kind}.walk", walk)
    if evidence:
        terms.t("pure.Wev.pair", pairs).k("pure.Wev.pair", pairs)
    return terms, "DP cells", cells


S_CACHE_GRAMS = 2**18  # distinct grams of a side that fit the caches; beyond, each gram costs a miss
GRAM_SLOT_BYTES = 24  # a slot of the kernels' gram tables (kernels/grams.c GSlot)
PAGE_BYTES = 4096
GRAM_TABLE_CAP = 1 << 22  # the most grams a skip-bigram table is sized for up front (grams.c skip_hits)


def _resident_slots(slots: float, entries: float) -> float:
    """The slots of a zeroed (calloc'd) hash table that occupy memory once `entries` keys are
    spread over it: a page of it is the kernel's shared zero page until a key is written on it,
    so a large table sparsely filled holds about one page per key."""
    per_page = PAGE_BYTES / GRAM_SLOT_BYTES
    pages = slots / per_page
    if pages <= 1 or entries <= 0:
        return min(slots, max(entries, 0) * per_page)
    return slots * -math.expm1(-entries / pages)


def gram_table_slots(expect: float, entries: float) -> float:
    """The resident slots of a gram table (kernels/grams.c gt_init, gt_grow) sized for `expect`
    keys and holding `entries` at the end: a power of two at least twice the expected keys,
    doubled whenever it is half full (while it doubles, the old table and the new one both)."""
    size = 16.0
    while size < 2 * expect:
        size *= 2
    grown = False
    while entries * 2 > size:
        size *= 2
        grown = True
    resident = _resident_slots(size, entries)
    if grown:
        resident = max(resident, _resident_slots(size, size / 4) + _resident_slots(size / 2, size / 4))
    return resident


def skip_cost(distance: int | None, unigram_form: str | None, c: Shape, r: Shape, evidence: bool):
    from .skipgram import skip_bigram_total

    p = _path()
    counts = []
    for side in (c, r):
        tokens = side.tokens + (1 if unigram_form == "start-token" and side.tokens else 0)
        count = skip_bigram_total(tokens, distance)
        vocabulary = side.distinct + (1 if unigram_form == "start-token" else 0)
        if unigram_form == "rouge155":
            count += max(side.tokens - 1, 0)
        distinct = min(count, _distinct_pairs(vocabulary, side.singletons) + vocabulary)
        # the start token pairs with every term once, ROUGE-1.5.5's unigrams are one gram a term
        extra = min(side.distinct, side.tokens) if unigram_form else 0
        if p != "native" or evidence:  # every gram of each side counted (the pure path) or listed (evidence)
            pairs = _side_pairs(side, False, distance)
            if pairs >= 0:
                distinct = min(distinct, pairs + extra)
        counts.append((count, distinct, extra))
    (c_count, c_distinct, c_extra), (r_count, r_distinct, _) = counts
    grams = c_count + r_count
    distinct = c_distinct + r_distinct
    largest = max(c_distinct, r_distinct)  # distinct grams of the larger dictionary
    missing = grams * min(1.0, largest / S_CACHE_GRAMS)  # grams counted once the table outgrows the caches
    terms = Terms()
    if p == "native":  # the kernels pair only the tokens both sides have
        common = c_count * c.shared ** 2 + r_count * r.shared ** 2
        table = c_distinct * c.shared ** 2
        pairs = _side_pairs(c, True)
        if pairs >= 0:  # the candidate's distinct grams of common tokens: at most its distinct ordered pairs
            table = min(table, pairs + c_extra * c.shared)
        side_tokens = c.tokens + (1 if unigram_form == "start-token" and c.tokens else 0)
        reach = 8 if distance is None or distance > 8 else distance + 1
        expect = min(side_tokens * (reach + 1), GRAM_TABLE_CAP)  # sized from the length, grown by doubling
        terms.t("native.S.gram", common).t("native.S.miss", common * min(1.0, table / S_CACHE_GRAMS))
        terms.t("native.S.position", c.tokens + r.tokens)
        # the table's pages that hold a gram, and each side's positions of the common tokens
        terms.w("native.S.slot", gram_table_slots(expect, table))
        terms.w("native.S.position", c.tokens * c.shared + r.tokens * r.shared)
        # a new entry of the table (a skip-bigram not met before) costs more than a count
        terms.t("native.S.entry", table)
    else:
        terms.t("pure.S.gram", grams).t("pure.S.miss", missing).t("pure.S.distinct", distinct)
        terms.w("pure.S.distinct", distinct)
    if evidence:  # every gram of both sides in reading order, a row per distinct gram of either side (one
        # for a gram both have: a text against itself had been priced at twice its rows)
        rows = distinct - min(c_distinct * c.shared ** 2, r_distinct * r.shared ** 2)
        terms.t(f"{p}.Sev.gram", grams).t(f"{p}.Sev.row", rows).t(f"{p}.Sev.miss", missing)
        terms.w(f"{p}.Sev.distinct", distinct).k(f"{p}.Sev.row", rows)
    return terms, "skip-bigrams", grams


BOUNDED_DISTANCE = 4  # the distance suggested instead of an unlimited one (ROUGE-S4, ROUGE-SU4)
