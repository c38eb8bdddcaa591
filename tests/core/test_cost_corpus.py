"""The Corpus page's estimate of scoring every system (rouge_core.scorer.cost.estimate_corpus)
counts what score_corpus does beside the kernels (issue 27 item 9: "score every system" of a
16 x 100 x 11 corpus was estimated at 0.077 s and took 0.19-0.27 s)."""

import random

import pytest

import rouge_core
from rouge_core import UNBOUNDED, score_corpus
from rouge_core.kernels import native
from rouge_core.scorer import cost, cost_model
from tests.memory import traced_peak

METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _corpus(systems: int, documents: int, references: int, seed: int = 5):
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(400)]

    def text() -> str:
        return "\n".join(" ".join(rng.choices(words, k=rng.randint(10, 20))) for _ in range(3))

    refs = [[text() for _ in range(references)] for _ in range(documents)]
    return {f"S{k}": [text() for _ in range(documents)] for k in range(systems)}, refs


@pytest.mark.parametrize("profile", ["rouge-score", "rouge-1.5.5"])
def test_the_corpus_estimate_counts_each_pairs_records_per_method_and_reference(profile):
    # per pair and method a record (references combined in Python), per method and reference a
    # ReferenceScore, and under ROUGE-1.5.5's rounded P and R each score computed in Python
    systems, refs = _corpus(3, 40, 11)
    whole, one, pairs = cost.corpus_terms(systems, refs, METHODS, rouge_core.profile(profile))
    p = native.path()
    assert pairs == 120
    assert whole.time[f"{p}.corpus.method"] == pytest.approx(120 * 4)
    assert whole.time[f"{p}.corpus.reference"] == pytest.approx(120 * 4 * 11)
    assert whole.time.get(f"{p}.corpus.rounded", 0) == pytest.approx(120 * 4 * 11 if profile == "rouge-1.5.5" else 0)
    assert whole.time[f"{p}.corpus.column"] == 3 * 4  # each system's statistics, a column per method
    # the constants come from the calibration's corpus cases (bench/calibrate_costs.py, group corpus)
    for name in ("corpus.method", "corpus.reference", "corpus.rounded", "corpus.column"):
        assert f"native.{name}" in cost_model.SECONDS and f"pure.{name}" in cost_model.SECONDS
    assert "corpus.chunk.reference" in cost_model.BYTES and "corpus.held.token" in cost_model.BYTES
    # shared references (the meta-evaluation's score_variants) score through score_documents: no corpus records,
    # a call per pair instead (issue 29: "score every variant" of a 16 x 100 x 11 study estimated at 0.36x)
    shared, _, _ = cost.corpus_terms(systems, refs, METHODS, rouge_core.profile(profile), shared_references=True)
    assert not [name for name in shared.time if ".corpus." in name]
    assert shared.time[f"{p}.variants.pair"] == pytest.approx(120)
    assert shared.time[f"{p}.variants.method"] == pytest.approx(120 * 4)
    assert shared.time[f"{p}.variants.reference"] == pytest.approx(120 * 4 * 11)
    assert shared.time.get(f"{p}.variants.rounded", 0) == pytest.approx(120 * 4 * 11 if profile == "rouge-1.5.5"
                                                                        else 0)
    # fitted on the calibration's variants cases: what a pair's call does costs time on both paths
    for name in ("variants.pair", "variants.reference"):
        assert cost_model.SECONDS[f"native.{name}"] + cost_model.SECONDS[f"pure.{name}"] > 0


def test_a_corpus_tokenized_in_python_is_priced_holding_a_batchs_chunk():
    # score_corpus's batches tokenize 64 pairs at a time in Python when the kernels cannot (MATLAB's
    # whitespace tokenizer) and hold their Documents together: estimated as one pair's, 1.0 MB
    # against 5.1 MB traced (13 MB resident) on a 2 x 200 x 11 study corpus
    if not native.active():
        pytest.skip("the pure path scores pair by pair")
    systems, refs = _corpus(1, 200, 11)
    options = rouge_core.profile("matlab")
    assert cost.corpus_pairs_held(systems, refs, options) == cost.BATCH_CHUNK == 64
    assert cost.corpus_pairs_held(systems, refs, rouge_core.profile("rouge-score")) == 1
    run = lambda: score_corpus(systems["S0"], refs, ["rouge1"], options, cost_limit=UNBOUNDED)  # noqa: E731
    run()  # imports and caches
    peak = traced_peak(run)
    estimate = cost.estimate_corpus(systems, refs, ["rouge1"], options)
    assert peak / 2 <= estimate.peak_bytes <= 2 * peak, (estimate.peak_bytes, peak)


@pytest.mark.parametrize("profile,stemmer", [("rouge-score", "porter"), ("rouge-1.5.5", "rouge155")])
def test_a_stemmed_corpus_prices_each_word_type_stemmed_once(profile, stemmer):
    # issue 29 item 3: the stemmers' caches and the kernels' shared table of stems stem a word type
    # once per process, but every text's types were priced as new: a 16 x 100 x 11 corpus with
    # Porter stemming estimated at 11 s took 0.43 s (CPU, load 5)
    import re

    systems, refs = _corpus(3, 40, 4)
    words = {w for group in (*systems.values(), *refs) for text in group for w in re.findall(r"\w+", text.lower())}
    assert len(words) <= 400
    options = rouge_core.profile(profile, stemmer=stemmer)
    whole, _, _ = cost.corpus_terms(systems, refs, METHODS, options)
    assert whole.time[f"stem.{stemmer}.type"] == len(words)  # not once per text (120 pairs x 5 texts)
    if native.active():  # the kernels map every token through the shared table: only new types reach Python
        assert whole.time["tok.compiled.mapped.type"] == len(words)
        assert f"stem.{stemmer}.token" not in whole.time and whole.time["tok.compiled.mapped.token"] > 0
    unstemmed = cost.estimate_corpus(systems, refs, METHODS, profile, loading=False)
    stemmed = cost.estimate_corpus(systems, refs, METHODS, options, loading=False)
    # the stemming of 400 word types, not of 600 texts' types (NLTK's import apart: test_cost_loading)
    assert stemmed.seconds - unstemmed.seconds <= 400 * 1e-4


def test_rouge_lsum_best_prices_the_clipping_where_the_profile_clips():
    # every profile but reval's clips the best pairs' hits by their alignments, a layout and a
    # traceback per candidate sentence: unpriced (the calibration's cases were reval's), the
    # tools' comparison of a 20,000-word pair was estimated at 0.35-0.5x what it took
    clipped = rouge_core.profile("rouge-score")
    unclipped = rouge_core.profile("reval")
    assert clipped.best_sentence_clip and not unclipped.best_sentence_clip
    p = native.path()
    cand = cost.Shape(2000, 100, 500, 500, False)
    ref = cost.Shape(1800, 90, 450, 450, False)
    from rouge_core.families.cost_terms import best_sentence_cost

    with_clip, _, _ = best_sentence_cost(cand, ref, False, True)
    without, _, _ = best_sentence_cost(cand, ref, False, False)
    assert with_clip.time[f"{p}.Lbest.clipsentence"] == 100 and with_clip.time[f"{p}.Lbest.clipref"] == 1800
    assert not [name for name in without.time if ".clip" in name]
    assert cost.price(with_clip)[0] > cost.price(without)[0]
    # the front door prices it by the options (sentence lengths: 100 sentences of 20 words a side)
    estimate = lambda o: cost.estimate("rougeLsum-best", [20] * 100, [[20] * 90], o).seconds  # noqa: E731
    assert estimate(clipped) > estimate(unclipped)

