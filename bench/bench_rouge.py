"""ROUGE Lens benchmark: rouge_core against rouge-score and any other installed peer.

Run from the repository root:

    python bench/bench_rouge.py            # full run (10,000 summary pairs, 500 long pairs)
    python bench/bench_rouge.py --quick    # smaller corpora, same report

Every implementation scores from strings (tokenization included), interleaved block by
block in the same process so machine noise hits all of them alike; numbers are compared
with rouge-score's on every pair. Peak memory is measured in a separate tracemalloc pass
over a slice of the corpus (tracemalloc slows everything down, so it is not timed).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import platform
import sys
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import rouge_core  # noqa: E402
from corpus_gen import long_corpus, make_pairs, summary_corpus  # noqa: E402
from rouge_core.scoring import prepare, score_documents  # noqa: E402

OURS = "rouge_core"
REFERENCE = "rouge-score"
PEER_MODULES = {"rouge-score": "rouge_score", "rapidrouge": "rapidrouge", "rouge-score-rs": "rouge_score_rs"}
SETS = [["rouge1"], ["rouge2"], ["rougeL"], ["rougeLsum"], ["rouge1", "rouge2", "rougeL", "rougeLsum"]]


def load_peers() -> dict:
    peers = {}
    for label, module in PEER_MODULES.items():
        try:
            peers[label] = importlib.import_module(module + ".rouge_scorer")
        except Exception as exc:  # not installed or broken: skip
            print(f"  (peer {label} unavailable: {type(exc).__name__}: {exc})")
    return peers


def make_runners(types, peers):
    opts = rouge_core.profile("rouge-score")

    def ours(pairs):
        out = []
        for cand, ref in pairs:
            res = rouge_core.score(cand, [ref], types, opts, evidence=False)
            out.append(tuple((m.precision, m.recall, m.fmeasure) for m in res))
        return out

    runners = {OURS: ours}
    for label, mod in peers.items():
        scorer = mod.RougeScorer(types, use_stemmer=False)

        def peer(pairs, scorer=scorer):
            out = []
            for cand, ref in pairs:
                res = scorer.score(ref, cand)
                out.append(tuple((res[t].precision, res[t].recall, res[t].fmeasure) for t in types))
            return out

        runners[label] = peer
    return runners


def timed_interleaved(runners: dict, pairs, block: int):
    """Each implementation scores the corpus block by block, taking turns."""
    elapsed = {k: 0.0 for k in runners}
    results = {k: [] for k in runners}
    for start in range(0, len(pairs), block):
        chunk = pairs[start : start + block]
        for name, run in runners.items():
            gc.collect()
            t0 = time.perf_counter()
            out = run(chunk)
            elapsed[name] += time.perf_counter() - t0
            results[name].extend(out)
    return elapsed, results


def peak_memory(run, pairs) -> float:
    gc.collect()
    tracemalloc.start()
    run(pairs)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def corpus_section(title, pairs, peers, block, mem_pairs, sets=SETS):
    print(f"\n== {title}: {len(pairs)} pairs ==")
    header = f"{'methods':34s} {'impl':15s} {'pairs/s':>10s} {'vs rouge-score':>15s} {'peak MiB':>9s} {'identical':>10s}"
    print(header)
    summary = {}
    for types in sets:
        runners = make_runners(types, peers)
        elapsed, results = timed_interleaved(runners, pairs, block)
        ref_time = elapsed.get(REFERENCE)
        for name in runners:
            rate = len(pairs) / elapsed[name]
            ratio = f"{ref_time / elapsed[name]:.1f}x" if ref_time else "-"
            mem = peak_memory(runners[name], pairs[:mem_pairs])
            if REFERENCE in results:
                same = sum(a == b for a, b in zip(results[name], results[REFERENCE]))
                ident = "all" if same == len(pairs) else f"{len(pairs) - same} DIFFER"
            else:
                ident = "-"
            print(f"{'+'.join(types):34s} {name:15s} {rate:10.1f} {ratio:>15s} {mem:9.2f} {ident:>10s}")
        peers_only = {k: v for k, v in elapsed.items() if k != OURS}
        if peers_only:
            fastest = min(peers_only, key=peers_only.get)
            print(f"{'':34s} vs fastest peer ({fastest}): {peers_only[fastest] / elapsed[OURS]:.2f}x")
        summary["+".join(types)] = (ref_time / elapsed[OURS]) if ref_time else None
    return summary


REPEATS = 5  # single-run sections report the best of this many runs (other load only adds time)


def evidence_section(tokens: int) -> float:
    """All methods with evidence on one long pair, tokenization included; returns the slower
    profile's best total."""
    print(f"\n== all methods with evidence, one {tokens}-token pair (best of {REPEATS}) ==")
    cand, ref = make_pairs(1, sentences=max(1, tokens // 25), tokens=tokens, seed=7)[0]
    methods = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
    worst = 0.0
    for name in ("rouge-score", "rouge-1.5.5"):
        opts = rouge_core.profile(name)
        best = None
        for _ in range(REPEATS):
            gc.collect()
            t0 = time.perf_counter()
            c, r = prepare(cand, opts), prepare(ref, opts)
            times = {"tokenize": time.perf_counter() - t0}
            for m in methods:
                t1 = time.perf_counter()
                score_documents(c, (r,), [m], opts, evidence=True)
                times[m] = time.perf_counter() - t1
            if best is None or sum(times.values()) < sum(best.values()):
                best = times
        total = sum(best.values())
        worst = max(worst, total)
        parts = ", ".join(f"{k} {v * 1000:.1f}" for k, v in best.items())
        print(f"profile {name}: {len(c)}/{len(r)} tokens; total {total:.3f} s ({parts} ms)")
    return worst


def best_time(run) -> float:
    best = None
    for _ in range(REPEATS):
        gc.collect()
        t0 = time.perf_counter()
        run()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def sweep_section(pairs) -> float:
    """20 parameter values over the same texts: tokenization happens once and is reused.
    Returns the time of the 20-value sweep over all pairs."""
    print(f"\n== parameter sweep: 20 values on {len(pairs)} summary pairs (best of {REPEATS}) ==")
    opts = rouge_core.profile("rouge-score")
    sweep = [f"rougeS{d}" for d in range(1, 11)] + [f"rougeW-{1 + k / 10:g}" for k in range(1, 11)]

    def sweep_all():
        docs = [(prepare(c, opts), (prepare(r, opts),)) for c, r in pairs]
        for cand, refs in docs:
            score_documents(cand, refs, sweep, opts, evidence=False)

    dt = best_time(sweep_all)
    print(f"rougeS1..S10 + rougeW-1.1..2.0 (20 values): {dt:.3f} s total, {dt / len(pairs) * 1000:.2f} ms per pair")
    one = pairs[0]
    one_dt = best_time(lambda: score_documents(prepare(one[0], opts), (prepare(one[1], opts),), sweep, opts, evidence=True))
    print(f"one pair, 20 values with evidence: {one_dt:.4f} s")
    docs = [(prepare(c, opts), (prepare(r, opts),)) for c, r in pairs]
    betas = [0.25 * k for k in range(1, 21)]

    def beta_sweep():
        for cand, refs in docs:
            for beta in betas:
                score_documents(cand, refs, ["rouge1", "rougeL"], opts.with_beta(beta), evidence=False)

    print(f"rouge1+rougeL over 20 beta values: {best_time(beta_sweep):.3f} s total")
    return dt


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}; nproc {os.cpu_count()}; Python {platform.python_version()}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1,000 summary and 50 long pairs")
    ap.add_argument("--summary", type=int, default=None)
    ap.add_argument("--long", type=int, default=None)
    args = ap.parse_args(argv)
    n_summary = args.summary or (1000 if args.quick else 10_000)
    n_long = args.long or (50 if args.quick else 500)
    print("machine:", machine())
    print("rouge_core", rouge_core.__version__)
    peers = load_peers()
    print("peers:", ", ".join(peers) or "none")
    t0 = time.perf_counter()
    summary = summary_corpus(n_summary)
    long = long_corpus(n_long)
    print(f"corpora generated in {time.perf_counter() - t0:.1f} s (seeded)")
    s = corpus_section("summary corpus (~60 tokens, 3 sentences)", summary, peers, block=500, mem_pairs=200)
    sets_long = SETS if n_long <= 100 else [["rougeL"], ["rougeLsum"], SETS[-1]]
    lo = corpus_section("long corpus (~700 tokens, 30 sentences)", long, peers, block=10, mem_pairs=5, sets=sets_long)
    evidence = evidence_section(2000)
    sweep = sweep_section(summary[:50])
    print("\n== targets ==")
    print(f"summary, 4 methods together: {s.get('rouge1+rouge2+rougeL+rougeLsum') or 0:.1f}x rouge-score (target >= 10x)")
    print(f"long, rougeL: {lo.get('rougeL') or 0:.1f}x (target >= 100x)")
    print(f"long, rougeLsum: {lo.get('rougeLsum') or 0:.1f}x (target >= 5x)")
    print(f"all methods with evidence, 2,000-token pair: {evidence:.3f} s (target < 0.3 s)")
    print(f"sweep of 20 parameter values, 50 pairs: {sweep:.3f} s (target < 1 s)")


if __name__ == "__main__":
    main()
