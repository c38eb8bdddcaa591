"""How well the batch (rouge_core.corpora.batch.score_batch) uses a second thread: the bench's
summary and long corpora scored with workers=1 and workers=2 in interleaved rounds, with and
without Porter stemming, beside the machine's own two-thread ceiling in the same rounds (a
trivially parallel C loop: bench_rouge.parallel_ceiling). A measuring script, not a test:

    python bench/batch_scaling.py                 # every case, 7 rounds
    python bench/batch_scaling.py --case long --rounds 11
    BATCH_SCALING_ROOT=/path/to/other/checkout python bench/batch_scaling.py   # that checkout's build

Per case: wall time per pass (median, best) for 1 and 2 workers, the ratio 1 worker / 2
workers (median of the rounds' ratios, and best / best), the CPU time per pass (2 workers
spend more CPU than 1 when they contend: a lock, a shared cache line, the allocator), the
ceiling's ratio in the same rounds, and the serial share of one worker's CPU (this thread
outside the kernels' job, with the Amdahl bound it sets; by the thread's CPU clock, so load
does not change it; bench_rouge.gil_free_share). The load average (`uptime`) before and after.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# the checkout whose rouge_core is measured (another one's, e.g. main's, to compare builds)
sys.path.insert(0, os.environ.get("BATCH_SCALING_ROOT") or os.path.dirname(HERE))
sys.path.insert(0, HERE)

import rouge_core  # noqa: E402
from bench_rouge import gil_free_share, parallel_ceiling  # noqa: E402
from corpus_gen import long_corpus, summary_corpus  # noqa: E402
from rouge_core.corpora.batch import score_batch  # noqa: E402
from rouge_core.kernels import native  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
CASES = {  # name: (corpus, stemmer)
    "summary": ("summary", "none"),
    "summary-porter": ("summary", "porter"),
    "long": ("long", "none"),
    "long-porter": ("long", "porter"),
}


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "load average: %.2f, %.2f, %.2f" % os.getloadavg()


def measure(name: str, pairs, stemmer: str, rounds: int, seconds: float) -> dict:
    cands = [c for c, _ in pairs]
    refs = [[r] for _, r in pairs]
    opts = rouge_core.profile("rouge-score", stemmer=stemmer)
    score_batch(cands, refs, TYPES, opts, workers=2)  # warm: plans, stems, the pool's thread
    gc.collect()
    t0 = time.perf_counter()
    score_batch(cands, refs, TYPES, opts, workers=1)
    one = time.perf_counter() - t0
    passes = max(1, round(seconds / one))
    ceiling = parallel_ceiling(one * passes)
    wall = {1: [], 2: []}
    cpu = {1: [], 2: []}
    loop = {1: [], 2: []}
    for r in range(rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)  # neither always first
        for workers in order:
            gc.collect()
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(passes):
                score_batch(cands, refs, TYPES, opts, workers=workers)
            wall[workers].append((time.perf_counter() - t0) / passes)
            cpu[workers].append((time.process_time() - c0) / passes)
        for threads in order:
            t0 = time.perf_counter()
            ceiling(threads)
            loop[threads].append(time.perf_counter() - t0)
    median_ratio = statistics.median(a / b for a, b in zip(wall[1], wall[2]))
    best_ratio = min(wall[1]) / min(wall[2])
    ceiling_ratio = statistics.median(a / b for a, b in zip(loop[1], loop[2]))
    cpu_ratio = statistics.median(cpu[2]) / statistics.median(cpu[1])
    # this thread's CPU outside the kernels' job, by its own clock (load does not change it)
    serial = 1 - gil_free_share(cands, refs, TYPES, opts)
    print(f"{name:<15} {len(pairs):>6} pairs x{passes:<3} "
          f"1w {statistics.median(wall[1]) * 1e3:8.1f} ms (best {min(wall[1]) * 1e3:7.1f})  "
          f"2w {statistics.median(wall[2]) * 1e3:8.1f} ms (best {min(wall[2]) * 1e3:7.1f})  "
          f"ratio median {median_ratio:.2f}x best {best_ratio:.2f}x  ceiling {ceiling_ratio:.2f}x  "
          f"CPU 1w {statistics.median(cpu[1]) * 1e3:7.1f} ms 2w {statistics.median(cpu[2]) * 1e3:7.1f} ms "
          f"(2w/1w {cpu_ratio:.2f})  serial {serial:.1%} (Amdahl <= {1 / (serial + (1 - serial) / 2):.2f}x)",
          flush=True)
    return {"median": median_ratio, "best": best_ratio, "ceiling": ceiling_ratio, "cpu": cpu_ratio, "serial": serial}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="a case (repeatable; default: all)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--summary", type=int, default=10_000, help="summary pairs (the bench's full run: 10,000)")
    ap.add_argument("--long", type=int, default=500, help="long pairs (the bench's full run: 500)")
    ap.add_argument("--seconds", type=float, default=0.4, help="about how long one timing takes on one worker")
    args = ap.parse_args(argv)
    print(f"rouge_core at {os.path.dirname(rouge_core.__file__)}, path: {native.describe()}")
    print("before:", uptime(), flush=True)
    corpora = {"summary": summary_corpus(args.summary), "long": long_corpus(args.long)}
    for name in args.case or list(CASES):
        corpus, stemmer = CASES[name]
        measure(name, corpora[corpus], stemmer, args.rounds, args.seconds)
    print("after:", uptime())


if __name__ == "__main__":
    main()
