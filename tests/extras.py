"""Markers for tests that need an optional extra: they run where it is installed (the README's
requirements.txt installs it; CI has it) and are skipped where it is not (tests/minversions
installs only the app extra's minimums)."""

from __future__ import annotations

import importlib.util

import pytest

# The modules of the [multilingual] extra that rouge_core.segment and rouge_core.multilingual import.
MULTILINGUAL_MODULES = ("pythainlp", "jieba", "fugashi", "unidic_lite", "icu4py", "pyonmttok", "TurkishStemmer")
_missing = [m for m in MULTILINGUAL_MODULES if importlib.util.find_spec(m) is None]

needs_multilingual = pytest.mark.skipif(bool(_missing), reason=f"the [multilingual] extra is not installed "
                                                                f"(missing: {', '.join(_missing)})")

# The modules of the [team] extra: Streamlit's login (Authlib, httpx) and PostgreSQL (psycopg).
TEAM_MODULES = ("authlib", "httpx", "psycopg")
_team_missing = [m for m in TEAM_MODULES if importlib.util.find_spec(m) is None]

needs_team = pytest.mark.skipif(bool(_team_missing), reason=f"the [team] extra is not installed "
                                                            f"(missing: {', '.join(_team_missing)})")
