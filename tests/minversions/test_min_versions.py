"""The declared minimum versions are true: the suites pass under exactly them.

Each test makes a fresh virtual environment with `name==minimum` for every dependency
declared in pyproject.toml (the app test: core plus the `app` extra, so Streamlit, Altair,
pandas, NumPy, NLTK, snowballstemmer; the library test: the core ones alone), plus pytest,
hypothesis and rouge-score 0.1.2 (the differential tests' reference), and runs suites of
this checkout in it: tests/app with the conformance tests, or the library's numbers, NumPy
kernels, bootstraps and front doors. Marked `minversion`: they install from the package
index (a few minutes with a cold pip cache); `pytest -m "not minversion"` leaves them out.

The library needs NumPy 1.25; the app extra asks for NumPy 2.0 and pandas 2.2.2 because
every pyarrow that pip picks for Streamlit today refuses NumPy 1.x at import time (without
declaring it), and pandas 2.2.2 is the first pandas built for NumPy 2.

How the Streamlit minimum was found: tests/app under each version in a throwaway venv passes
with 1.66.0; with 1.65.0 `test_a_long_text_scores_with_default_settings_and_unlimited_asks_first`
fails (an expander opened through its session-state key stays closed); with 1.64.0 and 1.63.0
share links fail too. (The issue reports 1.40 and 1.51 failing on `width=` and `shortcut=`.)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.minversion
TEST_TOOLS = ["pytest>=8", "hypothesis>=6"]
APP_SUITES = ["tests/app", "tests/core/test_conformance.py", "tests/core/test_frameworks.py::test_per_pair_scores_equal_evaluate"]
# The library alone (no pandas): numbers, NumPy's kernels and bootstraps, the front doors.
CORE_SUITES = ["tests/core/test_conformance.py", "tests/core/test_frameworks.py", "tests/core/test_wlcs_fast.py",
               "tests/core/test_significance.py", "tests/compat/test_rouge_score_package.py",
               "tests/compat/test_rouge155_sample_output.py"]
REFERENCE_TOOLS = ["rouge-score==0.1.2"]  # the differential tests' reference, pinned as in the test extra


def declared_minimums(*groups: str) -> dict[str, str]:
    """{distribution: minimum version} of the core dependencies and the named extras (an
    extra's minimum wins where it names a core package too)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    minimums = {}
    for requirement in project["dependencies"] + [r for g in groups for r in project["optional-dependencies"][g]]:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", requirement.split(";")[0].strip())
        assert match, f"{requirement!r}: declare a minimum as name>=version"
        minimums[match.group(1).lower()] = match.group(2)
    return minimums


def run_suites_under(minimums: dict[str, str], suites: list[str], venv: Path) -> None:
    """Install exactly `minimums` (plus the test tools) in a new venv and run `suites` there."""
    pins = [f"{name}=={version}" for name, version in minimums.items()]
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *pins,
                              *TEST_TOOLS, *REFERENCE_TOOLS], capture_output=True, text=True)
    assert install.returncode == 0, f"the declared minimums do not install together:\n{install.stderr[-3000:]}"
    frozen = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
    installed = dict(line.lower().split("==", 1) for line in frozen.splitlines() if "==" in line)
    for name, version in minimums.items():
        assert Version(installed[name]) == Version(version), f"{name} {installed[name]} installed, not {version}"
    # The app extra only: team mode's services (PostgreSQL, the login provider) and packages are not installed
    # here, so their tests skip instead of failing as they must where .ci/run has started them.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV",
                                                            "ROUGE_LENS_TEST_SERVICES_REQUIRED")}
    run = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *suites], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, f"under {', '.join(pins)}:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"


def test_minimums_are_declared_for_every_dependency():
    assert set(declared_minimums()) == {"nltk", "snowballstemmer", "numpy"}
    assert set(declared_minimums("app")) == {"nltk", "snowballstemmer", "numpy", "streamlit", "altair", "pandas",
                                             "platformdirs", "sqlalchemy", "vl-convert-python"}


def test_app_suite_passes_under_the_declared_minimum_versions(tmp_path):
    run_suites_under(declared_minimums("app"), APP_SUITES, tmp_path / "venv")


def test_library_suites_pass_under_the_core_minimum_versions(tmp_path):
    minimums = declared_minimums()
    assert minimums["numpy"] == "1.25"  # what the library alone needs (the app needs NumPy 2)
    run_suites_under(minimums, CORE_SUITES, tmp_path / "venv")
