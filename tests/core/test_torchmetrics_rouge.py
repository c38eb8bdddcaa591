"""rouge_core.frameworks.torchmetrics_rouge / TorchmetricsRouge against torchmetrics' ROUGE.

torchmetrics keeps each value as a float32 tensor and averages in float32; rouge_core computes the
same formulas in float64. So: a value torchmetrics does not average (a pair's score against the
reference `accumulate="best"` keeps) rounded to float32 is torchmetrics' value exactly; an average
(over the pairs, or over a pair's references with `"avg"`) differs from torchmetrics' by no more
than float32 arithmetic can make it differ: its inputs rounded to float32, the sum's roundings,
the division's (`float32_mean_bound`).

Two sources of expected values: torchmetrics' own test cases with what torchmetrics 1.9.0 gives
on them (tests/data/torchmetrics_rouge, recorded by its record.py), which run everywhere; and
torchmetrics itself on those cases and on generated corpora, where it is installed
(requirements-torch.txt; CI installs it)."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from rouge_core.frameworks import TorchmetricsRouge, punkt_sentences, torchmetrics_rouge

DATA = Path(__file__).resolve().parents[1] / "data" / "torchmetrics_rouge"
sys.path.insert(0, str(DATA))
from cases import cases, normalizer, tokenizer  # noqa: E402

EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
FLOAT32_UNIT = 2.0 ** -24  # float32's unit roundoff
MAX_REFERENCES = 4  # the most references a pair has in these cases


def float32_mean_bound(values: list[float]) -> float:
    """How far a float32 mean of `values` (each rounded to float32 first) can be from their exact
    mean: n + 2 roundings of at most one unit roundoff of the magnitudes involved (first order)."""
    return (len(values) + 2) * FLOAT32_UNIT * max(abs(v) for v in values) + 1e-45


def exact_in_float32(ours: float, theirs: float) -> bool:
    return np.float32(ours) == np.float32(theirs)


@pytest.fixture(scope="module", autouse=True)
def punkt(tmp_path_factory):
    """NLTK's Punkt English model, as torchmetrics loads it (tests/punkt_model.py: no download)."""
    import nltk

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from punkt_model import write_punkt_tab

    root = str(write_punkt_tab(tmp_path_factory.mktemp("nltk_data")))
    nltk.data.path.insert(0, root)
    yield
    nltk.data.path.remove(root)


def ours(case: dict) -> TorchmetricsRouge:
    custom = {"normalizer": normalizer, "tokenizer": tokenizer} if case.get("custom") else {}
    metric = TorchmetricsRouge(use_stemmer=case["use_stemmer"], accumulate=case["accumulate"],
                               rouge_keys=case["rouge_keys"], **custom)
    for preds, target in case["batches"]:
        metric.update(preds, target)
    return metric


def compare(metric: TorchmetricsRouge, accumulate: str, compute: dict, per_pair: dict) -> tuple[int, int]:
    """Assert rouge_core's values against torchmetrics'; (values bit-equal in float32, values compared)."""
    got, got_pairs = metric.compute(), metric.per_pair()
    assert list(got) == list(compute)  # the same keys, in torchmetrics' order
    equal = total = 0
    for name, theirs in per_pair.items():
        for i, value in enumerate(theirs):
            total += 1
            if accumulate == "best":
                assert exact_in_float32(got_pairs[name][i], value), (name, i, got_pairs[name][i], value)
            else:  # torchmetrics' float32 mean over the pair's references (at most MAX_REFERENCES here)
                assert abs(got_pairs[name][i] - value) <= float32_mean_bound([value] * MAX_REFERENCES), (name, i)
            equal += exact_in_float32(got_pairs[name][i], value)
    for name, theirs in compute.items():
        total += 1
        assert abs(got[name] - theirs) <= float32_mean_bound(got_pairs[name] + [theirs]), (name, got[name], theirs)
        assert got[name] == math.fsum(got_pairs[name]) / len(got_pairs[name])
        equal += exact_in_float32(got[name], theirs)
    return equal, total


@pytest.mark.parametrize("case", cases(), ids=lambda case: case["name"])
def test_torchmetrics_own_cases_with_its_values(case):
    want = EXPECTED["cases"][case["name"]]
    equal, total = compare(ours(case), case["accumulate"], want["compute"], want["per_pair"])
    assert total == sum(len(v) for v in want["per_pair"].values()) + len(want["compute"])


def test_the_values_torchmetrics_tests_state():
    # test_rouge_score_accumulate_best (torchmetrics issue 2148): the exact reference wins, in either order
    for refs in (["a b c", "c b a"], ["c b a", "a b c"]):
        assert set(torchmetrics_rouge("a b c", refs, accumulate="best").values()) == {1.0}
    # the functional docstring's example
    assert torchmetrics_rouge("My name is John", "Is your name John") == {
        "rouge1_fmeasure": 0.75, "rouge1_precision": 0.75, "rouge1_recall": 0.75,
        "rouge2_fmeasure": 0.0, "rouge2_precision": 0.0, "rouge2_recall": 0.0,
        "rougeL_fmeasure": 0.5, "rougeL_precision": 0.5, "rougeL_recall": 0.5,
        "rougeLsum_fmeasure": 0.5, "rougeLsum_precision": 0.5, "rougeLsum_recall": 0.5}


def test_accumulator_batches_equal_one_call():
    case = next(c for c in cases() if c["name"] == "multiple_references_avg_stemTrue")
    metric = ours(case)
    preds = [p for batch, _ in case["batches"] for p in batch]
    target = [t for _, batch in case["batches"] for t in batch]
    assert metric.compute() == torchmetrics_rouge(preds, target, accumulate="avg", use_stemmer=True)
    assert len(metric) == 4
    metric.reset()
    assert len(metric) == 0
    with pytest.raises(ValueError, match="no pairs"):
        metric.compute()


def test_shapes_as_torchmetrics_reads_them():
    one_pred_many_refs = torchmetrics_rouge("the cat sat", ["a cat sat", "the cat"], rouge_keys="rouge1")
    assert one_pred_many_refs == torchmetrics_rouge(["the cat sat"], [["a cat sat", "the cat"]], rouge_keys="rouge1")
    one_ref_each = torchmetrics_rouge(["the cat sat", "a dog"], ["a cat sat", "the dog"], rouge_keys="rouge1")
    assert one_ref_each == torchmetrics_rouge(["the cat sat", "a dog"], [["a cat sat"], ["the dog"]], rouge_keys="rouge1")
    assert one_ref_each["rouge1_fmeasure"] == (2 / 3 + 1 / 2) / 2


def test_lsum_uses_punkt_sentences_not_lines():
    text = "Mr. Smith went to Washington. He arrived at 5 p.m. on Jan. 3.\nThen he left!"
    assert punkt_sentences(text) == ["Mr. Smith went to Washington.", "He arrived at 5 p.m. on Jan. 3.",
                                     "Then he left!"]
    pred, ref = "the cat sat. the dog ran", "the dog ran. the cat sat"
    by_punkt = torchmetrics_rouge(pred, ref, rouge_keys="rougeLsum")["rougeLsum_fmeasure"]
    by_line = torchmetrics_rouge(pred, ref, rouge_keys="rougeLsum", sentence_splitter="newline")["rougeLsum_fmeasure"]
    assert by_punkt == 1.0 and by_line == 0.5  # one line: the LCS of the whole texts


def test_best_compares_f_measures_in_float32_as_torchmetrics():
    # two references whose F-measures differ only below float32's precision: torch.argmax over the
    # float32 values sees a tie and keeps the first, whatever float64 says
    pred = " ".join(f"w{i}" for i in range(20000))
    lower = " ".join(f"w{i}" for i in range(19998)) + " z"  # rouge1 F = 2*19998/39999
    higher = " ".join(f"w{i}" for i in range(19999)) + " x y"  # rouge1 F = 2*19999/40001, 4e-9 higher
    scores = [torchmetrics_rouge(pred, ref, rouge_keys="rouge1")["rouge1_fmeasure"] for ref in (lower, higher)]
    assert scores[0] < scores[1] and np.float32(scores[0]) == np.float32(scores[1])
    both = torchmetrics_rouge(pred, [lower, higher], rouge_keys="rouge1")
    assert both["rouge1_fmeasure"] == scores[0] and both["rouge1_recall"] == 19998 / 19999
    assert torchmetrics_rouge(pred, [higher, lower], rouge_keys="rouge1")["rouge1_recall"] == 19999 / 20001


@pytest.mark.parametrize("kwargs, error, message", [
    ({"rouge_keys": ("rouge1", "rouge")}, ValueError, "Got unknown rouge key rouge. Expected to be one of"),
    ({"accumulate": "max"}, ValueError, "Got unknown accumulate value max"),
    ({"sentence_splitter": "lines"}, ValueError, "sentence_splitter must be one of 'punkt', 'newline'"),
    ({"normalizer": "lower"}, TypeError, "normalizer must be a function"),
])
def test_bad_settings(kwargs, error, message):
    with pytest.raises(error, match=message):
        TorchmetricsRouge(**kwargs)


@pytest.mark.parametrize("preds, target, error, message", [
    (["a", "b"], [["a"]], ValueError, "same length: 2 predictions, 1 targets"),
    (["a"], [[]], ValueError, r"target\[0\] is an empty list"),
    ([1], [["a"]], TypeError, r"preds\[0\] must be a str"),
    (["a"], [["a", None]], TypeError, r"target\[0\]\[1\] must be a str"),
])
def test_bad_inputs_are_named_where_torchmetrics_zips_or_fails(preds, target, error, message):
    metric = TorchmetricsRouge(rouge_keys="rouge1")
    with pytest.raises(error, match=message):
        metric.update(preds, target)
    assert len(metric) == 0


def test_missing_punkt_model_is_named(monkeypatch):
    import nltk

    monkeypatch.setattr(nltk.data, "path", ["/nonexistent"])
    with pytest.raises(LookupError, match=r"python -m nltk.downloader punkt_tab .*sentence_splitter=\"newline\""):
        TorchmetricsRouge()
    assert TorchmetricsRouge(rouge_keys=("rouge1", "rougeL")).rouge_keys == ("rouge1", "rougeL")  # no rougeLsum


# --- torchmetrics itself --------------------------------------------------------------------------

WORDS = ["the", "cat", "cats", "sat", "sitting", "on", "mat", "a", "dog", "running", "ran", "Fox", "café", "U.S.", "Mr.",
         "3.5", "it's", "p.m."]


def generated_corpus(seed: int, n: int = 40) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)

    def text() -> str:
        sentences = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12))) for _ in range(rng.randint(1, 3))]
        return rng.choice([". ", ".\n", "! ", " "]).join(sentences) + rng.choice(["", ".", " ."])

    preds = [text() for _ in range(n)]
    target = [[text() for _ in range(rng.randint(1, 4))] for _ in range(n)]
    return preds, target


@pytest.fixture(scope="module")
def torchmetrics_rouge_score():
    pytest.importorskip("torchmetrics", reason="torchmetrics is installed by requirements-torch.txt where torch's "
                                               "CPU build is on the machine; its recorded values still run")
    from torchmetrics.text.rouge import ROUGEScore

    return ROUGEScore


@pytest.mark.parametrize("case", cases(), ids=lambda case: case["name"])
def test_torchmetrics_now_gives_the_recorded_values(torchmetrics_rouge_score, case):
    custom = {"normalizer": normalizer, "tokenizer": tokenizer} if case.get("custom") else {}
    metric = torchmetrics_rouge_score(use_stemmer=case["use_stemmer"], accumulate=case["accumulate"],
                                      rouge_keys=tuple(case["rouge_keys"]), **custom)
    for preds, target in case["batches"]:
        metric.update(preds, target)
    recorded = EXPECTED["cases"][case["name"]]["compute"]
    live = {k: float(v) for k, v in metric.compute().items()}
    assert list(live) == list(recorded)
    for name, value in live.items():  # the same, but for the order of torch's float32 additions on this CPU
        assert abs(value - recorded[name]) <= float32_mean_bound([value, recorded[name]]), name


@pytest.mark.parametrize("seed, accumulate, use_stemmer", [(0, "best", False), (1, "best", True), (2, "avg", False),
                                                           (3, "avg", True)])
def test_same_numbers_as_torchmetrics_on_generated_corpora(torchmetrics_rouge_score, seed, accumulate, use_stemmer):
    preds, target = generated_corpus(seed)
    theirs = torchmetrics_rouge_score(use_stemmer=use_stemmer, accumulate=accumulate)
    mine = TorchmetricsRouge(use_stemmer=use_stemmer, accumulate=accumulate)
    for start in range(0, len(preds), 16):
        theirs.update(preds[start:start + 16], target[start:start + 16])
        mine.update(preds[start:start + 16], target[start:start + 16])
    compute = {k: float(v) for k, v in theirs.compute().items()}
    per_pair = {name: [float(v) for v in getattr(theirs, name)] for name in compute}
    equal, total = compare(mine, accumulate, compute, per_pair)
    assert total == 12 * (len(preds) + 1)
    if accumulate == "best":
        assert equal >= total - 12  # every per-pair value bit-equal; the means within float32's rounding


def test_custom_normalizer_and_tokenizer_as_torchmetrics(torchmetrics_rouge_score):
    preds, target = generated_corpus(7, n=20)

    def keep_case(text: str) -> str:  # no lower-casing: "Fox" and "fox" differ
        return text.replace(".", " ")

    def words(text: str) -> list[str]:
        return [w for w in text.split(" ") if w] + ["<end>"]

    theirs = torchmetrics_rouge_score(normalizer=keep_case, tokenizer=words, use_stemmer=True)
    theirs.update(preds, target)
    compute = {k: float(v) for k, v in theirs.compute().items()}
    per_pair = {name: [float(v) for v in getattr(theirs, name)] for name in compute}
    mine = TorchmetricsRouge(normalizer=keep_case, tokenizer=words, use_stemmer=True)
    mine.update(preds, target)
    compare(mine, "best", compute, per_pair)
    assert not math.isnan(mine.compute()["rouge1_fmeasure"])
