"""The layers' move (issue 28, item 4): every module that moved into a sub-package
(rouge_core/<layer>/) still imports by its old path, as that very module (so monkeypatching
either patches both), with a DeprecationWarning naming the new path; `import rouge_core` itself
warns about nothing; the public API (`rouge_core.__all__` and its objects) is what it was; data
pickled under the old paths loads."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import rouge_core

ROOT = Path(__file__).resolve().parents[2]
MOVED = rouge_core._MOVED_MODULES

# rouge_core.__all__ before the move, each name with the module rouge_core/__init__.py took it from then
BEFORE = {
    "CorpusResult": "corpus", "score_corpus": "corpus", "DEFAULT_COST_LIMIT": "cost", "UNBOUNDED": "cost",
    "CostEstimate": "cost", "CostLimit": "cost", "CostLimitError": "cost", "RougeAccumulator": "frameworks",
    "compute": "frameworks", "Method": "methods", "parse_method": "methods", "MULTI_REF_MODES": "options",
    "PROFILES": "options", "Options": "options", "profile": "options", "NGRAM_N": "params", "SKIP_DISTANCE": "params",
    "WLCS_WEIGHT": "params", "ParameterRange": "params", "DEFAULT_METHODS": "scoring", "MethodScore": "scoring",
    "ReferenceScore": "scoring", "Result": "scoring", "score": "scoring", "score_documents": "scoring",
    "Interval": "stats", "Score": "stats", "Stats": "stats", "f_measure": "stats", "Document": "document",
    "Token": "document", "pretokenized": "document", "tokenize": "tokenize", "__version__": "version",
    # added alongside the move (issue 34, item 1: evidence=False by default)
    "NO_EVIDENCE": "scoring", "EvidenceNotComputedError": "scoring",
}


def test_the_public_api_is_what_it_was():
    assert set(rouge_core.__all__) == set(BEFORE) | {"accelerated"}
    for name, module in BEFORE.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            old = importlib.import_module(f"rouge_core.{module}")
        assert getattr(rouge_core, name) is getattr(old, name), name
    assert rouge_core.accelerated in (True, False) and rouge_core.native is importlib.import_module(
        "rouge_core.kernels.native")


@pytest.mark.parametrize("name", sorted(MOVED))
def test_an_old_path_is_the_moved_module_itself(name):
    new = importlib.import_module(f"rouge_core.{MOVED[name]}.{name}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old = importlib.import_module(f"rouge_core.{name}")
    assert old is new and sys.modules[f"rouge_core.{name}"] is new
    assert (ROOT / "rouge_core" / MOVED[name] / f"{name}.py").is_file()


def test_monkeypatching_the_old_path_patches_the_real_module(monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from rouge_core import scoring as old_scoring  # noqa: F401 (the old path, on purpose)
        old = importlib.import_module("rouge_core.scoring")
    from rouge_core.scorer import scoring

    monkeypatch.setattr(old, "ONLY_REFERENCE", "patched")
    assert scoring.ONLY_REFERENCE == "patched"


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code], cwd=ROOT,
                          capture_output=True, text=True)


def test_importing_rouge_core_warns_about_nothing_and_an_old_path_says_where_it_went():
    assert run("import rouge_core, rouge_core.scorer.cost; rouge_core.score('a b', ['a c'], ['rouge1'])"
               ).returncode == 0
    moved = run("import rouge_core.cost")
    assert moved.returncode != 0
    assert "rouge_core.cost moved to rouge_core.scorer.cost" in moved.stderr
    attribute = run("import rouge_core; rouge_core.corpus_io")  # an attribute as before the move, warned
    assert "rouge_core.corpus_io moved to rouge_core.corpora.corpus_io" in attribute.stderr


def test_rouge_core_tokenize_stays_the_function_whatever_is_imported():
    import rouge_core.tokenize  # noqa: F401 (the old module path)
    from rouge_core.text import tokenize as module

    assert callable(rouge_core.tokenize) and rouge_core.tokenize is module.tokenize
    assert sys.modules["rouge_core.tokenize"] is module


def test_data_pickled_under_the_old_paths_loads():
    method = rouge_core.parse_method("rougeSU4")
    current = pickle.dumps(method, protocol=2)  # GLOBAL opcodes: the module path as a line of text
    assert b"crouge_core.families.methods\nMethod\n" in current
    old = current.replace(b"rouge_core.families.methods", b"rouge_core.methods")  # as pickled before the move
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert pickle.loads(old) == method and type(pickle.loads(old)) is rouge_core.Method


def test_python_dash_m_on_an_old_path_runs_the_moved_module(monkeypatch):
    """`python -m rouge_core.kernel_spec` (runpy asks the import hook for the module's code)."""
    import runpy

    from rouge_core._moved import OldPaths

    ran = []
    monkeypatch.setattr(runpy, "run_module", lambda name, **how: ran.append((name, how)))
    with pytest.warns(DeprecationWarning, match="python -m rouge_core.kernels.kernel_spec"):
        code = OldPaths().get_code("rouge_core.kernel_spec")
    exec(code, {})
    assert ran == [("rouge_core.kernels.kernel_spec", {"run_name": "__main__", "alter_sys": True})]
