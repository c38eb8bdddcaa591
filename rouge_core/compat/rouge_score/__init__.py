"""A drop-in for Google's rouge-score package, on rouge_core: replace `rouge_score` by
`rouge_core.compat.rouge_score` in the imports and nothing else.

    from rouge_core.compat.rouge_score import rouge_scorer, scoring
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    aggregator = scoring.BootstrapAggregator(seed=0)
    for target, prediction in pairs:
        aggregator.add_scores(scorer.score(target, prediction))
    aggregator.aggregate()["rougeL"].mid.fmeasure

Modules, as in rouge-score 0.1.2:

- `rouge_scorer`: `RougeScorer(rouge_types, use_stemmer, split_summaries, tokenizer)`;
- `scoring`: `Score`, `AggregateScore`, `BaseScorer`, `BootstrapAggregator` (with an
  optional `seed`), `fmeasure`;
- `tokenize`: `tokenize(text, stemmer)`;
- `tokenizers`: `Tokenizer`, `DefaultTokenizer`;
- `io`: `compute_scores_and_write_to_csv`.

`from rouge_core.compat.rouge_score import RougeScorer` keeps working.
"""

import importlib

from . import rouge_scorer, scoring, tokenize, tokenizers
from .rouge_scorer import RougeScorer, uses_punkt
from .scoring import Score

__all__ = ["RougeScorer", "Score", "io", "rouge_scorer", "scoring", "tokenize", "tokenizers", "uses_punkt"]


def __getattr__(name: str):
    # `io` (files, globbing, logging) loads when first used, not with `import rouge_core`.
    if name == "io":
        return importlib.import_module(f"{__name__}.io")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
