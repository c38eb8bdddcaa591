"""The estimates the app shows before costly work, against what that work takes.

Run from the repository root:

    python bench/bench_app_estimates.py            # every action below
    python bench/bench_app_estimates.py --quick    # smaller inputs, the same actions

Each page asks `rouge_core.cost` (through lens_app) what an action will cost and asks the user
first when it is above the bound (issue 27, item 9: the estimates shown must be within a
factor of 2 of the truth). This script builds the inputs a user would bring, asks the same
estimating function the page asks, then runs the library call the page runs, and prints
estimate ÷ measured for time (CPU seconds of the action's first run in this process, a
library's first import included, as on a fresh server: steady on a shared machine; the wall
time is printed beside it) and for peak memory (bench/memory.py: Python and C allocations,
over a second run; the first run's resident rise when it loaded a library). The actions:

- Score page, a 2,000-token pair with 4 references: every method's scores, then each
  method's evidence against the first reference (what its evidence view computes and reads);
- Source box: abstractiveness against a 2,000-token source;
- Corpus page: scoring every system of a corpus (score_corpus per system), then 1,000
  bootstrap resamples of one system, then ranking the systems (k(k-1)/2 paired tests);
- "Which ROUGE agrees": scoring every variant (10: five profiles, stemming off and on) of the
  study-size corpus (16 systems x 100 documents x 11 references; --quick: 4 x 30 x 4);
- "Why do tools disagree?": comparing the tools on a 120 KB pair (20,000 words; --quick 5,000).

A ratio below 0.5 or above 2 is flagged; the last line gives the worst ratio both ways.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import rouge_core  # noqa: E402
from calibrate_costs import read_evidence  # noqa: E402  (every evidence field read, as a view does)
from corpus_gen import make_multi_reference, study_corpus  # noqa: E402
from memory import fix_mmap_threshold, peak_bytes, resident_rise  # noqa: E402
from rouge_core import UNBOUNDED  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from rouge_core.corpora.corpus import rank_systems, score_corpus  # noqa: E402
from rouge_core.kernels import native  # noqa: E402
from rouge_core.scorer import cost  # noqa: E402
from rouge_core.scorer.inputs import prepare  # noqa: E402
from rouge_core.studies import meta  # noqa: E402
from rouge_core.studies import source as src  # noqa: E402
from rouge_core.text import loading  # noqa: E402

MB = 1e6
FLOOR_SECONDS = 0.005  # below this a ratio says more about the clock than the model
FLOOR_BYTES = 1e6
SCORE_PAGE_METHODS = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4")


@dataclasses.dataclass
class Row:
    page: str
    action: str
    estimate: cost.CostEstimate
    cpu: float = math.nan
    wall: float = math.nan
    peak: float = math.nan

    def ratios(self) -> tuple[float, float]:
        time_ratio = max(self.estimate.seconds, FLOOR_SECONDS) / max(self.cpu, FLOOR_SECONDS)
        memory_ratio = max(self.estimate.peak_bytes, FLOOR_BYTES) / max(self.peak, FLOOR_BYTES)
        return time_ratio, memory_ratio


def measure(row: Row, run) -> Row:
    """CPU and wall time of the action's first run (as a user's first click: a library's import
    included), its peak memory a second run's, or the first run's resident rise when that run
    loaded a library (the estimate counts a library's first load; not other state a process
    makes once, such as a thread's stack)."""
    def timed():
        cpu0, wall0 = time.process_time(), time.perf_counter()
        run()
        row.cpu, row.wall = time.process_time() - cpu0, time.perf_counter() - wall0

    cold = loading.not_loaded(loading.LIBRARIES)
    first = resident_rise(timed)
    row.peak = peak_bytes(run)
    if loading.not_loaded(cold) != cold:
        row.peak = max(first, row.peak)
    return row


def score_page(tokens: int) -> list[Row]:
    candidate, references = make_multi_reference(tokens=tokens, sentences=max(1, tokens // 25), references=4,
                                                 seed=13)
    options = rouge_core.profile("rouge-score")
    label = f"{tokens:,} tokens, 4 refs"
    rows = []
    estimates = cost.estimate_texts(SCORE_PAGE_METHODS, candidate, references, options, evidence=False)
    rows.append(measure(Row("Score", f"scores, 7 methods ({label})", cost.total(estimates.values(), "scores")),
                        lambda: rouge_core.score(candidate, references, list(SCORE_PAGE_METHODS), options,
                                                 evidence=False, cost_limit=UNBOUNDED)))
    for method in SCORE_PAGE_METHODS:
        estimate = cost.total(cost.estimate_texts([method], candidate, [references[0]], options,
                                                  evidence=True).values(), method)

        def run(method=method):
            read_evidence(rouge_core.score(candidate, [references[0]], [method], options, evidence=True,
                                           cost_limit=UNBOUNDED))

        rows.append(measure(Row("Score", f"{method} evidence, first reference", estimate), run))
    source = " ".join(references)  # a source the candidate copies from
    opts = src.source_options(options)
    cand_doc, source_doc = prepare(candidate, opts, "candidate"), prepare(source, opts, "source")
    estimate = src.estimate(cand_doc, src.SourceIndex(source_doc.term_tuple))
    rows.append(measure(Row("Score", f"source box ({len(source_doc.term_tuple):,}-token source)", estimate),
                        lambda: src.abstractiveness(candidate, source, options)))
    return rows


def disagree_page(words: int) -> list[Row]:
    """The comparison of tools (the side-by-side table and the walks from rouge-score) on a long
    pair, as the "Why do tools disagree?" page makes it once its estimate is within the bound.
    Run after the pages that stem (NLTK loaded): a fresh server adds NLTK's import, which the
    estimate then includes (tests/core/test_cost_loading.py)."""
    from rouge_core.teach import disagree

    rng = random.Random(7)
    vocabulary = [f"w{rng.randrange(4000)}" for _ in range(words)]
    candidate = "\n".join(" ".join(vocabulary[i:i + 20]) for i in range(0, words, 20))
    reference = "\n".join(" ".join(vocabulary[i:i + 20]) for i in range(10, words, 20))
    variants = {**disagree.VARIANTS, "your settings": rouge_core.profile("rouge-score")}
    names = [name for name in variants if name != "rouge-score"]
    estimate = disagree.Comparison(candidate, [reference]).estimate(variants, "rouge-score")

    def compare():
        comparison = disagree.Comparison(candidate, [reference])
        comparison.side_by_side(variants)
        for other in names:
            comparison.attribute(variants["rouge-score"], variants[other], details=False)

    return [measure(Row("Why do tools disagree", f"compare the tools ({len(candidate) // 1000} KB pair)", estimate),
                    compare)]


def study(systems: int, documents: int, references: int):
    rows, _ = study_corpus(systems=systems, documents=documents, references=references)
    return corpus_io.build_corpus(corpus_io.Table(tuple(rows[0]), tuple(rows), tuple(range(2, len(rows) + 2))))


def corpus_pages(systems: int, documents: int, references: int) -> list[Row]:
    corpus = study(systems, documents, references)
    options = rouge_core.profile("rouge-score")
    methods = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    label = f"{systems} systems x {documents} documents x {references} refs"
    out = []
    estimate = cost.estimate_corpus(corpus.systems, corpus.references, methods, options)
    results = {}

    def score_all():
        for name, candidates in corpus.systems.items():
            results[name] = score_corpus(candidates, corpus.references, methods, options, ids=corpus.ids,
                                         cost_limit=UNBOUNDED)

    out.append(measure(Row("Corpus", f"score every system ({label})", estimate), score_all))
    first = next(iter(results.values()))
    estimate = first.bootstrap_estimate(1000)  # what the Corpus page asks (lens_app.corpus_ui)
    out.append(measure(Row("Corpus", "1,000 bootstrap resamples, one system", estimate),
                       lambda: first.bootstrap(resamples=1000, seed=0, cost_limit=UNBOUNDED)))
    estimate = cost.paired_tests_estimate(len(first), 1000, systems * (systems - 1) // 2)
    out.append(measure(Row("Compare", f"rank {systems} systems, 1,000 resamples", estimate),
                       lambda: rank_systems(results, "rouge1", resamples=1000, seed=0, cost_limit=UNBOUNDED)))
    variants = meta.variants()
    estimate = cost.total([cost.estimate_corpus(corpus.systems, corpus.references, methods, v.options,
                                                shared_references=True) for v in variants], "every variant")
    out.append(measure(Row("Which ROUGE agrees", f"score every variant ({len(variants)}, {label})", estimate),
                       lambda: meta.score_variants(corpus.systems, corpus.references, corpus.ids, methods, variants,
                                                   cost_limit=UNBOUNDED)))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller inputs (a 500-token pair, a 4 x 30 x 4 corpus)")
    args = parser.parse_args(argv)
    fix_mmap_threshold()  # each action's peak its own, as bench/calibrate_costs.py measures them
    print(f"path: {'compiled kernels' if native.active() else 'pure Python'}; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    rows = score_page(500 if args.quick else 2000)
    rows += corpus_pages(*((4, 30, 4) if args.quick else (16, 100, 11)))
    rows += disagree_page(5_000 if args.quick else 20_000)
    print(f"\n{'page':<21} {'action':<52} {'est s':>8} {'cpu s':>8} {'wall s':>8} {'ratio':>6}"
          f" {'est MB':>8} {'peak MB':>8} {'ratio':>6}")
    worst_low = worst_high = 1.0
    for row in rows:
        t_ratio, m_ratio = row.ratios()
        worst_low, worst_high = min(worst_low, t_ratio, m_ratio), max(worst_high, t_ratio, m_ratio)
        flag = "  <-- off by more than 2x" if not (0.5 <= t_ratio <= 2 and 0.5 <= m_ratio <= 2) else ""
        print(f"{row.page:<21} {row.action[:52]:<52} {row.estimate.seconds:>8.3f} {row.cpu:>8.3f} {row.wall:>8.3f}"
              f" {t_ratio:>6.2f} {row.estimate.peak_bytes / MB:>8.1f} {row.peak / MB:>8.1f} {m_ratio:>6.2f}{flag}")
    print(f"\nworst estimate / measured: {worst_low:.2f} (low) and {worst_high:.2f} (high); "
          f"target within 0.5-2 (times under {FLOOR_SECONDS * 1000:g} ms and memory under 1 MB count at the floor)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
