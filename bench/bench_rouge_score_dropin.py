"""The rouge-score drop-in against rouge-score itself: built-in tokenizer and user tokenizer objects.

    python bench/bench_rouge_score_dropin.py            # 2,000 summary pairs
    python bench/bench_rouge_score_dropin.py --pairs 500

For rouge1+2+L+Lsum on the benchmark's summary corpus it times, interleaved block by block,
`rouge_score.rouge_scorer.RougeScorer` and `rouge_core.compat.rouge_score.rouge_scorer.RougeScorer`
(i) with their built-in tokenizer, (ii) with a user tokenizer object (lower-cased whitespace
split, the kind of callable `evaluate` wraps) and (iii) with `tokenizers.DefaultTokenizer()`
passed explicitly; every pair's scores are compared with rouge-score's. Then `rouge_core.compute`
against the `evaluate`-style loop it replaces (score each pair, BootstrapAggregator, mid F).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from corpus_gen import summary_corpus  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


class WhitespaceTokenizer:
    """A user tokenizer object: lower-cased whitespace split."""

    def tokenize(self, text):
        return text.lower().split()


def timed_blocks(runs: dict, pairs, blocks: int) -> dict[str, float]:
    """Seconds per implementation, interleaved block by block (machine noise hits all alike)."""
    size = max(1, len(pairs) // blocks)
    total = dict.fromkeys(runs, 0.0)
    for start in range(0, len(pairs), size):
        block = pairs[start:start + size]
        for name, score in runs.items():
            t0 = time.perf_counter()
            for candidate, reference in block:
                score(reference, candidate)
            total[name] += time.perf_counter() - t0
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--blocks", type=int, default=10)
    args = parser.parse_args(argv)

    from rouge_score import rouge_scorer, scoring, tokenizers

    import rouge_core
    from rouge_core.compat.rouge_score import rouge_scorer as dropin_scorer
    from rouge_core.compat.rouge_score import tokenizers as dropin_tokenizers

    pairs = summary_corpus(args.pairs)
    settings = {
        "built-in tokenizer": ({}, {}),
        "user tokenizer object": ({"tokenizer": WhitespaceTokenizer()}, {"tokenizer": WhitespaceTokenizer()}),
        "DefaultTokenizer() passed": ({"tokenizer": tokenizers.DefaultTokenizer()},
                                      {"tokenizer": dropin_tokenizers.DefaultTokenizer()}),
    }
    print(f"{len(pairs)} summary pairs, {'+'.join(TYPES)}; pairs/second")
    print("| tokenizer | rouge-score | drop-in | ratio | identical |")
    print("|---|---|---|---|---|")
    for label, (theirs_kw, ours_kw) in settings.items():
        theirs = rouge_scorer.RougeScorer(TYPES, **theirs_kw)
        ours = dropin_scorer.RougeScorer(TYPES, **ours_kw)
        identical = all(theirs.score(r, c) == ours.score(r, c) for c, r in pairs[:300])
        seconds = timed_blocks({"theirs": theirs.score, "ours": ours.score}, pairs, args.blocks)
        rate = {k: len(pairs) / v for k, v in seconds.items()}
        print(f"| {label} | {rate['theirs']:,.0f} | {rate['ours']:,.0f} | {rate['ours'] / rate['theirs']:.1f}× | "
              f"{'yes' if identical else 'NO'} |", flush=True)

    predictions = [c for c, _ in pairs]
    references = [r for _, r in pairs]

    def evaluate_style():
        import numpy as np

        np.random.seed(0)
        scorer = rouge_scorer.RougeScorer(TYPES)
        aggregator = scoring.BootstrapAggregator()
        for reference, prediction in zip(references, predictions):
            aggregator.add_scores(scorer.score(reference, prediction))
        return {k: v.mid.fmeasure for k, v in aggregator.aggregate().items()}

    t0 = time.perf_counter()
    want = evaluate_style()
    t_theirs = time.perf_counter() - t0
    t0 = time.perf_counter()
    got = rouge_core.compute(predictions, references, seed=0)
    t_ours = time.perf_counter() - t0
    print(f"\ncompute() on {len(pairs)} pairs: rouge-score + BootstrapAggregator {t_theirs:.2f} s, "
          f"rouge_core.compute {t_ours:.2f} s ({t_theirs / t_ours:.1f}×); same numbers: {got == want}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
