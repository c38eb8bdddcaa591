"""A library a stemmer or segmenter loads once per process (NLTK's import, jieba's dictionary,
PyThaiNLP's word list: about a second each) is part of the estimate until it is loaded
(issue 29, "costs that match": the Disagree page's 120 KB pair was estimated at 1.6 s and
took 2.5-4 s on a fresh server, the difference NLTK's import). No timings: the estimates are
read against the calibrated constants, and whether a library is loaded against a fresh process."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import rouge_core
from rouge_core.scorer import cost
from rouge_core.scorer.cost_model import BYTES, SECONDS
from rouge_core.teach import disagree
from rouge_core.text import loading

ROOT = Path(__file__).resolve().parents[2]
PORTER = rouge_core.profile("rouge-score", stemmer="porter")


@pytest.mark.parametrize("stemmer, segmenters, libraries", [
    ("porter", (), ("nltk",)),
    ("xlsum-spanish", (), ("nltk",)),  # NLTK's Snowball
    ("xlsum-porter", (), ("nltk",)),
    ("xlsum-hindi", (), ()),  # XL-Sum's own suffix list
    ("rouge155", (), ()),  # ours, with its WordNet lists
    ("snowball-english", (), ()),  # the snowballstemmer package: light
    ("none", ("thai",), ("pythainlp",)),
    ("none", ("xlsum-thai", "xlsum-chinese"), ("jieba", "pythainlp")),
    ("porter", ("chinese", "lao", "cjk-han"), ("nltk", "jieba")),
    ("none", ("japanese", "khmer", "myanmar"), ()),
])
def test_each_stemmer_and_segmenter_names_the_library_it_loads(stemmer, segmenters, libraries):
    assert loading.libraries_for(stemmer, segmenters) == libraries


def test_every_library_has_calibrated_constants():
    for library in loading.LIBRARIES:
        assert SECONDS[f"load.{library}"] > 0.1 and BYTES[f"load.{library}"] > 10 * 2**20, library


def _cold(monkeypatch, *cold: str) -> None:
    monkeypatch.setattr(loading, "loaded", lambda library: library not in cold)


def test_a_library_not_loaded_yet_is_part_of_the_tokenizing_estimate(monkeypatch):
    args = (["rouge1"], "the cats were running", ["a cat ran"], PORTER)
    _cold(monkeypatch)
    warm = cost.estimate_texts(*args, tokenize=False)[cost.TOKENIZING]
    _cold(monkeypatch, "nltk")
    cold = cost.estimate_texts(*args, tokenize=False)[cost.TOKENIZING]
    assert cold.seconds == pytest.approx(warm.seconds + SECONDS["load.nltk"])
    assert cold.peak_bytes == pytest.approx(warm.peak_bytes + BYTES["load.nltk"])
    # the same texts without the stemmer load nothing
    plain = cost.estimate_texts(["rouge1"], args[1], args[2], "rouge-score", tokenize=False)[cost.TOKENIZING]
    assert plain.seconds < SECONDS["load.nltk"]
    # the whole call's estimate (what the app shows) carries it once
    assert cost.total(cost.estimate_texts(*args, tokenize=False).values()).seconds >= SECONDS["load.nltk"]


def test_a_segmenter_not_loaded_yet_is_part_of_the_estimate(monkeypatch):
    thai = "ภาษาไทยง่ายนิดเดียว " * 3
    options = rouge_core.profile("multilingual", language="thai")
    _cold(monkeypatch)
    warm = cost.estimate_texts(["rouge1"], thai, [thai], options, tokenize=False)[cost.TOKENIZING]
    _cold(monkeypatch, "pythainlp", "jieba")
    cold = cost.estimate_texts(["rouge1"], thai, [thai], options, tokenize=False)[cost.TOKENIZING]
    assert cold.seconds == pytest.approx(warm.seconds + SECONDS["load.pythainlp"])


def test_estimating_a_call_whose_tokenizing_fits_loads_the_library_and_prices_it_paid(monkeypatch):
    # within the bound, estimate_texts tokenizes the texts to count their words exactly: that
    # tokenizing loads the stemmer, so what is left to pay no longer holds its load
    loads = []
    monkeypatch.setattr(loading, "loaded", lambda library: bool(loads))
    real_prepare = cost.prepare_pair

    def prepare(*a, **k):
        loads.append(True)
        return real_prepare(*a, **k)

    monkeypatch.setattr(cost, "prepare_pair", prepare)
    estimate = cost.estimate_texts(["rouge1"], "the cats were running", ["a cat ran"], PORTER)
    assert loads and estimate[cost.TOKENIZING].seconds < SECONDS["load.nltk"]


def test_the_comparison_of_tools_counts_each_library_once(monkeypatch):
    comparison = disagree.Comparison("the cats were running home", ["a cat ran home"])
    _cold(monkeypatch)
    warm = comparison.estimate(disagree.VARIANTS, "rouge-score")
    _cold(monkeypatch, "nltk")
    cold = comparison.estimate(disagree.VARIANTS, "rouge-score")
    # several of the walks' settings stem with NLTK's Porter: one import
    assert sum(o.stemmer == "porter" for o in disagree.VARIANTS.values()) >= 1
    assert cold.seconds == pytest.approx(warm.seconds + SECONDS["load.nltk"])


def test_scoring_a_corpus_counts_the_libraries_it_loads_once_over_every_variant(monkeypatch):
    # "Which ROUGE agrees" scores every variant; on a fresh server the first Porter variant pays
    # NLTK's import (about 1 s: a 16 x 100 x 11 study's estimate was 0.36x what it took)
    from rouge_core.studies import meta

    systems = {"a": ["the cats were running home", "dogs bark"], "b": ["a cat ran", "the dog barked"]}
    references = [["a cat ran home"], ["dogs were barking"]]
    variants = meta.variants(["rouge-score", "matlab"])
    assert sum(v.stemmer == "porter" for v in variants) == 2

    def estimates():
        return [cost.estimate_corpus(systems, references, ["rouge1"], v.options, shared_references=True)
                for v in variants]

    _cold(monkeypatch)
    warm = estimates()
    _cold(monkeypatch, "nltk")
    cold = estimates()
    for v, w, c in zip(variants, warm, cold):
        extra = SECONDS["load.nltk"] if v.stemmer == "porter" else 0.0
        assert c.seconds == pytest.approx(w.seconds + extra)
        assert c.peak_bytes == pytest.approx(w.peak_bytes + (BYTES["load.nltk"] if extra else 0.0))
    # every variant scored in one process: one import
    assert cost.total(cold).seconds == pytest.approx(cost.total(warm).seconds + SECONDS["load.nltk"])
    # the Corpus page's score_corpus too; a profile without a stemmer loads nothing
    _cold(monkeypatch, "nltk")
    porter = cost.estimate_corpus(systems, references, ["rouge1"], PORTER)
    plain = cost.estimate_corpus(systems, references, ["rouge1"], "rouge-score")
    assert porter.seconds > plain.seconds + SECONDS["load.nltk"] * 0.99
    assert cost.estimate_corpus(systems, references, ["rouge1"], PORTER, loading=False).seconds < SECONDS["load.nltk"]


_PROBE = """
import json, sys
from rouge_core.text import loading
before = loading.loaded(sys.argv[1])
loading.load(sys.argv[1])
print(json.dumps([before, loading.loaded(sys.argv[1])]))
"""


@pytest.mark.parametrize("library", loading.LIBRARIES)
def test_a_fresh_process_has_not_loaded_a_library_until_its_first_use(library):
    # importing rouge_core loads none of them (else every estimate would carry a load never paid)
    pytest.importorskip({"nltk": "nltk", "jieba": "jieba", "pythainlp": "pythainlp"}[library])
    out = subprocess.run([sys.executable, "-c", _PROBE, library], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [False, True]


def test_the_comparison_of_tools_holds_each_tokenizations_bit_masks(monkeypatch):
    # the candidate's bit masks live on its Documents, one set per tokenization, all kept by the
    # comparison: a 120 KB pair's comparison was estimated at 49 MB (the masks counted once) and
    # held about 220 MB
    words = [f"w{k % 997}" for k in range(3000)]
    candidate = "\n".join(" ".join(words[i:i + 20]) for i in range(0, 3000, 20))
    reference = "\n".join(" ".join(words[i:i + 20]) for i in range(7, 3000, 20))
    comparison = disagree.Comparison(candidate, [reference])
    _cold(monkeypatch)  # every library loaded: the Documents alone
    # the table alone: one set of statistics per tokenization, each tokenization's Documents kept
    by_tokenization = {o.tokenize_key(): (name, o) for name, o in disagree.VARIANTS.items()}
    variants = dict(by_tokenization.values())
    by_tokenization = {key: o for key, (_, o) in by_tokenization.items()}
    assert len(variants) >= 3
    calls = [cost.total(cost.estimate_texts(comparison.methods, candidate, [reference], o, tokenize=False,
                                            loading=False).values()) for o in by_tokenization.values()]
    assert all(any(key == "layout" for e in cost.estimate_texts(comparison.methods, candidate, [reference], o,
                                                                  tokenize=False).values() for key, _, _ in e.shared)
               for o in by_tokenization.values())
    estimate = comparison.estimate(variants)
    assert estimate.kept_bytes == pytest.approx(sum(c.kept_bytes for c in calls))


def test_a_library_still_being_imported_is_not_loaded(monkeypatch):
    # the app imports NLTK in a background thread at start; while that import runs, NLTK is in
    # sys.modules already, and the page that needs it waits for it
    import importlib.machinery
    import types

    module = types.ModuleType("nltk")
    module.__spec__ = importlib.machinery.ModuleSpec("nltk", None)
    module.__spec__._initializing = True
    monkeypatch.setitem(sys.modules, "nltk", module)
    assert not loading.loaded("nltk")
    module.__spec__._initializing = False
    assert loading.loaded("nltk")
