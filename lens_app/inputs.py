"""The input widgets: built-in examples, uploads and the candidate / reference text areas.

Validation and parsing live in `rouge_core.textio` (pure, tested without Streamlit); this
module only draws widgets and moves texts in and out of the shared state. Bad input shows
a message and never discards what the user typed.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from rouge_core.textio import MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL, InputError, decode_text, parse_pairs

from . import examples, sidebar, state
from .markup import md

_LOADED_UPLOADS_KEY = "_loaded_upload_ids"  # upload ids already copied into the texts
_UPLOAD_ERRORS_KEY = "_upload_errors"
_LOADED_NOTE_KEY = "_upload_loaded_note"  # what the last upload loaded, until the input changes
# Uploaders are drawn afresh (a new key) once their files are loaded: a single-file uploader
# that still held the last file would first remove it when the user picks the next one, a
# whole extra run of the page (~0.3 s on long texts) before the new file is even read.
_UPLOADER_GENERATION_KEY = "_uploader_generation"
UPLOADERS = ("upload_candidate", "upload_references", "upload_pairs")
_PAIR_RECORDS_KEY = "_pair_records"
PAIR_RECORD_KEY = "pair_record_choice"
REFERENCE_UPLOAD_MODE_KEY = "reference_upload_mode"
REPLACE, ADD = "replace the references", "add to the references"
UPLOAD_MB = MAX_UPLOAD_BYTES // 1_048_576  # what the upload widgets state and enforce


def forget_upload_errors() -> None:
    """The input changed: messages about earlier uploads no longer apply."""
    st.session_state.pop(_UPLOAD_ERRORS_KEY, None)
    st.session_state.pop(_LOADED_NOTE_KEY, None)


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
    """A first visit starts with an example, so no page is ever empty."""
    if not state.has_texts():
        load_example(examples.DEFAULT_EXAMPLE.key)


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
        if state.current_texts() != (example.candidate, list(example.references)):
            return  # the user has edited the texts: the example note no longer applies
        st.caption(f"Loaded: {example.title} — {example.source}. {example.note}")


# References drawn as text boxes; any more are listed in one table (thousands of boxes, e.g. from a
# JSON file of 2,000 references, took half a minute to draw on every rerun).
EDITABLE_REFERENCES = 20


def _widget_texts() -> tuple[str, list[str]]:
    ss = st.session_state
    _, refs = state.current_texts()
    shown = min(len(refs), EDITABLE_REFERENCES)
    return (ss.get(state.CANDIDATE_INPUT_KEY, ""),
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
            pairs = parse_pairs(decode_text(file.getvalue(), file.name), file.name)
            st.session_state[_PAIR_RECORDS_KEY] = pairs
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
        st.session_state[_LOADED_NOTE_KEY] = "Loaded " + "; ".join(done) + "."
    if not st.session_state.get(_UPLOAD_ERRORS_KEY):  # cleared above: only this pick's rejections
        # Every file was read: empty uploaders for the next pick. A rejected file stays in its
        # uploader, beside its message, until the user picks another or edits the texts.
        st.session_state[_UPLOADER_GENERATION_KEY] = st.session_state.get(_UPLOADER_GENERATION_KEY, 0) + 1


def _choose_record() -> None:
    pairs = st.session_state.get(_PAIR_RECORDS_KEY) or []
    index = st.session_state.get(PAIR_RECORD_KEY, 0)
    if 0 <= index < len(pairs):
        state.set_texts(pairs[index].candidate, list(pairs[index].references))


def render_uploads() -> None:
    """File uploads: a candidate file replaces the candidate, a pair file both; reference
    files replace the references or are added to them, as the user chooses."""
    loaded_note = st.session_state.get(_LOADED_NOTE_KEY)
    # Open while it has something to say: a rejected file's message or what was just loaded.
    with st.expander("Upload files instead of typing", expanded=bool(_current_upload_errors() or loaded_note)):
        st.caption(
            f"Plain UTF-8 text, at most {MAX_UPLOAD_LABEL} per file. A .json file holds "
            '`{"candidate": "...", "references": ["...", "..."]}` (or a list of them); a .jsonl file one such object per line.'
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
        col_p.file_uploader("Candidate and references (.json / .jsonl)", type=["json", "jsonl"], key=pairs_key,
                            max_upload_size=UPLOAD_MB, on_change=_process_uploads, args=(pairs_key, "pairs"))
        if loaded_note:
            st.caption(md(loaded_note))
        pairs = st.session_state.get(_PAIR_RECORDS_KEY) or []
        if len(pairs) > 1:
            st.selectbox("Record", range(len(pairs)), key=PAIR_RECORD_KEY, on_change=_choose_record,
                         format_func=lambda i: f"{pairs[i].source} — {pairs[i].candidate[:60]}")


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


def render_text_inputs() -> tuple[str, list[str]]:
    """The candidate and reference text areas; returns (and shares) what they hold."""
    ss = st.session_state
    candidate, refs = state.current_texts()
    stale = state.inputs_stale()
    if stale or state.CANDIDATE_INPUT_KEY not in ss:
        ss[state.CANDIDATE_INPUT_KEY] = candidate
    for i, ref in enumerate(refs[:EDITABLE_REFERENCES]):
        if stale or state.reference_input_key(i) not in ss:
            ss[state.reference_input_key(i)] = ref
    state.mark_inputs_fresh()

    st.caption("Sentences are lines: put each sentence on its own line (ROUGE-Lsum and the summary-level views use them).")
    col_c, col_r = st.columns(2)
    with col_c:
        st.text_area("Candidate (the summary to score)", key=state.CANDIDATE_INPUT_KEY, height=150,
                     placeholder="Type or paste the system summary here", on_change=forget_upload_errors)
    with col_r:
        for i in range(min(len(refs), EDITABLE_REFERENCES)):
            label = "Reference (a human summary)" if len(refs) == 1 else f"Reference {i + 1}"
            if len(refs) == 1:
                st.text_area(label, key=state.reference_input_key(i), height=150,
                             placeholder="Type or paste a reference summary here", on_change=forget_upload_errors)
                continue
            col_text, col_remove = st.columns([12, 1], vertical_alignment="center")
            col_text.text_area(label, key=state.reference_input_key(i), height=100,
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
