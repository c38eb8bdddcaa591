"""Run README.md's Python examples against the rouge_core that is installed, and check the values they show.

    python tests/packaging/readme_examples.py README.md [--require-compiled] [--skip-module dask]

What runs, in the README's order and in one namespace (a later example sees an earlier one's names):

- every ```python block. An expression whose comment starts with a Python literal is checked
  against it, at the precision shown (`x  # 0.6 (bootstrap average)`; `r.value, r.items  # 0.6667, 9`;
  or the comment on the line right after the expression: `# {'rouge1': 1.0, ...}`). A block that
  prints is checked against the plain fenced block right after it, when there is one.
- every fenced block of `>>>` lines, as a doctest.

Names the README leaves to the reader (their data: `candidates`, `references`, `eval_batches`,
`df`, `model_summaries`) are given small values first (`reader_data`), and the files they read
(`READER_FILES`: SummEval's annotations) are synthetic stand-ins from tests/data, in the
folder the examples run in (a new temporary one). A block that imports an
optional package that is not installed here (or one named by --skip-module) is skipped, and
the report says which and why; anything else that fails is a failure. Exit status 0 when every
example that ran gave what the README shows.

`.ci/python-matrix` runs this in a clean virtual environment outside the checkout, with the
built wheel installed; tests/core/test_readme_examples.py runs it on the checkout.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import doctest
import importlib.util
import io
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass
class Block:
    line: int  # where the block's text starts in the README (1-based)
    language: str
    text: str
    shown_output: str | None = None  # the plain fenced block right after a python block


@dataclass
class Outcome:
    run: int = 0
    checked: int = 0
    skipped: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def blocks(readme: str) -> list[Block]:
    found = []
    for match in FENCE.finditer(readme):
        line = readme.count("\n", 0, match.start(2)) + 1
        found.append(Block(line, match.group(1), match.group(2)))
    runnable = []
    for i, block in enumerate(found):
        if block.language == "python":
            nxt = found[i + 1] if i + 1 < len(found) else None
            if nxt is not None and nxt.language == "" and ">>>" not in nxt.text:
                block.shown_output = nxt.text
            runnable.append(block)
        elif block.language == "" and block.text.lstrip().startswith(">>>"):
            runnable.append(block)
    return runnable


# The files the README's examples read, as the reader would have them: {name: stand-in beside the README}.
READER_FILES = {"model_annotations.aligned.jsonl": "tests/data/formats/summeval.jsonl"}


def reader_data() -> dict:
    """Small stand-ins for the data the README's examples leave to the reader."""
    candidates = ["the cat sat on the mat", "police killed the gunman", "a b c d"]
    references = [["the cat was on the mat", "a cat sat on a mat"], ["police shot the gunman dead"], ["a b d"]]
    data = {
        "candidates": candidates,
        "references": references,
        "eval_batches": [{"document": ["hello there"], "summary": ["hello there"]},
                         {"document": ["general kenobi"], "summary": [["general kenobi", "general grievous"]]}],
        "model_summaries": lambda batch: list(batch["document"]),
    }
    if importlib.util.find_spec("pandas") is not None:
        import pandas

        data["df"] = pandas.DataFrame({"summary": candidates, "ref1": [r[0] for r in references],
                                       "ref2": [r[-1] for r in references]})
    return data


_ARITHMETIC = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
               ast.Div: lambda a, b: a / b}


def constant(node: ast.expr):
    """The value of a literal, where a number may also be written as arithmetic (`5/9`)."""
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        return _ARITHMETIC[type(node.op)](constant(node.left), constant(node.right))
    if isinstance(node, (ast.Tuple, ast.List)):
        values = [constant(e) for e in node.elts]
        return tuple(values) if isinstance(node, ast.Tuple) else values
    return ast.literal_eval(node)


def literal_prefix(comment: str) -> ast.expr | None:
    """The longest start of `comment` that is a Python literal (numbers may be written `5/9`) and
    ends where a word would (not inside `5/9`, not at a comma), as an AST node."""
    comment = comment.strip()
    for end in range(len(comment), 0, -1):
        prefix = comment[:end].rstrip()
        if not prefix or prefix.endswith(",") or (end < len(comment) and comment[end] not in " \t,;:)"):
            continue
        try:
            node = ast.parse(prefix, mode="eval").body
            constant(node)
        except (SyntaxError, ValueError, TypeError, ZeroDivisionError, MemoryError, RecursionError):
            continue
        if isinstance(node, ast.Name):
            continue
        node.source = prefix  # type: ignore[attr-defined]
        return node
    return None


def matches(node: ast.expr, source: str, value) -> bool:
    """`value` equals the literal `node` (its text in `source`) at the precision the text shows."""
    if isinstance(node, ast.Constant) and isinstance(node.value, float):
        shown = ast.get_source_segment(source, node) or repr(node.value)
        decimals = len(shown.split(".", 1)[1]) if "." in shown and "e" not in shown.lower() else None
        if decimals is None:
            return value == node.value
        try:
            return f"{float(value):.{decimals}f}" == f"{node.value:.{decimals}f}"
        except (TypeError, ValueError):
            return False
    if isinstance(node, (ast.Tuple, ast.List)):
        try:
            items = list(value)
        except TypeError:
            return False
        return len(items) == len(node.elts) and all(matches(n, source, v) for n, v in zip(node.elts, items))
    if isinstance(node, ast.BinOp):  # a number written as arithmetic: exactly that value
        return value == constant(node)
    if isinstance(node, ast.Dict):
        if not isinstance(value, dict):
            return False
        keys = [ast.literal_eval(k) for k in node.keys]
        return list(value) == keys and all(matches(n, source, value[k]) for k, n in zip(keys, node.values))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):  # a negative number
        try:
            return matches(node.operand, source, -value)
        except TypeError:
            return False
    return value == ast.literal_eval(node)


def checks_in(text: str) -> dict[int, tuple[str, ast.expr]]:
    """{line of an expression statement: (the literal's text, its node)} for the commented values of a block."""
    tree = ast.parse(text)
    lines = text.splitlines()
    found = {}
    for statement in tree.body:
        if not isinstance(statement, ast.Expr):
            continue
        last = lines[statement.end_lineno - 1]
        segment = last[statement.end_col_offset:]
        comment = segment.split("#", 1)[1] if "#" in segment else None
        if comment is None and statement.end_lineno < len(lines):
            following = lines[statement.end_lineno].strip()
            if following.startswith("#"):
                comment = following[1:]
        if comment is None:
            continue
        node = literal_prefix(comment)
        if node is not None:
            found[statement.lineno] = (node.source, node)  # type: ignore[attr-defined]
    return found


def missing_module(exc: BaseException) -> str | None:
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return exc.name.split(".")[0]
    name = getattr(exc, "name", None)  # rouge_core's MissingDependency / MissingExtraError are ImportErrors
    if isinstance(exc, ImportError) and name:
        return name.split(".")[0]
    return None


def run_python(block: Block, namespace: dict, outcome: Outcome, skip_modules: set[str]) -> None:
    text = block.text
    tree = ast.parse(text)
    for node in ast.walk(tree):
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                  [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
        for module in modules:
            if module.split(".")[0] in skip_modules:
                outcome.skipped.append(f"line {block.line}: uses {module.split('.')[0]} (--skip-module)")
                return
    checks = checks_in(text)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            for statement in tree.body:
                module = ast.Module(body=[statement], type_ignores=[])
                if isinstance(statement, ast.Expr):
                    value = eval(compile(ast.Expression(statement.value), f"README.md:{block.line}", "eval"), namespace)
                    if statement.lineno in checks:
                        shown, node = checks[statement.lineno]
                        outcome.checked += 1
                        if not matches(node, shown, value):
                            outcome.failures.append(f"line {block.line + statement.lineno - 1}: the README shows "
                                                    f"{shown}, the code gives {value!r}")
                else:
                    exec(compile(module, f"README.md:{block.line}", "exec"), namespace)
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its line
        module = missing_module(exc)
        if module is not None and importlib.util.find_spec(module) is None:
            outcome.skipped.append(f"line {block.line}: needs {module}, which is not installed here ({exc})")
            return
        outcome.failures.append(f"line {block.line}: {type(exc).__name__}: {exc}")
        return
    outcome.run += 1
    if block.shown_output is not None and printed.getvalue():
        outcome.checked += 1
        got = [line.rstrip() for line in printed.getvalue().strip("\n").splitlines()]
        want = [line.rstrip() for line in block.shown_output.strip("\n").splitlines()]
        if got != want:
            outcome.failures.append(f"line {block.line}: printed\n" + "\n".join(got) + "\nbut the README shows\n"
                                    + "\n".join(want))


def run_doctest(block: Block, namespace: dict, outcome: Outcome) -> None:
    test = doctest.DocTestParser().get_doctest(block.text, namespace, f"README.md:{block.line}", "README.md",
                                               block.line - 1)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    result = runner.run(test, out=report.write, clear_globs=False)
    outcome.run += 1
    outcome.checked += result.attempted
    if result.failed:
        outcome.failures.append(f"line {block.line}: doctest\n{report.getvalue()}")


def run(readme: Path, skip_modules: set[str] = frozenset()) -> Outcome:
    namespace: dict = {"__name__": "__readme__"}
    namespace.update(reader_data())
    outcome = Outcome()
    text = readme.read_text(encoding="utf-8")
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="readme-examples-") as folder:
        for name, stand_in in READER_FILES.items():
            source = readme.resolve().parent / stand_in
            if source.exists():  # beside the project's README (not beside a test's own)
                shutil.copyfile(source, Path(folder) / name)
        os.chdir(folder)  # what an example writes goes there, and it reads the stand-ins by name
        try:
            for block in blocks(text):
                if block.language == "python":
                    run_python(block, namespace, outcome, set(skip_modules))
                else:
                    run_doctest(block, namespace, outcome)
        finally:
            os.chdir(here)
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("readme", type=Path)
    parser.add_argument("--require-compiled", action="store_true",
                        help="fail unless rouge_core runs on its compiled kernels")
    parser.add_argument("--skip-module", action="append", default=[], metavar="MODULE",
                        help="skip the examples that import MODULE (e.g. dask: its cluster is tested elsewhere)")
    args = parser.parse_args(argv)
    import rouge_core

    where = Path(rouge_core.__file__).parent
    print(f"rouge_core {rouge_core.__version__} from {where}; compiled kernels: {rouge_core.accelerated}")
    if args.require_compiled and not rouge_core.accelerated:
        print(f"FAIL: rouge_core is not on its compiled kernels ({rouge_core.kernels.native.describe()})")
        return 1
    outcome = run(args.readme, set(args.skip_module))
    for reason in outcome.skipped:
        print(f"skipped {reason}")
    for failure in outcome.failures:
        print(f"FAIL {failure}")
    print(f"README examples: {outcome.run} blocks ran, {outcome.checked} values checked, "
          f"{len(outcome.skipped)} skipped, {len(outcome.failures)} failed")
    return 1 if outcome.failures or not outcome.run else 0


if __name__ == "__main__":
    sys.exit(main())
