"""The package's layers (issue 28), read from the source with `ast`:

- `rouge_core`'s modules import one another without a circle. Every import a module can run
  counts: at module level and inside functions, methods and classes, relative imports resolved,
  `from . import x` as the submodule x. Imports under `if TYPE_CHECKING:` never run (they name
  types for annotations) and do not count.
- `rouge_core` never imports the app (`lens_app`, `pages`, `app`) nor Streamlit.
- `lens_app` never imports `pages` or `app.py`.
- The pages (`pages/*.py`) and `app.py` import only `lens_app` and `rouge_core`'s public API:
  the names in `rouge_core.__all__`, and the modules README.md documents by their dotted path
  (`rouge_core.corpora.corpus_io`, `rouge_core.viz.charts`, ...), never a name that starts with `_`.
  A module that is not in the README is the library's inside: a page that needs it goes
  through `lens_app`, or the README documents it as public first.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import rouge_core

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "rouge_core"
APP_PACKAGES = ("lens_app", "pages", "app")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules() -> dict[str, Path | None]:
    """Every module of rouge_core by dotted name (None: a compiled one, known by its .pyi)."""
    found: dict[str, Path | None] = {module_name(p): p for p in (ROOT / PACKAGE).rglob("*.py")}
    for stub in (ROOT / PACKAGE).rglob("*.pyi"):
        found.setdefault(module_name(stub), None)
    return found


MODULES = package_modules()


def type_checking_nodes(tree: ast.AST) -> set[int]:
    """The nodes under `if TYPE_CHECKING:` (their else branch runs, so it counts)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                skipped.update(id(n) for n in ast.walk(statement))
    return skipped


def imported_names(path: Path) -> list[tuple[str, int]]:
    """(dotted name, line) of everything the file at `path` can import at run time: for
    `from a.b import c` both `a.b.c` (c may be a module) and `a.b`; relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = type_checking_nodes(tree)
    here = module_name(path).split(".") if path.is_relative_to(ROOT) else []
    package = here if path.name == "__init__.py" else here[:-1]
    out = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            out += [(f"{source}.{alias.name}", node.lineno) for alias in node.names]
    return out


def owning_module(name: str) -> str | None:
    """The rouge_core module `name` is (or is a name inside): its longest known prefix."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, dict[str, int]]:
    """{module: {module it imports: the first line that does}} within rouge_core."""
    graph: dict[str, dict[str, int]] = {}
    for name, path in MODULES.items():
        edges = graph.setdefault(name, {})
        if path is None:
            continue
        for imported, line in imported_names(path):
            if imported == PACKAGE or imported.startswith(PACKAGE + "."):
                target = owning_module(imported)
                if target and target != name:
                    edges.setdefault(target, line)
    return graph


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One circle of imports as [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def describe(cycle: list[str], graph: dict[str, dict[str, int]]) -> str:
    return "\n".join(f"  {a} imports {b} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:]))


def test_rouge_core_has_no_import_circle():
    graph = import_graph()
    assert len(graph) > 60 and "rouge_core.scorer.scoring" in graph["rouge_core.corpora.corpus"]  # the walk sees the package
    cycle = find_cycle(graph)
    assert cycle is None, "an import circle in rouge_core:\n" + describe(cycle, graph)


def test_the_cycle_finder_finds_a_circle_through_a_function_level_import():
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": 1}, "b": {}, "c": {"a": 2, "b": 3}}) is None
    tree = ast.parse("def f():\n    from . import scoring\n    from .cost import estimate\n"
                     "if TYPE_CHECKING:\n    from .corpus import CorpusResult\n")
    skipped = type_checking_nodes(tree)
    assert {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and id(n) not in skipped} == {None, "cost"}


def test_imports_inside_functions_and_relative_ones_are_read():
    # `from . import native` is the module rouge_core.kernels.native, not the package
    graph = import_graph()
    assert graph["rouge_core.corpora.corpus"]["rouge_core.corpora.batch"] > 1  # corpus imports batch inside a method
    assert "rouge_core.kernels.native" in graph["rouge_core.scorer.scoring"] and "rouge_core" not in graph["rouge_core.scorer.scoring"]
    assert "rouge_core.errors" in graph["rouge_core.compat.rouge155.api"]  # `from ...errors import excerpt`


def files_of(*roots: str) -> list[Path]:
    out = []
    for root in roots:
        target = ROOT / root
        out += sorted(target.rglob("*.py")) if target.is_dir() else [target.with_suffix(".py")]
    return out


def test_rouge_core_never_imports_the_app_or_streamlit():
    wrong = [(str(path.relative_to(ROOT)), name, line) for path in files_of(PACKAGE)
             for name, line in imported_names(path)
             if name.split(".")[0] in (*APP_PACKAGES, "streamlit")]
    assert wrong == []


def test_lens_app_never_imports_the_pages():
    wrong = [(str(path.relative_to(ROOT)), name, line) for path in files_of("lens_app")
             for name, line in imported_names(path) if name.split(".")[0] in ("pages", "app")]
    assert wrong == []


def documented_modules() -> set[str]:
    """The rouge_core modules README.md names by their dotted path (its public API)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"\brouge_core(?:\.[A-Za-z_][A-Za-z_0-9]*)+", text)
    return {module for name in named if (module := owning_module(name)) and module != PACKAGE}


def public_problems(path: Path, documented: set[str]) -> list[str]:
    """What a page or app.py reaches of rouge_core outside its public API."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    public = set(rouge_core.__all__)
    problems = []
    aliases = {PACKAGE}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    if alias.name != PACKAGE and alias.name not in documented:
                        problems.append(f"line {node.lineno}: import {alias.name}")
                    if alias.name == PACKAGE:
                        aliases.add(alias.asname or PACKAGE)
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == PACKAGE:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in documented:  # a public module
                    ok = True
                elif node.module == PACKAGE:
                    ok = alias.name in public
                else:
                    ok = node.module in documented and not alias.name.startswith("_")
                if not ok:
                    problems.append(f"line {node.lineno}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            if node.attr not in public and f"{PACKAGE}.{node.attr}" not in documented:
                problems.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return problems


def test_pages_and_app_use_only_lens_app_and_the_public_rouge_core():
    documented = documented_modules()
    assert {"rouge_core.corpora.corpus_io", "rouge_core.scorer.cost"} <= documented  # the README is read
    problems = {str(path.relative_to(ROOT)): found for path in files_of("pages", "app")
                if (found := public_problems(path, documented))}
    assert problems == {}, ("pages reach past lens_app and the public rouge_core (rouge_core.__all__ and the modules "
                            f"README.md documents): {problems}")


def test_pages_and_app_import_nothing_else_of_this_project():
    own = {"lens_app", PACKAGE}
    local = {p.stem for p in ROOT.glob("*.py")} | {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    wrong = [(str(path.relative_to(ROOT)), name, line) for path in files_of("pages", "app")
             for name, line in imported_names(path) if name.split(".")[0] in local - own]
    assert wrong == []


# The layers, bottom first (docs/architecture.md draws them): a module imports only from its own
# layer or the ones below. Below them all: the values every layer shares (top-level modules);
# above them all: the front doors (the package's __init__, cli, frameworks, report, compat/).
LAYERS = ["kernels", "text", "families", "scorer", "corpora", "studies", "teach", "viz"]
SHARED = {"stats", "params", "deferred", "errors", "optional", "version", "_moved", "_native"}
# Two reads upward, inside a function and by design: the spec reads the start token its C mirrors
# from skipgram, and native falls back to the pure CandidateLayout when the compiled one refuses.
UPWARD_BY_DESIGN = {("rouge_core.kernels.kernel_spec", "rouge_core.families.skipgram"),
                    ("rouge_core.kernels.native", "rouge_core.families.bitparallel_lcs")}


def layer_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in SHARED:
        return -1
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return len(LAYERS)  # a front door


def test_every_import_runs_down_the_layers():
    assert {p.name for p in (ROOT / PACKAGE).iterdir() if (p / "__init__.py").exists()} == {*LAYERS, "compat"}
    graph = import_graph()
    upward = {(a, b) for a, edges in graph.items() for b in edges if layer_of(b) > layer_of(a)}
    assert upward == UPWARD_BY_DESIGN, sorted(upward - UPWARD_BY_DESIGN)
    flat = sorted(p.stem for p in (ROOT / PACKAGE).glob("*.py"))
    assert flat == sorted({"__init__", "__main__", "cli", "frameworks", "report"} | SHARED - {"_native"})
