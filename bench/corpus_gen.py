"""Seeded synthetic corpora for the benchmark: summary-sized and long (candidate, reference) pairs.

Words follow a Zipf-like law over a fixed vocabulary (so common words repeat, as in real
text); references share about half of their content with the candidate; sentences are
capitalised, punctuated and separated by newlines (rougeLsum's sentence rule).
"""

from __future__ import annotations

import itertools
import random
import string

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


# --- shapes for the cost calibration (bench/calibrate_costs.py) ------------------------------

_ACCENTS = {"a": "áàâä", "e": "éèêë", "i": "íîï", "o": "óôö", "u": "úûü", "n": "ñ", "c": "ç"}


def zipf_words(n: int, seed: int = 0, vocab_size: int = 5000) -> list[str]:
    """n words drawn from the Zipf-like vocabulary (common words repeat, as in real text)."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, vocab_size)
    weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(vocab))))
    return rng.choices(vocab, cum_weights=weights, k=n)


def distinct_words(n: int, seed: int = 0) -> list[str]:
    """n words that are all different (every n-gram and skip-bigram a new one)."""
    rng = random.Random(seed)
    return [f"w{i}x{rng.randrange(10**6)}" for i in range(n)]


def short_distinct_words(n: int) -> list[str]:
    """n different words of five letters and digits, in order (aaaaa, aaaab, ...): the most word
    types a text of their characters holds (at most 36**5)."""
    alphabet = string.ascii_lowercase + string.digits
    return ["".join(letters) for letters in itertools.islice(itertools.product(alphabet, repeat=5), n)]


def lines_of(words: list[str], sentence_length: int | None) -> str:
    """The words one sentence per line, `sentence_length` words each (None: one line)."""
    if not sentence_length:
        return " ".join(words)
    return "\n".join(" ".join(words[i:i + sentence_length]) for i in range(0, len(words), sentence_length))


def shaped_pair(tokens: int, sentence_length: int | None, seed: int = 0, *, kind: str = "zipf") -> tuple[str, str]:
    """A (candidate, reference) pair of `tokens` words a side in sentences of `sentence_length`
    words: "zipf" (the reference rewrites about half of the candidate's words, as a summary
    and its reference share content) or "distinct" (no word repeats, none shared)."""
    if kind == "distinct":
        return (lines_of(distinct_words(tokens, seed), sentence_length),
                lines_of(distinct_words(tokens, seed + 1), sentence_length))
    rng = random.Random(seed + 7)
    vocab = _vocabulary(rng, 5000)
    weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(vocab))))
    ref = zipf_words(tokens, seed)
    cand = _rewrite(ref, rng, vocab, weights)
    cand = (cand + zipf_words(tokens, seed + 1))[:tokens] if len(cand) < tokens else cand[:tokens]
    return lines_of(cand, sentence_length), lines_of(ref, sentence_length)


def accented(text: str, rate: float, seed: int = 0) -> str:
    """`text` with about `rate` of its words given an accented letter (é, ü, ñ, ...): text the
    ASCII tokenizers no longer take as ASCII."""
    rng = random.Random(seed)
    out = []
    for line in text.split("\n"):
        words = line.split(" ")
        for k, w in enumerate(words):
            if w and rng.random() < rate:
                words[k] = _accent(w, rng)
        out.append(" ".join(words))
    return "\n".join(out)


def _syllables(consonants: str, vowels: str, finals: str = "") -> list[str]:
    return [c + v + f for c in consonants for v in vowels for f in ("",) + tuple(finals)]


_SCRIPT_SYLLABLES = {
    # Devanagari (Hindi): consonant + vowel sign
    "hindi": _syllables("कखगचजटडतदनपबमयरलवसह", "\u093e\u093f\u0940\u0941\u0942\u0947\u0948\u094b"),
    "lao": _syllables("ກຂຄງຈຊດຕທນບປພມຢຣລວສຫອ", "\u0eb2\u0eb4\u0eb5\u0eb8\u0eb9", "ນງກ"),
    "khmer": _syllables("កខគងចឆជញដតទនបពមយរលវសហអ", "\u17b6\u17b7\u17b8\u17bb\u17bc\u17c1", "ន"),
    "myanmar": _syllables("ကခဂငစဆဇညတထဒနပဖဗမယရလဝသဟအ", "\u102c\u102d\u102e\u102f\u1030\u1031"),
}
_HIRAGANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
_KATAKANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン"
_PARTICLES = ["は", "が", "を", "に", "で", "と", "の", "も", "へ", "から", "まで", "です", "ます", "した"]


def _dictionary_words(script: str, rng: random.Random, count: int) -> list[str]:
    """Real words of a segmenter's dictionary (PyThaiNLP's Thai words, jieba's Chinese ones),
    a Zipf-like draw, so the segmenters read text they know."""
    if script == "thai":
        from pythainlp.corpus import thai_words

        words = sorted(w for w in thai_words() if " " not in w)
    else:
        import jieba

        words = []
        with jieba.get_dict_file() as fh:
            for line in fh:
                w = line.decode("utf-8").split(" ", 1)[0]
                if 1 <= len(w) <= 4 and all("\u4e00" <= ch <= "\u9fff" for ch in w):
                    words.append(w)
                if len(words) >= 60_000:
                    break
    rng.shuffle(words)
    words = words[:8000]
    weights = list(itertools.accumulate(1.0 / (rank + 1) ** 0.8 for rank in range(len(words))))
    return rng.choices(words, cum_weights=weights, k=count)


def script_text(script: str, chars: int, seed: int = 0, line_chars: int = 120) -> str:
    """About `chars` characters of seeded text in `script` ("thai", "chinese", "japanese",
    "hindi", "lao", "khmer", "myanmar"): dictionary words where a segmenter reads the script
    (Thai, Chinese, Japanese), generated syllables elsewhere; spaces where the script puts them
    (Thai between phrases, Hindi between words, none in Chinese or Japanese), lines of about
    `line_chars` characters."""
    rng = random.Random(seed)
    pieces: list[str] = []
    size = 0
    line = 0
    if script in ("thai", "chinese"):
        stream = iter(_dictionary_words(script, rng, chars))
    while size < chars:
        if script == "thai":
            piece = "".join(next(stream) for _ in range(rng.randint(2, 6))) + " "
        elif script == "chinese":
            piece = "".join(next(stream) for _ in range(rng.randint(3, 8))) + rng.choice("，。、")
        elif script == "japanese":
            kanji = "".join(chr(rng.randint(0x4E00, 0x4FFF)) for _ in range(rng.randint(1, 3)))
            kana = "".join(rng.choice(_HIRAGANA) for _ in range(rng.randint(0, 3)))
            kata = "".join(rng.choice(_KATAKANA) for _ in range(rng.randint(2, 5))) if rng.random() < 0.2 else ""
            piece = kanji + kana + kata + rng.choice(_PARTICLES) + ("。" if rng.random() < 0.15 else "")
        else:
            syllables = _SCRIPT_SYLLABLES[script]
            piece = "".join(rng.choice(syllables) for _ in range(rng.randint(1, 4)))
            piece += " " if script == "hindi" or rng.random() < 0.25 else ""
        pieces.append(piece)
        size += len(piece)
        line += len(piece)
        if line >= line_chars:
            pieces.append("\n")
            size += 1
            line = 0
    return "".join(pieces)[:chars]


# --- a study-size corpus for the meta-evaluation page --------------------------------------------

STUDY_ASPECTS = ("coherence", "consistency", "fluency", "relevance")


def study_corpus(systems: int = 16, documents: int = 100, references: int = 11, seed: int = 0,
                 accented_share: float = 0.13):
    """A corpus the size of a real meta-evaluation study (SummEval's: 16 systems x 100 documents
    x 11 references) and its judgements (3 annotators x 4 aspects, scores 1-5): returns
    (table rows for rouge_core.corpora.corpus_io, judgement rows). Systems differ in quality (how much of
    the source they keep), and the human scores follow quality with noise, so the correlations
    are neither 0 nor 1. About `accented_share` of the summaries hold an accented word (as real
    news does), which the ASCII tokenizers do not take as ASCII."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, 5000)
    weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(vocab))))
    quality = [0.3 + 0.6 * k / max(systems - 1, 1) for k in range(systems)]
    rng.shuffle(quality)
    names = [f"M{k}" for k in range(systems)]
    rows, judgements = [], []
    for d in range(documents):
        source = [_sentence(rng, vocab, weights, rng.randint(12, 22)) for _ in range(4)]
        row = {"id": f"doc{d:03d}"}
        for k in range(references):
            row[f"reference_{k + 1}"] = _render([_rewrite(s, rng, vocab, weights) for s in source[:3]], rng)
        for name, q in zip(names, quality):
            kept = [[w if rng.random() < q else rng.choices(vocab, cum_weights=weights)[0] for w in s]
                    for s in source[:rng.randint(2, 3)]]
            text = _render(kept, rng)
            if rng.random() < accented_share:
                text = accented(text, 0.05, rng.randrange(10**6))
            row[f"candidate_{name}"] = text
            for aspect in STUDY_ASPECTS:
                for annotator in ("a1", "a2", "a3"):
                    value = min(5, max(1, round(1 + 4 * q + rng.gauss(0, 0.9))))
                    judgements.append({"system": name, "doc_id": row["id"], "annotator": annotator,
                                       "aspect": aspect, "score": value})
        rows.append(row)
    return rows, judgements


# --- non-ASCII corpora (bench/bench_rouge.py's slices) --------------------------------------------

def one_word_accented(text: str, seed: int = 0) -> str:
    """`text` with exactly one of its words given an accented letter (the rest as they were):
    the smallest change that makes a text non-ASCII, as one é in real news does."""
    rng = random.Random(seed)
    words = text.split(" ")
    candidates = [k for k, w in enumerate(words) if any(ch in _ACCENTS for ch in w)] or list(range(len(words)))
    k = rng.choice(candidates)
    words[k] = _accent(words[k], rng)
    return " ".join(words)


def _accent(word: str, rng: random.Random) -> str:
    """`word` with one of its letters accented (é after it when none can be)."""
    spots = [i for i, ch in enumerate(word) if ch in _ACCENTS]
    if not spots:
        return word + "é"
    i = rng.choice(spots)
    return word[:i] + rng.choice(_ACCENTS[word[i]]) + word[i + 1:]


def a_third_accented(pairs: list[tuple[str, str]], seed: int = 0) -> list[tuple[str, str]]:
    """The pairs with every third one holding one non-ASCII word (in the candidate or the
    reference, alternately)."""
    out = []
    for k, (cand, ref) in enumerate(pairs):
        if k % 3 == 0:
            if k % 2:
                ref = one_word_accented(ref, seed + k)
            else:
                cand = one_word_accented(cand, seed + k)
        out.append((cand, ref))
    return out


_SCRIPT_PUNCTUATION = {"hindi": ("।", ","), "chinese": ("。", "，"), "thai": (" ", " ")}


def in_script(pairs: list[tuple[str, str]], script: str, seed: int = 0) -> list[tuple[str, str]]:
    """The pairs written in `script` ("hindi", "chinese", "thai"): each word of the generated
    vocabulary stands for one word of the script (dictionary words where a segmenter reads the
    script, generated syllables for Hindi), so candidate and reference share words as the
    English-like pairs do; words spaced as the script spaces them (Hindi between words, Thai
    between phrases, Chinese not at all), sentences ended with its punctuation."""
    rng = random.Random(seed)
    vocab: set[str] = set()
    for cand, ref in pairs:
        vocab.update(w.strip(",.!?").lower() for w in (cand + " " + ref).split())
    vocab_sorted = sorted(vocab)
    if script == "hindi":
        syllables = _SCRIPT_SYLLABLES["hindi"]
        words = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 3))) for _ in vocab_sorted]
    else:
        words = list(dict.fromkeys(_dictionary_words(script, rng, 20 * len(vocab_sorted))))
        words += [w + w for w in words]  # enough distinct words whatever the vocabulary
    mapping = dict(zip(vocab_sorted, words))
    end, comma = _SCRIPT_PUNCTUATION[script]

    def render(text: str) -> str:
        lines = []
        for line in text.split("\n"):
            out = []
            for k, w in enumerate(line.split()):
                term = mapping[w.strip(",.!?").lower()]
                if script == "thai" and k and k % 4 == 0:
                    out.append(" ")
                elif script == "hindi" and k:
                    out.append(" ")
                out.append(term)
                if w.endswith(","):
                    out.append(comma)
            lines.append("".join(out) + end)
        return "\n".join(lines)

    return [(render(c), render(r)) for c, r in pairs]
