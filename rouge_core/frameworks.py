"""ROUGE for training and evaluation loops: Hugging Face `evaluate`'s ROUGE (`compute`,
`RougeAccumulator`) and torchmetrics' (`torchmetrics_rouge`, `TorchmetricsRouge`).

    import rouge_core

    rouge_core.compute(predictions=["hello there", "general kenobi"],
                       references=["hello there", "general kenobi"])
    # {'rouge1': 1.0, 'rouge2': 1.0, 'rougeL': 1.0, 'rougeLsum': 1.0}

    rouge = rouge_core.RougeAccumulator(use_stemmer=True)
    for batch in loader:
        rouge.update(model_outputs(batch), batch["summaries"])
    rouge.compute()     # the same dict as compute() over every pair seen
    rouge.reset()

**evaluate.** The numbers and the output format are those of `evaluate.load("rouge").compute(...)`,
which scores each pair with rouge-score's RougeScorer (`score`, or `score_multi` when the
references are lists) and, with `use_aggregator=True`, reports for each rouge type the `mid`
F-measure of rouge-score's BootstrapAggregator: the median of 1,000 bootstrap means, not the
plain mean. evaluate draws those resamples from NumPy's global generator, which it reseeds
inside every `compute()` with a seed it took when the metric was loaded (`evaluate.load("rouge",
seed=s)`, else a number read from NumPy's generator at load time; `metric.seed` tells which).
Here they come from `seed` (default 0): `compute(..., seed=s)` gives exactly what
`evaluate.load("rouge", seed=s).compute(...)` gives, every time. `seed=None` draws from NumPy's
global generator unseeded. With `use_aggregator=False` each type maps to the list of per-pair
F-measures. `aggregate="mean"` reports the plain mean of the per-pair F-measures instead of the
bootstrap median (`score_corpus(...).macro()`'s mean, to the bit).

Each pair's references are read as given: a `str` is one reference, a list is several (the best
F per type counts, as rouge-score's `score_multi`), and a batch may mix the two. evaluate decides
once, from `references[0]`: after a `str` it scores a later list as the text of its printed
form (`['a', 'b c']` read as the words a, b, c), after a list it scores a later `str` as a list
of one-character references.

**torchmetrics.** `torchmetrics_rouge(preds, target, ...)` and the accumulator
`TorchmetricsRouge` give what `torchmetrics.functional.text.rouge.rouge_score` and
`torchmetrics.text.rouge.ROUGEScore` give: keys `rouge1_fmeasure`, `rouge1_precision`,
`rouge1_recall`, ... for each of `rouge_keys`; each pair scored against each of its references
with torchmetrics' text handling (lower-cased, every run of characters outside `[a-z0-9]` a space,
split at white space, or your `normalizer` (str -> str) and `tokenizer` (str -> tokens) instead;
with `use_stemmer`, NLTK's Porter stemmer on tokens longer than 3 characters; rougeLsum on the
sentences of NLTK's Punkt English model, `nltk.sent_tokenize`, as torchmetrics splits them);
`accumulate="best"` keeps, per key, the reference with the highest F-measure (compared as
torchmetrics compares them, in float32, the first on a tie), `"avg"` the mean over the references
of each of P, R and F; then each value is the mean over the pairs. torchmetrics keeps every value
as a float32 tensor and averages in float32; here they are Python floats from the same formulas
in float64: each per-pair value rounded to float32 is torchmetrics' value exactly, and each mean
differs from torchmetrics' only by its float32 rounding.

`tokenizer` (for `compute`) is a callable `text -> list of tokens` (as evaluate takes it) or an
object with a `.tokenize(text)` method (as rouge-score takes it). Texts may be `str` or UTF-8 `bytes`.
"""

from __future__ import annotations

import math
import operator
import re
from typing import Callable, Iterable, Mapping, Sequence

from .errors import excerpt
from .compat.rouge_score.rouge_scorer import RougeScorer, _method_for
from .compat.rouge_score.scoring import BootstrapAggregator, Score
from .corpora.corpus import aggregate_macro

__all__ = ["AGGREGATES", "DEFAULT_ROUGE_TYPES", "RougeAccumulator", "TORCHMETRICS_KEYS", "TorchmetricsRouge",
           "compute", "punkt_sentences", "torchmetrics_rouge"]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
AGGREGATES = ("bootstrap", "mean")  # how use_aggregator=True summarises the pairs
_TEXT = (str, bytes, bytearray)


class _CallableTokenizer:
    """A tokenizer function seen as the object with `.tokenize` rouge-score expects."""

    def __init__(self, function):
        self.function = function

    def tokenize(self, text):
        return self.function(text)


def _tokenizer_object(tokenizer):
    if tokenizer is None or hasattr(tokenizer, "tokenize"):
        return tokenizer
    if callable(tokenizer):
        return _CallableTokenizer(tokenizer)
    raise TypeError(f"tokenizer must be a callable (text -> tokens) or have a .tokenize method, not {type(tokenizer).__name__}")


def _as_list(value, what: str) -> list:
    """A batch (list, tuple, NumPy array, pandas Series, any iterable) as a list; a lone text
    or a mapping is refused, since iterating it would score characters or keys."""
    if isinstance(value, _TEXT) or isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a list (one entry per pair), not {type(value).__name__}")
    return list(value)


def _reference_list(references, where: str, texts: tuple[type, ...], each: str) -> list:
    """One pair's several references as a list of texts, or the error naming `where`."""
    if isinstance(references, Mapping) or not isinstance(references, Iterable):
        raise TypeError(f"{where} must be a str or a list of str, not {type(references).__name__}")
    references = list(references)
    if not references:
        raise ValueError(f"{where} is an empty list: each {each} needs at least one reference")
    kinds = "a str (or UTF-8 bytes)" if bytes in texts else "a str"
    for j, text in enumerate(references):
        if not isinstance(text, texts):
            raise TypeError(f"{where}[{j}] must be {kinds}, not {type(text).__name__}")
    return references


def _checked_pairs(predictions, references, names: tuple[str, str] = ("predictions", "references"),
                   texts: tuple[type, ...] = _TEXT, each: str = "pair") -> list[tuple[object, object]]:
    """The (prediction, reference or list of references) pairs, or a ValueError / TypeError naming
    the problem (the arguments by `names`: evaluate's, or torchmetrics' preds and target)."""
    predictions, references = _as_list(predictions, names[0]), _as_list(references, names[1])
    if len(predictions) != len(references):
        raise ValueError(f"{names[0]} and {names[1]} must have the same length: {len(predictions)} predictions, "
                         f"{len(references)} {'references' if names[1] == 'references' else 'targets'}")
    kind = "a str (or UTF-8 bytes)" if bytes in texts else "a str"
    pairs = []
    for i, (prediction, reference) in enumerate(zip(predictions, references)):
        if not isinstance(prediction, texts):
            raise TypeError(f"{names[0]}[{i}] must be {kind}, not {type(prediction).__name__}")
        if not isinstance(reference, texts):
            reference = _reference_list(reference, f"{names[1]}[{i}]", texts, each)
        pairs.append((prediction, reference))
    return pairs


class RougeAccumulator:
    """Collects per-pair scores batch by batch; `compute()` reports as `rouge_core.compute` would
    on every pair added since the last `reset()`. Only the scores are kept, not the texts."""

    def __init__(self, rouge_types: Sequence[str] | None = None, use_aggregator: bool = True, use_stemmer: bool = False,
                 tokenizer=None, *, aggregate: str | None = None, seed: int | None = 0, n_samples: int = 1000,
                 confidence_interval: float = 0.95):
        if aggregate is not None and aggregate not in AGGREGATES:
            raise ValueError(f"aggregate must be one of {', '.join(map(repr, AGGREGATES))}, not {aggregate!r}")
        if aggregate is not None and not use_aggregator:
            raise ValueError(f"aggregate={aggregate!r} says how use_aggregator=True summarises the pairs; with "
                             "use_aggregator=False each rouge type maps to its per-pair F-measures")
        self.aggregate = aggregate or "bootstrap"
        if isinstance(rouge_types, str):
            raise TypeError(f"rouge_types must be a list of rouge types, not the string {excerpt(rouge_types)}")
        self.rouge_types = list(DEFAULT_ROUGE_TYPES if rouge_types is None else rouge_types)
        for rouge_type in self.rouge_types:
            _method_for(rouge_type)  # an invalid type fails now, not at the first batch
        self.use_aggregator = use_aggregator
        self._scorer = RougeScorer(self.rouge_types, use_stemmer=use_stemmer, tokenizer=_tokenizer_object(tokenizer))
        if seed is not None and not isinstance(seed, bool) and hasattr(seed, "__index__"):
            seed = operator.index(seed)  # a NumPy integer too: evaluate's `metric.seed` is a numpy.uint32
        # Checked now too (seed, n_samples, confidence_interval), with BootstrapAggregator's messages.
        self._aggregator_settings = dict(confidence_interval=confidence_interval, n_samples=n_samples, seed=seed)
        BootstrapAggregator(**self._aggregator_settings)
        self._scores: list[dict[str, Score]] = []

    def update(self, predictions: Sequence, references: Sequence) -> None:
        """Score a batch: `references[i]` is the reference of `predictions[i]`, or a list of them
        (then the best F per rouge type counts, as rouge-score's `score_multi`)."""
        scorer = self._scorer
        batch = [scorer.score(reference, prediction) if isinstance(reference, _TEXT)
                 else scorer.score_multi(reference, prediction)
                 for prediction, reference in _checked_pairs(predictions, references)]
        self._scores.extend(batch)  # all or nothing: a bad pair leaves the accumulator as it was

    def add_batch(self, *, predictions: Sequence, references: Sequence) -> None:
        """`update`, under the name `evaluate` metrics use."""
        self.update(predictions, references)

    def compute(self) -> dict:
        """{rouge type: bootstrap median F} (use_aggregator; `aggregate="mean"`: the plain mean F)
        or {rouge type: [F per pair]}."""
        if not self._scores:
            raise ValueError("no pairs to compute ROUGE on: call update(predictions, references) first")
        if not self.use_aggregator:
            return {t: [s[t].fmeasure for s in self._scores] for t in self.rouge_types}
        if self.aggregate == "mean":
            return {t: aggregate_macro(s[t] for s in self._scores).fmeasure for t in self.rouge_types}
        aggregator = BootstrapAggregator(**self._aggregator_settings)
        for scores in self._scores:
            aggregator.add_scores(scores)
        return {t: float(interval.mid.fmeasure) for t, interval in aggregator.aggregate().items()}

    def reset(self) -> None:
        """Forget every pair added so far."""
        self._scores.clear()

    def __len__(self) -> int:
        """The number of pairs added since the last reset."""
        return len(self._scores)


def compute(predictions: Sequence, references: Sequence, rouge_types: Sequence[str] | None = None,
            use_aggregator: bool = True, use_stemmer: bool = False, tokenizer=None, *, aggregate: str | None = None,
            seed: int | None = 0, n_samples: int = 1000, confidence_interval: float = 0.95) -> dict:
    """`evaluate.load("rouge", seed=seed).compute(...)`'s numbers and format (see the module);
    `aggregate="mean"`: the plain mean F per type instead of the bootstrap median."""
    accumulator = RougeAccumulator(rouge_types, use_aggregator, use_stemmer, tokenizer, aggregate=aggregate, seed=seed,
                                   n_samples=n_samples, confidence_interval=confidence_interval)
    accumulator.update(predictions, references)
    return accumulator.compute()


# --- torchmetrics -------------------------------------------------------------------------------

TORCHMETRICS_KEYS = tuple(f"rouge{n}" for n in range(1, 10)) + ("rougeL", "rougeLsum")
ACCUMULATE = ("best", "avg")
SENTENCE_SPLITTERS = ("punkt", "newline")
_SCORE_PARTS = ("fmeasure", "precision", "recall")  # torchmetrics' order within each key


def punkt_sentences(text: str) -> list[str]:
    """`nltk.sent_tokenize(text)`: the sentences of NLTK's Punkt English model (its `punkt_tab`
    data), as torchmetrics splits a text for rougeLsum. A LookupError naming the download when
    the model is not installed."""
    _require_punkt()
    from nltk.tokenize import sent_tokenize

    return sent_tokenize(text)


def _require_punkt() -> None:
    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        raise LookupError(
            "rougeLsum splits sentences as torchmetrics does, with NLTK's Punkt English model, which is not "
            "installed: run python -m nltk.downloader punkt_tab (or pass sentence_splitter=\"newline\" to split at "
            "line breaks, as rouge-score does, or a function text -> sentences)") from None


def _sentence_splitter(splitter) -> Callable[[str], list[str]]:
    if callable(splitter):
        return splitter
    if splitter == "punkt":
        _require_punkt()  # now, not at the first rougeLsum
        return punkt_sentences
    if splitter == "newline":
        return lambda text: text.split("\n")
    raise ValueError(f"sentence_splitter must be one of {', '.join(map(repr, SENTENCE_SPLITTERS))} or a function "
                     f"text -> sentences, not {splitter!r}")


def _torchmetrics_pairs(preds, target) -> list[tuple[str, list[str]]]:
    """torchmetrics' reading of (preds, target): a str prediction with a list of str is one
    prediction and its references; a list of predictions with a list of str, one reference each;
    otherwise one list of references per prediction. Unlike torchmetrics (which zips), a length
    mismatch or a prediction without references is an error."""
    if isinstance(target, list) and all(isinstance(t, str) for t in target):
        target = [target] if isinstance(preds, str) else [[t] for t in target]
    if isinstance(preds, str):
        preds = [preds]
    if isinstance(target, str):
        target = [[target]]
    return [(pred, [refs] if isinstance(refs, str) else refs)
            for pred, refs in _checked_pairs(preds, target, ("preds", "target"), (str,), "prediction")]


class TorchmetricsRouge:
    """torchmetrics' `ROUGEScore`: `update(preds, target)` batch by batch, `compute()` the mean
    over every pair since the last `reset()` (see the module for the numbers).

        rouge = TorchmetricsRouge(use_stemmer=True, accumulate="avg")
        rouge.update(["My name is John"], [["Is your name John", "My name is Jon"]])
        rouge.compute()["rougeL_fmeasure"]
    """

    def __init__(self, use_stemmer: bool = False, normalizer: Callable[[str], str] | None = None,
                 tokenizer: Callable[[str], Sequence[str]] | None = None, accumulate: str = "best",
                 rouge_keys: str | Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"), *,
                 sentence_splitter: str | Callable[[str], Sequence[str]] = "punkt"):
        keys = (rouge_keys,) if isinstance(rouge_keys, str) else tuple(rouge_keys)
        for key in keys:
            if key not in TORCHMETRICS_KEYS:
                raise ValueError(f"Got unknown rouge key {key}. Expected to be one of {list(TORCHMETRICS_KEYS)}")
        if accumulate not in ACCUMULATE:
            raise ValueError(f"Got unknown accumulate value {accumulate}. Expected to be one of {ACCUMULATE}")
        for name, function in (("normalizer", normalizer), ("tokenizer", tokenizer)):
            if function is not None and not callable(function):
                raise TypeError(f"{name} must be a function or None, not {type(function).__name__}")
        self.rouge_keys = keys
        self.accumulate = accumulate
        self._stem = None
        if use_stemmer:
            from .text.stemming import get_stemmer

            self._stem = get_stemmer("porter")  # NLTK's Porter stemmer, on tokens longer than 3 characters
        self._normalizer, self._tokenizer = normalizer, tokenizer
        self._split = _sentence_splitter(sentence_splitter) if "rougeLsum" in keys else None
        self._values: dict[str, list[float]] = {f"{k}_{part}": [] for k in keys for part in _SCORE_PARTS}

    def tokens(self, text: str) -> list[str]:
        """torchmetrics' words of `text` (its `_normalize_and_tokenize_text`)."""
        text = self._normalizer(text) if self._normalizer is not None else re.sub(r"[^a-z0-9]+", " ", text.lower())
        tokens = self._tokenizer(text) if self._tokenizer is not None else re.split(r"\s+", text)
        if self._stem is not None:
            tokens = [self._stem(t) if isinstance(t, str) else t for t in tokens]
        return [t for t in tokens if isinstance(t, str) and t]

    def _scores(self, pred: str, ref: str) -> dict[str, tuple[float, float, float]]:
        """{key: (fmeasure, precision, recall)} of one prediction against one reference."""
        from .scorer.cost import UNBOUNDED
        from .scorer.scoring import score

        out = {}
        flat = [k for k in self.rouge_keys if k != "rougeLsum"]
        settings = dict(lowercase=False, evidence=False, cost_limit=UNBOUNDED)  # the words are torchmetrics'
        if flat:
            result = score(self.tokens(pred), [self.tokens(ref)], flat, "rouge-score", **settings)
            out.update({k: (result[k].fmeasure, result[k].precision, result[k].recall) for k in flat})
        if self._split is not None:
            sentences = [[self.tokens(s) for s in self._split(text)] for text in (pred, ref)]
            result = score(sentences[0], [sentences[1]], ["rougeLsum"], "rouge-score", **settings)["rougeLsum"]
            out["rougeLsum"] = (result.fmeasure, result.precision, result.recall)
        return out

    def update(self, preds: str | Sequence[str], target: str | Sequence[str] | Sequence[Sequence[str]]) -> None:
        """Score a batch (see `_torchmetrics_pairs` for the shapes torchmetrics reads)."""
        import numpy as np

        batch = {name: [] for name in self._values}
        for pred, refs in _torchmetrics_pairs(preds, target):
            per_reference = [self._scores(pred, ref) for ref in refs]
            for key in self.rouge_keys:
                if self.accumulate == "best":  # torch.argmax over float32 F-measures: the first highest
                    f32 = [np.float32(s[key][0]) for s in per_reference]
                    chosen = per_reference[f32.index(max(f32))][key]
                else:
                    chosen = tuple(math.fsum(s[key][i] for s in per_reference) / len(per_reference) for i in range(3))
                for part, value in zip(_SCORE_PARTS, chosen):
                    batch[f"{key}_{part}"].append(float(value))
        for name, values in batch.items():  # all or nothing: a bad pair leaves the accumulator as it was
            self._values[name].extend(values)

    def compute(self) -> dict[str, float]:
        """{`rouge1_fmeasure`, `rouge1_precision`, `rouge1_recall`, ...: the mean over the pairs}."""
        if not len(self):
            raise ValueError("no pairs to compute ROUGE on: call update(preds, target) first")
        # the exact sum, rounded once: the same on every Python and in any batch order
        return {name: math.fsum(values) / len(values) for name, values in self._values.items()}

    def per_pair(self) -> dict[str, list[float]]:
        """Each pair's values, in order (torchmetrics' metric states `rouge1_fmeasure`, ...)."""
        return {name: list(values) for name, values in self._values.items()}

    def reset(self) -> None:
        for values in self._values.values():
            values.clear()

    def __len__(self) -> int:
        """The number of pairs added since the last reset."""
        return len(next(iter(self._values.values())))


def torchmetrics_rouge(preds: str | Sequence[str], target: str | Sequence[str] | Sequence[Sequence[str]],
                       accumulate: str = "best", use_stemmer: bool = False,
                       normalizer: Callable[[str], str] | None = None,
                       tokenizer: Callable[[str], Sequence[str]] | None = None,
                       rouge_keys: str | Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"), *,
                       sentence_splitter: str | Callable[[str], Sequence[str]] = "punkt") -> dict[str, float]:
    """`torchmetrics.functional.text.rouge.rouge_score(...)`'s keys and numbers, as Python floats.

    >>> torchmetrics_rouge("My name is John", "Is your name John", rouge_keys=("rouge1", "rougeL"))
    {'rouge1_fmeasure': 0.75, 'rouge1_precision': 0.75, 'rouge1_recall': 0.75, 'rougeL_fmeasure': 0.5, 'rougeL_precision': 0.5, 'rougeL_recall': 0.5}
    """
    metric = TorchmetricsRouge(use_stemmer, normalizer, tokenizer, accumulate, rouge_keys,
                               sentence_splitter=sentence_splitter)
    metric.update(preds, target)
    return metric.compute()
