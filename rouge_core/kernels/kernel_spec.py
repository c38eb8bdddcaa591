"""What the compiled kernels and the Python side agree on, defined once.

The C side (rouge_core/kernels/*.c and the binding rouge_core/_native.c) reads all of it from
rouge_core/kernels/spec.h, which is written from this module and from the Python definitions
it names (W_ROUNDING in rouge_core.stats, START_TOKEN in rouge_core.families.skipgram, the fields of
the record classes in RECORDS, the scoring rules in RULES, translated into C). After changing
any of them, run

    python -m rouge_core.kernels.kernel_spec        # rewrites rouge_core/kernels/spec.h

and rebuild the extension. tests/core/test_kernel_spec.py checks that spec.h is current. A
stale build is caught at import: rouge_core.kernels.native compares the extension's copy of the
constants (`_native.SPEC`) with `constants()`, and the extension compares each record class's
fields with the ones it was compiled for when the class is registered; either mismatch turns
the kernels off (the pure path computes, and `native.describe()` says why).

This module imports nothing of rouge_core at import time: every module may import it.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import re
import sys
import textwrap
from dataclasses import fields
from pathlib import Path

# The kernel a method's plan runs (Family.native_plan's first item).
KERNEL_NGRAM = 1
KERNEL_LCS = 2
KERNEL_UNION_LCS = 3
KERNEL_WLCS_PAPER = 4
KERNEL_WLCS_ROUGE155 = 5
KERNEL_SKIP = 6
KERNELS = {"NGRAM": KERNEL_NGRAM, "LCS": KERNEL_LCS, "UNION_LCS": KERNEL_UNION_LCS, "WLCS_PAPER": KERNEL_WLCS_PAPER,
           "WLCS_ROUGE155": KERNEL_WLCS_ROUGE155, "SKIP": KERNEL_SKIP}

# How the compiled tokenizers find words (rouge_core.text.tokenize.word_rule): runs of [A-Za-z0-9]
# as written (ROUGE-1.5.5 and rouge-score without lower-casing), lower-cased as ASCII (ROUGE-1.5.5's
# `lc`: only A-Z change), or after Python's str.lower() of the whole text (rouge-score: "İ" is
# "i" + U+0307, the Kelvin sign "k"; see `lowerings`). Every byte of UTF-8 text outside
# [A-Za-z0-9] separates words (non-ASCII characters are all bytes >= 0x80).
WORD_RULES = {"KEEP_CASE": 0, "LOWER_ASCII": 1, "LOWER_UNICODE": 2}
WORDS_KEEP_CASE, WORDS_LOWER_ASCII, WORDS_LOWER_UNICODE = WORD_RULES.values()

# The skip kernel's unigram form (its plan's third item), by Options.su_form (None: ROUGE-S).
UNIGRAM_FORMS = {None: 0, "rouge155": 1, "start-token": 2}
_UNIGRAM_FORM_NAMES = {None: "NONE", "rouge155": "ROUGE155", "start-token": "START"}

# ROUGE-1.5.5's ROUGE-W kernel (kernels/wlcs.c wlcs_partners): a reference sentence visits the
# candidate sentences that can still partner its words one by one, and once it has visited more
# than `w155_most_blocks` of them sweeps them all at once (the cost model prices that sweep).
W155_BLOCKS_PER = 8  # candidate sentences per block the sweep may wait for
W155_BLOCKS_MORE = 4


def w155_most_blocks(sentences: int) -> int:
    """The candidate sentences a reference sentence visits one by one before the sweep."""
    return sentences // W155_BLOCKS_PER + W155_BLOCKS_MORE


# What a batch job stores per (pair, plan, reference), in this order (rouge_core.corpora.batch).
BATCH_VALUES = ("hits", "cand_total", "ref_total", "exponent", "ref_base", "precision", "recall")

# The records the binding fills, by kind: the classes' own fields, in their order, are what it
# was compiled for (a dataclass of the module named).
RECORDS = {
    "STATS": "stats:Stats",
    "SCORE": "stats:Score",
    "REFERENCE_SCORE": "scorer.scoring:ReferenceScore",
    "METHOD_SCORE": "scorer.scoring:MethodScore",
    "NGRAM_MATCH": "families.ngram:NgramMatch",
    "SKIP_ROW": "families.skipgram:SkipBigramRow",
}  # module (within rouge_core): class
# A Document the compiled tokenizer made (rouge_core.text.tokenize._NativeDocument): the attributes
# it is given, as its frozen dataclass's __init__ gives them (object.__setattr__).
DOCUMENT_FIELDS = ("text", "lcs_view", "_lazy_args", "_memo")
RECORD_KINDS = (*RECORDS, "DOCUMENT")  # a kind's code is its index

# Scoring rules written once, in Python, and compiled into the kernels as C (`c_function`):
# the compiled path computes them with the same operations in the same order.
RULES = {"f_measure": "stats:f_measure"}  # C name spec_<name>: module (within rouge_core): function

HEADER = Path(__file__).with_name("spec.h")  # beside the kernels it serves
LOWERING_HEADER = "lowering.h"  # written at build time (setup.py) into the build's include directory


def record_class(kind: str) -> type:
    module, name = RECORDS[kind].split(":")
    return getattr(importlib.import_module(f"..{module}", __package__), name)


def record_fields(kind: str) -> tuple[str, ...]:
    """The fields the binding fills for a record kind, in order."""
    if kind == "DOCUMENT":
        return DOCUMENT_FIELDS
    return tuple(f.name for f in fields(record_class(kind)))


def record_kind(cls: type) -> int:
    """The kind code of a record class named in RECORDS."""
    name = f"{cls.__module__.partition('.')[2]}:{cls.__qualname__}"  # its path within rouge_core
    for code, kind in enumerate(RECORD_KINDS):
        if RECORDS.get(kind) == name and record_class(kind) is cls:
            return code
    raise ValueError(f"{cls.__module__}.{cls.__qualname__} is not a record the compiled kernels fill "
                     "(rouge_core.kernels.kernel_spec.RECORDS)")


def _imported(path: str):
    module, name = path.split(":")
    return getattr(importlib.import_module(f"..{module}", __package__), name)


_C_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<",
                ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.And: "&&", ast.Or: "||"}


def _c_expression(node: ast.expr) -> str:
    """A float expression in C, every operation parenthesized as Python grouped it."""
    if isinstance(node, ast.BinOp) and type(node.op) in _C_OPERATORS:
        return f"({_c_expression(node.left)} {_C_OPERATORS[type(node.op)]} {_c_expression(node.right)})"
    if isinstance(node, ast.BoolOp):
        return "(" + f" {_C_OPERATORS[type(node.op)]} ".join(map(_c_expression, node.values)) + ")"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _C_OPERATORS:
        return f"({_c_expression(node.left)} {_C_OPERATORS[type(node.ops[0])]} {_c_expression(node.comparators[0])})"
    if isinstance(node, ast.IfExp):
        return f"({_c_expression(node.test)} ? {_c_expression(node.body)} : {_c_expression(node.orelse)})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return f"(-{_c_expression(node.operand)})"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return repr(float(node.value))  # Python turns an int operand into this double too
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (node.value.id, node.attr) == ("math", "nan"):
        return "NAN"
    raise ValueError(f"a rule the kernels share is float arithmetic only, not {ast.dump(node)}")


def _c_statements(body: list[ast.stmt], indent: str) -> list[str]:
    lines = []
    for node in body:
        if isinstance(node, ast.Return) and node.value is not None:
            lines.append(f"{indent}return {_c_expression(node.value)};")
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            lines.append(f"{indent}double {node.targets[0].id} = {_c_expression(node.value)};")
        elif isinstance(node, ast.If):
            lines.append(f"{indent}if ({_c_expression(node.test)}) {{")
            lines += _c_statements(node.body, indent + "    ")
            lines.append(f"{indent}}}")
            if node.orelse:
                lines[-1] += " else {"
                lines += _c_statements(node.orelse, indent + "    ")
                lines.append(f"{indent}}}")
        else:
            raise ValueError(f"a rule the kernels share is float arithmetic only, not {ast.dump(node)}")
    return lines


def c_function(function, name: str) -> str:
    """A rule written in Python (float arithmetic, comparisons, `if` and conditional expressions,
    math.nan) as the C function `name` with the same operations in the same order: C's doubles
    then give what Python's floats give, to the bit (the kernels are compiled without fused
    multiply-add or fast-math reordering). Anything else is refused."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    params = ", ".join(f"double {arg.arg}" for arg in tree.args.args)
    return "\n".join([f"static inline double {name}({params}) {{", *_c_statements(body, "    "), "}"])


def rules_c() -> str:
    """The C of every rule in RULES."""
    return "\n\n".join(c_function(_imported(path), f"spec_{name}") for name, path in RULES.items())


def constants() -> dict[str, object]:
    """Every constant both sides share (the extension's `SPEC` must be equal)."""
    from ..families.skipgram import START_TOKEN
    from ..stats import W_ROUNDING

    out: dict[str, object] = {"W_ROUNDING": W_ROUNDING, "START_TOKEN": START_TOKEN}
    try:  # the rules' C, by digest (their source is read from the installed .py files)
        out["RULES"] = hashlib.sha256(rules_c().encode()).hexdigest()[:16]
    except (OSError, TypeError):
        out["RULES"] = None  # no source to read (a frozen install): not compared
    out.update({f"K_{name}": code for name, code in KERNELS.items()})
    out.update({f"WORDS_{name}": code for name, code in WORD_RULES.items()})
    out.update({f"SU_{_UNIGRAM_FORM_NAMES[form]}": code for form, code in UNIGRAM_FORMS.items()})
    out.update({f"BV_{name.upper()}": k for k, name in enumerate(BATCH_VALUES)})
    out["BATCH_VALUES"] = len(BATCH_VALUES)
    out["W155_BLOCKS_PER"], out["W155_BLOCKS_MORE"] = W155_BLOCKS_PER, W155_BLOCKS_MORE
    out.update({f"REC_{kind}": code for code, kind in enumerate(RECORD_KINDS)})
    out["RECORD_KINDS"] = len(RECORD_KINDS)
    return out


def _c_value(value) -> str:
    if isinstance(value, str):
        if not value.isascii() or '"' in value or "\\" in value:
            raise ValueError(f"{value!r}: spec strings are plain ASCII")
        return f'"{value}"'
    return repr(value)  # a float's repr reads back as the same double in C too


def header() -> str:
    """The text of rouge_core/kernels/spec.h."""
    spec = constants()
    lines = [
        "/* rouge_core/kernels/spec.h: what the kernels, the binding and the Python side share.",
        " * Written by `python -m rouge_core.kernels.kernel_spec` from rouge_core/kernels/kernel_spec.py and the",
        " * definitions it names: do not edit (tests/core/test_kernel_spec.py checks it is current). */",
        "#ifndef ROUGE_KERNELS_SPEC_H",
        "#define ROUGE_KERNELS_SPEC_H",
        "",
        "#include <math.h>",
        "",
    ]
    numbers = {k: v for k, v in spec.items() if isinstance(v, float) or isinstance(v, str)}
    for name, value in numbers.items():
        lines.append(f"#define SPEC_{name} {_c_value(value)}")
    codes = [k for k, v in spec.items() if isinstance(v, int) and not isinstance(v, bool)]
    lines.append("")
    lines.append("enum {")
    lines += [f"    {name} = {spec[name]}," for name in codes]
    lines.append("};")
    lines.append("")
    for kind in RECORD_KINDS:
        names = record_fields(kind)
        lines.append(f"/* rouge_core.{RECORDS.get(kind, 'text.tokenize:_NativeDocument')} */")
        lines.append("enum {")
        lines += [f"    {kind}_{name.lstrip('_').upper()} = {k}," for k, name in enumerate(names)]
        lines.append(f"    {kind}_FIELDS = {len(names)},")
        lines.append("};")
    lines.append("")
    lines.append("/* Each record kind's field names, in order (REC_* indexes), NULL-terminated. */")
    lines.append("#define SPEC_RECORD_FIELDS \\")
    rows = []
    for kind in RECORD_KINDS:
        names = ", ".join(f'"{n}"' for n in record_fields(kind))
        rows.append(f"    {{{names}, NULL}}")
    lines.append("    { \\")
    lines.append(", \\\n".join(rows) + " \\")
    lines.append("    }")
    lines.append(f"#define SPEC_MAX_FIELDS {max(len(record_fields(kind)) for kind in RECORD_KINDS)}")
    lines.append("")
    lines.append("/* Every constant above, for rouge_core._native.SPEC: X(name, value) for numbers, S(name, text)")
    lines.append(" * for strings. */")
    items = []
    for name, value in spec.items():
        if isinstance(value, str):
            items.append(f'S("{name}", SPEC_{name})')
        elif isinstance(value, float):
            items.append(f'F("{name}", SPEC_{name})')
        else:
            items.append(f'X("{name}", {name})')
    lines.append("#define SPEC_CONSTANTS(X, F, S) \\")
    lines.append(" \\\n".join(f"    {item}" for item in items))
    lines.append("")
    lines.append(f"/* {', '.join(f'rouge_core.{path}' for path in RULES.values())}, in C (kernel_spec.c_function) */")
    lines.append(rules_c())
    lines.append("")
    lines.append("#endif")
    return "\n".join(lines) + "\n"


_ASCII_WORD_CHAR = re.compile("[a-z0-9]")


def lowerings() -> tuple[tuple[int, str], ...]:
    """The lower-casing table of the compiled rouge-score tokenizer, from this Python's own
    str.lower(): per non-ASCII code point whose lower case holds an ASCII letter or digit (U+0130
    "İ" -> "i" + U+0307, U+212A KELVIN SIGN -> "k"), that lower case with each other character as
    a space. rouge-score lower-cases, then keeps runs of [a-z0-9]: every other non-ASCII
    character lower-cases to characters outside [a-z0-9], so it only separates words, as its
    UTF-8 bytes (all >= 0x80) do for the compiled scanner. Python's one context-dependent rule
    (final sigma) gives Greek letters either way.

    Each such lower case must be no longer than the code point's UTF-8 (a text of b bytes then
    has at most (b + 1) // 2 words, which rouge_core.corpora.batch's cost bound reads): a Python whose
    Unicode breaks this makes the build fail here rather than bound costs wrongly."""
    found = []
    step = 4096
    every = "".join(map(chr, range(0x110000)))
    for base in range(0x80, 0x110000, step):
        if not _ASCII_WORD_CHAR.search(every[base:base + step].lower()):  # most blocks: one C call
            continue
        for cp in range(base, min(base + step, 0x110000)):
            lowered = chr(cp).lower()
            if _ASCII_WORD_CHAR.search(lowered):
                ascii_form = "".join(c if _ASCII_WORD_CHAR.fullmatch(c) else " " for c in lowered)
                if len(ascii_form) > len(chr(cp).encode("utf-8", "surrogatepass")):
                    raise ValueError(f"U+{cp:04X} lower-cases to {lowered!r}, longer than its UTF-8: the compiled "
                                     "tokenizer's bound on words per byte would not hold")
                found.append((cp, ascii_form))
    return tuple(found)


def lowering_header() -> str:
    """The text of lowering.h, the table of `lowerings` in C, with the Unicode version of the
    Python that wrote it (rouge_core.kernels.native compares it with the running Python's at import)."""
    import platform
    import unicodedata

    rows = []
    for cp, ascii_form in lowerings():
        utf8 = "".join(f"\\x{b:02x}" for b in chr(cp).encode("utf-8"))
        rows.append(f'    {{0x{cp:04X}, "{utf8}", {len(chr(cp).encode())}, "{ascii_form}", {len(ascii_form)}}}, \\')
    return "\n".join([
        "/* lowering.h: the compiled rouge-score tokenizer's lower-casing table (kernel_spec.lowerings),",
        f" * written at build time from Python {platform.python_version()}'s str.lower(): do not edit. */",
        "#ifndef ROUGE_KERNELS_LOWERING_H",
        "#define ROUGE_KERNELS_LOWERING_H",
        f'#define LOWERING_UNICODE "{unicodedata.unidata_version}"',
        f"#define LOWERING_COUNT {len(rows)}",
        "/* {code point, its UTF-8, bytes, its lower case ([a-z0-9], others as spaces), bytes}, then an end mark */",
        "#define LOWERING_TABLE { \\",
        *rows,
        '    {0, "", 0, "", 0} \\',
        "}",
        "#endif",
        "",
    ])


def write_lowering_header(directory: str) -> str:
    """Write lowering.h into `directory` (setup.py, for the Python that builds); its path."""
    path = Path(directory) / LOWERING_HEADER
    path.parent.mkdir(parents=True, exist_ok=True)
    text = lowering_header()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return str(path)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = header()
    if argv == ["--check"]:
        current = HEADER.read_text() if HEADER.exists() else ""
        if current != text:
            print(f"{HEADER} is stale: run python -m rouge_core.kernels.kernel_spec", file=sys.stderr)
            return 1
        return 0
    HEADER.parent.mkdir(exist_ok=True)
    HEADER.write_text(text)
    print(f"wrote {HEADER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
