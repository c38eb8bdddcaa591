"""How the tokenizer reads the user's own text: the Learn page's tokenization section.

The text is drawn as typed with each token marked (rouge_core.viz.highlight.tokens_html,
escaped there), then a table of every word as typed with the tokens made from it, their
offsets and the characters no token covers (rouge_core.teach.explain.tokenization_view, cached in
lens_app.compute). A language written without spaces shows one row per phrase, cut into its
words, so a user sees why two languages, or two tokenizers, score the same text differently.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import rouge_core
from rouge_core.text.document import Document
from rouge_core.text.languages import label as language_label
from rouge_core.viz import highlight
from rouge_core.text.words import TOKENIZER_LABELS, tokenizer_label

from . import compute
from .display import show_table
from .markup import md

MAX_TOKENS_DRAWN = 2000  # a longer text is drawn up to its 2,000th token; the table has every word
TOKENS_BOX_HEIGHT = "18rem"  # the marked text scrolls inside a box of this height, the table follows it


def settings_text(options: rouge_core.Options) -> str:
    """The settings that decide the tokens, in words (Markdown; the values are the app's own,
    but a user's tokenizer name is escaped)."""
    name = tokenizer_label(options.tokenizer)
    parts = [f"tokenizer **{md(TOKENIZER_LABELS.get(name, name))}**"]
    if options.language is not None:
        parts.append(f"language **{md(language_label(options.language))}**")
    if options.strip_diacritics:
        parts.append("Arabic and Hebrew diacritics stripped")
    parts.append("lower-cased" if options.lowercase else "case kept")
    if options.stemmer != "none":
        parts.append(f"stemmer `{options.stemmer}`")
    if options.stopwords != "none":
        parts.append("stopwords removed")
    return ", ".join(parts)


def table_rows(rows: list[dict]) -> list[dict]:
    """tokenization_view's rows for a table: tokens in quotes (a space token stays visible),
    offsets as start–end."""
    return [{"as typed": r["as typed"], "start": r["start"], "end": r["end"], "tokens": len(r["tokens"]),
             "made into": " ".join(f"“{t}”" for t in r["tokens"]),
             "offsets": " ".join(f"{a}–{b}" for a, b in r["offsets"]), "dropped": r["dropped"]}
            for r in rows]


def render_text(title: str, text: str, doc: Document, options: rouge_core.Options, key: str) -> None:
    """One text: marked tokens, then the word-by-word table."""
    st.markdown(f"**{title}**: {len(doc.tokens):,} tokens")
    st.html(highlight.tokens_html(doc, MAX_TOKENS_DRAWN, max_height=TOKENS_BOX_HEIGHT))
    if len(doc.tokens) > MAX_TOKENS_DRAWN:
        st.caption(f"Drawn up to token {MAX_TOKENS_DRAWN:,}; the table below has every word.")
    rows = table_rows(compute.tokenization(text, options))
    columns = ["as typed", "start", "end", "tokens", "made into", "offsets", "dropped"]
    show_table(pd.DataFrame(rows, columns=columns), key=key)


def render(candidate: str, reference: str, ref_title: str, cand_doc: Document, ref_doc: Document,
           options: rouge_core.Options) -> None:
    st.markdown(
        "Every method counts **tokens**, and the tokenizer decides what a token is. Below, your texts as typed with "
        "each token marked (neighbouring tokens alternate colours; hover for the token and its character offsets), "
        "and, for every word between spaces, the tokens made from it and the characters no token covers "
        "(punctuation, or letters this tokenizer drops). A language written without spaces, such as Thai, Chinese "
        "or Japanese, shows one row per phrase, cut into its words.")
    st.caption(f"Read with {settings_text(options)}. Change the tokenizer, language or profile in the sidebar to "
               "see the same text split another way.")
    render_text("Candidate", candidate, cand_doc, options, "learn_tokens_candidate")
    render_text(ref_title, reference, ref_doc, options, "learn_tokens_reference")
