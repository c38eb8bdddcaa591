"""rouge_core: every ROUGE variant, exact against the tools people use, with its evidence.

`score` (one candidate, its references, the methods, a profile), `score_corpus` (many pairs,
macro / micro / bootstrap), `compute` and `RougeAccumulator` (Hugging Face `evaluate`'s
format, for training loops); drop-ins for other tools under `rouge_core.compat`. Never
imports Streamlit. `rouge_core.accelerated` is True when the compiled kernels compute
(rouge_core.kernels.native: same numbers as the pure-Python path, bit for bit; ROUGE_LENS_PURE=1
forces the pure path).
"""

import importlib
import sys

from .corpora.corpus import CorpusResult, score_corpus
from .scorer.cost import DEFAULT_COST_LIMIT, UNBOUNDED, CostEstimate, CostLimit, CostLimitError
from .frameworks import RougeAccumulator, compute
from .families.methods import Method, parse_method
from .text.options import MULTI_REF_MODES, PROFILES, Options, profile
from .params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT, ParameterRange
from .scorer.scoring import (DEFAULT_METHODS, NO_EVIDENCE, EvidenceNotComputedError, MethodScore, ReferenceScore,
                             Result, score, score_documents)
from .stats import Interval, Score, Stats, f_measure
from .text.document import Document, Token, pretokenized
from .text import tokenize as _tokenize_module
from .text.tokenize import tokenize
from .version import __version__
from .kernels import native
from ._moved import MOVED_MODULES as _MOVED_MODULES, install as _install_old_paths

__all__ = [
    "CorpusResult", "CostEstimate", "CostLimit", "CostLimitError", "DEFAULT_COST_LIMIT", "DEFAULT_METHODS", "Document",
    "EvidenceNotComputedError", "Interval", "MULTI_REF_MODES", "Method", "MethodScore", "NGRAM_N", "NO_EVIDENCE",
    "Options", "PROFILES", "ParameterRange",
    "ReferenceScore", "Result", "RougeAccumulator", "SKIP_DISTANCE", "Score", "Stats", "Token", "UNBOUNDED",
    "WLCS_WEIGHT", "accelerated", "compute", "f_measure", "parse_method", "pretokenized", "profile", "score",
    "score_corpus", "score_documents", "tokenize", "__version__",
]


_install_old_paths()  # rouge_core.<name>, a module's path before issue 28, imports the moved module (deprecated)

# `rouge_core.tokenize` is the function above; as an import path it is the module, as it always was:
# registered here, so that importing that path cannot rebind the package's attribute to the module.
sys.modules.setdefault(f"{__name__}.tokenize", _tokenize_module)


def __getattr__(name: str):
    if name == "accelerated":  # read at each access: tests switch paths with native.pure()
        return native.active()
    if name in _MOVED_MODULES:  # rouge_core.cost.estimate(...) after `import rouge_core`, as before the move
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'rouge_core' has no attribute {name!r}")
