"""Why do ROUGE tools disagree? Computed, not guessed.

Each tool is a profile: a preset of one Options object. To explain the gap between two
profiles, walk from the first profile's Options to the second's one field at a time,
re-score after every change, and attribute each change in score to the field just changed.
For tokenization, case, stopwords and stemming, the words whose tokens change are listed from
the user's own text; for sentence splitting, the sentences each side is cut into.

The attribution depends on the order of the walk (a stemmer acts on the tokenizer's output),
so the order is fixed and shown: text processing first, then how scores are combined.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Sequence

from ..text.document import tokens_by_word
from ..text.options import Options, profile
from ..scorer.scoring import above_one_note, prepare, rescore, score_documents, statistics_key
from ..stats import Score

# The columns of the side-by-side table: each tool as people run it.
VARIANTS: dict[str, Options] = {
    "ROUGE-1.5.5": profile("rouge-1.5.5"),
    "ROUGE-1.5.5 -m": profile("rouge-1.5.5", stemmer="rouge155"),
    "rouge-score": profile("rouge-score"),
    "rouge-score (use_stemmer)": profile("rouge-score", stemmer="porter"),
    "MATLAB": profile("matlab"),
    "reval": profile("reval"),
}

COMPARE_METHODS = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeLsum-best")

# (field, the cause it names), in the order of the walk.
FIELD_CAUSES: tuple[tuple[str, str], ...] = (
    ("tokenizer", "tokenization"),
    ("language", "tokenization (language: word segmentation, case)"),
    ("strip_diacritics", "tokenization (Arabic and Hebrew diacritics)"),
    ("lowercase", "tokenization (case)"),
    ("stopwords", "stopwords"),
    ("stemmer", "stemming"),
    ("sentence_split", "sentence splitting"),
    ("multi_ref", "multi-reference mode"),
    ("alpha", "F weighting (alpha)"),
    ("round_pr", "rounding"),
    ("wlcs_form", "ROUGE-W form"),
    ("su_form", "ROUGE-SU form"),
    ("best_sentence_clip", "rougeLsum-best clipping (reval counts reused reference tokens again)"),
    ("empty", "empty-input rule"),
)
TOKEN_FIELDS = ("tokenizer", "language", "strip_diacritics", "lowercase", "stopwords", "stemmer")
TOLERANCE = 1e-12


@dataclass(frozen=True)
class TokenDiff:
    """One word of the user's text whose tokens differ between two settings."""

    text: str  # "candidate", "reference 1", ...
    surface: str
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True)
class SentenceDiff:
    text: str
    before: tuple[str, ...]  # the sentences, as the user wrote them
    after: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    """One field changed on the walk, and what it did to every method's score."""

    field: str
    cause: str
    before: object
    after: object
    scores_before: dict[str, Score]
    scores_after: dict[str, Score]
    token_diffs: tuple[TokenDiff, ...] = ()
    sentence_diffs: tuple[SentenceDiff, ...] = ()
    notes: tuple[str, ...] = ()

    def delta(self, method: str) -> float:
        return _f_delta(self.scores_before[method], self.scores_after[method])

    @property
    def changed_methods(self) -> list[str]:
        return [m for m in self.scores_before if _differs(self.scores_before[m], self.scores_after[m])]

    @property
    def matters(self) -> bool:
        return bool(self.changed_methods)


@dataclass(frozen=True)
class Attribution:
    start: str
    end: str
    start_scores: dict[str, Score]
    end_scores: dict[str, Score]
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def causes(self) -> list[str]:
        """The causes that changed at least one score, in walk order."""
        return [s.cause for s in self.steps if s.matters]

    def total_delta(self, method: str) -> float:
        return _f_delta(self.start_scores[method], self.end_scores[method])


def _f_delta(a: Score, b: Score) -> float:
    if math.isnan(a.fmeasure) or math.isnan(b.fmeasure):
        return math.nan
    return b.fmeasure - a.fmeasure


def _same(x: float, y: float) -> bool:
    if math.isnan(x) and math.isnan(y):
        return True
    return abs(x - y) <= TOLERANCE


def _differs(a: Score, b: Score) -> bool:
    return not all(_same(x, y) for x, y in zip((a.precision, a.recall, a.fmeasure), (b.precision, b.recall, b.fmeasure)))


def resolve(name_or_options: str | Options) -> Options:
    if isinstance(name_or_options, Options):
        return name_or_options
    if name_or_options in VARIANTS:
        return VARIANTS[name_or_options]
    return profile(name_or_options)


def _shared_per_tokenization(estimate, tok_key, stats_key):
    """`estimate` with its shared parts keyed by what shares them here: the texts' ids and the
    candidate's bit masks are made once per tokenization and kept on its Documents (every set
    of statistics on those Documents shares them), a call's setup once per set of statistics.
    (`total` counts a key once: keyed by name alone, seven tokenizations' masks counted as one,
    a 120 KB pair's comparison estimated at 49 MB held about 220 MB.)"""
    return replace(estimate, shared=tuple((((stats_key if key == "call" else tok_key), key), s, b)
                                          for key, s, b in estimate.shared))


class Comparison:
    """One input compared under many settings: every profile, every step of every walk.

    The walks of several tools pass through the same Options again and again (they all start
    from the baseline), so each text is tokenized once per tokenization setting and each
    Options is scored once; everything the page shows comes from these two caches.
    """

    def __init__(self, candidate: str, references: Sequence[str], methods: Sequence[str] = COMPARE_METHODS,
                 cost_limit=None):
        self.candidate, self.references, self.methods = candidate, list(references), list(methods)
        self.cost_limit = cost_limit  # each tokenizing and scoring checked against it (None: the default bound)
        self._documents: dict[tuple, tuple] = {}
        self._scores: dict[Options, dict[str, Score]] = {}
        self._results: dict[Options, object] = {}
        self._statistics: dict[tuple, object] = {}
        # Token diffs and walks depend on the texts and the options alone: a page that reruns
        # (an expander opened, another baseline) gets them back instead of re-walking every word.
        self._token_diffs: dict[tuple, list[TokenDiff]] = {}
        self._attributions: dict[tuple, Attribution] = {}

    def texts(self) -> list[tuple[str, str]]:
        return _labelled_texts(self.candidate, self.references)

    def documents(self, options: Options) -> tuple:
        """(candidate, *references) tokenized under `options`."""
        key = options.tokenize_key()
        docs = self._documents.get(key)
        if docs is None:
            from ..scorer.cost import UNBOUNDED, Budget

            budget = None if self.cost_limit is UNBOUNDED else Budget(self.cost_limit)
            docs = self._documents[key] = tuple(prepare(text, options, label, budget) for label, text in self.texts())
        return docs

    def result(self, options: Options):
        """The scores under `options`; computed once per set of statistics and rescored for
        fields that only combine them (multi-reference mode, α, rounding, empty rule)."""
        res = self._results.get(options)
        if res is None:
            key = statistics_key(options)
            computed = self._statistics.get(key)
            if computed is None:
                cand, *refs = self.documents(options)
                computed = self._statistics[key] = score_documents(cand, refs, self.methods, options, evidence=False,
                                                                   cost_limit=self.cost_limit)
            res = self._results[options] = rescore(computed, options)
        return res

    def scores(self, options: Options) -> dict[str, Score]:
        out = self._scores.get(options)
        if out is None:
            result = self.result(options)
            out = self._scores[options] = {m: result[m].score for m in self.methods}
        return out

    def above_one(self, variants: dict[str, Options] | None = None) -> list[str]:
        """A note for every tool's score above 1 on this input (a named quirk, see scoring.above_one_note)."""
        return [f"{name}: {note}" for name, opts in (variants or VARIANTS).items()
                for m, score in self.scores(opts).items() if (note := above_one_note(m, score))]

    def side_by_side(self, variants: dict[str, Options] | None = None) -> list[dict]:
        """One row per method, one F column per tool."""
        variants = variants or VARIANTS
        columns = {name: self.scores(opts) for name, opts in variants.items()}
        rows = []
        for m in self.methods:
            row: dict = {"method": m}
            for name in variants:
                row[name] = columns[name][m].fmeasure
            values = [v for v in (row[name] for name in variants) if not math.isnan(v)]
            row["spread"] = (max(values) - min(values)) if values else math.nan
            rows.append(row)
        return rows

    def token_diffs(self, before: Options, after: Options) -> list[TokenDiff]:
        """Words (white-space separated, as typed) whose tokens differ between two settings.

        Tokens keep character offsets, so each token is assigned to the typed word it came
        from; a word is reported once per text even if it occurs several times.
        """
        key = (before.tokenize_key(), after.tokenize_key())
        if key not in self._token_diffs:
            self._token_diffs[key] = self._compute_token_diffs(before, after)
        return list(self._token_diffs[key])

    def _compute_token_diffs(self, before: Options, after: Options) -> list[TokenDiff]:
        out: list[TokenDiff] = []
        for (label, text), doc_before, doc_after in zip(self.texts(), self.documents(before), self.documents(after)):
            words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
            seen: set[str] = set()
            for word, tokens_before, tokens_after in zip(words, tokens_by_word(doc_before.tokens, words),
                                                         tokens_by_word(doc_after.tokens, words)):
                a = tuple(t.term for t in tokens_before)
                b = tuple(t.term for t in tokens_after)
                if a == b:
                    continue
                # Show the word trimmed to what either side tokenized ("better." -> "better").
                spans = [(t.start, t.end) for t in (*tokens_before, *tokens_after)]
                surface = text[min(s for s, _ in spans) : max(e for _, e in spans)] if spans else text[word[0]:word[1]]
                if surface not in seen:
                    seen.add(surface)
                    out.append(TokenDiff(label, surface, a, b))
        return out

    def sentence_diffs(self, before: Options, after: Options) -> list[SentenceDiff]:
        out = []
        for (label, text), doc_before, doc_after in zip(self.texts(), self.documents(before), self.documents(after)):
            a = tuple(text[s:e] for s, e in doc_before.sentence_spans)
            b = tuple(text[s:e] for s, e in doc_after.sentence_spans)
            if a != b:
                out.append(SentenceDiff(label, a, b))
        return out

    def _multi_ref_notes(self, before: Options, after: Options) -> list[str]:
        res_before, res_after = self.result(before), self.result(after)
        return [f"{m}: {before.multi_ref} — {res_before[m].reason}; {after.multi_ref} — {res_after[m].reason}"
                for m in self.methods]

    def attribute(self, start: str | Options, end: str | Options, details: bool = True) -> Attribution:
        """Walk from `start`'s options to `end`'s field by field; one Step per changed field.

        With details=False the steps carry the scores and notes but not the word-by-word token
        and sentence diffs (most of a walk's cost on long texts), enough for its causes."""
        start_opts, end_opts = resolve(start), resolve(end)
        start_name = start if isinstance(start, str) else start_opts.profile
        end_name = end if isinstance(end, str) else end_opts.profile
        key = (start_opts, end_opts, start_name, end_name, details)
        if key not in self._attributions:
            self._attributions[key] = self._walk(start_opts, end_opts, start_name, end_name, details)
        return self._attributions[key]

    def _walk(self, start_opts: Options, end_opts: Options, start_name: str, end_name: str, details: bool) -> Attribution:
        current = start_opts
        current_scores = start_scores = self.scores(current)
        steps = []
        for name, cause in FIELD_CAUSES:
            old, new = getattr(current, name), getattr(end_opts, name)
            if old == new:
                continue
            nxt = current.replace(**{name: new})
            next_scores = self.scores(nxt)
            tokens: list[TokenDiff] = []
            sentences: list[SentenceDiff] = []
            notes: list[str] = []
            if name in TOKEN_FIELDS:
                tokens = self.token_diffs(current, nxt) if details else []
            elif name == "sentence_split":
                sentences = self.sentence_diffs(current, nxt) if details else []
            elif name == "multi_ref" and len(self.references) > 1:
                notes = self._multi_ref_notes(current, nxt)
            elif name == "round_pr":
                notes = _rounding_notes(current_scores, next_scores)
            steps.append(Step(name, cause, old, new, current_scores, next_scores, tuple(tokens), tuple(sentences), tuple(notes)))
            current, current_scores = nxt, next_scores
        # data_dir and the profile label do not change scores; the walk ends at `end`'s numbers.
        return Attribution(start_name, end_name, start_scores, current_scores, tuple(steps))

    def walk_options(self, start: str | Options, end: str | Options) -> list[Options]:
        """Every Options the walk from `start` to `end` scores (as `attribute` walks it)."""
        current, end_opts = resolve(start), resolve(end)
        out = [current]
        for name, _ in FIELD_CAUSES:
            if getattr(current, name) != getattr(end_opts, name):
                current = current.replace(**{name: getattr(end_opts, name)})
                out.append(current)
        return out

    def estimate(self, variants: dict[str, Options] | None = None, baseline: str | Options | None = None):
        """What the side-by-side table of `variants` and the walks from `baseline` to each of them
        cost (rouge_core.scorer.cost): every distinct tokenization of the texts and every distinct set
        of statistics once, as this object computes them, from the texts' shapes (nothing is
        tokenized), less what is computed already, plus loading the libraries it needs that this
        process has not loaded yet (once each)."""
        from ..scorer.cost import estimate_texts, libraries_needed, loading_estimate, text_shape, total

        variants = variants or VARIANTS
        needed = list(variants.values())
        if baseline is not None:
            for other in variants.values():
                needed.extend(self.walk_options(variants.get(baseline, baseline) if isinstance(baseline, str) else
                                                baseline, other))
        parts = []
        tokenized: set = set(self._documents)
        scored: set = set(self._statistics)
        libraries: set = set()
        for options in needed:
            stats_key, tok_key = statistics_key(options), options.tokenize_key()
            if stats_key in scored:
                continue
            scored.add(stats_key)
            docs = self._documents.get(tok_key)
            stages = estimate_texts(self.methods, self.candidate, self.references, options, evidence=False,
                                    documents=(docs[0], docs[1:]) if docs else None, tokenize=False, loading=False)
            for name, estimate in stages.items():
                if name != "tokenizing" or tok_key not in tokenized:
                    parts.append(_shared_per_tokenization(estimate, tok_key, stats_key))
            if tok_key not in tokenized:
                libraries.update(libraries_needed(options, (text_shape(t, options) for t in
                                                            (self.candidate, *self.references))))
            tokenized.add(tok_key)
        first_use = loading_estimate(sorted(libraries))
        return total(parts + ([first_use] if first_use is not None else []), "comparing the tools on these texts")

    def stemmer_diffs(self) -> list[TokenDiff]:
        """Words stemmed differently by ROUGE-1.5.5 -m (WordNet exception lists, then Porter)
        and rouge-score's use_stemmer (NLTK Porter, no exception lists), same tokenizer."""
        porter = profile("rouge-score", stemmer="porter")
        return self.token_diffs(porter, porter.replace(stemmer="rouge155"))

    def lsum_vs_l(self, options: Options) -> dict:
        """rougeL against rougeLsum under `options`, and with punctuation splitting, with the
        sentence counts that make them equal (one sentence per text) or not."""
        out = {}
        for label, opts in (("as set", options), ("punctuation", options.replace(sentence_split="punctuation"))):
            cand, *refs = docs = self.documents(opts)
            result = score_documents(cand, refs, ["rougeL", "rougeLsum"], opts, evidence=False,
                                     cost_limit=self.cost_limit)
            out[label] = {
                "sentence_split": opts.sentence_split,
                "sentences": {name: len(doc.sentence_bounds) for (name, _), doc in zip(self.texts(), docs)},
                "rougeL": result["rougeL"].fmeasure,
                "rougeLsum": result["rougeLsum"].fmeasure,
                "equal": _same(result["rougeL"].fmeasure, result["rougeLsum"].fmeasure),
            }
        return out


def _labelled_texts(candidate: str, references: Sequence[str]) -> list[tuple[str, str]]:
    return [("candidate", candidate), *((f"reference {k}", r) for k, r in enumerate(references, start=1))]


_WORD = re.compile(r"\S+")


def _rounding_notes(scores_before: dict[str, Score], scores_after: dict[str, Score]) -> list[str]:
    notes = []
    for m, a in scores_before.items():
        b = scores_after[m]
        if _differs(a, b):
            notes.append(f"{m}: F {a.fmeasure!r} → {b.fmeasure!r} (P {a.precision!r} → {b.precision!r}, R {a.recall!r} → {b.recall!r})")
    return notes


# One-off forms of the Comparison's questions.

def scores_under(candidate: str, references: Sequence[str], options: Options, methods: Sequence[str]) -> dict[str, Score]:
    return Comparison(candidate, references, methods).scores(options)


def side_by_side(candidate: str, references: Sequence[str], methods: Sequence[str] = COMPARE_METHODS,
                 variants: dict[str, Options] | None = None) -> list[dict]:
    return Comparison(candidate, references, methods).side_by_side(variants)


def token_diffs(candidate: str, references: Sequence[str], before: Options, after: Options) -> list[TokenDiff]:
    return Comparison(candidate, references).token_diffs(before, after)


def sentence_diffs(candidate: str, references: Sequence[str], before: Options, after: Options) -> list[SentenceDiff]:
    return Comparison(candidate, references).sentence_diffs(before, after)


def attribute(candidate: str, references: Sequence[str], start: str | Options, end: str | Options,
              methods: Sequence[str] = COMPARE_METHODS) -> Attribution:
    return Comparison(candidate, references, methods).attribute(start, end)


def stemmer_diffs(candidate: str, references: Sequence[str]) -> list[TokenDiff]:
    return Comparison(candidate, references).stemmer_diffs()


def lsum_vs_l(candidate: str, references: Sequence[str], options: Options) -> dict:
    return Comparison(candidate, references).lsum_vs_l(options)
