"""The `-l` (words) and `-b` (bytes) length limits, applied as readText / readText_LCS do.

Both limits cut peers and models alike. `readText` (n-grams, S, and the unigram counts that
clip L and W) keeps whole sentences while the running total stays under the limit and then
cuts one last sentence. `readText_LCS` (the L and W sentences) does the same for `-l`, but
for `-b` its byte counter never advances: every sentence shorter than the limit is kept
whole and the first one at least as long is cut to the limit (the script's defect, kept).
"""

from __future__ import annotations

import re

_WHITESPACE = re.compile(rb"[ \t\n\r\f\v]+")  # Perl's \s on byte strings: ASCII only


def perl_split_words(sentence: bytes) -> list[bytes]:
    """Perl `split(/\\s+/, $s)`: a leading empty field is kept, trailing ones are dropped."""
    fields = _WHITESPACE.split(sentence)
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _cut_words(sentences: list[bytes], limit: int) -> list[bytes]:
    kept: list[bytes] = []
    total = 0
    for s in sentences:
        words = perl_split_words(s)
        if total + len(words) < limit:
            kept.append(s)
            total += len(words)
        else:
            take = limit - total  # Perl's slice 0..limit-total-1
            kept.append(b" ".join(words[:take]) if take > 0 else b"")
            break
    return kept


def _cut_bytes(sentences: list[bytes], limit: int, advance: bool) -> list[bytes]:
    kept: list[bytes] = []
    total = 0
    for s in sentences:
        if total + len(s) < limit:
            kept.append(s)
            if advance:
                total += len(s)  # the separating space is not counted
        else:
            kept.append(s[: max(limit - total, 0)])
            break
    return kept


def cut_for_ngrams(sentences: list[bytes], word_limit: int = 0, byte_limit: int = 0) -> list[bytes]:
    """Sentences whose tokens make the text that N, S and the L/W clipping counts use."""
    if word_limit:
        return _cut_words(sentences, word_limit)
    if byte_limit:
        return _cut_bytes(sentences, byte_limit, advance=True)
    return list(sentences)


def cut_for_lcs(sentences: list[bytes], word_limit: int = 0, byte_limit: int = 0) -> list[bytes]:
    """Sentences that ROUGE-L and ROUGE-W align."""
    if word_limit:
        return _cut_words(sentences, word_limit)
    if byte_limit:
        return _cut_bytes(sentences, byte_limit, advance=False)
    return list(sentences)
