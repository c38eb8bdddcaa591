"""The command line: `python -m rouge_core` / `rouge-lens`.

Inputs, one of:
  -c CANDS.txt -r REFS.txt [-r REFS2.txt ...]
      one text per line; line i of every file belongs to pair i; several -r files give
      several references. Inside a line, the sentence separator (--sentence-sep, default
      "<q>") marks sentence breaks (rougeLsum, ROUGE-1.5.5's ROUGE-L); "" turns it off.
  --jsonl PAIRS.jsonl
      one object per line: {"candidate": TEXT, "references": [TEXT, ...]}, where a TEXT is a
      string (newlines are sentence breaks) or a list of sentences; "references" may also
      be a single TEXT.
Files are UTF-8 (or UTF-16/32 with a BOM); lines end at "\n" (a "\r" before it is dropped),
and nothing else ends a line. The app's uploads and corpus files are read by the same rules
(rouge_core.textio).

Cost: a pair whose estimated cost is above the bound (about 2 s and 500 MB; e.g. rougeS*
on long texts) stops the run with an error naming the pair and a bounded alternative
before anything is printed; --no-cost-limit lifts the bound.

Output: a table of the corpus mean (with --per-pair, every pair too), or --format csv/json
(per pair and mean rows); every row carries its reproducibility signature. Progress goes to
stderr every 1000 pairs on runs of more than 1000 pairs. Errors are one line on stderr and
exit status 2.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import sys
from typing import Sequence

from .cost import UNBOUNDED, CostLimit, CostLimitError
from .methods import parse_method
from .options import MULTI_REF_MODES, PROFILES, profile
from .scoring import DEFAULT_METHODS, score
from .signature import signature
from .textio import InputError, decode_bytes, json_lines, pair_from_record, split_lines
from .sentences import SENTENCE_SPLITTERS
from .words import TOKENIZERS
from .version import __version__

PROG = "rouge-lens"
PROGRESS_EVERY = 1000


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line instead of usage + message
        raise CliError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="ROUGE scores of candidates against references, with signatures.",
                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    src = p.add_argument_group("input")
    src.add_argument("-c", "--candidates", metavar="FILE", help="candidate texts, one per line")
    src.add_argument("-r", "--ref", "--references", dest="refs", metavar="FILE", action="append", default=[],
                     help="reference texts, one per line (repeat for several references)")
    src.add_argument("--jsonl", metavar="FILE", help='JSONL with "candidate" and "references" per line')
    src.add_argument("--sentence-sep", default="<q>", metavar="SEP",
                     help='in-line sentence separator of line files (default "<q>"; "" for none)')
    m = p.add_argument_group("scoring")
    m.add_argument("-m", "--methods", nargs="+", default=list(DEFAULT_METHODS), metavar="METHOD",
                   help="rouge1..rougeN rougeL rougeLsum rougeLsum-best rougeW-1.2 rougeS4 rougeS* rougeSU4 rougeSU* "
                        f"(default: {' '.join(DEFAULT_METHODS)})")
    m.add_argument("-p", "--profile", default="rouge-score", help=f"preset: {', '.join(PROFILES)} (default rouge-score)")
    m.add_argument("--tokenizer", choices=TOKENIZERS)
    m.add_argument("--stemmer", help="none, porter, rouge155 or snowball-<language>")
    m.add_argument("--stopwords", metavar="LIST", help="none, smart, or a file of words (one per line)")
    m.add_argument("--sentence-split", choices=SENTENCE_SPLITTERS, help="how texts split into sentences")
    m.add_argument("--case-sensitive", action="store_true", help="do not lower-case tokens")
    m.add_argument("--multi-ref", choices=MULTI_REF_MODES, help="how several references combine")
    m.add_argument("--no-cost-limit", action="store_true",
                   help="score pairs whose estimated cost is above the bound (about 2 s and 500 MB per pair)")
    weights = m.add_mutually_exclusive_group()
    weights.add_argument("--alpha", type=float, help="F = PR / ((1-alpha)P + alpha R), in [0, 1]")
    weights.add_argument("--beta", type=float, help="F-beta (recall beta times as important)")
    out = p.add_argument_group("output")
    out.add_argument("-f", "--format", choices=("table", "csv", "json"), default="table")
    out.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    out.add_argument("--per-pair", action="store_true", help="table: show every pair, not only the mean")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    out.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return p


# --- reading ---------------------------------------------------------------------------


def _read_text(path: str) -> str:
    if not os.path.exists(path):
        raise CliError(f"{path}: no such file")
    if os.path.isdir(path):
        raise CliError(f"{path}: is a directory, not a file")
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return decode_bytes(data, path)
    except InputError as exc:
        raise CliError(str(exc)) from None


def _lines(path: str) -> list[str]:
    return split_lines(_read_text(path))


def _n(k: int) -> str:
    return f"{k} line" if k == 1 else f"{k} lines"


def _unsep(line: str, sep: str) -> str:
    return line.replace(sep, "\n") if sep else line


def read_pairs(args) -> list[tuple[str, list[str]]]:
    if args.jsonl:
        if args.candidates or args.refs:
            raise CliError("give either --jsonl or -c/-r files, not both")
        pairs = []
        try:
            for line in json_lines(_read_text(args.jsonl), args.jsonl):
                if line.error:
                    raise line.error
                pair = pair_from_record(line.value, f"{args.jsonl} line {line.number}")
                pairs.append((pair.candidate, list(pair.references)))
        except InputError as exc:
            raise CliError(str(exc)) from None
        if not pairs:
            raise CliError(f"{args.jsonl}: no pairs")
        return pairs
    if not args.candidates or not args.refs:
        raise CliError("give -c CANDIDATES and at least one -r REFERENCES file, or --jsonl FILE")
    cands = _lines(args.candidates)
    ref_columns = [_lines(path) for path in args.refs]
    for path, column in zip(args.refs, ref_columns):
        if len(column) != len(cands):
            raise CliError(f"{path} has {_n(len(column))} but {args.candidates} has {_n(len(cands))}; line i of every file must be pair i")
    if not cands:
        raise CliError(f"{args.candidates}: no candidates")
    sep = args.sentence_sep
    return [(_unsep(c, sep), [_unsep(col[i], sep) for col in ref_columns]) for i, c in enumerate(cands)]


def build_options(args):
    overrides = {}
    if args.tokenizer:
        overrides["tokenizer"] = args.tokenizer
    if args.stemmer:
        overrides["stemmer"] = args.stemmer
    if args.stopwords:
        if args.stopwords in ("none", "smart"):
            overrides["stopwords"] = args.stopwords
        else:
            words = frozenset(w.strip().lower() for w in _lines(args.stopwords) if w.strip())
            overrides["stopwords"] = words
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
            from .stemming import get_stemmer

            get_stemmer(opts.stemmer, opts.data_dir)
    except (ValueError, TypeError) as exc:
        raise CliError(str(exc)) from None
    return opts


# --- scoring and output -----------------------------------------------------------------


def _mean(values: Sequence[float]) -> float:
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else math.nan


NO_COST_LIMIT_FLAG = "--no-cost-limit"


def run(pairs, method_names, opts, *, progress=None, cost_limit: CostLimit | None = None) -> dict:
    methods = [parse_method(m).name for m in method_names]
    rows = []
    total = len(pairs)
    ref_counts = set()
    for i, (cand, refs) in enumerate(pairs):
        try:
            result = score(cand, refs, methods, opts, evidence=False, cost_limit=cost_limit)
        except CostLimitError as exc:
            raise CliError(exc.with_pair(str(i + 1)).message(f"run again with {NO_COST_LIMIT_FLAG} to lift the bound",
                                                             scope="pair")) from None
        ref_counts.add(len(refs))
        for name in methods:
            s = result[name].score
            rows.append({"pair": i + 1, "method": name, "precision": s.precision, "recall": s.recall,
                         "fmeasure": s.fmeasure, "reference": result[name].chosen})
        if progress and (i + 1) % PROGRESS_EVERY == 0 and total > PROGRESS_EVERY:
            progress(f"{PROG}: scored {i + 1}/{total} pairs")
    n_refs = ref_counts.pop() if len(ref_counts) == 1 else None
    signatures = {}
    for name in methods:
        sig = signature(parse_method(name), opts, n_refs or 0)
        signatures[name] = sig if n_refs else sig.replace("|refs:0|", "|refs:varies|")
    means = []
    for name in methods:
        mine = [r for r in rows if r["method"] == name]
        means.append({"method": name, "precision": _mean([r["precision"] for r in mine]),
                      "recall": _mean([r["recall"] for r in mine]), "fmeasure": _mean([r["fmeasure"] for r in mine]),
                      "pairs": len(mine), "signature": signatures[name]})
    for r in rows:
        r["signature"] = signatures[r["method"]]
    return {"pairs": total, "rows": rows, "mean": means, "signatures": signatures}


def _fmt(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.4f}"


def render_table(report: dict, per_pair: bool) -> str:
    lines = []
    header = f"{'pair':>6}  {'method':<16} {'P':>7} {'R':>7} {'F':>7}"
    lines.append(header)
    lines.append("-" * len(header))
    if per_pair:
        for r in report["rows"]:
            lines.append(f"{r['pair']:>6}  {r['method']:<16} {_fmt(r['precision']):>7} {_fmt(r['recall']):>7} {_fmt(r['fmeasure']):>7}")
        lines.append("-" * len(header))
    for m in report["mean"]:
        lines.append(f"{'mean':>6}  {m['method']:<16} {_fmt(m['precision']):>7} {_fmt(m['recall']):>7} {_fmt(m['fmeasure']):>7}")
    lines.append("")
    lines.append(f"{report['pairs']} pairs; mean = macro average over pairs")
    for name, sig in report["signatures"].items():
        lines.append(f"  {sig}")
    return "\n".join(lines) + "\n"


def render_csv(report: dict) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["pair", "method", "precision", "recall", "fmeasure", "signature"])
    for r in report["rows"]:
        writer.writerow([r["pair"], r["method"], repr(r["precision"]), repr(r["recall"]), repr(r["fmeasure"]), r["signature"]])
    for m in report["mean"]:
        writer.writerow(["mean", m["method"], repr(m["precision"]), repr(m["recall"]), repr(m["fmeasure"]), m["signature"]])
    return buf.getvalue()


def _json_safe(x):
    return None if isinstance(x, float) and math.isnan(x) else x


def render_json(report: dict) -> str:
    per_pair: dict[int, dict] = {}
    for r in report["rows"]:
        entry = per_pair.setdefault(r["pair"], {"pair": r["pair"], "scores": {}})
        entry["scores"][r["method"]] = {k: _json_safe(r[k]) for k in ("precision", "recall", "fmeasure")}
    doc = {
        "version": __version__,
        "pairs": list(per_pair.values()),
        "mean": {m["method"]: {k: _json_safe(m[k]) for k in ("precision", "recall", "fmeasure")} for m in report["mean"]},
        "signatures": report["signatures"],
    }
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    stdout, stderr = sys.stdout, sys.stderr
    try:
        args = build_parser().parse_args(argv)
        for name in args.methods:
            try:
                parse_method(name)
            except ValueError as exc:
                raise CliError(str(exc)) from None
        opts = build_options(args)
        pairs = read_pairs(args)
        progress = None if args.quiet else (lambda msg: print(msg, file=stderr, flush=True))
        try:
            report = run(pairs, args.methods, opts, progress=progress,
                         cost_limit=UNBOUNDED if args.no_cost_limit else None)
        except ValueError as exc:  # the library's refusals (e.g. CostLimitError) name the problem
            raise CliError(str(exc)) from None
        if args.format == "csv":
            text = render_csv(report)
        elif args.format == "json":
            text = render_json(report)
        else:
            text = render_table(report, args.per_pair)
        if args.output:
            try:
                with open(args.output, "w", encoding="utf-8", newline="") as fh:
                    fh.write(text)
            except OSError as exc:
                raise CliError(f"{args.output}: cannot write ({exc.strerror})") from None
        else:
            stdout.write(text)
        return 0
    except CliError as exc:
        print(f"{PROG}: error: {exc}", file=stderr)
        return 2
    except SystemExit as exc:  # argparse after --help / --version: main returns, it does not exit
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=stderr)
        return 130
    except Exception as exc:  # never a traceback for the user, unless asked for
        if os.environ.get("ROUGE_LENS_DEBUG"):
            raise
        print(f"{PROG}: error: {type(exc).__name__}: {exc} (set ROUGE_LENS_DEBUG=1 for details)", file=stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
