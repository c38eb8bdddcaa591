"""Corpora of any size through `rouge-lens`: time and peak memory of a streamed run.

    python bench/bench_corpus.py                       # 10k, 100k, 1M pairs
    python bench/bench_corpus.py --sizes 10k 100k 1M 10M
    python bench/bench_corpus.py --sizes 10M            # the 10M row alone (about 16 GB of disk under --data)
    python bench/bench_corpus.py --gather              # also the Dask gather at 100,000 pairs
    python bench/bench_corpus.py --bootstrap-only 1M 10M   # the bootstrap alone, both paths

--bootstrap-only builds each size's statistics from synthetic counts of the 4 types (no
scoring) in a child process and times `CorpusResult.bootstrap` on the compiled kernel and on
the NumPy reference path (ROUGE_LENS_PURE=1): seconds per resample and the child's peak memory.

For each size, a JSON-lines file of that many summary pairs is generated (seeded: a pool of
synthetic pairs from bench/corpus_gen.py, drawn with replacement by a seeded generator; kept in
--data for the next run), then scored by

    rouge-lens --jsonl PAIRS.jsonl -m rouge1 rouge2 rougeL rougeLsum --bootstrap R --seed 0
               --workers W -f csv -o OUT.csv -q --no-cost-limit

in a child process, whose wall time, processor time (all its threads) and peak resident memory
(wait4's ru_usage) are printed as a table with the pairs per second, the statistics' bytes per
pair and method and the load average when the run ended (other jobs on the machine make the
wall time longer, hardly the processor time).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
POOL = 20_000


def parse_size(text: str) -> int:
    text = text.lower().replace(",", "").replace("_", "")
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1], 1)
    return int(float(text[:-1] if scale > 1 else text) * scale)


def label(n: int) -> str:
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1_000}k" if n % 1_000 == 0 else str(n)


def pairs_file(n: int, folder: str, seed: int = 0) -> str:
    """A JSON-lines file of n summary pairs ({"candidate", "reference"}), made once per (n, seed)."""
    from corpus_gen import summary_corpus

    path = os.path.join(folder, f"summary-pairs-{label(n)}-seed{seed}.jsonl")
    if os.path.exists(path):
        return path
    os.makedirs(folder, exist_ok=True)
    pool = [json.dumps({"candidate": c, "reference": r}, ensure_ascii=False) + "\n"
            for c, r in summary_corpus(min(n, POOL), seed=seed)]
    rng = random.Random(seed)
    partial = path + ".partial"
    with open(partial, "w", encoding="utf-8") as fh:
        for start in range(0, n, 100_000):
            fh.write("".join(rng.choices(pool, k=min(100_000, n - start))))
    os.replace(partial, path)
    return path


def run(path: str, out: str, resamples: int, workers: int) -> tuple[float, float, int, str]:
    """Wall seconds, processor seconds (user and system, all threads), peak resident bytes and
    stderr of one rouge-lens run in a child process."""
    argv = [sys.executable, "-m", "rouge_core", "--jsonl", path, "-m", *METHODS, "--bootstrap", str(resamples),
            "--seed", "0", "--workers", str(workers), "-f", "csv", "-o", out, "-q", "--no-cost-limit"]
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    err = child.stderr.read()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"rouge-lens failed ({child.returncode}): {err}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, err


def statistics_bytes(n: int) -> float:
    """The statistics' bytes per pair and method, measured on n pairs of the same generator."""
    sys.path.insert(0, ROOT)
    from corpus_gen import summary_corpus

    from rouge_core.corpora.corpus import score_corpus

    pairs = summary_corpus(n, seed=0)
    result = score_corpus(iter(c for c, _ in pairs), iter([r] for _, r in pairs), METHODS, "rouge-score")
    return result.statistics.nbytes / n / len(METHODS)


def gather_seconds(n: int = 100_000) -> tuple[float, bool]:
    """rouge_core.corpora.dask_support.corpus_result_from_stats on n pairs' gathered statistics (the
    statistics made in this process by score_partition, as a worker makes them)."""
    import pandas as pd

    sys.path.insert(0, ROOT)
    from corpus_gen import summary_corpus

    from rouge_core.corpora.corpus import score_corpus
    from rouge_core.corpora.dask_support import corpus_result_from_stats, score_partition
    from rouge_core.scorer.scoring import resolve_options

    pairs = summary_corpus(n, seed=0)
    frame = pd.DataFrame({"candidate": [c for c, _ in pairs], "reference": [r for _, r in pairs]})
    opts = resolve_options("rouge-score", {})
    stats = pd.concat([score_partition(part, METHODS, opts) for part in
                       (frame.iloc[i:i + 25_000] for i in range(0, n, 25_000))])
    start = time.perf_counter()
    result = corpus_result_from_stats(frame, stats, METHODS, opts)
    seconds = time.perf_counter() - start
    serial = score_corpus(list(frame.candidate), [[r] for r in frame.reference], METHODS, opts)
    same = all(result.array(m).tobytes() == serial.array(m).tobytes() for m in METHODS) and \
        repr(result.micro()) == repr(serial.micro())
    return seconds, same


def synthetic_result(n: int, seed: int = 0):
    """A CorpusResult of n pairs whose statistics are synthetic summary-like counts of the 4 types."""
    import numpy as np

    from rouge_core.corpora.corpus import CorpusResult
    from rouge_core.corpora.corpus_stats import CorpusStatistics, PairNumbers, derive_scores
    from rouge_core.scorer.scoring import resolve_options

    rng = np.random.default_rng(seed)
    opts = resolve_options("rouge-score", {})
    stats = CorpusStatistics(METHODS, opts)
    step = 1 << 20
    for lo in range(0, n, step):
        k = min(step, n - lo)
        arrays = {}
        for m in METHODS:  # candidate and reference lengths of summaries, hits up to the shorter
            cand, ref = rng.integers(20, 60, k).astype(np.float64), rng.integers(20, 60, k).astype(np.float64)
            hits = np.floor(np.minimum(cand, ref) * rng.random(k))
            arrays[m] = (derive_scores(hits, cand, ref, opts), (hits, cand, ref), np.ones(k, bool), 1.0, True)
        stats.append_arrays(k, arrays)
    stats.freeze()
    return CorpusResult(PairNumbers(n), (), (), tuple(METHODS), opts, statistics=stats)


def bootstrap_child(n: int, resamples: int) -> None:
    """In the child: build, then bootstrap; prints the build and bootstrap seconds (wall, and the
    processor time of all threads: on a machine shared with other jobs the wall time waits for
    them)."""
    from rouge_core import UNBOUNDED

    start = time.perf_counter()
    result = synthetic_result(n)
    built = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    result.bootstrap(resamples, seed=0, cost_limit=UNBOUNDED)
    print(json.dumps({"built": built, "bootstrap": time.perf_counter() - start, "cpu": time.process_time() - cpu}))


def bootstrap_only(sizes: list[int], resamples: int, pure_resamples: int) -> None:
    print(f"the bootstrap alone (statistics of {len(METHODS)} types from synthetic counts, cores: {os.cpu_count()})")
    print(f"{'pairs':>10} {'path':>9} {'resamples':>9} {'s/resample':>10} {'cpu s/res.':>10} {'build s':>8} "
          f"{'peak MB':>8}")
    for n in sizes:
        for path, count in (("compiled", resamples), ("numpy", pure_resamples)):
            if count <= 0:
                continue
            env = dict(os.environ, **({"ROUGE_LENS_PURE": "1"} if path == "numpy" else {}))
            child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--bootstrap-child", str(n), str(count)],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
            _, status, usage = os.wait4(child.pid, 0)
            if os.waitstatus_to_exitcode(status):
                raise SystemExit(f"the bootstrap child failed at {n} pairs ({path})")
            times = json.loads(child.stdout.read())
            print(f"{n:>10,} {path:>9} {count:>9} {times['bootstrap'] / count:>10.3f} {times['cpu'] / count:>10.3f} "
                  f"{times['built']:>8.1f} "
                  f"{usage.ru_maxrss * 1024 / 1e6:>8.0f}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", nargs="+", default=["10k", "100k", "1M"], help="pairs per run (10k 100k 1M 10M)")
    p.add_argument("--resamples", type=int, default=1000, help="--bootstrap resamples (default 1000)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--data", default=os.path.join(ROOT, "test-artifacts", "bench-corpus"),
                   help="where the generated pairs and outputs are kept")
    p.add_argument("--gather", action="store_true", help="also time the Dask gather of 100,000 pairs")
    p.add_argument("--bootstrap-only", nargs="+", metavar="SIZE",
                   help="time only the bootstrap of synthetic statistics of these sizes (no scoring)")
    p.add_argument("--pure-resamples", type=int, default=3,
                   help="with --bootstrap-only: resamples on the NumPy path (0: skip it; default 3)")
    p.add_argument("--bootstrap-child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.bootstrap_child:
        sys.path.insert(0, ROOT)
        bootstrap_child(*args.bootstrap_child)
        return
    if args.bootstrap_only:
        bootstrap_only([parse_size(s) for s in args.bootstrap_only], args.resamples, args.pure_resamples)
        return
    sizes = [parse_size(s) for s in args.sizes]
    print(f"rouge-lens --jsonl PAIRS -m {' '.join(METHODS)} --bootstrap {args.resamples} --workers {args.workers} "
          f"-f csv -o OUT.csv (cores: {os.cpu_count()})")
    print(f"statistics: {statistics_bytes(2_000):.1f} bytes per pair and method (bound: 64)")
    print(f"{'pairs':>10} {'seconds':>9} {'cpu s':>9} {'pairs/s':>9} {'s per 1M':>9} {'peak MB':>8} {'output MB':>9} "
          f"{'load':>5}")
    for n in sizes:
        path = pairs_file(n, args.data)
        out = os.path.join(args.data, f"scores-{label(n)}.csv")
        seconds, cpu, peak, _ = run(path, out, args.resamples, args.workers)
        # the load average over the run's last minute: on a shared machine the wall time waits for the others
        print(f"{n:>10,} {seconds:>9.1f} {cpu:>9.1f} {n / seconds:>9,.0f} {seconds / n * 1e6:>9.1f} {peak / 1e6:>8.0f} "
              f"{os.path.getsize(out) / 1e6:>9.0f} {os.getloadavg()[0]:>5.1f}", flush=True)
        os.unlink(out)
    if args.gather:
        seconds, same = gather_seconds()
        print(f"Dask gather (corpus_result_from_stats) of 100,000 pairs: {seconds:.3f} s "
              f"({'identical' if same else 'DIFFERENT'} per-pair and micro numbers to score_corpus)")


if __name__ == "__main__":
    main()
