"""Streamlit pieces the Review and "Which ROUGE agrees with your annotators?" pages share: the
judgements database, where it is configured, corpora reopened from it (a reload, a link,
another annotator's browser) and whether its judgements were primed by ROUGE highlights.

Opening either page writes nothing: a corpus goes into the database with its first judgement
(pages/review.py), and only then does the page address name it."""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import replace

import streamlit as st

from rouge_core.corpora.corpus_io import Corpus

from . import corpus_ui as ui
from . import navigation
from . import review_tasks as rt
from .display import show_table
from .identity import Viewer, display_names, server_secrets
from .markup import md
from .review_store import ENV_VAR, SECRET_KEY, ReviewStore, StoreError, configured_location

CORPUS_PARAM = "corpus"  # the URL parameter holding the fingerprint of the corpus under review
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")
_LINK_READ_KEY = "_corpus_link_read"
_SEEDS_KEY = "_review_unstored_seeds"  # {annotator: seed} drawn in this session, stored with a first judgement

# Where the database is, in words (never the path: the page is public, the server's paths are not).
CONFIGURED_BY = {
    "environment": f"the judgements database set by the environment variable `{ENV_VAR}`",
    "secrets": f"the judgements database set by `{SECRET_KEY}` in this server's `.streamlit/secrets.toml`",
    "data directory": (f"the judgements database in this server's data directory for ROUGE Lens (the default; "
                       f"`{ENV_VAR}` or `{SECRET_KEY}` in `.streamlit/secrets.toml` choose another)"),
    "earlier default": ("the judgements database earlier versions of ROUGE Lens made in the server account's home "
                        "directory (used while the data directory has none; the README says how to move it)"),
    "argument": "the judgements database this server was started with",
}


def open_store() -> ReviewStore:
    """The configured judgements database; stops the page with a message (never the path,
    URL or password) when it cannot be opened."""
    try:
        return ReviewStore(location=configured_location(server_secrets() or None))
    except (OSError, StoreError) as exc:
        # the log too names neither path nor URL: a StoreError never holds them, an OSError is summed up
        logging.getLogger(__name__).error("cannot open the judgements database: %s",
                                          exc if isinstance(exc, StoreError) else type(exc).__name__)
        st.error("The judgements database cannot be opened, so judgements cannot be saved. Whoever runs this server "
                 f"sets its location (`{ENV_VAR}` or `{SECRET_KEY}` in `.streamlit/secrets.toml`: a SQLite file or a "
                 "PostgreSQL URL; see the README).")
        st.stop()


def where_stored(store: ReviewStore) -> str:
    """Which setting decided where the judgements are (Markdown, without the path or URL)."""
    said = CONFIGURED_BY[store.location.configured_by]
    if store.kind == "postgresql":
        return said.replace("the judgements database", "the PostgreSQL judgements database", 1) + (
            " (shared by every app server set up with it)")
    return said


def names_shown(store: ReviewStore, viewer: Viewer, keys) -> dict[str, str]:
    """{annotator key: the name the page shows}: accounts' names with logins, typed names
    without."""
    return display_names(keys, store.accounts() if viewer.team else {})


def shown_frame(store: ReviewStore, viewer: Viewer, frame):
    """A judgements table as the page shows and exports it: annotators by their shown names;
    the identity provider's issuer and subject only with logins (empty without)."""
    if frame.empty:
        return frame
    if not viewer.team:
        return frame.drop(columns=["issuer", "subject"], errors="ignore")
    names = names_shown(store, viewer, frame["annotator"])
    return frame.assign(annotator=frame["annotator"].map(names))


def judgements_for_analysis(store: ReviewStore, viewer: Viewer, fingerprint: str, pair_ids) -> list:
    """The judgements of a corpus an analysis page uses: every one without logins (single-user
    mode: the analysis page shows every annotator's scores); with logins what the viewer's role
    allows (review_tasks.visible_judgements), annotators by their shown names."""
    if not viewer.team:
        return store.all(fingerprint)
    rows = store.visible_to(viewer.key, fingerprint, pair_ids, viewer.role)
    names = names_shown(store, viewer, [r.annotator for r in rows])
    return [replace(r, annotator=names[r.annotator]) for r in rows]


def load_stored(store: ReviewStore, fingerprint: str) -> bool:
    """Make the stored corpus with this fingerprint the current one; False when there is none."""
    corpus = store.corpus(fingerprint) if _FINGERPRINT.fullmatch(fingerprint or "") else None
    if corpus is None:
        return False
    ui.make_current(corpus)
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


def name_in_link(store: ReviewStore, corpus: Corpus) -> str:
    """Name the corpus in the URL once it is stored (with its first judgement), so a reload or
    another annotator's browser reopens it; a corpus not stored is not named (a link to it
    could not open it). Writes nothing. Returns the corpus's fingerprint."""
    fingerprint = corpus.fingerprint()
    if store.has_corpus(fingerprint):
        st.query_params[CORPUS_PARAM] = fingerprint
    elif CORPUS_PARAM in st.query_params:
        del st.query_params[CORPUS_PARAM]
    return fingerprint


def annotator_seed(store: ReviewStore, annotator: str) -> tuple[int, bool]:
    """The annotator's blinding seed and whether it is stored: before their first judgement, a
    seed drawn for this session (stored with that judgement)."""
    stored = store.seed_of(annotator)
    if stored is not None:
        return stored, True
    drawn = st.session_state.setdefault(_SEEDS_KEY, {})
    return drawn.setdefault(annotator, secrets.randbits(62)), False


def owner_said(store: ReviewStore, viewer: Viewer, owner: str) -> str:
    """A task's owner as this viewer may read it (Markdown): "you"; with logins another
    owner's name only to task owners (annotators see nobody else's identity)."""
    if owner == viewer.key:
        return "you"
    if viewer.team and not viewer.owner:
        return "a task owner"
    return f"**{md(names_shown(store, viewer, [owner])[owner])}**"


def task_options_view(store: ReviewStore, task_name: str, options: rt.TaskOptions, viewer: Viewer) -> None:
    """The task's owner and options (ROUGE highlights, others' verdicts shown early), in an
    expander; only the owner (or, for a task without one, any named annotator; with logins,
    any task owner) can change them."""
    highlights_key, visible_key = f"review_opt_highlights|{task_name}", f"review_opt_visible|{task_name}"
    message_key = "review_options_message"

    def save() -> None:
        try:
            store.set_task_options(task_name, viewer.key, rouge_highlights=st.session_state[highlights_key],
                                   others_visible=st.session_state.get(visible_key, options.others_visible),
                                   role=viewer.role, account=viewer.account)
        except (PermissionError, KeyError, ValueError, StoreError) as e:
            st.session_state[message_key] = f"NOT saved: {md(e)}"

    with st.expander("Options of this task: ROUGE highlights" + ("" if viewer.team else ", others' verdicts"),
                     key="review_task_options_open", on_change="rerun") as view:
        if not view.open:
            return
        if options.owner:
            said = owner_said(store, viewer, options.owner)
            st.caption(f"Owner: {said}" + (": only you change these options." if said == "you" else
                                           ": only they change these options."))
        elif viewer.team:
            st.caption("No owner yet (a built-in task, or one made before tasks had owners): the first task owner who "
                       "sets an option here becomes its owner.")
        else:
            st.caption("No owner yet (a built-in task, or one made before tasks had owners): the first annotator who "
                       "sets an option here becomes its owner." + ("" if viewer.key else " Enter your annotator name "
                                                                                         "to do so."))
        may_change = rt.may_change_options(viewer.key, options, viewer.role)
        st.session_state[highlights_key] = options.rouge_highlights  # as stored, whoever set them last
        st.toggle("Mark the ROUGE-1 matches on the texts", key=highlights_key, on_change=save, disabled=not may_change,
                  help="Off by default: marking the words ROUGE counts draws the eye to them and can pull verdicts "
                       "towards ROUGE. Each verdict records whether the marks were shown; the page \"Which ROUGE "
                       "agrees with your annotators?\" names the tasks judged with them.")
        if viewer.team:
            st.caption("With logins annotators see only their own verdicts and notes (others' would name them); task "
                       "owners see everyone's.")
        else:
            st.session_state[visible_key] = options.others_visible
            st.toggle("Show every annotator the others' verdicts and notes before they finish", key=visible_key,
                      on_change=save, disabled=not may_change,
                      help="Off by default: an annotator sees the others' verdicts and notes on this task only once "
                           "they have judged every pair of it, so that they cannot sway theirs.")
        message = st.session_state.pop(message_key, None)
        if message:
            st.error(message)


def priming_note(store: ReviewStore, fingerprint: str, systems) -> None:
    """Which tasks' judgements of this corpus were made with ROUGE highlights shown (they may
    lean towards ROUGE, so its agreement with them may be inflated)."""
    primed = rt.highlighted_verdicts(store.all(fingerprint), systems)
    if not primed:
        return
    named = "; ".join(f"**{md(aspect)}**: " + (f"all {total:,} verdicts" if shown == total else
                                                f"{shown:,} of {total:,} verdicts")
                      for aspect, shown, total in primed)
    st.warning("Judged with ROUGE highlights, so possibly primed: " + named + ". The Review page marked the ROUGE-1 "
               "matches on the texts when these verdicts were made, which can draw annotators towards what ROUGE "
               "counts; a correlation with them may overstate how well ROUGE agrees with unprimed judgement.",
               icon=":material/visibility:")


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
