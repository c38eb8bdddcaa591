"""Running an evaluation: documents -> per-model counts (engine) -> per-document values
(scoring, by rouge_core.scorer.rules155) -> bootstrap averages. The command line and `evaluate` both
end here."""

from __future__ import annotations

import functools
import inspect
import re
import sys
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from . import bootstrap
from .errors import Rouge155Error
from .flags import NO_COST_LIMIT, Flags
from .results import DocumentScore, MetricResult, Report
from .scoring import Metric, TokenlessModel, combine, metrics_for
from rouge_core.scorer.basic_elements import be_units, unit_stats
from rouge_core.scorer.cost import UNBOUNDED, CostLimitError, check_resampling, rouge155_bootstrap_estimate
from rouge_core.text.limits import limit_spans, perl_lcs_byte_spans
from rouge_core.text.options import Options
from rouge_core.scorer.scoring import MethodScore
from rouge_core.stats import Stats

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
    from .engine import document_counts

    return document_counts


def _cut(sentences: Sequence[bytes], options: Options, *, lcs_reader: bool = False) -> list[str]:
    """The sentences as readText (or, with `lcs_reader`, readText_LCS) keeps them under -l / -b
    (`options.limit_words` / `limit_bytes`).

    latin-1 maps each byte to one character: byte counts stay, and non-ASCII bytes stay
    non-ASCII, so they only ever separate tokens (the script's byte semantics)."""
    lines = [s.decode("latin-1") for s in sentences]
    spans, pos = [], 0
    for line in lines:
        spans.append((pos, pos + len(line)))
        pos += len(line)
    text = "".join(lines)
    if lcs_reader and options.limit_bytes and not options.limit_words:
        spans = perl_lcs_byte_spans(text, spans, options.limit_bytes, encoding="latin-1")
    else:
        spans = limit_spans(text, spans, words=options.limit_words or None, byte_limit=options.limit_bytes or None,
                            encoding="latin-1")
    return [text[a:b] for a, b in spans]


def _be_counts(doc: Document, mode: str, options: Options) -> list[Stats]:
    """Per model, the Basic Element unit counts of computeBEScore."""
    def units(source: Source):
        lines = [line.decode("latin-1") for line in source.sentences]
        return be_units(lines, mode, stem=options.stemmer == "rouge155", data_dir=options.data_dir,
                        source=source.name)

    peer = units(doc.peer)
    return [unit_stats(peer, units(model))[0] for model in doc.models]


def _document_values(doc: Document, metrics: list[Metric], flags: Flags, options: Options,
                     scorer) -> dict[str, MethodScore]:
    if flags.be_mode is not None:  # -3: Basic Elements are the only metric (flags.py)
        try:
            per_model = _be_counts(doc, flags.be_mode, options)
        except ValueError as exc:
            raise Rouge155Error(str(exc)) from None
        return {metric.name: combine(metric, per_model, options) for metric in metrics}
    peer_ng = _cut(doc.peer.sentences, options)
    models_ng = [_cut(m.sentences, options) for m in doc.models]
    lcs_peer = lcs_models = None
    if options.limit_bytes:  # the -b defect: L and W see other sentences than the rest
        lcs_peer = _cut(doc.peer.sentences, options, lcs_reader=True)
        lcs_models = [_cut(m.sentences, options, lcs_reader=True) for m in doc.models]
    try:
        counts = scorer(peer_ng, models_ng, [metric.method for metric in metrics], options,
                        lcs_peer_sentences=lcs_peer, lcs_model_docs=lcs_models)
    except CostLimitError as exc:
        raise Rouge155Error(f"{doc.peer.name}: " + exc.message(f"run again with {NO_COST_LIMIT} to lift the bound",
                                                               scope="document")) from None
    values = {}
    for metric in metrics:
        try:
            values[metric.name] = combine(metric, counts[metric.method], options)
        except TokenlessModel as exc:
            name = doc.models[exc.model_index].name
            raise Rouge155Error(
                f"{name}: this reference has no tokens, so ROUGE-W is undefined for it "
                "(ROUGE-1.5.5 dies with 'Illegal division by zero'); drop -w or the reference") from None
    return values


def _by_eval_id(a: str, b: str) -> int:
    # The script's -d order: numeric prefixes compared as numbers, otherwise as strings.
    ma, mb = re.match(r"[0-9]+", a), re.match(r"[0-9]+", b)
    if ma and mb and int(ma.group()) != int(mb.group()):
        return -1 if int(ma.group()) < int(mb.group()) else 1
    return (a > b) - (a < b)


def _metric_result(peer_id: str, metric: Metric, docs: list[tuple[str, MethodScore]],
                   flags: Flags) -> MetricResult:
    scores = {}
    for eval_id, value in docs:
        test_id = f"{eval_id}.{peer_id}"
        s, counts = value.score, value.stats
        scores[test_id] = DocumentScore(eval_id, test_id, s.recall, s.precision, s.fmeasure,
                                        counts.ref_total, counts.cand_total, counts.hits)
    string_order = [scores[k] for k in sorted(scores)]  # computeAverages' order
    model = peer = hit = 0
    for d in string_order:
        model += d.model_count
        peer += d.peer_count
        hit += d.hit_count
    estimates: list = [None, None, None]
    if flags.counting in (0, 1):
        pooled = flags.counting == 1
        triples = [((d.model_count, d.peer_count, d.hit_count) if pooled
                    else (d.recall, d.precision, d.f)) for d in string_order]
        columns = bootstrap.resample_means(triples, flags.resamples, pooled, flags.options.alpha)
        estimates = [bootstrap.summarize(values, flags.confidence) for values in columns]
    print_order = sorted(scores, key=functools.cmp_to_key(_by_eval_id))
    return MetricResult(peer_id, metric.name, *estimates, int(model), int(peer), int(hit),
                        tuple(scores[k] for k in print_order))


def _check_bootstrap(documents: Mapping[str, Sequence[Document]], metrics: list, flags: Flags) -> None:
    """Rouge155Error, before anything is scored, when the run's bootstrap (-r resamples of each
    peer's documents, three columns per metric and peer) is estimated above the cost bound
    (rouge_core.scorer.cost.rouge155_bootstrap_estimate); --no-cost-limit lifts it."""
    if flags.counting not in (0, 1) or flags.no_cost_limit or not documents:
        return
    instances = max(len(docs) for docs in documents.values())
    estimate = rouge155_bootstrap_estimate(instances, flags.resamples, 3 * len(metrics) * len(documents))
    try:
        check_resampling(estimate, None, advice="give -r fewer resamples")
    except CostLimitError as exc:
        raise Rouge155Error(exc.message(f"run again with {NO_COST_LIMIT} to lift the bound", scope="run")) from None


def run(documents: Mapping[str, Sequence[Document]], flags: Flags, data_dir: str,
        scorer=None) -> Report:
    """Score every peer's documents; `documents` maps peer id -> its documents, in report order.

    `data_dir` is the data directory found for the run (data_dir.resolve_data_dir); it
    becomes the run's Options' own. `scorer` (the engine's `document_counts` by default)
    gives per method one Stats per model: scorer(peer sentences, model sentence lists,
    methods, options, lcs_peer_sentences=..., lcs_model_docs=...)."""
    options = flags.options.replace(data_dir=data_dir, profile=flags.options.profile)
    if scorer is None:
        scorer = _default_scorer()
        if "cost_limit" in inspect.signature(scorer).parameters:  # (a test may put its oracle here)
            scorer = functools.partial(scorer, cost_limit=UNBOUNDED if flags.no_cost_limit else None)
    metrics = metrics_for(flags)
    _check_bootstrap(documents, metrics, flags)
    results = []
    for peer_id, docs in documents.items():
        per_doc = [(d.eval_id, _document_values(d, metrics, flags, options, scorer)) for d in docs]
        for metric in metrics:
            results.append(_metric_result(
                peer_id, metric, [(e, values[metric.name]) for e, values in per_doc], flags))
    return Report(flags, tuple(results))
