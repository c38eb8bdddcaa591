"""The ROUGE helpers of the Go `reval` package, on token lists, computed by rouge_core.

Source: github.com/itsubaki/reval (rouge.go; ROUGELsum added in commit 8198ce7, "Add
ROUGELsum"), read, not copied, with its documented examples (kept as seeds in
shared/conformance):

- "the cat is sitting on the mat" vs "the cat sat on the mat": rouge1 and rougel
  P / R / F = 0.7143 / 0.8333 / 0.7692.
- candidate sentences ["the cat is on the mat", "it is cute"] vs reference sentences
  ["the dog is on the mat", "the animal is cute", "the pet sleeps well"]: rougelsum
  P / R / F = 0.7778 / 0.5 / 0.6087 (each candidate sentence takes the reference sentence
  with the longest LCS; 7 hits over 9 candidate and 14 reference tokens).
- [a b c] vs [c b a]: rouge1 F = 1, rougel F = 1/3.

A named quirk, reproduced under the "reval" profile only (Options.best_sentence_clip=False):
reval's ROUGELsum adds each candidate sentence's best LCS length as it is, so a reference
sentence that is the best match of several candidate sentences counts each time and recall
can exceed 1 (candidate [["a"], ["a"]] against [["a"]]: R = 2). Other profiles clip
rougeLsum-best's hits by token counts.

Tokens are compared exactly as given (no lower-casing, no stemming). Names follow Go's
lower-case helpers: `overlap`, `lcs`, `f1`, `fbeta`, `rougen`, `rouge1`, `rougel`,
`rougelsum`. The scores come from rouge_core's methods rouge<n>, rougeL and rougeLsum-best
under the "reval" profile. Empty inputs give 0, never NaN (Go would not return NaN from a
guarded division): precision 0 for an empty candidate, recall 0 for an empty reference.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple, Sequence

from ..errors import excerpt
from ..families.lcs import lcs_length
from ..families.methods import method_name
from ..text.options import profile
from ..scorer.scoring import score_documents
from ..text.document import pretokenized

__all__ = ["RougeScore", "f1", "fbeta", "lcs", "overlap", "rouge1", "rougel", "rougelsum", "rougen"]


class RougeScore(NamedTuple):
    precision: float
    recall: float
    f1: float


_OPTIONS = profile("reval")


def _tokens(tokens: Sequence[str], name: str) -> list[str]:
    if isinstance(tokens, str):
        raise TypeError(f"{name} must be a list of tokens, not a string (split it first)")
    out = list(tokens)
    if not all(isinstance(t, str) for t in out):
        raise TypeError(f"{name} must be a list of string tokens")
    return out


def _sentences(sentences: Sequence[Sequence[str]], name: str) -> list[list[str]]:
    if isinstance(sentences, str):
        raise TypeError(f"{name} must be a list of sentences (lists of tokens), not a string")
    return [_tokens(s, f"{name} sentence") for s in sentences]


def overlap(candidate: Sequence[str], reference: Sequence[str]) -> int:
    """Clipped unigram overlap: Σ over tokens of min(count in candidate, count in reference)."""
    c, r = Counter(_tokens(candidate, "candidate")), Counter(_tokens(reference, "reference"))
    return sum(min(n, r[t]) for t, n in c.items() if t in r)


def lcs(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two token lists."""
    return lcs_length(_tokens(a, "a"), _tokens(b, "b"))


def fbeta(precision: float, recall: float, beta: float) -> float:
    """F_β = (1 + β²)·P·R / (β²·P + R); 0 when the denominator is 0."""
    b2 = beta * beta
    denominator = b2 * precision + recall
    return (1 + b2) * precision * recall / denominator if denominator > 0 else 0.0


def f1(precision: float, recall: float) -> float:
    """The harmonic mean 2·P·R / (P + R); 0 when P + R = 0."""
    total = precision + recall
    return 2 * precision * recall / total if total > 0 else 0.0


def _score(method: str, cand, ref) -> RougeScore:
    result = score_documents(cand, [ref], [method], _OPTIONS, evidence=False)
    s = result[method].score
    return RougeScore(s.precision, s.recall, s.fmeasure)


def rougen(candidate: Sequence[str], reference: Sequence[str], n: int) -> RougeScore:
    """ROUGE-N: clipped n-gram overlap over candidate and reference n-gram counts."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n must be a positive integer, got {excerpt(n)}")
    cand = pretokenized(_tokens(candidate, "candidate"))
    ref = pretokenized(_tokens(reference, "reference"))
    return _score(method_name("N", n), cand, ref)


def rouge1(candidate: Sequence[str], reference: Sequence[str]) -> RougeScore:
    return rougen(candidate, reference, 1)


def rougel(candidate: Sequence[str], reference: Sequence[str]) -> RougeScore:
    """ROUGE-L over whole token lists: LCS / |candidate|, LCS / |reference|."""
    cand = pretokenized(_tokens(candidate, "candidate"))
    ref = pretokenized(_tokens(reference, "reference"))
    return _score("rougeL", cand, ref)


def rougelsum(candidate: Sequence[Sequence[str]], reference: Sequence[Sequence[str]]) -> RougeScore:
    """Summary-level ROUGE-L on sentences: each candidate sentence adds the LCS with its best
    reference sentence (the first on ties); divided by all candidate / reference tokens."""
    cand = pretokenized(_sentences(candidate, "candidate"))
    ref = pretokenized(_sentences(reference, "reference"))
    return _score("rougeLsum-best", cand, ref)
