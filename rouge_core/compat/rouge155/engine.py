"""ROUGE-1.5.5's per-model counts for the `rouge155` drop-in.

The runner reads configs and files, cuts texts to `-l`/`-b`, and forms the report; this
module gives it, per metric and model, the counts the Perl script accumulates (a
rouge_core `Stats`: hits, peer count, model count; see rouge_core.scorer.rules155), from the one
scoring core every other front door uses, under the run's `rouge-1.5.5` Options.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from rouge_core.scorer.cost import CostLimit, check_call
from rouge_core.text.document import Document
from rouge_core.families.methods import Method, compute
from rouge_core.text.options import Options
from rouge_core.scorer.scoring import prepare
from rouge_core.stats import Stats


def _document(sentences: list[str], options: Options) -> Document:
    # One sentence per line; the script skips empty lines, which tokenizing does too.
    return prepare("\n".join(s.replace("\n", " ") for s in sentences), options)


def document_counts(
    peer_sentences: list[str],
    model_docs: list[list[str]],
    methods: Sequence[Method],
    options: Options,
    *,
    lcs_peer_sentences: list[str] | None = None,
    lcs_model_docs: list[list[str]] | None = None,
    cost_limit: CostLimit | None = None,
) -> dict[Method, list[Stats]]:
    """Per method, one Stats per model, in model order.

    `lcs_peer_sentences` / `lcs_model_docs` reproduce the `-b` defect: the script's ROUGE-L
    and ROUGE-W reader never advances its byte counter, so L and W compare whole sentences
    while clipping and the peer count come from the cut text.

    The document's cost (every method against every model) is checked against
    `cost_limit` (None: the default bound) before anything is scored: CostLimitError.
    """
    # the runner has cut the texts to -l / -b already (and made the -b defect's view)
    options = options.replace(sentence_split="newline", limit_words=None, limit_bytes=None,
                              lcs_byte_limit_defect=False, profile=options.profile)
    peer = _document(peer_sentences, options)
    models = [_document(m, options) for m in model_docs]
    if lcs_peer_sentences is not None:
        peer = replace(peer, lcs_view=_document(lcs_peer_sentences, options))
    if lcs_model_docs is not None:
        models = [replace(m, lcs_view=_document(v, options)) for m, v in zip(models, lcs_model_docs)]
    methods = tuple(methods)
    # the -b defect's L/W view holds whole sentences: at least the cut text, so it bounds both
    check_call(methods, peer.lcs_view or peer, [m.lcs_view or m for m in models], options, False, cost_limit)
    return {method: [compute(method, peer, model, options, evidence=False)[0] for model in models]
            for method in methods}
