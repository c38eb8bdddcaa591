"""Markers for tests that need an optional extra: they run where it is installed (the README's
requirements.txt installs it; CI has it) and are skipped where it is not (tests/minversions
installs only the app extra's minimums)."""

from __future__ import annotations

import importlib.util

import pytest

# The modules of the [multilingual] extra that rouge_core.text.segment and rouge_core.text.multilingual import.
MULTILINGUAL_MODULES = ("pythainlp", "jieba", "fugashi", "unidic_lite", "icu4py", "pyonmttok", "TurkishStemmer")
_missing = [m for m in MULTILINGUAL_MODULES if importlib.util.find_spec(m) is None]

needs_multilingual = pytest.mark.skipif(bool(_missing), reason=f"the [multilingual] extra is not installed "
                                                                f"(missing: {', '.join(_missing)})")

# The modules of the [team] extra: Streamlit's login (Authlib, httpx) and PostgreSQL (psycopg).
TEAM_MODULES = ("authlib", "httpx", "psycopg")
_team_missing = [m for m in TEAM_MODULES if importlib.util.find_spec(m) is None]

needs_team = pytest.mark.skipif(bool(_team_missing), reason=f"the [team] extra is not installed "
                                                            f"(missing: {', '.join(_team_missing)})")


def needs_package(module: str, what: str) -> pytest.MarkDecorator:
    """Skip where the [multilingual] extra's `module` is not installed, saying why (on some Pythons
    the extra leaves it out: rouge_core.text.segment.PYTHON_RANGES)."""
    from rouge_core.text.segment import not_published_here

    missing = importlib.util.find_spec(module) is None
    reason = not_published_here(module) or f"{module} is not installed (the [multilingual] extra)"
    return pytest.mark.skipif(missing, reason=f"{what} needs {module}: {reason}")


# XL-Sum's tokenizer (OpenNMT): the multilingual profile and the multilingual tokenizer.
needs_pyonmttok = needs_package("pyonmttok", "the multilingual profile (XL-Sum's OpenNMT tokenizer)")
# ICU's dictionaries: Lao, Khmer and Myanmar words.
needs_icu4py = needs_package("icu4py", "Lao, Khmer and Myanmar word segmentation")


def profiles_here() -> tuple[str, ...]:
    """The profiles that can tokenize on this machine (the multilingual one needs pyonmttok)."""
    import rouge_core
    from rouge_core.scorer.scoring import missing_extra

    return tuple(p for p in rouge_core.PROFILES if missing_extra(rouge_core.profile(p)) is None)
