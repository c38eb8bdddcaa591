"""ROUGE for training and evaluation loops: `compute` (Hugging Face `evaluate` style) and `RougeAccumulator`.

    import rouge_core

    rouge_core.compute(predictions=["hello there", "general kenobi"],
                       references=["hello there", "general kenobi"])
    # {'rouge1': 1.0, 'rouge2': 1.0, 'rougeL': 1.0, 'rougeLsum': 1.0}

    rouge = rouge_core.RougeAccumulator(use_stemmer=True)
    for batch in loader:
        rouge.update(model_outputs(batch), batch["summaries"])
    rouge.compute()     # the same dict as compute() over every pair seen
    rouge.reset()

The numbers and the output format are those of `evaluate.load("rouge").compute(...)`, which
scores each pair with rouge-score's RougeScorer (`score`, or `score_multi` when the pair's
references are a list) and, with `use_aggregator=True`, reports for each rouge type the `mid`
F-measure of rouge-score's BootstrapAggregator: the median of 1,000 bootstrap means, not the
plain mean. `evaluate` draws those resamples from NumPy's global generator, so its numbers
move from run to run; here they come from `seed` (default 0): the same call gives the same
numbers, equal to evaluate's after `numpy.random.seed(seed)`. `seed=None` draws from NumPy's
global generator as evaluate does. With `use_aggregator=False` each type maps to the list of
per-pair F-measures.

`tokenizer` is a callable `text -> list of tokens` (as evaluate takes it) or an object with a
`.tokenize(text)` method (as rouge-score takes it). Texts may be `str` or UTF-8 `bytes`.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from .errors import excerpt
from .compat.rouge_score.rouge_scorer import RougeScorer, _method_for
from .compat.rouge_score.scoring import BootstrapAggregator, Score

__all__ = ["DEFAULT_ROUGE_TYPES", "RougeAccumulator", "compute"]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
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


def _checked_pairs(predictions, references) -> list[tuple[object, object]]:
    """The (prediction, reference or list of references) pairs, or a ValueError / TypeError naming the problem."""
    predictions, references = _as_list(predictions, "predictions"), _as_list(references, "references")
    if len(predictions) != len(references):
        raise ValueError(f"predictions and references must have the same length: {len(predictions)} predictions, "
                         f"{len(references)} references")
    pairs = []
    for i, (prediction, reference) in enumerate(zip(predictions, references)):
        if not isinstance(prediction, _TEXT):
            raise TypeError(f"predictions[{i}] must be a str (or UTF-8 bytes), not {type(prediction).__name__}")
        if not isinstance(reference, _TEXT):
            if isinstance(reference, Mapping) or not isinstance(reference, Iterable):
                raise TypeError(f"references[{i}] must be a str or a list of str, not {type(reference).__name__}")
            reference = list(reference)
            if not reference:
                raise ValueError(f"references[{i}] is an empty list: each pair needs at least one reference")
            for j, text in enumerate(reference):
                if not isinstance(text, _TEXT):
                    raise TypeError(f"references[{i}][{j}] must be a str (or UTF-8 bytes), not {type(text).__name__}")
        pairs.append((prediction, reference))
    return pairs


class RougeAccumulator:
    """Collects per-pair scores batch by batch; `compute()` reports as `rouge_core.compute` would
    on every pair added since the last `reset()`. Only the scores are kept, not the texts."""

    def __init__(self, rouge_types: Sequence[str] | None = None, use_aggregator: bool = True, use_stemmer: bool = False,
                 tokenizer=None, *, seed: int | None = 0, n_samples: int = 1000, confidence_interval: float = 0.95):
        if isinstance(rouge_types, str):
            raise TypeError(f"rouge_types must be a list of rouge types, not the string {excerpt(rouge_types)}")
        self.rouge_types = list(DEFAULT_ROUGE_TYPES if rouge_types is None else rouge_types)
        for rouge_type in self.rouge_types:
            _method_for(rouge_type)  # an invalid type fails now, not at the first batch
        self.use_aggregator = use_aggregator
        self._scorer = RougeScorer(self.rouge_types, use_stemmer=use_stemmer, tokenizer=_tokenizer_object(tokenizer))
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
        """{rouge type: bootstrap median F} (use_aggregator) or {rouge type: [F per pair]}."""
        if not self._scores:
            raise ValueError("no pairs to compute ROUGE on: call update(predictions, references) first")
        if not self.use_aggregator:
            return {t: [s[t].fmeasure for s in self._scores] for t in self.rouge_types}
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
            use_aggregator: bool = True, use_stemmer: bool = False, tokenizer=None, *, seed: int | None = 0,
            n_samples: int = 1000, confidence_interval: float = 0.95) -> dict:
    """`evaluate.load("rouge").compute(...)`'s numbers and format, deterministic (see the module)."""
    accumulator = RougeAccumulator(rouge_types, use_aggregator, use_stemmer, tokenizer, seed=seed,
                                   n_samples=n_samples, confidence_interval=confidence_interval)
    accumulator.update(predictions, references)
    return accumulator.compute()
