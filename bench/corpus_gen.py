"""Seeded synthetic corpora for the benchmark: summary-sized and long (candidate, reference) pairs.

Words follow a Zipf-like law over a fixed vocabulary (so common words repeat, as in real
text); references share about half of their content with the candidate; sentences are
capitalised, punctuated and separated by newlines (rougeLsum's sentence rule).
"""

from __future__ import annotations

import itertools
import random

_SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "vi", "so", "de", "pa", "er", "in", "on", "st", "th", "an"]
_FUNCTION_WORDS = ["the", "a", "of", "to", "and", "in", "is", "was", "for", "on", "that", "with", "as", "by", "it"]


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    words = list(_FUNCTION_WORDS)
    seen = set(words)
    while len(words) < size:
        w = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 4)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


def _sentence(rng: random.Random, vocab: list[str], weights: list[float], length: int) -> list[str]:
    return rng.choices(vocab, cum_weights=weights, k=length)


def _render(sentences: list[list[str]], rng: random.Random) -> str:
    lines = []
    for words in sentences:
        words = list(words)
        words[0] = words[0].capitalize()
        if len(words) > 4 and rng.random() < 0.3:
            words[len(words) // 2] += ","
        lines.append(" ".join(words) + rng.choice([".", ".", ".", "!", "?"]))
    return "\n".join(lines)


def make_pairs(n_pairs: int, sentences: int, tokens: int, seed: int = 0, vocab_size: int = 5000) -> list[tuple[str, str]]:
    """`n_pairs` (candidate, reference) pairs of about `tokens` tokens in `sentences` sentences."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, vocab_size)
    weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(vocab))))  # cumulative
    per_sentence = max(1, tokens // sentences)
    pairs = []
    for _ in range(n_pairs):
        ref_sents = [_sentence(rng, vocab, weights, max(2, per_sentence + rng.randint(-3, 3))) for _ in range(sentences)]
        cand_sents = [_rewrite(sent, rng, vocab, weights) for sent in ref_sents]
        rng.shuffle(cand_sents) if rng.random() < 0.3 else None
        pairs.append((_render(cand_sents, rng), _render(ref_sents, rng)))
    return pairs


def _rewrite(sent: list[str], rng: random.Random, vocab: list[str], weights: list[float]) -> list[str]:
    """A sentence as another writer might put it: about half the words kept, the rest
    substituted, extended or dropped."""
    out = []
    for w in sent:
        r = rng.random()
        if r < 0.55:
            out.append(w)  # kept
        elif r < 0.8:
            out.append(rng.choices(vocab, cum_weights=weights)[0])  # substituted
        elif r < 0.9:
            out.extend([w, rng.choices(vocab, cum_weights=weights)[0]])  # insertion
        # else: deleted
    return out or [sent[0]]


def make_multi_reference(tokens: int, sentences: int, references: int, seed: int = 0,
                         vocab_size: int = 5000) -> tuple[str, list[str]]:
    """One candidate and several references of about `tokens` tokens each, all rewrites of
    one hidden source text (so they share content as real summaries of one document do)."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, vocab_size)
    weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(vocab))))
    per_sentence = max(1, tokens // sentences)
    source = [_sentence(rng, vocab, weights, max(2, per_sentence + rng.randint(-3, 3))) for _ in range(sentences)]
    texts = [_render([_rewrite(sent, rng, vocab, weights) for sent in source], rng) for _ in range(references + 1)]
    return texts[0], texts[1:]


def summary_corpus(n: int = 10_000, seed: int = 0) -> list[tuple[str, str]]:
    return make_pairs(n, sentences=3, tokens=60, seed=seed)


def long_corpus(n: int = 500, seed: int = 1) -> list[tuple[str, str]]:
    return make_pairs(n, sentences=30, tokens=700, seed=seed)
