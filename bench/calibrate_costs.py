"""Measure what ROUGE calls cost on this machine, fit rouge_core.scorer.cost's constants, and print how
far the estimates are from the measurements.

    python bench/calibrate_costs.py                   # the grid on both paths, fit, the table
    python bench/calibrate_costs.py --write           # ... and write rouge_core/scorer/cost_model.py
    python bench/calibrate_costs.py --quick           # a smaller grid (a few minutes)
    python bench/calibrate_costs.py --save m.jsonl    # keep the measurements; --load m.jsonl refits them
    python bench/calibrate_costs.py --save m.jsonl --resume   # go on with a run that was stopped
    python bench/calibrate_costs.py --group tokenize  # only one group: kernels, tokenize, profiles, bounds,
                                                      # resampling, corpus, loading

The grid: every method family (N for several n, L, Lsum, Lsum-best, W in Lin's and
ROUGE-1.5.5's forms, S and SU bounded and unlimited) over lengths (20 to 200,000 tokens a
side), sentence shapes (one sentence, 20-word sentences, one-word sentences) and with and
without evidence (every deferred record read, as a view or an export reads it); every
tokenizer route and stemmer (rouge-score's and ROUGE-1.5.5's compiled tokenizers on ASCII,
accented and Hindi text, with stems mapped once per word type; their Python tokenizers where
sentence splitting needs them; pre-tokenized lists interned for the kernels; whitespace, unicode and cjk on Thai, Lao, Khmer, Myanmar, Chinese, Japanese and Hindi,
XL-Sum's with its segmenters and stemmers, a user's tokenizer; Porter, ROUGE-1.5.5's,
Snowball, XL-Sum's stemmers, stopwords); every profile's default methods on summary-sized to
long texts; scoring corpora as the Corpus page does (score_corpus per system: documents, references,
methods, profiles, stemming). Each on the compiled path and on the pure one (rouge_core.kernels.native.pure()), each
call a full `rouge_core.score` from text to result.

    seconds   CPU time of the process (time.process_time: steady on a shared machine; the
              same as the wall clock on an idle one), the best of a few runs, every stemmer's
              cache cleared before each (the estimate prices a cold cache)
    peak MB   the peak over two more runs (bench/memory.py: tracemalloc's, or the resident
              set's rise where the compiled kernels' C allocations are larger)

The fit: every case's units of work (rouge_core.scorer.cost.call_terms; a segmenter's time has a
term in its characters times the average run's length, since it grows faster than its
characters on long runs) times the constants give its estimate; all the constants are fitted
at once by linear programs: first the smallest factor k such that every estimate lies within
k of its measurement both ways (bisection on k), and the default bound decides every case as
its measurement says (a case measured over 2 s or 500 MB estimated 10 % over it; one measured
under 1 s and 250 MB estimated within 2 s and 500 MB), then, with every estimate within those bounds,
the constants with the least mean relative error (an estimate under its measurement counted
twice: the bound must not accept what takes longer than it); cases that share no constant (the
scoring calls, each resampling computation) are fitted apart. Times are compared with both
sides read as at least 5 ms (TIME_FLOOR: a call that short is priced by its units, but its
ratio says nothing about a bound of seconds, and a timer's noise dominates it; the mean
error still reads the measured time, so per-call constants stay what short calls measure);
memory with both sides at least 1 MB (the resident set cannot see less), as what a call
keeps plus its largest working set (that set chosen again after each solution). `--write`
writes the constants with this run's description to rouge_core/scorer/cost_model.py. The table
then gives every case's estimate ÷ measured for time and memory, the worst ratio both ways
per group and overall, and checks the bound: nothing that measured under 1 s refused by
rouge_core.DEFAULT_COST_LIMIT, nothing it accepts measured over 2 s. The load average is printed at the start and the end: timings taken
while other work loads the machine are slower and noisier (rerun on an idle machine for the
constants to keep).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import os
import platform
import pprint
import subprocess
import sys
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from memory import fix_mmap_threshold, peak_bytes  # noqa: E402

import corpus_gen as gen  # noqa: E402
import rouge_core  # noqa: E402
from rouge_core.scorer import cost, cost_model  # noqa: E402
from rouge_core.kernels import native  # noqa: E402
from rouge_core.text.options import profile  # noqa: E402
from rouge_core.scorer.scoring import prepare_pair  # noqa: E402

MB = 2**20
MEMORY_FLOOR = MB  # memory ratios read both sides as at least this
MEMORY_RESOLUTION = 64 * 2**10  # below it a peak (a resident set's pages, tracemalloc's blocks) is read as this
# time ratios read both sides as at least this: a call that short is priced by its units, but
# its ratio (a per-call constant of microseconds against a measurement of microseconds) says
# nothing about a bound of seconds, and a timer's noise dominates it
TIME_FLOOR = 0.005
TIMER = 20e-6  # below it a measurement (short calls are timed many at a time) is read as this
MODEL_FILE = os.path.join(ROOT, "rouge_core", "scorer", "cost_model.py")


@dataclass
class Case:
    """One call: `rouge_core.score(candidate, references, methods, options, evidence=...)`."""

    group: str
    label: str
    path: str  # "native" or "pure"
    profile: str
    overrides: dict
    methods: tuple
    evidence: bool
    candidate: str
    references: tuple
    repeats: int = 3
    kind: str = "score"  # or "corpus" (score_corpus per system), "variants" (meta.score_variants), or a
    # resampling computation: "bootstrap", "paired", "r155", "correlate"
    params: dict = field(default_factory=dict)
    # measured
    seconds: float = math.nan
    wall: float = math.nan
    peak: float = math.nan
    tokens: str = ""
    features: dict = field(default_factory=dict)

    def options(self):
        return profile(self.profile, **self.overrides)


# --- the grid ---------------------------------------------------------------------------------

def _sizes(full: list[int], quick: bool) -> list[int]:
    return full[::2] if quick else full


def kernel_cases(path: str, quick: bool):
    """Every family on ASCII text (the kernels dominate), over lengths and sentence shapes."""
    native_path = path == "native"
    big = 1 if native_path else 0  # the pure path stops at smaller sizes
    # (label, method, profile, overrides, [tokens a side], sentence length, kind)
    plans = [
        ("N1", "rouge1", "rouge-score", {}, [20, 200, 2000, 20000, 100000, 400000][: 6 - (1 - big)], 20, "zipf"),
        ("N2", "rouge2", "rouge-score", {}, [20, 200, 2000, 20000, 100000, 400000][: 6 - (1 - big)], 20, "zipf"),
        ("N4", "rouge4", "rouge-score", {}, [20, 200, 2000, 20000, 100000][: 5 - (1 - big)], 20, "zipf"),
        ("N2 distinct", "rouge2", "rouge-score", {}, [2000, 20000, 100000][: 3 - (1 - big)], 20, "distinct"),
        ("N9", "rouge9", "rouge-score", {}, [200, 2000, 20000], 20, "zipf"),
        ("L", "rougeL", "rouge-score", {}, [20, 200, 2000, 8000, 20000, 60000][: 6 - 2 * (1 - big)], 20, "zipf"),
        ("Lsum", "rougeLsum", "rouge-score", {}, [20, 200, 2000, 8000, 20000][: 5 - (1 - big)], 20, "zipf"),
        ("Lsum 1 sentence", "rougeLsum", "rouge-score", {}, [200, 2000, 8000, 20000][: 4 - (1 - big)], None, "zipf"),
        ("Lsum 1-word sentences", "rougeLsum", "rouge-score", {}, [200, 1000, 4000, 8000][: 4 - (1 - big)], 1, "zipf"),
        ("Lbest", "rougeLsum-best", "reval", {}, [20, 200, 2000, 8000, 20000][: 5 - (1 - big)], 20, "zipf"),
        ("Lbest 1-word sentences", "rougeLsum-best", "reval", {}, [200, 1000, 3000, 6000][: 4 - (1 - big)], 1,
         "zipf"),
        ("Lbest 1 sentence", "rougeLsum-best", "reval", {}, [200, 2000, 8000], None, "zipf"),
        # every other profile clips the hits by each chosen pair's alignment
        ("Lbest clipped", "rougeLsum-best", "rouge-score", {}, [20, 200, 2000, 8000, 20000][: 5 - (1 - big)], 20,
         "zipf"),
        ("Lbest clipped 1-word sentences", "rougeLsum-best", "rouge-score", {}, [200, 1000, 3000], 1, "zipf"),
        ("W paper", "rougeW-1.2", "rouge-score", {}, [20, 200, 1000, 4000, 12000][: 5 - (1 - big)], 20, "zipf"),
        ("W rouge155", "rougeW-1.2", "rouge-1.5.5", {}, [20, 200, 1000, 4000, 12000][: 5 - (1 - big)], 20, "zipf"),
        ("W rouge155 3-word sentences", "rougeW-1.2", "rouge-1.5.5", {}, [200, 1000, 3000], 3, "zipf"),
        ("S4", "rougeS4", "rouge-score", {}, [20, 200, 2000, 20000, 100000][: 5 - (1 - big)], 20, "zipf"),
        ("S4 distinct", "rougeS4", "rouge-score", {}, [2000, 20000, 100000][: 3 - (1 - big)], 20, "distinct"),
        ("S*", "rougeS*", "rouge-score", {}, [20, 200, 600, 1500, 3000][: 5 - (1 - big)], 20, "zipf"),
        ("S* distinct", "rougeS*", "rouge-score", {}, [200, 600, 1500][: 3 - (1 - big)], 20, "distinct"),
        ("SU4 rouge155", "rougeSU4", "rouge-1.5.5", {}, [20, 200, 2000, 20000][: 4], 20, "zipf"),
        ("SU4 start-token", "rougeSU4", "matlab", {}, [20, 200, 2000, 20000], 20, "zipf"),
        ("SU* rouge155", "rougeSU*", "rouge-1.5.5", {}, [200, 600, 1500], 20, "zipf"),
    ]
    for label, method, prof, overrides, sizes, sentence, kind in plans:
        for n in _sizes(sizes, quick):
            cand, ref = gen.shaped_pair(n, sentence, seed=n, kind=kind)
            for evidence in (False, True):
                repeats = 3 if n <= 20000 else 2
                yield Case("kernels", f"{label} {n}", path, prof, overrides, (method,), evidence, cand, (ref,), repeats)
    # several references
    for n in _sizes([200, 2000], quick):
        cand, _ = gen.shaped_pair(n, 20, seed=n)
        refs = tuple(gen.shaped_pair(n, 20, seed=n + 100 + k)[1] for k in range(4))
        for method in ("rouge2", "rougeL", "rougeLsum", "rougeSU4"):
            for evidence in (False, True):
                yield Case("kernels", f"{method} 4 refs {n}", path, "rouge-score", {}, (method,), evidence, cand, refs)


def tokenize_cases(path: str, quick: bool):
    """Every tokenizer route, segmenter and stemmer, with one cheap method (rouge1)."""
    english = [200, 2000, 20000, 200000]

    def prose(chars: int, seed: int, rate: float = 0.0) -> tuple[str, str]:
        words = max(2, chars // 7)
        cand, ref = gen.shaped_pair(words, 15, seed=seed)
        return (gen.accented(cand, rate, seed), gen.accented(ref, rate, seed + 1)) if rate else (cand, ref)

    plans = [
        # (label, profile, overrides, sizes in characters, text)
        ("rouge-score accented", "rouge-score", {}, english, "accented"),
        # the compiled tokenizer on UTF-8: every word accented, a script it finds no words in
        ("rouge-score accented every word", "rouge-score", {}, english, "accented-all"),
        ("rouge-score hindi", "rouge-score", {}, [200, 2000, 20000], "hindi"),
        ("rouge155 accented stemmed", "rouge-1.5.5", {"stemmer": "rouge155"}, english[:3], "accented"),
        # tokens from Python interned to ids once for the kernels
        ("pre-tokenized", "rouge-score", {}, english[:3], "tokens"),
        ("rouge-score accented punctuation split", "rouge-score", {"sentence_split": "punctuation"}, english[:3],
         "accented"),
        ("rouge-score porter", "rouge-score", {"stemmer": "porter"}, english, "ascii"),
        ("rouge-score porter distinct words", "rouge-score", {"stemmer": "porter"}, english, "distinct"),
        ("rouge155 stemmer distinct words", "rouge-1.5.5", {"stemmer": "rouge155"}, english[:3], "distinct"),
        ("rouge-score accented porter", "rouge-score", {"stemmer": "porter"}, english, "accented"),
        ("rouge-score punctuation split", "rouge-score", {"sentence_split": "punctuation"}, english, "ascii"),
        ("rouge155 stemmed stopwords", "rouge-1.5.5", {"stemmer": "rouge155", "stopwords": "smart"}, english, "ascii"),
        ("rouge155 accented", "rouge-1.5.5", {}, english, "accented"),
        ("rouge155 -b", "rouge-1.5.5", {"limit_bytes": 10**9}, english[:3], "accented"),
        ("whitespace", "matlab", {}, english, "ascii"),
        ("snowball", "rouge-score", {"stemmer": "snowball-english"}, english[:3], "ascii"),
        ("user tokenizer", "rouge-score", {"tokenizer": _user_tokenizer}, english[:3], "ascii"),
        ("unicode accented", "rouge-score", {"tokenizer": "unicode"}, english[:3], "accented"),
        ("unicode thai", "rouge-score", {"tokenizer": "unicode"}, [200, 2000, 20000, 60000], "thai"),
        ("unicode lao", "rouge-score", {"tokenizer": "unicode"}, [200, 2000, 20000], "lao"),
        ("unicode khmer", "rouge-score", {"tokenizer": "unicode"}, [200, 2000, 20000], "khmer"),
        ("unicode myanmar", "rouge-score", {"tokenizer": "unicode"}, [200, 2000, 20000], "myanmar"),
        ("unicode chinese", "rouge-score", {"tokenizer": "unicode", "language": "chinese"}, [200, 2000, 20000, 60000],
         "chinese"),
        ("unicode japanese", "rouge-score", {"tokenizer": "unicode", "language": "japanese"}, [200, 2000, 20000, 60000],
         "japanese"),
        ("cjk chinese", "rouge-score", {"tokenizer": "cjk"}, [200, 2000, 20000], "chinese"),
        ("unicode hindi", "rouge-score", {"tokenizer": "unicode"}, [200, 2000, 20000], "hindi"),
        ("multilingual english", "multilingual", {}, english[:3], "accented"),
        ("multilingual english stemmed", "multilingual", {"stemmer": "xlsum-english", "language": "english"},
         english[:3], "ascii"),
        ("multilingual thai", "multilingual", {"language": "thai"}, [200, 2000, 20000, 60000], "thai"),
        ("multilingual chinese", "multilingual", {"language": "chinese"}, [200, 2000, 20000, 60000], "chinese"),
        ("multilingual japanese", "multilingual", {"language": "japanese"}, [200, 2000, 20000, 60000], "japanese"),
        ("multilingual hindi", "multilingual", {"language": "hindi"}, [200, 2000, 20000], "hindi"),
        ("multilingual hindi stemmed", "multilingual", {"language": "hindi", "stemmer": "xlsum-hindi"},
         [200, 2000, 20000], "hindi"),
        ("multilingual burmese", "multilingual", {"language": "burmese"}, [200, 2000, 20000], "myanmar"),
        ("xlsum-basic", "multilingual", {"tokenizer": "xlsum-basic"}, english[:3], "accented"),
    ]
    for label, prof, overrides, sizes, text in plans:
        for chars in _sizes(sizes, quick):
            if text in ("ascii", "accented", "accented-all", "tokens"):
                cand, ref = prose(chars, chars, {"accented": 0.1, "accented-all": 1.0}.get(text, 0.0))
                if text == "tokens":  # pre-tokenized: lists of terms
                    cand, ref = cand.lower().split(), ref.lower().split()
            elif text == "distinct":
                cand, ref = gen.shaped_pair(max(2, chars // 12), 15, seed=chars, kind="distinct")
            else:
                cand, ref = gen.script_text(text, chars, chars), gen.script_text(text, chars, chars + 1)
            yield Case("tokenize", f"{label} {chars}", path, prof, overrides, ("rouge1",), False, cand, (ref,),
                       3 if chars <= 20000 else 2)


def _user_tokenizer(text: str) -> list[str]:
    return text.lower().split()


_user_tokenizer.__qualname__ = "calibrate_costs.split"


def profile_cases(path: str, quick: bool):
    """Every profile's usual methods together, on summary-sized to long texts, with and without
    evidence; the multilingual profile on Hindi and Chinese too."""
    methods = ("rouge1", "rouge2", "rougeL", "rougeLsum")
    everything = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4")
    for prof in ("rouge-score", "rouge-1.5.5", "matlab", "reval", "multilingual"):
        for tokens in _sizes([60, 600, 6000], quick):
            cand, ref = gen.shaped_pair(tokens, 20, seed=tokens + 3)
            cand, ref = gen.accented(cand, 0.05, tokens), ref
            for names in (methods, everything):
                for evidence in (False, True):
                    yield Case("profiles", f"{prof} {len(names)} methods {tokens}", path, prof, {}, names, evidence,
                               cand, (ref,))
    for language in ("hindi", "chinese"):
        for chars in _sizes([300, 3000, 30000], quick):
            cand, ref = gen.script_text(language, chars, chars), gen.script_text(language, chars, chars + 5)
            yield Case("profiles", f"multilingual {language} {chars}", path, "multilingual", {"language": language},
                       methods, False, cand, (ref,))


def bound_cases(path: str, quick: bool):
    """Shapes near the default bound, where accepting or refusing matters (the issue's
    hostile cases, at sizes that measure about 0.5 to 4 s)."""
    if path != "native":
        return
    # (label, method, profile, overrides, tokens, sentence length, kind)
    plans = [
        ("rougeLsum 20,000 tokens 800 lines", "rougeLsum", "rouge-1.5.5", {}, 20000, 25, "zipf"),
        ("rougeW-1.2 20,000 tokens", "rougeW-1.2", "rouge-1.5.5", {}, 20000, 25, "zipf"),
        ("rougeW-1.2 20,000 tokens rouge-score", "rougeW-1.2", "rouge-score", {}, 20000, 25, "zipf"),
        ("rougeLsum-best 20,000 one-word lines", "rougeLsum-best", "reval", {}, 20000, 1, "zipf"),
        ("rougeLsum-best 8,000 one-word lines", "rougeLsum-best", "reval", {}, 8000, 1, "zipf"),
        # the "Why do tools disagree?" page's costliest method on a long pair (20-word lines): estimated
        # at 0.6 of its time by the kernels group's cases alone
        ("rougeLsum-best 80,000 tokens 20-word lines", "rougeLsum-best", "rouge-score", {}, 80000, 20, "zipf"),
        ("rougeLsum-best 80,000 tokens 20-word lines reval", "rougeLsum-best", "reval", {}, 80000, 20, "zipf"),
        ("rougeLsum evidence 20,000 tokens", "rougeLsum", "rouge-score", {}, 20000, 20, "zipf"),
        ("rougeS* 3,000 distinct", "rougeS*", "rouge-score", {}, 3000, 20, "distinct"),
        ("rougeS* 6,000", "rougeS*", "rouge-score", {}, 6000, 20, "zipf"),
        ("porter 200,000 distinct words", "rouge1", "rouge-score", {"stemmer": "porter"}, 200000, 20, "distinct"),
        # the compiled tokenizer and ROUGE-1's count over millions of tokens (a 400 MB text was priced
        # at a few milliseconds and took 3.5-7 s)
        ("rouge1 3,000,000 tokens", "rouge1", "rouge-score", {}, 3_000_000, 20, "zipf"),
    ]
    for label, method, prof, overrides, tokens, sentence, kind in plans:
        if quick and tokens > 10000:
            tokens //= 2
        cand, ref = gen.shaped_pair(tokens, sentence, seed=tokens, kind=kind)
        for evidence in (False, True) if "evidence" in label else (False,):
            yield Case("bounds", label, path, prof, overrides, (method,), evidence, cand, (ref,), 2)
    # one short word repeated: the tokenizer's characters, one type (the largest over the bound: its
    # time per token grows with the arrays, 13 ns at 30 million tokens, 27 ns at 200 million)
    for chars in (20_000_000, 60_000_000, 300_000_000):
        text = "a " * (chars // 2)
        yield Case("bounds", f"rouge1 {chars:,} characters of one repeated word", path, "rouge-score", {},
                   ("rouge1",), False, text, ("a b",), 2)
    # one long word (many characters, one token) and words of eight characters: the compiled
    # tokenizers' time and memory per character (a 400 MB one-word text was accepted without an
    # estimate: no case had many characters and few tokens, so the per-character constants fit 0)
    for prof, chars in (("rouge-score", 30_000_000), ("rouge-score", 120_000_000), ("rouge-score", 400_000_000),
                        ("rouge-score", 700_000_000), ("rouge-1.5.5", 120_000_000), ("rouge-1.5.5", 400_000_000)):
        yield Case("bounds", f"{prof} one word of {chars:,} characters", path, prof, {}, ("rouge1",), False,
                   "w" * chars, ("w x",), 2)
    for chars in (40_000_000, 200_000_000):
        yield Case("bounds", f"rouge1 {chars:,} characters of 8-character words", path, "rouge-score", {},
                   ("rouge1",), False, "abcdefg " * (chars // 8), ("abcdefg x",), 2)
    yield Case("bounds", "rouge1 400,000,000 characters of 4-character words", path, "rouge-score", {}, ("rouge1",),
               False, "abc " * 100_000_000, ("abc x",), 2)
    yield Case("bounds", "rouge-score one accented word of 100,000,000 characters", path, "rouge-score", {},
               ("rouge1",), False, "\u00e9" * 100_000_000, ("\u00e9 x",), 2)
    # the hostile case of Porter stemming: 300,000 distinct words, each stemmed once (2.9-3.8 s, priced
    # at 1.8 s by cases of at most 100,000 words a side, where a word type costs less)
    yield Case("bounds", "porter 300,000 distinct words, one side", path, "rouge-score", {"stemmer": "porter"},
               ("rouge1",), False, " ".join(gen.distinct_words(300_000)), ("a b c",), 2)
    # millions of distinct words: the compiled tokenizer's time and memory per word type (8 million
    # five-letter words, 48 million characters, took 2.4 s and 540 MB unestimated), on the text path
    # and, with evidence, as Documents
    for types in (500_000, 2_000_000, 8_000_000):
        text = " ".join(gen.short_distinct_words(types))
        for evidence in (False, True) if types <= 2_000_000 else (False,):
            yield Case("bounds", f"rouge1 {types:,} distinct five-letter words", path, "rouge-score", {},
                       ("rouge1",), evidence, text, ("aaaaa x",), 2)
        if types >= 2_000_000:  # the tokenizer's part, apart from ROUGE-1's count per word type
            yield Case("bounds", f"rougeL {types:,} distinct five-letter words", path, "rouge-score", {},
                       ("rougeL",), False, text, ("aaaaa x",), 2)
    # a text of distinct words against itself: every skip-bigram distinct and shared (the
    # table the kernels build at its largest)
    for tokens in (1500, 3000):
        text = " ".join(f"w{i}" for i in range(tokens))
        for evidence in (False, True):
            yield Case("bounds", f"rougeS* {tokens:,} distinct words, the same text", path, "rouge-score", {},
                       ("rougeS*",), evidence, text, (text,), 2)
    for script, chars in (("thai", 60000), ("japanese", 60000)):
        cand, ref = gen.script_text(script, chars, 1), gen.script_text(script, chars, 2)
        yield Case("bounds", f"unicode {script} {chars:,} characters", path, "rouge-score",
                   {"tokenizer": "unicode", "language": script if script == "japanese" else None}, ("rouge1",),
                   False, cand, (ref,), 2)
    yield from repeated_character_cases(path)
    yield from long_segmented_cases(path)


def repeated_character_cases(path: str):
    """Words of one repeated character (7 to a word), the segmenters' slowest shape per character
    (PyThaiNLP's dictionary walk, MeCab): priced too low from natural text alone."""
    for script, char in (("thai", "\u0e01"), ("japanese", "\u65e5")):
        text = (char * 7 + " ") * (60000 // 8)
        for prof, overrides in (("multilingual", {"language": script}),
                                ("rouge-score", {"tokenizer": "unicode", "language": script})):
            yield Case("bounds", f"{prof} {script} repeated character 60,000", path, prof, overrides, ("rouge1",),
                       False, text, (text[:100],), 2)


def long_segmented_cases(path: str):
    """Long texts through each segmenter, where its time grows faster than its characters
    (the model's `seg.*.runchar`: characters times the average run's length; XL-Sum's
    segmenters read the whole text as one run): the shapes of the hostile cases, at sizes
    that measure about 0.3 to 3 s."""
    plans = [
        ("multilingual", {"language": "thai"}, "thai", "\u0e01", (120000, 200000)),
        ("multilingual", {"language": "thai"}, "thai", None, (60000, 120000)),
        ("rouge-score", {"tokenizer": "unicode"}, "thai", "\u0e01", (200000,)),
        ("multilingual", {"language": "japanese"}, "japanese", "\u65e5", (220000,)),
        ("rouge-score", {"tokenizer": "unicode", "language": "japanese"}, "japanese", "\u65e5", (220000,)),
        ("multilingual", {"language": "chinese"}, "chinese", "\u4e2d", (120000,)),
        ("multilingual", {"language": "chinese"}, "chinese", None, (120000,)),
    ]
    for prof, overrides, script, char, sizes in plans:
        for chars in sizes:
            if char is None:
                text, shape = gen.script_text(script, chars, chars), "text"
            else:
                text, shape = (char * 7 + " ") * (chars // 8), "repeated character"
            yield Case("bounds", f"{prof} {script} {shape} {chars:,}", path, prof, overrides, ("rouge1",), False, text,
                       (text[:100],), 2)


def resampling_cases(path: str, quick: bool):
    """The bootstrap of a corpus, the paired tests between two systems, ROUGE-1.5.5's bootstrap
    and the meta-evaluation's correlations, over pairs, resamples and coefficients (numbers from
    NumPy and Python: the same on both paths, measured on the compiled one)."""
    if path != "native":
        return
    for pairs in _sizes([100, 1000, 10000], quick):
        for resamples in _sizes([1000, 10000, 50000], quick):
            if pairs * resamples <= 2 * 10**8:
                # P, R and F kept (the label of the measurements saved before), then rebuilt from the
                # counts (a score_corpus result's usual columns: "rebuilt")
                for rebuilt, kind in ((0, ""), (4, " rebuilt")):
                    yield Case("resampling", f"bootstrap {pairs} pairs {resamples}{kind}", path, "rouge-score", {},
                               (), False, "", (), 2, "bootstrap",
                               {"pairs": pairs, "resamples": resamples, "methods": 4, "rebuilt": rebuilt})
            if pairs * resamples <= 2 * 10**7:
                yield Case("resampling", f"paired tests {pairs} pairs {resamples}", path, "rouge-score", {}, (), False,
                           "", (), 2, "paired", {"pairs": pairs, "resamples": resamples})
    # few pairs, many resamples: each resample's own work (its mean, its effect size, its
    # value kept for the percentiles) outweighs its pairs; 5 and 16 pairs enumerate every
    # sign flip (2^pairs <= resamples)
    for pairs, resamples in ((5, 200000), (16, 100000), (25, 100000), (25, 1000000)):
        yield Case("resampling", f"paired tests {pairs} pairs {resamples}", path, "rouge-score", {}, (), False,
                   "", (), 2, "paired", {"pairs": pairs, "resamples": resamples})
    for instances in _sizes([30, 300, 3000], quick):
        for resamples in _sizes([1000, 10000, 100000], quick):
            if instances * resamples <= 3 * 10**6:
                yield Case("resampling", f"rouge155 bootstrap {instances} docs {resamples}", path, "rouge-1.5.5", {},
                           (), False, "", (), 2, "r155", {"instances": instances, "resamples": resamples, "columns": 12})
    for method in ("pearson", "spearman", "kendall"):
        for level in ("summary", "system"):
            for resample in ("documents", "systems"):
                for resamples in _sizes([0, 1000, 10000], quick):
                    if resamples == 0 and resample != "documents":
                        continue
                    yield Case("resampling", f"correlate {method} {level} {resample} {resamples}", path, "rouge-score",
                               {}, (), False, "", (), 2, "correlate",
                               {"systems": 16, "documents": 100, "resamples": resamples, "method": method,
                                "level": level, "resample": resample})


def loading_cases(path: str, quick: bool):
    """Each library a stemmer or segmenter loads on first use (rouge_core.text.loading), in a
    fresh process each time (the same on both paths: measured once)."""
    if path != "native":
        return
    from rouge_core.text.loading import LIBRARIES

    for library in LIBRARIES:
        yield Case("loading", f"load {library}", path, "rouge-score", {}, (), False, "", (), 3, "load",
                   {"library": library})



def corpus_cases(path: str, quick: bool):
    """Scoring a corpus as the Corpus page does (score_corpus per system, no evidence): the
    kernels' work priced as in single calls, plus what the corpus path does in Python per pair
    and method (its record, the references combined) and per reference (issue 27 item 9), over
    documents, references per document, methods and profiles (rouge-score's best F, ROUGE-1.5.5's
    pooled counts and printed P and R, MATLAB's maximum over references with a Python tokenizer)."""
    four = ("rouge1", "rouge2", "rougeL", "rougeLsum")
    pure = path == "pure"
    for prof in ("rouge-score", "rouge-1.5.5") if pure else ("rouge-score", "rouge-1.5.5", "matlab"):
        for documents in _sizes([20, 100] if pure else [20, 200, 1000], quick and not pure):
            for references in (1, 4) if pure else (1, 4, 11):
                for methods in (("rouge1",), four):
                    yield Case("corpus", f"{prof} 2 systems x {documents} docs x {references} refs {len(methods)} methods",
                               path, prof, {}, methods, False, "", (), 3, "corpus",
                               {"systems": 2, "documents": documents, "references": references})
    if not pure:  # stemmed: each word type stemmed once for the corpus (the stem caches emptied before each run)
        for prof, stemmer in (("rouge-score", "porter"), ("rouge-1.5.5", "rouge155")):
            for documents, references in ((200, 4), (1000, 11)):
                yield Case("corpus", f"{prof} {stemmer} 2 systems x {documents} docs x {references} refs 4 methods",
                           path, prof, {"stemmer": stemmer}, four, False, "", (), 3, "corpus",
                           {"systems": 2, "documents": documents, "references": references})
    if not pure:  # many systems of few documents: each score_corpus call's own work
        for methods in (("rouge1",), four):
            yield Case("corpus", f"rouge-score 16 systems x 10 docs x 4 refs {len(methods)} methods", path,
                       "rouge-score", {}, methods, False, "", (), 3, "corpus",
                       {"systems": 16, "documents": 10, "references": 4})


def variants_cases(path: str, quick: bool):
    """Scoring a corpus as "Which ROUGE agrees" does for one variant (rouge_core.studies.meta.
    score_variants: each text tokenized once, the references shared by every system, one
    `score_documents` call per pair): the kernels' work priced as in single calls, plus what the
    call does in Python per pair, method and reference (cost.variants_records_terms), over
    documents, references, methods and profiles (ROUGE-1.5.5 rounds its printed P and R; MATLAB's
    and XL-Sum's tokenizers run in Python)."""
    four = ("rouge1", "rouge2", "rougeL", "rougeLsum")
    pure = path == "pure"
    for prof in ("rouge-score", "rouge-1.5.5") if pure else ("rouge-score", "rouge-1.5.5", "matlab", "multilingual"):
        for documents in ([20, 100] if pure else _sizes([20, 100, 400], quick)):
            for references in (1, 4, 11):
                for methods in (("rouge1",), four):
                    yield Case("variants", f"{prof} 2 systems x {documents} docs x {references} refs {len(methods)} "
                               "methods, shared references", path, prof, {}, methods, False, "", (), 3, "variants",
                               {"systems": 2, "documents": documents, "references": references})
    if not pure:  # stemmed (the stem caches emptied before each run)
        for prof, stemmer in (("rouge-score", "porter"), ("rouge-1.5.5", "rouge155")):
            yield Case("variants", f"{prof} {stemmer} 2 systems x 100 docs x 11 refs 4 methods, shared references",
                       path, prof, {"stemmer": stemmer}, four, False, "", (), 3, "variants",
                       {"systems": 2, "documents": 100, "references": 11})


GROUPS = {"kernels": kernel_cases, "tokenize": tokenize_cases, "profiles": profile_cases, "bounds": bound_cases,
          "resampling": resampling_cases, "corpus": corpus_cases, "variants": variants_cases,
          "loading": loading_cases}


_CORPORA: dict = {}


def _corpus_of(case: Case):
    """The case's corpus (bench/corpus_gen.study_corpus, seeded; kept for the case's repeats)."""
    from rouge_core.corpora import corpus_io

    key = (case.params["systems"], case.params["documents"], case.params["references"])
    if key not in _CORPORA:
        _CORPORA.clear()
        rows, _ = gen.study_corpus(*key, seed=sum(key))
        _CORPORA[key] = corpus_io.build_corpus(corpus_io.Table(tuple(rows[0]), tuple(rows),
                                                               tuple(range(2, len(rows) + 2))))
    return _CORPORA[key]


def _run_corpus(case: Case, corpus, options) -> None:
    from rouge_core.corpora.corpus import score_corpus

    for candidates in corpus.systems.values():
        score_corpus(list(candidates), list(corpus.references), list(case.methods), options, ids=list(corpus.ids),
                     cost_limit=rouge_core.UNBOUNDED)


def _run_variants(case: Case, corpus, options) -> None:
    from rouge_core.studies import meta

    meta.score_variants(corpus.systems, corpus.references, corpus.ids, list(case.methods),
                        [meta.Variant(case.profile, options.stemmer)], cost_limit=rouge_core.UNBOUNDED)


def corpus_features(case: Case, options) -> dict:
    """A corpus case's units of work as rouge_core.scorer.cost.estimate_corpus counts them: its
    time terms are fitted with the scoring calls'; its memory (one pair's Documents, a chunk's
    records, the statistics) is priced by cost.corpus_cost, not fitted here."""
    corpus = _corpus_of(case)
    shared = case.kind == "variants"
    whole, one, pairs = cost.corpus_terms(corpus.systems, corpus.references, case.methods, options,
                                          shared_references=shared)
    time_f = dict(whole.time)
    time_f[f"{native.path()}.call"] = time_f.get(f"{native.path()}.call", 0) + 1
    case.tokens = f"{pairs} pairs"
    shape = (len(case.methods), len(corpus.references), sum(len(r) for r in corpus.references))
    held = cost.corpus_pairs_held(corpus.systems, corpus.references, options)
    memory = cost.corpus_memory_terms(whole, one, *shape, shared, held)
    own = {name: n for name, n in memory.kept.items() if name.startswith("corpus.") and name != cost.PAIRS}
    # the corpus's own bytes (a chunk's records, the pairs held) are fitted on these cases alone
    # (they share no constant with the scoring calls, whose fit they would otherwise widen); one
    # pair's Documents and working memory are priced by the scoring calls' constants, and the
    # statistics are a fixed number of bytes per pair and method: the estimate's fixed part
    # its time is fitted with the scoring calls' (the corpus path runs the same kernels and
    # tokenizers, many texts after one another)
    return {"time": time_f, "kept": own, "work": [],
            "offset": pairs * len(case.methods) * cost.CORPUS_STATISTICS_BYTES,
            "offset_terms": ({name: n for name, n in memory.kept.items() if name not in own}, dict(memory.work)),
            "corpus": (whole, one, pairs, *shape, shared), "held": held}


# --- measuring ----------------------------------------------------------------------------------

def _clear_stemmer_caches() -> None:
    """Every stemmer's cache emptied, and the multilingual tokenizer's terms of the last texts
    (the estimates price a text read for the first time, with cold caches)."""
    from rouge_core.text import multilingual, porter155, stemming

    porter155.porter_stem.cache_clear()
    stemming.clear_stem_caches()
    multilingual._line_terms.cache_clear()


def read_evidence(result) -> None:
    """Every evidence field read (the deferred ones are built), as a view or an export does."""
    for method in result:
        for ref in method.per_reference:
            ev = ref.evidence
            if ev is not None and dataclasses.is_dataclass(ev):
                for f in dataclasses.fields(ev):
                    getattr(ev, f.name)


def _resampling_inputs(case: Case):
    """The inputs of a resampling case (seeded), built before it is timed."""
    import random

    p = case.params
    rng = random.Random(7)
    if case.kind in ("bootstrap", "paired"):
        from rouge_core.corpora.corpus import CorpusResult
        from rouge_core.scorer.scoring import MethodScore, ReferenceScore, resolve_options, score_from_stats
        from rouge_core.families.methods import parse_method
        from rouge_core.stats import Score, Stats

        options = resolve_options("rouge-score", {})
        names = ("rouge1", "rouge2", "rougeL", "rougeLsum")[:p.get("methods", 1)]

        rebuilt = p.get("rebuilt", 0)

        def result():
            pairs = []
            for _ in range(p["pairs"]):
                row = {}
                for k, name in enumerate(names):
                    if k < rebuilt:  # the scores of the counts, as scored: the columns rebuild them
                        stats = Stats(rng.randint(0, 20), rng.randint(20, 40), rng.randint(20, 40))
                        score = score_from_stats(stats, options)
                    else:  # scores that do not rebuild from the counts: the columns keep them
                        stats = Stats(rng.randint(0, 20), 20, 20)
                        score = Score(stats.hits / 20, stats.hits / 20, stats.hits / 20)
                    row[name] = MethodScore(parse_method(name), score, (ReferenceScore(0, stats, score),), 0, "", stats,
                                            "")
                pairs.append(row)
            ids = tuple(str(i) for i in range(p["pairs"]))
            return CorpusResult(ids, ids, tuple(("",) for _ in ids), names, options, tuple(pairs),
                                {name: "" for name in names})

        return (result(), result()) if case.kind == "paired" else (result(),)
    if case.kind == "r155":
        return ([(rng.random(), rng.random(), rng.random()) for _ in range(p["instances"])],)
    human = {(f"S{s}", f"D{d}"): float(rng.randint(1, 5)) for s in range(p["systems"]) for d in range(p["documents"])}
    metric = {key: rng.random() + value / 10 for key, value in human.items()}
    return metric, human


def _run_resampling(case: Case, inputs) -> None:
    p = case.params
    unbounded = rouge_core.UNBOUNDED
    if case.kind == "bootstrap":
        # on NumPy's path, which cost.bootstrap_corpus_terms prices (an upper bound of the
        # compiled kernel's: the estimate of the compiled path drops the blocks it never holds)
        with native.pure():
            inputs[0].bootstrap(p["resamples"], seed=1, cost_limit=unbounded)
    elif case.kind == "paired":
        from rouge_core.corpora.corpus import compare_systems

        compare_systems(inputs[0], inputs[1], "rouge1", resamples=p["resamples"], cost_limit=unbounded)
    elif case.kind == "r155":
        from rouge_core.compat.rouge155 import bootstrap

        bootstrap.resample_indices.cache_clear()
        for _ in range(p["columns"] // 3):
            for values in bootstrap.resample_means(inputs[0], p["resamples"], False, 0.5):
                bootstrap.summarize(values, 95.0)
    else:
        from rouge_core.studies import meta

        meta.correlate(inputs[0], inputs[1], p["level"], p["method"], bootstrap=p["resamples"], seed=1,
                       resample=p["resample"], cost_limit=unbounded)


def _computation_terms(case: Case):
    """The units of work of a case that is not a scoring call (cost.*_terms)."""
    p = case.params
    if case.kind == "load":
        return cost.loading_terms([p["library"]])
    if case.kind == "bootstrap":
        return cost.bootstrap_corpus_terms(p["pairs"], p["resamples"], p["methods"], p.get("rebuilt", 0))
    if case.kind == "paired":
        return cost.paired_tests_terms(p["pairs"], p["resamples"])
    if case.kind == "r155":
        return cost.rouge155_bootstrap_terms(p["instances"], p["resamples"], p["columns"])
    return cost.correlation_terms(p["systems"], p["documents"], 1, p["resamples"], p["method"], p["level"],
                                  p["resample"])


def _call(case: Case, options):
    result = rouge_core.score(case.candidate, list(case.references), list(case.methods), options,
                              evidence=case.evidence, cost_limit=rouge_core.UNBOUNDED)
    if case.evidence:
        read_evidence(result)
    return result


def _path(case: Case):
    return native.pure() if case.path == "pure" else _Nothing()


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _timed(run, repeats: int, before=None) -> tuple[float, float]:
    """The best CPU and wall time per run over `repeats` tries (short runs timed many at a time)."""
    best_cpu = best_wall = math.inf
    deadline = time.perf_counter() + 20
    for _ in range(repeats):
        inner = 1
        while True:
            gc.collect()
            cpu0, wall0 = time.process_time(), time.perf_counter()
            for _ in range(inner):
                if before is not None:
                    before()
                run()
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            if cpu >= 0.05 or inner >= 4096:
                break
            inner *= 4  # a short call: time many of them together
        best_cpu, best_wall = min(best_cpu, cpu / inner), min(best_wall, wall / inner)
        if time.perf_counter() > deadline:
            break
    return best_cpu, best_wall


# In a fresh process: rouge_core imported, then the library's first use timed (CPU) and the
# resident set it adds measured (its high-water mark above the resident set before).
_LOAD_SCRIPT = """
import json, sys, time
import rouge_core
from rouge_core.text import loading
def kib(field):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith(field + ":"))
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")  # the high-water mark reset to the resident set now
before = kib("VmRSS")
start = time.process_time()
loading.load(sys.argv[1])
seconds = time.process_time() - start
print(json.dumps({"seconds": seconds, "peak": (kib("VmHWM") - before) * 1024}))
"""


def measure_loading(case: Case) -> None:
    """The best of `case.repeats` fresh processes (a library loads once per process)."""
    runs = []
    for _ in range(case.repeats):
        out = subprocess.run([sys.executable, "-c", _LOAD_SCRIPT, case.params["library"]], capture_output=True,
                             text=True, check=True, cwd=ROOT)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    case.seconds = case.wall = min(r["seconds"] for r in runs)
    case.peak = float(min(r["peak"] for r in runs))
    terms = _computation_terms(case)
    case.features = {"time": dict(terms.time), "kept": dict(terms.kept), "work": [dict(terms.work)]}
    case.tokens = "-"


# A case measured in a fresh process (the resident set of a process that has run other cases
# rises less, or more, than the case's own peak: freed memory reused, the allocator's thresholds
# moved; a 2 x 400 x 11 score_variants run read 7.5 MB there and 20 MB in a fresh process, the
# same corpus with 1 reference 9.6 MB and 4 MB).
_CASE_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import calibrate_costs as cc
path, group, label, evidence, quick = json.loads(sys.argv[2])
case = next(c for c in cc.GROUPS[group](path, quick) if (c.label, c.evidence) == (label, evidence))
cc.measure_here(case)
print(json.dumps({"seconds": case.seconds, "wall": case.wall, "peak": case.peak}))
"""


def measure_fresh(case: Case, quick: bool) -> None:
    key = json.dumps([case.path, case.group, case.label, case.evidence, quick])
    out = subprocess.run([sys.executable, "-c", _CASE_SCRIPT, HERE, key], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    measured = json.loads(out.stdout.strip().splitlines()[-1])
    case.seconds, case.wall, case.peak = measured["seconds"], measured["wall"], measured["peak"]
    with _path(case):
        case.features = corpus_features(case, case.options())


def measure(case: Case, quick: bool = False) -> None:
    if case.kind == "load":
        measure_loading(case)
        return
    if case.kind == "variants":
        measure_fresh(case, quick)
        return
    measure_here(case)


def measure_here(case: Case) -> None:
    fix_mmap_threshold()  # each case's peak its own, whatever ran before it in this process
    if case.kind not in ("score", "corpus", "variants"):
        inputs = _resampling_inputs(case)
        _run_resampling(case, inputs)
        case.seconds, case.wall = _timed(lambda: _run_resampling(case, inputs), case.repeats)
        case.peak = peak_bytes(lambda: _run_resampling(case, inputs))
        case.features = {"time": dict(_computation_terms(case).time), "kept": dict(_computation_terms(case).kept),
                         "work": [dict(_computation_terms(case).work)]}
        case.tokens = "-"
        return
    options = case.options()
    if case.kind in ("corpus", "variants"):
        corpus = _corpus_of(case)
        run = _run_corpus if case.kind == "corpus" else _run_variants
        with _path(case):
            run(case, corpus, options)  # warm
            case.seconds, case.wall = _timed(lambda: run(case, corpus, options), case.repeats,
                                             _clear_stemmer_caches)
            _clear_stemmer_caches()
            case.peak = peak_bytes(lambda: run(case, corpus, options))
            case.features = corpus_features(case, options)
        return
    with _path(case):
        _clear_stemmer_caches()
        _call(case, options)  # warm: imports, dictionaries, segmenters
        case.seconds, case.wall = _timed(lambda: _call(case, options), case.repeats, _clear_stemmer_caches)
        _clear_stemmer_caches()
        case.peak = peak_bytes(lambda: _call(case, options))
        case.features = features(case, options)


def features(case: Case, options) -> dict:
    """The case's units of work as rouge_core.scorer.cost counts them (on fresh Documents)."""
    texts = [case.candidate, *case.references]
    shapes = [cost.text_shape(t, options) if isinstance(t, str) else None for t in texts]  # None: pre-tokenized
    cand, refs = prepare_pair(case.candidate, list(case.references), options)
    # a text call without evidence on the kernels frees its tokens within the call (_call: unbounded)
    freed = not case.evidence and cost.texts_freed(case.candidate, list(case.references), case.methods, options,
                                                   rouge_core.UNBOUNDED, [cand, *refs])
    items, shared = cost.call_terms(case.methods, cand, refs, options, case.evidence, shapes, freed)
    case.tokens = f"{len(cand)}/{len(refs[0])}"
    time_f: dict[str, float] = {}
    kept_f: dict[str, float] = {}
    works = []
    for terms in items:
        for name, n in terms.time.items():
            time_f[name] = time_f.get(name, 0) + n
        for name, n in terms.kept.items():
            kept_f[name] = kept_f.get(name, 0) + n
        works.append(dict(terms.work))
    for terms in shared.values():
        for name, n in terms.time.items():
            time_f[name] = time_f.get(name, 0) + n
        for table in (terms.kept, terms.work):
            for name, n in table.items():
                kept_f[name] = kept_f.get(name, 0) + n
    return {"time": time_f, "kept": kept_f, "work": works}


# --- fitting ------------------------------------------------------------------------------------

def _dot(features: dict, constants: dict) -> float:
    return sum(constants.get(name, 0.0) * n for name, n in features.items())


def estimate_of(case: Case, seconds: dict, nbytes: dict) -> tuple[float, float]:
    f = case.features
    if "corpus" in f:
        with _path(case):
            est_s, peak, _ = cost.corpus_cost(*f["corpus"], seconds, nbytes, pairs_held=f["held"])
        return est_s, peak
    work = max((_dot(w, nbytes) for w in f["work"]), default=0.0)
    return _dot(f["time"], seconds), _dot(f["kept"], nbytes) + work


def _lp(rows: list[dict], lower: list[float], upper: list[float], names: list[str],
        target: list[float] | None = None, offset: list[float] | None = None,
        decided: list[tuple[float, float]] | None = None, others: list[list[dict]] | None = None) -> dict:
    """Non-negative constants x for `names`, each estimate e = row . x compared with its
    measurement m (`upper`: m read as at least the floor; `lower`: m, or 0 where m is under
    the floor and any estimate up to the floor is right). First the smallest factor k for
    which every estimate can lie within [lower / k, upper k] (the worst ratio, found by
    bisection on k: each k a linear program) and within its `decided` (least, most) range (the
    default bound's decision as the measurement makes it: -inf and inf where free), each of the
    case's `others` rows too (its other working sets: the estimate is the largest, so each must
    lie under the upper bounds), then, within those
    bounds, the constants that minimise the mean relative error |e / target - 1| (`target`:
    m itself, read as at least a timer's resolution, so that short calls still price the
    per-call constants they determine; an estimate under its measurement counted twice: the
    bound must not accept what takes longer than it), so that a case the units cannot
    describe well costs its own error, not every case's."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack, identity, vstack

    if not names:
        return {}
    index = {name: j for j, name in enumerate(names)}
    a = np.zeros((len(rows), len(names)))
    for i, row in enumerate(rows):
        for name, v in row.items():
            if name in index:
                a[i, index[name]] += v
    described = a.sum(axis=1) > 0  # a row none of the names enters cannot be fitted
    a = a[described]
    up = np.array(upper, dtype=float)[described]
    aim = np.array(upper if target is None else target, dtype=float)[described]
    low = np.array(lower, dtype=float)[described]
    # a fixed part of an estimate (bytes a model counts exactly, not fitted): e = row . x + offset
    off = np.zeros(len(rows)) if offset is None else np.array(offset, dtype=float)
    off = off[described]
    n, k = a.shape
    a_up = a / up[:, None]
    # each column scaled by the geometric mean of its non-zero entries, so that the entries
    # spread around 1 (the solver drops entries below about 1e-9 of the largest)
    scale = np.ones(k)
    for j in range(k):
        column = a_up[:, j]
        nonzero = column[column > 0]
        if nonzero.size:
            scale[j] = float(np.exp(np.log(nonzero).mean()))
    a_up /= scale
    a_aim = a_up * (up / aim)[:, None]
    has_low = low > 0
    ratio_low = (low / up)[has_low]
    off_up = off / up
    # variables: x (k), u (n: over), v (n: under), with e_i / aim_i = a_aim_i . x + off_i / aim_i = 1 + u_i - v_i
    eye = identity(n, format="csr")
    a_eq = hstack([csr_matrix(a_aim), -eye, eye])
    b_eq = np.ones(n) - off / aim
    # the bound's decisions: least < e (so strictly over the bound) and e <= most, scaled as a_up
    decided = [(-math.inf, math.inf)] * len(rows) if decided is None else decided
    least = np.array([d[0] for d in decided], dtype=float)[described]
    most = np.array([d[1] for d in decided], dtype=float)[described]
    has_least, has_most = np.isfinite(least), np.isfinite(most)
    decided_rows = [hstack([csr_matrix(-a_up[has_least]), csr_matrix((int(has_least.sum()), 2 * n))]),
                    hstack([csr_matrix(a_up[has_most]), csr_matrix((int(has_most.sum()), 2 * n))])]
    decided_b = np.concatenate([-(least[has_least] * (1 + 1e-6) - off[has_least]) / up[has_least],
                                (most[has_most] - off[has_most]) / up[has_most]])
    # the other working sets: under k times the measurement, and under the bound's most
    kept_index = np.flatnonzero(described)
    extra, extra_case = [], []
    for position, i in enumerate(kept_index):
        for row in (others[i] if others is not None else ()):
            vector = np.zeros(k)
            for name, v in row.items():
                if name in index:
                    vector[index[name]] += v
            extra.append(vector / up[position] / scale)
            extra_case.append(position)
    o_up = np.array(extra).reshape(len(extra), k)
    extra_case = np.array(extra_case, dtype=int)
    extra_most = most[extra_case] if len(extra) else np.zeros(0)
    extra_capped = np.isfinite(extra_most)
    a_ub = vstack([hstack([csr_matrix(a_up), csr_matrix((n, 2 * n))]),
                   hstack([csr_matrix(-a_up[has_low]), csr_matrix((int(has_low.sum()), 2 * n))]), *decided_rows,
                   hstack([csr_matrix(o_up), csr_matrix((len(extra), 2 * n))]),
                   hstack([csr_matrix(o_up[extra_capped]), csr_matrix((int(extra_capped.sum()), 2 * n))])])
    extra_b_most = ((extra_most[extra_capped] - off[extra_case][extra_capped]) / up[extra_case][extra_capped]
                    if len(extra) else np.zeros(0))
    c = np.concatenate([np.zeros(k), np.full(n, 1.0 / n), np.full(n, 2.0 / n)])
    bounds = [(0, None)] * (k + 2 * n)

    def solve(factor: float):
        b_ub = np.concatenate([np.full(n, factor) - off_up, -ratio_low / factor + off_up[has_low], decided_b,
                               factor - off_up[extra_case], extra_b_most])
        result = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
        return result if result.status == 0 else None

    low_k, high_k = 1.0, 2.0
    while solve(high_k) is None:  # a factor that can be met
        low_k, high_k = high_k, high_k * 4
        if high_k > 1e8:
            raise SystemExit("the fit failed: no constants bring the estimates within 1e8 of the measurements")
    while high_k / low_k > 1.02:
        middle = math.sqrt(low_k * high_k)
        if solve(middle) is None:
            low_k = middle
        else:
            high_k = middle
    result = solve(high_k)
    x = result.x[:k] / scale
    return {name: float(v) for name, v in zip(names, x)}


def _with_work(kept: dict, work: dict) -> dict:
    row = dict(kept)
    for name, n in work.items():
        row[name] = row.get(name, 0) + n
    return row


def _work_sum(case: Case) -> dict:
    total: dict = {}
    for w in case.features["work"]:
        for name, n in w.items():
            total[name] = total.get(name, 0) + n
    return total


def _components(rows: list[dict]) -> list[list[int]]:
    """The rows grouped so that no constant enters two groups (the scoring calls and each
    resampling computation share none): each group is fitted on its own, so that one group's
    worst ratio does not widen another's."""
    parent: dict = {}

    def find(name):
        while parent.setdefault(name, name) != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for row in rows:
        names = list(row)
        for name in names[1:]:
            parent[find(name)] = find(names[0])
    groups: dict = {}
    for i, row in enumerate(rows):
        groups.setdefault(find(next(iter(row))) if row else None, []).append(i)
    return [members for key, members in groups.items() if key is not None]


def _fit_each(rows: list[dict], lower: list[float], upper: list[float], target: list[float] | None = None,
              offset: list[float] | None = None, decided: list[tuple[float, float]] | None = None,
              others: list[list[dict]] | None = None) -> dict:
    constants: dict = {}
    every = rows if others is None else [{**row, **{n: 1 for o in more for n in o}} for row, more in zip(rows, others)]
    for members in _components(every):
        names = sorted({n for i in members for n in every[i]})
        constants.update(_lp([rows[i] for i in members], [lower[i] for i in members], [upper[i] for i in members],
                             names, None if target is None else [target[i] for i in members],
                             None if offset is None else [offset[i] for i in members],
                             None if decided is None else [decided[i] for i in members],
                             None if others is None else [others[i] for i in members]))
    return constants


# The default bound decides as the measurement says: what measured over its seconds or its bytes
# is refused, what measured under 1 s and 250 MB is accepted (report() checks the same).
ACCEPTED_UNDER_SECONDS = 1.0
ACCEPTED_UNDER_BYTES = 250 * 10**6
# what measured over the bound is estimated at least this far over it: inputs of about the same
# size (a skip-bigram table of the same power of two) must be refused too, not just the one measured
REFUSED_MARGIN = 1.1


def _decided(case: Case, measured: float, bound: float) -> tuple[float, float]:
    """The (least, most) an estimate may be for the default bound to decide `case` as its
    measurement (`measured`, against the bound's `bound`: seconds or bytes) says."""
    if measured > bound:
        return bound * REFUSED_MARGIN, math.inf
    if case.seconds < ACCEPTED_UNDER_SECONDS and case.peak < ACCEPTED_UNDER_BYTES:
        return -math.inf, bound
    return -math.inf, math.inf


def _floored_lower(measured: float, floor: float) -> float:
    """The least an estimate must reach for its ratio, both sides read as at least `floor`, to
    be within a factor of 2 of `measured`: none under twice the floor (an estimate read as the
    floor is within 2x of it). A lower bound from the floor itself made one case measured just
    over it (5.4 ms) decide a per-call constant that priced every tiny call 80x over."""
    return measured if measured >= 2 * floor else 0.0


def fit(cases: list[Case]) -> tuple[dict, dict]:
    """(SECONDS, BYTES) fitted to the cases (_lp), every constant with every case it enters
    (cases that share no constant, such as the scoring calls and each resampling computation,
    fitted apart: _components): times with both sides read as at least TIME_FLOOR, memory as
    at least MEMORY_FLOOR (what a call keeps plus its largest working set, that set chosen
    again after each solution)."""
    seconds = _fit_each([c.features["time"] for c in cases],
                        [_floored_lower(c.seconds, TIME_FLOOR) for c in cases],
                        [max(c.seconds, TIME_FLOOR) for c in cases], [max(c.seconds, TIMER) for c in cases],
                        decided=[_decided(c, c.seconds, rouge_core.DEFAULT_COST_LIMIT.seconds) for c in cases])
    byte_names = sorted({n for c in cases for n in c.features["kept"]}
                        | {n for c in cases for w in c.features["work"] for n in w}
                        | {n for c in cases for t in c.features.get("offset_terms", ()) for n in t})
    lower = [_floored_lower(c.peak, MEMORY_FLOOR) for c in cases]
    upper = [max(c.peak, MEMORY_FLOOR) for c in cases]
    # the mean error reads what a call measured (not the floor, which would draw every small
    # call's estimate up to 1 MB through the per-call constants), as at least MEMORY_RESOLUTION
    target = [max(c.peak, MEMORY_RESOLUTION) for c in cases]
    nbytes = {name: 0.0 for name in byte_names}
    for round_ in range(4):  # the largest working set fixed, the program solved, again with the new largest
        rows, others = [], []
        for c in cases:
            # (ties, such as sets every constant of which came out 0, go to the set with the most units)
            work = _work_sum(c) if round_ == 0 else max(c.features["work"], key=lambda w: (_dot(w, nbytes), sum(w.values())),
                                                         default={})
            rows.append(_with_work(c.features["kept"], work))
            # every other working set under the upper bounds too (the estimate takes the largest)
            others.append([] if round_ == 0 else
                          [_with_work(c.features["kept"], w) for w in c.features["work"] if w is not work and w])
        # a corpus case's fixed part: its statistics, and one pair's bytes at the last round's constants
        offsets = [c.features.get("offset", 0.0) + sum(_dot(t, nbytes) for t in c.features.get("offset_terms", ()))
                   for c in cases]
        nbytes = {name: 0.0 for name in byte_names}
        decided = [_decided(c, c.peak, rouge_core.DEFAULT_COST_LIMIT.peak_bytes) for c in cases]
        nbytes.update(_fit_each(rows, lower, upper, target, offsets, decided, others))
    return seconds, nbytes


# --- reporting ----------------------------------------------------------------------------------

def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def report(cases: list[Case], seconds: dict, nbytes: dict, table: str | None = None) -> dict:
    """Every case's estimate ÷ measured, then the worst ratios per group (also written to
    `table`) and the cases where the default bound decides wrongly."""
    print(f"\n{'group':<9} {'path':<6} {'case':<42} {'ev':>3} {'tokens':>14} {'seconds':>9} {'est s':>9} {'ratio':>6}"
          f" {'peak MB':>8} {'est MB':>8} {'ratio':>6}")
    worst: dict = {}
    violations = []
    for c in cases:
        est_s, est_b = estimate_of(c, seconds, nbytes)
        t_ratio = max(est_s, TIME_FLOOR) / max(c.seconds, TIME_FLOOR)
        m_ratio = max(est_b, MEMORY_FLOOR) / max(c.peak, MEMORY_FLOOR)
        for key in (c.group, "all"):
            w = worst.setdefault(key, [math.inf, 0.0, math.inf, 0.0])
            w[0], w[1] = min(w[0], t_ratio), max(w[1], t_ratio)
            w[2], w[3] = min(w[2], m_ratio), max(w[3], m_ratio)
        accepted = rouge_core.DEFAULT_COST_LIMIT.allows(cost.CostEstimate("", est_s, est_b, "", 0))
        limit = rouge_core.DEFAULT_COST_LIMIT
        if ((accepted and (c.seconds > limit.seconds or c.peak > limit.peak_bytes))
                or (not accepted and c.seconds < ACCEPTED_UNDER_SECONDS and c.peak < ACCEPTED_UNDER_BYTES)):
            violations.append((c, accepted))
        print(f"{c.group:<9} {c.path:<6} {c.label[:42]:<42} {'yes' if c.evidence else 'no':>3} {c.tokens:>14}"
              f" {c.seconds:>9.5f} {est_s:>9.5f} {t_ratio:>6.2f} {c.peak / MB:>8.1f} {est_b / MB:>8.1f} {m_ratio:>6.2f}",
              flush=True)
    summary = [f"estimate ÷ measured (time: both sides at least {TIME_FLOOR * 1000:g} ms; memory: both sides at least "
               "1 MB)",
               f"{'group':<10} {'cases':>6} {'time low':>9} {'time high':>10} {'memory low':>11} {'memory high':>12}"]
    for key in sorted(worst, key=lambda key: key == "all"):
        tl, th, ml, mh = worst[key]
        n = len(cases) if key == "all" else sum(c.group == key for c in cases)
        summary.append(f"{key:<10} {n:>6} {tl:>9.2f} {th:>10.2f} {ml:>11.2f} {mh:>12.2f}")
    summary.append(f"\nthe default bound ({rouge_core.DEFAULT_COST_LIMIT.describe()}): {len(violations)} case(s) "
                   "where it refuses a call measured under 1 s or accepts one measured over 2 s or 500 MB")
    for c, accepted in violations:
        summary.append(f"  {'accepted' if accepted else 'refused'}: {c.path} {c.label} ({c.seconds:.2f} s)")
    print("\n" + "\n".join(summary))
    if table:
        with open(table, "w", encoding="utf-8") as fh:
            fh.write("\n".join(summary) + "\n")
    return worst


def write_model(seconds: dict, nbytes: dict, description: dict) -> None:
    def block(name: str, values: dict, fmt) -> str:
        lines = [f"{name} = {{"]
        for key in sorted(values):
            lines.append(f"    {key!r}: {fmt(values[key])},")
        lines.append("}")
        return "\n".join(lines)

    head = cost_model.__doc__.strip()
    # a Python literal (pprint), not JSON: True, not true
    text = (f'"""{head}\n"""\n\nCALIBRATION = {pprint.pformat(description, sort_dicts=False)}\n\n'
            f"{block('SECONDS', seconds, lambda v: f'{v:.4g}')}\n\n{block('BYTES', nbytes, lambda v: f'{v:.4g}')}\n")
    with open(MODEL_FILE, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"\nwrote {os.path.relpath(MODEL_FILE, ROOT)}")


def _key(case: Case) -> tuple:
    return (case.path, case.group, case.label, case.evidence)


def _record(case: Case, quick: bool) -> str:
    return json.dumps({"path": case.path, "group": case.group, "label": case.label, "evidence": case.evidence,
                       "quick": quick, "seconds": case.seconds, "wall": case.wall, "peak": case.peak}) + "\n"


def _save(cases: list[Case], path: str, quick: bool) -> None:
    """The measurements, keyed by case (the texts are regenerated from the seeds on --load)."""
    with open(path, "w", encoding="utf-8") as fh:
        for c in cases:
            fh.write(_record(c, quick))


def _saved_quick(path: str) -> bool:
    """Whether the measurements saved in `path` were taken on the quick grid."""
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    return bool(first and json.loads(first).get("quick"))


def _load(path: str, quick: bool = False) -> list[Case]:
    """The saved measurements on the grid's cases (regenerated), their units of work counted
    again by the current rouge_core.scorer.cost (so a change to the model refits without measuring)."""
    with open(path, encoding="utf-8") as fh:
        saved = [json.loads(line) for line in fh]
    measured = {(d["path"], d["group"], d["label"], d["evidence"]): d for d in saved}
    quick = quick or bool(saved and saved[0].get("quick"))
    cases = []
    for path, group in dict.fromkeys((d["path"], d["group"]) for d in saved):
        for case in GROUPS[group](path, quick):
            d = measured.get(_key(case))
            if d is None:
                continue
            case.seconds, case.wall, case.peak = d["seconds"], d["wall"], d["peak"]
            if case.kind in ("corpus", "variants"):
                with _path(case):
                    case.features = corpus_features(case, case.options())
            elif case.kind != "score":
                terms = _computation_terms(case)
                case.features = {"time": dict(terms.time), "kept": dict(terms.kept), "work": [dict(terms.work)]}
                case.tokens = "-"
            else:
                with _path(case):
                    case.features = features(case, case.options())
            cases.append(case)
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="every other size of the grid")
    parser.add_argument("--group", action="append", choices=list(GROUPS), help="only these groups (repeatable)")
    parser.add_argument("--path", choices=("native", "pure"), action="append", help="only this path (repeatable)")
    parser.add_argument("--save", metavar="FILE", help="write the measurements (JSON lines), each as it is taken")
    parser.add_argument("--resume", action="store_true", help="with --save: measure only the cases not in FILE yet")
    parser.add_argument("--load", metavar="FILE", action="append", help="fit measurements saved before (repeatable)")
    parser.add_argument("--table", metavar="FILE", help="also write the accuracy table (worst ratios per group) here")
    parser.add_argument("--write", action="store_true", help="write the fitted constants to rouge_core/scorer/cost_model.py")
    args = parser.parse_args(argv)
    start_load = load_average()
    print(f"compiled kernels: {native.describe()}; Python {platform.python_version()}; {platform.processor() or platform.machine()}")
    print(f"load average at the start: {start_load}")
    if args.load:
        # a case measured in several files: the last file's measurement
        loaded = {_key(c): c for f in args.load for c in _load(f, args.quick)}
        cases = list(loaded.values())
    else:
        if not native.active():
            raise SystemExit("build the compiled kernels first (python setup.py build_ext --inplace): both paths are "
                             "measured")
        cases = []
        done = {}
        if args.save and args.resume and os.path.exists(args.save):  # a run stopped before: its cases kept
            with open(args.save, encoding="utf-8") as fh:
                done = {(d["path"], d["group"], d["label"], d["evidence"]): d for d in map(json.loads, fh)}
        sink = open(args.save, "a" if args.resume else "w", encoding="utf-8") if args.save else None
        for path in args.path or ("native", "pure"):
            for group in args.group or list(GROUPS):
                for case in GROUPS[group](path, args.quick):
                    if _key(case) in done:
                        continue
                    measure(case, args.quick)
                    cases.append(case)
                    if sink is not None:  # each measurement kept as it comes (a long run may be stopped)
                        sink.write(_record(case, args.quick))
                        sink.flush()
                    print(f"  measured {case.path} {case.group} {case.label} ev={case.evidence}: "
                          f"{case.seconds:.5f} s, {case.peak / MB:.1f} MB", file=sys.stderr, flush=True)
        if sink is not None:
            sink.close()
        if done:
            cases = _load(args.save, args.quick)
    seconds, nbytes = fit(cases)
    report(cases, seconds, nbytes, args.table)
    end_load = load_average()
    print(f"\nload average at the end: {end_load}")
    if args.write:
        description = {
            "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
            "python": platform.python_version(),
            "clock": "cpu (time.process_time), best of a few runs",
            "load_average": {"start": start_load, "end": end_load},
            "date": time.strftime("%Y-%m-%d"),
            "cases": len(cases),
            "quick": bool(args.quick) or any(_saved_quick(f) for f in args.load or ()),
            "files": [os.path.basename(f) for f in args.load or ()],
        }
        write_model(seconds, nbytes, description)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
