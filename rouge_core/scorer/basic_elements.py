"""ROUGE-BE: Basic Elements scoring on pre-extracted BE files, exactly as ROUGE-1.5.5's `-3`.

A Basic Element is a `head|modifier|relation` triple (BEs extracted from parse trees, e.g.
by ISI's BE breakers; `NIL` marks an empty slot). A BE file in ROUGE-1.5.5's SIMPLE format
holds one triple per line:

    gilbert|hurricane|nn
    swept|dominican republic|toward

ROUGE Lens scores such files; it does not extract BEs from raw text. The scoring is the
script's (read from its `createBE`, `MorphStemMulti` and `getBEScore`):

- each line is lower-cased (ASCII letters only, the script works on bytes) and split at
  `|` with Perl's rule (trailing empty fields dropped); anything but three fields is an
  error naming the line;
- with stemming (`-m`, stemmer "rouge155"), a head or modifier longer than 3 bytes has each
  of its white-space separated words that holds a letter or digit replaced by its WordNet-2.0
  exception or its Porter stem (words of any length; white space runs become one space);
  the relation is never stemmed;
- the mode decides which triples count and as what unit:

  | mode | counts | unit |
  |---|---|---|
  | H    | modifier is NIL | head |
  | HM   | modifier is not NIL | head\\|modifier |
  | HMR  | relation is not NIL | head\\|modifier\\|relation |
  | HM1  | every triple | head\\|modifier |
  | HMR1 | modifier is not NIL | head\\|modifier\\|relation |
  | HMR2 | every triple | head\\|modifier\\|relation |

- hits are clipped unit counts (min of the two sides), precision divides by the
  candidate's unit count, recall by the reference's: ROUGE-N's statistics over units.

One quirk is kept because the script has it: in mode H a head spelled `_cn_` collides with
the script's own count key, so it adds two to the count and never matches.

`score_basic_elements(candidate, references, mode, options)` scores one candidate's BE text
against its references' under a profile's Options ("rouge-1.5.5" by default: references
pooled as `-f A`, P and R rounded to 5 decimals before F); it returns a MethodScore with
the matched units of each reference as evidence. The `rouge155` command line uses the same
functions for `-3`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..families.be_method import BE_MODES, BasicElementError, BasicElementMethod, check_mode
from ..errors import excerpt
from ..text.limits import perl_whitespace_split
from ..text.options import Options
from ..text.porter155 import porter_stem
from ..text.resources import exception_table
from .scoring import NO_EVIDENCE, MethodScore, ReferenceScore, combine_references, resolve_options, score_from_stats
from .signature import signature
from ..stats import Stats

__all__ = ["BE_MODES", "BasicElementError", "BasicElementEvidence", "BasicElementMethod", "BeUnits", "be_lines",
           "be_units", "score_basic_elements", "unit_stats"]

_COUNT_KEY = "_cn_"  # the script keeps a map's unit total under this key, beside the units
_STEMMERS = ("none", "rouge155")


@dataclass(frozen=True)
class BeUnits:
    """One BE text's units (as the script keys them) with their counts, and its unit total."""

    counts: dict[str, int]
    total: int


@dataclass(frozen=True)
class BasicElementEvidence:
    """Units on both sides of one (candidate, reference) pair: (unit, candidate count,
    reference count, matched = the clipped count), matched units first."""

    units: tuple[tuple[str, int, int, int], ...]

    @property
    def matches(self) -> tuple[tuple[str, int, int, int], ...]:
        return tuple(u for u in self.units if u[3])


def be_lines(data: bytes | str) -> list[str]:
    """The lines of a SIMPLE BE file as the script reads them (each line without its final
    newline; a last line without one counts), one character per byte (latin-1)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    parts = data.decode("latin-1").split("\n")
    if parts[-1] == "":
        parts.pop()
    return parts


def _perl_fields(line: str) -> list[str]:
    """Perl's split(/\\|/, $line): trailing empty fields dropped (so "" has no field)."""
    fields = line.split("|")
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def _stem_words(phrase: str, table: dict[str, str]) -> str:
    """MorphStemMulti: each word with a letter or digit becomes its exception or Porter stem."""
    words = perl_whitespace_split(phrase)
    out = []
    for word in words:
        # The script also skips words containing -LRB- / -RRB- / -LSB- / -RSB- / -LCB- / -RCB-,
        # but compares them upper-case after lower-casing the line, so no word is ever skipped.
        if any(c.isascii() and c.isalnum() for c in word):
            word = table.get(word) or porter_stem(word)
        out.append(word)
    return " ".join(out)


def be_units(lines: Sequence[str], mode: str, *, stem: bool = False, data_dir: str | None = None,
             source: str = "BE text") -> BeUnits:
    """The units `mode` counts in a BE text's lines (from `be_lines`), as the script's createBE."""
    check_mode(mode)
    table = exception_table(data_dir) if stem else {}
    counts: Counter = Counter()
    total = 0
    for number, raw in enumerate(lines, 1):
        line = raw.translate(_ASCII_LOWER)
        fields = _perl_fields(line)
        if len(fields) != 3:
            shown = raw.encode("latin-1").decode("utf-8", "replace")
            raise BasicElementError(f"{source}, line {number}: {excerpt(shown)} is not a Basic Element: a BE line is "
                                    f"HEAD|MODIFIER|RELATION (3 fields, found {len(fields)})")
        head, modifier, relation = fields
        if stem:
            if len(head) > 3:
                head = _stem_words(head, table)
            if len(modifier) > 3:
                modifier = _stem_words(modifier, table)
        if mode == "H":
            unit = head if modifier == "nil" else None
        elif mode == "HM":
            unit = f"{head}|{modifier}" if modifier != "nil" else None
        elif mode == "HMR":
            unit = f"{head}|{modifier}|{relation}" if relation != "nil" else None
        elif mode == "HM1":
            unit = f"{head}|{modifier}"
        elif mode == "HMR1":  # the script tests the modifier as read, before stemming
            unit = f"{head}|{modifier}|{relation}" if fields[1] != "nil" else None
        else:  # HMR2
            unit = f"{head}|{modifier}|{relation}"
        if unit is None:
            continue
        if unit == _COUNT_KEY:
            total += 2  # the script's count key incremented twice, no unit kept
            continue
        counts[unit] += 1
        total += 1
    return BeUnits(dict(counts), total)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def unit_stats(candidate: BeUnits, reference: BeUnits, evidence: bool = False
               ) -> tuple[Stats, BasicElementEvidence | None]:
    """Clipped unit hits (getBEScore) with the candidate's and the reference's unit totals."""
    hits = 0
    for unit, ref_count in reference.counts.items():
        cand_count = candidate.counts.get(unit)
        if cand_count:
            hits += cand_count if cand_count <= ref_count else ref_count
    stats = Stats(hits, candidate.total, reference.total)
    if not evidence:
        return stats, None
    units = []
    for unit in dict.fromkeys([*reference.counts, *candidate.counts]):
        c, r = candidate.counts.get(unit, 0), reference.counts.get(unit, 0)
        units.append((_shown(unit), c, r, min(c, r)))
    units.sort(key=lambda u: u[3] == 0)  # matched first, each group in reading order
    return stats, BasicElementEvidence(tuple(units))


def _shown(unit: str) -> str:
    return unit.encode("latin-1").decode("utf-8", "replace")


def score_basic_elements(candidate: bytes | str, references: bytes | str | Sequence[bytes | str], mode: str = "HM",
                         options: Options | str = "rouge-1.5.5", *, evidence: bool = False,
                         **overrides) -> MethodScore:
    """ROUGE-BE of a candidate's BE text against its references' BE texts (SIMPLE format).

    `options` is a profile name or Options; it supplies how references combine (`multi_ref`:
    "pooled" is ROUGE-1.5.5's -f A, "best-recall" its -f B), `alpha`, `round_pr` and the
    stemmer ("none", or "rouge155" for -m). BE units are always lower-cased as the script
    does, whatever the tokenizer settings. `evidence=True` keeps each reference's units
    (`BasicElementEvidence`); without it `ReferenceScore.evidence` is `NO_EVIDENCE`, as in `score`.
    """
    opts = resolve_options(options, overrides)
    if opts.stemmer not in _STEMMERS:
        raise BasicElementError(f"Basic Elements are stemmed as ROUGE-1.5.5 does or not at all: stemmer must be "
                                f"one of {', '.join(_STEMMERS)}, not {excerpt(opts.stemmer)}")
    method = BasicElementMethod(mode)
    if isinstance(references, (bytes, str)):
        references = [references]
    stem = opts.stemmer == "rouge155"
    cand = be_units(be_lines(candidate), mode, stem=stem, data_dir=opts.data_dir, source="candidate")
    per_ref = []
    for index, reference in enumerate(references):
        ref = be_units(be_lines(reference), mode, stem=stem, data_dir=opts.data_dir, source=f"reference {index + 1}")
        stats, ev = unit_stats(cand, ref, evidence)
        per_ref.append(ReferenceScore(index, stats, score_from_stats(stats, opts, method.spec.f_rule),
                                      ev if evidence else NO_EVIDENCE))
    return combine_references(method, per_ref, opts, signature(method, opts, len(per_ref)))
