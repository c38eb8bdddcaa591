"""MATLAB's `rougeEvaluationScore` (Text Analytics Toolbox), on rouge_core.

Source: MathWorks, "rougeEvaluationScore — Evaluate translation or summarization with ROUGE
similarity score", https://www.mathworks.com/help/textanalytics/ref/rougeevaluationscore.html
(examples "Evaluate Similarity" and "Specify N-Gram Lengths", name-value argument
RougeMethod, the "ROUGE Score" algorithm section).

    score = rouge_evaluation_score(candidate, references)                         # ROUGE-1
    score = rouge_evaluation_score(candidate, references, ngram_length=2)         # ROUGE-2
    score = rouge_evaluation_score(candidate, references, rouge_method="longest-common-subsequences")

What is reproduced:
- The score of the candidate against each reference separately, and the maximum over the
  references (MATLAB `max`, which omits NaN). The documented examples give the unigram
  recall of the best reference: the fox example 0.8889 (8/9 against the second reference),
  the simple-summary example 1 (ROUGE-1) and 0.5 (ROUGE-2).
- Tokens are compared exactly as given (a tokenizedDocument keeps case and punctuation);
  strings are split on white space.
- RougeMethod names: "n-grams" (NgramLength), "longest-common-subsequences",
  "weighted-longest-common-subsequences" (alias "weighted-subsequences"; f(k) = k^w with
  w = LCSWeightFactor), "skip-bigrams" and "skip-bigrams-and-unigrams" (Lin's ROUGE-SU: a
  start token is prepended, so (start, w) pairs count the unigrams).
- NaN rules: a ratio whose denominator is zero is NaN, not 0 (a reference with fewer than
  NgramLength tokens has no n-grams, so its recall is NaN); the maximum over references
  ignores NaN and is NaN only when every reference gives NaN; a reference that has grams
  but shares none with the candidate gives 0.

What is *not* certain, and why: only the opening of the MathWorks page (syntax, the two
examples and their outputs) could be read from the stored copy available to this project;
the returned quantity for the non-n-gram methods (recall, as for n-grams, by default) and
the exact names/defaults of the LCS weight and skip distance arguments follow Lin (2004)
and the "matlab" profile of rouge_core. `measure=` ("recall", "precision", "fmeasure")
lets callers pick another of the three. `rouge_evaluation_details` returns every number.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Sequence

from ..errors import excerpt
from ..text.options import Options, profile
from ..families.methods import method_name as rouge_method_name
from ..params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT
from ..scorer.scoring import MethodScore, score_documents
from ..text.document import Document, pretokenized

__all__ = ["METHODS", "MatlabRouge", "method_name", "rouge_evaluation_details", "rouge_evaluation_score"]

METHODS = (
    "n-grams",
    "longest-common-subsequences",
    "weighted-longest-common-subsequences",
    "weighted-subsequences",
    "skip-bigrams",
    "skip-bigrams-and-unigrams",
)

MEASURES = ("recall", "precision", "fmeasure")


def method_name(rouge_method: str = "n-grams", ngram_length: int = 1, skip_distance: int | None = 4,
                lcs_weight_factor: float = 1.2) -> str:
    """The rouge_core method name for a MATLAB RougeMethod and its parameters; a ValueError
    (TypeError for a value that is not a number) naming the MATLAB argument otherwise."""
    if not isinstance(rouge_method, str):
        raise TypeError(f"RougeMethod must be a string, not {type(rouge_method).__name__}")
    key = rouge_method.strip().lower()
    if key not in METHODS:
        raise ValueError(f"unknown RougeMethod {excerpt(rouge_method)}; choose one of {', '.join(METHODS)}")
    if key == "n-grams":
        return rouge_method_name("N", _checked('NgramLength', NGRAM_N, ngram_length))
    if key == "longest-common-subsequences":
        return rouge_method_name("L")
    if key in ("weighted-longest-common-subsequences", "weighted-subsequences"):
        return rouge_method_name("W", _checked('LCSWeightFactor', WLCS_WEIGHT, lcs_weight_factor))
    return rouge_method_name("S" if key == "skip-bigrams" else "SU", _skip_distance(skip_distance))


def _checked(argument: str, parameter, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{argument} must be {parameter.describe()}, not {type(value).__name__} {excerpt(value)}")
    try:
        return parameter.check(value)
    except ValueError as exc:
        raise ValueError(f"{argument}: {exc}") from None


def _skip_distance(value) -> int | None:
    """SkipDistance: a non-negative integer, or unlimited (Inf, a negative value, or None)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"SkipDistance must be a non-negative integer or Inf (unlimited), "
                        f"not {type(value).__name__} {excerpt(value)}")
    if math.isnan(value):
        raise ValueError("SkipDistance must be a non-negative integer or Inf (unlimited), got NaN")
    if value < 0 or math.isinf(value):
        return None
    return _checked("SkipDistance", SKIP_DISTANCE, value)


def _document(doc) -> Document:
    """A string (split on white space), a list of tokens, or a list of sentences of tokens."""
    if isinstance(doc, Document):
        return doc
    if isinstance(doc, str):
        return pretokenized(doc.split())
    tokens = getattr(doc, "tokens", None)  # a tokenizedDocument-like object
    if tokens is not None and not isinstance(doc, (list, tuple)):
        return _document(list(tokens))
    if isinstance(doc, (list, tuple)):
        items = list(doc)
        if all(isinstance(t, str) for t in items):
            return pretokenized(items)
        if all(isinstance(s, (list, tuple)) and all(isinstance(t, str) for t in s) for s in items):
            return pretokenized([list(s) for s in items])
    raise TypeError("a document must be a string, a list of tokens or a list of sentences of tokens")


def _references(references) -> list[Document]:
    """One reference (a string) or a collection of references (each a string, token list, or
    list of sentences). A flat list of strings is a list of reference *strings*; pass
    `[tokens]` for one tokenized reference."""
    if isinstance(references, (str, Document)):
        return [_document(references)]
    refs = list(references)
    if not refs:
        raise ValueError("references must hold at least one document")
    return [_document(r) for r in refs]


def _nanmax(values: Sequence[float]) -> float:
    kept = [v for v in values if not math.isnan(v)]
    return max(kept) if kept else math.nan


@dataclass(frozen=True)
class MatlabRouge:
    """Every number behind a rougeEvaluationScore value."""

    method: str  # the rouge_core method
    value: float  # what rouge_evaluation_score returns
    measure: str
    best_reference: int | None  # 0-based; None when every reference gives NaN
    per_reference: tuple[tuple[float, float, float], ...]  # (precision, recall, F) per reference
    detail: MethodScore


def rouge_evaluation_details(candidate, references, rouge_method: str = "n-grams", ngram_length: int = 1,
                             skip_distance: int | None = 4, lcs_weight_factor: float = 1.2,
                             measure: str = "recall", options: Options | None = None) -> MatlabRouge:
    if not isinstance(measure, str) or measure not in MEASURES:
        raise ValueError(f"unknown measure {excerpt(measure)}; choose one of {MEASURES}")
    method = method_name(rouge_method, ngram_length, skip_distance, lcs_weight_factor)
    opts = options or profile("matlab")
    cand = _document(candidate)
    refs = _references(references)
    result = score_documents(cand, refs, [method], opts, evidence=True)
    detail = result[method]
    per_ref = tuple((r.score.precision, r.score.recall, r.score.fmeasure) for r in detail.per_reference)
    column = MEASURES.index(measure)
    picked = [p[[1, 0, 2][column]] for p in per_ref]  # MEASURES order is (recall, precision, F)
    value = _nanmax(picked)
    best = None if math.isnan(value) else picked.index(value)
    return MatlabRouge(method, value, measure, best, per_ref, detail)


def rouge_evaluation_score(candidate, references, rouge_method: str = "n-grams", ngram_length: int = 1,
                           skip_distance: int | None = 4, lcs_weight_factor: float = 1.2,
                           measure: str = "recall") -> float:
    """rougeEvaluationScore(candidate, references, 'RougeMethod', ..., 'NgramLength', ...).

    >>> rouge_evaluation_score("the fast brown fox jumped over the lazy dog",
    ...     ["the quick brown animal jumped over the lazy dog",
    ...      "the quick brown fox jumped over the lazy dog"])  # doctest: +ELLIPSIS
    0.888...
    """
    return rouge_evaluation_details(candidate, references, rouge_method, ngram_length, skip_distance,
                                    lcs_weight_factor, measure).value
