"""Measure what each ROUGE method costs on this machine, against what rouge_core.cost estimates.

    python bench/calibrate_costs.py            # every family, a few sizes each (about 2 minutes)
    python bench/calibrate_costs.py --family S  # one family

For every family (N, L, Lsum, Lbest, W in both forms, S, SU), with and without evidence, it
scores worst-case-shaped inputs of growing size (texts drawn from a small vocabulary, so
that LCS rows always match; all-distinct tokens for skip-bigrams, so that every gram is a
new dictionary entry) and prints:

    seconds     the best of a few timed runs (no tracemalloc)
    peak MB     the peak over one more run (bench/memory.py: tracemalloc's, or the resident
                set's rise where the compiled kernels' C allocations are larger)
    est s/MB    rouge_core.cost.estimate for the same input
    ratio       estimate / measured (the estimate is meant to be at or above 1)

The constants in rouge_core/cost.py were fitted from this output (per-unit costs taken from
the largest sizes, rounded up); the output of the run they came from is recorded there.
It measures the path that is active (rouge_core.native: the compiled kernels when built;
ROUGE_LENS_PURE=1 for the pure path's constants). Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from memory import peak_bytes  # noqa: E402

from rouge_core import cost, native  # noqa: E402
from rouge_core.cost import UNBOUNDED  # noqa: E402
from rouge_core.options import profile  # noqa: E402
from rouge_core.scoring import score_documents  # noqa: E402
from rouge_core.document import pretokenized  # noqa: E402


def words(n: int, vocab: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [f"w{rng.randrange(vocab)}" for _ in range(n)]


def sentences(tokens: list[str], length: int) -> list[list[str]]:
    return [tokens[i:i + length] for i in range(0, len(tokens), length)] or [[]]


def measure(cand, ref, method: str, options, evidence: bool, repeats: int) -> tuple[float, float]:
    def run():
        score_documents(cand, (ref,), [method], options, evidence=evidence, cost_limit=UNBOUNDED)

    best = float("inf")
    for _ in range(repeats):
        fresh_c, fresh_r = pretokenized(cand.sentence_terms()), pretokenized(ref.sentence_terms())
        gc.collect()
        t0 = time.perf_counter()
        score_documents(fresh_c, (fresh_r,), [method], options, evidence=evidence, cost_limit=UNBOUNDED)
        best = min(best, time.perf_counter() - t0)
    fresh_c, fresh_r = pretokenized(cand.sentence_terms()), pretokenized(ref.sentence_terms())
    peak = peak_bytes(lambda: score_documents(fresh_c, (fresh_r,), [method], options, evidence=evidence,
                                              cost_limit=UNBOUNDED))
    del run
    return best, peak


# (family label, method, profile, [(candidate sentences, reference sentences)], repeats)
def cases(sizes_scale: float):
    def sized(n):
        return max(1, int(n * sizes_scale))

    def pair(n_c, n_r, vocab, sentence_len=None, seed=0, shared=False):
        c, r = words(sized(n_c), vocab, seed), words(sized(n_r), vocab, seed + 1)
        if shared:  # the reference: the candidate's tokens shuffled (every token on both sides)
            r = random.Random(seed + 2).sample(c, len(c))[:len(r)]
        if sentence_len:
            return sentences(c, sentence_len), sentences(r, sentence_len)
        return [c], [r]

    yield "N1", "rouge1", "rouge-score", [pair(n, n, 10**9) for n in (20_000, 100_000, 400_000)], 3
    yield "N2", "rouge2", "rouge-score", [pair(n, n, 10**9) for n in (20_000, 100_000, 400_000)], 3
    # the compiled kernels count only grams of tokens both sides have: their worst case
    yield "N2 shared", "rouge2", "rouge-score", [pair(n, n, 10**9, shared=True) for n in (20_000, 100_000, 400_000)], 3
    yield "N8", "rouge8", "rouge-score", [pair(n, n, 10**9) for n in (20_000, 100_000)], 3
    yield "N100", "rouge100", "rouge-score", [pair(n, n, 10**9) for n in (2_000, 10_000)], 3
    yield "L", "rougeL", "rouge-score", [pair(n, n, 20) for n in (2_000, 8_000, 20_000)], 2
    yield "Lsum 1 sentence", "rougeLsum", "rouge-score", [pair(n, n, 20) for n in (2_000, 8_000, 16_000)], 2
    yield "Lsum 20-token sentences", "rougeLsum", "rouge-score", [pair(n, n, 20, 20) for n in (2_000, 4_000, 8_000)], 1
    yield "Lsum 1-token sentences", "rougeLsum", "rouge-score", [pair(n, n, 20, 1) for n in (1_000, 4_000)], 2
    yield "Lbest 20-token sentences", "rougeLsum-best", "reval", [pair(n, n, 20, 20) for n in (1_000, 4_000)], 2
    yield "Lbest 1-token sentences", "rougeLsum-best", "reval", [pair(n, n, 20, 1) for n in (300, 1_000)], 2
    yield "Lbest 1 sentence", "rougeLsum-best", "reval", [pair(n, n, 20) for n in (2_000, 8_000)], 2
    yield "W paper small", "rougeW-1.2", "rouge-score", [pair(n, 60, 20) for n in (100, 1_000, 5_000)], 2
    yield "W paper", "rougeW-1.2", "rouge-score", [pair(n, n, 20) for n in (1_000, 3_000, 6_000)], 2
    yield "W rouge155", "rougeW-1.2", "rouge-1.5.5", [pair(n, n, 20, 20) for n in (1_000, 3_000, 6_000)], 2
    yield "W rouge155 short sentences", "rougeW-1.2", "rouge-1.5.5", [pair(n, n, 20, 3) for n in (300, 1_000)], 2
    yield "S4", "rougeS4", "rouge-score", [pair(n, n, 10**9) for n in (20_000, 100_000, 200_000)], 2
    yield "S4 shared", "rougeS4", "rouge-score", [pair(n, n, 10**9, shared=True) for n in (20_000, 100_000, 200_000)], 2
    yield "S* shared", "rougeS*", "rouge-score", [pair(n, n, 10**9, shared=True) for n in (500, 1_000, 2_000)], 1
    yield "S*", "rougeS*", "rouge-score", [pair(n, n, 10**9) for n in (500, 1_000, 2_000)], 1
    yield "SU*", "rougeSU*", "rouge-1.5.5", [pair(n, n, 10**9) for n in (500, 1_000, 2_000)], 1
    yield "S* 40 words", "rougeS*", "rouge-score", [pair(n, n, 40) for n in (1_000, 2_000, 3_000)], 1
    yield "S* 1000 words", "rougeS*", "rouge-score", [pair(n, n, 1000) for n in (1_000, 2_000)], 1
    yield "SU4 start-token", "rougeSU4", "matlab", [pair(n, n, 10**9) for n in (20_000, 100_000)], 2


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", help="only cases whose label starts with this")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size (e.g. 0.5 for a quick look)")
    args = parser.parse_args(argv)
    print(f"path: {native.describe()}")
    print(f"{'case':<28} {'ev':>3} {'tokens':>15} {'units':>22} {'seconds':>9} {'est s':>8} {'ratio':>6}"
          f" {'peak MB':>9} {'est MB':>8} {'ratio':>6}")
    worst_time = worst_mem = float("inf")
    for label, method, profile_name, pairs, repeats in cases(args.scale):
        if args.family and not label.startswith(args.family):
            continue
        options = profile(profile_name)
        for evidence in (False, True):
            for cand_sents, ref_sents in pairs:
                cand, ref = pretokenized(cand_sents), pretokenized(ref_sents)
                seconds, peak = measure(cand, ref, method, options, evidence, repeats)
                est = cost.estimate(method, cand, [ref], options, evidence=evidence)
                t_ratio, m_ratio = est.seconds / seconds, est.peak_bytes / max(peak, 1)
                worst_time, worst_mem = min(worst_time, t_ratio), min(worst_mem, m_ratio)
                sizes = f"{len(cand)}/{len(ref)}"
                print(f"{label:<28} {'yes' if evidence else 'no':>3} {sizes:>15} {est.count:>13,} {est.unit[:8]:>8}"
                      f" {seconds:>9.4f} {est.seconds:>8.4f} {t_ratio:>6.2f} {peak / 2**20:>9.1f}"
                      f" {est.peak_bytes / 2**20:>8.1f} {m_ratio:>6.2f}", flush=True)
    print(f"\nlowest estimate/measured ratio: time {worst_time:.2f}, memory {worst_mem:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
