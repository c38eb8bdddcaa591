"""HTML highlighting of ROUGE evidence on the user's own text.

Tokens keep character offsets, so marks are drawn on the text as typed (case, punctuation
and line breaks intact). Every piece of user text, and every title attribute, passes
through `html.escape` before it enters the HTML. Styles are inline so the snippets render
the same in Streamlit, a saved file or a test.

Colours work on light and dark backgrounds alike (Streamlit's light and dark themes, a saved
page): text keeps the colour of its surroundings (`color: inherit`), marks are translucent
tints that darken a dark page and lighten a light one, borders and secondary text are mid
tones or the text colour at reduced opacity, and boxes have no background of their own.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import singledispatch
from typing import Mapping, Sequence

from ..families.lcs import SentenceLcsEvidence, UnionLcsEvidence
from ..families.ngram import NgramEvidence
from ..text.document import Document
from ..families.wlcs import WlcsEvidence

# Translucent tints (alpha about 0.35-0.45) over whatever the page is: light text on a dark
# page and dark text on a light one both keep a contrast above 7:1 (tests/e2e checks it).
MATCHED_STYLE = "background:rgba(55,178,77,0.35);border-bottom:2px solid #2f9e44;"
CLIPPED_STYLE = "background:rgba(250,176,5,0.35);border-bottom:2px dashed #e67700;"
UNION_ONLY_STYLE = "background:rgba(134,142,150,0.3);border-bottom:2px dotted #868e96;"
PALETTE = ("rgba(51,154,240,0.4)", "rgba(250,82,82,0.4)", "rgba(64,192,87,0.4)", "rgba(250,176,5,0.4)",
           "rgba(151,117,250,0.4)", "rgba(253,126,20,0.4)", "rgba(21,170,191,0.4)", "rgba(230,73,128,0.4)",
           "rgba(130,201,30,0.4)", "rgba(190,75,219,0.4)")
TEXT_BOX_STYLE = (
    "white-space:pre-wrap;line-height:2.1;font-size:1rem;padding:0.6rem 0.8rem;"
    "border:1px solid rgba(128,128,128,0.45);border-radius:0.5rem;background:transparent;color:inherit;"
)
SECONDARY_TEXT_STYLE = "font-size:0.8rem;opacity:0.75;"  # the surrounding text colour, fainter
_MARK_BASE = "border-radius:3px;padding:1px 2px;color:inherit;"


@dataclass(frozen=True)
class Mark:
    """How one token is drawn: a CSS class (for tests and styling), its style, a hover text
    and an optional small badge (a pair or run number)."""

    css_class: str
    style: str
    title: str
    badge: str = ""


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def _render_range(doc: Document, marks: Mapping[int, Mark], first: int, last: int, char_start: int, char_end: int) -> str:
    """The text between char_start and char_end with tokens first..last-1 marked."""
    text = doc.text
    out: list[str] = []
    pos = char_start
    for i in range(first, last):
        tok = doc.tokens[i]
        start, end = max(tok.start, pos), max(tok.end, pos)
        out.append(esc(text[pos:start]))
        surface = esc(text[start:end])
        mark = marks.get(i)
        if mark is None:
            out.append(surface)
        else:
            badge = f'<sup style="font-size:0.65em;font-weight:600;margin-left:1px;">{esc(mark.badge)}</sup>' if mark.badge else ""
            out.append(
                f'<span class="{mark.css_class}" style="{_MARK_BASE}{mark.style}" title="{esc(mark.title)}">{surface}{badge}</span>'
            )
        pos = end
    out.append(esc(text[pos:char_end]))
    return "".join(out)


# A box given a height scrolls inside it: a 2,000-word text drawn in full is ~6,000 px tall,
# and would push what follows it off the first screens.
SCROLL_BOX_HEIGHT = "10rem"


def _boxed(body: str, max_height: str | None = None) -> str:
    if max_height is None:
        return f'<div class="rl-text" style="{TEXT_BOX_STYLE}">{body}</div>'
    # tabindex: a keyboard user can focus the box and scroll it with the arrow keys
    return (f'<div class="rl-text rl-scroll" tabindex="0" style="{TEXT_BOX_STYLE}max-height:{esc(max_height)};'
            f'overflow-y:auto;">{body}</div>')


def box_html(text: str, max_height: str | None = None) -> str:
    """A plain text in the same box as the highlighted ones (escaped); with `max_height` (a
    CSS length) the box scrolls past that height."""
    return _boxed(esc(text), max_height)


# A long text is drawn up to a sentence end near this many tokens: every mark is one or two
# elements, and two 2,000-token texts made 5,000-11,000 of them, which the browser took 1-2 s
# to sanitize and lay out. What is left out is said in the box; the scores count every token.
TOKENS_SHOWN = 1000


def drawn_tokens(doc: Document, limit: int | None = TOKENS_SHOWN) -> int:
    """How many leading tokens a bounded view draws: every token when there are at most
    `limit` (or no limit), else those up to the end of the last sentence that ends within
    `limit` (the first `limit` when the first sentence alone is longer)."""
    if limit is None or len(doc.tokens) <= limit:
        return len(doc.tokens)
    return max((end for _, end in doc.sentence_bounds if end <= limit), default=0) or limit


def render_marked(doc: Document, marks: Mapping[int, Mark], *, box: bool = True, limit: int | None = None) -> str:
    """The document with marks on the given token indices; with `limit`, only its first
    `drawn_tokens(doc, limit)` tokens, followed by a note of how many are left out."""
    shown = drawn_tokens(doc, limit)
    if shown == len(doc.tokens):
        body = _render_range(doc, marks, 0, shown, 0, len(doc.text))
    else:
        end = len(doc.text[:doc.tokens[shown].start].rstrip())
        body = (_render_range(doc, marks, 0, shown, 0, end)
                + f'<div class="rl-left-out" style="{SECONDARY_TEXT_STYLE}margin-top:0.4rem;">… the first {shown:,} of '
                  f"{len(doc.tokens):,} tokens are drawn; the other {len(doc.tokens) - shown:,} are left out here "
                  "and counted all the same.</div>")
    return _boxed(body) if box else body


def render_sentence(doc: Document, sentence: int, marks: Mapping[int, Mark]) -> str:
    first, last = doc.sentence_bounds[sentence]
    start, end = doc.sentence_spans[sentence]
    return _render_range(doc, marks, first, last, start, end)


def _gram_text(gram: tuple[str, ...]) -> str:
    return " ".join(gram)


# --- tokens --------------------------------------------------------------------------------

# Neighbouring tokens alternate two tints, so the words of a script written without spaces
# (Thai, Chinese, Japanese) show where one ends and the next begins.
TOKEN_STYLES = ("background:rgba(51,154,240,0.3);border-bottom:2px solid #1c7ed6;",
                "background:rgba(151,117,250,0.3);border-bottom:2px solid #7048e8;")


def tokens_html(doc: Document, limit: int | None = None, max_height: str | None = None) -> str:
    """The text as typed with every token marked (its term and offsets on hover) and the
    characters no token covers left plain; with `limit`, only the text up to the end of the
    first `limit` tokens; with `max_height`, in a box that scrolls past that height."""
    shown = len(doc.tokens) if limit is None else min(limit, len(doc.tokens))
    marks = {i: Mark("rl-token", TOKEN_STYLES[i % 2], f"token {i + 1}: “{tok.term}” at characters {tok.start}–{tok.end}")
             for i, tok in enumerate(doc.tokens[:shown])}
    end = len(doc.text) if shown == len(doc.tokens) else max(t.end for t in doc.tokens[:shown]) if shown else 0
    body = _render_range(doc, marks, 0, shown, 0, end)
    return _boxed(body + ("…" if end < len(doc.text) else ""), max_height)


# --- ROUGE-N -------------------------------------------------------------------------------


def ngram_marks(evidence: NgramEvidence, side: str) -> dict[int, Mark]:
    """Marks for one side ("candidate" or "reference") of ROUGE-N evidence.

    The first `matched` occurrences of an n-gram on each side count; later ones are
    clipped (they occur more often on this side than on the other). A token inside any
    counted occurrence is drawn as matched, one only inside clipped occurrences as clipped.
    """
    if side not in ("candidate", "reference"):
        raise ValueError("side must be 'candidate' or 'reference'")
    n = evidence.n
    matched_by: dict[int, list[str]] = {}
    clipped_by: dict[int, list[str]] = {}
    for m in evidence.matches:
        starts = m.cand_starts if side == "candidate" else m.ref_starts
        info = (f"“{_gram_text(m.ngram)}”: candidate {m.cand_count}×, reference {m.ref_count}×, "
                f"matched {m.matched}")
        for k, start in enumerate(starts):
            target = matched_by if k < m.matched else clipped_by
            note = info if k < m.matched else info + " (this occurrence is clipped: no partner left on the other side)"
            for i in range(start, start + n):
                target.setdefault(i, [])
                if note not in target[i]:
                    target[i].append(note)
    marks: dict[int, Mark] = {}
    for i, notes in clipped_by.items():
        marks[i] = Mark("rl-clipped", CLIPPED_STYLE, "\n".join(notes))
    for i, notes in matched_by.items():
        marks[i] = Mark("rl-matched", MATCHED_STYLE, "\n".join(notes + clipped_by.get(i, [])))
    return marks


def ngram_highlight_html(doc: Document, evidence: NgramEvidence, side: str, tokens_shown: int | None = TOKENS_SHOWN) -> str:
    """One side of ROUGE-N evidence drawn on its own text (up to `tokens_shown`, see render_marked)."""
    return render_marked(doc, ngram_marks(evidence, side), limit=tokens_shown)


# --- ROUGE-L -------------------------------------------------------------------------------


def _pair_mark(number: int, title: str) -> Mark:
    return Mark("rl-pair", f"background:{PALETTE[(number - 1) % len(PALETTE)]};", title, str(number))


def lcs_pair_marks(cand: Document, ref: Document, pairs) -> tuple[dict[int, Mark], dict[int, Mark]]:
    """Numbered, colour-matched marks for aligned (cand index, ref index) pairs."""
    cand_marks, ref_marks = {}, {}
    for number, (c, r) in enumerate(pairs, start=1):
        title = f"pair {number}: “{cand.tokens[c].term}” (candidate token {c + 1}) ↔ reference token {r + 1}"
        cand_marks[c] = _pair_mark(number, title)
        ref_marks[r] = _pair_mark(number, title)
    return cand_marks, ref_marks


def lcs_alignment_html(cand: Document, ref: Document, evidence: SentenceLcsEvidence,
                       tokens_shown: int | None = TOKENS_SHOWN) -> tuple[str, str]:
    """Sentence-level LCS: both texts with aligned pairs numbered and coloured alike (each up
    to `tokens_shown`, see render_marked)."""
    cand_marks, ref_marks = lcs_pair_marks(cand, ref, evidence.pairs)
    return render_marked(cand, cand_marks, limit=tokens_shown), render_marked(ref, ref_marks, limit=tokens_shown)


# Long texts have sentences × sentences alignments (80 × 80 made 15 MB of HTML): the view
# draws the first reference sentences and, in each, the longest LCSes, and says what it left
# out (30 × 5 still made 4,700 elements, over a second in the browser).
UNION_SENTENCES_SHOWN = 10
UNION_ALIGNMENTS_SHOWN = 3


def union_lcs_html(cand: Document, ref: Document, evidence: UnionLcsEvidence,
                   sentences_shown: int = UNION_SENTENCES_SHOWN, alignments_shown: int = UNION_ALIGNMENTS_SHOWN) -> str:
    """Summary-level LCS, one block per reference sentence: the LCS with each candidate
    sentence (pairs numbered), then the union and which of its tokens counted. At most
    `sentences_shown` blocks and, per block, the `alignments_shown` longest LCSes (in candidate
    order); the counts of what is left out are written where it would be."""
    blocks = []
    for s in evidence.sentences[:sentences_shown]:
        rows = []
        longest = sorted(range(len(s.alignments)), key=lambda k: -len(s.alignments[k][1]))[:alignments_shown]
        for c_sentence, pairs in (s.alignments[k] for k in sorted(longest)):
            cand_marks, ref_marks = lcs_pair_marks(cand, ref, pairs)
            rows.append(
                f'<div style="margin:0.2rem 0 0.4rem 0;"><div style="{SECONDARY_TEXT_STYLE}">'
                f"LCS with candidate sentence {c_sentence + 1}: {len(pairs)} token(s)</div>"
                f'<div><b style="{SECONDARY_TEXT_STYLE}">candidate:</b> {render_sentence(cand, c_sentence, cand_marks)}</div>'
                f'<div><b style="{SECONDARY_TEXT_STYLE}">reference:</b> {render_sentence(ref, s.ref_sentence, ref_marks)}</div></div>'
            )
        hits = set(s.hits)
        union_marks = {}
        for r in s.union:
            term = ref.tokens[r].term
            if r in hits:
                union_marks[r] = Mark("rl-matched", MATCHED_STYLE, f"“{term}” is in the union and counts as a hit")
            else:
                union_marks[r] = Mark("rl-clipped", CLIPPED_STYLE,
                                      f"“{term}” is in the union but not counted: no unused occurrence left")
        if not rows:
            rows.append(f'<div style="{SECONDARY_TEXT_STYLE}">no common token with any candidate sentence</div>')
        elif len(s.alignments) > len(rows):
            rows.append(f'<div style="{SECONDARY_TEXT_STYLE}">… and the LCS with {len(s.alignments) - len(rows)} more '
                        "candidate sentence(s), each no longer than those above; all of them enter the union below</div>")
        blocks.append(
            f'<div class="rl-union" style="{TEXT_BOX_STYLE}margin-bottom:0.5rem;">'
            f'<div style="font-weight:600;">Reference sentence {s.ref_sentence + 1}</div>{"".join(rows)}'
            f'<div style="{SECONDARY_TEXT_STYLE}">union of the LCSes ({len(s.union)} token(s), '
            f"{len(s.hits)} counted):</div><div>{render_sentence(ref, s.ref_sentence, union_marks)}</div></div>"
        )
    if not blocks:
        return f'<div style="{TEXT_BOX_STYLE}">The reference has no sentences.</div>'
    left_out = len(evidence.sentences) - len(blocks)
    if left_out > 0:
        blocks.append(f'<div style="{SECONDARY_TEXT_STYLE}">The first {len(blocks)} of {len(evidence.sentences)} reference '
                      f"sentences are drawn; the other {left_out} count the same way (the hits above include them).</div>")
    return "".join(blocks)


# --- ROUGE-W -------------------------------------------------------------------------------


def wlcs_runs_html(cand: Document, ref: Document, evidence: WlcsEvidence,
                   tokens_shown: int | None = TOKENS_SHOWN) -> tuple[str, str]:
    """ROUGE-W: each run of consecutive matches in its own colour, numbered by run (each text
    up to `tokens_shown`, see render_marked)."""
    cand_marks, ref_marks = {}, {}
    for number, run in enumerate(evidence.runs, start=1):
        k = len(run.ref_positions)
        words = " ".join(ref.tokens[r].term for r in run.ref_positions)
        title = f"run {number}: “{words}”, {k} consecutive token(s), weight {k}^{evidence.w:g} = {run.weight:.3f}"
        mark = Mark("rl-run", f"background:{PALETTE[(number - 1) % len(PALETTE)]};", title, f"r{number}")
        for c in run.cand_positions:
            cand_marks[c] = mark
        for r in run.ref_positions:
            ref_marks[r] = mark
    return render_marked(cand, cand_marks, limit=tokens_shown), render_marked(ref, ref_marks, limit=tokens_shown)


def page_html(title: str, sections: Sequence[tuple[str, str]], signature: str = "") -> str:
    """A standalone page of highlighted views (the whole of a view the app draws bounded):
    each (heading, markup) section under its heading; the title, headings and signature are
    escaped here, the markup comes from this module's builders (already escaped)."""
    body = "".join(f"<h2>{esc(heading)}</h2>{markup}" for heading, markup in sections)
    sig = f'<p style="{SECONDARY_TEXT_STYLE}">{esc(signature)}</p>' if signature else ""
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{esc(title)}</title></head>'
            f'<body style="font-family:sans-serif;max-width:60rem;margin:1rem auto;"><h1>{esc(title)}</h1>{sig}{body}'
            "</body></html>")


def legend_html(*items: tuple[str, str]) -> str:
    """A one-line legend: (style, label) pairs."""
    parts = [
        f'<span style="{_MARK_BASE}{style}margin-right:0.8rem;font-size:0.85rem;">{esc(label)}</span>' for style, label in items
    ]
    return f'<div class="rl-legend" style="margin:0.2rem 0 0.5rem 0;">{"".join(parts)}</div>'


NGRAM_LEGEND = legend_html(
    (MATCHED_STYLE, "matched"),
    (CLIPPED_STYLE, "clipped: occurs more often here than on the other side"),
)


# --- one family's evidence on the candidate, whatever the family -----------------------------
# Each evidence type registers its view (a new method family registers its own, in its own
# module: `@candidate_view.register`); the app draws any family's evidence through this, and
# a family whose evidence has no view is shown by its matched words (lens_app.compare_ui).
@singledispatch
def candidate_view(evidence, cand: Document, ref: Document) -> tuple[str, str] | None:
    """The candidate as HTML with `evidence` marked, and a note on what is marked; None for
    an evidence type without a view."""
    return None


@candidate_view.register
def _(evidence: NgramEvidence, cand: Document, ref: Document) -> tuple[str, str]:
    return ngram_highlight_html(cand, evidence, "candidate"), "matched n-grams marked"


@candidate_view.register
def _(evidence: SentenceLcsEvidence, cand: Document, ref: Document) -> tuple[str, str]:
    return lcs_alignment_html(cand, ref, evidence)[0], "the LCS with the reference, pairs numbered"


@candidate_view.register
def _(evidence: UnionLcsEvidence, cand: Document, ref: Document) -> tuple[str, str]:
    return union_lcs_html(cand, ref, evidence), "per reference sentence, its LCS with each summary sentence"


@candidate_view.register
def _(evidence: WlcsEvidence, cand: Document, ref: Document) -> tuple[str, str]:
    return wlcs_runs_html(cand, ref, evidence)[0], "runs of consecutive matches, numbered"


def has_candidate_view(evidence_type: type | None) -> bool:
    """Whether evidence of this type has its own view (`candidate_view`)."""
    return evidence_type is not None and candidate_view.dispatch(evidence_type) is not candidate_view.dispatch(object)
