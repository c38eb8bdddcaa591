"""The metrics of a run, and from one document's per-model counts to its per-document values.

Both follow rouge_core.scorer.rules155 (ROUGE-1.5.5's rules, which the `rouge-1.5.5` profile uses
too): the metrics and their print order come from `report_methods`, and a document's models
are combined by the profile's own multi-reference step (`-f A` pools the counts, `-f B`
keeps the model the script keeps), with P, R and F as printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rouge_core.text.options import Options
from rouge_core.scorer.rules155 import report_methods
from rouge_core.scorer.scoring import MethodScore, ReferenceScore, combine_references, score_from_stats
from rouge_core.stats import Stats

from .flags import Flags


@dataclass(frozen=True)
class Metric:
    """One reported metric: the name the script prints, and the method that computes it
    (a rouge_core Method, or a BasicElementMethod under -3)."""

    name: str
    method: object


def metrics_for(flags: Flags) -> list[Metric]:
    """The metrics in the script's print order (rouge_core.scorer.rules155.report_methods), named as
    it prints them: -w and -2 values as typed (`-w 1.20`: ROUGE-W-1.20)."""
    methods = report_methods(
        flags.max_n, lcs=not flags.no_lcs and flags.be_mode is None, weight=flags.weight,
        skip_distance=flags.skip_distance, skip_unigrams=flags.skip_unigrams,
        skip_unigrams_and_plain=flags.skip_unigrams_and_plain, basic_elements=flags.be_mode)
    typed = {"W": flags.weight_text, "S": flags.skip_distance_text, "SU": flags.skip_distance_text}
    return [Metric(m.spec.rouge155_name(m.value, typed[m.family]) if m.family in typed else m.rouge155_name, m)
            for m in methods]


class TokenlessModel(Exception):
    """ROUGE-W of a model without tokens: the script dies with a division by zero."""

    def __init__(self, model_index: int) -> None:
        super().__init__(model_index)
        self.model_index = model_index


def combine(metric: Metric, per_model: Sequence[Stats], options: Options) -> MethodScore:
    """One document's value of `metric`: its `stats` (pooled, or the kept model's) and its
    `score` (R, P, F as printed), by the profile's multi-reference step."""
    if metric.method.family == "W":
        for index, stats in enumerate(per_model):
            if stats.ref_total == 0:
                raise TokenlessModel(index)
    rule = metric.method.spec.f_rule
    refs = [ReferenceScore(index, stats, score_from_stats(stats, options, rule)) for index, stats in enumerate(per_model)]
    return combine_references(metric.method, refs, options, "")  # the report carries no signature
