"""What one system gets that another misses, in the spirit of compare-mt (Neubig et al. 2019).

- `ngram_differences`: the reference n-grams (n = 1..4) each system matches, counted over the
  corpus as compare-mt's n-gram analysis counts them (an output n-gram matches while the
  reference still has an unused copy of it: ROUGE-N's clipped count; several references: the
  most copies any one of them has, as BLEU clips), with compare-mt's smoothed salience
  (m_A + α) / (m_A + m_B + 2α) and a paired test per n-gram: the exact two-sided sign test over
  the documents where one system matched it more often than the other (scipy.stats.binomtest
  with p = 1/2 gives the same p-values), Holm-adjusted over every n-gram tested.
- `bucket_*`: scores in buckets, per system, with percentile intervals from resampling the
  documents (rouge_core.corpora.corpus.bootstrap_indices: every system and bucket sees the same draws):
  a ROUGE F by reference length and by candidate length (mean over the pairs of the bucket);
  compare-mt's word F-measure by word frequency (a reference word's bucket is its frequency in
  the references of the corpus, compare-mt's default; a matched output word takes its
  reference word's bucket, an unmatched one its own; cut-offs 1, 2, 3, 4, 5, 10, 100, 1000); the
  recall of each reference sentence by its position (1st, 2nd, ...: how well the systems cover
  what a reference says first).
- `length_statistics`: the candidate / reference length ratio per pair (mean reference length),
  its distribution per system: ROUGE recall rewards length.

Tokens are those of ROUGE under the given Options (`tokenize_corpus`, once per corpus).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Callable, Mapping, Sequence

from ..families.ngram import ngram_counts
from ..text.options import Options

NGRAM_NS = (1, 2, 3, 4)
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)  # compare-mt's FreqWordBucketer defaults
SALIENCE_ALPHA = 1.0  # compare-mt's default smoothing
MAX_POSITION = 5  # sentence positions 1..4, then "5+"
LENGTH_BUCKETS = 5


# --- tokens, once per corpus ----------------------------------------------------------------------

@dataclass(frozen=True)
class TokenizedCorpus:
    """A corpus's terms: per pair its references (each a tuple of sentences of terms) and, per
    system, its candidates' terms."""

    ids: tuple[str, ...]
    references: tuple[tuple[tuple[tuple[str, ...], ...], ...], ...]
    systems: dict[str, tuple[tuple[str, ...], ...]]
    options: Options

    def __len__(self) -> int:
        return len(self.ids)

    def reference_terms(self, pair: int) -> tuple[tuple[str, ...], ...]:
        return self.flat_references[pair]

    @cached_property
    def flat_references(self) -> tuple[tuple[tuple[str, ...], ...], ...]:
        """Per pair, each reference's terms in one tuple (its sentences joined)."""
        return tuple(tuple(tuple(t for sentence in ref for t in sentence) for ref in refs) for refs in self.references)

    @cached_property
    def reference_lengths(self) -> tuple[float, ...]:
        """Per pair, the mean length of its references in tokens (0 without references)."""
        return tuple(sum(len(r) for r in refs) / len(refs) if refs else 0.0 for refs in self.flat_references)


def tokenize_corpus(systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]], options: Options,
                    ids: Sequence[str] | None = None,
                    progress: Callable[[int, int], None] | None = None) -> TokenizedCorpus:
    """Tokenize every text once, as ROUGE does under `options`."""
    from ..scorer.scoring import prepare

    n = len(references)
    for name, candidates in systems.items():
        if len(candidates) != n:
            raise ValueError(f"system {name!r} has {len(candidates)} candidates for {n} pairs")
    refs = []
    for i, texts in enumerate(references):
        per_ref = []
        for text in texts:
            doc = prepare(text, options, "reference")
            terms = doc.term_tuple
            per_ref.append(tuple(terms[a:b] for a, b in doc.sentence_bounds))
        refs.append(tuple(per_ref))
        if progress is not None and (i + 1) % 500 == 0:
            progress(i + 1, n * (1 + len(systems)))
    out = {}
    for k, (name, candidates) in enumerate(systems.items(), 1):
        out[name] = tuple(prepare(c, options, "candidate").term_tuple for c in candidates)
        if progress is not None:
            progress(n * (1 + k), n * (1 + len(systems)))
    pair_ids = tuple(str(x) for x in ids) if ids is not None else tuple(str(i + 1) for i in range(n))
    return TokenizedCorpus(pair_ids, tuple(refs), out, options)


# --- n-grams one system matches and the other misses -------------------------------------------------

@lru_cache(maxsize=4096)
def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided sign test of `wins` against `losses` (ties left out): the probability,
    under p = 1/2, of a split at least as uneven. scipy.stats.binomtest(wins, wins + losses)
    gives the same value."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    if 2 * k == n:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n  # exact integers, one correctly rounded division
    return min(1.0, 2.0 * tail)


def _clip_counts(refs: Sequence[tuple[str, ...]], n: int) -> Counter:
    """The reference n-grams with the most copies any one reference has (BLEU's clipping)."""
    if len(refs) == 1:
        return ngram_counts(refs[0], n)
    clip: Counter = Counter()
    for ref in refs:
        for gram, count in ngram_counts(ref, n).items():
            if count > clip[gram]:
                clip[gram] = count
    return clip


def _matches(corpus: TokenizedCorpus, systems: Sequence[str], ns: Sequence[int]):
    """Per system, its matches as three parallel lists: n-gram (words joined by a space), pair
    index, clipped count. The references' counts are built once for every system."""
    out = {s: ([], [], []) for s in systems}
    candidates = [corpus.systems[s] for s in systems]
    for i in range(len(corpus)):
        refs = corpus.reference_terms(i)
        for n in ns:
            clip = _clip_counts(refs, n)
            if not clip:
                continue
            get = clip.get
            for system, texts in zip(systems, candidates):
                grams, pairs, counts = out[system]
                for gram, count in ngram_counts(texts[i], n).items():
                    limit = get(gram)
                    if limit:
                        grams.append(gram if n == 1 else " ".join(gram))
                        pairs.append(i)
                        counts.append(count if count < limit else limit)
    return out


def matched_ngrams(corpus: TokenizedCorpus, system: str, ns: Sequence[int] = NGRAM_NS) -> dict[tuple[str, ...], dict[int, int]]:
    """Per reference n-gram the system matches: {pair index: matched count} (clipped by the
    reference with the most copies of it)."""
    out: dict[tuple[str, ...], dict[int, int]] = {}
    grams, pairs, counts = _matches(corpus, [system], ns)[system]
    for gram, i, count in zip(grams, pairs, counts):
        out.setdefault(tuple(gram.split(" ")), {})[i] = count
    return out


def holm_array(p_values):
    """`significance.holm` on a NumPy array (the same values, for millions of p-values)."""
    import numpy as np

    p = np.asarray(p_values, dtype=float)
    m = len(p)
    if not m:
        return p
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


@dataclass(frozen=True)
class NgramDifferences:
    """Every reference n-gram matched by A or B over the corpus (`frame()`), the per-pair
    differences behind them (`example_pairs`)."""

    system_a: str
    system_b: str
    table: object  # DataFrame: one row per n-gram (see `frame`)
    per_pair: object  # DataFrame: ngram, pair, difference (matched by A − by B), nonzero only
    pairs: int
    signature: str

    @property
    def rows(self) -> tuple[dict, ...]:
        return tuple(self.table.to_dict("records"))

    def frame(self):
        """One row per n-gram: n, ngram, matched_a, matched_b, difference, salience (compare-mt),
        pairs_a (documents where A matched it more often), pairs_b, p_value (sign test),
        adjusted_p (Holm over every n-gram)."""
        return self.table

    @cached_property
    def _ranked(self):
        """Per side, its n-grams the most reliable first (smallest p, then the largest
        difference, then the n-gram): sorted once, so listing is a filter and a head."""
        out = {}
        for name, sign in ((self.system_a, 1), (self.system_b, -1)):
            chosen = self.table[self.table["difference"] * sign > 0]
            chosen = chosen.assign(_size=chosen["difference"].abs())
            out[name] = chosen.sort_values(["p_value", "_size", "ngram"], ascending=[True, False, True],
                                           kind="stable").drop(columns="_size")
        return out

    def top(self, favouring: str, limit: int = 20, n: int | None = None):
        """The n-grams that `favouring` (system A's or B's name) matches more often, the most
        reliable first (smallest p-value, then the largest difference, then the n-gram)."""
        ranked = self._ranked[favouring]
        if n is not None:
            ranked = ranked[ranked["n"] == n]
        return ranked.head(limit).reset_index(drop=True)

    def example_pairs(self, gram: tuple[str, ...] | str, favouring: str) -> tuple[int, ...]:
        """The pairs (indices) where `favouring` matched `gram` more often than the other system
        (`per_pair` is sorted by n-gram: a binary search finds its rows)."""
        import numpy as np

        key = " ".join(gram) if not isinstance(gram, str) else gram
        grams = self.per_pair["ngram"].to_numpy()
        low, high = np.searchsorted(grams, key, "left"), np.searchsorted(grams, key, "right")
        part = self.per_pair.iloc[low:high]
        sign = 1 if favouring == self.system_a else -1
        return tuple(sorted(int(i) for i in part.loc[part["difference"] * sign > 0, "pair"]))


def ngram_differences(corpus: TokenizedCorpus, system_a: str, system_b: str, *, ns: Sequence[int] = NGRAM_NS,
                      alpha: float = SALIENCE_ALPHA, signature: str = "") -> NgramDifferences:
    """Every reference n-gram matched by A or B, with the counts, compare-mt's salience, the
    sign test per n-gram and its Holm adjustment."""
    import numpy as np

    from .. import optional

    pd = optional.pandas("ngram_differences")
    if system_a == system_b:
        raise ValueError("choose two different systems")
    for name in (system_a, system_b):
        if name not in corpus.systems:
            raise ValueError(f"unknown system {name!r}; the corpus has {', '.join(corpus.systems)}")
    found = _matches(corpus, [system_a, system_b], ns)
    frames = [pd.DataFrame({"ngram": g, "pair": np.asarray(p, dtype=np.int64), "a": np.asarray(c, dtype=np.int64) * k})
              for (g, p, c), k in ((found[system_a], 1), (found[system_b], -1))]
    both = pd.concat(frames, ignore_index=True)
    both["matched_a"] = both["a"].clip(lower=0)
    both["matched_b"] = (-both["a"]).clip(lower=0)
    per_pair = both.groupby(["ngram", "pair"], sort=False, as_index=False)[["a"]].sum().rename(
        columns={"a": "difference"})
    per_pair = per_pair[per_pair["difference"] != 0].sort_values(["ngram", "pair"], kind="stable").reset_index(
        drop=True)
    sums = both.groupby("ngram", sort=False)[["matched_a", "matched_b"]].sum()
    wins = per_pair.assign(won_a=per_pair["difference"] > 0, won_b=per_pair["difference"] < 0).groupby(
        "ngram", sort=False)[["won_a", "won_b"]].sum()
    table = sums.join(wins, how="left").fillna(0).astype(np.int64).reset_index()
    table = table.rename(columns={"won_a": "pairs_a", "won_b": "pairs_b"})
    table.insert(0, "n", table["ngram"].str.count(" ") + 1)
    table.insert(4, "difference", table["matched_a"] - table["matched_b"])
    table.insert(5, "salience", (table["matched_a"] + alpha) / (table["matched_a"] + table["matched_b"] + 2 * alpha))
    keys = list(zip(table["pairs_a"].tolist(), table["pairs_b"].tolist()))
    table["p_value"] = [sign_test(w, l) for w, l in keys]
    table["adjusted_p"] = holm_array(table["p_value"].to_numpy())
    table = table.sort_values(["n", "ngram"], kind="stable").reset_index(drop=True)
    result = NgramDifferences(system_a, system_b, table, per_pair, len(corpus), signature)
    result._ranked  # ranked once here, so that every listing afterwards is a filter and a head
    return result


# --- buckets with intervals ------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def _resample_weights(n: int, resamples: int, seed: int):
    """How often each pair is drawn in each resample of rouge_core.corpora.corpus.bootstrap_indices (the
    same draws for the same seed): a resamples × n matrix (float32: counts up to n are exact)."""
    import numpy as np

    from ..corpora.corpus import bootstrap_indices

    idx = bootstrap_indices(n, resamples, seed)
    weights = np.empty((resamples, n), dtype=np.float32)
    for r in range(resamples):
        weights[r] = np.bincount(idx[r], minlength=n)
    weights.setflags(write=False)
    return weights


def resampled_sums(per_pair, resamples: int, seed: int):
    """Per resample of the pairs (rouge_core.corpora.corpus.bootstrap_indices, the same draws for the same
    seed), the column sums of `per_pair` (pairs × columns): a resamples × columns array."""
    import numpy as np

    values = np.asarray(per_pair, dtype=float)
    return _resample_weights(values.shape[0], resamples, seed).astype(float) @ values


def _interval(samples, confidence: float) -> tuple[float, float]:
    import numpy as np

    kept = samples[~np.isnan(samples)]
    if not len(kept):
        return math.nan, math.nan
    tail = (100 - confidence) / 2
    low, high = np.percentile(kept, [tail, 100 - tail])
    return float(low), float(high)


def _ratio(num, den):
    import numpy as np

    with np.errstate(all="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def bucket_label(edges: Sequence[int], k: int) -> str:
    """compare-mt's bucket names: "<a", "a" for a one-value bucket, "[a,b)", ">=z"."""
    if k == 0:
        return f"<{edges[0]}"
    if k == len(edges):
        return f">={edges[-1]}"
    low, high = edges[k - 1], edges[k]
    return str(low) if high - low == 1 else f"[{low},{high})"


def bucket_of(value: float, edges: Sequence[int]) -> int:
    for k, edge in enumerate(edges):
        if value < edge:
            return k
    return len(edges)


def length_edges(lengths: Sequence[int], buckets: int = LENGTH_BUCKETS) -> tuple[int, ...]:
    """Cut-offs splitting `lengths` into about `buckets` groups of similar size (quantiles,
    as integers, each used once)."""
    import numpy as np

    if not len(lengths):
        return ()
    qs = np.quantile(np.asarray(lengths, dtype=float), [k / buckets for k in range(1, buckets)])
    edges = sorted({int(math.ceil(q)) for q in qs if math.ceil(q) > min(lengths)})
    return tuple(e for e in edges if e <= max(lengths))


@dataclass(frozen=True)
class Buckets:
    """Per system and bucket: the value with its interval. `frame()` is one row each."""

    title: str
    measure: str
    rows: tuple[dict, ...]
    resamples: int
    seed: int
    confidence: float
    signature: str

    def frame(self):
        from .. import optional

        pd = optional.pandas("Buckets.frame()")
        return pd.DataFrame(list(self.rows))


def _bucket_rows(per_system: Mapping[str, tuple], labels: Sequence[str], resamples: int, seed: int,
                 confidence: float, extra: Callable[[str, int], dict] | None = None) -> list[dict]:
    """Rows from per-system (numerators, denominators, counts) arrays of pairs × buckets: value
    = Σ num / Σ den per bucket, interval from the resampled sums."""
    import numpy as np

    rows = []
    for system, (num, den, count) in per_system.items():
        both = np.concatenate([num, den], axis=1)
        sums = resampled_sums(both, resamples, seed)
        k = num.shape[1]
        samples = _ratio(sums[:, :k], sums[:, k:])
        observed = _ratio(num.sum(axis=0), den.sum(axis=0))
        for b, label in enumerate(labels):
            low, high = _interval(samples[:, b], confidence)
            row = {"system": system, "bucket": label, "order": b, "value": float(observed[b]), "low": low,
                   "high": high, "count": int(count[:, b].sum())}
            if extra is not None:
                row.update(extra(system, b))
            rows.append(row)
    return rows


def bucket_by_length(corpus: TokenizedCorpus, scores: Mapping[str, Sequence[float]], side: str, *,
                     resamples: int = 1000, seed: int = 0, confidence: float = 95, signature: str = "",
                     measure: str = "F") -> Buckets:
    """The mean of each system's per-pair `scores` over the pairs in each length bucket: `side`
    "reference" (mean reference length in tokens: the same buckets for every system) or
    "candidate" (each system's own candidates; the cut-offs from all systems' lengths)."""
    import numpy as np

    if side not in ("reference", "candidate"):
        raise ValueError("side must be 'reference' or 'candidate'")
    n = len(corpus)
    ref_lengths = list(corpus.reference_lengths)
    lengths = {s: ref_lengths if side == "reference" else [len(c) for c in corpus.systems[s]] for s in scores}
    pooled = [v for s in lengths for v in lengths[s]] if side == "candidate" else ref_lengths
    edges = length_edges(pooled)
    labels = [bucket_label(edges, k) for k in range(len(edges) + 1)] if edges else ["all"]
    per_system = {}
    for system, values in scores.items():
        k = len(labels)
        num, den = np.zeros((n, k)), np.zeros((n, k))
        for i, (value, length) in enumerate(zip(values, lengths[system])):
            if value == value:  # NaN scores are left out, as the macro average does
                b = bucket_of(length, edges)
                num[i, b], den[i, b] = value, 1.0
        per_system[system] = (num, den, den)
    rows = _bucket_rows(per_system, labels, resamples, seed, confidence)
    what = "reference length" if side == "reference" else "candidate length"
    return Buckets(f"{measure} by {what} (tokens)", measure, tuple(rows), resamples, seed, confidence, signature)


def word_frequencies(corpus: TokenizedCorpus) -> Counter:
    """compare-mt's default frequency corpus: the words of the references."""
    counts: Counter = Counter()
    for i in range(len(corpus)):
        for ref in corpus.reference_terms(i):
            counts.update(ref)
    return counts


def bucket_by_frequency(corpus: TokenizedCorpus, systems: Sequence[str] | None = None, *,
                        frequencies: Mapping[str, int] | None = None, cutoffs: Sequence[int] = FREQUENCY_CUTOFFS,
                        resamples: int = 1000, seed: int = 0, confidence: float = 95, signature: str = "") -> Buckets:
    """compare-mt's word F-measure by frequency bucket (bucketers.FreqWordBucketer with its
    matching: each output word matches the next unused copy of it in the reference). Several
    references: each reference is matched and counted on its own (its words and the output's)."""
    import numpy as np

    freq = frequencies if frequencies is not None else word_frequencies(corpus)
    labels = [bucket_label(list(cutoffs), k) for k in range(len(cutoffs) + 1)]
    k = len(labels)
    n = len(corpus)
    chosen = list(systems) if systems is not None else list(corpus.systems)
    per_system = {}
    recalls = {}
    bucket_cache: dict[str, int] = {}

    def bucket(word: str) -> int:
        b = bucket_cache.get(word)
        if b is None:
            b = bucket_cache[word] = bucket_of(freq.get(word, 0), cutoffs)
        return b

    for system in chosen:
        matches, ref_total, out_total = np.zeros((n, k)), np.zeros((n, k)), np.zeros((n, k))
        for i, candidate in enumerate(corpus.systems[system]):
            m_row, r_row, o_row = [0] * k, [0] * k, [0] * k
            cand_counts = Counter(candidate)
            for ref in corpus.reference_terms(i):
                ref_counts = Counter(ref)
                for word, count in ref_counts.items():
                    r_row[bucket(word)] += count
                for word, count in cand_counts.items():
                    b = bucket(word)  # a match's reference word is this same word, in the same bucket
                    o_row[b] += count
                    m_row[b] += min(count, ref_counts.get(word, 0))
            matches[i], ref_total[i], out_total[i] = m_row, r_row, o_row
        # F = 2 m / (r + o): recall m / r and precision m / o combined
        per_system[system] = (2 * matches, ref_total + out_total, ref_total)
        recalls[system] = (matches, ref_total, out_total)
    rows = _bucket_rows(per_system, labels, resamples, seed, confidence,
                        extra=lambda s, b: {"recall": _safe(recalls[s][0][:, b].sum(), recalls[s][1][:, b].sum()),
                                            "precision": _safe(recalls[s][0][:, b].sum(), recalls[s][2][:, b].sum())})
    for row in rows:
        row["count"] = int(row["count"])  # reference words in the bucket
    return Buckets("Word F-measure by frequency in the references", "word F", tuple(rows), resamples, seed,
                   confidence, signature)


def _safe(num: float, den: float) -> float:
    return float(num / den) if den else math.nan


def bucket_by_sentence_position(corpus: TokenizedCorpus, systems: Sequence[str] | None = None, *,
                                resamples: int = 1000, seed: int = 0, confidence: float = 95,
                                signature: str = "") -> Buckets:
    """Recall of the reference sentences by their position (1, 2, 3, 4, 5+): per reference
    sentence, its words the candidate has (each candidate word used once per sentence, as
    ROUGE-1 clips), over the sentence's words."""
    import numpy as np

    labels = [str(p) for p in range(1, MAX_POSITION)] + [f"{MAX_POSITION}+"]
    k = len(labels)
    n = len(corpus)
    chosen = list(systems) if systems is not None else list(corpus.systems)
    per_system = {}
    for system in chosen:
        hits, total = np.zeros((n, k)), np.zeros((n, k))
        for i, candidate in enumerate(corpus.systems[system]):
            have = Counter(candidate)
            for ref in corpus.references[i]:
                for position, sentence in enumerate(ref):
                    if not sentence:
                        continue
                    b = min(position, k - 1)
                    need = Counter(sentence)
                    hits[i, b] += sum(min(c, have[w]) for w, c in need.items())
                    total[i, b] += len(sentence)
        per_system[system] = (hits, total, total)
    rows = _bucket_rows(per_system, labels, resamples, seed, confidence)
    return Buckets("Recall of the reference sentences by position", "recall", tuple(rows), resamples, seed,
                   confidence, signature)


# --- length ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LengthStatistics:
    ratios: dict[str, tuple[float, ...]]  # system -> candidate / mean reference length, per pair (NaN: empty refs)
    rows: tuple[dict, ...]
    signature: str

    def frame(self):
        from .. import optional

        return optional.pandas("LengthStatistics.frame()").DataFrame(list(self.rows))

    def pairs_frame(self):
        from .. import optional

        pd = optional.pandas("LengthStatistics.pairs_frame()")
        return pd.DataFrame([{"system": s, "ratio": r} for s, values in self.ratios.items() for r in values
                             if r == r])


def length_statistics(corpus: TokenizedCorpus, *, resamples: int = 1000, seed: int = 0, confidence: float = 95,
                      signature: str = "") -> LengthStatistics:
    """Per system: the mean candidate / reference length ratio with its interval, its median and
    quartiles, the share of candidates longer than their reference, and the mean lengths."""
    import numpy as np

    n = len(corpus)
    ref_lengths = np.array(corpus.reference_lengths, dtype=float)
    ratios, rows = {}, []
    for system, candidates in corpus.systems.items():
        cand = np.array([len(c) for c in candidates], dtype=float)
        ratio = _ratio(cand, ref_lengths)
        ratios[system] = tuple(float(r) for r in ratio)
        defined = ~np.isnan(ratio)
        sums = resampled_sums(np.stack([np.where(defined, ratio, 0.0), defined.astype(float)], axis=1), resamples,
                              seed)
        low, high = _interval(_ratio(sums[:, 0], sums[:, 1]), confidence)
        kept = ratio[defined]
        q1, median, q3 = (np.percentile(kept, [25, 50, 75]) if len(kept) else (math.nan,) * 3)
        rows.append({"system": system, "mean_ratio": float(kept.mean()) if len(kept) else math.nan,
                     "low": low, "high": high, "median_ratio": float(median), "q1": float(q1), "q3": float(q3),
                     "longer_than_reference": float((kept > 1).mean()) if len(kept) else math.nan,
                     "mean_candidate_tokens": float(cand.mean()) if n else math.nan,
                     "mean_reference_tokens": float(ref_lengths.mean()) if n else math.nan, "pairs": int(defined.sum())})
    return LengthStatistics(ratios, tuple(rows), signature)


__all__ = ["Buckets", "FREQUENCY_CUTOFFS", "LengthStatistics", "NGRAM_NS", "NgramDifferences", "TokenizedCorpus",
           "bucket_by_frequency", "bucket_by_length", "bucket_by_sentence_position", "bucket_label", "length_edges",
           "length_statistics", "matched_ngrams", "ngram_differences", "resampled_sums", "sign_test", "tokenize_corpus",
           "word_frequencies"]
