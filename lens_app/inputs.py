"""The input widgets: built-in examples, uploads and the candidate / reference text areas.

Validation and parsing live in `rouge_core.text.textio` (pure, tested without Streamlit); this
module only draws widgets and moves texts in and out of the shared state. Bad input shows
a message and never discards what the user typed.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rouge_core.corpora.corpus_io import PAIR_FILE_TYPES, read_pairs
from rouge_core.text.textio import MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL, MAX_UPLOAD_MB, InputError, decode_text

from . import browser_texts, examples, sidebar, state
from .markup import md

_LOADED_UPLOADS_KEY = "_loaded_upload_ids"  # upload ids already copied into the texts
_UPLOAD_ERRORS_KEY = "_upload_errors"
_LOADED_NOTE_KEY = "_upload_loaded_note"  # (what the last upload loaded, the texts it left), while they are on screen
# Uploaders are drawn afresh (a new key) once their files are loaded: a single-file uploader
# that still held the last file would first remove it when the user picks the next one, a
# whole extra run of the page (~0.3 s on long texts) before the new file is even read.
_UPLOADER_GENERATION_KEY = "_uploader_generation"
UPLOADERS = ("upload_candidate", "upload_references", "upload_pairs")
_PAIR_RECORDS_KEY = "_pair_records"  # the records of the last pair file, to pick from
_PAIR_FILE_KEY = "_pair_file"  # its name
PAIR_RECORD_KEY = "pair_record_choice"
REFERENCE_UPLOAD_MODE_KEY = "reference_upload_mode"
REPLACE, ADD = "replace the references", "add to the references"
UPLOAD_MB = MAX_UPLOAD_MB  # what the upload widgets state and enforce (rouge_core.text.textio's one limit)


def forget_upload_errors() -> None:
    """The input changed: messages about earlier uploads no longer apply."""
    st.session_state.pop(_UPLOAD_ERRORS_KEY, None)
    st.session_state.pop(_LOADED_NOTE_KEY, None)


def texts_on_screen() -> tuple[str, tuple[str, ...]]:
    """The candidate and references the Score page shows in this run: the text areas' values
    (a user's edit reaches them before the page runs), or the shared texts when these were
    just replaced (an example, an upload, a corpus row) or no text area is drawn."""
    ss = st.session_state
    if state.candidate_input_key() not in ss:  # not drawn yet, or replaced (state.set_texts)
        candidate, references = state.current_texts()
    else:
        candidate, references = _widget_texts()
    return candidate, tuple(references)


def loaded_note() -> str | None:
    """What the last upload loaded, while the texts it loaded are still the ones on screen:
    once they are edited or replaced (another upload, an example, a corpus row opened here),
    the note no longer describes the page and is dropped."""
    note = st.session_state.get(_LOADED_NOTE_KEY)
    if note is None:
        return None
    text, texts = note
    if texts != texts_on_screen():
        st.session_state.pop(_LOADED_NOTE_KEY, None)
        return None
    return text


def uploader_key(name: str) -> str:
    """The key the uploader `name` (one of UPLOADERS) has in this generation."""
    return f"{name}_{st.session_state.get(_UPLOADER_GENERATION_KEY, 0)}"


def load_example(key: str) -> None:
    """Load an example's texts (a callback: before the sidebar is drawn). A language example
    also chooses the multilingual profile with its language, which it needs to score right."""
    example = examples.get_example(key)
    state.set_texts(example.candidate, list(example.references))
    st.session_state["loaded_example"] = example.key
    forget_upload_errors()
    if example.language:
        sidebar.choose_profile("multilingual", language=example.language)


def ensure_texts() -> None:
    """A first visit starts with an example, so no page is ever empty; after a reload, the
    texts this browser tab kept replace it on the next run (lens_app.browser_texts, which is
    handed the texts on screen on every run)."""
    if not state.has_texts():
        load_example(examples.DEFAULT_EXAMPLE.key)
        browser_texts.offer_kept_texts()
    browser_texts.keep(texts_on_screen())


def _example_buttons(chosen: tuple[examples.Example, ...], columns: int) -> None:
    cells = st.columns(columns)
    for i, example in enumerate(chosen):
        cells[i % columns].button(
            example.title,
            key=f"example_{example.key}",
            on_click=load_example,
            args=(example.key,),
            help=f"{example.source}. {example.note}",
            width="stretch",
        )


def render_examples() -> None:
    st.markdown("**Try an example** (one click loads it; your settings stay):")
    _example_buttons(examples.EXAMPLES, 4)
    st.markdown("**Try another language** (loads the pair and the multilingual profile with its language):")
    _example_buttons(examples.LANGUAGE_EXAMPLES, len(examples.LANGUAGE_EXAMPLES))
    loaded = st.session_state.get("loaded_example")
    if loaded:
        example = examples.get_example(loaded)
        if texts_on_screen() != (example.candidate, tuple(example.references)):
            return  # the user has edited the texts: the example note no longer applies
        st.caption(f"Loaded: {example.title} — {example.source}. {example.note}")


# References drawn as text boxes; any more are listed in one table (thousands of boxes, e.g. from a
# JSON file of 2,000 references, took half a minute to draw on every rerun).
EDITABLE_REFERENCES = 20


def _widget_texts() -> tuple[str, list[str]]:
    ss = st.session_state
    _, refs = state.current_texts()
    shown = min(len(refs), EDITABLE_REFERENCES)
    return (ss.get(state.candidate_input_key(), ""),
            [ss.get(state.reference_input_key(i), "") for i in range(shown)] + list(refs[shown:]))


def _drop_listed_references() -> None:
    candidate, refs = _widget_texts()
    state.set_texts(candidate, refs[:EDITABLE_REFERENCES])


def _add_reference() -> None:
    candidate, refs = _widget_texts()
    state.set_texts(candidate, refs + [""])


def _remove_reference(index: int) -> None:
    candidate, refs = _widget_texts()
    del refs[index]
    state.set_texts(candidate, refs)


def _read_text_file(file) -> str:
    text = decode_text(file.getvalue(), file.name)
    if not text.strip():
        raise InputError(f"{file.name} is empty: it holds no text to score.")
    return text


def _reject(file, exc: InputError) -> None:
    st.session_state.setdefault(_UPLOAD_ERRORS_KEY, {})[file.file_id] = str(exc)


def _load_candidate_or_pairs(file, kind: str) -> str | None:
    """A candidate file replaces the candidate; a pair file both (its first record). Returns
    what was loaded, in words (None when the file was rejected)."""
    try:
        if kind == "pairs":
            pairs = read_pairs(file.getvalue(), file.name, MAX_UPLOAD_BYTES)
            st.session_state[_PAIR_RECORDS_KEY] = pairs
            st.session_state[_PAIR_FILE_KEY] = file.name
            st.session_state[PAIR_RECORD_KEY] = 0
            state.set_texts(pairs[0].candidate, list(pairs[0].references))
            count = len(pairs[0].references)
            loaded = f"the candidate and {count} reference{'s' if count != 1 else ''}"
            if len(pairs) > 1:
                loaded += f" (record 1 of {len(pairs):,}; choose another below)"
        else:
            state.set_texts(_read_text_file(file), state.current_texts()[1])
            loaded = "the candidate"
        st.session_state["loaded_example"] = None
        return f"{file.name}: {loaded}"
    except InputError as exc:
        _reject(file, exc)
        return None


def _load_reference_files(files) -> str | None:
    """Reference files picked together replace the references on screen, in their order, or
    are added to them, as the user chose; unreadable ones are reported. Returns what was
    loaded, in words (None when every file was rejected)."""
    texts, names = [], []
    for file in files:
        try:
            texts.append(_read_text_file(file))
            names.append(file.name)
        except InputError as exc:
            _reject(file, exc)
    if not texts:
        return None
    candidate, refs = state.current_texts()
    kept = [r for r in refs if r.strip()] if st.session_state.get(REFERENCE_UPLOAD_MODE_KEY) == ADD else []
    state.set_texts(candidate, kept + texts)
    st.session_state["loaded_example"] = None
    first = len(kept) + 1
    where = f"reference {first}" if len(texts) == 1 else f"references {first}–{first + len(texts) - 1}"
    return f"{', '.join(names)}: {where}"


def _process_uploads(key: str, kind: str) -> None:
    files = st.session_state.get(key)
    if files is None:
        return
    if not isinstance(files, list):
        files = [files]
    loaded: set = st.session_state.setdefault(_LOADED_UPLOADS_KEY, set())
    new = [f for f in files if f.file_id not in loaded]
    if not new:
        return
    forget_upload_errors()
    loaded.update(f.file_id for f in new)
    if kind == "references":
        notes = [_load_reference_files(new)]
    else:
        notes = [_load_candidate_or_pairs(file, kind) for file in new]
    done = [note for note in notes if note is not None]
    if done:
        candidate, references = state.current_texts()
        st.session_state[_LOADED_NOTE_KEY] = ("Loaded " + "; ".join(done) + ".", (candidate, tuple(references)))
    if not st.session_state.get(_UPLOAD_ERRORS_KEY):  # cleared above: only this pick's rejections
        # Every file was read: empty uploaders for the next pick. A rejected file stays in its
        # uploader, beside its message, until the user picks another or edits the texts.
        st.session_state[_UPLOADER_GENERATION_KEY] = st.session_state.get(_UPLOADER_GENERATION_KEY, 0) + 1


def _choose_record() -> None:
    pairs = st.session_state.get(_PAIR_RECORDS_KEY) or []
    index = st.session_state.get(PAIR_RECORD_KEY)
    if index is not None and 0 <= index < len(pairs):
        state.set_texts(pairs[index].candidate, list(pairs[index].references))
        forget_upload_errors()


def _record_on_screen(pairs) -> int | None:
    """The index of the pair file's record the page shows, or None (edited, or replaced)."""
    candidate, references = texts_on_screen()
    return next((i for i, pair in enumerate(pairs) if pair.candidate == candidate and pair.references == references),
                None)


def _render_record_choice() -> None:
    """A file of several pairs: pick the one to score. The choice shows the record on screen,
    or none once the texts were edited or replaced."""
    pairs = st.session_state.get(_PAIR_RECORDS_KEY) or []
    if len(pairs) < 2:
        return
    st.session_state[PAIR_RECORD_KEY] = _record_on_screen(pairs)
    st.selectbox(f"Record of {md(st.session_state.get(_PAIR_FILE_KEY) or 'the pair file')} ({len(pairs):,} records)",
                 range(len(pairs)), key=PAIR_RECORD_KEY, on_change=_choose_record,
                 placeholder="None: the texts on screen were edited or come from elsewhere; pick a record to load it",
                 format_func=lambda i: f"{pairs[i].source} — {pairs[i].candidate[:60]}")


PAIR_UPLOADER_LABEL = "Candidate and references (.json / .jsonl / .csv / .tsv)"


def render_uploads() -> None:
    """File uploads: a candidate file replaces the candidate, a pair file both; reference
    files replace the references or are added to them, as the user chooses."""
    note = loaded_note()
    # Open while it has something to say: a rejected file's message or what was just loaded.
    with st.expander("Upload files instead of typing", expanded=bool(_current_upload_errors() or note)):
        st.caption(
            f"Plain UTF-8 text, at most {MAX_UPLOAD_LABEL} per file. A .json file holds "
            '`{"candidate": "...", "references": ["...", "..."]}` (or a list of them), a .jsonl file one such object '
            "per line; a .csv or .tsv file is a table as the Corpus page reads it, one pair per row: a `candidate` "
            "column (or one per system, `candidate_A`, …) and `reference`, `reference_1`, … columns. From a file of "
            "several pairs you pick the one to score."
        )
        col_c, col_r, col_p = st.columns(3)
        candidate_key, references_key, pairs_key = (uploader_key(name) for name in UPLOADERS)
        col_c.file_uploader("Candidate (.txt)", type=["txt"], key=candidate_key, max_upload_size=UPLOAD_MB,
                            on_change=_process_uploads, args=(candidate_key, "candidate"))
        with col_r:
            st.file_uploader("References (.txt, one per reference)", type=["txt"], accept_multiple_files=True,
                             key=references_key, max_upload_size=UPLOAD_MB, on_change=_process_uploads,
                             args=(references_key, "references"))
            st.radio("Uploaded references", (REPLACE, ADD), key=REFERENCE_UPLOAD_MODE_KEY, horizontal=True,
                     label_visibility="collapsed")
        col_p.file_uploader(PAIR_UPLOADER_LABEL, type=list(PAIR_FILE_TYPES), key=pairs_key, max_upload_size=UPLOAD_MB,
                            on_change=_process_uploads, args=(pairs_key, "pairs"))
        if note:
            st.caption(md(note))
        _render_record_choice()


def _current_upload_errors() -> list[str]:
    """Messages for the rejected files still sitting in an uploader."""
    errors: dict = st.session_state.get(_UPLOAD_ERRORS_KEY, {})
    present = []
    for name in UPLOADERS:
        files = st.session_state.get(uploader_key(name))
        present += files if isinstance(files, list) else ([files] if files is not None else [])
    return [errors[f.file_id] for f in present if f.file_id in errors]


def show_upload_errors() -> None:
    for message in _current_upload_errors():
        st.error(md(message) + " Your texts were kept.", icon=":material/error:")


SOURCE_KEY = "source_text"  # the source document, kept under a plain key across page switches
SOURCE_INPUT_KEY = "source_input"
_SOURCE_GENERATION_KEY = "_source_input_generation"


def source_input_key(session=None) -> str:
    """The source document box's key now (a new one after each replacement: set_source)."""
    return state.box_key(SOURCE_INPUT_KEY, _SOURCE_GENERATION_KEY, session)


def set_source(text: str) -> None:
    """Replace the source document (a corpus row opened here, a file); the box shows it when
    drawn, a new box if it was drawn (state.replace_boxes)."""
    st.session_state[SOURCE_KEY] = text
    state.replace_boxes(_SOURCE_GENERATION_KEY, source_input_key())


def _load_source_file() -> None:
    file = st.session_state.get(SOURCE_UPLOAD_KEY)
    if file is None:
        return
    try:
        set_source(_read_text_file(file))
    except InputError as exc:
        st.session_state["_source_upload_error"] = str(exc)


SOURCE_UPLOAD_KEY = "upload_source"


def render_source_input() -> str:
    """The optional source document (a text box and a .txt upload); returns its text."""
    ss = st.session_state
    key = source_input_key()
    source = ss.get(key, ss.get(SOURCE_KEY, ""))  # the box's text, or the text a new box starts with
    has_source = bool(source.strip())
    _hide_replaced_boxes([key], [SOURCE_INPUT_KEY])
    with st.expander("Source document (optional): what the summary was written from", expanded=has_source):
        st.caption("Give the article the summary summarises to see which of its words are copied from it, the "
                   "extractive fragments on both texts, and coverage, density, compression and novel n-grams.")
        st.text_area("Source document", ss.get(SOURCE_KEY, ""), key=key, height=150,
                     placeholder="Type or paste the source document here")
        st.file_uploader("Or upload it (.txt)", type=["txt"], key=SOURCE_UPLOAD_KEY, max_upload_size=UPLOAD_MB,
                         on_change=_load_source_file)
        error = ss.pop("_source_upload_error", None)
        if error:
            st.error(md(error) + " The source on screen was kept.", icon=":material/error:")
    ss[SOURCE_KEY] = ss.get(key, "")
    return ss[SOURCE_KEY]


APPLY_HINT = ("A pasted text is scored at once; a typed one once you press Ctrl+Enter (⌘+Enter on a Mac) or click "
              "outside the box.")


def _render_kept_notes() -> None:
    """Say when the texts on screen are the ones this tab kept before a reload, and when they
    are too long for the tab to keep."""
    restored = browser_texts.restored_texts()
    if restored is not None:
        if restored == texts_on_screen():
            st.caption("These are the texts this browser tab kept before the page was reloaded (kept in the tab, "
                       "not on the server; a new tab starts afresh).")
        else:
            browser_texts.forget_restored()
    if browser_texts.too_long_to_keep():
        st.caption("These texts are too long for this browser tab to keep across a reload (over the browser's "
                   "storage limit for a site): download them as JSON below to keep them.")


def _hide_replaced_boxes(current: list[str], bases: list[str]) -> None:
    """Replaced text boxes (state.replace_boxes) stay in the browser, dimmed, until the run
    ends: every box whose key starts with one of `bases` but is not one of the `current` keys is
    hidden, so that no one types into a box the page no longer reads (a style-only st.html takes
    no place on the page)."""
    keep = "".join(f":not(.st-key-{key})" for key in current)
    st.html("<style>" + ", ".join(f'[class*="st-key-{base}"]{keep}' for base in bases) + " { display: none; }</style>")


def render_text_inputs() -> tuple[str, list[str]]:
    """The candidate and reference text areas; returns (and shares) what they hold."""
    ss = st.session_state
    _render_kept_notes()
    # A box starts with the shared text as its value (a new key after every replacement of the
    # texts: state.set_texts); later the user's edits are its value.
    candidate, refs = state.current_texts()
    shown = min(len(refs), EDITABLE_REFERENCES)
    _hide_replaced_boxes([state.candidate_input_key(), *map(state.reference_input_key, range(shown))],
                         [state.CANDIDATE_INPUT_KEY, state.REFERENCE_INPUT_PREFIX])
    st.caption("Sentences are lines: put each sentence on its own line (ROUGE-Lsum and the summary-level views use "
               f"them). {APPLY_HINT}")
    col_c, col_r = st.columns(2)
    with col_c:
        st.text_area("Candidate (the summary to score)", candidate, key=state.candidate_input_key(), height=150,
                     placeholder="Type or paste the system summary here", on_change=forget_upload_errors)
    with col_r:
        for i in range(shown):
            label = "Reference (a human summary)" if len(refs) == 1 else f"Reference {i + 1}"
            if len(refs) == 1:
                st.text_area(label, refs[i], key=state.reference_input_key(i), height=150,
                             placeholder="Type or paste a reference summary here", on_change=forget_upload_errors)
                continue
            col_text, col_remove = st.columns([12, 1], vertical_alignment="center")
            col_text.text_area(label, refs[i], key=state.reference_input_key(i), height=100,
                               placeholder="Type or paste a reference summary here", on_change=forget_upload_errors)
            col_remove.button("", icon=":material/close:", key=f"remove_reference_{i}", on_click=_remove_reference,
                              args=(i,), help=f"Remove reference {i + 1}")
        if len(refs) > EDITABLE_REFERENCES:
            listed = refs[EDITABLE_REFERENCES:]
            st.caption(f"…and {len(listed):,} more references (from the file), listed here; edit them in the file and "
                       "load it again, or remove them.")
            st.dataframe(pd.DataFrame({"reference": listed}, index=range(EDITABLE_REFERENCES + 1, len(refs) + 1)),
                         height=200, key="listed_references")
            st.button(f"Remove references {EDITABLE_REFERENCES + 1:,}–{len(refs):,}", icon=":material/close:",
                      key="drop_listed_references", on_click=_drop_listed_references)
        else:
            st.button("Add reference", icon=":material/add:", key="add_reference", on_click=_add_reference)

    candidate, refs = _widget_texts()
    ss[state.CANDIDATE_KEY] = candidate
    ss[state.REFERENCES_KEY] = refs
    return candidate, refs
