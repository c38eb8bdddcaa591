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
does not change it). The load average (`uptime`) before and after.
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
from bench_rouge import parallel_ceiling  # noqa: E402
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


def serial_share(cands, refs, opts, tries: int = 7) -> float:
    """Of one worker's CPU time in score_batch, the share this thread spends outside the kernels'
    job (BatchJob.run, GIL released): Python, reading the texts, making the job. A second thread
    cannot share it (on 2 workers the head-first job overlaps part of it with the pool thread's
    scoring, so it bounds the serial part from above). Median of `tries`, by this thread's CPU
    clock: other load on the machine does not change it."""
    real = native.batch_job
    inside = [0.0]

    class TimedJob:
        def __init__(self, job):
            self.job = job

        def run(self, *args):
            t0 = time.thread_time()
            try:
                return self.job.run(*args)
            finally:
                inside[0] += time.thread_time() - t0

        def __getattr__(self, name):
            return getattr(self.job, name)

    shares = []
    native.batch_job = lambda *args: TimedJob(real(*args))
    try:
        kept = None
        for _ in range(tries):
            inside[0] = 0.0
            t0 = time.thread_time()
            kept = score_batch(cands, refs, TYPES, opts, workers=1)  # the last result freed here, as in a loop
            total = time.thread_time() - t0
            shares.append(1 - inside[0] / total if total > 0 else 0.0)
        del kept
    finally:
        native.batch_job = real
    return statistics.median(shares)


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
    serial = serial_share(cands, refs, opts)
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
