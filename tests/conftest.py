"""Session-wide test settings.

Fuzz tests (tests marked ``fuzz``) run with a small fixed budget in the normal suite and with
a large one when selected on their own: ``pytest -m fuzz`` (``ROUGE_LENS_FUZZ_EXAMPLES`` sets
the examples per test either way). See tests/fuzzing.py.
"""

from __future__ import annotations

import os

FUZZ_EXAMPLES_VAR = "ROUGE_LENS_FUZZ_EXAMPLES"
CI_FUZZ_EXAMPLES = 150
LONG_FUZZ_EXAMPLES = 5000


def pytest_configure(config):
    config.addinivalue_line("markers", "fuzz: property-based tests over the front doors (long run: pytest -m fuzz)")
    if FUZZ_EXAMPLES_VAR not in os.environ:
        long_run = "fuzz" in (config.getoption("markexpr", default="") or "") and "not fuzz" not in config.getoption("markexpr")
        os.environ[FUZZ_EXAMPLES_VAR] = str(LONG_FUZZ_EXAMPLES if long_run else CI_FUZZ_EXAMPLES)
