"""The reproducibility signature carried by every result, table, chart and export.

A `Signature` names everything that decides a number: the method, the profile label, every
option that can change a score (tokenization, stemming, stopwords and their content,
sentence splitting, limits, the data folder's content, the multi-reference mode, α,
rounding, the empty-input rule, and the options the method's family depends on, which the
family itself names: rouge_core.families.methods), the number of references and the version. Each
option's key, label and printed value are declared with the option (rouge_core.text.options
`Shown`); this module only puts them in order. Options
at their usual values are left out of the short form, so common signatures stay short; two
signatures differ whenever the scores can.

    short form  rougeL|profile:rouge-score|tok:rouge-score|lc:yes|stem:none|sw:none|split:newline|refs:2|multi:best-f|alpha:0.5|v:0.1.0
    long form   one "field: value" line each, for people

`Signature.parse(short)` reads a short form back into the same value.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

from ..errors import excerpt
from ..text.options import (LABEL, SCORE, STATISTICS, TOKENS, Options, data_dir_label, exact_number, fields_of, shown,
                            stopwords_label)
from ..version import __version__

if TYPE_CHECKING:
    from ..families.methods import Method

__all__ = ["VARIES", "Signature", "signature", "exact_number", "stopwords_label", "data_dir_label"]

VARIES = "varies"  # the reference count of a corpus whose pairs have different counts
_REFS = ("refs", "refs", "references")  # (Signature field, short key, label): the one part not an option


def _always(job: str) -> tuple[tuple[str, str, str], ...]:
    return tuple((name, shown(name).key, shown(name).label) for name in fields_of(job) if shown(name).always)


# (field, short key, label) of the always-present part, in order: the profile, how the texts
# became tokens, the references, how statistics became scores (rouge_core.text.options declares them)
_CORE = (*_always(LABEL), *_always(TOKENS), _REFS, *_always(SCORE))
# the options shown only when set away from their usual value, in declaration order; the
# STATISTICS options enter through the families that read them (Family.signature_parts)
_OPTIONAL = tuple(f.name for f in fields(Options) if not shown(f.name).always and f.name not in fields_of(STATISTICS))
_OPTIONAL_KEYS = {shown(name).key: shown(name).label for name in _OPTIONAL}
_VERSION = ("version", "v", "rouge_core version")


@dataclass(frozen=True)
class Signature:
    """Everything that decides a number (see the module docstring). `refs` is a count or
    "varies"; `family` holds the method family's own fields as (short key, value) pairs;
    `extra` the optional options that are set, as (short key, value) pairs."""

    method: str
    profile: str
    tokenizer: str
    lowercase: str
    stemmer: str
    stopwords: str
    sentence_split: str
    refs: str
    multi_ref: str
    alpha: str
    family: tuple[tuple[str, str], ...] = ()
    extra: tuple[tuple[str, str], ...] = ()
    version: str = __version__

    @classmethod
    def of(cls, method: "Method", options: "Options", n_refs: int | str) -> "Signature":
        core = {name: shown(name).text(getattr(options, name)) for name, _, _ in _CORE if name != _REFS[0]}
        extra = []
        for name in _OPTIONAL:
            spec, value = shown(name), getattr(options, name)
            if value != spec.usual and value is not False and (spec.applies is None or spec.applies(options)):
                extra.append((spec.key, spec.text(value)))
        rule = method.spec.f_rule  # the α its F is computed at (a family may fix its own: rouge_core.stats.FMeasureRule)
        alpha = rule.alpha(options)
        core["alpha"] = "rule" if alpha is None else shown("alpha").text(alpha)
        parts = [*method.spec.signature_parts(options), *filter(None, [rule.signature_part()])]
        family = tuple(tuple(part.split(":", 1)) for part in parts)
        return cls(method.name, **core, refs=str(n_refs), family=family, extra=tuple(extra))

    def with_refs(self, n_refs: int | str) -> "Signature":
        return replace(self, refs=str(n_refs))

    def _pairs(self) -> list[tuple[str, str, str]]:
        """(short key, label, value) in the short form's order."""
        out = [(key, label, getattr(self, field)) for field, key, label in _CORE]
        out += [(key, key, value) for key, value in self.family]
        out += [(key, _OPTIONAL_KEYS.get(key, key), value) for key, value in self.extra]
        out.append((_VERSION[1], _VERSION[2], self.version))
        return out

    @property
    def short(self) -> str:
        return "|".join([self.method, *(f"{key}:{value}" for key, _, value in self._pairs())])

    @property
    def long(self) -> str:
        return "\n".join([f"method: {self.method}", *(f"{label}: {value}" for _, label, value in self._pairs())])

    def __str__(self) -> str:
        return self.short

    @classmethod
    def parse(cls, text: str) -> "Signature":
        """The Signature whose short form is `text`; ValueError for anything else."""
        method, *parts = text.strip().split("|")
        fields: dict[str, str] = {}
        for part in parts:
            key, sep, value = part.partition(":")
            if not sep or key in fields:
                raise ValueError(f"not a ROUGE Lens signature: {excerpt(part)} in {excerpt(text)}")
            fields[key] = value
        core = {}
        for field, key, _label in _CORE:
            if key not in fields:
                raise ValueError(f"not a ROUGE Lens signature: {excerpt(key)} is missing from {excerpt(text)}")
            core[field] = fields.pop(key)
        if _VERSION[1] not in fields:
            raise ValueError(f"not a ROUGE Lens signature: the version is missing from {excerpt(text)}")
        version = fields.pop(_VERSION[1])
        # the order of the short form: family fields first, then the optional ones
        family = tuple((k, v) for k, v in fields.items() if k not in _OPTIONAL_KEYS)
        extra = tuple((k, v) for k, v in fields.items() if k in _OPTIONAL_KEYS)
        return cls(method, **core, family=family, extra=extra, version=version)


def signature(method: "Method", options: "Options", n_refs: int | str) -> str:
    """The short form of the signature of `method` under `options` with `n_refs` references
    (a count, or "varies" for a corpus)."""
    return Signature.of(method, options, n_refs).short
