"""Many pairs per call: the compiled kernels score the pairs with the GIL released, so threads
run on several cores at once.

    from rouge_core.corpora.batch import score_batch
    scores = score_batch(candidates, references_per_pair, ["rouge1", "rougeL"], "rouge-score", workers=2)
    scores[0]["rougeL"].fmeasure          # pair 1, as rouge_core.score would give it (no evidence)

Same numbers as scoring pair by pair (`rouge_core.corpora.pairs.score_pair_stats`), in input order,
whatever the number of workers. The kernels tokenize text themselves under rouge-score's and
ROUGE-1.5.5's tokenizers (any text: non-ASCII characters as those tools treat them), stemming
and dropping stopwords through the process's shared table of stems
(rouge_core.text.tokenize.stem_map: a word type new to it is stemmed in Python, the GIL taken for
that word alone); other settings (sentence splitting, limits, other tokenizers) are tokenized in Python first, and a method without a compiled kernel, a pair whose cost must be
checked (its texts are long enough that the cost bound could apply) or anything the kernels
cannot take is scored in Python, the ordinary way. On the pure path (rouge_core.kernels.native) the
whole batch is scored in Python.

How the threads share the work: when the kernels tokenize, the batch is one native job
(`native.batch_job`) whose blocks (at most `chunk_size` pairs, cut so that each thread takes
several: `_shared_block`) the calling thread and `workers - 1`
pool threads take in turn, each tokenizing and scoring its blocks in C with its own working
memory (token lists and buffers reused from pair to pair), so no Python runs per block and a
thread that is slowed down simply takes fewer blocks; a batch of one block runs on the
calling thread alone (a thread would cost more than it saves). A large batch's job is made
head first (`_run_head_first`): the pool threads score its first pairs while the calling
thread reads the rest's texts, which it must do holding the GIL. When Python tokenizes, this thread tokenizes chunk after chunk while the pool
scores the earlier ones.

`score_batch` returns a `BatchScores` as soon as every pair is scored; its per-pair records
(`MethodScore`s, as `score_documents` makes them) are built when first read, in this thread.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache, partial
from typing import Callable, Iterator, Sequence

from ..scorer import cost
from ..kernels.kernel_spec import BATCH_VALUES
from ..kernels import native
from ..scorer.cost import UNBOUNDED, Budget, CostLimit, CostLimitError, check_call, resolve_limit
from ..families.methods import Method, parse_method
from ..text.options import Options
from ..scorer.scoring import (MethodScore, _method_plans, _plans_of, combine_references, prepare_pair,
                              resolve_options, score_from_stats)
from ..text.tokenize import stemmed_settings, text_tokenizer, word_rule
from .pairs import each_pair, score_pair_stats

# pairs a thread takes at a time: small enough to share the end out evenly and report progress (the cost
# model prices a chunk's Documents held at once where Python tokenizes)
DEFAULT_CHUNK = cost.BATCH_CHUNK


class BatchScores(Sequence):
    """Per pair, `{method name: MethodScore}` (no evidence), in input order; the records are
    built on first access from the kernels' statistics."""

    def __init__(self, n: int, build: Callable[[], list], build_columns: Callable[[], dict | None] | None = None):
        self._n = n
        self._build = build
        self._build_columns = build_columns
        self._pairs: list | None = None

    def columns(self) -> dict | None:
        """Per method name, (the arrays corpus_stats.record_arrays makes of the records, the
        signature every pair's record carries), read straight from the kernels' output without
        a record (a streamed corpus has millions); None where that reading does not apply (a
        pair with another number of references than one, a pair scored in Python, a score made
        by a Python function), or once the records are built."""
        build, self._build_columns = self._build_columns, None
        return build() if build is not None and self._pairs is None else None

    @property
    def pairs(self) -> list[dict[str, MethodScore]]:
        if self._pairs is None:
            self._pairs = self._build()
            self._build = None
        return self._pairs

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index):
        return self.pairs[index]

    def __iter__(self) -> Iterator[dict[str, MethodScore]]:
        return iter(self.pairs)


_VALUE = {name: k for k, name in enumerate(BATCH_VALUES)}  # where the kernels put each of a plan's values


def _kernel_columns(plans: tuple, segments: list, total: int, alpha: float) -> dict | None:
    """BatchScores.columns of pairs of one reference each, from the kernels' values (per plan:
    hits, totals, exponent, P and R; kernel_spec.BATCH_VALUES) of every segment (a later one's
    pairs over an earlier one's), F made as spec.h's spec_f_measure makes it at the plan's alpha;
    None when a plan's score is a Python function's or a pair is in no segment."""
    import numpy as np

    alphas = []
    for plan in plans:
        rule = plan[7] if len(plan) > 7 else alpha
        if not isinstance(rule, float):  # a function makes the whole Score (kernel_f_rule)
            return None
        alphas.append(rule)
    width = len(BATCH_VALUES)
    fields = ("hits", "cand_total", "ref_total", "exponent", "precision", "recall")
    columns = np.zeros((len(plans), len(fields), total), np.float64)
    covered = np.zeros(total, bool)
    for indices, (values, offsets, *_) in segments:
        at = np.frombuffer(offsets, np.int64, len(indices))
        scored = at >= 0
        where = np.asarray(indices, np.int64)[scored]
        at = at[scored]
        values = np.frombuffer(values, np.float64)
        for k in range(len(plans)):
            for j, field in enumerate(fields):
                columns[k, j, where] = values[at + (k * width + _VALUE[field])]
        covered[where] = True
    if not covered.all():
        return None
    out = {}
    for k, plan in enumerate(plans):
        hits, cand, ref, exponent, p, r = columns[k]
        a = alphas[k]
        with np.errstate(all="ignore"):  # spec_f_measure, elementwise: the same operations in the same order
            denominator = (1.0 - a) * p + a * r
            f = np.where(denominator > 0.0, (p * r) / denominator, 0.0)
        undefined = np.isnan(p) | np.isnan(r)
        if undefined.any():
            f[undefined] = np.nan
        arrays = ((p, r, f), (hits, cand, ref), np.ones(total, bool), float(exponent[0]) if total else None,
                  bool((exponent == 1.0).all()))
        out[plan[5]] = (arrays, plan[6])
    return out


def batch_columns(batch: "BatchScores | list", methods: Sequence[str]) -> tuple[dict, list]:
    """A scored chunk as a streamed run keeps and writes it: per method the statistics arrays
    (corpus_stats.record_arrays's) and per method (name, P, R, F, each pair's signature) for
    cli.CsvRows.write_chunk; read from the kernels' output (BatchScores.columns) where that
    applies, else from the records (a BatchScores' or a list of them)."""
    from operator import attrgetter

    from .corpus_stats import record_arrays

    n = len(batch)
    columns = batch.columns() if isinstance(batch, BatchScores) else None
    if columns is not None:
        arrays = {m: columns[m][0] for m in methods}
        signatures = {m: [columns[m][1]] * n for m in methods}
    else:
        records = batch.pairs if isinstance(batch, BatchScores) else batch
        arrays, signatures = {}, {}
        for m in methods:
            method_scores = [pair[m] for pair in records]
            arrays[m] = record_arrays(method_scores)
            signatures[m] = list(map(attrgetter("signature"), method_scores))
    return arrays, [(m, *arrays[m][0], signatures[m]) for m in methods]


def score_batch(
    candidates: Sequence[str],
    references_per_pair: Sequence[Sequence[str]],
    methods: Sequence[str | Method],
    options: Options | str | None = None,
    *,
    workers: int = 1,
    ids: Sequence[str] | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    cost_limit: CostLimit | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BatchScores:
    """Score every (candidate, references) pair with every method, no evidence.

    workers: threads over the compiled kernels (1: this thread only); chunk_size: pairs a
    thread takes at a time (when Python tokenizes: pairs per chunk it tokenizes). cost_limit
    bounds each pair as in `score_corpus` (a pair above it raises CostLimitError naming the
    pair by its id, or its 1-based number without ids); a bad text raises TypeError /
    ValueError naming the pair. progress(done, total) for every pair, in
    order, once it and every pair before it are scored (this thread reports after each block
    it scores)."""
    resolve_limit(cost_limit)
    if len(candidates) != len(references_per_pair):
        raise ValueError(f"{len(candidates)} candidates but {len(references_per_pair)} reference lists")
    if workers < 1 or chunk_size < 1:
        raise ValueError("workers and chunk_size must be at least 1")
    opts = resolve_options(options, {})
    names = _method_names(tuple(methods), opts)
    total = len(candidates)
    pair_ids = [str(x) for x in ids] if ids is not None else None

    def name_of(i: int) -> str:
        return pair_ids[i] if pair_ids is not None else str(i + 1)

    _, _, planned, compiled = _method_plans(names, opts, 1)
    if not native.active():
        compiled = None
    if compiled is None:  # the pure path, or a method without a kernel: pair by pair
        pairs = []
        for i in range(total):
            pairs.append(_score_in_python(candidates[i], references_per_pair[i], names, opts, cost_limit, name_of(i)))
            if progress is not None:
                progress(i + 1, total)
        return BatchScores(total, lambda: pairs)

    # The kernels tokenize (and stem, through the shared table of stems) on any thread, or
    # Python tokenizes on this one.
    tokenizer = text_tokenizer(native.active(), *opts.tokenize_key())
    rule = word_rule(opts.tokenizer, opts.lowercase) if tokenizer is not None else None
    stems = _stems_in_kernels(opts) if tokenizer is None and native.active() else None
    if stems is not None:
        rule = word_rule(opts.tokenizer, opts.lowercase)
    kernels_tokenize = rule is not None
    # reference lists and tuples go to the kernels as they are; another value's pair is left to Python
    refs_lists = list(references_per_pair)
    # The most references a pair has (the jobs' bound, the records' plans), read in one pass in C;
    # a head-first batch reads it while the pool threads score the head (_run_head_first). Each
    # pair's records are built by its job's own count (job.counts): a reference list the caller
    # changes during the call or after cannot shift them.
    whole: list = []  # [(counts, most)] once read

    def counts_of_all() -> tuple[list[int], int]:
        if not whole:
            whole.append(native.reference_counts(refs_lists))
        return whole[0]

    compiled_plans = _plans_of(names, opts, 1)[3]
    pair_done = each_pair(progress)

    def job_of(start: int, end: int, block: int = chunk_size):
        cands, refs = candidates[start:end], refs_lists[start:end]
        if type(cands) is not list:  # (a list's slice is a new list already)
            cands = list(cands)
        # the head's job by the head's own counts (a text of max_bytes keeps a pair of up to `most`
        # references within the cost bound); any other job by the whole batch's
        most = native.reference_counts(refs)[1] if end < total and not whole else counts_of_all()[1]
        if not kernels_tokenize:
            cands, refs = _tokens_for(cands, refs, planned, opts, cost_limit)
        longest = _max_bytes(names, opts, most, cost_limit) if kernels_tokenize else 0
        return native.batch_job(compiled_plans, cands, refs, rule, longest, most, opts.alpha,
                                opts.empty == "nan", block, stems)

    if kernels_tokenize:
        block = _shared_block(candidates, refs_lists, workers, chunk_size)
        segments = _run_head_first(partial(job_of, block=block), total, block, workers, pair_done)
        max_refs = counts_of_all()[1]
        max_bytes = _max_bytes(names, opts, max_refs, cost_limit)
        unscored = [indices[k] for indices, (_, _, left, _) in segments for k in left]
        long_texts = _longer_than(unscored, candidates, refs_lists, max_bytes)
        if long_texts:
            # Texts too long to score unchecked: their costs checked now, the pairs within the
            # bound go to a second job on the same threads (not one by one on this thread).
            cands, refs = _tokens_for([candidates[i] for i in long_texts], [refs_lists[i] for i in long_texts],
                                      planned, opts, cost_limit)
            job = native.batch_job(compiled_plans, cands, refs, None, max_bytes, max_refs, opts.alpha,
                                   opts.empty == "nan", _shared_block(cands, refs, workers, chunk_size, long=True))
            segments.append((long_texts, _run_shared(job, workers, None, len(long_texts))))
    else:
        counts_of_all()  # (before the chunks: each job is made by the whole batch's counts)
        segments = [(range(start, end), job) for start, end, job in
                    _run_pipelined(job_of, total, chunk_size, workers, pair_done)]
        max_refs = counts_of_all()[1]
    # Pairs the kernels left out (a later job's word counts over an earlier one's), scored in
    # Python in input order (so the first error is the first bad pair's).
    left_out: set[int] = set()
    covered_later: set[int] = set()
    for at in range(len(segments) - 1, -1, -1):
        indices, (_, _, unscored, _) = segments[at]
        left_out.update(i for i in (indices[k] for k in unscored) if i not in covered_later)
        if any(segments[earlier][1][2] for earlier in range(at)):  # (else no earlier pair asks: this thread's
            covered_later.update(indices)                           # serial time at the batch's end)
    python_scored: dict[int, dict[str, MethodScore]] = {}
    for i in sorted(left_out):
        python_scored[i] = _score_in_python(candidates[i], references_per_pair[i], names, opts, cost_limit, name_of(i))

    def build() -> list[dict[str, MethodScore]]:
        plans_for = _plans_by_count(names, opts, max_refs)
        score_fn = None if opts.round_pr is None else partial(score_from_stats, options=opts)
        out: list = [None] * total
        for indices, (values, offsets, _, read) in segments:
            counts = memoryview(read).cast("q").tolist()
            records = native.batch_records(plans_for, values, offsets, counts, opts.alpha, opts.empty == "nan",
                                           score_fn)
            for k, item in enumerate(records):
                i = indices[k]
                if item is None:
                    if i in python_scored:  # else a later job scores it
                        out[i] = python_scored[i]
                elif isinstance(item, dict):
                    out[i] = item
                else:  # several references: combined as score_documents combines them
                    plans = plans_for[counts[k]]
                    out[i] = {plan[5]: combine_references(plan[4], list(per_ref), opts, plan[6])
                              for plan, per_ref in zip(plans, item)}
        return out

    def build_columns() -> dict | None:
        import numpy as np

        # one reference a pair, by each job's own counts (as build() reads them)
        if left_out or max_refs != 1 or opts.round_pr is not None or any(
                len(read) and np.frombuffer(read, np.int64).min() != 1 for _, (_, _, _, read) in segments):
            return None
        return _kernel_columns(_method_plans(names, opts, 1)[3], segments, total, opts.alpha)

    return BatchScores(total, build, build_columns)


class _Helpers:
    """The pool threads of every batch, kept from call to call: starting a thread costs about
    0.1-0.3 ms, much of what a second thread gains on a batch of a few hundred pairs. It grows
    when a call asks for more threads than it has (threads start only when none is idle); a
    process forked from this one starts afresh (the parent's threads do not exist there)."""

    def __init__(self):
        self._forget()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._size = 0

    def submit(self, threads: int, run: Callable[[], object], times: int = 1) -> list[Future]:
        """`run` submitted `times` times to a pool of at least `threads` threads."""
        with self._lock:
            if self._pool is None or self._size < threads:
                if self._pool is not None:
                    self._pool.shutdown(wait=False)  # its threads end once their tasks are done
                self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="rouge_core.corpora.batch")
                self._size = threads
            return [self._pool.submit(run) for _ in range(times)]


HELPERS = _Helpers()


MIN_BLOCK_BYTES = 32_768  # text a block holds at least (about 0.3 ms of work): less costs a thread more than it saves
BLOCKS_PER_THREAD = 64  # so that a thread slowed down by other load takes fewer blocks and the end is shared out
# finely: the batch ends when its last block does, the other threads idle meanwhile (half a block on average; at 16
# a thread, 10,000 summary pairs made blocks of about 1.5 ms on two threads' 25 ms); a block costs a thread one
# atomic step, so smaller blocks are free down to MIN_BLOCK_BYTES


def _shared_block(candidates: Sequence, refs_lists: Sequence, workers: int, chunk_size: int, long: bool = False) -> int:
    """Pairs per block of a job the threads share: at most `chunk_size`, few enough that each
    thread takes several blocks (a batch of 50 long pairs is not one block for one thread),
    many enough that a block holds MIN_BLOCK_BYTES of text (judged on the first pairs; `long`:
    every pair long)."""
    total = len(candidates)
    if workers == 1 or total <= 1:
        return chunk_size
    sample = range(min(total, 16))
    size = sum(_text_size(candidates[i]) + sum(map(_text_size, refs_lists[i]))
               if isinstance(refs_lists[i], (list, tuple)) else 0 for i in sample) / len(sample)
    at_least = 1 if long else -(-MIN_BLOCK_BYTES // max(int(size), 1))
    shared = -(-total // (workers * BLOCKS_PER_THREAD))
    return max(1, min(chunk_size, max(shared, at_least)))


def _text_size(text) -> int:
    """A text's length (a str's characters, a Tokens' tokens times 6: a word and a space; 0 for
    a value that is no text, which the pair's scoring refuses later)."""
    if type(text) is str:
        return len(text)
    try:
        return 6 * len(text)
    except TypeError:
        return 0


def _run_shared(job, workers: int, pair_done: Callable[[int, int], None] | None, total: int) -> tuple:
    """Score a job whose texts the kernels tokenize: this thread and up to workers - 1 pool
    threads take its blocks in turn (a job of one block runs on this thread alone), so there
    is no Python work per block. This thread reports progress after each block it scores, up
    to the pairs done in a row from the first; if it stops (an error, an interrupt) the others
    stop after their current block. A pool thread still busy with another batch when this
    thread has taken the last block is not waited for. Returns the job's _outcome."""
    helpers = min(workers, job.blocks) - 1
    running = HELPERS.submit(helpers, job.run, helpers) if helpers > 0 else []
    try:
        if pair_done is None:
            job.run()
        else:
            while job.run(1):
                pair_done(job.done(), total)
    except BaseException:  # a progress callback's error, an interrupt: the helpers stop too
        job.cancel()
        for run in running:
            run.cancel()
        raise
    for run in running:
        if not run.cancel():  # started: it may be scoring a block
            run.result()
    if pair_done is not None:
        pair_done(total, total)
    return _outcome(job)


HEAD_FIRST_PAIRS = 2048  # fewer pairs' job is made in well under a millisecond: one job


def _outcome(job) -> tuple:
    """A finished job's (values, offsets, unscored pairs, reference counts as it read them: its
    values' records are built by these)."""
    return (*job.result(), job.counts())


def _run_head_first(job_of: Callable[[int, int], object], total: int, block: int, workers: int,
                    pair_done: Callable[[int, int], None] | None) -> list[tuple]:
    """Score a batch whose texts the kernels tokenize (_run_shared), its job made in two parts
    when the pool's threads would otherwise wait for it: the pool threads score the head
    (the first pairs) while this thread makes the job of the rest (reading every text, and
    score_batch the whole batch's reference counts, the head's job made by its own, in
    Python's memory and with the GIL: a few milliseconds for 10,000 pairs, a serial share
    that caps what a second thread gains), then every thread takes the head's blocks left and
    the rest's. A pool thread needs the GIL to start scoring, and making a job holds it
    throughout: until one is scoring, this thread scores the head's blocks (giving the GIL up
    meanwhile) rather than wait idle, then makes the rest. Returns (indices, job _outcome) per
    part."""
    head = total // (4 * workers) // block * block if total >= HEAD_FIRST_PAIRS else 0
    if workers == 1 or head == 0:
        return [(range(total), _run_shared(job_of(0, total), workers, pair_done, total))]
    made: list = []  # the head's job, then the rest's
    head_made, rest_made, scoring = threading.Event(), threading.Event(), threading.Event()

    def helper() -> None:
        head_made.wait()
        if made:
            scoring.set()
            made[0].run()
        rest_made.wait()
        if len(made) > 1:  # (none: making it failed)
            made[1].run()

    running = HELPERS.submit(workers - 1, helper, workers - 1)  # waking up while the head is made
    try:
        try:
            made.append(job_of(0, head))
        finally:
            head_made.set()  # the helpers go on (or stop: no head, an error)
        while not scoring.is_set() and made[0].run(1):  # (a pool thread slow to start: other load)
            pass
        try:
            made.append(job_of(head, total))
        finally:
            rest_made.set()
        first, rest = made
        if pair_done is None:
            first.run()
            rest.run()
        else:
            while first.run(1):
                pair_done(first.done(), total)
            while rest.run(1):
                pair_done(head + rest.done() if first.done() == head else first.done(), total)
    except BaseException:  # as _run_shared: the helpers stop after their current block
        head_made.set()  # a helper still waiting for a part (the head's job failed) goes on and finds it missing
        rest_made.set()
        for job in made:
            job.cancel()
        for run in running:
            run.cancel()
        raise
    for run in running:
        if not run.cancel():
            run.result()
    if pair_done is not None:
        pair_done(total, total)
    return [(range(head), _outcome(first)), (range(head, total), _outcome(rest))]


def _run_pipelined(job_of: Callable[[int, int], object], total: int, chunk_size: int, workers: int,
                   pair_done: Callable[[int, int], None] | None) -> list[tuple]:
    """Score chunk by chunk when Python tokenizes: this thread tokenizes each chunk (a user's
    tokenizer or a segmenter, MeCab or jieba, need not be thread-safe) while pool threads
    score earlier ones; at most `workers` chunks wait, and results are taken in input order.
    Returns (start, end, job _outcome) per chunk."""
    chunks = [(start, min(start + chunk_size, total)) for start in range(0, total, chunk_size)]
    segments = []

    def finish(start: int, end: int, job) -> None:
        segments.append((start, end, _outcome(job)))
        if pair_done is not None:
            pair_done(end, total)

    if workers == 1 or len(chunks) == 1:
        for start, end in chunks:
            job = job_of(start, end)
            job.run()
            finish(start, end, job)
        return segments
    waiting: deque = deque()
    try:
        for start, end in chunks:
            job = job_of(start, end)
            waiting.append((start, end, job, HELPERS.submit(workers, job.run)[0]))
            while len(waiting) > workers:
                start, end, job, run = waiting.popleft()
                run.result()
                finish(start, end, job)
        while waiting:
            start, end, job, run = waiting.popleft()
            run.result()
            finish(start, end, job)
    finally:  # an error (a pair's, a progress callback's): the chunks still waiting are dropped
        for _, _, job, run in waiting:
            job.cancel()
            run.cancel()
    return segments


def _longer_than(unscored: list[int], candidates: Sequence, refs_lists: list, max_bytes: int) -> list[int]:
    """Of the pairs a job left out, those of texts the compiled tokenizers take (str, valid
    Unicode) one of which is longer than `max_bytes` of UTF-8 (the pairs whose costs must be
    checked before the kernels score them)."""
    def utf8_length(text) -> int | None:
        if type(text) is not str:
            return None
        if text.isascii():
            return len(text)
        try:
            return len(text.encode("utf-8"))
        except UnicodeEncodeError:  # a lone surrogate: scored (and refused) the ordinary way
            return None

    out = []
    for i in unscored:
        refs = refs_lists[i]
        if not isinstance(refs, (list, tuple)) or not refs:
            continue
        lengths = [utf8_length(t) for t in (candidates[i], *refs)]
        if None not in lengths and max(lengths) > max_bytes:
            out.append(i)
    return out


def _score_in_python(candidate, references, names, opts, cost_limit, pair: str) -> dict[str, MethodScore]:
    """One pair the ordinary way (rouge_core.corpora.pairs.score_pair_stats), errors naming the pair."""
    try:
        return score_pair_stats(candidate, tuple(references), names, opts, cost_limit)
    except CostLimitError as exc:
        raise exc.with_pair(pair) from None
    except (TypeError, ValueError) as exc:
        raise (TypeError if isinstance(exc, TypeError) else ValueError)(f"pair {pair}: {exc}") from None


def _tokens_for(cands: list, refs: list, methods: tuple[Method, ...], opts: Options,
                cost_limit: CostLimit | None) -> tuple[list, list]:
    """The chunk's pairs tokenized in Python, as Tokens, each pair's cost checked; a pair that
    cannot go to the kernels (a bad value, a cost above the bound, ROUGE-1.5.5's `-b` view,
    terms that are not strings) keeps its texts, so the kernels leave it to the Python path."""
    out_cands, out_refs = [], []
    for cand, rs in zip(cands, refs):
        try:
            budget = None if cost_limit is UNBOUNDED else Budget(cost_limit)
            cand_doc, ref_docs = prepare_pair(cand, list(rs), opts, budget)
            docs = [cand_doc, *ref_docs]
            check_call(methods, docs[0], docs[1:], opts, False, cost_limit, budget)
            tokens = [native.tokens_of(d) if d.lcs_view is None else None for d in docs]
        except (TypeError, ValueError):  # CostLimitError included: raised again, naming the pair
            tokens = [None]
        if None in tokens:
            out_cands.append(cand)
            out_refs.append(rs)
        else:
            out_cands.append(tokens[0])
            out_refs.append(tokens[1:])
    return out_cands, out_refs


def _stems_in_kernels(opts: Options):
    """The shared table of stems (rouge_core.text.tokenize.stem_map) through which the kernels
    stem the words they tokenize, when these settings are the compiled tokenizers' but for
    stemming or stopwords; else None (Python tokenizes)."""
    settings = stemmed_settings(*opts.tokenize_key()[:8])
    return None if settings is None else settings[0][1]


def _method_names(methods: tuple, opts: Options) -> tuple[str, ...]:
    """The methods' names (parsed once per methods and settings: this thread's serial time)."""
    try:
        return _cached_names(methods, opts)
    except TypeError:  # an unhashable method: parsed (and refused) the ordinary way
        return tuple(parse_method(m, opts).name for m in methods)


@lru_cache(maxsize=256)
def _cached_names(methods: tuple, opts: Options) -> tuple[str, ...]:
    return tuple(parse_method(m, opts).name for m in methods)


def _plans_by_count(names: tuple[str, ...], opts: Options, max_refs: int) -> tuple:
    """Per reference count 0..max_refs, the kernels' plans (their signatures name the count)."""
    return tuple(native.plans(_method_plans(names, opts, n)[3]) if n else None for n in range(max_refs + 1))


def _max_bytes(names: tuple[str, ...], opts: Options, max_refs: int, cost_limit: CostLimit | None) -> int:
    """The longest text (in bytes of UTF-8) that keeps a pair of max_refs references within the
    cost bound whatever its shape: text of c bytes has at most (c + 1) // 2 tokens under the
    compiled tokenizers (no lower case in their table is longer than its UTF-8:
    kernel_spec.lowerings) and as many sentences plus one. Longer texts are checked the ordinary
    way."""
    limit = resolve_limit(cost_limit)
    if limit.unbounded:
        return 2**62
    return _longest_within(names, opts, max(max_refs, 1), limit)


@lru_cache(maxsize=256)
def _longest_within(names: tuple[str, ...], opts: Options, refs: int, limit: CostLimit) -> int:
    methods = [parse_method(n) for n in names]

    stemming = cost._changes_words(opts)

    def fits(chars: int) -> bool:
        tokens = (chars + 1) // 2
        side = cost.Shape(tokens, tokens + 1, tokens)
        estimates = [cost._method_estimate(m, side, [side] * refs, False, opts) for m in methods]
        if stemming:  # every word a new type for the stemmer, in every text
            text = cost.tokenize_estimate(cost.TextShape(chars, "compiled"), opts, tokens, tokens)
            estimates += [text] * (1 + refs)
        return limit.allows(cost.total(estimates))

    return cost.largest_fitting(fits)

