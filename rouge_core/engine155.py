"""ROUGE-1.5.5's per-document counts, for the `rouge155` command-line drop-in.

The command line (rouge_core.compat.rouge155) reads configs and files, cuts texts to
`-l`/`-b`, and forms the report; this module gives it, per metric and model, the same
(hit, model count, peer count) triples the Perl script accumulates, from the one scoring
core every other front door uses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cost import CostLimit, check_call
from .methods import Method, compute
from .options import profile
from .document import Document
from .tokenize import tokenize

_FORMS = profile("rouge-1.5.5")  # the ROUGE-W and ROUGE-SU forms the script computes


@dataclass(frozen=True)
class Counts:
    """What ROUGE-1.5.5 accumulates for one (peer, model) pair and one metric.

    For ROUGE-W, `hit` is the weighted hit total, `model` is f(Σ f(|r_i|)) and `peer` is
    f(|c|) — the quantities the script sums under `-f A`.
    """

    hit: float
    model: float
    peer: float


def _document(sentences: list[str], *, stem: bool, stopwords: bool, data_dir: str | None) -> Document:
    # One sentence per line; the script skips empty lines, which `tokenize` does too.
    return tokenize(
        "\n".join(s.replace("\n", " ") for s in sentences),
        tokenizer="rouge155",
        stemmer="rouge155" if stem else "none",
        stopwords="smart" if stopwords else "none",
        sentence_split="newline",
        data_dir=data_dir,
    )


def metric_methods(max_n: int, skip_distance: int | None, skip_unigrams: bool, skip_also_plain: bool,
                   wlcs_weight: float | None, with_lcs: bool = True) -> dict[str, Method]:
    """{printed metric name: Method} in the order the script reports them."""
    methods = {f"ROUGE-{n}": Method("N", n=n) for n in range(1, max_n + 1)}
    if with_lcs:
        methods["ROUGE-L"] = Method("Lsum")
    if wlcs_weight is not None:
        m = Method("W", weight=wlcs_weight)
        methods[m.rouge155_name] = m
    if skip_distance is not None:
        distance = None if skip_distance < 0 else skip_distance
        if skip_also_plain or not skip_unigrams:
            m = Method("S", distance=distance)
            methods[m.rouge155_name] = m
        if skip_unigrams:
            m = Method("SU", distance=distance)
            methods[m.rouge155_name] = m
    return methods


def document_counts(
    peer_sentences: list[str],
    model_docs: list[list[str]],
    *,
    max_n: int,
    skip_distance: int | None,
    skip_unigrams: bool,
    skip_also_plain: bool,
    wlcs_weight: float | None,
    stem: bool,
    stopwords: bool,
    data_dir: str | None,
    lcs_peer_sentences: list[str] | None = None,
    lcs_model_docs: list[list[str]] | None = None,
    with_lcs: bool = True,
    cost_limit: CostLimit | None = None,
) -> dict[str, list[Counts]]:
    """Per metric (named as the script prints it), one Counts per model, in model order.

    `lcs_peer_sentences` / `lcs_model_docs` reproduce the `-b` defect: the script's ROUGE-L
    and ROUGE-W reader never advances its byte counter, so L and W compare whole sentences
    while clipping and the peer count come from the cut text.

    The document's cost (every metric against every model) is checked against
    `cost_limit` (None: the default bound) before anything is scored: CostLimitError.
    """
    prep = dict(stem=stem, stopwords=stopwords, data_dir=data_dir)
    peer = _document(peer_sentences, **prep)
    peer_lcs = _document(lcs_peer_sentences, **prep) if lcs_peer_sentences is not None else None
    models = [_document(m, **prep) for m in model_docs]
    models_lcs = [_document(m, **prep) for m in lcs_model_docs] if lcs_model_docs is not None else [None] * len(models)
    if peer_lcs is not None:
        peer = replace(peer, lcs_view=peer_lcs)
    models = [m if v is None else replace(m, lcs_view=v) for m, v in zip(models, models_lcs)]
    methods = metric_methods(max_n, skip_distance, skip_unigrams, skip_also_plain, wlcs_weight, with_lcs)
    # the -b defect's L/W view holds whole sentences: at least the cut text, so it bounds both
    check_call(tuple(methods.values()), peer.lcs_view or peer, [m.lcs_view or m for m in models], _FORMS, False,
               cost_limit)
    out: dict[str, list[Counts]] = {}
    for name, method in methods.items():
        rows = []
        for model in models:
            stats, _ = compute(method, peer, model, _FORMS, evidence=False)
            rows.append(Counts(stats.hits, stats.ref_total, stats.cand_total))
        out[name] = rows
    return out
