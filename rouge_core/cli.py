"""The command line: `python -m rouge_core` / `rouge-lens`.

One path from the files to the numbers, the same the app takes: the corpus readers
(rouge_core.corpora.corpus_io) -> score_corpus (one system at a time, on --workers threads over
the compiled kernels, or processes on the pure path) ->
aggregates (macro and micro, --bootstrap intervals) -> paired significance tests between
systems -> a table, CSV or JSON that carries every number with its signature.

Inputs, one of:
  -c CANDS.txt [-c CANDS2.txt ...] -r REFS.txt [-r REFS2.txt ...]
      parallel files, one text per line; line i of every file belongs to pair i. Each -c
      file is one system (named by its file), each -r file one reference. "-" reads that
      file from standard input.
  --jsonl PAIRS.jsonl
      one object per line: {"candidate": TEXT, "references": [TEXT, ...]} (or one candidate
      key per system: "candidate_A", "candidate_B", ...), where a TEXT is a string (newlines
      are sentence breaks) or a list of sentences; "references" may also be a single TEXT.
  --corpus FILE.csv|.tsv|.jsonl|.json
      a table as the app's Corpus page reads it: an id column, one candidate column per
      system, reference columns (see rouge_core.corpora.corpus_io).
Sentences: inside a line of a -c/-r file they are separated by "<q>" (--sentence-sep changes
it; "" turns it off) or a literal "\\n"; in --jsonl and --corpus files a text keeps its own
line breaks (or is a JSON list of sentences); as in the app (rouge_core.corpora.corpus_io).
Files are UTF-8 (or UTF-16/32 with a BOM); lines end at "\\n" only (rouge_core.text.textio).

Cost: a pair whose estimated cost is above the bound (about 2 s and 500 MB; e.g. rougeS* on
long texts) stops the run with an error naming the pair and a bounded alternative before
anything is printed; --no-cost-limit lifts the bound.

Comparing two systems: `rouge-lens compare` takes the same inputs and options (and --source
FILE, one source document per line, beside -c/-r files; a table's `source` column is read by
itself), scores every system, then compares --system-a and --system-b on the first of
--methods: the paired tests, the reference n-grams each matches and the other misses (sign
test per n-gram), scores bucketed by reference length, candidate length, word frequency and
sentence position, the length ratios and, with sources, coverage, density, compression and
novel n-grams of every system; --report FILE.html writes it all as one self-contained HTML file.

Output: per system, the macro mean and the micro (pooled) score of every method; with
--bootstrap N their percentile intervals (N resamples, --seed, --confidence); with several
systems, for every pair of systems and method, the mean difference with its interval and
two paired significance tests (paired bootstrap, approximate randomization). --per-pair adds
every pair to the table; CSV and JSON always carry the pairs. Every row carries its
reproducibility signature. -c/-r files and --jsonl are read, scored and written a chunk of
pairs at a time (CSV rows as they are scored), so memory does not grow with the corpus beyond
its per-pair statistics (rouge_core.corpora.corpus_stats); --corpus tables are read whole. With
--workers N (N >= 2) those chunks are decoded, scored and formatted in N worker processes, this
process writing them in input order: the same output, warnings and errors as one process. Progress
goes to stderr ("scored 1,000 pairs", a few lines per tenfold). -o FILE is written only when
the run succeeds. Errors are one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import stat
import sys
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain, combinations, repeat
from typing import Iterable, Iterator, Sequence

from .corpora import corpus_io
from .text.languages import canonical
from .corpora.corpus import CorpusResult, SystemComparison, compare_systems, score_corpus
from .errors import short_text
from .scorer.cost import UNBOUNDED, CostLimitError, bootstrap_corpus_estimate, check_resampling, paired_tests_estimate
from .families.methods import parse_method, spellings
from .text.options import MULTI_REF_MODES, PROFILES, profile
from .scorer.scoring import DEFAULT_METHODS
from .text.sentences import SENTENCE_SPLITTERS
from .text.textio import InputError, decode_bytes, split_lines
from .version import __version__
from .text.words import DIACRITICS_AWARE, LANGUAGE_AWARE, TOKENIZERS, load_tokenizer, tokenizer_label

PROG = "rouge-lens"
PROGRESS_EVERY = 1000
NO_COST_LIMIT_FLAG = "--no-cost-limit"
STDIN = "-"


class CliError(InputError):
    """A user error: printed as one line, exit status 2 (one of the InputError family)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line instead of usage + message
        raise CliError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="ROUGE scores of candidates against references, with signatures.",
                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    src = p.add_argument_group("input")
    src.add_argument("-c", "--candidates", metavar="FILE", action="append", default=[],
                     help="candidate texts, one per line; repeat for several systems; - for standard input")
    src.add_argument("-r", "--ref", "--references", dest="refs", metavar="FILE", action="append", default=[],
                     help="reference texts, one per line (repeat for several references)")
    src.add_argument("--jsonl", metavar="FILE", help='JSONL with "candidate" and "references" per line')
    src.add_argument("--corpus", metavar="FILE", help="a CSV, TSV, JSON lines or JSON table (as the app reads it)")
    src.add_argument("--sentence-sep", default=corpus_io.SENTENCE_MARKER, metavar="SEP",
                     help=f'sentence separator inside a line (default "{corpus_io.SENTENCE_MARKER}"; "" for none)')
    m = p.add_argument_group("scoring")
    m.add_argument("-m", "--methods", nargs="+", default=list(DEFAULT_METHODS), metavar="METHOD",
                   help=f"{spellings()}, "  # every registered family (rouge_core.families.methods)
                        "or a name the profile's tool prints (ROUGE-2, ROUGE-L, ROUGE-W-1.2, ROUGE-SU4: under "
                        "rouge-1.5.5 ROUGE-L is rougeLsum); results are keyed by rouge_core's names "
                        f"(default: {' '.join(DEFAULT_METHODS)})")
    m.add_argument("-p", "--profile", default="rouge-score", help=f"preset: {', '.join(PROFILES)} (default rouge-score)")
    m.add_argument("--tokenizer", metavar="NAME|MODULE:FUNCTION",
                   help=f"{', '.join(TOKENIZERS)}, or your own function text -> tokens imported from MODULE "
                        "(found from the current directory too), e.g. mytok:split")
    m.add_argument("--language", metavar="LANG",
                   help="the texts' language, read by the unicode, cjk and multilingual tokenizers (e.g. thai, chinese, "
                        "japanese, hindi; XL-Sum's names and aliases)")
    m.add_argument("--strip-diacritics", action="store_true",
                   help="drop Arabic harakat and Hebrew niqqud from words (unicode and cjk tokenizers)")
    m.add_argument("--stemmer", help="none, porter, rouge155, snowball-<language> or xlsum-<language>")
    m.add_argument("--stopwords", metavar="LIST", help="none, smart, or a file of words (one per line)")
    m.add_argument("--sentence-split", choices=SENTENCE_SPLITTERS, help="how texts split into sentences")
    m.add_argument("--case-sensitive", action="store_true", help="do not lower-case tokens")
    m.add_argument("--multi-ref", choices=MULTI_REF_MODES, help="how several references combine")
    m.add_argument(NO_COST_LIMIT_FLAG, action="store_true",
                   help="score pairs whose estimated cost is above the bound (about 2 s and 500 MB per pair)")
    m.add_argument("--workers", type=int, default=1, metavar="N",
                   help="-c/-r files and --jsonl: read, score and format chunks of pairs in N worker processes "
                        "(the same output); --corpus: score on N threads over the compiled kernels (processes on "
                        "the pure path); default 1")
    weights = m.add_mutually_exclusive_group()
    weights.add_argument("--alpha", type=float, help="F = PR / ((1-alpha)P + alpha R), in [0, 1]")
    weights.add_argument("--beta", type=float, help="F-beta (recall beta times as important)")
    stats = p.add_argument_group("statistics")
    stats.add_argument("--bootstrap", type=int, default=0, metavar="N",
                       help="N resamples: intervals of every mean and, with several systems, paired tests (default 0: none)")
    stats.add_argument("--seed", type=int, default=0, help="seed of the resampling (default 0)")
    stats.add_argument("--confidence", type=float, default=95.0, metavar="PCT", help="interval confidence (default 95)")
    out = p.add_argument_group("output")
    out.add_argument("-f", "--format", choices=("table", "csv", "json"), default="table")
    out.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    out.add_argument("--per-pair", action="store_true", help="table: show every pair, not only the aggregates")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    out.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return p


# --- reading: the corpus readers every front door uses -------------------------------------------


# What the command line reads of one input file, by default (--no-cost-limit: no limit): a corpus
# far larger than this takes minutes to score and gigabytes to hold; a device such as /dev/zero
# never ends.
MAX_INPUT_BYTES = 512 * 1024 * 1024
MAX_INPUT_LABEL = "512 MB"
PIPE_WAIT_SECONDS = 10  # how long a named pipe may stay without a writer


def _too_large(path: str) -> CliError:
    return CliError(f"{path}: more than {MAX_INPUT_LABEL}, the most one input is read by default; run again with "
                    f"{NO_COST_LIMIT_FLAG} to read it all")


def _read_stream(stream, path: str, limit: int | None) -> bytes:
    """Everything `stream` gives, or CliError once it gives more than `limit` bytes."""
    if limit is None:
        return stream.read()
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large(path)
    return data


def _read_bytes(path: str, stdin, limit: int | None = MAX_INPUT_BYTES) -> bytes:
    """The bytes of an input: a regular file (refused before reading when larger than `limit`),
    standard input ("-") or a pipe or device (read up to `limit`); a named pipe that no program
    writes to within PIPE_WAIT_SECONDS is refused instead of waited for forever."""
    if path == STDIN:
        return _read_stream(stdin, "standard input", limit)
    _check_path(path)
    try:
        info = os.stat(path)
        if stat.S_ISREG(info.st_mode):
            if limit is not None and info.st_size > limit:
                raise _too_large(path)
            with open(path, "rb") as fh:
                return _read_stream(fh, path, limit)
        if stat.S_ISFIFO(info.st_mode):
            return _read_pipe(path, limit)
        with open(path, "rb") as fh:  # a device or a socket: read as a stream, never more than the limit
            return _read_stream(fh, path, limit)
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror})") from None


def _check_path(path: str) -> None:
    if not os.path.exists(path):
        raise CliError(f"{path}: no such file")
    if os.path.isdir(path):
        raise CliError(f"{path}: is a directory, not a file")


def _source_file(args, stdin, limit: int | None):
    path = getattr(args, "source", None)
    return None if not path else (path, _read_bytes(path, stdin, limit))
def _read_pipe(path: str, limit: int | None) -> bytes:
    """A named pipe, read once a writer has written (or closed)."""
    with _open_pipe(path) as fh:
        return _read_stream(fh, path, limit)


def _open_pipe(path: str):
    """A named pipe opened without waiting, returned once a writer has written (or closed); one
    that no program writes to within PIPE_WAIT_SECONDS is refused instead of waited for forever."""
    import select

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP)
        if not poller.poll(PIPE_WAIT_SECONDS * 1000):
            raise CliError(f"{path}: a named pipe that nothing wrote to in {PIPE_WAIT_SECONDS} s; start the program "
                           "that writes to it first, or give a regular file (or - for standard input)")
        os.set_blocking(fd, True)
        fh = os.fdopen(fd, "rb", closefd=True)
        fd = -1
        return fh
    finally:
        if fd >= 0:
            os.close(fd)


def read_corpus(args, stdin) -> corpus_io.Corpus:
    """The corpus the arguments name, read as the app reads it (inputs up to MAX_INPUT_BYTES and
    corpus_io.DEFAULT_MAX_ROWS rows unless --no-cost-limit)."""
    limit = None if args.no_cost_limit else MAX_INPUT_BYTES
    max_rows = None if args.no_cost_limit else corpus_io.DEFAULT_MAX_ROWS
    sources = [bool(args.candidates or args.refs), bool(args.jsonl), bool(args.corpus)]
    if sum(sources) > 1:
        raise CliError("give one input: -c/-r files, --jsonl FILE or --corpus FILE")
    if [*args.candidates, *args.refs, args.jsonl, args.corpus].count(STDIN) > 1:
        raise CliError("only one input can be read from standard input (-)")
    if getattr(args, "source", None) and (args.jsonl or args.corpus):
        raise CliError("--source goes with -c/-r files; a --jsonl or --corpus file holds its sources in a 'source' field")
    if args.jsonl or args.corpus:
        path = args.jsonl or args.corpus
        data = _read_bytes(path, stdin, limit)
        name = "stdin.jsonl" if path == STDIN and args.jsonl else path
        table = corpus_io.read_jsonl(data, name, max_bytes=None, max_rows=max_rows) if args.jsonl else \
            corpus_io.read_table(data, name, max_bytes=None, max_rows=max_rows)
        return corpus_io.build_corpus(table)
    if not args.candidates or not args.refs:
        raise CliError("give -c CANDIDATES and at least one -r REFERENCES file, --jsonl FILE or --corpus FILE")
    if len(set(args.candidates)) < len(args.candidates):
        raise CliError("the same candidate file is given twice")
    return corpus_io.read_parallel({p: _read_bytes(p, stdin, limit) for p in args.candidates},
                                   {p: _read_bytes(p, stdin, limit) for p in args.refs},
                                   marker=args.sentence_sep, max_bytes=None, max_rows=max_rows,
                                   source_file=_source_file(args, stdin, limit))


def _tokenizer(spec: str):
    """A built-in tokenizer's name, or the user's function imported from "module:function"
    (the current directory is searched too, as `python -m` does)."""
    if spec in TOKENIZERS:
        return spec
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    try:
        return load_tokenizer(spec)
    except ValueError as exc:
        raise CliError(f"--tokenizer: {exc}") from None


def _check_language_options(opts) -> None:
    """--language and --strip-diacritics with a tokenizer that does not read them would change
    no number while the user expects them to: say so instead."""
    name = tokenizer_label(opts.tokenizer)
    if opts.language is not None and opts.tokenizer not in LANGUAGE_AWARE:
        raise CliError(f"--language {opts.language} changes nothing with the {name} tokenizer; use it with "
                       f"--tokenizer {' / '.join(LANGUAGE_AWARE)} (or --profile multilingual)")
    if opts.strip_diacritics and opts.tokenizer not in DIACRITICS_AWARE:
        raise CliError(f"--strip-diacritics changes nothing with the {name} tokenizer; use it with "
                       f"--tokenizer {' / '.join(DIACRITICS_AWARE)}")


def build_options(args, stdin):
    overrides = {}
    if args.tokenizer:
        overrides["tokenizer"] = _tokenizer(args.tokenizer)
    if args.language:
        try:
            overrides["language"] = canonical(args.language)
        except ValueError as exc:
            raise CliError(f"--language: {exc}") from None
    if args.strip_diacritics:
        overrides["strip_diacritics"] = True
    if args.stemmer:
        overrides["stemmer"] = args.stemmer
    if args.stopwords:
        if args.stopwords in ("none", "smart"):
            overrides["stopwords"] = args.stopwords
        else:
            text = decode_bytes(_read_bytes(args.stopwords, stdin, None if args.no_cost_limit else MAX_INPUT_BYTES),
                                args.stopwords)
            overrides["stopwords"] = frozenset(w.strip().lower() for w in split_lines(text) if w.strip())
    if args.sentence_split:
        overrides["sentence_split"] = args.sentence_split
    if args.case_sensitive:
        overrides["lowercase"] = False
    if args.multi_ref:
        overrides["multi_ref"] = args.multi_ref
    if args.alpha is not None:
        overrides["alpha"] = args.alpha
    if args.beta is not None:
        if not args.beta >= 0:
            raise CliError(f"--beta must be non-negative, got {args.beta}")
        from .stats import alpha_from_beta

        overrides["alpha"] = alpha_from_beta(args.beta)
    try:
        opts = profile(args.profile, **overrides)
        if opts.stemmer != "none":
            from .text.stemming import get_stemmer

            get_stemmer(opts.stemmer, opts.data_dir)
    except (ValueError, TypeError) as exc:
        raise CliError(str(exc)) from None
    _check_language_options(opts)
    return opts


def _check_statistics(args) -> None:
    if args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")
    if args.bootstrap < 0:
        raise CliError(f"--bootstrap must be a number of resamples (0 for none), got {args.bootstrap}")
    if not 0 < args.confidence < 100:
        raise CliError(f"--confidence must be a percentage between 0 and 100, got {args.confidence:g}")


# --- scoring: score_corpus per system, the library's aggregates and tests ------------------------


@dataclass
class Report:
    """What a run computed: per system its CorpusResult (and bootstrap), and the comparisons."""

    corpus: corpus_io.Corpus | None  # None when the input was streamed (rouge_core.corpora.corpus_stream)
    results: dict[str, CorpusResult]
    bootstraps: dict
    comparisons: list[SystemComparison]
    resamples: int
    seed: int
    confidence: float

    @property
    def pairs(self) -> int:
        return len(next(iter(self.results.values())))

    @property
    def methods(self) -> tuple[str, ...]:
        return next(iter(self.results.values())).methods

    @property
    def signatures(self) -> dict[str, str]:
        return next(iter(self.results.values())).signatures


def run(corpus: corpus_io.Corpus, methods, opts, *, workers: int = 1, resamples: int = 0, seed: int = 0,
        confidence: float = 95.0, no_cost_limit: bool = False, progress=None) -> Report:
    cost_limit = UNBOUNDED if no_cost_limit else None
    if resamples:
        _check_resampling(corpus, methods, resamples, cost_limit)
    total = len(corpus) * len(corpus.systems)
    results: dict[str, CorpusResult] = {}
    done_before = 0
    for system, candidates in corpus.systems.items():
        def report_progress(done: int, _total, base: int = done_before) -> None:
            if progress is not None and total > PROGRESS_EVERY and (base + done) % PROGRESS_EVERY == 0:
                progress(f"{PROG}: scored {base + done}/{total} pairs")

        try:
            # threads over the compiled kernels, processes on the pure path (score_corpus decides)
            results[system] = score_corpus(list(candidates), list(corpus.references), methods, opts,
                                           ids=list(corpus.ids), progress=report_progress, cost_limit=cost_limit,
                                           workers=workers)
        except CostLimitError as exc:
            raise CliError(exc.message(f"run again with {NO_COST_LIMIT_FLAG} to lift the bound", scope="pair")) from None
        done_before += len(candidates)
    return _statistics(corpus, results, resamples, seed, confidence)


def _statistics(corpus, results: dict[str, CorpusResult], resamples: int, seed: int, confidence: float) -> Report:
    """The bootstrap of every system and the comparisons of every pair of systems (their costs
    were checked before scoring)."""
    bootstraps = ({s: r.bootstrap(resamples, seed, confidence, cost_limit=UNBOUNDED) for s, r in results.items()}
                  if resamples else {})
    comparisons = []
    if resamples and len(results) > 1:
        for a, b in combinations(results, 2):
            for method in results[a].methods:
                try:
                    comparisons.append(compare_systems(results[a], results[b], method, names=(a, b),
                                                       resamples=resamples, seed=seed, confidence=confidence,
                                                       cost_limit=UNBOUNDED))
                except ValueError:  # no pair with a defined score for both: nothing to compare
                    continue
    return Report(corpus, results, bootstraps, comparisons, resamples, seed, confidence)


def _check_resampling(corpus: corpus_io.Corpus, methods, resamples: int, cost_limit) -> None:
    """CliError before anything is scored when one system's bootstrap, or one comparison of two
    systems, would cost more than the bound (rouge_core.scorer.cost's estimates); --no-cost-limit lifts it."""
    _check_resampling_of(len(corpus), len(corpus.systems), methods, resamples, cost_limit)


def _check_resampling_of(n: int, systems: int, methods, resamples: int, cost_limit) -> None:
    estimates = [bootstrap_corpus_estimate(n, resamples, len(methods))]
    if systems > 1:
        estimates.append(paired_tests_estimate(n, resamples))
    for estimate in estimates:
        try:
            check_resampling(estimate, cost_limit, advice="give --bootstrap fewer resamples")
        except CostLimitError as exc:
            raise CliError(exc.message(f"run again with {NO_COST_LIMIT_FLAG} to lift the bound",
                                       scope="computation")) from None


# --- output ------------------------------------------------------------------------------------------


def _fmt(x: float | None) -> str:
    return "nan" if x is None or math.isnan(x) else f"{x:.4f}"


def _json_safe(x):
    return None if isinstance(x, float) and math.isnan(x) else x


def _aggregate_rows(report: Report, system: str) -> list[dict]:
    """macro ("mean") and micro rows of one system, with intervals when bootstrapped."""
    result = report.results[system]
    boot = report.bootstraps.get(system)
    rows = []
    for kind, label, table in (("macro", "mean", result.macro()), ("micro", "micro", result.micro())):
        for method, s in table.items():
            row = {"system": system, "pair": label, "method": method, "precision": s.precision, "recall": s.recall,
                   "fmeasure": s.fmeasure, "fmeasure_low": None, "fmeasure_high": None,
                   "signature": result.signatures[method]}
            if boot is not None:
                interval = getattr(boot, kind)[method]["fmeasure"]
                row.update(fmeasure_low=interval.low, fmeasure_high=interval.high)
            rows.append(row)
    return rows


ROWS_AT_A_TIME = 1 << 16


def _pair_scores(report: Report, system: str) -> Iterator[tuple]:
    """(pair, method, P, R, F, signature) of every pair of one system, read from its statistics."""
    result = report.results[system]
    scores = {m: [result.array(m, k) for k in ("precision", "recall", "fmeasure")] for m in result.methods}
    for lo in range(0, len(result), ROWS_AT_A_TIME):
        hi = min(lo + ROWS_AT_A_TIME, len(result))
        block = {m: [column[lo:hi].tolist() for column in columns] for m, columns in scores.items()}
        for k, pair_id in enumerate(result.ids[lo:hi]):
            for m in result.methods:
                p, r, f = (column[k] for column in block[m])
                yield pair_id, m, p, r, f, result.signatures[m]


def _pair_rows(report: Report, system: str) -> Iterator[dict]:
    """Every pair's row of one system, as a table row."""
    for pair_id, m, p, r, f, sig in _pair_scores(report, system):
        yield {"system": system, "pair": pair_id, "method": m, "precision": p, "recall": r, "fmeasure": f,
               "fmeasure_low": None, "fmeasure_high": None, "signature": sig}


def render_table(report: Report, per_pair: bool) -> str:
    lines = []
    several = len(report.results) > 1
    boot = bool(report.bootstraps)
    header = f"{'pair':>6}  {'method':<16} {'P':>7} {'R':>7} {'F':>7}" + (f"  {'F interval':>17}" if boot else "")
    for system in report.results:
        if several:
            lines.append(f"system {system}")
        lines.append(header)
        lines.append("-" * len(header))
        if per_pair:
            for r in _pair_rows(report, system):
                lines.append(f"{r['pair']:>6}  {r['method']:<16} {_fmt(r['precision']):>7} {_fmt(r['recall']):>7} "
                             f"{_fmt(r['fmeasure']):>7}")
            lines.append("-" * len(header))
        for r in _aggregate_rows(report, system):
            line = (f"{r['pair']:>6}  {r['method']:<16} {_fmt(r['precision']):>7} {_fmt(r['recall']):>7} "
                    f"{_fmt(r['fmeasure']):>7}")
            if boot:
                line += f"  [{_fmt(r['fmeasure_low'])}, {_fmt(r['fmeasure_high'])}]"
            lines.append(line)
        lines.append("")
    lines.append(f"{report.pairs} pairs; mean = macro average over pairs, micro = scores of the summed statistics")
    if boot:
        lines.append(f"intervals: {report.confidence:g}% percentile bootstrap, {report.resamples} resamples, "
                     f"seed {report.seed}")
    for comparison in report.comparisons:
        lines.append(f"- {comparison.summary()}")
    for sig in report.signatures.values():
        lines.append(f"  {sig}")
    return "\n".join(lines) + "\n"


CSV_COLUMNS = ("system", "pair", "method", "precision", "recall", "fmeasure", "fmeasure_low", "fmeasure_high",
               "p_bootstrap", "p_permutation", "signature")


def _comparison_row(c: SystemComparison) -> dict:
    return {"system": f"{c.system_a} - {c.system_b}", "pair": "difference", "method": c.method,
            "precision": None, "recall": None, "fmeasure": c.difference.value, "fmeasure_low": c.difference.low,
            "fmeasure_high": c.difference.high, "p_bootstrap": c.bootstrap.p_value,
            "p_permutation": c.permutation.p_value, "signature": c.signature}


def _csv_value(value) -> str:
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


class CsvRows:
    """The CSV table written row by row to `out` (floats in full precision; text cells
    protected for spreadsheets by rouge_core.corpora.export), its header first."""

    def __init__(self, out, header: bool = True):
        from .corpora.export import neutralise

        self.out = out
        self._neutralise = neutralise
        self._seen: dict[str, str] = {}
        self._encodings: dict[tuple, str] = {}
        self._writer = csv.writer(out, lineterminator="\r\n")  # cells holding a CR or LF get quoted
        if header:
            self._writer.writerow(CSV_COLUMNS)

    def write(self, rows) -> None:
        cell = self._cell
        self._writer.writerows([cell(row.get(column)) for column in CSV_COLUMNS] for row in rows)

    def write_pair_scores(self, system: str, scores: Iterable[tuple]) -> None:
        """Per-pair rows from (pair, method, P, R, F, signature) tuples, the very text `write`
        writes for them, made without a dict or a csv call per row (a streamed corpus writes
        millions): a positive finite float is its repr (digits: no protection, no quotes, as
        _cell writes it), any other cell its protected, quoted text (_encoded, kept for the texts
        that repeat)."""
        encoded, inf = self._encoded, math.inf
        system_cell = encoded(system)
        self.out.write("".join(
            f"{system_cell},{encoded(pair_id)},{encoded(method)},"
            f"{repr(p) if 0.0 < p < inf else encoded(p)},{repr(r) if 0.0 < r < inf else encoded(r)},"
            f"{repr(f) if 0.0 < f < inf else encoded(f)},,,,,{encoded(signature)}\r\n"
            for pair_id, method, p, r, f, signature in scores))

    def write_chunk(self, system: str, ids: Sequence[str], columns: Sequence[tuple]) -> None:
        """A chunk's per-pair rows, the very text write_pair_scores writes for them (pair by
        pair, a pair's methods in the columns' order), made a column at a time: `columns` per
        method (name, P, R, F as float64 arrays, each pair's signature). A chunk whose scores
        are all positive and finite (nearly every one) has its floats' reprs made by one map
        per column; the id cell is made once per pair, each signature's cell once."""
        encoded = self._encoded
        system_cell = encoded(system)
        # an id of letters and digits (numbered pairs' ids) is its own cell: no formula, no quotes
        heads = [f"{system_cell},{pair_id}," if type(pair_id) is str and pair_id.isalnum() else
                 f"{system_cell},{encoded(pair_id)}," for pair_id in ids]
        parts = []
        for method, p, r, f, signatures in columns:
            method_cell = encoded(method)
            tails = {s: f",,,,,{encoded(s)}\r\n" for s in set(signatures)}
            rows = map("{},{},{},{}{}".format, repeat(method_cell, len(heads)), *map(self._float_cells, (p, r, f)),
                       map(tails.__getitem__, signatures))
            parts.extend((heads, list(rows)))
        self.out.write("".join(chain.from_iterable(zip(*parts))))

    def _float_cells(self, values) -> list[str]:
        """write_pair_scores's cells of a column of scores (a float64 array): a positive finite
        float's repr, any other value its protected text. Scores are ratios of small counts:
        a chunk's column holds few distinct values, each repr'd once (a float's repr costs more
        than sorting the column)."""
        import numpy as np

        if bool(((values > 0.0) & (values < math.inf)).all()):  # no 0.0 and -0.0, no NaN: equal means same text
            distinct, where = np.unique(values, return_inverse=True)
            texts = np.array(list(map(float.__repr__, distinct.tolist())), dtype=object)
            return texts[where.reshape(-1)].tolist()
        encoded, inf = self._encoded, math.inf
        return [repr(v) if 0.0 < v < inf else encoded(v) for v in values.tolist()]

    def _encoded(self, value) -> str:
        """A cell's text in the file: _cell's text, quoted as the csv writer quotes it."""
        key = (type(value), repr(value) if isinstance(value, float) else value)  # 0.0 == -0.0, not the same text
        done = self._encodings.get(key)
        if done is None:
            done = self._cell(value)
            if "," in done or '"' in done or "\r" in done or "\n" in done:  # what the csv writer quotes
                line = io.StringIO(newline="")
                csv.writer(line, lineterminator="\r\n").writerow((done, None))
                done = line.getvalue()[:-3]  # less the empty last cell's "," and the row's end
            if len(self._encodings) >= 4096:
                self._encodings.clear()
            self._encodings[key] = done
        return done

    def _cell(self, value) -> str:
        """_csv_value, protected (rouge_core.corpora.export.neutralise); a float's digits need no
        protection, and the few texts that repeat on every row (system, method, signature, an
        id on each of its methods' rows) are protected once."""
        if value is None:
            return ""
        if isinstance(value, float):
            text = repr(value)
            return text if text[0].isdigit() or text == "nan" else self._neutralise(text)
        text = str(value)
        done = self._seen.get(text)
        if done is None:
            done = self._neutralise(text)
            if len(self._seen) >= 4096:
                self._seen.clear()
            self._seen[text] = done
        return done


def write_csv(report: Report, out) -> None:
    """Every pair, every aggregate and every comparison of every system in one table. `out`: a
    text stream, or (a streamed run) per system the CsvRows its pairs were written to as they
    were scored: the first system's the output itself, the others' temporary files, copied in."""
    if isinstance(out, dict):
        streamed = out
        rows = next(iter(streamed.values()))
    else:
        streamed, rows = {}, CsvRows(out)
    for number, system in enumerate(report.results):
        if system not in streamed:
            rows.write_pair_scores(system, _pair_scores(report, system))
        elif number:
            spool = streamed[system].out
            spool.seek(0)
            while block := spool.read(1 << 20):
                rows.out.write(block)
        rows.write(_aggregate_rows(report, system))
    rows.write(_comparison_row(c) for c in report.comparisons)


def render_csv(report: Report) -> str:
    buf = io.StringIO(newline="")
    write_csv(report, buf)
    return buf.getvalue()


def _scores(row: dict) -> dict:
    return {k: _json_safe(row[k]) for k in ("precision", "recall", "fmeasure")}


def _json_pairs(report: Report, system: str) -> Iterator[dict]:
    pair = None
    for row in _pair_rows(report, system):
        if pair is None or pair["pair"] != row["pair"]:
            if pair is not None:
                yield pair
            pair = {"pair": row["pair"], "scores": {}}
        pair["scores"][row["method"]] = _scores(row)
    if pair is not None:
        yield pair


def render_json(report: Report) -> str:
    buf = io.StringIO()
    write_json(report, buf)
    return buf.getvalue()


def write_json(report: Report, out) -> None:
    """The JSON document, written piece by piece: every list of pairs is written pair by pair
    where json.dumps(indent=2) would put it (the same text, never all of it in memory)."""
    import re

    systems = []
    for number, (system, result) in enumerate(report.results.items()):
        pairs = _PairsMark(number)
        aggregates = _aggregate_rows(report, system)
        entry = {"name": system, "pairs": pairs,
                 "mean": {r["method"]: _scores(r) for r in aggregates if r["pair"] == "mean"},
                 "micro": {r["method"]: _scores(r) for r in aggregates if r["pair"] == "micro"}}
        if report.bootstraps:
            entry["intervals"] = {kind: {r["method"]: {"low": _json_safe(r["fmeasure_low"]),
                                                       "high": _json_safe(r["fmeasure_high"])}
                                         for r in aggregates if r["pair"] == label}
                                  for kind, label in (("mean", "mean"), ("micro", "micro"))}
        systems.append(entry)
    doc = {
        "version": __version__,
        "pairs_in_corpus": report.pairs,
        "signatures": report.signatures,
        "bootstrap": ({"resamples": report.resamples, "seed": report.seed, "confidence": report.confidence}
                      if report.resamples else None),
        "systems": systems,
        "comparisons": [{"system_a": c.system_a, "system_b": c.system_b, "method": c.method, "pairs": c.pairs,
                         "left_out": c.left_out, "mean_a": c.mean_a, "mean_b": c.mean_b,
                         "difference": c.difference.value, "low": c.difference.low, "high": c.difference.high,
                         "p_bootstrap": c.bootstrap.p_value, "p_permutation": c.permutation.p_value,
                         "summary": c.summary(), "signature": c.signature} for c in report.comparisons],
    }
    if len(systems) == 1:  # the one-system form: its pairs and aggregates at the top
        doc.update(pairs=systems[0]["pairs"], mean=systems[0]["mean"], micro=systems[0]["micro"])
    text = json.dumps(doc, indent=2, allow_nan=False, ensure_ascii=False, default=_PairsMark.encode) + "\n"
    names = list(report.results)
    at = 0
    for found in re.finditer(r'^( *)(.*)"\\u0000pairs (\d+)\\u0000"', text, flags=re.MULTILINE):
        indent, number = found.group(1), int(found.group(3))
        out.write(text[at:found.end(2)])
        _write_json_list(out, _json_pairs(report, names[number]), len(indent) + 2)
        at = found.end()
    out.write(text[at:])


class _PairsMark:
    """Where a list of pairs goes in the JSON text (written there by write_json)."""

    def __init__(self, number: int):
        self.number = number

    @staticmethod
    def encode(value):
        if isinstance(value, _PairsMark):
            return f"\u0000pairs {value.number}\u0000"
        raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _write_json_list(out, items, indent: int) -> None:
    """json.dumps(list(items), indent=2) as it reads at `indent` spaces, written item by item."""
    pad = " " * indent
    first = True
    for item in items:
        out.write(("[\n" if first else ",\n") + pad
                  + json.dumps(item, indent=2, allow_nan=False, ensure_ascii=False).replace("\n", "\n" + pad))
        first = False
    out.write("[]" if first else "\n" + " " * (indent - 2) + "]")


COMPARE = "compare"


def build_compare_parser() -> argparse.ArgumentParser:
    p = build_parser()
    p.prog = f"{PROG} {COMPARE}"
    p.description = ("Compare two systems: paired tests, the reference n-grams one matches and the other misses, "
                     "scores in buckets, lengths and, with sources, copying from the source.")
    extra = p.add_argument_group("comparison")
    extra.add_argument("-a", "--system-a", metavar="NAME", help="the first system (default: the first in the input)")
    extra.add_argument("-b", "--system-b", metavar="NAME", help="the second system (default: the second)")
    extra.add_argument("--source", metavar="FILE", help="source documents, one per line, beside -c/-r files")
    extra.add_argument("--top", type=int, default=10, metavar="K", help="n-grams listed per system (default 10)")
    extra.add_argument("--report", metavar="FILE.html", help="also write the self-contained HTML report here")
    p.set_defaults(bootstrap=1000)
    return p


def _pick_systems(args, corpus) -> tuple[str, str]:
    names = corpus.system_names
    if len(names) < 2:
        raise CliError(f"comparing needs two systems; the input has one ({names[0]}): give several -c files or "
                       "candidate columns")
    a = args.system_a or names[0]
    b = args.system_b or next(n for n in names if n != a)
    for name, flag in ((a, "--system-a"), (b, "--system-b")):
        if name not in names:
            raise CliError(f"{flag}: no system {name!r}; the input has {', '.join(names)}")
    if a == b:
        raise CliError("--system-a and --system-b name the same system")
    return a, b


def render_compare(analysis, top: int, fmt: str) -> str:
    """The comparison as text tables or JSON (every number, its signature)."""
    a, b = analysis.system_a, analysis.system_b
    frames = {"n-grams " + a: analysis.ngrams.top(a, top), "n-grams " + b: analysis.ngrams.top(b, top)}
    for bucket in analysis.buckets:
        frames[bucket.title] = bucket.frame().drop(columns=["order"])
    frames["length"] = analysis.lengths.frame()
    if analysis.source is not None:
        frames["source"] = analysis.source.frame().drop(columns=["signature", "statistic"])
    if fmt == "json":
        doc = {"version": __version__, "signature": analysis.signature, "system_a": a, "system_b": b,
               "method": analysis.method, "data_sha256": analysis.hashes,
               "comparison": analysis.comparison.summary() if analysis.comparison else None,
               "source_signature": analysis.source.signature if analysis.source is not None else None,
               "tables": {name: json.loads(frame.to_json(orient="records")) for name, frame in frames.items()}}
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    import pandas as pd

    lines = [f"{a} against {b} on {analysis.method}"]
    if analysis.comparison is not None:
        lines.append(analysis.comparison.summary())
    with pd.option_context("display.max_columns", None, "display.width", 160, "display.float_format", "{:.4f}".format):
        for name, frame in frames.items():
            lines += ["", name, frame.to_string(index=False) if not frame.empty else "(none)"]
    lines += ["", analysis.signature]
    if analysis.source is not None:
        lines.append(analysis.source.signature)
    return "\n".join(lines) + "\n"


def compare_main(argv: Sequence[str], stdin, stdout, stderr) -> int:
    from .report import compare_systems_report, systems_report_html

    args = build_compare_parser().parse_args(argv)
    _check_statistics(args)
    if args.bootstrap < 1:
        raise CliError("compare needs --bootstrap of at least 1 resample (the intervals and tests)")
    if args.top < 1:
        raise CliError(f"--top must be at least 1, got {args.top}")
    if args.format == "csv":
        raise CliError("compare writes table or json (and --report FILE.html)")
    opts = build_options(args, stdin)
    for name in args.methods:
        try:
            parse_method(name, opts)
        except ValueError as exc:
            raise CliError(f"--methods: {exc}") from None
    corpus = read_corpus(args, stdin)
    system_a, system_b = _pick_systems(args, corpus)
    for warning in corpus.warnings if not args.quiet else ():
        print(f"{PROG}: warning: {warning}", file=stderr)
    progress = None if args.quiet else (lambda msg: print(msg, file=stderr, flush=True))
    report = run(corpus, args.methods, opts, workers=args.workers, no_cost_limit=args.no_cost_limit, progress=progress)
    method = report.methods[0]
    say = None if args.quiet else (lambda step: print(f"{PROG}: {step}", file=stderr, flush=True))
    try:
        analysis = compare_systems_report(corpus, report.results, system_a, system_b, method, resamples=args.bootstrap,
                                          seed=args.seed, confidence=args.confidence, progress=say)
    except CostLimitError as exc:
        raise CliError(exc.message(f"run again with {NO_COST_LIMIT_FLAG} to lift the bound", scope="pair")) from None
    text = render_compare(analysis, args.top, args.format)
    _write(text, args.output, stdout)
    if args.report:
        _write(systems_report_html(corpus, analysis), args.report, None)
    return 0


def write_report(report: Report, args, out) -> None:
    if args.format == "csv":
        write_csv(report, out)
    elif args.format == "json":
        write_json(report, out)
    else:
        out.write(render_table(report, args.per_pair))


class Output:
    """Where the output goes: standard output; a file, written under a temporary name next to
    it (through a symbolic link: next to its target) and renamed when the run succeeds (a failed
    run leaves no half-written file); or what is not a regular file (/dev/null, a FIFO, a
    terminal), written directly: renaming onto it would replace the device or pipe itself."""

    def __init__(self, path: str | None, stdout):
        self.path = path
        self.stdout = stdout
        self._fh = None
        self._temporary = None
        self._target = None

    def __enter__(self):
        if not self.path:
            return self.stdout
        import tempfile

        self._target = os.path.realpath(self.path)
        try:
            if os.path.exists(self._target) and not stat.S_ISREG(os.stat(self._target).st_mode):
                self._fh = open(self._target, "w", encoding="utf-8", newline="")
                return self._fh
            fd, self._temporary = tempfile.mkstemp(prefix=".rouge-lens-", suffix=".partial",
                                                   dir=os.path.dirname(self._target))
            self._fh = open(fd, "w", encoding="utf-8", newline="")
        except OSError as exc:
            raise CliError(f"{self.path}: cannot write ({exc.strerror})") from None
        return self._fh

    def __exit__(self, kind, value, traceback):
        if self._fh is None:
            return False
        try:
            self._fh.close()
            if kind is None and self._temporary is not None:
                os.replace(self._temporary, self._target)
        except OSError as exc:
            if kind is None:
                raise CliError(f"{self.path}: cannot write ({exc.strerror})") from None
        finally:
            if self._temporary is not None and os.path.exists(self._temporary):
                os.unlink(self._temporary)
        return False


# --- streamed runs: -c/-r files and --jsonl, read, scored and written a chunk at a time ----------

STREAM_ROWS = 8192  # pairs read, scored and written at a time


def _check_inputs(args) -> None:
    if args.corpus:
        raise CliError("give one input: -c/-r files, --jsonl FILE or --corpus FILE")
    if args.jsonl and (args.candidates or args.refs):
        raise CliError("give one input: -c/-r files, --jsonl FILE or --corpus FILE")
    if [*args.candidates, *args.refs, args.jsonl].count(STDIN) > 1:
        raise CliError("only one input can be read from standard input (-)")
    if not args.jsonl and (not args.candidates or not args.refs):
        raise CliError("give -c CANDIDATES and at least one -r REFERENCES file, --jsonl FILE or --corpus FILE")
    if len(set(args.candidates)) < len(args.candidates):
        raise CliError("the same candidate file is given twice")


class _Bounded:
    """A binary stream refused past `limit` bytes (standard input, a pipe or a device: a
    regular file's size is known, and a streamed run's memory does not grow with it)."""

    def __init__(self, stream, path: str, limit: int | None):
        self._stream, self._path, self._left = stream, path, limit

    def read(self, size: int) -> bytes:
        data = self._stream.read(size)
        if self._left is not None:
            self._left -= len(data)
            if self._left < 0:
                raise _too_large(self._path)
        return data


def _open_stream(path: str, stdin, limit: int | None, opened: list):
    """A binary stream of an input, opened for reading a chunk at a time."""
    if path == STDIN:
        return _Bounded(stdin, "standard input", limit)
    _check_path(path)
    try:
        info = os.stat(path)
        fh = _open_pipe(path) if stat.S_ISFIFO(info.st_mode) else open(path, "rb")
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror})") from None
    opened.append(fh)
    return fh if stat.S_ISREG(info.st_mode) else _Bounded(fh, path, limit)


def _progress_marks(step: int = PROGRESS_EVERY):
    """The pair counts progress is reported at: every `step` up to 10 × step, then every
    10 × step up to 100 × step, and so on (a few lines per tenfold, whatever the length)."""
    mark, size = step, step
    while True:
        yield mark
        if mark >= 10 * size:
            size *= 10
        mark += size


class _Progress:
    """'scored 1,000 pairs' lines on stderr as the marks (_progress_marks) are passed."""

    def __init__(self, stderr):
        self.stderr = stderr
        self._marks = _progress_marks()
        self._mark = next(self._marks)

    def scored(self, pairs: int, systems: int) -> None:
        while pairs >= self._mark:
            several = f" of each of {systems} systems" if systems > 1 else ""
            print(f"{PROG}: scored {self._mark:,} pairs{several}", file=self.stderr, flush=True)
            self._mark = next(self._marks)


# young collections after this many new objects, not 700, while a corpus streams (_rare_collections)
STREAM_GC_THRESHOLD = 100_000


@contextmanager
def _rare_collections():
    """The garbage collector's passes made rare while a corpus streams: each chunk makes and
    drops hundreds of thousands of per-pair objects (records, scores), acyclic, freed by their
    reference counts, and at the default thresholds the collector scanned them (and every
    object of the modules) about a tenth of the run's time. The objects made before the run are
    frozen (never scanned again); cycles are still collected."""
    import gc

    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(STREAM_GC_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def stream_run(args, opts, stdin, out, stderr) -> Report:
    """Read the input a chunk of pairs at a time, score every system's chunk (its per-pair rows
    written as it is scored: CSV rows of the first system at once; other systems' and the other
    formats' rows after the last chunk, from the statistics), then the aggregates, intervals
    and comparisons. Memory: the statistics (rouge_core.corpora.corpus_stats), whatever the length."""
    with _rare_collections():
        return _stream_run(args, opts, stdin, out, stderr)


def _stream_run(args, opts, stdin, out, stderr) -> Report:
    from .corpora import corpus_stream
    from .corpora.corpus import CorpusScorer

    if args.workers > 1:
        return stream_in_processes(args, opts, stdin, out, stderr)
    cost_limit = UNBOUNDED if args.no_cost_limit else None
    limit = None if args.no_cost_limit else MAX_INPUT_BYTES
    opened: list = []
    try:
        if args.jsonl:
            name = "stdin.jsonl" if args.jsonl == STDIN else args.jsonl
            chunks = corpus_stream.jsonl_chunks(_open_stream(args.jsonl, stdin, limit, opened), name, rows=STREAM_ROWS,
                                                block=corpus_stream.READ_BLOCK)
        else:
            cands = {p: _open_stream(p, stdin, limit, opened) for p in args.candidates}
            refs = {p: _open_stream(p, stdin, limit, opened) for p in args.refs}
            chunks = corpus_stream.parallel_chunks(cands, refs, marker=args.sentence_sep, rows=STREAM_ROWS,
                                                   block=corpus_stream.READ_BLOCK)
        scorers: dict[str, CorpusScorer] = {}
        rows: dict[str, CsvRows] = {}  # per system, where its CSV rows go as they are scored
        done = 0
        progress = _Progress(stderr)
        for chunk in chunks:
            if not scorers:
                scorers, rows = _scorers(args, opts, cost_limit, list(chunk.systems), out, opened)
            for warning in chunk.warnings if not args.quiet else ():
                print(f"{PROG}: warning: {warning}", file=stderr)
            if args.bootstrap:  # the resampling's cost, checked before these pairs are scored
                _check_resampling_of(done + len(chunk), len(scorers), args.methods, args.bootstrap, cost_limit)
            for number, (system, candidates) in enumerate(chunk.systems.items()):
                def report_progress(d: int, _t, base: int = done) -> None:
                    progress.scored(base + d, len(scorers))

                try:
                    columns = scorers[system].add_columns(
                        list(candidates), list(chunk.references), list(chunk.ids),
                        progress=report_progress if number == 0 and not args.quiet else None)
                except CostLimitError as exc:
                    raise CliError(exc.message(f"run again with {NO_COST_LIMIT_FLAG} to lift the bound",
                                               scope="pair")) from None
                if rows:
                    rows[system].write_chunk(system, chunk.ids, columns)
                del columns
            done += len(chunk)
        return _finish(args, scorers, rows, out)
    finally:
        for fh in opened:
            fh.close()


def _scorers(args, opts, cost_limit, systems: list[str], out, opened: list, workers: int | None = None):
    """Per system its CorpusScorer and, for a CSV, where its rows go as they are scored: the
    first system's to the output at once, the others' to temporary files copied in after it."""
    from .corpora.corpus import CorpusScorer

    scorers = {system: CorpusScorer(args.methods, opts, workers=args.workers if workers is None else workers,
                                    cost_limit=cost_limit, keep_ids=args.jsonl is not None) for system in systems}
    rows = {}
    if args.format == "csv":
        spools = [_spool(opened) for _ in systems[1:]]
        rows = dict(zip(systems, [CsvRows(out), *(CsvRows(f, header=False) for f in spools)]))
    return scorers, rows


def _finish(args, scorers: dict, rows: dict, out) -> Report:
    """A streamed run's aggregates, intervals and comparisons, and the rest of its output."""
    results = {system: scorer.result() for system, scorer in scorers.items()}
    report = _statistics(None, results, args.bootstrap, args.seed, args.confidence)
    if rows:
        write_csv(report, rows)
    else:
        write_report(report, args, out)
    return report


# --- streamed runs on --workers N processes: each chunk decoded, scored and formatted in a worker

@dataclass(frozen=True)
class ChunkJob:
    """What every chunk of a run shares, given to each worker process once."""

    jsonl: bool
    name: str  # the --jsonl file's name in messages
    candidates: tuple[str, ...]  # -c files
    references: tuple[str, ...]  # -r files
    marker: str
    methods: tuple[str, ...]
    options: object
    cost_limit: object
    csv: bool  # format the chunk's CSV rows


@dataclass
class ChunkWork:
    """What a worker process made of one chunk: its pairs' ids (only ids read from an id
    column: numbered ids are made where they are kept), warnings, and per system scored its
    CSV rows and statistics arrays; or the error that stopped it (`built`: whether the chunk
    was read before it)."""

    built: bool = False
    pairs: int = 0
    ids: tuple | None = None
    columns: tuple | None = None
    warnings: tuple = ()
    system_names: tuple = ()
    systems: list = None
    error: tuple | None = None


_CHUNK_JOB: ChunkJob | None = None
PROCESS_START: str | None = None  # how worker processes start: None for fork on Linux, spawn elsewhere


def _start_chunk_worker(job: ChunkJob) -> None:
    import gc

    global _CHUNK_JOB
    _CHUNK_JOB = job
    gc.freeze()  # a worker process lives for one streamed run: _rare_collections for all of it
    gc.set_threshold(STREAM_GC_THRESHOLD, *gc.get_threshold()[1:])
    from .kernels import native

    native.active()  # the compiled kernels loaded once per worker (a spawned worker imports them here)


def _failure(exc: Exception) -> tuple:
    """An error as it travels back from a worker: the user's error's text (and its list of
    problems), or (a bug) its type, text and traceback."""
    if isinstance(exc, CostLimitError):
        return ("input", exc.message(f"run again with {NO_COST_LIMIT_FLAG} to lift the bound", scope="pair"), None)
    if isinstance(exc, (InputError, ValueError)):
        return ("input", str(exc), getattr(exc, "problems", None))
    import traceback

    return ("crash", type(exc).__name__, str(exc), traceback.format_exc())


class WorkerError(Exception):
    """An unexpected error in a worker process (reported as main reports one of its own)."""

    def __init__(self, kind: str, text: str, trace: str):
        super().__init__(f"{text}\n\nin a worker process:\n{trace}" if os.environ.get("ROUGE_LENS_DEBUG") else text)
        self.kind = kind


def _raise_failure(failure: tuple):
    if failure[0] == "input":  # main prints it as it prints its own (_one_line)
        error = CliError(failure[1])
        error.problems = failure[2]
        raise error
    raise WorkerError(*failure[1:])


def work_on_chunk(payload, columns: tuple | None, before: int) -> ChunkWork:
    """One chunk in a worker process: its lines read into pairs (JSON lines: `columns` are the
    first chunk's, None for the first), every system scored on the kernels, its CSV rows and
    its statistics arrays; `before`: the pairs before it."""
    from .corpora import corpus_stream
    from .corpora.batch import batch_columns, score_batch

    job = _CHUNK_JOB
    work = ChunkWork(systems=[])
    try:
        if job.jsonl:
            chunk, work.columns = corpus_stream.build_jsonl_chunk(corpus_stream.parse_jsonl_lines(payload, job.name),
                                                                  job.name, columns, before)
            if corpus_stream.has_id_column(work.columns):
                work.ids = chunk.ids
        else:
            chunk = corpus_stream.parallel_chunk(payload, list(job.candidates), list(job.references), job.marker,
                                                 before)
    except Exception as exc:
        work.error = _failure(exc)
        return work
    work.built, work.pairs, work.warnings, work.system_names = True, len(chunk.ids), chunk.warnings, tuple(chunk.systems)
    references = list(chunk.references)
    counts = {len(r) for r in references}
    ids = list(chunk.ids)
    try:
        for system, candidates in chunk.systems.items():
            scored = score_batch(list(candidates), references, job.methods, job.options, workers=1, ids=ids,
                                 cost_limit=job.cost_limit)
            arrays, columns = batch_columns(scored, job.methods)
            text = None
            if job.csv:
                buffer = io.StringIO(newline="")
                CsvRows(buffer, header=False).write_chunk(system, ids, columns)
                text = buffer.getvalue()
            del scored, columns
            work.systems.append((system, text, arrays, counts))
    except Exception as exc:
        work.error = _failure(exc)
    return work


def stream_in_processes(args, opts, stdin, out, stderr) -> Report:
    """stream_run on --workers processes: this process reads the input's lines a chunk at a
    time and hands them to the workers (a few chunks in flight), then takes each chunk's work
    in input order: its warnings, its CSV rows written, its statistics appended, its errors
    raised where a single process raises them. The same output, byte for byte."""
    from .corpora import corpus_stream
    from .corpora.corpus import CorpusScorer
    from .corpora.ordered_pool import OrderedPool

    cost_limit = UNBOUNDED if args.no_cost_limit else None
    limit = None if args.no_cost_limit else MAX_INPUT_BYTES
    probe = CorpusScorer(args.methods, opts, cost_limit=cost_limit)  # the methods' and options' names
    opened: list = []
    try:
        if args.jsonl:
            name = "stdin.jsonl" if args.jsonl == STDIN else args.jsonl
            batches = corpus_stream.jsonl_line_batches(_open_stream(args.jsonl, stdin, limit, opened), name,
                                                       rows=STREAM_ROWS, block=corpus_stream.READ_BLOCK)
            tasks = ((batch, [number for number, _ in batch]) for batch in batches)
        else:
            name = ""
            cands = {p: _open_stream(p, stdin, limit, opened) for p in args.candidates}
            refs = {p: _open_stream(p, stdin, limit, opened) for p in args.refs}
            tasks = ((lines, done) for done, lines in corpus_stream.parallel_line_batches(
                cands, refs, rows=STREAM_ROWS, block=corpus_stream.READ_BLOCK))
        job = ChunkJob(bool(args.jsonl), name, tuple(args.candidates), tuple(args.refs), args.sentence_sep,
                       probe.methods, probe.options, cost_limit, args.format == "csv")
        scorers: dict[str, CorpusScorer] = {}
        rows: dict[str, CsvRows] = {}
        seen_ids: set[str] = set()
        done = 0
        progress = _Progress(stderr)

        def take(work: ChunkWork, numbers) -> None:
            """One chunk's work, in input order, as stream_run takes a chunk."""
            nonlocal scorers, rows, done
            if not work.built:
                _raise_failure(work.error)
            if work.ids is not None:  # ids from an id column: none may repeat an earlier chunk's
                corpus_stream.check_new_ids(work.ids, numbers, seen_ids, name)
            if not scorers:
                scorers, rows = _scorers(args, opts, cost_limit, list(work.system_names), out, opened, workers=1)
            for warning in work.warnings if not args.quiet else ():
                print(f"{PROG}: warning: {warning}", file=stderr)
            if args.bootstrap:
                _check_resampling_of(done + work.pairs, len(scorers), args.methods, args.bootstrap, cost_limit)
            for number, (system, text, arrays, counts) in enumerate(work.systems):
                if number == 0 and not args.quiet:
                    progress.scored(done + work.pairs, len(scorers))
                scorers[system].add_arrays(work.pairs, arrays, work.ids, counts)
                if rows:
                    rows[system].out.write(text)
            if work.error is not None:
                _raise_failure(work.error)
            done += work.pairs

        with OrderedPool(args.workers, _start_chunk_worker, (job,), method=PROCESS_START) as pool:
            first = next(tasks, None)
            if first is not None:  # alone: a JSON-lines file's columns are its first chunk's
                work = pool.run(work_on_chunk, first[0], None, 0)
                take(work, first[1])
                columns, before = work.columns, work.pairs
                in_flight: deque = deque()  # the line numbers of the chunks in flight (JSON lines)

                def submitted():
                    nonlocal before
                    for payload, where in tasks:
                        if args.jsonl:
                            in_flight.append(where)
                            yield payload, columns, before
                            before += len(payload)
                        else:
                            yield payload, None, where

                for work in pool.imap(work_on_chunk, submitted()):
                    take(work, in_flight.popleft() if args.jsonl else None)
        return _finish(args, scorers, rows, out)
    finally:
        for fh in opened:
            fh.close()


def _spool(opened: list):
    """A temporary file (deleted when closed) holding a system's CSV rows until they are written."""
    import tempfile

    fh = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")
    opened.append(fh)
    return fh


def _write(text: str, path: str | None, stdout) -> None:
    if path:
        try:
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            raise CliError(f"{path}: cannot write ({exc.strerror})") from None
    else:
        stdout.write(text)


def main(argv: Sequence[str] | None = None, *, stdin=None) -> int:
    stdout, stderr = sys.stdout, sys.stderr
    stdin = stdin if stdin is not None else sys.stdin.buffer
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == [COMPARE]:
            return compare_main(argv[1:], stdin, stdout, stderr)
        args = build_parser().parse_args(argv)
        _check_statistics(args)
        opts = build_options(args, stdin)
        for name in args.methods:  # a printed name (ROUGE-L) is read as the profile's tool means it
            try:
                parse_method(name, opts)
            except ValueError as exc:
                raise CliError(f"--methods: {exc}") from None
        if args.jsonl or args.candidates or args.refs:  # read and scored a chunk at a time
            _check_inputs(args)
            with Output(args.output, stdout) as out:
                stream_run(args, opts, stdin, out, stderr)
            return 0
        corpus = read_corpus(args, stdin)
        for warning in corpus.warnings if not args.quiet else ():
            print(f"{PROG}: warning: {warning}", file=stderr)
        progress = None if args.quiet else (lambda msg: print(msg, file=stderr, flush=True))
        report = run(corpus, args.methods, opts, workers=args.workers, resamples=args.bootstrap, seed=args.seed,
                     confidence=args.confidence, no_cost_limit=args.no_cost_limit, progress=progress)
        with Output(args.output, stdout) as out:
            write_report(report, args, out)
        return 0
    except InputError as exc:  # CliError, CorpusError, and the library's refusals of bad input
        print(f"{PROG}: error: {_one_line(exc)}", file=stderr)
        return 2
    except ValueError as exc:  # the library's other refusals (e.g. a method's parameter) name the problem
        print(f"{PROG}: error: {_one_line(exc)}", file=stderr)
        return 2
    except SystemExit as exc:  # argparse after --help / --version: main returns, it does not exit
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=stderr)
        return 130
    except Exception as exc:  # never a traceback for the user, unless asked for
        if os.environ.get("ROUGE_LENS_DEBUG"):
            raise
        kind = exc.kind if isinstance(exc, WorkerError) else type(exc).__name__
        print(f"{PROG}: error: {kind}: {exc} (set ROUGE_LENS_DEBUG=1 for details)", file=stderr)
        return 2


ERROR_CHARS = 1000  # the most an error line takes: a message quoting a huge input is cut in its middle


def _one_line(exc: Exception) -> str:
    """A message of several problems (a corpus) on one line, at most ERROR_CHARS long."""
    problems = getattr(exc, "problems", None)
    line = "; ".join(problems) if problems else " ".join(str(exc).split("\n"))
    return short_text(line, ERROR_CHARS)


if __name__ == "__main__":
    raise SystemExit(main())
