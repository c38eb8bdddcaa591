"""Packaging: one version source, licence files, typed marker, complete __all__, declared
dependencies, optional extras named in errors, and a built wheel that carries all of it."""

from __future__ import annotations

import email
import re
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import rouge_core
from rouge_core import optional
from rouge_core.version import __version__

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]


def requirement_names(requirements) -> dict[str, str]:
    """{distribution name: its specifier} of PEP 508 strings."""
    out = {}
    for line in requirements:
        match = re.match(r"\s*([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*([^;#]*)", line)
        out[match.group(1).lower()] = match.group(3).strip()
    return out


def requirements_file(name: str) -> dict[str, str]:
    lines = [line for line in (ROOT / name).read_text().splitlines() if line.strip() and not line.startswith(("#", "-"))]
    return requirement_names(lines)


def test_all_names_every_public_name_and_only_existing_ones():
    public = {name for name, value in vars(rouge_core).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    computed = {"accelerated"}  # served by the module's __getattr__ (read at each access)
    assert public | {"__version__"} | computed == set(rouge_core.__all__)
    assert all(getattr(rouge_core, name) in (True, False) for name in computed)
    assert len(rouge_core.__all__) == len(set(rouge_core.__all__))
    for name in ("score_corpus", "CorpusResult", "compute", "RougeAccumulator", "score", "Options"):
        assert name in rouge_core.__all__


def test_one_version_source():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "rouge_core.version.__version__"}
    assert rouge_core.__version__ == __version__ and re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|\.dev\d+)?", __version__)
    assert f"v:{__version__}" in rouge_core.score("a", ["a"], ["rouge1"])["rouge1"].signature


def test_licence_declared_as_spdx_with_its_files():
    assert PROJECT["license"] == "Apache-2.0"
    assert PROJECT["license-files"] == ["LICENSE", "NOTICE"]
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"]  # SPDX license expressions
    licence = (ROOT / "LICENSE").read_text()
    assert licence.split()[:4] == ["Apache", "License", "Version", "2.0,"] and "END OF TERMS AND CONDITIONS" in licence


def test_notice_credits_every_bundled_data_file():
    notice = (ROOT / "NOTICE").read_text()
    data = ROOT / "rouge_core" / "data"
    for path in sorted(p for p in data.rglob("*") if p.is_file()):
        assert path.name in notice, f"NOTICE does not mention {path.relative_to(ROOT)}"
    assert "WordNet 2.0 Copyright 2003 by Princeton University.  All rights reserved." in notice
    assert "SMART" in notice and "Cornell University" in notice


def test_changelog_follows_keep_a_changelog():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "keepachangelog.com" in changelog and "semver.org" in changelog
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", changelog, re.M)
    assert headings[0] == ("Unreleased", "")
    assert (__version__, headings[1][1]) == headings[1] and headings[1][1]
    sections = set(re.findall(r"^### (\w+)$", changelog, re.M))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"} and "Added" in sections


def test_typed_marker_shipped():
    assert (ROOT / "rouge_core" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["rouge_core"]


def test_declared_dependencies():
    core = requirement_names(PROJECT["dependencies"])
    assert {"nltk", "snowballstemmer", "numpy"} <= set(core)  # NumPy: bootstrap, significance tests, aggregator
    extras = {name: requirement_names(reqs) for name, reqs in PROJECT["optional-dependencies"].items()}
    assert set(extras["frames"]) == {"pandas"}
    app = extras["app"]
    assert {"streamlit", "altair", "pandas", "platformdirs", "sqlalchemy"} <= set(app)
    # The README's install (requirements.txt) asks for what the app extra declares, minimums included.
    pinned = requirements_file("requirements.txt")
    for name in ("streamlit", "altair", "pandas", "platformdirs", "sqlalchemy", "nltk", "snowballstemmer", "numpy"):
        assert pinned[name] == (app.get(name) or core[name]), name
    assert extras["test"]["streamlit"] == app["streamlit"]
    assert extras["test"]["platformdirs"] == app["platformdirs"]
    assert extras["test"]["sqlalchemy"] == app["sqlalchemy"]
    # Team mode: logins (what streamlit[auth] brings) and PostgreSQL, in the team extra, tested in CI.
    team = extras["team"]
    assert {"rouge-lens", "authlib", "httpx", "psycopg"} <= set(team)
    assert "[app]" in next(r for r in PROJECT["optional-dependencies"]["team"] if r.startswith("rouge-lens"))
    tested = requirements_file("requirements-test.txt")
    for name in ("authlib", "httpx", "psycopg"):
        assert tested[name] == team[name] == extras["test"][name], name
    assert "oidc-provider-mock" in tested and "oidc-provider-mock" in extras["test"]


def test_a_table_without_pandas_names_the_frames_extra(monkeypatch):
    result = rouge_core.score("the cat", ["the cat sat"], ["rouge1"])
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    with pytest.raises(optional.MissingDependency) as caught:
        result.to_frame()
    message = str(caught.value)
    assert "Result.to_frame() needs pandas" in message and "pip install 'rouge-lens[frames]'" in message
    assert isinstance(caught.value, ImportError) and caught.value.name == "pandas"
    corpus = rouge_core.score_corpus(["a b"], [["a"]], ["rouge1"])
    with pytest.raises(ImportError, match=r"CorpusResult.to_frame\(\) needs pandas.*rouge-lens\[frames\]"):
        corpus.to_frame()


def test_no_extra_for_core_dependencies(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match=r"needs numpy.*a dependency of rouge-lens"):
        optional.require("numpy", "the bootstrap")


def test_built_wheel_carries_licence_typing_data_and_metadata(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("rouge_lens-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
    assert f"rouge_lens-{__version__}-" in wheel.name and metadata["Version"] == __version__
    assert metadata["License-Expression"] == "Apache-2.0"
    assert {n.rsplit("/", 1)[-1] for n in names if "/licenses/" in n} == {"LICENSE", "NOTICE"}
    for path in ("rouge_core/py.typed", "rouge_core/data/smart_common_words.txt",
                 "rouge_core/data/WordNet-2.0-Exceptions/verb.exc", "rouge_core/compat/rouge_score/scoring.py"):
        assert path in names, path
    requires = metadata.get_all("Requires-Dist")
    assert any(r.startswith("numpy") for r in requires) and any("extra == \"frames\"" in r for r in requires)
