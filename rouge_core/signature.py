"""The reproducibility signature carried by every result, table, chart and export.

A `Signature` names everything that decides a number: the method, the profile label, every
option that can change a score (tokenization, stemming, stopwords and their content,
sentence splitting, limits, the data folder's content, the multi-reference mode, α,
rounding, the empty-input rule, and the options the method's family depends on, which the
family itself names: rouge_core.methods), the number of references and the version. Options
at their usual values are left out of the short form, so common signatures stay short; two
signatures differ whenever the scores can.

    short form  rougeL|profile:rouge-score|tok:rouge-score|lc:yes|stem:none|sw:none|split:newline|refs:2|multi:best-f|alpha:0.5|v:0.1.0
    long form   one "field: value" line each, for people

`Signature.parse(short)` reads a short form back into the same value.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import excerpt
from .version import __version__
from .words import tokenizer_label

if TYPE_CHECKING:
    from .methods import Method
    from .options import Options

VARIES = "varies"  # the reference count of a corpus whose pairs have different counts

# (field, short key, label) of the always-present part, in order
_CORE = (
    ("method", None, "method"),
    ("profile", "profile", "profile"),
    ("tokenizer", "tok", "tokenizer"),
    ("lowercase", "lc", "lower-case"),
    ("stemmer", "stem", "stemmer"),
    ("stopwords", "sw", "stopwords"),
    ("sentence_split", "split", "sentence splitting"),
    ("refs", "refs", "references"),
    ("multi_ref", "multi", "several references"),
    ("alpha", "alpha", "alpha (F weight)"),
)
# options shown only when set away from their usual value: (field, short key, label, usual)
_OPTIONAL = (
    ("language", "lang", "language", None),
    ("strip_diacritics", "diacritics", "diacritics", False),
    ("round_pr", "round", "P and R rounded to", None),
    ("empty", "empty", "empty sides score", "zero"),
    ("limit_words", "words", "word limit (-l)", None),
    ("limit_bytes", "bytes", "byte limit (-b)", None),
    ("lcs_byte_limit_defect", "lcsbytes", "ROUGE-1.5.5's -b defect for L and W", None),
    ("data_dir", "data", "data folder (content)", None),
)
_SHOWN = {"data_dir": lambda value: data_dir_label(value), "strip_diacritics": lambda value: "strip",
          "lcs_byte_limit_defect": lambda value: "yes"}
_VERSION = ("version", "v", "rouge_core version")


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def exact_number(value: float) -> str:
    """A number as a signature prints it: short (`0.2`, `1`) where that reads back as the same
    float, else every digit (`0.37174721189591076`, α of β = 1.3), so the signature
    reproduces the number it stands for."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def stopwords_label(spec) -> str:
    """"none", "smart", or "custom<count>:<content hash>" for the user's own words."""
    if isinstance(spec, frozenset):
        return f"custom{len(spec)}:{_digest(chr(10).join(sorted(spec)))}"
    return str(spec)


@lru_cache(maxsize=16)
def data_dir_label(data_dir: str) -> str:
    """The content of a data folder's files that change scores (stopwords, exception lists)."""
    from .resources import DATA_FILES

    h = hashlib.sha256()
    for name in DATA_FILES:
        path = Path(data_dir) / name
        h.update(name.encode())
        h.update(path.read_bytes() if path.is_file() else b"(missing)")
    return h.hexdigest()[:8]


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
        extra = []
        for field, key, _label, usual in _OPTIONAL:
            value = getattr(options, field)
            if field == "lcs_byte_limit_defect" and not options.limit_bytes:
                continue  # the defect changes nothing without a byte limit
            if value != usual and value is not False:
                extra.append((key, _SHOWN[field](value) if field in _SHOWN else str(value)))
        family = tuple(tuple(part.split(":", 1)) for part in method.spec.signature_parts(options))
        return cls(method.name, options.profile, tokenizer_label(options.tokenizer), _yes_no(options.lowercase),
                   str(options.stemmer),
                   stopwords_label(options.stopwords), options.sentence_split, str(n_refs), options.multi_ref,
                   exact_number(options.alpha), family, tuple(extra))

    def with_refs(self, n_refs: int | str) -> "Signature":
        from dataclasses import replace

        return replace(self, refs=str(n_refs))

    def _pairs(self) -> list[tuple[str, str, str]]:
        """(short key, label, value) in the short form's order."""
        labels = {key: label for _, key, label, _ in _OPTIONAL}
        out = [(key, label, getattr(self, field)) for field, key, label in _CORE[1:]]
        out += [(key, key, value) for key, value in self.family]
        out += [(key, labels.get(key, key), value) for key, value in self.extra]
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
        for field, key, _label in _CORE[1:]:
            if key not in fields:
                raise ValueError(f"not a ROUGE Lens signature: {excerpt(key)} is missing from {excerpt(text)}")
            core[field] = fields.pop(key)
        if _VERSION[1] not in fields:
            raise ValueError(f"not a ROUGE Lens signature: the version is missing from {excerpt(text)}")
        version = fields.pop(_VERSION[1])
        optional = {key for _, key, _, _ in _OPTIONAL}
        # the order of the short form: family fields first, then the optional ones
        family = tuple((k, v) for k, v in fields.items() if k not in optional)
        extra = tuple((k, v) for k, v in fields.items() if k in optional)
        return cls(method, **core, family=family, extra=extra, version=version)


def signature(method: "Method", options: "Options", n_refs: int | str) -> str:
    """The short form of the signature of `method` under `options` with `n_refs` references
    (a count, or "varies" for a corpus)."""
    return Signature.of(method, options, n_refs).short
