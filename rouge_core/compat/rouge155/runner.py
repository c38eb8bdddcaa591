"""Running an evaluation: documents -> per-model counts (engine155) -> per-document values
-> bootstrap averages. The command line and `evaluate` both end here."""

from __future__ import annotations

import functools
import inspect
import re
import sys
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from . import bootstrap
from .errors import Rouge155Error
from .flags import NO_COST_LIMIT, Options
from .results import DocumentScore, Estimate, MetricResult, Report
from .scoring import Metric, TokenlessModel, Totals, combine, metrics_for, rounded_rpf
from rouge_core.basic_elements import be_units, unit_stats
from rouge_core.cost import UNBOUNDED, CostLimitError
from rouge_core.engine155 import Counts
from rouge_core.limits import limit_spans, perl_lcs_byte_spans

Warn = Callable[[str], None]


@dataclass(frozen=True)
class Source:
    """One summary: where it came from (for messages) and its sentences as bytes."""

    name: str
    sentences: tuple[bytes, ...]


@dataclass(frozen=True)
class Document:
    eval_id: str
    peer: Source
    models: tuple[Source, ...]


def stderr_warn(message: str) -> None:
    print(message, file=sys.stderr)


def _default_scorer():
    from rouge_core.engine155 import document_counts

    return document_counts


def _cut(sentences: Sequence[bytes], options: Options, *, lcs_reader: bool = False) -> list[str]:
    """The sentences as readText (or, with `lcs_reader`, readText_LCS) keeps them under -l / -b.

    latin-1 maps each byte to one character: byte counts stay, and non-ASCII bytes stay
    non-ASCII, so they only ever separate tokens (the script's byte semantics)."""
    lines = [s.decode("latin-1") for s in sentences]
    spans, pos = [], 0
    for line in lines:
        spans.append((pos, pos + len(line)))
        pos += len(line)
    text = "".join(lines)
    if lcs_reader and options.byte_limit and not options.word_limit:
        spans = perl_lcs_byte_spans(text, spans, options.byte_limit, encoding="latin-1")
    else:
        spans = limit_spans(text, spans, words=options.word_limit or None, byte_limit=options.byte_limit or None,
                            encoding="latin-1")
    return [text[a:b] for a, b in spans]


def _be_counts(doc: Document, options: Options, data_dir: str) -> list[Counts]:
    """Per model, the Basic Element unit counts (hit, model, peer) of computeBEScore."""
    def units(source: Source):
        lines = [line.decode("latin-1") for line in source.sentences]
        return be_units(lines, options.be_mode, stem=options.stem, data_dir=data_dir, source=source.name)

    peer = units(doc.peer)
    rows = []
    for model in doc.models:
        stats, _ = unit_stats(peer, units(model))
        rows.append(Counts(stats.hits, stats.ref_total, stats.cand_total))
    return rows


def _document_totals(doc: Document, metrics: list[Metric], options: Options, data_dir: str,
                     scorer) -> dict[str, Totals]:
    if options.be_mode is not None:  # -3: Basic Elements are the only metric (flags.py)
        try:
            per_model = _be_counts(doc, options, data_dir)
        except ValueError as exc:
            raise Rouge155Error(str(exc)) from None
        return {metric.name: combine(metric, per_model, options) for metric in metrics}
    peer_ng = _cut(doc.peer.sentences, options)
    models_ng = [_cut(m.sentences, options) for m in doc.models]
    lcs_peer = lcs_models = None
    if options.byte_limit:  # the -b defect: L and W see other sentences than the rest
        lcs_peer = _cut(doc.peer.sentences, options, lcs_reader=True)
        lcs_models = [_cut(m.sentences, options, lcs_reader=True) for m in doc.models]
    try:
        counts = scorer(
            peer_ng, models_ng,
            max_n=options.max_n,
            skip_distance=options.skip_distance,
            skip_unigrams=options.skip_unigrams or options.skip_unigrams_and_plain,
            skip_also_plain=not options.skip_unigrams,
            wlcs_weight=options.weight,
            stem=options.stem, stopwords=options.remove_stopwords, data_dir=data_dir,
            lcs_peer_sentences=lcs_peer, lcs_model_docs=lcs_models,
        )
    except CostLimitError as exc:
        raise Rouge155Error(f"{doc.peer.name}: " + exc.message(f"run again with {NO_COST_LIMIT} to lift the bound",
                                                               scope="document")) from None
    totals = {}
    for metric in metrics:
        per_model = counts[metric.engine_key(list(counts))]
        try:
            totals[metric.name] = combine(metric, per_model, options)
        except TokenlessModel as exc:
            name = doc.models[exc.model_index].name
            raise Rouge155Error(
                f"{name}: this reference has no tokens, so ROUGE-W is undefined for it "
                "(ROUGE-1.5.5 dies with 'Illegal division by zero'); drop -w or the reference") from None
    return totals


def _by_eval_id(a: str, b: str) -> int:
    # The script's -d order: numeric prefixes compared as numbers, otherwise as strings.
    ma, mb = re.match(r"[0-9]+", a), re.match(r"[0-9]+", b)
    if ma and mb and int(ma.group()) != int(mb.group()):
        return -1 if int(ma.group()) < int(mb.group()) else 1
    return (a > b) - (a < b)


def _metric_result(peer_id: str, metric: Metric, docs: list[tuple[str, Totals]],
                   options: Options) -> MetricResult:
    scores = {}
    for eval_id, totals in docs:
        test_id = f"{eval_id}.{peer_id}"
        r, p, f = rounded_rpf(metric, totals, options)
        scores[test_id] = DocumentScore(eval_id, test_id, float(r), float(p), float(f),
                                        totals.model, totals.peer, totals.hit)
    string_order = [scores[k] for k in sorted(scores)]  # computeAverages' order
    model = peer = hit = 0
    for d in string_order:
        model += d.model_count
        peer += d.peer_count
        hit += d.hit_count
    estimates: list[Estimate | None] = [None, None, None]
    if options.counting in (0, 1):
        pooled = options.counting == 1
        triples = [((d.model_count, d.peer_count, d.hit_count) if pooled
                    else (d.recall, d.precision, d.f)) for d in string_order]
        columns = bootstrap.resample_means(triples, options.resamples, pooled, options.alpha)
        for i, values in enumerate(columns):
            s = bootstrap.summarize(values, options.confidence)
            estimates[i] = Estimate(s.mean, s.low, s.high)
    print_order = sorted(scores, key=functools.cmp_to_key(_by_eval_id))
    return MetricResult(peer_id, metric.name, *estimates, int(model), int(peer), int(hit),
                        tuple(scores[k] for k in print_order))


def run(documents: Mapping[str, Sequence[Document]], options: Options, data_dir: str,
        scorer=None) -> Report:
    """Score every peer's documents; `documents` maps peer id -> its documents, in report order."""
    if scorer is None:
        scorer = _default_scorer()
        if "cost_limit" in inspect.signature(scorer).parameters:  # (a test may put its oracle here)
            scorer = functools.partial(scorer, cost_limit=UNBOUNDED if options.no_cost_limit else None)
    metrics = metrics_for(options)
    results = []
    for peer_id, docs in documents.items():
        per_doc = [(d.eval_id, _document_totals(d, metrics, options, data_dir, scorer)) for d in docs]
        for metric in metrics:
            results.append(_metric_result(
                peer_id, metric, [(e, t[metric.name]) for e, t in per_doc], options))
    return Report(options, tuple(results))
