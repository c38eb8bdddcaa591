"""A drop-in for Google's rouge-score (`rouge_score.rouge_scorer.RougeScorer`), on rouge_core.

    from rouge_core.compat.rouge_score import RougeScorer
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    scorer.score(target, prediction)["rougeL"].fmeasure
    scorer.score_multi(targets, prediction)

Same numbers (bit for bit: the tests compare floats with ==), same return shape: a dict
{rouge type: Score(precision, recall, fmeasure)}, where `Score` is a namedtuple with the
fields of `rouge_score.scoring.Score`, in the same order, so it unpacks, indexes and
compares equal to rouge-score's own. Same rouge types (rouge1..rouge9, rougeL, rougeLsum)
and the same errors for others ("Invalid rouge type: ...", "rougen requires positive n:
...", raised by `score`, as rouge-score does).

- `use_stemmer`: NLTK's Porter stemmer on tokens longer than 3 characters, as rouge-score.
- `tokenizer`: any object with `.tokenize(text) -> list of tokens` is honoured exactly as
  rouge-score honours it (its tokens are compared as given; `use_stemmer` is then up to it).
- `split_summaries=True` splits rougeLsum texts into sentences with `nltk.sent_tokenize`
  when NLTK's punkt data is installed (as rouge-score does). Without punkt data rouge-score
  itself raises LookupError; this drop-in falls back to rouge_core's punctuation splitter
  (a break after ., !, ? and CJK stops followed by white space, and at every newline), so
  numbers can differ from rouge-score's on texts where punkt would split differently
  (abbreviations such as "Dr. Smith"). `uses_punkt()` says which splitter is in use.
- `score_multi` keeps, for each type, the target with the highest F (the first on ties),
  as rouge-score does; `score_multi([], ...)` raises ValueError, as rouge-score does.

Beyond rouge-score: `RougeScorer.explain(target, prediction)` returns the rouge_core
`Result` (evidence and signature) behind the numbers.
"""

from __future__ import annotations

import re
from collections import namedtuple
from typing import Sequence

from ..tokenize import tokenize as _tokenize
from ..options import Options, profile
from ..scoring import Result, score_documents
from ..document import Document, pretokenized
from ..sentences import split_sentences

__all__ = ["RougeScorer", "Score", "uses_punkt"]

# Same name, fields and order as rouge_score.scoring.Score.
Score = namedtuple("Score", ["precision", "recall", "fmeasure"])

_NGRAM_TYPE = re.compile(r"rouge[0-9]$")


def uses_punkt() -> bool:
    """True when NLTK's punkt data is installed, so `split_summaries=True` uses nltk.sent_tokenize."""
    try:
        import nltk

        try:
            nltk.data.find("tokenizers/punkt_tab")
        except LookupError:
            nltk.data.find("tokenizers/punkt")
        return True
    except (ImportError, LookupError):
        return False


def _split_into_sentences(text: str) -> list[str]:
    if uses_punkt():
        import nltk

        try:
            return list(nltk.sent_tokenize(text))
        except LookupError:  # punkt present but not the variant this NLTK wants
            pass
    return [text[a:b] for a, b in split_sentences(text, "punctuation")]


def _method_for(rouge_type: str) -> str:
    if rouge_type in ("rougeL", "rougeLsum"):
        return rouge_type
    if _NGRAM_TYPE.match(str(rouge_type)):
        if int(rouge_type[5:]) <= 0:
            raise ValueError("rougen requires positive n: %s" % rouge_type)
        return rouge_type
    raise ValueError("Invalid rouge type: %s" % rouge_type)


def _as_terms(tokens) -> list[str]:
    return [t if isinstance(t, str) else str(t) for t in tokens]


class RougeScorer:
    """rouge-score's RougeScorer, computed by rouge_core (profile "rouge-score")."""

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False, split_summaries: bool = False, tokenizer=None):
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer
        self._split_summaries = split_summaries
        self._options: Options = profile("rouge-score", stemmer="porter" if use_stemmer else "none")

    @property
    def options(self) -> Options:
        return self._options

    # -- documents ----------------------------------------------------------------------

    def _flat(self, text: str) -> Document:
        """The tokens of the whole text (rougeN, rougeL)."""
        if self._tokenizer is not None:
            return pretokenized(_as_terms(self._tokenizer.tokenize(text)))
        return self._default(text, "none")

    def _default(self, text: str, split: str) -> Document:
        o = self._options
        return _tokenize(text, tokenizer=o.tokenizer, lowercase=o.lowercase, stemmer=o.stemmer,
                             stopwords=o.stopwords, sentence_split=split, data_dir=o.data_dir)

    def _sentences(self, text: str) -> Document:
        """One sentence per line (or per nltk/punctuation sentence), empty ones dropped (rougeLsum)."""
        if self._tokenizer is None and not self._split_summaries:
            return self._default(text, "newline")
        sentences = _split_into_sentences(text) if self._split_summaries else str(text).split("\n")
        sentences = [s for s in sentences if len(s)]
        if self._tokenizer is not None:
            return pretokenized([_as_terms(self._tokenizer.tokenize(s)) for s in sentences])
        docs = [self._default(s, "none") for s in sentences]
        return pretokenized([d.terms for d in docs])

    # -- scoring --------------------------------------------------------------------------

    def _results(self, target: str, prediction: str, evidence: bool) -> dict[str, Result]:
        methods = [_method_for(t) for t in self.rouge_types]
        flat = [m for m in methods if m != "rougeLsum"]
        summary = [m for m in methods if m == "rougeLsum"]
        out: dict[str, Result] = {}
        if self._tokenizer is None and not self._split_summaries:
            # One tokenization serves every type: the newline-split document's tokens are the
            # whole text's tokens (a newline separates tokens either way).
            ref, cand = self._default(target, "newline"), self._default(prediction, "newline")
            result = score_documents(cand, [ref], methods, self._options, evidence=evidence)
            return {m: result for m in methods}
        if flat:
            result = score_documents(self._flat(prediction), [self._flat(target)], flat, self._options, evidence=evidence)
            out.update({m: result for m in flat})
        if summary:
            result = score_documents(self._sentences(prediction), [self._sentences(target)], summary, self._options, evidence=evidence)
            out["rougeLsum"] = result
        return out

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of `prediction` against one `target`: {rouge type: Score}."""
        results = self._results(target, prediction, evidence=False)
        out = {}
        for rouge_type in self.rouge_types:
            s = results[rouge_type][rouge_type].score
            out[rouge_type] = Score(s.precision, s.recall, s.fmeasure)
        return out

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, Score]:
        """For each type, the score against the target with the highest F (the first on ties)."""
        score_dicts = [self.score(t, prediction) for t in targets]
        if not score_dicts:
            raise ValueError("attempt to get argmax of an empty sequence")
        best = {}
        for k in self.rouge_types:
            values = [s[k].fmeasure for s in score_dicts]
            index = max(range(len(values)), key=lambda i: (values[i], -i))
            best[k] = score_dicts[index][k]
        return best

    def explain(self, target: str, prediction: str) -> dict[str, Result]:
        """The rouge_core Result (with evidence and signature) behind each type's score."""
        return self._results(target, prediction, evidence=True)
