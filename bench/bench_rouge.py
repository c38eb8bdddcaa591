"""ROUGE Lens benchmark: rouge_core against rouge-score and any other installed peer.

Run from the repository root:

    python bench/bench_rouge.py            # full run (10,000 summary pairs, 500 long pairs)
    python bench/bench_rouge.py --quick    # smaller corpora, same report
    python bench/bench_rouge.py --quick --evidence-cost   # only score() with and without evidence

It times rouge_core.score without evidence (and, against it, with evidence and as called with no
evidence argument: issue 34 lets the default cost at most 1.5x) and the rouge-score drop-in
(rouge_core.compat.rouge_score) against rouge-score-rs (pip install rouge-score-rs) on single
types and with 4 references, with Porter stemming (use_stemmer=True), the batch on 1 and 2 threads
(summary and long pairs, and summary pairs with stemming), and
compare_systems at 10,000 pairs (1,000 + 1,000 resamples), each against issue 34's targets.

Every implementation scores from strings (tokenization included), interleaved block by
block in the same process so machine noise hits all of them alike (each block's best of three
tries counts for the fast implementations; the slow reference runs it once); numbers are compared
with rouge-score's on every pair. Peak memory is measured in a separate, untimed pass
(bench/memory.py: Python and C allocations). The report says which path computed
(rouge_core.kernels.native: the compiled kernels or pure Python; ROUGE_LENS_PURE=1 for the latter)
and the machine's load average, since other load stretches every timing.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import hashlib
import importlib
import math
import importlib.metadata
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import rouge_core  # noqa: E402
from corpus_gen import (a_third_accented, in_script, long_corpus, make_multi_reference, make_pairs,  # noqa: E402
                        one_word_accented, summary_corpus)
from memory import peak_bytes  # noqa: E402
from rouge_core.scorer import cost  # noqa: E402
from rouge_core.kernels import native  # noqa: E402
from rouge_core.corpora.batch import score_batch  # noqa: E402
from rouge_core.compat.rouge_score.rouge_scorer import RougeScorer as DropinScorer  # noqa: E402
from rouge_core.corpora.corpus import compare_systems  # noqa: E402
from rouge_core.scorer.scoring import prepare, score_documents  # noqa: E402

OURS = "rouge_core"
DROPIN = "drop-in"  # rouge_core.compat.rouge_score's RougeScorer
REFERENCE = "rouge-score"
PEER_MODULES = {"rouge-score": "rouge_score", "rapidrouge": "rapidrouge", "rouge-score-rs": "rouge_score_rs"}
PEER_DISTRIBUTIONS = {"rouge-score": "rouge-score", "rapidrouge": "rapidrouge", "rouge-score-rs": "rouge-score-rs"}
FASTEST_RS = "rouge-score-rs"
XLSUM = "multilingual-rouge"  # XL-Sum's scorer, the multilingual profile's reference
SLOW_REFERENCES = {REFERENCE, XLSUM}  # about 100 times slower: each block once
SETS = [["rouge1"], ["rouge2"], ["rougeL"], ["rougeLsum"], ["rouge1", "rouge2", "rougeL", "rougeLsum"]]


def load_peers() -> dict:
    peers = {}
    for label, module in PEER_MODULES.items():
        try:
            peers[label] = importlib.import_module(module + ".rouge_scorer")
        except Exception as exc:  # not installed or broken: skip
            print(f"  (peer {label} unavailable: {type(exc).__name__}: {exc})")
    return peers


def make_runners(types, peers, multi: bool = False, stem: bool = False) -> dict:
    """Per implementation, a function scoring a list of pairs into (P, R, F) per type: pairs of
    (candidate, reference), or with `multi` (candidate, references) through `score_multi`.
    Ours: rouge_core.score without evidence (best F over references: the profile's rule) and
    the rouge-score drop-in. With `stem`, everyone stems with Porter (use_stemmer=True: NLTK's
    Porter on words longer than 3 characters, the rouge-score profile's stemmer "porter")."""
    opts = rouge_core.profile("rouge-score", stemmer="porter" if stem else "none")

    def triples(res) -> tuple:
        return tuple((res[t].precision, res[t].recall, res[t].fmeasure) for t in types)

    def ours(pairs):
        return [triples(rouge_core.score(c, refs if multi else [refs], types, opts, evidence=False)) for c, refs in pairs]

    def through(scorer):
        if multi:
            return lambda pairs: [triples(scorer.score_multi(refs, c)) for c, refs in pairs]
        return lambda pairs: [triples(scorer.score(ref, c)) for c, ref in pairs]

    runners = {OURS: ours, DROPIN: through(DropinScorer(types, use_stemmer=stem))}
    for label, mod in peers.items():
        runners[label] = through(mod.RougeScorer(types, use_stemmer=stem))
    return runners


CLOCK = time.perf_counter  # the per-pair sections' clock (--cpu-clock: this process's CPU time)


def timed_interleaved(runners: dict, pairs, block: int, tries: int = 3):
    """Each implementation scores the corpus block by block, taking turns; each block is timed
    `tries` times per implementation (in turns too) and its best time counts, so a burst of
    other load lands on one try instead of on one implementation's total. The slow reference
    (rouge-score, about 100 times slower) runs each block once: its own time dwarfs any burst."""
    elapsed = {k: 0.0 for k in runners}
    results = {k: [] for k in runners}
    settle_heap()
    for start in range(0, len(pairs), block):
        chunk = pairs[start : start + block]
        best = {k: float("inf") for k in runners}
        for attempt in range(tries):
            for name, run in runners.items():
                if attempt and name in SLOW_REFERENCES:
                    continue
                gc.collect()
                t0 = CLOCK()
                out = run(chunk)
                best[name] = min(best[name], CLOCK() - t0)
                if not attempt:
                    results[name].extend(out)
        for name in runners:
            elapsed[name] += best[name]
    return elapsed, results


def settle_heap() -> None:
    """Collect, then move every object alive now (the corpora, earlier sections' results) out of
    the collector's reach (gc.freeze): the collection before each timing then walks only what
    the timed code left, instead of the whole heap, which would evict the caches and add a
    fixed ~0.15 ms to every timed block whatever implementation runs in it (on the long
    corpus's blocks of 10 pairs, a quarter of the fastest ones' time)."""
    gc.collect()
    gc.freeze()


def peak_memory(run, pairs) -> float:
    return peak_bytes(lambda: run(pairs)) / 2**20


def peer_versions(peers) -> str:
    out = []
    for label in peers:
        try:
            out.append(f"{label} {importlib.metadata.version(PEER_DISTRIBUTIONS[label])}")
        except importlib.metadata.PackageNotFoundError:
            out.append(label)
    return ", ".join(out) or "none"


def load() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def corpus_section(title, pairs, peers, block, mem_pairs, sets=SETS, stem: bool = False):
    print(f"\n== {title}: {len(pairs)} pairs ==")
    header = f"{'methods':34s} {'impl':15s} {'pairs/s':>10s} {'vs rouge-score':>15s} {'peak MiB':>9s} {'identical':>10s}"
    print(header)
    summary = {}
    for types in sets:
        runners = make_runners(types, peers, stem=stem)
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
        if FASTEST_RS in results and REFERENCE in results:
            rs_same = sum(a == b for a, b in zip(results[FASTEST_RS], results[REFERENCE]))
            if rs_same != len(pairs):
                print(f"{'':34s} ({FASTEST_RS} differs from rouge-score on {len(pairs) - rs_same} pairs)")
        summary["+".join(types)] = {**_summary_of(elapsed, results), "rate": len(pairs) / elapsed[OURS]}
    return summary


def _summary_of(elapsed: dict, results: dict) -> dict:
    """Ours (score without evidence, and the drop-in) against the peers: the speed ratios, and
    whether every pair's numbers are identical to rouge-score's (to rouge-score-rs's without it)."""
    peers_only = {k: v for k, v in elapsed.items() if k not in (OURS, DROPIN)}
    if peers_only:
        fastest = min(peers_only, key=peers_only.get)
        print(f"{'':34s} vs fastest peer ({fastest}): score {peers_only[fastest] / elapsed[OURS]:.2f}x, drop-in "
              f"{peers_only[fastest] / elapsed[DROPIN]:.2f}x")
    truth = REFERENCE if REFERENCE in results else FASTEST_RS if FASTEST_RS in results else None
    ref_time = elapsed.get(REFERENCE)
    return {
        "vs rouge-score": (ref_time / elapsed[OURS]) if ref_time else None,
        "vs rouge-score-rs": (elapsed[FASTEST_RS] / elapsed[OURS]) if FASTEST_RS in elapsed else None,
        "drop-in vs rouge-score-rs": (elapsed[FASTEST_RS] / elapsed[DROPIN]) if FASTEST_RS in elapsed else None,
        "identical": truth is None or all(results[name] == results[truth] for name in (OURS, DROPIN)),
        "results": results[OURS],
    }


def multi_reference_section(n: int, references: int, peers: dict, block: int = 100) -> dict:
    """Summary-sized pairs with `references` references each (one hidden source rewritten):
    rouge_core.score without evidence (best F over the references: the rouge-score profile's
    multi_ref) and the drop-in's score_multi against the peers' score_multi."""
    print(f"\n== {references} references per candidate: {n} candidates (~60 tokens, 3 sentences) ==")
    print(f"{'methods':34s} {'impl':15s} {'pairs/s':>10s} {'vs rouge-score':>15s} {'identical':>10s}")
    pairs = [make_multi_reference(60, 3, references, seed=i) for i in range(n)]
    out = {}
    for types in SETS:
        runners = make_runners(types, peers, multi=True)
        elapsed, results = timed_interleaved(runners, pairs, block)
        ref_time = elapsed.get(REFERENCE)
        for name in runners:
            ratio = f"{ref_time / elapsed[name]:.1f}x" if ref_time else "-"
            same = "-" if REFERENCE not in results else (
                "all" if results[name] == results[REFERENCE] else
                f"{sum(a != b for a, b in zip(results[name], results[REFERENCE]))} DIFFER")
            print(f"{'+'.join(types):34s} {name:15s} {n / elapsed[name]:10.1f} {ratio:>15s} {same:>10s}")
        out["+".join(types)] = _summary_of(elapsed, results)
    return out


def significance_section(n: int, resamples: int = 1000, check_pairs: int = 1000) -> dict:
    """compare_systems (the paired bootstrap with its interval and effect size, and approximate
    randomization; `resamples` each) on two systems scored on the same `n` summary pairs, per
    method (best of 3); then the same on the first `check_pairs` pairs against the resample-by-
    resample loops (the pure path), which must give the same numbers. Returns {method: seconds}."""
    print(f"\n== compare_systems: two systems on {n:,} pairs, {resamples:,} + {resamples:,} resamples "
          f"(best of 3 per method) ==")
    types = SETS[-1]
    pairs = summary_corpus(n)
    other = summary_corpus(n, seed=5)
    cands, refs = [c for c, _ in pairs], [[r] for _, r in pairs]
    ids = [str(i) for i in range(n)]
    a = rouge_core.score_corpus(cands, refs, types, "rouge-score", ids=ids)
    b = rouge_core.score_corpus([c for c, _ in other], refs, types, "rouge-score", ids=ids)
    times: dict = {"wall": {}, "cpu": {}}
    for method in types:
        best = cpu_best = float("inf")
        for _ in range(3):
            gc.collect()
            t0, c0 = time.perf_counter(), time.process_time()
            result = compare_systems(a, b, method, resamples=resamples, seed=0)
            dt = time.perf_counter() - t0
            if dt < best:
                best, cpu_best = dt, time.process_time() - c0
        times["wall"][method], times["cpu"][method] = best, cpu_best
        print(f"{method:10s} {best:7.3f} s wall {cpu_best:7.3f} s CPU  p bootstrap {result.bootstrap.p_value:.4g}, "
              f"p permutation {result.permutation.p_value:.4g}, difference {result.difference.value:+.4f} "
              f"[{result.difference.low:+.4f}, {result.difference.high:+.4f}]")
    sub = slice(0, check_pairs)
    small_a = rouge_core.score_corpus(cands[sub], refs[sub], types, "rouge-score", ids=ids[sub])
    small_b = rouge_core.score_corpus([c for c, _ in other][sub], refs[sub], types, "rouge-score", ids=ids[sub])
    bulk = compare_systems(small_a, small_b, "rougeL", resamples=resamples, seed=3)
    t0 = time.perf_counter()
    with native.pure():
        loop = compare_systems(small_a, small_b, "rougeL", resamples=resamples, seed=3)
    loop_time = time.perf_counter() - t0
    same = bulk == loop
    print(f"on {check_pairs:,} pairs, rougeL: the same numbers as the resample-by-resample loops: "
          f"{'yes' if same else 'NO'} (the loops took {loop_time:.2f} s)")
    times["identical"] = same
    return times


REPEATS = 5  # single-run sections report the best of this many runs (other load only adds time)


# --- non-ASCII text (issue 29): the same pairs with one accented word, other scripts ---------

def throughput_section(title: str, ascii_pairs, accented_pairs, types, block: int) -> float:
    """rouge_core on the same pairs as ASCII and with one non-ASCII word each, interleaved
    block by block (best of three per block): the non-ASCII throughput as a share of the
    ASCII one."""
    opts = rouge_core.profile("rouge-score")

    def ours(pairs):
        for cand, ref in pairs:
            rouge_core.score(cand, [ref], types, opts, evidence=False)
        return []

    runners = {"ascii": lambda chunk: ours([a for a, _ in chunk]),
               "non-ascii": lambda chunk: ours([b for _, b in chunk])}
    elapsed, _ = timed_interleaved(runners, list(zip(ascii_pairs, accented_pairs)), block)
    share = elapsed["ascii"] / elapsed["non-ascii"]
    print(f"{title}, {'+'.join(types)}: ASCII {len(ascii_pairs) / elapsed['ascii']:.0f} pairs/s, one non-ASCII word "
          f"a pair {len(accented_pairs) / elapsed['non-ascii']:.0f} pairs/s: {share:.0%} of the ASCII throughput")
    return share


def multilingual_section(n_pairs: dict, block: int = 25) -> dict:
    """rouge_core's multilingual profile against XL-Sum's scorer (multilingual-rouge) on pairs
    in Hindi, Chinese and Thai, 4 types, interleaved; every pair's numbers compared."""
    types = SETS[-1]
    try:
        from multilingual_rouge import rouge_scorer as xlsum
    except Exception as exc:  # not installed (it needs pyonmttok)
        print(f"\n== multilingual profile: {XLSUM} unavailable ({type(exc).__name__}: {exc}) ==")
        return {}
    from rouge_core.compat.multilingual_rouge import RougeScorer

    out = {}
    for script, n in n_pairs.items():
        pairs = in_script(summary_corpus(n, seed=5), script, seed=5)
        # the multilingual profile as XL-Sum's scorer reads it (its rougeLsum: lines without a segmenter)
        mine = RougeScorer(types, lang=script)
        scorer = xlsum.RougeScorer(types, use_stemmer=False, lang=script)
        scorer.score(*pairs[0])  # warm: segmenters' dictionaries

        def ours(chunk):
            res = [mine.score(r, c) for c, r in chunk]
            return [tuple((x[t].precision, x[t].recall, x[t].fmeasure) for t in types) for x in res]

        def theirs(chunk):
            res = [scorer.score(r, c) for c, r in chunk]
            return [tuple((x[t].precision, x[t].recall, x[t].fmeasure) for t in types) for x in res]

        ours(pairs[:1])
        elapsed, results = timed_interleaved({OURS: ours, XLSUM: theirs}, pairs, block)
        same = sum(a == b for a, b in zip(results[OURS], results[XLSUM]))
        ratio = elapsed[XLSUM] / elapsed[OURS]
        chars = sum(len(c) + len(r) for c, r in pairs) / len(pairs)
        print(f"{script:8s} {len(pairs):5d} pairs (~{chars:.0f} characters a pair): rouge_core {len(pairs) / elapsed[OURS]:8.1f}"
              f" pairs/s, {XLSUM} {len(pairs) / elapsed[XLSUM]:7.1f} pairs/s: {ratio:6.1f}x; identical: "
              f"{'all' if same == len(pairs) else f'{len(pairs) - same} DIFFER'}")
        out[script] = (ratio, same == len(pairs))
    return out


BIG_PROFILES = {"rouge-score": {}, "rouge-1.5.5": {}, "matlab": {}, "reval": {}, "multilingual": {},
                "multilingual hindi": {"language": "hindi"}}


def big_pair_profiles_section(tokens: int, repeats: int = 3) -> dict:
    """rougeLsum and ROUGE-W-1.2 on one long pair (tokenization included) on every profile,
    under the default cost bound (a refusal is reported): {(profile, method): (s, MiB, accepted)}."""
    print(f"\n== one {tokens:,}-token pair on every profile, default cost bound (best of {repeats}; wall s, peak MiB) ==")
    cand, ref = make_pairs(1, sentences=max(1, tokens // 25), tokens=tokens, seed=11)[0]
    out = {}
    for label, overrides in BIG_PROFILES.items():
        prof = label.split()[0]
        opts = rouge_core.profile(prof, **overrides)
        c_text, r_text = (in_script([(cand, ref)], "hindi", seed=11)[0] if "language" in overrides
                          else (one_word_accented(cand, 3), ref))
        for method in ("rougeLsum", "rougeW-1.2"):
            def run(method=method):
                return rouge_core.score(c_text, [r_text], [method], opts, evidence=False)

            try:
                run()
            except rouge_core.CostLimitError as exc:
                print(f"{label:<20} {method:<11} refused by the default bound: {exc}")
                out[(label, method)] = (math.inf, math.inf, False)
                continue
            except ValueError as exc:  # a method the profile does not have
                print(f"{label:<20} {method:<11} not in this profile ({exc})")
                continue
            best = cpu = math.inf
            for _ in range(repeats):
                gc.collect()
                t0, c0 = time.perf_counter(), time.process_time()
                run()
                wall = time.perf_counter() - t0
                if wall < best:
                    best, cpu = wall, time.process_time() - c0
            mem = peak_bytes(run) / 2**20
            print(f"{label:<20} {method:<11} {best:8.3f} s wall  {cpu:8.3f} s CPU  {mem:8.1f} MiB  accepted")
            out[(label, method)] = (best, mem, True)
    return out


def batch_section(pairs, expected, rounds: int = 9, label: str = "summary pairs", stem: bool = False) -> float:
    """The batch entry point (rouge_core.corpora.batch.score_batch) on 1 and 2 worker threads,
    interleaved round by round; every pair checked against the per-pair API's scores.
    Each round also times the machine's own ceiling: a trivially parallel C loop of about
    the same length (hashlib.sha256 over a buffer, GIL released) on 1 thread and split over
    2, since other load on a shared machine takes the second core away from both alike.
    Returns the speed-up of 2 workers over 1 (best round of each)."""
    types = SETS[-1]
    print(f"\n== batch entry point, {'+'.join(types)}: {len(pairs)} {label}, 1 and 2 workers "
          f"({rounds} rounds, interleaved; each timing several passes over the corpus, per pass below) ==")
    cands = [c for c, _ in pairs]
    refs = [[r] for _, r in pairs]
    opts = rouge_core.profile("rouge-score", stemmer="porter" if stem else "none")
    score_batch(cands, refs, types, opts, workers=2)  # warm: plans, cost bounds, the pool's first thread
    settle_heap()
    # Each timing scores the corpus `passes` times, about 0.4 s on one worker: a 0.1 s timing
    # swings by a quarter on a shared machine (another tenant, the clock), which best-of-9
    # alone does not smooth. Times below are per pass.
    one_pass = timed(lambda: score_batch(cands, refs, types, opts, workers=1))
    passes = max(1, round(0.4 / one_pass))
    ceiling = parallel_ceiling(one_pass * passes)
    walls = {("batch", 1): [], ("batch", 2): [], ("C loop", 1): [], ("C loop", 2): []}
    cpu = {1: [], 2: []}
    for _ in range(rounds):
        for workers in (1, 2):
            gc.collect()
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(passes):
                scores = score_batch(cands, refs, types, opts, workers=workers)
            walls[("batch", workers)].append((time.perf_counter() - t0) / passes)
            cpu[workers].append((time.process_time() - c0) / passes)
        for threads in (1, 2):
            walls[("C loop", threads)].append(timed(lambda threads=threads: ceiling(threads)))
    t0 = time.perf_counter()
    got = [tuple((m.precision, m.recall, m.fmeasure) for m in pair.values()) for pair in scores]
    records = time.perf_counter() - t0
    same = sum(a == b for a, b in zip(got, expected))
    mem = peak_bytes(lambda: score_batch(cands, refs, types, opts, workers=2)) / 2**20
    print(f"{passes} passes over the corpus per timing")
    for workers in (1, 2):
        best = min(walls[("batch", workers)])
        print(f"workers {workers}: {len(pairs) / best:10.0f} pairs/s (best {best:.3f} s wall, median "
              f"{statistics.median(walls[('batch', workers)]):.3f} s; median CPU {statistics.median(cpu[workers]):.3f} s)")
    speedup = min(walls[("batch", 1)]) / min(walls[("batch", 2)])

    def ratios(what: str) -> str:
        one, two = walls[(what, 1)], walls[(what, 2)]
        per_round = statistics.median(a / b for a, b in zip(one, two))
        return f"best {min(one) / min(two):.2f}x, median round {per_round:.2f}x"

    print(f"2 workers / 1 worker: {ratios('batch')}; the machine's ceiling in the same rounds (C loop, 2 "
          f"threads / 1): {ratios('C loop')}")
    print(f"peak {mem:.1f} MiB; identical to the per-pair API: "
          f"{'all' if same == len(pairs) else f'{len(pairs) - same} DIFFER'}; result records built after: "
          f"{records:.3f} s")
    print(f"score_corpus(workers=2), records included: {timed(lambda: rouge_core.score_corpus(cands, refs, types, opts, workers=2)):.3f} s")
    share = gil_free_share(cands, refs, types, opts)
    print(f"one worker's CPU time with the GIL released (in the kernels' job): {share:.1%}; what 2 threads could "
          f"gain at most by it (Amdahl, whatever the machine's load): {1 / (1 - share / 2):.2f}x")
    return speedup, statistics.median(a / b for a, b in zip(walls[("C loop", 1)], walls[("C loop", 2)]))


def gil_free_share(cands, refs, types, opts, tries: int = 7) -> float:
    """Of one worker's CPU time in score_batch, the share spent in the kernels' job (BatchJob.run,
    GIL released), best of `tries`: the part a second thread can share, measured by this
    thread's CPU clock, so other load on the machine does not change it."""
    spent = [0.0]
    real = native.batch_job

    class TimedJob:
        def __init__(self, job):
            self.job = job

        def run(self, *args):
            t0 = time.thread_time()
            try:
                return self.job.run(*args)
            finally:
                spent[0] += time.thread_time() - t0

        def __getattr__(self, name):
            return getattr(self.job, name)

    best = 0.0
    native.batch_job = lambda *args: TimedJob(real(*args))
    try:
        for _ in range(tries):
            spent[0] = 0.0
            t0 = time.thread_time()
            score_batch(cands, refs, types, opts, workers=1)
            total = time.thread_time() - t0
            best = max(best, spent[0] / total if total > 0 else 0.0)
    finally:
        native.batch_job = real
    return best


def parallel_ceiling(seconds: float):
    """run(threads): hashlib.sha256 over a buffer that takes about `seconds` on one thread,
    split over this thread and one kept pool thread (hashlib releases the GIL on large data):
    what a perfectly parallel C loop gains on this machine now. threads: 1 or 2."""
    block = bytes(1 << 20)
    t0 = time.perf_counter()
    hashlib.sha256(block * 8).digest()
    per_mib = (time.perf_counter() - t0) / 8
    size = max(2, int(seconds / per_mib)) // 2 * 2
    data = block * size

    pool = ThreadPoolExecutor(max_workers=1)  # kept, as score_batch keeps its threads
    pool.submit(int).result()

    def run(threads: int) -> None:
        part = len(data) // threads
        views = [memoryview(data)[k * part:(k + 1) * part] for k in range(threads)]
        helpers = [pool.submit(lambda v=v: hashlib.sha256(v).digest()) for v in views[1:]]
        hashlib.sha256(views[0]).digest()
        for helper in helpers:
            helper.result()

    return run


def timed(run) -> float:
    gc.collect()
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


STAR_MOST = 4096  # s_star_at_bound's ceiling (an uncalibrated cost model estimates every size at 0 s)


def s_star_at_bound(opts) -> int:
    """The most tokens a pair of the benchmark's texts may have for rougeS* to fit the default
    cost bound (the estimate of the path that runs)."""
    low, high = 2, 4
    while high < STAR_MOST and \
            cost.estimate("rougeS*", high, [high], opts, evidence=False).seconds <= cost.DEFAULT_COST_LIMIT.seconds and \
            cost.estimate("rougeS*", high, [high], opts, evidence=False).peak_bytes <= cost.DEFAULT_COST_LIMIT.peak_bytes:
        low, high = high, high * 2
    while high - low > 1:
        mid = (low + high) // 2
        e = cost.estimate("rougeS*", mid, [mid], opts, evidence=False)
        fits = e.seconds <= cost.DEFAULT_COST_LIMIT.seconds and e.peak_bytes <= cost.DEFAULT_COST_LIMIT.peak_bytes
        low, high = (mid, high) if fits else (low, mid)
    return low


def big_pair_section(tokens: int, repeats: int = 3) -> dict:
    """One long pair (tokenization included): rougeLsum, ROUGE-W, rougeSU4, no evidence; and
    rougeS* on the longest pair its cost bound admits. Best of `repeats`; peak memory from a
    separate run. Returns {method: (seconds, MiB)}."""
    print(f"\n== one {tokens:,}-token pair, no evidence (best of {repeats}; wall and CPU seconds, peak MiB) ==")
    opts = rouge_core.profile("rouge-score")
    cand, ref = make_pairs(1, sentences=max(1, tokens // 25), tokens=tokens, seed=11)[0]
    out = {}

    def case(label, method, c_text, r_text):
        def run():
            c, r = prepare(c_text, opts), prepare(r_text, opts)
            return score_documents(c, (r,), [method], opts, evidence=False, cost_limit=rouge_core.UNBOUNDED)

        best = cpu_best = float("inf")
        for _ in range(repeats):
            gc.collect()
            t0, c0 = time.perf_counter(), time.process_time()
            result = run()
            dt, cpu = time.perf_counter() - t0, time.process_time() - c0
            if dt < best:
                best, cpu_best = dt, cpu
        mem = peak_bytes(run) / 2**20
        n_c = len(prepare(c_text, opts))
        print(f"{label:<22} {n_c:>7,} tokens  {best:8.3f} s wall  {cpu_best:8.3f} s CPU  {mem:9.1f} MiB  "
              f"F {result[method].fmeasure:.6f}")
        out[label] = (best, mem)

    case("rougeLsum", "rougeLsum", cand, ref)
    case("rougeW-1.2", "rougeW-1.2", cand, ref)
    case("rougeSU4", "rougeSU4", cand, ref)
    n = s_star_at_bound(opts)
    s_cand, s_ref = make_pairs(1, sentences=max(1, n // 25), tokens=n, seed=12)[0]
    est = cost.estimate("rougeS*", prepare(s_cand, opts), [prepare(s_ref, opts)], opts, evidence=False)
    print(f"rougeS* at the cost bound: {n:,} tokens a side is the most the default bound "
          f"({cost.DEFAULT_COST_LIMIT.describe()}) admits for any text; this pair is estimated at {est.describe()}")
    case("rougeS* at the bound", "rougeS*", s_cand, s_ref)
    return out


def evidence_cost_section(pairs, block: int = 500) -> dict:
    """Issue 34's rule for the default: `rouge_core.score` as called with no `evidence`
    argument, with `evidence=True` and with `evidence=False`, on the same summary pairs
    (tokenization included, interleaved like the other sections; the evidence is built but not
    read). Returns per set of types the cost of evidence=True and of the default relative to
    evidence=False."""
    print(f"\n== the cost of evidence: rouge_core.score on {len(pairs)} summary pairs ==")
    print(f"{'methods':34s} {'call':22s} {'pairs/s':>10s} {'vs evidence=False':>18s}")
    opts = rouge_core.profile("rouge-score")
    out = {}
    for types in SETS:
        def call(**evidence):
            return lambda chunk: [rouge_core.score(c, [r], types, opts, **evidence)[types[0]].fmeasure
                                  for c, r in chunk]

        runners = {"default (no argument)": call(), "evidence=True": call(evidence=True),
                   "evidence=False": call(evidence=False)}
        elapsed, results = timed_interleaved(runners, pairs, block)
        assert results["evidence=True"] == results["evidence=False"] == results["default (no argument)"]
        base = elapsed["evidence=False"]
        for name in runners:
            print(f"{'+'.join(types):34s} {name:22s} {len(pairs) / elapsed[name]:10.1f} "
                  f"{elapsed[name] / base:17.2f}x")
        out["+".join(types)] = {"evidence=True": elapsed["evidence=True"] / base,
                                "default": elapsed["default (no argument)"] / base}
    return out


def evidence_cost_targets(costs: dict) -> None:
    with_evidence = [v["evidence=True"] for v in costs.values()]
    default = max(v["default"] for v in costs.values())
    print(f"evidence=True costs {min(with_evidence):.2f}-{max(with_evidence):.2f}x evidence=False on summary pairs; "
          f"the default costs at most {default:.2f}x (issue 34: the default may cost at most 1.5x: "
          f"{'met' if default <= 1.5 else 'NOT met'})")


def read_evidence(result) -> None:
    """Read every field of every evidence record of `result`: the native path fills its big
    collections (matches, union-LCS sentences, skip-bigram rows) in on first read."""
    for method in result.methods.values():
        for ref in method.per_reference:
            if ref.evidence is not None:
                for f in dataclasses.fields(ref.evidence):
                    getattr(ref.evidence, f.name)


def evidence_section(tokens: int) -> tuple[float, float]:
    """All methods with evidence on one long pair, tokenization included; returns the slower
    profile's best total, and the same with every evidence record read in full."""
    print(f"\n== all methods with evidence, one {tokens}-token pair (best of {REPEATS}) ==")
    cand, ref = make_pairs(1, sentences=max(1, tokens // 25), tokens=tokens, seed=7)[0]
    methods = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]
    worst = {False: 0.0, True: 0.0}
    for name in ("rouge-score", "rouge-1.5.5"):
        opts = rouge_core.profile(name)

        def all_methods(opts=opts):
            c, r = prepare(cand, opts), prepare(ref, opts)
            for m in methods:
                read_evidence(score_documents(c, (r,), [m], opts, evidence=True))

        print(f"profile {name}: peak {peak_bytes(all_methods) / 2**20:.1f} MiB (evidence read in full)")
    for name in ("rouge-score", "rouge-1.5.5"):
        opts = rouge_core.profile(name)
        for read in (False, True):
            best = None
            for _ in range(REPEATS):
                gc.collect()
                t0 = time.perf_counter()
                c, r = prepare(cand, opts), prepare(ref, opts)
                times = {"tokenize": time.perf_counter() - t0}
                for m in methods:
                    t1 = time.perf_counter()
                    result = score_documents(c, (r,), [m], opts, evidence=True)
                    if read:
                        read_evidence(result)
                    del result
                    times[m] = time.perf_counter() - t1
                if best is None or sum(times.values()) < sum(best.values()):
                    best = times
            total = sum(best.values())
            worst[read] = max(worst[read], total)
            parts = ", ".join(f"{k} {v * 1000:.1f}" for k, v in best.items())
            how = "; evidence read in full" if read else ""
            print(f"profile {name}: {len(c)}/{len(r)} tokens{how}; total {total:.3f} s ({parts} ms)")
    return worst[False], worst[True]


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
    ap.add_argument("--quick", action="store_true", help="1,000 summary and 50 long pairs, a 5,000-token long pair")
    ap.add_argument("--summary", type=int, default=None)
    ap.add_argument("--long", type=int, default=None)
    ap.add_argument("--big", type=int, default=None, help="tokens of the one long pair (default 20,000)")
    ap.add_argument("--unicode-only", action="store_true",
                    help="only the non-ASCII slices (issue 29): accented prose, other scripts, every profile's long pair")
    ap.add_argument("--evidence-cost", action="store_true",
                    help="only the cost of evidence (issue 34): rouge_core.score with no evidence argument, with "
                         "evidence=True and with evidence=False on the same summary pairs")
    ap.add_argument("--cpu-clock", action="store_true",
                    help="time the per-pair sections by this process's CPU time, not the wall clock (on a machine "
                         "other work loads: its share of the cores then stretches no implementation's time)")
    args = ap.parse_args(argv)
    global CLOCK
    if args.cpu_clock:
        CLOCK = time.process_time
    n_summary = args.summary or (1000 if args.quick else 10_000)
    n_long = args.long or (50 if args.quick else 500)
    n_big = args.big or (5_000 if args.quick else 20_000)
    n_multi = 300 if args.quick else 2_000
    n_significance = 10_000
    print("machine:", machine())
    print(f"rouge_core {rouge_core.__version__}, path: {native.describe()}")
    peers = load_peers()
    print("peers:", peer_versions(peers))
    print("at the start:", load())
    print("per-pair sections timed by", "CPU time (--cpu-clock)" if args.cpu_clock else "the wall clock")
    t0 = time.perf_counter()
    summary = summary_corpus(n_summary)
    if args.evidence_cost:
        evidence_cost_targets(evidence_cost_section(summary))
        print("\nat the end:", load())
        return
    long = long_corpus(n_long)
    print(f"corpora generated in {time.perf_counter() - t0:.1f} s (seeded)")
    n_uni_summary, n_uni_long = (600, 30) if args.quick else (3000, 150)
    multilingual_sizes = {"hindi": 60, "chinese": 60, "thai": 20} if args.quick else {"hindi": 300, "chinese": 300,
                                                                                      "thai": 100}
    uni = unicode_sections(summary[:n_uni_summary], long[:n_uni_long], peers, multilingual_sizes, n_big)
    if args.unicode_only:
        print("\nat the end:", load())
        unicode_targets(uni, n_big)
        return
    s = corpus_section("summary corpus (~60 tokens, 3 sentences)", summary, peers, block=500, mem_pairs=200)
    sets_long = SETS if n_long <= 100 else [["rougeL"], ["rougeLsum"], SETS[-1]]
    lo = corpus_section("long corpus (~700 tokens, 30 sentences)", long, peers, block=10, mem_pairs=5, sets=sets_long)
    four = "+".join(SETS[-1])
    multi = multi_reference_section(n_multi, 4, peers)
    speedup, ceiling = batch_section(summary, s[four]["results"])
    speedup_long, ceiling_long = batch_section(long, lo[four]["results"], label="long pairs")
    stemmed = corpus_section("summary corpus, Porter stemming (use_stemmer=True)", summary, peers, block=500,
                             mem_pairs=200, stem=True)
    speedup_stem, ceiling_stem = batch_section(summary, stemmed[four]["results"],
                                               label="summary pairs, Porter stemming", stem=True)
    significance = significance_section(n_significance)
    big = big_pair_section(n_big)
    evidence_costs = evidence_cost_section(summary[:2000])
    evidence, evidence_read = evidence_section(2000)
    sweep = sweep_section(summary[:50])
    print("\nat the end:", load())

    def ratio(table, key, peer):
        value = table.get(key, {}).get(peer)
        return f"{value:.2f}x" if value else "n/a (peer missing)"

    def check(ok) -> str:
        return "met" if ok else "NOT met"

    rs4 = s[four]["vs rouge-score-rs"]
    rs_l, rs_lsum = lo["rougeL"]["vs rouge-score-rs"], lo["rougeLsum"]["vs rouge-score-rs"]
    print(f"\n== targets (path: {native.path()}) ==")
    print(f"summary, 4 methods, per-pair API: {ratio(s, four, 'vs rouge-score-rs')} rouge-score-rs "
          f"(target >= 1.2x: {check(rs4 and rs4 >= 1.2)}); {ratio(s, four, 'vs rouge-score')} rouge-score; "
          f"identical to rouge-score: {s[four]['identical']}")
    print(f"long, rougeL: {ratio(lo, 'rougeL', 'vs rouge-score-rs')} rouge-score-rs (target >= 1.5x: "
          f"{check(rs_l and rs_l >= 1.5)}); rougeLsum: {ratio(lo, 'rougeLsum', 'vs rouge-score-rs')} "
          f"(target >= 1.5x: {check(rs_lsum and rs_lsum >= 1.5)})")
    single = [key for key in s if "+" not in key]
    for door, key in (("score(evidence=False)", "vs rouge-score-rs"), ("the drop-in", "drop-in vs rouge-score-rs")):
        ratios = {k: s[k][key] for k in single}
        met = all(v and v >= 1.2 for v in ratios.values())
        listed = ", ".join(f"{k} {v:.2f}x" if v else f"{k} n/a" for k, v in ratios.items())
        print(f"summary, each single type through {door}: {listed} rouge-score-rs (target >= 1.2x each: {check(met)})")
    print(f"identical numbers on every summary set (score, drop-in, rouge-score): "
          f"{all(v['identical'] for v in s.values())}")
    for door, key in (("score(evidence=False)", "vs rouge-score-rs"), ("the drop-in's score_multi", "drop-in vs rouge-score-rs")):
        ratios = {k: v[key] for k, v in multi.items()}
        met = all(v and v >= 1.2 for v in ratios.values())
        listed = ", ".join(f"{k} {v:.2f}x" if v else f"{k} n/a" for k, v in ratios.items())
        print(f"4 references through {door}: {listed} rouge-score-rs (target >= 1.2x each: {check(met)})")
    print(f"identical numbers with 4 references: {all(v['identical'] for v in multi.values())}")
    print(f"batch, 2 workers / 1 worker: {speedup:.2f}x on summary pairs, {speedup_long:.2f}x on long pairs (target "
          f">= 1.8x: {check(speedup >= 1.8 and speedup_long >= 1.8)}); the machine's own ceiling in the same rounds "
          f"(median): {ceiling:.2f}x and {ceiling_long:.2f}x")
    for door, key in (("score(evidence=False)", "vs rouge-score-rs"), ("the drop-in", "drop-in vs rouge-score-rs")):
        ratios = {k: v[key] for k, v in stemmed.items()}
        met = all(v and v >= 1.2 for v in ratios.values())
        listed = ", ".join(f"{k} {v:.2f}x" if v else f"{k} n/a" for k, v in ratios.items())
        print(f"Porter stemming, summary pairs through {door}: {listed} rouge-score-rs (target >= 1.2x each: "
              f"{check(met)})")
    print(f"identical numbers with Porter stemming (score, drop-in, rouge-score): "
          f"{all(v['identical'] for v in stemmed.values())}")
    print(f"batch with Porter stemming, 2 workers / 1 worker: {speedup_stem:.2f}x (target >= 1.8x: "
          f"{check(speedup_stem >= 1.8)}); the machine's own ceiling in the same rounds (median): {ceiling_stem:.2f}x")
    slowest = max(significance["wall"].values())
    slowest_cpu = max(significance["cpu"].values())
    print(f"compare_systems, 10,000 pairs, 1,000 + 1,000 resamples: slowest method {slowest:.3f} s wall, "
          f"{slowest_cpu:.3f} s CPU (target <= 0.5 s per method: {check(slowest <= 0.5)} by the wall clock, "
          f"{check(slowest_cpu <= 0.5)} by CPU time); the same numbers as the loops: {significance['identical']}")
    targets = {"rougeLsum": (0.5, None), "rougeW-1.2": (0.5, 100), "rougeSU4": (0.2, None), "rougeS* at the bound": (1.0, None)}
    for label, (seconds, mib) in targets.items():
        took, mem = big[label]
        ok = took < seconds and (mib is None or mem < mib)
        bound = f"< {seconds} s" + (f" and < {mib} MiB" if mib else "")
        print(f"{n_big:,}-token pair, {label}: {took:.3f} s, {mem:.1f} MiB (target {bound}: {check(ok)})")
    print(f"all methods with evidence, 2,000-token pair: {evidence * 1000:.1f} ms (target < 30 ms: "
          f"{check(evidence < 0.03)}); with the evidence read in full: {evidence_read * 1000:.1f} ms")
    print(f"sweep of 20 parameter values, 50 pairs: {sweep:.3f} s (target < 1 s: {check(sweep < 1)})")
    evidence_cost_targets(evidence_costs)
    unicode_targets(uni, n_big)


def unicode_sections(summary, long, peers, multilingual_sizes: dict, n_big: int) -> dict:
    """The slices of issue 29: accented English-like prose (a third of the pairs with one
    non-ASCII word; every pair with one, against the same pairs in ASCII), Hindi, Chinese and
    Thai through the multilingual profile, every profile's long pair."""
    print("\n==== non-ASCII text ====")
    print("at the start of the non-ASCII slices:", load())
    out = {"summary third": corpus_section("summary corpus, a third of the pairs with a non-ASCII word",
                                           a_third_accented(summary), peers, block=300, mem_pairs=200),
           "long third": corpus_section("long corpus, a third of the pairs with a non-ASCII word",
                                        a_third_accented(long), peers, block=10, mem_pairs=5,
                                        sets=[["rougeL"], ["rougeLsum"], SETS[-1]]),
           "summary every": corpus_section("summary corpus, every pair with a non-ASCII word",
                                           [(one_word_accented(c, k), r) for k, (c, r) in enumerate(summary)], peers,
                                           block=300, mem_pairs=200, sets=[SETS[-1]])}
    print("\n== non-ASCII throughput: the same pairs, ASCII and with one accented word (rouge_core only) ==")
    accented_summary = [(one_word_accented(c, k), r) for k, (c, r) in enumerate(summary)]
    accented_long = [(one_word_accented(c, k), r) for k, (c, r) in enumerate(long)]
    out["throughput"] = {
        "summary 4 types": throughput_section("summary", summary, accented_summary, SETS[-1], 300),
        "long rougeL": throughput_section("long", long, accented_long, ["rougeL"], 10),
        "long rougeLsum": throughput_section("long", long, accented_long, ["rougeLsum"], 10)}
    print(f"\n== multilingual profile against {XLSUM}, {'+'.join(SETS[-1])} (interleaved; "
          f"{XLSUM} once per block) ==")
    out["multilingual"] = multilingual_section(multilingual_sizes)
    out["big"] = big_pair_profiles_section(n_big)
    print("at the end of the non-ASCII slices:", load())
    return out


def unicode_targets(uni: dict, n_big: int) -> None:
    """Issue 29's targets, each with what this run measured, and the table for the README."""
    def check(ok) -> str:
        return "met" if ok else "NOT met"

    def rs(slice_, key):
        return uni[slice_].get(key, {}).get("vs rouge-score-rs")

    def fmt(value):
        return f"{value:.2f}x" if value else "n/a"

    rows = []  # (slice, measured, target, met)
    four = "+".join(SETS[-1])
    for key, target in [(four, 1.5), ("rouge1", 1.0), ("rouge2", 1.0), ("rougeL", 1.0), ("rougeLsum", 1.0)]:
        value = rs("summary third", key)
        rows.append((f"summary, a third with a non-ASCII word, {key} vs rouge-score-rs", fmt(value), f">= {target}x",
                     bool(value and value >= target)))
    for key, target in [("rougeL", 1.5), ("rougeLsum", 5.0), (four, 1.0)]:
        value = rs("long third", key)
        rows.append((f"long, a third with a non-ASCII word, {key} vs rouge-score-rs", fmt(value), f">= {target}x",
                     bool(value and value >= target)))
    value = rs("summary every", four)
    rows.append((f"summary, every pair with a non-ASCII word, {four} vs rouge-score-rs", fmt(value), "-", None))
    for key, share in uni["throughput"].items():
        rows.append((f"non-ASCII / ASCII throughput, {key}", f"{share:.0%}", ">= 80%", share >= 0.8))
    for script, (ratio, same) in uni["multilingual"].items():
        target = 20.0 if script in ("hindi", "chinese") else None
        rows.append((f"multilingual, {script}, {four} vs {XLSUM} (identical: {same})", f"{ratio:.1f}x",
                     f">= {target:.0f}x" if target else "-", (ratio >= target and same) if target else None))
    for (label, method), (seconds, mib, accepted) in uni["big"].items():
        rows.append((f"{n_big:,}-token pair, {label}, {method}", f"{seconds:.3f} s, {mib:.1f} MiB" if accepted
                     else "refused", "< 0.5 s, < 100 MiB, accepted", accepted and seconds < 0.5 and mib < 100))
    identical = all(uni[k][t]["identical"] for k in ("summary third", "long third", "summary every") for t in uni[k])
    print(f"\n== issue 29 targets (path: {native.path()}; numbers identical to rouge-score on every non-ASCII "
          f"slice: {identical}) ==")
    for name, measured, target, met in rows:
        print(f"{name}: {measured} (target {target}{'' if met is None else ': ' + check(met)})")
    print("\n| slice | measured | target |\n|---|---|---|")
    for name, measured, target, met in rows:
        mark = "" if met is None else (" ✓" if met else " ✗")
        print(f"| {name} | {measured}{mark} | {target} |")


if __name__ == "__main__":
    main()
