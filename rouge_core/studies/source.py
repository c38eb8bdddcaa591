"""The source document: how much of a summary is copied from it, and from where.

Extractive fragments (Grusky, Naaman and Artzi 2018, "Newsroom", section 4.1): the summary's
tokens are walked left to right; at each position the longest shared token sequence with the
source, as the Newsroom code finds it, becomes a fragment and the walk jumps past it; a
position whose token is not in the source is skipped. Then, with |A| the source's tokens,
|S| the summary's and F the fragments:

    coverage    = Σ_f |f| / |S|        (share of summary tokens inside a fragment)
    density     = Σ_f |f|² / |S|       (average length of the fragment a token belongs to)
    compression = |A| / |S|

An empty summary gives 0 for all three (as the Newsroom code does: its `ZeroDivisionError`
and zero-denominator branches return 0).

`search="newsroom"` (the default) is the published `Fragments._match` exactly: while it scans
the source for the current summary position it jumps past each match it finds, so a longer
match starting inside an earlier, shorter one is not seen (summary "a a b", source
"a a a b": fragments "a a" + "b", density 5/3, where the longest match "a a b" gives 3).
`search="longest"` takes the longest match over every source position instead (the paper's
wording: "the longest shared token sequence"). Ties go to the first source position in both.

Novel n-grams (n = 1..4): the share of the summary's n-gram occurrences (running across
sentence breaks, as ROUGE-N's do) that occur nowhere in the source; undefined (NaN) when the
summary has no n-gram of that length.

Tokens come from the rouge_core pipeline under the given Options, so fragments carry the
character offsets of the texts as typed. `NEWSROOM_OPTIONS` (white-space tokens, lower-cased)
is the Newsroom code's `Fragments(summary, text, tokenize=False)`; its default tokenizes with
spaCy, which ROUGE Lens does not ship. Length limits (`-l`, `-b`) are for ROUGE and are not
applied here. The corpus level (`corpus_abstractiveness`) gives each statistic's mean per
system with seeded bootstrap intervals (rouge_core.corpora.corpus.bootstrap_indices: every system
sees the same resampled documents).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Sequence

from ..scorer.cost import CostEstimate, CostLimit, CostLimitError, resolve_limit
from ..text.document import Document
from ..text.options import Options
from ..stats import Interval

NEWSROOM_OPTIONS = Options(tokenizer="whitespace", lowercase=True)
FRAGMENT_SEARCHES = ("newsroom", "longest")
NOVEL_NS = (1, 2, 3, 4)
STATISTICS = ("coverage", "density", "compression", *(f"novel_{n}" for n in NOVEL_NS))
STATISTIC_LABELS = {"coverage": "coverage", "density": "density", "compression": "compression",
                    **{f"novel_{n}": f"novel {n}-grams" for n in NOVEL_NS}}
ORIGINS = ("both", "source", "reference", "novel")  # a candidate word's origin, in this order of precedence

# Cost model of one pair (the development machine; bench/bench_analysis.py measures it): the
# tokens read and indexed, then the match steps, counted from the index before any is taken.
# Memory: both Documents and the source's index, 325-336 bytes per token as tracemalloc counts
# them (prose of 500 to 8,000 tokens), a little more in the resident set.
# Time: reading, tokenizing and indexing both texts, 0.63-0.91 us a token (the best of 25 runs,
# 2,500 to 36,000 tokens of prose, a loaded machine); a match step about 0.12-0.16 us.
SECONDS_PER_TOKEN = 0.8e-6
SECONDS_PER_STEP = 0.15e-6
OCCURRENCE_STEPS = 3  # match steps per source occurrence of a summary bigram (SourceIndex.match_steps)
MAX_OCCURRENCE_STEPS = 4  # the most the walk takes per occurrence (SourceIndex.match_steps)
WALK_STEPS = 200_000  # above this count, the estimate takes the walk itself while it stays within it
BYTES_PER_TOKEN = 400


@dataclass(frozen=True, slots=True)
class Fragment:
    """One extractive fragment: `length` tokens from `summary_start` in the summary equal to
    those from `source_start` in the source (token indices)."""

    summary_start: int
    source_start: int
    length: int


@dataclass(frozen=True)
class NovelNgrams:
    n: int
    novel: int
    total: int

    @property
    def share(self) -> float:
        return self.novel / self.total if self.total else math.nan


class SourceIndex:
    """A source's tokens indexed for matching: the first position of each term and the
    positions of each bigram (a match of two tokens or more starts at a bigram's position;
    a single-token match is the term's first position)."""

    __slots__ = ("terms", "first", "bigrams", "longer")

    def __init__(self, terms: Sequence[str], wanted: set | frozenset | None = None):
        """`wanted`: the bigrams of the summaries to be matched, when known (the index then keeps
        the positions of those alone: most of a source's bigrams are in no summary)."""
        self.terms = tuple(terms)
        # the first position of each term: later positions are written first, then overwritten
        self.first = {term: j for j, term in zip(range(len(self.terms) - 1, -1, -1), reversed(self.terms))}
        pairs = zip(self.terms, self.terms[1:])
        found = [(pair, j) for j, pair in enumerate(pairs) if pair in wanted] if wanted is not None else \
            [(pair, j) for j, pair in enumerate(pairs)]
        bigrams: dict[tuple[str, str], list[int]] = {}
        for pair, j in found:
            positions = bigrams.get(pair)
            if positions is None:
                bigrams[pair] = [j]
            else:
                positions.append(j)
        self.bigrams = bigrams
        # the source's n-grams for n = 3..max(NOVEL_NS): whether a summary n-gram occurs in it
        self.longer = {n: set(zip(*[self.terms[k:] for k in range(n)])) for n in NOVEL_NS[2:]}

    def __len__(self) -> int:
        return len(self.terms)

    def match_steps(self, summary: Sequence[str], search: str) -> int:
        """The token comparisons `match` makes for `summary` (its cost), within 3/4 to about 2x
        of the steps taken whatever the text: the n-gram look-ups per summary position, then
        the walk's steps, found in two ways.

        From the source occurrences of the summary's bigrams, without matching: each fragment
        start i visits its c_i occurrences and extends the ones it tries, each by e >= 2 tokens;
        a try of e tokens is also an occurrence of the bigrams at the e - 2 summary positions the
        fragment then covers. So the walk takes at most MAX_OCCURRENCE_STEPS (4) steps per
        occurrence (1 visit + 3 for the first bigram and the stop, the rest paid by the covered
        positions' occurrences), under both searches; charging OCCURRENCE_STEPS (3) keeps the
        count above 3/4 of the steps taken, and ordinary prose takes about 2 to 2.5 (most tries
        stop after the bigram; about half the occurrences lie inside fragments).

        Repetitive text can take far fewer (the published search skips the tries inside a match
        found, and a long fragment is one start): when the count is above WALK_STEPS, the walk
        itself is taken, counting its steps, as long as each next start's most steps keep it
        within WALK_STEPS; the rest of the summary is then counted from its occurrences."""
        n = len(summary)
        bigrams = self.bigrams
        counts = [len(bigrams.get(pair, ())) for pair in zip(summary, summary[1:])]
        occurrences = sum(counts)
        lookups = n * len(NOVEL_NS)
        if OCCURRENCE_STEPS * occurrences <= WALK_STEPS:
            return lookups + OCCURRENCE_STEPS * occurrences
        _, steps, stop = self._walk(summary, search, WALK_STEPS)
        return lookups + steps + OCCURRENCE_STEPS * sum(counts[stop:])

    def _walk(self, a: Sequence[str], search: str, budget: int | None = None) -> tuple[list[Fragment], int, int]:
        """The fragments of summary `a` left to right (the module docstring's walk), the match
        steps taken (occurrences visited, token comparisons) and where the walk stopped: len(a),
        or, with `budget`, the first start whose most steps would take it above the budget."""
        first, bigrams, b = self.first, self.bigrams, self.terms
        n, m = len(a), len(self.terms)
        skip = search == "newsroom"
        fragments: list[Fragment] = []
        steps = i = 0
        while i < n:
            term = a[i]
            if term not in first:
                i += 1
                continue
            positions = bigrams.get((term, a[i + 1])) if i + 1 < n else None
            if not positions:
                start, length = first[term], 1
            else:
                if budget is not None:
                    c = len(positions)
                    # each try compares at most the rest of the summary; the published search's tries
                    # do not overlap in the source
                    most = c + min(c * (n - i + 1), c + m) if skip else c + c * (n - i + 1)
                    if steps + most > budget:
                        break
                start, length, taken = _best_match(a, b, i, positions, skip)
                steps += taken
            fragments.append(Fragment(i, start, length))
            i += length
        return fragments, steps, min(i, n)

    def match(self, summary: Sequence[str], search: str = "newsroom") -> tuple[list[Fragment], list[int]]:
        """The fragments of `summary` (see the module docstring) and, per summary position,
        the length of the longest match starting there, capped at max(NOVEL_NS) (an n-gram
        starting at i occurs in the source iff that length is at least n)."""
        if search not in FRAGMENT_SEARCHES:
            raise ValueError(f"unknown fragment search {search!r}; choose one of {FRAGMENT_SEARCHES}")
        a = tuple(summary)
        n = len(a)
        first, bigrams = self.first, self.bigrams
        longest = [0] * n
        grams = {size: list(zip(*[a[k:] for k in range(size)])) for size in NOVEL_NS[1:]}  # the summary's n-grams
        bigram_list = grams[2]
        for i in range(n):
            if a[i] not in first:
                continue
            if i + 1 >= n or bigram_list[i] not in bigrams:
                longest[i] = 1
                continue
            length = 2
            for size in NOVEL_NS[2:]:
                if i + size > n or grams[size][i] not in self.longer[size]:
                    break
                length = size
            longest[i] = length
        fragments, _, _ = self._walk(a, search)
        return fragments, longest


def _extend(a, b, i: int, j: int) -> int:
    """How many tokens from a[i] equal those from b[j]."""
    limit = min(len(a) - i, len(b) - j)
    k = 0
    while k < limit and a[i + k] == b[j + k]:
        k += 1
    return k


def _best_match(a, b, i: int, positions: Sequence[int], skip: bool) -> tuple[int, int, int]:
    """The first longest match of a[i:] among the source `positions` (ascending), skipping, as
    the Newsroom code does when `skip`, those inside a match already found, and the steps it
    took (each position visited, each token compared). Positions holding only a one-token
    match never skip anything, so the bigram positions decide alone."""
    best_start, best_length = -1, 0
    next_free = 0
    steps = len(positions)
    for j in positions:
        if skip and j < next_free:
            continue
        k = _extend(a, b, i, j)
        steps += k + 1
        if k > best_length:
            best_start, best_length = j, k
        next_free = j + k
    return best_start, best_length, steps


def ratio(numerator: float, denominator: float) -> float:
    """The Newsroom code's division: 0 when the denominator is 0."""
    return numerator / denominator if denominator else 0.0


def novel_ngrams(longest: Sequence[int]) -> dict[int, NovelNgrams]:
    """Per n in NOVEL_NS: the summary's n-gram occurrences absent from the source, from the
    longest match at each position (`SourceIndex.match`): the n-gram starting at i is novel
    iff that match is shorter than n."""
    size = len(longest)
    out = {}
    for n in NOVEL_NS:
        total = max(0, size - n + 1)
        starts = longest[:total] if total < size else longest
        novel = sum(starts.count(v) for v in range(n))
        out[n] = NovelNgrams(n, novel, total)
    return out


@dataclass(frozen=True)
class PairStatistics:
    """The numbers of one (summary, source) pair, without its documents."""

    summary_tokens: int
    source_tokens: int
    fragments: tuple[Fragment, ...]
    novel: dict[int, NovelNgrams]

    @property
    def coverage(self) -> float:
        return ratio(sum(f.length for f in self.fragments), self.summary_tokens)

    @property
    def density(self) -> float:
        return ratio(sum(f.length ** 2 for f in self.fragments), self.summary_tokens)

    @property
    def compression(self) -> float:
        return ratio(self.source_tokens, self.summary_tokens)

    def values(self) -> dict[str, float]:
        """Every statistic of STATISTICS by name."""
        out = {"coverage": self.coverage, "density": self.density, "compression": self.compression}
        out.update({f"novel_{n}": self.novel[n].share for n in NOVEL_NS})
        return out


def pair_statistics(summary_terms: Sequence[str], index: SourceIndex, search: str = "newsroom") -> PairStatistics:
    fragments, longest = index.match(summary_terms, search)
    return PairStatistics(len(summary_terms), len(index), tuple(fragments), novel_ngrams(longest))


@dataclass(frozen=True)
class Abstractiveness:
    """A summary against its source: the statistics with their evidence (the fragments on
    both Documents, whose tokens keep the character offsets of the texts as typed) and, when
    references were given, where each summary word comes from (`origins`)."""

    candidate: Document
    source: Document
    statistics: PairStatistics
    search: str
    signature: str
    origins: tuple[str, ...] | None = None  # per candidate token, one of ORIGINS

    @property
    def fragments(self) -> tuple[Fragment, ...]:
        return self.statistics.fragments

    @property
    def coverage(self) -> float:
        return self.statistics.coverage

    @property
    def density(self) -> float:
        return self.statistics.density

    @property
    def compression(self) -> float:
        return self.statistics.compression

    @property
    def novel(self) -> dict[int, NovelNgrams]:
        return self.statistics.novel

    def values(self) -> dict[str, float]:
        return self.statistics.values()

    def fragment_rows(self) -> list[dict]:
        """One row per fragment: its number, length, words (as typed in the summary) and the
        character spans in both texts."""
        rows = []
        cand, src = self.candidate, self.source
        for k, f in enumerate(self.fragments, 1):
            first, last = cand.tokens[f.summary_start], cand.tokens[f.summary_start + f.length - 1]
            s_first, s_last = src.tokens[f.source_start], src.tokens[f.source_start + f.length - 1]
            rows.append({"fragment": k, "length": f.length, "text": cand.text[first.start:last.end],
                         "summary_start": f.summary_start, "source_start": f.source_start,
                         "summary_chars": (first.start, last.end), "source_chars": (s_first.start, s_last.end)})
        return rows

    def origin_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(ORIGINS, 0)
        for origin in self.origins or ():
            counts[origin] += 1
        return counts

    def as_dict(self) -> dict:
        out = {"signature": self.signature, "search": self.search, "summary_tokens": self.statistics.summary_tokens,
               "source_tokens": self.statistics.source_tokens, **self.values(),
               "novel_counts": {str(n): {"novel": v.novel, "total": v.total} for n, v in self.novel.items()},
               "fragments": [{k: v for k, v in row.items()} for row in self.fragment_rows()]}
        if self.origins is not None:
            out["origins"] = self.origin_counts()
        return out


def source_options(options: Options | str | None) -> Options:
    """The Options the source statistics tokenize with: NEWSROOM_OPTIONS by default, a profile
    by name, or the given Options without ROUGE's length limits."""
    from ..text.options import profile

    if options is None:
        return NEWSROOM_OPTIONS
    if isinstance(options, str):
        options = profile(options)
    if not isinstance(options, Options):
        raise TypeError(f"options must be rouge_core.Options, a profile name or None, not {type(options).__name__}")
    if options.limit_words or options.limit_bytes:
        options = replace(options, limit_words=None, limit_bytes=None)
    return options


def source_signature(options: Options, search: str) -> str:
    """The signature of these statistics: what decides their tokens, the fragment search and
    the version (the shape of every ROUGE Lens signature)."""
    from ..families.methods import parse_method
    from ..scorer.signature import Signature

    base = Signature.of(parse_method("rouge1"), options, 0)
    return replace(base, method="abstractiveness", refs="0", multi_ref="none", alpha="none",
                   family=(("frag", search), ("novel", "1-4"))).short


def estimate(summary: Document, index: SourceIndex, search: str = "newsroom") -> CostEstimate:
    """The cost of matching `summary` against an indexed source: the match steps
    (SourceIndex.match_steps, never below 3/4 of those taken) and the tokens."""
    steps = index.match_steps(summary.term_tuple, search)
    tokens = len(summary) + len(index)
    return CostEstimate("abstractiveness", SECONDS_PER_TOKEN * tokens + SECONDS_PER_STEP * steps,
                        BYTES_PER_TOKEN * tokens, "match steps", steps)


def check_cost(summary: Document, index: SourceIndex, search: str, cost_limit: CostLimit | None,
               pair: str | None = None) -> None:
    """Raise CostLimitError (rouge_core.scorer.cost's guard) when matching would cost more than the bound."""
    limit = resolve_limit(cost_limit)
    if limit.unbounded:
        return
    n, m = len(summary), len(index)
    if limit.seconds is not None and limit.peak_bytes is not None:
        # a bound of every estimate, counted without walking the summary: most pairs are far below the limit
        occurrences = max(0, n - 1) * max(0, m - 1)  # every summary bigram at every source position
        ceiling = SECONDS_PER_TOKEN * (n + m) + SECONDS_PER_STEP * (n * len(NOVEL_NS) + MAX_OCCURRENCE_STEPS * occurrences)
        if ceiling <= limit.seconds and BYTES_PER_TOKEN * (n + m) <= limit.peak_bytes:
            return
    found = estimate(summary, index, search)
    if not limit.allows(found):
        raise CostLimitError(found, found, limit, pair)


def _prepare(text, options: Options, what: str) -> Document:
    from ..scorer.scoring import prepare

    if not isinstance(text, (str, Document)):
        raise TypeError(f"{what} must be a string or a Document, not {type(text).__name__}")
    return prepare(text, options, what)


def abstractiveness(candidate: str | Document, source: str | Document, options: Options | str | None = None, *,
                    references: Sequence[str | Document] = (), search: str = "newsroom",
                    cost_limit: CostLimit | None = None) -> Abstractiveness:
    """Coverage, density, compression and novel n-grams of `candidate` against `source`, with
    the fragments as evidence; with `references`, each candidate word's origin ("source":
    inside a fragment, i.e. its word occurs in the source; "reference": in a reference only;
    "both"; "novel": in neither). `options` decides the tokens (default NEWSROOM_OPTIONS,
    the Newsroom code with tokenize=False); the cost is checked against `cost_limit` (None: the
    default bound) before matching."""
    if search not in FRAGMENT_SEARCHES:
        raise ValueError(f"unknown fragment search {search!r}; choose one of {FRAGMENT_SEARCHES}")
    opts = source_options(options)
    cand = _prepare(candidate, opts, "candidate")
    src = _prepare(source, opts, "source")
    terms = cand.term_tuple
    index = SourceIndex(src.term_tuple, set(zip(terms, terms[1:])))
    check_cost(cand, index, search, cost_limit)
    statistics = pair_statistics(cand.term_tuple, index, search)
    origins = None
    if references:
        refs = [_prepare(r, opts, f"reference {k}") for k, r in enumerate(references, 1)]
        origins = word_origins(cand.term_tuple, statistics.fragments, refs)
    return Abstractiveness(cand, src, statistics, search, source_signature(opts, search), origins)


def word_origins(terms: Sequence[str], fragments: Sequence[Fragment], references: Sequence[Document]) -> tuple[str, ...]:
    """Per summary token: "both", "source", "reference" or "novel" (see `abstractiveness`)."""
    copied = [False] * len(terms)
    for f in fragments:
        for k in range(f.summary_start, f.summary_start + f.length):
            copied[k] = True
    in_reference = set()
    for ref in references:
        in_reference.update(ref.term_tuple)
    out = []
    for term, from_source in zip(terms, copied):
        found = term in in_reference
        out.append("both" if from_source and found else "source" if from_source else "reference" if found else "novel")
    return tuple(out)


# --- corpus level ------------------------------------------------------------------------------

@dataclass(frozen=True)
class SourceCorpusResult:
    """Per system and pair, the statistics (STATISTICS); per system their means with
    bootstrap intervals (the same resampled pairs for every system)."""

    ids: tuple[str, ...]
    values: dict[str, dict[str, tuple[float, ...]]]  # system -> statistic -> per pair
    intervals: dict[str, dict[str, Interval]]  # system -> statistic -> mean with interval
    resamples: int
    seed: int
    confidence: float
    search: str
    signature: str

    @property
    def systems(self) -> list[str]:
        return list(self.values)

    def frame(self):
        """One row per system and statistic: mean, low, high, pairs (defined), signature."""
        from .. import optional

        pd = optional.pandas("SourceCorpusResult.frame()")
        rows = []
        for system, by_stat in self.intervals.items():
            for stat, iv in by_stat.items():
                defined = sum(1 for v in self.values[system][stat] if not math.isnan(v))
                rows.append({"system": system, "statistic": stat, "label": STATISTIC_LABELS[stat], "mean": iv.value,
                             "low": iv.low, "high": iv.high, "pairs": defined, "signature": self.signature})
        return pd.DataFrame(rows)

    def wide_frame(self):
        """One row per system, one column per statistic (the mean)."""
        frame = self.frame()
        wide = frame.pivot(index="system", columns="statistic", values="mean")
        return wide[[s for s in STATISTICS]].reindex(self.systems).reset_index()

    def pairs_frame(self):
        """One row per pair and system with every statistic."""
        from .. import optional

        pd = optional.pandas("SourceCorpusResult.pairs_frame()")
        rows = []
        for system, by_stat in self.values.items():
            for i, pair_id in enumerate(self.ids):
                rows.append({"system": system, "id": pair_id, **{s: by_stat[s][i] for s in STATISTICS}})
        return pd.DataFrame(rows)


def corpus_abstractiveness(systems: Mapping[str, Sequence[str]], sources: Sequence[str],
                           options: Options | str | None = None, *, ids: Sequence[str] | None = None,
                           search: str = "newsroom", resamples: int = 1000, seed: int = 0, confidence: float = 95,
                           progress: Callable[[int, int], None] | None = None,
                           cost_limit: CostLimit | None = None) -> SourceCorpusResult:
    """The source statistics of every system's summaries (one candidate per source and system),
    each source tokenized and indexed once for all systems; means with percentile intervals
    from `resamples` resamples of the pairs (numpy default_rng(seed), as score_corpus's
    bootstrap). `progress(done, total)` is told after each source. A pair above `cost_limit`
    raises CostLimitError naming its id before it is matched."""
    import numpy as np

    from ..corpora.corpus import bootstrap_indices

    if search not in FRAGMENT_SEARCHES:
        raise ValueError(f"unknown fragment search {search!r}; choose one of {FRAGMENT_SEARCHES}")
    if resamples < 1:
        raise ValueError("the bootstrap needs at least one resample")
    if not 0 < confidence < 100:
        raise ValueError("confidence must be a percentage between 0 and 100")
    opts = source_options(options)
    n = len(sources)
    for name, candidates in systems.items():
        if len(candidates) != n:
            raise ValueError(f"system {name!r} has {len(candidates)} summaries for {n} sources")
    pair_ids = [str(x) for x in ids] if ids is not None else [str(i + 1) for i in range(n)]
    if len(pair_ids) != n:
        raise ValueError(f"{len(pair_ids)} ids for {n} sources")
    columns = {s: {stat: [] for stat in STATISTICS} for s in systems}
    for i, source in enumerate(sources):
        summaries = {name: _prepare(candidates[i], opts, f"candidate of pair {pair_ids[i]}")
                     for name, candidates in systems.items()}
        wanted = {pair for doc in summaries.values() for pair in zip(doc.term_tuple, doc.term_tuple[1:])}
        index = SourceIndex(_prepare(source, opts, f"source of pair {pair_ids[i]}").term_tuple, wanted)
        for name, cand in summaries.items():
            check_cost(cand, index, search, cost_limit, pair_ids[i])
            for stat, value in pair_statistics(cand.term_tuple, index, search).values().items():
                columns[name][stat].append(value)
        if progress is not None:
            progress(i + 1, n)
    values = {s: {stat: tuple(v) for stat, v in by.items()} for s, by in columns.items()}
    intervals: dict[str, dict[str, Interval]] = {}
    lo_q, hi_q = (100 - confidence) / 2, 100 - (100 - confidence) / 2
    idx = bootstrap_indices(n, resamples, seed) if n else None
    for name, by in values.items():
        intervals[name] = {}
        for stat, per_pair in by.items():
            arr = np.array(per_pair, dtype=float)
            if not n or np.isnan(arr).all():
                intervals[name][stat] = Interval(math.nan, math.nan, math.nan)
                continue
            with warnings.catch_warnings():  # a resample of undefined values only has no mean: left out
                warnings.simplefilter("ignore", RuntimeWarning)
                means = np.nanmean(arr[idx], axis=1) if np.isnan(arr).any() else arr[idx].mean(axis=1)
            low, high = np.nanpercentile(means, [lo_q, hi_q])
            intervals[name][stat] = Interval(float(np.nanmean(arr)), float(low), float(high))
    return SourceCorpusResult(tuple(pair_ids), values, intervals, resamples, seed, confidence, search,
                              source_signature(opts, search))


__all__ = ["Abstractiveness", "Fragment", "FRAGMENT_SEARCHES", "NEWSROOM_OPTIONS", "NOVEL_NS", "NovelNgrams",
           "ORIGINS", "PairStatistics", "STATISTICS", "STATISTIC_LABELS", "SourceCorpusResult", "SourceIndex",
           "abstractiveness", "corpus_abstractiveness", "estimate", "novel_ngrams", "pair_statistics", "source_options",
           "source_signature", "word_origins"]
