"""rouge_core.compat.rouge_score as a package: code written against rouge-score's public API
(`rouge_scorer`, `scoring`, `tokenize`, `tokenizers`, `io`) runs with only its imports changed,
and gives rouge-score's numbers (compared with rouge-score 0.1.2 itself, floats with ==)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import io as real_io
from rouge_score import rouge_scorer as real_rouge_scorer
from rouge_score import scoring as real_scoring
from rouge_score import tokenize as real_tokenize
from rouge_score import tokenizers as real_tokenizers

from rouge_core.compat.rouge_score import io, rouge_scorer, scoring, tokenize, tokenizers
from rouge_core.text.document import pretokenized

MODULES = [(rouge_scorer, real_rouge_scorer), (scoring, real_scoring), (tokenize, real_tokenize),
           (tokenizers, real_tokenizers), (io, real_io)]
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# Words chosen to make overlaps frequent, with inflections for the stemmer, punctuation and
# newlines for rougeLsum, and letters whose lower case differs between str and bytes
# ("İ" lower-cases to "i" + a combining dot as str; "K" is the Kelvin sign, "k" as str).
WORDS = ["the", "cat", "cats", "sat", "sitting", "on", "mat", "a", "dog", "running", "ran", "Brown", "fox",
         "İstanbul", "İ", "\u212a", "café", "x1", "don't", "e-mail", "ÉTÉ"]
SEPARATORS = [" ", " ", "  ", "\n", ". ", ", ", "\t", "\n\n"]


@st.composite
def texts(draw, max_words=20):
    words = draw(st.lists(st.sampled_from(WORDS), max_size=max_words))
    return "".join(w + draw(st.sampled_from(SEPARATORS)) for w in words)


def public_names(module) -> set[str]:
    """Names a module defines itself (not its imports), without a leading underscore."""
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and (getattr(value, "__module__", None) == module.__name__
                                             or isinstance(value, str))}


@pytest.mark.parametrize("ours, theirs", MODULES, ids=[m[1].__name__ for m in MODULES])
def test_every_public_name_of_rouge_score_is_offered(ours, theirs):
    missing = public_names(theirs) - set(vars(ours))
    assert not missing, f"{ours.__name__} lacks {sorted(missing)}"


def test_the_class_import_keeps_working():
    from rouge_core.compat.rouge_score import RougeScorer, Score

    assert RougeScorer is rouge_scorer.RougeScorer and Score is scoring.Score


# -- rouge_scorer: in the manner of rouge-score's own tests ---------------------------------

class TestRougeScorer:

    def test_is_a_base_scorer(self):
        assert isinstance(rouge_scorer.RougeScorer(["rouge1"]), scoring.BaseScorer)

    def test_rouge1_identical(self):
        scorer = rouge_scorer.RougeScorer(["rouge1"])
        result = scorer.score("testing one two", "testing one two")
        assert result["rouge1"] == scoring.Score(precision=1.0, recall=1.0, fmeasure=1.0)

    def test_rouge2_partial(self):
        scorer = rouge_scorer.RougeScorer(["rouge2"])
        result = scorer.score("testing one two", "testing one")
        assert result["rouge2"].precision == 1.0
        assert result["rouge2"].recall == 0.5
        assert result["rouge2"].fmeasure == pytest.approx(2 / 3)

    def test_rougeL_with_stemming(self):
        scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
        result = scorer.score("the cats were running", "a cat runs")
        # stems: the cat were run / a cat run; LCS "cat run"
        assert result["rougeL"] == (2 / 3, 2 / 4, scoring.fmeasure(2 / 3, 2 / 4))

    def test_rougeLsum_reads_one_sentence_per_line(self):
        scorer = rouge_scorer.RougeScorer(["rougeLsum"])
        result = scorer.score("w1 w2 w3 w4 w5\nw6 w7", "w1 w3 w8 w4\nw6 w9 w7")
        assert result["rougeLsum"].recall == 5 / 7 and result["rougeLsum"].precision == 5 / 7

    def test_score_multi_keeps_the_best_f(self):
        scorer = rouge_scorer.RougeScorer(["rouge1"])
        result = scorer.score_multi(["first text", "first or second text"], "second text")
        assert result["rouge1"] == scoring.Score(precision=1.0, recall=0.5, fmeasure=2 / 3)

    def test_lcs_ind(self):
        assert rouge_scorer.lcs_ind(["a", "b", "c", "a", "b"], ["b", "a", "c", "b"]) == [0, 2, 4]
        assert rouge_scorer.lcs_ind([], ["a"]) == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=texts(), prediction=texts(), stem=st.booleans(), as_bytes=st.sampled_from(["none", "both", "target"]))
def test_bytes_texts_score_as_in_rouge_score(target, prediction, stem, as_bytes):
    if as_bytes != "none":
        target = target.encode("utf-8")
        prediction = prediction.encode("utf-8") if as_bytes == "both" else prediction
    want = real_rouge_scorer.RougeScorer(TYPES, use_stemmer=stem).score(target, prediction)
    got = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem).score(target, prediction)
    assert got == want


def test_bytes_known_values():
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"])
    # As bytes, "İ" is not lower-cased before the [a-z0-9] filter, so it is a separator;
    # rougeLsum decodes first, and as str "İ" lower-cases to "i" + a combining dot.
    got = scorer.score("İ cat".encode(), "i cat".encode())
    assert got["rouge1"] == (0.5, 1.0, 2 / 3)
    assert got["rougeLsum"] == (1.0, 1.0, 1.0)
    assert got == real_rouge_scorer.RougeScorer(["rouge1", "rougeLsum"]).score("İ cat".encode(), "i cat".encode())
    with pytest.raises(UnicodeDecodeError):
        scorer.score(b"\xff cat", "cat")


class UpperWords(tokenizers.Tokenizer):
    """A user tokenizer: whitespace words, case kept."""

    def tokenize(self, text):
        return (text.decode() if isinstance(text, bytes) else text).split()


@settings(max_examples=100, deadline=None)
@given(target=texts(), prediction=texts())
def test_user_tokenizer_subclass_as_in_rouge_score(target, prediction):
    want = real_rouge_scorer.RougeScorer(TYPES, tokenizer=UpperWords()).score(target, prediction)
    got = rouge_scorer.RougeScorer(TYPES, tokenizer=UpperWords()).score(target, prediction)
    assert got == want


@settings(max_examples=100, deadline=None)
@given(target=texts(), prediction=texts(), stem=st.booleans(), scorer_stem=st.booleans())
def test_default_tokenizer_passed_explicitly(target, prediction, stem, scorer_stem):
    # The tokenizer's own use_stemmer decides; the scorer's is ignored, as in rouge-score.
    want = real_rouge_scorer.RougeScorer(TYPES, use_stemmer=scorer_stem,
                                         tokenizer=real_tokenizers.DefaultTokenizer(stem)).score(target, prediction)
    got = rouge_scorer.RougeScorer(TYPES, use_stemmer=scorer_stem,
                                   tokenizer=tokenizers.DefaultTokenizer(stem)).score(target, prediction)
    assert got == want


def test_user_tokens_that_are_not_strings():
    class Numbers:
        def tokenize(self, text):
            return [len(w) for w in text.split()]

    got = rouge_scorer.RougeScorer(["rouge1", "rougeL"], tokenizer=Numbers()).score("aa bbb c", "dd e fff")
    assert got["rouge1"] == (1.0, 1.0, 1.0) and got["rougeL"].fmeasure == pytest.approx(2 / 3)


def test_token_list_documents_equal_pretokenized_ones():
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], tokenizer=UpperWords())
    doc = scorer._sentences("A b\n\nc  D\n")
    want = pretokenized([["A", "b"], ["c", "D"]])
    assert doc == want and doc.tokens == want.tokens and doc.text == want.text and len(doc) == 4
    assert pickle.loads(pickle.dumps(doc)) == want
    evidence = scorer.explain("A b\nc D", "c D")["rougeLsum"]["rougeLsum"]
    assert evidence.per_reference[0].stats.hits == 2


# -- tokenize and tokenizers ----------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(text=texts(), stem=st.booleans(), as_bytes=st.booleans())
def test_tokenize_as_rouge_score(text, stem, as_bytes):
    if as_bytes:
        text = text.encode("utf-8")
    real_stemmer = real_tokenizers.DefaultTokenizer(True)._stemmer if stem else None
    assert tokenize.tokenize(text, real_stemmer) == real_tokenize.tokenize(text, real_stemmer)
    assert tokenizers.DefaultTokenizer(stem).tokenize(text) == real_tokenizers.DefaultTokenizer(stem).tokenize(text)


def test_tokenize_known_values():
    assert tokenize.tokenize("The Cats, running!", None) == ["the", "cats", "running"]
    assert tokenizers.DefaultTokenizer(use_stemmer=True).tokenize("The Cats, running!") == ["the", "cat", "run"]
    assert tokenize.tokenize("İ\u212a", None) == ["i", "k"] and tokenize.tokenize("İ\u212a".encode(), None) == []


def test_tokenizer_is_abstract():
    with pytest.raises(TypeError):
        tokenizers.Tokenizer()
    assert isinstance(tokenizers.DefaultTokenizer(), tokenizers.Tokenizer)


# -- scoring: BootstrapAggregator -----------------------------------------------------------

def _score_dicts(n: int, seed: int, types=("rouge1", "rougeL")) -> list[dict]:
    rng = np.random.RandomState(seed)
    words = ["a", "b", "c", "d", "e", "f"]
    scorer = rouge_scorer.RougeScorer(list(types))
    return [scorer.score(" ".join(rng.choice(words, 8)), " ".join(rng.choice(words, 6))) for _ in range(n)]


def _aggregate(aggregator, score_dicts):
    for scores in score_dicts:
        aggregator.add_scores(scores)
    return aggregator.aggregate()


@pytest.mark.parametrize("n, seed, confidence, samples", [(1, 0, 0.95, 1000), (7, 3, 0.95, 1000), (40, 11, 0.9, 250),
                                                          (25, 2**32 - 1, 0.5, 10), (12, 5, 1.0, 7)])
def test_seeded_aggregator_is_rouge_score_after_numpy_seed(n, seed, confidence, samples):
    score_dicts = _score_dicts(n, seed % 1000)
    np.random.seed(seed)
    want = _aggregate(real_scoring.BootstrapAggregator(confidence, samples), score_dicts)
    got = _aggregate(scoring.BootstrapAggregator(confidence, samples, seed=seed), score_dicts)
    assert got == want  # every percentile, bit for bit
    assert list(got) == list(want) and type(got["rouge1"].mid) is scoring.Score


def test_unseeded_aggregator_draws_from_numpy_global_generator_like_rouge_score():
    score_dicts = _score_dicts(9, 4)
    np.random.seed(17)
    want = _aggregate(real_scoring.BootstrapAggregator(), score_dicts)
    np.random.seed(17)
    got = _aggregate(scoring.BootstrapAggregator(), score_dicts)
    assert got == want


def test_seeded_aggregator_repeats_and_leaves_the_global_generator_alone():
    aggregator = scoring.BootstrapAggregator(seed=5)
    for scores in _score_dicts(10, 1):
        aggregator.add_scores(scores)
    np.random.seed(99)
    state = np.random.get_state()[1].copy()
    first, second = aggregator.aggregate(), aggregator.aggregate()
    assert first == second
    assert (np.random.get_state()[1] == state).all()
    assert first["rouge1"].low != first["rouge1"].high  # the pairs differ: a real interval
    assert scoring.BootstrapAggregator(seed=6).aggregate() == {}


def test_constant_scores_give_a_degenerate_interval():
    aggregator = scoring.BootstrapAggregator(seed=0)
    for _ in range(5):
        aggregator.add_scores({"rouge1": scoring.Score(0.5, 0.25, 1 / 3)})
    result = aggregator.aggregate()["rouge1"]
    assert result.low == result.mid == result.high == (0.5, 0.25, 1 / 3)
    assert isinstance(result, scoring.AggregateScore) and result._fields == ("low", "mid", "high")


def test_aggregator_accepts_other_score_records():
    from collections import namedtuple

    Pair = namedtuple("Pair", ["a", "b"])
    aggregator = scoring.BootstrapAggregator(seed=1)
    aggregator.add_scores({"x": Pair(1.0, 0.0)})
    aggregator.add_scores({"x": Pair(1.0, 0.0)})
    assert aggregator.aggregate()["x"].mid == Pair(1.0, 0.0)


@pytest.mark.parametrize("kwargs, message", [({"confidence_interval": 1.5}, "confidence_interval"),
                                             ({"confidence_interval": -0.1}, "confidence_interval"),
                                             ({"n_samples": 0}, "n_samples must be positive"),
                                             ({"seed": -1}, "seed must be"), ({"seed": 1.5}, "seed must be"),
                                             ({"seed": 2**32}, "seed must be")])
def test_aggregator_arguments_are_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        scoring.BootstrapAggregator(**kwargs)


def test_score_records_match_rouge_scores():
    assert scoring.Score._fields == real_scoring.Score._fields
    assert scoring.AggregateScore._fields == real_scoring.AggregateScore._fields
    assert scoring.Score(1, 2, 3) == real_scoring.Score(1, 2, 3)
    assert scoring.fmeasure(0.5, 0.25) == real_scoring.fmeasure(0.5, 0.25) and scoring.fmeasure(0, 0) == 0


# -- io -----------------------------------------------------------------------------------------

def _write(path, records, final_delimiter=True):
    path.write_text("\n".join(records) + ("\n" if final_delimiter else ""), encoding="utf-8")


@pytest.mark.parametrize("with_aggregator", [False, True])
def test_io_writes_the_same_csv_as_rouge_score(tmp_path, with_aggregator):
    for i in range(2):
        _write(tmp_path / f"target{i}.txt", [f"the cat sat on mat {i}", "a dog ran", "w x y"])
        _write(tmp_path / f"prediction{i}.txt", [f"the cat on the mat {i}", "the dog ran off", "z"])
    outputs = {}
    for name, module, score_module, scorer_module in (("theirs", real_io, real_scoring, real_rouge_scorer),
                                                      ("ours", io, scoring, rouge_scorer)):
        np.random.seed(3)
        aggregator = score_module.BootstrapAggregator() if with_aggregator else None
        module.compute_scores_and_write_to_csv(str(tmp_path / "target*.txt"), str(tmp_path / "prediction*.txt"),
                                               str(tmp_path / f"{name}.csv"), scorer_module.RougeScorer(TYPES),
                                               aggregator)
        outputs[name] = (tmp_path / f"{name}.csv").read_text()
    assert outputs["ours"] == outputs["theirs"]
    assert outputs["ours"].splitlines()[0] == ("score_type,low,mid,high" if with_aggregator else
                                               "id,rouge1-P,rouge1-R,rouge1-F,rouge2-P,rouge2-R,rouge2-F,rougeL-P,"
                                               "rougeL-R,rougeL-F,rougeLsum-P,rougeLsum-R,rougeLsum-F")


def test_io_refuses_what_rouge_score_refuses(tmp_path):
    _write(tmp_path / "t.txt", ["a", "b"])
    _write(tmp_path / "p.txt", ["a"])
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    with pytest.raises(ValueError, match="Must have equal number of lines"):
        io.compute_scores_and_write_to_csv(str(tmp_path / "t.txt"), str(tmp_path / "p.txt"), str(tmp_path / "o.csv"),
                                           scorer, None)
    with pytest.raises(ValueError, match="Must have equal and positive number of target and prediction files"):
        io.compute_scores_and_write_to_csv(str(tmp_path / "none*.txt"), str(tmp_path / "p.txt"),
                                           str(tmp_path / "o.csv"), scorer, None)


def test_io_keeps_a_last_record_without_delimiter(tmp_path, caplog):
    _write(tmp_path / "t.txt", ["a b", "c"], final_delimiter=False)
    _write(tmp_path / "p.txt", ["a", "c"], final_delimiter=False)
    io.compute_scores_and_write_to_csv(str(tmp_path / "t.txt"), str(tmp_path / "p.txt"), str(tmp_path / "o.csv"),
                                       rouge_scorer.RougeScorer(["rouge1"]), None)
    assert (tmp_path / "o.csv").read_text().splitlines()[1:] == ["0,1.000000,0.500000,0.666667",
                                                                 "1,1.000000,1.000000,1.000000"]
    assert "Expected delimiter at end of file" in caplog.text
