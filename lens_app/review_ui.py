"""Streamlit pieces the Review and "Which ROUGE agrees with your annotators?" pages share: the
judgements database and corpora reopened from it (a reload, a link, another annotator's
browser)."""

from __future__ import annotations

import logging
import re
import sqlite3

import streamlit as st

from rouge_core.corpus_io import Corpus

from . import corpus_ui as ui
from . import navigation
from .display import show_table
from .review_store import ReviewStore, configured_path

CORPUS_PARAM = "corpus"  # the URL parameter holding the fingerprint of the corpus under review
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")
_STORED_KEY = "_corpora_stored"  # fingerprints this session has put into the database
_LINK_READ_KEY = "_corpus_link_read"


def open_store() -> ReviewStore:
    """The configured judgements database; stops the page with a message (never the path)
    when it cannot be opened."""
    try:
        return ReviewStore(configured_path(st.secrets.to_dict() if st.secrets.load_if_toml_exists() else None))
    except (OSError, sqlite3.Error):
        logging.getLogger(__name__).exception("cannot open the judgements database")
        st.error("The judgements database cannot be opened, so judgements cannot be saved. Whoever runs this server "
                 "sets its location (ROUGE_LENS_DB or judgements_db in .streamlit/secrets.toml; see the README).")
        st.stop()


def load_stored(store: ReviewStore, fingerprint: str) -> bool:
    """Make the stored corpus with this fingerprint the current one; False when there is none."""
    corpus = store.corpus(fingerprint) if _FINGERPRINT.fullmatch(fingerprint or "") else None
    if corpus is None:
        return False
    st.session_state[ui.CORPUS_KEY] = corpus
    return True


def corpus_from_link(store: ReviewStore) -> None:
    """Once per session: the corpus named in the URL (a reload, a shared link) becomes the
    current one, unless it already is."""
    if st.session_state.get(_LINK_READ_KEY):
        return
    st.session_state[_LINK_READ_KEY] = True
    fingerprint = st.query_params.get(CORPUS_PARAM, "")
    current = ui.current_corpus()
    if not fingerprint or (current is not None and current.fingerprint() == fingerprint):
        return
    if not load_stored(store, fingerprint):
        st.warning("The corpus named in this link is not in the judgements database; load it again below.")
        del st.query_params[CORPUS_PARAM]


def remember(store: ReviewStore, corpus: Corpus) -> str:
    """Store the corpus with the judgements (once per session) and name it in the URL, so a
    reload or another annotator's browser reopens it. Returns its fingerprint."""
    stored = st.session_state.setdefault(_STORED_KEY, set())
    fingerprint = corpus.fingerprint()
    if fingerprint not in stored:
        store.save_corpus(corpus)
        stored.add(fingerprint)
    st.query_params[CORPUS_PARAM] = fingerprint
    return fingerprint


def stored_corpora(store: ReviewStore, key: str) -> None:
    """The corpora in the database, with their judgements, and a way to reopen one."""
    corpora = store.corpora()
    if not corpora:
        return
    st.subheader("Corpora with judgements")
    import pandas as pd

    frame = pd.DataFrame(corpora)
    show_table(frame.drop(columns=["fingerprint"]), key=f"{key}_stored_corpora")
    labels = {c["fingerprint"]: f"{c['name'] or 'corpus'} · {c['pairs']} pairs · {c['judgements']} judgement(s)"
              for c in corpora}
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    chosen = c1.selectbox("Reopen a stored corpus", list(labels), format_func=labels.get,
                          key=f"{key}_reopen_choice")
    if c2.button("Open", key=f"{key}_reopen", type="primary") and load_stored(store, chosen):
        st.rerun()



def link_to_meta() -> None:
    """A link to the page that correlates every ROUGE variant with the judgements."""
    try:
        st.page_link(str(navigation.APP_ROOT / navigation.script("meta")), label="Which ROUGE agrees with your annotators? Correlate every ROUGE "
                     "variant with these judgements", icon=":material/insights:")
    except st.errors.StreamlitAPIException:  # the page runs outside the app's router (a test)
        st.caption("Which ROUGE agrees with your annotators? See the page of that name.")
