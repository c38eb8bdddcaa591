"""Hypothesis settings of the fuzz tests: every fuzz test uses `FUZZ` so one number sets the
budget (tests/conftest.py chooses it: small in the normal suite, large under `pytest -m fuzz`)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

FUZZ_EXAMPLES = int(os.environ.get("ROUGE_LENS_FUZZ_EXAMPLES", "150"))

FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    derandomize=FUZZ_EXAMPLES <= 1000,  # the CI budget is reproducible; long runs explore
)

fuzz = pytest.mark.fuzz
