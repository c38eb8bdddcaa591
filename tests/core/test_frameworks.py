"""rouge_core.compute and RougeAccumulator: Hugging Face evaluate's ROUGE format and numbers,
checked against rouge-score driven the way evaluate's rouge metric drives it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, scoring

import rouge_core
from rouge_core.corpora.corpus import plain_mean

WORDS = ["the", "cat", "cats", "sat", "on", "mat", "a", "dog", "running", "ran", "Fox", "café"]


def evaluate_rouge(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
    """What evaluate.load("rouge").compute does (evaluate's metrics/rouge/rouge.py), on rouge-score."""
    rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    wrapped = None
    if tokenizer is not None:
        wrapped = type("Wrapped", (), {"tokenize": staticmethod(tokenizer)})()
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=wrapped)
    multi_ref = isinstance(references[0], list)
    scores = [scorer.score_multi(r, p) if multi_ref else scorer.score(r, p) for r, p in zip(references, predictions)]
    if not use_aggregator:
        return {k: [s[k].fmeasure for s in scores] for k in scores[0]}
    aggregator = scoring.BootstrapAggregator()
    for s in scores:
        aggregator.add_scores(s)
    return {k: v.mid.fmeasure for k, v in aggregator.aggregate().items()}


def sentence(rng, low=0, high=12):
    return " ".join(rng.choice(WORDS, rng.randint(low, high))) + rng.choice(["", ".", "\nthe dog ran"])


def corpus(n, seed, multi=False):
    rng = np.random.RandomState(seed)
    predictions = [sentence(rng) for _ in range(n)]
    if multi:
        references = [[sentence(rng) for _ in range(rng.randint(1, 4))] for _ in range(n)]
    else:
        references = [sentence(rng) for _ in range(n)]
    return predictions, references


def test_evaluate_docstring_example():
    got = rouge_core.compute(predictions=["hello there", "general kenobi"], references=["hello there", "general kenobi"])
    assert got == {"rouge1": 1.0, "rouge2": 1.0, "rougeL": 1.0, "rougeLsum": 1.0}
    assert all(type(v) is float for v in got.values())


@pytest.mark.parametrize("n, seed, multi, stem", [(1, 0, False, False), (30, 1, False, True), (25, 2, True, False),
                                                  (60, 7, True, True)])
def test_aggregated_equals_evaluate_after_numpy_seed(n, seed, multi, stem):
    predictions, references = corpus(n, seed, multi)
    np.random.seed(seed)
    want = evaluate_rouge(predictions, references, use_stemmer=stem)
    got = rouge_core.compute(predictions, references, use_stemmer=stem, seed=seed)
    assert got == want and list(got) == list(want)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 15), multi=st.booleans(),
       types=st.lists(st.sampled_from(["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]), min_size=1, unique=True))
def test_per_pair_scores_equal_evaluate(seed, n, multi, types):
    predictions, references = corpus(n, seed % 10_000, multi)
    want = evaluate_rouge(predictions, references, rouge_types=types, use_aggregator=False)
    got = rouge_core.compute(predictions, references, rouge_types=types, use_aggregator=False)
    assert got == want


def test_tokenizer_callable_or_object():
    predictions, references = corpus(20, 3)
    np.random.seed(0)
    want = evaluate_rouge(predictions, references, tokenizer=str.split)
    assert rouge_core.compute(predictions, references, tokenizer=str.split) == want

    class Words:
        def tokenize(self, text):
            return text.split()

    assert rouge_core.compute(predictions, references, tokenizer=Words()) == want
    with pytest.raises(TypeError, match="tokenizer must be a callable"):
        rouge_core.compute(predictions, references, tokenizer=42)


def test_deterministic_and_the_global_generator_untouched():
    predictions, references = corpus(40, 5)
    np.random.seed(1)
    state = np.random.get_state()[1].copy()
    first = rouge_core.compute(predictions, references)
    assert rouge_core.compute(predictions, references) == first
    assert (np.random.get_state()[1] == state).all()
    assert rouge_core.compute(predictions, references, seed=1) != first  # another seed, other resamples
    # the median of bootstrap means is near, not equal to, the plain mean
    plain = rouge_core.compute(predictions, references, use_aggregator=False)
    assert abs(first["rouge1"] - sum(plain["rouge1"]) / 40) < 0.03


def test_seed_none_draws_from_numpys_global_generator_like_evaluate():
    predictions, references = corpus(12, 9)
    np.random.seed(4)
    want = evaluate_rouge(predictions, references)
    np.random.seed(4)
    assert rouge_core.compute(predictions, references, seed=None) == want


def test_arrays_and_series_are_batches():
    predictions, references = corpus(6, 2, multi=True)
    want = rouge_core.compute(predictions, references, use_aggregator=False)
    arrays = np.array(predictions), [np.array(r) for r in references]
    assert rouge_core.compute(*arrays, use_aggregator=False) == want
    assert rouge_core.compute(iter(predictions), tuple(references), use_aggregator=False) == want
    with pytest.raises(TypeError, match="references must be a list"):
        rouge_core.compute(["a"], {"a": "b"})


def test_bytes_texts():
    got = rouge_core.compute([b"the cat sat"], [[b"the cat", "a cat sat"]], use_aggregator=False)
    assert got["rouge1"] == [0.8] and got["rouge2"] == [2 / 3]


def test_accumulator_batches_equal_one_call():
    predictions, references = corpus(50, 8, multi=True)
    rouge = rouge_core.RougeAccumulator(use_stemmer=True)
    for start in range(0, 50, 16):
        rouge.update(predictions[start:start + 16], references[start:start + 16])
    assert len(rouge) == 50
    assert rouge.compute() == rouge_core.compute(predictions, references, use_stemmer=True)
    rouge.reset()
    assert len(rouge) == 0
    rouge.add_batch(predictions=predictions[:5], references=references[:5])
    assert rouge.compute() == rouge_core.compute(predictions[:5], references[:5], use_stemmer=True)
    with_lists = rouge_core.RougeAccumulator(["rougeL"], use_aggregator=False)
    with_lists.update(["a b c"], ["a c"])
    with_lists.update(["x"], ["y"])
    assert with_lists.compute() == {"rougeL": [0.8, 0.0]}


def test_a_bad_batch_leaves_the_accumulator_unchanged():
    rouge = rouge_core.RougeAccumulator(["rouge1"], use_aggregator=False)
    rouge.update(["a b"], ["a"])
    with pytest.raises(TypeError, match=r"references\[1\] must be a str or a list of str, not NoneType"):
        rouge.update(["a", "b"], ["a", None])
    assert rouge.compute() == {"rouge1": [2 / 3]}


@pytest.mark.parametrize("predictions, references, error, message", [
    (["a", "b"], ["a"], ValueError, "same length: 2 predictions, 1 references"),
    ("a b", ["a b"], TypeError, "predictions must be a list"),
    (["a"], "a", TypeError, "references must be a list"),
    ([1], ["a"], TypeError, r"predictions\[0\] must be a str"),
    (["a"], [[]], ValueError, r"references\[0\] is an empty list"),
    (["a"], [["a", 2]], TypeError, r"references\[0\]\[1\] must be a str"),
    ([], [], ValueError, "no pairs"),
])
def test_bad_inputs_are_named(predictions, references, error, message):
    with pytest.raises(error, match=message):
        rouge_core.compute(predictions, references)


def test_bad_settings_fail_at_construction():
    with pytest.raises(ValueError, match="Invalid rouge type: rougeX"):
        rouge_core.RougeAccumulator(["rouge1", "rougeX"])
    with pytest.raises(TypeError, match="not the string 'rouge1'"):
        rouge_core.RougeAccumulator("rouge1")
    with pytest.raises(ValueError, match="n_samples must be positive"):
        rouge_core.RougeAccumulator(n_samples=0)
    with pytest.raises(ValueError, match="seed must be"):
        rouge_core.compute(["a"], ["a"], seed=-3)


@pytest.mark.parametrize("multi, stem", [(False, False), (True, True)])
def test_aggregate_mean_is_the_corpus_macro_mean(multi, stem):
    predictions, references = corpus(45, 13, multi)
    got = rouge_core.compute(predictions, references, use_stemmer=stem, aggregate="mean")
    refs = [r if isinstance(r, list) else [r] for r in references]
    options = rouge_core.profile("rouge-score", stemmer="porter" if stem else "none")
    corpus_result = rouge_core.score_corpus(predictions, refs, list(got), options)
    assert got == {t: s.fmeasure for t, s in corpus_result.macro().items()}
    per_pair = rouge_core.compute(predictions, references, use_stemmer=stem, use_aggregator=False)
    assert got == {t: plain_mean(values) for t, values in per_pair.items()}  # not sum(): 3.12's compensates
    assert got != rouge_core.compute(predictions, references, use_stemmer=stem)  # not the bootstrap median


def test_accumulator_mean_over_batches():
    predictions, references = corpus(33, 8, multi=True)
    rouge = rouge_core.RougeAccumulator(["rouge1", "rougeLsum"], aggregate="mean")
    rouge.update(predictions[:20], references[:20])
    rouge.update(predictions[20:], references[20:])
    assert rouge.compute() == rouge_core.compute(predictions, references, ["rouge1", "rougeLsum"], aggregate="mean")
    assert rouge_core.RougeAccumulator(aggregate="bootstrap").aggregate == "bootstrap"


def test_bad_aggregate_settings():
    with pytest.raises(ValueError, match="aggregate must be one of 'bootstrap', 'mean', not 'median'"):
        rouge_core.compute(["a"], ["a"], aggregate="median")
    with pytest.raises(ValueError, match="with use_aggregator=False each rouge type maps to its per-pair F-measures"):
        rouge_core.RougeAccumulator(use_aggregator=False, aggregate="mean")


def test_numpy_integer_seed():
    predictions, references = corpus(20, 4)
    assert rouge_core.compute(predictions, references, seed=np.uint32(7)) == rouge_core.compute(
        predictions, references, seed=7)
