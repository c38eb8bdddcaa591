"""Issue 30's corpus views on 10,000 pairs × 4 systems: the first computation of each view and
every later action, against the app's targets (the first computation may show progress; every
later action under 1 s).

Corpus: seeded synthetic summaries (corpus_gen's Zipf-like words), a source document of about
700 tokens per pair that holds the reference's sentences among others, four systems that copy
from the source at different rates. Views (what the Compare systems page computes, each once
per choice and then read from the session): the tokens of every text, the source statistics
of every system with 1,000 bootstrap resamples, the n-grams two systems match and miss, the four
bucket kinds and the lengths (1,000 resamples each); later actions: listing the top n-grams of
another n, a bucket kind already computed, the examples of an n-gram, the tables of each view.

    python bench/bench_analysis.py              # 10,000 pairs × 4 systems
    python bench/bench_analysis.py --pairs 2000
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from corpus_gen import make_pairs  # noqa: E402

from rouge_core.studies import analysis  # noqa: E402
from rouge_core import profile, score_corpus  # noqa: E402
from rouge_core.studies.source import corpus_abstractiveness  # noqa: E402

LATER_ACTION_TARGET_S = 1.0


def build(pairs: int, seed: int = 0):
    rng = random.Random(seed)
    texts = make_pairs(pairs, sentences=3, tokens=60, seed=seed)
    filler = make_pairs(pairs, sentences=30, tokens=640, seed=seed + 1)
    sources, references, systems = [], [], {f"sys{k}": [] for k in range(4)}
    for (candidate, reference), (long_text, _) in zip(texts, filler):
        ref_lines = reference.split("\n")
        body = long_text.split("\n")
        for line in ref_lines:
            body.insert(rng.randrange(len(body) + 1), line)
        source_lines = body
        sources.append("\n".join(source_lines))
        references.append([reference])
        for k, name in enumerate(systems):
            copied = [source_lines[rng.randrange(len(source_lines))] for _ in range(k + 1)]
            own = candidate.split("\n")[: 3 - k] if k < 3 else []
            systems[name].append("\n".join(copied + own))
    return sources, references, systems


def timed(label: str, func, rows: list):
    start = time.perf_counter()
    value = func()
    seconds = time.perf_counter() - start
    rows.append((label, seconds))
    print(f"{label:<58} {seconds:8.2f} s", flush=True)
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    print(f"corpus: {args.pairs:,} pairs × 4 systems; load average {os.getloadavg()[0]:.2f}")
    sources, references, systems = build(args.pairs)
    options = profile("rouge-score")
    first: list = []
    results = timed("ROUGE-1 of every system (score_corpus, 2 threads)",
                    lambda: {s: score_corpus(c, references, ["rouge1"], options, workers=2) for s, c in systems.items()},
                    first)
    tokens = timed("tokens of every text (tokenize_corpus)",
                   lambda: analysis.tokenize_corpus(systems, references, options), first)
    kw = dict(resamples=args.resamples, seed=0, confidence=95)
    source = timed("source statistics of 4 systems, with intervals",
                   lambda: corpus_abstractiveness(systems, sources, options, **kw), first)
    diffs = timed("n-grams sys0 matches and sys3 misses (and the reverse)",
                  lambda: analysis.ngram_differences(tokens, "sys0", "sys3"), first)
    scores = {s: results[s].values("rouge1") for s in ("sys0", "sys3")}
    timed("bucket: reference length", lambda: analysis.bucket_by_length(tokens, scores, "reference", **kw), first)
    timed("bucket: candidate length", lambda: analysis.bucket_by_length(tokens, scores, "candidate", **kw), first)
    timed("bucket: word frequency", lambda: analysis.bucket_by_frequency(tokens, ["sys0", "sys3"], **kw), first)
    timed("bucket: reference sentence position",
          lambda: analysis.bucket_by_sentence_position(tokens, ["sys0", "sys3"], **kw), first)
    lengths = timed("length statistics", lambda: analysis.length_statistics(tokens, **kw), first)
    print()
    later: list = []
    timed("top 15 n-grams of each system, all n", lambda: (diffs.top("sys0", 15), diffs.top("sys3", 15)), later)
    timed("top 15 2-grams of each system", lambda: (diffs.top("sys0", 15, n=2), diffs.top("sys3", 15, n=2)), later)
    gram = diffs.top("sys0", 1).iloc[0]["ngram"]
    timed("the examples of one n-gram", lambda: diffs.example_pairs(gram, "sys0"), later)
    timed("source statistics tables", lambda: (source.frame(), source.wide_frame()), later)
    timed("length tables", lambda: (lengths.frame(), lengths.pairs_frame()), later)
    slowest = max(s for _, s in later)
    print(f"\nfirst computations: {sum(s for _, s in first):.1f} s in all (each shows progress in the app)")
    print(f"later actions: slowest {slowest:.3f} s — target under {LATER_ACTION_TARGET_S:g} s: "
          f"{'met' if slowest < LATER_ACTION_TARGET_S else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
