"""Batch scoring (rouge_core.batch) and score_corpus(workers=...): the same records as scoring
pair by pair, in input order, whatever the number of threads and the chunk size; errors name
the pair; costs are checked before they are paid."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rouge_core
from rouge_core import native
from rouge_core.batch import score_batch
from rouge_core.corpus import score_pair_stats
from rouge_core.cost import CostLimit, CostLimitError

METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU*"]
WORDS = ["a", "b", "the", "cat", "The", "x1", "café", "naïve", "<s>"]
text = st.builds(lambda ws, seps: "".join(w + s for w, s in zip(ws, seps)),
                 st.lists(st.sampled_from(WORDS), max_size=25),
                 st.lists(st.sampled_from([" ", "\n", ". ", "  \n\n"]), min_size=25, max_size=25))


def records(pairs) -> list:
    return [{name: (repr(m.score), m.chosen, m.reason, m.signature, repr(m.stats),
                    [(r.index, repr(r.stats), repr(r.score)) for r in m.per_reference])
             for name, m in pair.items()} for pair in pairs]


def sequential(cands, refs, methods, options):
    opts = rouge_core.profile(options) if isinstance(options, str) else options
    return records(score_pair_stats(c, tuple(r), methods, opts) for c, r in zip(cands, refs))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), max_size=12),
       st.sampled_from(["rouge-score", "rouge-1.5.5", "matlab"]), st.sampled_from([1, 2]), st.sampled_from([1, 3, 256]))
def test_batch_equals_pair_by_pair(pairs, profile, workers, chunk_size):
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    got = score_batch(cands, refs, METHODS, profile, workers=workers, chunk_size=chunk_size)
    assert len(got) == len(pairs)
    assert records(got) == sequential(cands, refs, METHODS, profile)


@pytest.mark.parametrize("overrides", [dict(stemmer="porter"), dict(stopwords="smart", profile="rouge-1.5.5"),
                                       dict(limit_bytes=12, profile="rouge-1.5.5"), dict(round_pr=5)])
def test_batch_with_settings_the_kernels_do_not_tokenize(overrides):
    name = overrides.pop("profile", "rouge-score")
    opts = rouge_core.profile(name, **overrides)
    cands = ["The cats sat on the mat.\nThey were happy.", "a b c", "", "Running dogs ran", "Ünïcode wörds here"]
    refs = [["The cat sat on a mat.", "cats were happy"], ["c b a"], ["x"], ["dogs run", "ran"], ["unicode words"]]
    assert records(score_batch(cands, refs, METHODS, opts, workers=2, chunk_size=2)) == sequential(cands, refs,
                                                                                                     METHODS, opts)


def test_score_corpus_with_workers_equals_sequential_and_pure():
    cands = [f"the cat {i} sat on the mat\nit was {'happy' if i % 2 else 'sad'}" for i in range(300)]
    refs = [[f"a cat {i % 7} sat on a mat", "the cat was happy"] for i in range(300)]
    seen = []
    one = rouge_core.score_corpus(cands, refs, METHODS, "rouge-score")
    two = rouge_core.score_corpus(cands, refs, METHODS, "rouge-score", workers=2,
                                  progress=lambda done, total: seen.append((done, total)))
    with native.pure():
        pure = rouge_core.score_corpus(cands, refs, METHODS, "rouge-score")
    assert records(one.pairs) == records(two.pairs) == records(pure.pairs)
    assert one.macro() == two.macro() == pure.macro() and one.signatures == pure.signatures
    assert seen == [(done, 300) for done in range(1, 301)]  # every pair, in order


def test_errors_name_the_pair_in_input_order():
    cands = ["a b", 42, "c d", None]
    refs = [["a"], ["b"], ["c"], ["d"]]
    with pytest.raises(TypeError, match=r"^pair two: candidate must be a string"):
        score_batch(cands, refs, ["rouge1"], "rouge-score", ids=["one", "two", "three", "four"], workers=2,
                    chunk_size=1)


def test_a_pair_above_the_cost_bound_is_refused_before_it_is_scored():
    long = " ".join(f"w{i}" for i in range(3000))
    cands = ["a b", long]
    refs = [["a"], [long]]
    with pytest.raises(CostLimitError) as caught:
        score_batch(cands, refs, ["rougeS*"], "rouge-score", ids=["short", "long"])
    assert caught.value.pair == "long" and caught.value.method == "rougeS*"
    small = CostLimit(seconds=1e-9)
    with pytest.raises(CostLimitError):
        rouge_core.score_corpus(["a b c"], [["a b"]], ["rouge1"], "rouge-score", cost_limit=small, workers=2)
    ok = score_batch(cands, refs, ["rouge1"], "rouge-score", cost_limit=rouge_core.UNBOUNDED)
    assert ok[1]["rouge1"].fmeasure == 1.0


def test_workers_must_be_a_positive_integer():
    with pytest.raises(ValueError, match="workers"):
        rouge_core.score_corpus(["a"], [["a"]], ["rouge1"], workers=0)
    with pytest.raises(ValueError, match="candidates but"):
        score_batch(["a"], [], ["rouge1"])


def test_methods_without_a_kernel_and_the_pure_path_score_pair_by_pair():
    cands, refs = ["a b c\nd e", "x y"], [["a b\nc d e"], ["y x"]]
    got = score_batch(cands, refs, ["rougeLsum-best", "rouge1"], "reval", workers=2)
    assert records(got) == sequential(cands, refs, ["rougeLsum-best", "rouge1"], "reval")
    with native.pure():
        assert records(score_batch(cands, refs, ["rouge1"], "reval")) == sequential(cands, refs, ["rouge1"], "reval")
