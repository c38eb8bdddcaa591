"""Which path computes (rouge_core.kernels.native): ROUGE_LENS_PURE forces the pure one, the flag and
the description say so, and the numbers do not change with it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import rouge_core
from rouge_core.kernels import native

TEXTS = ("The cat sat on the mat.\nIt was happy.", ["The cat is on the mat.\nThe cat was happy.", "A cat."])
METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]
PROGRAM = """
import json, sys, rouge_core
from rouge_core import native
cand, refs = json.loads(sys.argv[1])
result = rouge_core.score(cand, refs, json.loads(sys.argv[2]), "rouge-1.5.5", evidence=False)
print(json.dumps([rouge_core.accelerated, native.path(), native.describe(),
                  {m.name: [repr(m.precision), repr(m.recall), repr(m.fmeasure)] for m in result}]))
"""


def run(pure: bool) -> list:
    env = dict(os.environ)
    env.pop(native.PURE_VARIABLE, None)
    if pure:
        env[native.PURE_VARIABLE] = "1"
    out = subprocess.run([sys.executable, "-c", PROGRAM, json.dumps(TEXTS), json.dumps(METHODS)], env=env,
                         capture_output=True, text=True, check=True, cwd=os.getcwd())
    return json.loads(out.stdout)


def test_the_pure_variable_forces_the_pure_path_with_the_same_numbers():
    accelerated, path, why, scores = run(pure=True)
    assert (accelerated, path) == (False, "pure") and "ROUGE_LENS_PURE is set" in why
    default = run(pure=False)  # the compiled kernels where they are built
    assert default[0] is (default[1] == "native") and default[1] in ("native", "pure")
    assert scores == default[3]


def test_the_flag_follows_the_path_in_this_process():
    assert rouge_core.accelerated is native.active()
    with native.pure():
        assert rouge_core.accelerated is False and native.path() == "pure"
        assert native.tokens_of(rouge_core.tokenize("a b")) is None
    assert rouge_core.accelerated is native.active()
