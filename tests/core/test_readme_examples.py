"""README.md's Python examples run and give the values they show (tests/packaging/readme_examples.py;
.ci/python-matrix runs the same against each built wheel, outside the checkout)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from rouge_core.kernels import native

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "tests" / "packaging" / "readme_examples.py")
readme_examples = sys.modules.setdefault("readme_examples", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(readme_examples)


@pytest.mark.skipif(not native.active(), reason="the README shows the compiled kernels in use (rouge_core.accelerated)")
def test_the_readmes_examples_give_what_it_shows():
    # Dask's example starts a cluster of worker processes: tests/core/test_dask.py runs that code;
    # the Spark example needs PySpark and Java (run by hand, see the README)
    outcome = readme_examples.run(ROOT / "README.md", skip_modules={"dask", "pyspark"})
    assert outcome.failures == []
    assert outcome.run >= 10 and outcome.checked >= 12
    assert [reason.split(":")[1].strip() for reason in outcome.skipped] == ["uses dask (--skip-module)",
                                                                           "uses pyspark (--skip-module)"]


def test_a_wrong_value_in_the_readme_is_caught(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("```python\nimport rouge_core\n\nrouge_core.score('a b', ['a'], ['rouge1'])['rouge1'].recall"
                      "   # 0.5 (as shown)\n(0.66666, 2)  # 0.6667, 2\n```\n", encoding="utf-8")
    outcome = readme_examples.run(readme)
    assert outcome.checked == 2 and len(outcome.failures) == 1 and "the README shows 0.5, the code gives 1.0" in \
        outcome.failures[0]
    # a number may be written as a fraction (exactly that value); a fraction's first digits are no literal
    readme.write_text("```python\n2 / 3, 1   # 2/3, 1 (a fraction)\n0.5  # 5/9 is not 5\n```\n", encoding="utf-8")
    outcome = readme_examples.run(readme)
    assert (outcome.checked, outcome.failures) == (2, ["line 3: the README shows 5/9, the code gives 0.5"])
