"""The reproducibility signature carried by every result, table, chart and export."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .version import __version__
from .words import tokenizer_label

if TYPE_CHECKING:
    from .methods import Method
    from .options import Options


def _stopwords_label(spec) -> str:
    if isinstance(spec, frozenset):
        return f"custom{len(spec)}"
    return str(spec)


def signature(method: "Method", options: "Options", n_refs: int) -> str:
    """e.g. `rougeL|profile:rouge-score|tok:rouge-score|lc:yes|stem:none|sw:none|refs:2|multi:best-f|alpha:0.5|v:0.1.0`."""
    parts = [
        method.name,
        f"profile:{options.profile}",
        f"tok:{tokenizer_label(options.tokenizer)}",
        f"lc:{'yes' if options.lowercase else 'no'}",
        f"stem:{options.stemmer}",
        f"sw:{_stopwords_label(options.stopwords)}",
        f"split:{options.sentence_split}",
        f"refs:{n_refs}",
        f"multi:{options.multi_ref}",
        f"alpha:{options.alpha:g}",
    ]
    if options.language is not None:
        parts.append(f"lang:{options.language}")
    if options.strip_diacritics:
        parts.append("diacritics:strip")
    parts += method.spec.signature_parts(options)
    if options.round_pr is not None:
        parts.append(f"round:{options.round_pr}")
    parts.append(f"v:{__version__}")
    return "|".join(parts)
