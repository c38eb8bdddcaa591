"""rouge_core.compute against Hugging Face evaluate's own ROUGE metric script, run locally.

tests/data/evaluate_rouge/rouge.py is evaluate's metrics/rouge/rouge.py (Apache-2.0, its LICENSE
beside it), loaded by path with `evaluate.load` and evaluate's offline switches on: nothing comes
from the Hub. evaluate reseeds NumPy inside every compute() with the seed the metric took at load
(`evaluate.load(..., seed=s)`, else one read from NumPy's generator then: `metric.seed`), so
`rouge_core.compute(..., seed=s)` gives its numbers exactly."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

import rouge_core

SCRIPT = Path(__file__).resolve().parents[1] / "data" / "evaluate_rouge" / "rouge.py"
WORDS = ["the", "cat", "cats", "sat", "sitting", "on", "mat", "a", "dog", "running", "ran", "Fox", "café", "U.S."]


@pytest.fixture(scope="module")
def evaluate(tmp_path_factory):
    cache = tmp_path_factory.mktemp("hf")
    saved = {k: os.environ.get(k) for k in ("HF_HOME", "HF_EVALUATE_OFFLINE", "HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")}
    os.environ.update(HF_HOME=str(cache), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    module = pytest.importorskip("evaluate", reason="evaluate is a test dependency (requirements-test-library.txt)")
    yield module
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def load(evaluate, **kwargs):
    return evaluate.load(str(SCRIPT), **kwargs)


def corpus(seed: int, n: int, multi: bool):
    rng = random.Random(seed)

    def text():
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14))) + rng.choice(["", ".", "\nthe dog ran"])

    predictions = [text() for _ in range(n)]
    references = [[text() for _ in range(rng.randint(1, 3))] if multi else text() for _ in range(n)]
    return predictions, references


CASES = [(seed, n, multi, stem, types) for seed, (n, multi, stem, types) in enumerate([
    (1, False, False, None), (40, False, True, None), (35, True, False, None), (60, True, True, None),
    (25, False, False, ["rouge1", "rouge3", "rougeLsum"]), (30, True, True, ["rougeL", "rouge2"]),
])]


@pytest.mark.parametrize("seed, n, multi, stem, types", CASES)
def test_same_numbers_as_evaluates_rouge_script_loaded_with_a_seed(evaluate, seed, n, multi, stem, types):
    predictions, references = corpus(seed, n, multi)
    metric = load(evaluate, seed=seed)
    assert metric.seed == seed
    kwargs = dict(rouge_types=types, use_stemmer=stem)
    want = metric.compute(predictions=predictions, references=references, **kwargs)
    got = rouge_core.compute(predictions, references, seed=seed, **kwargs)
    assert got == want and list(got) == list(want)  # aggregated: the bootstrap median F per type, to the bit
    # evaluate reseeds at every compute(): the same call again gives the same numbers
    assert metric.compute(predictions=predictions, references=references, **kwargs) == want
    per_pair = metric.compute(predictions=predictions, references=references, use_aggregator=False, **kwargs)
    assert rouge_core.compute(predictions, references, use_aggregator=False, **kwargs) == per_pair


def test_a_metric_loaded_without_seed_uses_the_seed_it_took_at_load(evaluate):
    predictions, references = corpus(11, 30, False)
    np.random.seed(12345)
    np.random.random_sample(3)  # NumPy's generator somewhere in its stream, as in a training script
    metric = load(evaluate)
    want = metric.compute(predictions=predictions, references=references)
    assert rouge_core.compute(predictions, references, seed=metric.seed) == want
    # numpy.random.seed(s) after loading changes nothing: evaluate reseeds with its own
    np.random.seed(metric.seed + 1)
    assert metric.compute(predictions=predictions, references=references) == want
    assert rouge_core.compute(predictions, references, seed=metric.seed + 1) != want


def test_mixed_reference_batches_read_per_pair_where_evaluate_reads_the_first(evaluate):
    metric = load(evaluate, seed=0)
    predictions = ["a b c", "a b c"]
    # a str first: evaluate scores a later list as the text it prints as ("['a', 'b c']": words a, b, c)
    references = ["a b", ["a", "b c"]]
    theirs = metric.compute(predictions=predictions, references=references, use_aggregator=False)
    ours = rouge_core.compute(predictions, references, use_aggregator=False)
    assert theirs["rouge1"] == [0.8, 1.0]
    assert ours["rouge1"] == [0.8, 0.8]  # "b c" is the best of the two references: P 2/3, R 1
    assert rouge_core.compute(predictions, ["a b", str(["a", "b c"])], use_aggregator=False) == theirs
    # a list first: evaluate scores a later str as a list of one-character references
    references = [["a b"], "a c"]
    theirs = metric.compute(predictions=predictions, references=references, use_aggregator=False)
    ours = rouge_core.compute(predictions, references, use_aggregator=False)
    assert theirs["rouge1"] == [0.8, 0.5] and ours["rouge1"] == [0.8, 0.8]
    assert rouge_core.compute(predictions, [["a b"], list("a c")], use_aggregator=False) == theirs
