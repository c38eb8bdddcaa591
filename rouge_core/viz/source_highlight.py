"""HTML of a summary against its source document (rouge_core.studies.source): each candidate word
marked by where it comes from, and the extractive fragments numbered on both texts. Built on
rouge_core.viz.highlight (user text escaped there; marks drawn on the text as typed)."""

from __future__ import annotations

from ..studies.source import Abstractiveness
from .highlight import PALETTE, TOKENS_SHOWN, Mark, _boxed, legend_html, render_marked

# One colour per origin (translucent, for light and dark pages alike), in the order of ORIGINS.
ORIGIN_COLOURS = {"both": "rgba(55,178,77,0.40)", "source": "rgba(51,154,240,0.40)",
                  "reference": "rgba(250,176,5,0.45)", "novel": "rgba(250,82,82,0.30)"}
ORIGIN_LABELS = {"both": "in the source and a reference", "source": "copied from the source only",
                 "reference": "in a reference only", "novel": "in neither (novel)"}
_UNDERLINES = {"both": "solid #2f9e44", "source": "solid #1c7ed6", "reference": "dashed #e67700",
               "novel": "dotted #e03131"}


def _origin_style(origin: str) -> str:
    return f"background:{ORIGIN_COLOURS[origin]};border-bottom:2px {_UNDERLINES[origin]};"


# The fragments' colours: the shared palette without its reds, which mark novel words in the origins view.
FRAGMENT_PALETTE = tuple(c for c in PALETTE if not c.startswith(("rgba(250,82,82", "rgba(230,73,128")))

ORIGIN_LEGEND = legend_html(*((_origin_style(o), ORIGIN_LABELS[o]) for o in ORIGIN_COLOURS))


def origins_html(result: Abstractiveness, tokens_shown: int | None = TOKENS_SHOWN) -> str:
    """The candidate with each word marked by its origin (the result must carry `origins`)."""
    if result.origins is None:
        raise ValueError("these statistics were computed without references: no word origins to draw")
    fragment_of = {}
    for k, f in enumerate(result.fragments, 1):
        for i in range(f.summary_start, f.summary_start + f.length):
            fragment_of[i] = (k, f.length)
    marks = {}
    for i, origin in enumerate(result.origins):
        where = fragment_of.get(i)
        detail = f"; fragment {where[0]} ({where[1]} tokens)" if where else ""
        marks[i] = Mark(f"rl-origin-{origin}", _origin_style(origin), f"{ORIGIN_LABELS[origin]}{detail}")
    return render_marked(result.candidate, marks, limit=tokens_shown)


def fragments_html(result: Abstractiveness, min_length: int = 1, tokens_shown: int | None = TOKENS_SHOWN,
                   source_height: str | None = None) -> tuple[str, str]:
    """The candidate and the source with every fragment of at least `min_length` tokens marked
    in its own colour and numbered on its first token, on both sides; the source's box scrolls
    past `source_height` (a CSS length) when given."""
    cand_marks, source_marks = {}, {}
    for k, f in enumerate(result.fragments, 1):
        if f.length < min_length:
            continue
        style = f"background:{FRAGMENT_PALETTE[(k - 1) % len(FRAGMENT_PALETTE)]};"
        title = f"fragment {k}: {f.length} token{'s' if f.length != 1 else ''}"
        for offset in range(f.length):
            badge = str(k) if offset == 0 else ""
            cand_marks[f.summary_start + offset] = Mark("rl-fragment", style, title, badge)
            source_marks[f.source_start + offset] = Mark("rl-fragment", style, title, badge)
    source_body = render_marked(result.source, source_marks, limit=tokens_shown, box=False)
    return render_marked(result.candidate, cand_marks, limit=tokens_shown), _boxed(source_body, source_height)
