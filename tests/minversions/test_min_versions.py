"""The declared minimum versions are true: the AppTest suite passes under exactly them.

A fresh virtual environment gets `name==minimum` for every dependency of the core install
and of the `app` extra (Streamlit, Altair, pandas, NumPy, NLTK, snowballstemmer, as declared
in pyproject.toml), plus pytest and hypothesis; then tests/app and the library's conformance
tests run in it from this checkout. Marked `minversion`: it installs from the package index
(a few minutes with a cold pip cache); `pytest -m "not minversion"` leaves it out.

How the Streamlit minimum was found: the same run with 1.66.0 passes; with 1.65.0
`test_a_long_text_scores_with_default_settings_and_unlimited_asks_first` fails (an expander
opened through its session-state key stays closed), with 1.64.0 and 1.63.0 share links fail
as well, and below 1.52 the app does not start (`shortcut=`, `width=`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.minversion
TEST_TOOLS = ["pytest>=8", "hypothesis>=6"]
SUITES = ["tests/app", "tests/core/test_conformance.py", "tests/core/test_frameworks.py::test_per_pair_scores_equal_evaluate"]


def declared_minimums() -> dict[str, str]:
    """{distribution: minimum version} of the core dependencies and the app extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    minimums = {}
    for requirement in project["dependencies"] + project["optional-dependencies"]["app"]:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", requirement.split(";")[0].strip())
        assert match, f"{requirement!r}: declare a minimum as name>=version"
        minimums[match.group(1).lower()] = match.group(2)
    return minimums


def test_minimums_are_declared_for_every_app_dependency():
    assert set(declared_minimums()) == {"nltk", "snowballstemmer", "numpy", "streamlit", "altair", "pandas"}


def test_app_suite_passes_under_the_declared_minimum_versions(tmp_path):
    # rouge-score is only needed by the frameworks test's reference; its version is pinned by the test extra.
    pins = [f"{name}=={version}" for name, version in declared_minimums().items()] + TEST_TOOLS + ["rouge-score==0.1.2"]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *pins],
                             capture_output=True, text=True)
    assert install.returncode == 0, f"the declared minimums do not install together:\n{install.stderr[-3000:]}"
    frozen = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
    installed = dict(line.lower().split("==", 1) for line in frozen.splitlines() if "==" in line)
    for name, version in declared_minimums().items():
        assert Version(installed[name]) == Version(version), f"{name} {installed[name]} installed, not {version}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    run = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *SUITES], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, f"under {', '.join(pins)}:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
