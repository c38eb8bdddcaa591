"""The command line's language flags (issue 17): --tokenizer with a built-in name or the
user's MODULE:FUNCTION, --language and --strip-diacritics; their numbers are rouge_core's,
their mistakes one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import rouge_core
from rouge_core.text import languages
from rouge_core.cli import main
from tests.core.test_cli import _env, run
from tests.extras import needs_pyonmttok

THAI_CANDIDATE, THAI_REFERENCE = languages.EXAMPLES["thai"]
ARABIC_CANDIDATE, ARABIC_REFERENCE = "كَتَبَ الوَلَدُ الدَّرْسَ", "كتب الولد الدرس"


@pytest.fixture
def pair(tmp_path):
    """Write one candidate/reference pair; returns the argv that reads it."""
    def write(candidate: str, reference: str) -> list[str]:
        (tmp_path / "cands.txt").write_text(candidate + "\n", encoding="utf-8")
        (tmp_path / "refs.txt").write_text(reference + "\n", encoding="utf-8")
        return ["-c", str(tmp_path / "cands.txt"), "-r", str(tmp_path / "refs.txt"), "-f", "json", "-q"]
    return write


def scores_of(out: str) -> dict:
    doc = json.loads(out)
    return {method: (s["precision"], s["recall"], s["fmeasure"]) for method, s in doc["pairs"][0]["scores"].items()}


def expected(candidate: str, reference: str, methods, options) -> dict:
    result = rouge_core.score(candidate, [reference], methods, options)
    return {m.name: (m.precision, m.recall, m.fmeasure) for m in result}


def assert_one_line_error(code: int, out: str, err: str, message: str) -> None:
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("rouge-lens: error: ") and message in err, err


@needs_pyonmttok
def test_language_under_the_multilingual_profile_gives_xlsums_numbers(pair, capsys):
    argv = pair(THAI_CANDIDATE, THAI_REFERENCE)
    code, out, err = run([*argv, "-m", "rouge1", "rougeL", "--profile", "multilingual", "--language", "thai"], capsys)
    assert (code, err) == (0, "")
    got = scores_of(out)
    assert got == expected(THAI_CANDIDATE, THAI_REFERENCE, ["rouge1", "rougeL"],
                           rouge_core.profile("multilingual", language="thai"))
    assert got["rouge1"][:2] == (3 / 6, 1.0)  # ผม ชอบ หมา of ผม ชอบ แมว ␠ และ หมา
    assert json.loads(out)["signatures"]["rouge1"].startswith("rouge1|profile:multilingual|tok:multilingual|")
    assert "|lang:thai|" in json.loads(out)["signatures"]["rouge1"]
    # without the language XL-Sum has no Thai segmenter: each phrase is one token
    code, out, _ = run([*argv, "-m", "rouge1", "--profile", "multilingual"], capsys)
    assert scores_of(out)["rouge1"] == (0.0, 0.0, 0.0)


def test_language_aliases_and_spelling_are_accepted(pair, capsys):
    argv = pair("我爱北京天安门。", "我去北京。")
    code, out, err = run([*argv, "-m", "rouge1", "--tokenizer", "unicode", "--language", "Chinese_Simplified"], capsys)
    assert (code, err) == (0, "")
    assert "|lang:chinese|" in json.loads(out)["signatures"]["rouge1"]
    assert scores_of(out)["rouge1"][:2] == pytest.approx((2 / 4, 2 / 3))  # 我 北京 of 我 爱 北京 天安门


def test_strip_diacritics_matches_vowelled_and_plain_arabic(pair, capsys):
    argv = pair(ARABIC_CANDIDATE, ARABIC_REFERENCE)
    code, out, _ = run([*argv, "-m", "rouge1", "--tokenizer", "unicode"], capsys)
    assert scores_of(out)["rouge1"] == (0.0, 0.0, 0.0)
    code, out, err = run([*argv, "-m", "rouge1", "--tokenizer", "unicode", "--strip-diacritics"], capsys)
    assert (code, err) == (0, "")
    assert scores_of(out)["rouge1"] == (1.0, 1.0, 1.0)
    assert "|diacritics:strip|" in json.loads(out)["signatures"]["rouge1"]


def test_a_built_in_tokenizer_by_name(pair, capsys):
    argv = pair(THAI_CANDIDATE, THAI_REFERENCE)
    code, out, _ = run([*argv, "-m", "rouge1", "--tokenizer", "cjk"], capsys)
    assert code == 0
    assert scores_of(out) == expected(THAI_CANDIDATE, THAI_REFERENCE, ["rouge1"],
                                      rouge_core.profile("rouge-score", tokenizer="cjk"))


def test_the_users_tokenizer_from_module_and_function(pair, tmp_path, capsys, monkeypatch):
    (tmp_path / "mytok_cli.py").write_text(
        "def characters(text):\n    return [c for c in text if not c.isspace()]\n\n"
        "class Splitter:\n    @staticmethod\n    def split(text):\n        return text.split()\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # found in the current directory, as `python -m` finds it
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    argv = pair("ab cd", "abd")
    code, out, err = run([*argv, "-m", "rouge1", "--tokenizer", "mytok_cli:characters"], capsys)
    assert (code, err) == (0, "")
    assert scores_of(out)["rouge1"] == (3 / 4, 3 / 3, pytest.approx(6 / 7))  # a b d of a b c d
    assert "|tok:mytok_cli.characters|" in json.loads(out)["signatures"]["rouge1"]
    code, out, _ = run([*argv, "-m", "rouge1", "--tokenizer", "mytok_cli:Splitter.split"], capsys)
    assert scores_of(out)["rouge1"] == (0.0, 0.0, 0.0)  # "ab", "cd" against "abd"
    assert "|tok:mytok_cli.Splitter.split|" in json.loads(out)["signatures"]["rouge1"]


@pytest.mark.parametrize("flags, message", [
    (["--tokenizer", "no_such_module_xyz:split"],
     "--tokenizer: cannot import the tokenizer module 'no_such_module_xyz': No module named 'no_such_module_xyz'"),
    (["--tokenizer", "badtok_cli:split"], "--tokenizer: the tokenizer module 'badtok_cli' failed to import: "
                                          "RuntimeError: not today"),
    (["--tokenizer", "json:no_such_function"], "--tokenizer: the module 'json' has no 'no_such_function'"),
    (["--tokenizer", "json:__doc__"], "--tokenizer: json:__doc__ is not callable"),
    (["--tokenizer", "spaces"], "--tokenizer: a tokenizer is one of rouge155, rouge-score, whitespace, unicode, cjk, "
                                "multilingual, xlsum-basic or MODULE:FUNCTION"),
    (["--language", "klingon", "--profile", "multilingual"],
     "--language: unknown language 'klingon'; choose one of amharic, arabic,"),
    (["--language", "thai"], "--language thai changes nothing with the rouge-score tokenizer; use it with --tokenizer "
                             "unicode / cjk / multilingual (or --profile multilingual)"),
    (["--language", "thai", "--tokenizer", "json:dumps"], "--language thai changes nothing with the json.dumps tokenizer"),
    (["--strip-diacritics", "--profile", "multilingual"],
     "--strip-diacritics changes nothing with the multilingual tokenizer; use it with --tokenizer unicode / cjk"),
    (["--stemmer", "xlsum-bengali", "--profile", "multilingual"], "XL-Sum's Bengali stemmer cannot run"),
])
def test_language_flag_mistakes_are_one_line_errors(pair, tmp_path, capsys, monkeypatch, flags, message):
    (tmp_path / "badtok_cli.py").write_text("raise RuntimeError('not today')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the current directory the CLI adds goes with the test
    code, out, err = run([*pair(THAI_CANDIDATE, THAI_REFERENCE), *flags], capsys)
    assert_one_line_error(code, out, err, message)
    assert "choose one of" not in message or "thai" in err and "(or bangla, turkce" in err


def test_subprocess_user_tokenizer_from_the_current_directory(tmp_path):
    (tmp_path / "localtok.py").write_text("def split(text):\n    return text.split()\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("Der Hund\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("der Hund bellt\n", encoding="utf-8")
    command = [sys.executable, "-c", "import sys; from rouge_core.cli import main; sys.exit(main())",
               "-c", "c.txt", "-r", "r.txt", "-m", "rouge1", "-f", "json", "--tokenizer", "localtok:split"]
    proc = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["mean"]["rouge1"] == {"precision": 1.0, "recall": 2 / 3, "fmeasure": 0.8}
