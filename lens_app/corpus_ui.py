"""Shared pieces of the Corpus, Compare systems, Review and "Which ROUGE agrees" pages: loading a
corpus (a file, a paste, or an example corpus in one click), scoring it, exports and opening
one pair on the Score page. Everything lives in st.session_state so switching pages (or a
failed upload) never loses what was scored."""

from __future__ import annotations

import hashlib
import os

import streamlit as st

import rouge_core
from rouge_core import UNBOUNDED
from rouge_core.scorer import cost
from rouge_core.corpora import corpus_io, export, formats
from rouge_core.corpora.corpus import CorpusResult, compare_systems, score_corpus
from rouge_core.text.textio import InputError

from . import costs, inputs, navigation, sample_corpora, state
from .markup import md, md_list

CORPUS_KEY = "corpus_data"  # the loaded corpus_io.Corpus
RESULTS_KEY = "corpus_results"  # {system: CorpusResult}
RESULTS_FOR_KEY = "corpus_results_for"  # (fingerprint, options, methods) the results belong to
_BUILT_KEY = "_corpus_built"  # (file name, digest, column mapping) and the Corpus built from them
SCORE_PAGE = navigation.SCORE  # relative to app.py, as st.switch_page expects

PASTE_EXAMPLE = "id,candidate,reference\n1,the cat sat on the mat,the cat is on the mat\n"


CORPUS_FILE_KEY = "_loaded_corpus_file"  # (name, bytes) of the loaded corpus's file when it also holds human scores

FILE_KIND, PARALLEL_KIND, PASTE_KIND = "File", "Parallel text files", "Paste CSV / JSONL"
READ_AS_LABELS = {corpus_io.AUTO: "Recognise from the content", formats.TABLE: "Table (choose the columns)",
                  formats.SUMMEVAL: "SummEval model annotations", formats.SACREROUGE_SUMMARIES: "sacrerouge summaries",
                  formats.REALSUMM: "REALSumm scores dict"}
FILE_TYPES = ["csv", "tsv", "jsonl", "ndjson", "json", "pkl", "gz"]


@st.cache_data(max_entries=8, show_spinner=False)
def _read_table(data: bytes, name: str, max_bytes: int) -> corpus_io.Table:
    return corpus_io.read_table(data, name, max_bytes)


@st.cache_data(max_entries=8, show_spinner=False)
def _detect(data: bytes, name: str) -> formats.Detection:
    try:
        return formats.detect(data, name, corpus_io.DEFAULT_MAX_BYTES)
    except InputError as e:
        raise corpus_io.CorpusError(str(e)) from None


@st.cache_data(max_entries=4, show_spinner=False)
def _read_corpus(data: bytes, name: str, fmt: str, first_reference_only: bool) -> corpus_io.Corpus:
    return corpus_io.read_corpus(data, name, format=fmt, first_reference_only=first_reference_only)


def current_corpus() -> corpus_io.Corpus | None:
    return st.session_state.get(CORPUS_KEY)


def current_results() -> dict[str, CorpusResult]:
    return st.session_state.get(RESULTS_KEY) or {}


_FAILED_KEY = "_corpus_load_failed"  # the file (or paste) last tried could not be read
# Bumped when an example corpus replaces the current one: the uploaders and the paste box are
# then drawn afresh (new keys), empty, since a file still sitting in one would be read again on
# the next run and replace the example.
_INPUTS_GENERATION_KEY = "_corpus_inputs_generation"
UPLOAD_MB = corpus_io.DEFAULT_MAX_BYTES // 1_048_576  # what the corpus uploaders state and enforce


def _show_problems(error: corpus_io.CorpusError) -> None:
    kept = " The corpus loaded before is kept." if current_corpus() is not None else ""
    st.error("**This corpus could not be read.**" + kept + "\n\n" + "\n".join(f"- {md(p)}" for p in error.problems))
    st.session_state[_FAILED_KEY] = True


def _input_key(prefix: str, name: str) -> str:
    """The key of a corpus input widget in this generation (the first keeps its plain name)."""
    generation = st.session_state.get(_INPUTS_GENERATION_KEY, 0)
    return f"{prefix}_{name}" if not generation else f"{prefix}_{name}_{generation}"


def make_current(corpus: corpus_io.Corpus) -> None:
    """`corpus` (an example, a stored corpus reopened) becomes the current one in place of any
    loaded file: the loaders are drawn afresh and empty, since a file still sitting in one would
    be read again on the next run and replace it."""
    st.session_state[CORPUS_KEY] = corpus
    st.session_state.pop(CORPUS_FILE_KEY, None)
    st.session_state[_FAILED_KEY] = False
    st.session_state[_INPUTS_GENERATION_KEY] = st.session_state.get(_INPUTS_GENERATION_KEY, 0) + 1


def load_example(key: str, prefix: str | None = None) -> None:
    """Make the example corpus `key` the current one, as a loaded file would be (a button's
    callback: it runs before the loaders are drawn, so they are drawn empty). The loader of
    `prefix` stays open with the example's preview, as it does after an upload."""
    make_current(sample_corpora.load_sample(key))
    if prefix is not None:
        st.session_state[f"{prefix}_loader_open"] = True


def _example_loader(prefix: str) -> None:
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    chosen = c1.selectbox("Example corpus (real summaries from ROUGE-1.5.5's sample data)",
                          [s.key for s in sample_corpora.SAMPLES], key=f"{prefix}_example_choice",
                          format_func=lambda key: sample_corpora.get_sample(key).title)
    c2.button("Load an example corpus", key=f"{prefix}_example_load", on_click=load_example, args=(chosen, prefix),
              icon=":material/dataset:", width="stretch")
    st.caption(sample_corpora.get_sample(chosen).summary)


def _example_preview() -> None:
    """After the inputs: the example corpus, when it is the current one, as an upload shows its file."""
    corpus = current_corpus()
    if sample_corpora.sample_of(corpus) is not None:
        st.success(f"Example corpus: {len(corpus)} pairs; systems: {md_list(corpus.system_names)}. Preview:")
        st.dataframe(corpus.preview(20), hide_index=True)


def example_caption(corpus: corpus_io.Corpus) -> None:
    """What an example corpus is and where it comes from (nothing for any other corpus)."""
    sample = sample_corpora.sample_of(corpus)
    if sample is not None:
        st.caption(f"**Example corpus.** {sample.summary} {sample.provenance}")


def corpus_loader(prefix: str = "corpus") -> None:
    """Upload (or paste) a corpus, map its columns, preview it; the parsed corpus replaces the
    current one only when it is valid. Or load an example corpus in one click. The section
    stays open or closed as the user leaves it, so the column mapping and the preview stay in
    view after a load."""
    open_key = f"{prefix}_loader_open"
    if open_key not in st.session_state:  # open on arrival when nothing is loaded
        st.session_state[open_key] = current_corpus() is None
    # No `expanded=` argument: it is part of the expander's identity, so one that changed with the
    # corpus made a new, closed expander on the first rerun after a load (hiding the file's options).
    with st.expander("Load a corpus", key=open_key, on_change="rerun"):
        _example_loader(prefix)
        kind = st.radio("Format", [FILE_KIND, PARALLEL_KIND, PASTE_KIND], horizontal=True, key=f"{prefix}_kind",
                        format_func=lambda k: "File (a table, SummEval, sacrerouge, REALSumm)" if k == FILE_KIND else k)
        st.caption(
            f"At most {UPLOAD_MB} MB per file (gzip-compressed files too, counted unpacked). Tables (CSV, TSV, JSON "
            "lines, JSON): an `id` column, one candidate column per system (`candidate`, or `candidate_A`, "
            "`candidate_B`, …) and `reference`, `reference_1`, … or `references` holding a JSON list. Recognised by "
            "their content: SummEval's `model_annotations.aligned…jsonl`, sacrerouge's summaries files and REALSumm's "
            "scores dicts (`abs.pkl`, `ext.pkl`, read as plain data without running code, or their JSON). "
            "Parallel files: one text per line; separate sentences inside a line with `<q>` (the marker below) or a "
            "literal `\\n`; lines in `<t> … </t>` sentence tags are split at the tags."
        )
        try:
            if kind == PARALLEL_KIND:
                _parallel_loader(prefix)
            else:
                _file_loader(prefix, paste=kind == PASTE_KIND)
        except corpus_io.CorpusError as e:
            _show_problems(e)
        _example_preview()
    corpus = current_corpus()
    if corpus is not None:
        still = "Still loaded (the file tried last could not be read, see above)" if st.session_state.get(_FAILED_KEY) \
            else "Loaded"
        st.caption(f"{still}: **{md(corpus.source or 'corpus')}** — {len(corpus)} pairs, "
                   f"systems: {md_list(corpus.system_names)}")
        example_caption(corpus)
        for w in corpus.warnings[:10]:
            st.warning(md(w))


def _file_loader(prefix: str, paste: bool) -> None:
    """A file (or a paste): a standard format recognised by its content is read as it is; a
    table's columns are mapped."""
    if paste:
        fmt = st.selectbox("Pasted format", ["CSV", "JSONL"], key=f"{prefix}_paste_fmt")
        text = st.text_area("Corpus text", key=_input_key(prefix, "paste"), height=150, placeholder=PASTE_EXAMPLE)
        if not text.strip():
            return
        data, name = text.encode("utf-8"), "pasted." + fmt.lower()
    else:
        upload = st.file_uploader("Corpus file", type=FILE_TYPES, key=_input_key(prefix, "file"),
                                  max_upload_size=UPLOAD_MB)
        if upload is None:
            return
        data, name = upload.getvalue(), upload.name
    read_as = st.selectbox("Read as", list(READ_AS_LABELS), format_func=READ_AS_LABELS.get, key=f"{prefix}_read_as",
                           help="Recognised from the content by default; choose a format to read the file as that "
                                "one (a table lets you choose its columns).")
    fmt = _detect(data, name).format if read_as == corpus_io.AUTO else read_as
    if fmt == formats.TABLE:
        _table_columns(prefix, data, name)
        return
    first_only = st.checkbox("Only each document's first reference", key=f"{prefix}_first_reference",
                             help="SummEval's first reference is the original CNN/DailyMail highlights, its ten others "
                                  "are crowd-written; a published correlation says which references it used.")
    corpus = _read_corpus(data, name, read_as, first_only)
    _accept(corpus)
    if fmt in formats.HOLDS_JUDGEMENTS:  # its human scores can be imported on the annotators page in one click
        st.session_state[CORPUS_FILE_KEY] = (name, data)


def _table_columns(prefix: str, data: bytes, name: str) -> None:
    """A table's columns mapped (guessed from their names, changeable), then read."""
    table = _read_table(data, name, corpus_io.DEFAULT_MAX_BYTES)
    guess = corpus_io.guess_mapping(table.columns)
    columns = list(table.columns)
    _forget_choices_of_other_columns(prefix, name, columns)
    st.markdown("**Columns** (change them if the names differ)")
    c1, c2, c3, c4 = st.columns(4)
    row_number = "(row number)"
    id_col = c1.selectbox("Id", [row_number, *columns], index=(columns.index(guess.id) + 1) if guess.id else 0,
                          key=f"{prefix}_map_id_{name}")
    cands = c2.multiselect("Candidate column(s), one per system", columns, default=list(guess.candidates),
                           key=f"{prefix}_map_cand_{name}")
    refs = c3.multiselect("Reference column(s)", columns, default=list(guess.references), key=f"{prefix}_map_ref_{name}")
    no_source = "(none)"
    source_col = c4.selectbox("Source documents (optional)", [no_source, *columns],
                              index=(columns.index(guess.source) + 1) if guess.source else 0,
                              key=f"{prefix}_map_source_{name}",
                              help="The documents the summaries were written from: shown beside the summaries and "
                                   "used for the copying statistics.")
    mapping = corpus_io.ColumnMapping(None if id_col == row_number else id_col, tuple(cands), tuple(refs),
                                      None if source_col == no_source else source_col)
    # the same file and columns as on the last run: the same Corpus (its caches keyed by it stay valid)
    key = (name, hashlib.blake2b(data, digest_size=16).digest(), mapping)
    built = st.session_state.get(_BUILT_KEY)
    corpus = built[1] if built is not None and built[0] == key else corpus_io.build_corpus(table, mapping)
    st.session_state[_BUILT_KEY] = (key, corpus)
    _accept(corpus)


def _forget_choices_of_other_columns(prefix: str, name: str, columns: list[str]) -> None:
    """The column choices are kept per file name; a new file (or paste) of the same name with other
    columns starts again from the guess instead of keeping choices its columns do not have."""
    seen_key = f"{prefix}_map_columns_{name}"
    if st.session_state.get(seen_key, columns) != columns:
        for part in ("id", "cand", "ref", "source"):
            st.session_state.pop(f"{prefix}_map_{part}_{name}", None)
    st.session_state[seen_key] = columns


def _parallel_loader(prefix: str) -> None:
    cands = st.file_uploader("Candidate files (one per system)", accept_multiple_files=True,
                             key=_input_key(prefix, "par_cand"),
                             max_upload_size=UPLOAD_MB)
    refs = st.file_uploader("Reference files (one per reference)", accept_multiple_files=True,
                            key=_input_key(prefix, "par_ref"),
                            max_upload_size=UPLOAD_MB)
    marker = st.text_input("Sentence marker", corpus_io.SENTENCE_MARKER, key=f"{prefix}_marker")
    if not cands or not refs:
        return
    corpus = corpus_io.read_parallel(_files_by_name(cands, "candidate"), _files_by_name(refs, "reference"),
                                     marker=marker, max_bytes=corpus_io.DEFAULT_MAX_BYTES)
    _accept(corpus)


def _files_by_name(uploads, what: str) -> dict[str, bytes]:
    """{name: bytes} of uploaded files; two of the same name (REALSumm's systems are all
    out.txt, each in its own folder) would be one system or one reference, so they are refused."""
    names = [f.name for f in uploads]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise corpus_io.CorpusError(f"several {what} files are named {formats.listed(repeated)}; each file is a "
                                    f"{'system' if what == 'candidate' else 'reference'} named after its file, so give "
                                    "each its own name (e.g. after its system: bart.txt, t5_base.txt)")
    return {f.name: f.getvalue() for f in uploads}


def _accept(corpus: corpus_io.Corpus) -> None:
    if corpus.recognised:
        st.info(md(corpus.recognised), icon=":material/fact_check:")
    st.success(f"Parsed {len(corpus)} pairs; systems: {md_list(corpus.system_names)}. Preview:")
    st.dataframe(corpus.preview(20), hide_index=True)
    if st.session_state.get(CORPUS_KEY) != corpus:
        st.session_state.pop(CORPUS_FILE_KEY, None)
    st.session_state[CORPUS_KEY] = corpus
    st.session_state[_FAILED_KEY] = False


def results_current(corpus: corpus_io.Corpus | None) -> bool:
    if corpus is None or not current_results():
        return False
    key = (corpus.fingerprint(), state.current_options(), tuple(state.current_methods()))
    return st.session_state.get(RESULTS_FOR_KEY) == key


def score_button(label: str = "Score corpus", key: str = "score_corpus") -> None:
    corpus = current_corpus()
    if corpus is None:
        return
    stale = current_results() and not results_current(corpus)
    if stale:
        st.info("The scores shown belong to another corpus or other settings; score again to update them.")
    button, threads, note = st.columns([1, 1, 3], vertical_alignment="bottom")
    with threads:
        workers = workers_choice(f"{key}_workers")
    estimate = scoring_estimate(corpus)
    note.caption(f"{len(corpus):,} pairs × {len(corpus.systems)} system(s): {estimate.describe()} on one thread.")
    if button.button(label, type="primary", key=key):
        try:
            run_scoring(corpus, workers)
        except rouge_core.CostLimitError as exc:  # one pair above the bound, named
            st.error(md(exc.message("leave that pair out of the corpus", scope="pair")))
        except ValueError as exc:  # a text that cannot be scored under these settings
            st.error(md(exc))


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers_choice(key: str) -> int:
    """How many threads score the corpus: on the compiled kernels (which release the GIL) a
    choice from 1 to the cores available, min(2, cores) by default; on the pure-Python path one
    (threads would not run its Python code at once). The numbers and their order are the same
    whatever the choice."""
    if not rouge_core.accelerated:
        st.caption("Scoring on one thread (the pure-Python path; the compiled kernels are not in use).")
        return 1
    cores = available_cores()
    choices = list(range(1, cores + 1))
    return st.selectbox("Threads", choices, index=min(2, cores) - 1, key=key,
                        help="Threads scoring pairs at once over the compiled kernels; the scores are the same "
                             "and in the same order whatever the number.")


def run_scoring(corpus: corpus_io.Corpus, workers: int = 1) -> None:
    options, methods = state.current_options(), state.current_methods()
    total = len(corpus) * len(corpus.systems)
    bar = st.progress(0.0, text="Scoring…")
    results = {}
    done_before = 0
    for system, candidates in corpus.systems.items():
        def progress(done: int, _n: int, base: int = done_before) -> None:
            if done % 10 == 0 or done == _n:
                bar.progress((base + done) / total, text=f"Scoring {md(system)}: {done}/{_n}")

        results[system] = score_corpus(list(candidates), list(corpus.references), methods, options,
                                       ids=list(corpus.ids), progress=progress, workers=workers)
        done_before += len(candidates)
    bar.progress(1.0, text=f"Scored {len(corpus)} pairs × {len(corpus.systems)} system(s)")
    st.session_state[RESULTS_KEY] = results
    st.session_state[RESULTS_FOR_KEY] = (corpus.fingerprint(), options, tuple(methods))
    st.session_state.pop("bootstrap_cache", None)
    st.session_state.pop("comparison_cache", None)


def bootstrap_for(system: str, result: CorpusResult, resamples: int, seed: int, confidence: float):
    """The bootstrap intervals of one system's aggregates, once per choice in this session; None
    (and the page asks, with the estimate) when they would cost more than the bound and were
    not approved."""
    cache = st.session_state.setdefault("bootstrap_cache", {})
    key = (system, id(result), resamples, seed, confidence)
    if key not in cache:
        estimate = result.bootstrap_estimate(resamples)
        approval = repr(("bootstrap", system, len(result.pairs), len(result.methods), resamples))
        if not costs.affordable_estimate(estimate, approval, f"The bootstrap intervals ({resamples:,} resamples)"):
            return None
        cache[key] = result.bootstrap(resamples=resamples, seed=seed, confidence=confidence, cost_limit=UNBOUNDED)
    return cache[key]


def scoring_estimate(corpus: corpus_io.Corpus) -> cost.CostEstimate:
    """What scoring every system of the corpus under the sidebar's settings costs
    (rouge_core.scorer.cost.estimate_corpus, each system as score_corpus scores it), kept per choice."""
    options, methods = state.current_options(), tuple(state.current_methods())
    cache = st.session_state.setdefault("_corpus_scoring_estimates", {})
    key = (corpus.fingerprint(), options, methods)
    if key not in cache:
        if len(cache) >= 8:
            cache.pop(next(iter(cache)))
        cache[key] = cost.estimate_corpus(corpus.systems, corpus.references, methods, options)
    return cache[key]


def comparison_for(system_a: str, system_b: str, method: str, resamples: int, seed: int, confidence: float = 95):
    """Two scored systems compared (rouge_core.corpora.corpus.compare_systems), computed once per
    choice in this session, with a progress bar while the resamples run."""
    results = current_results()
    cache = st.session_state.setdefault("comparison_cache", {})
    key = (system_a, system_b, id(results[system_a]), id(results[system_b]), method, resamples, seed, confidence)
    if key not in cache:
        bar = st.progress(0.0, text="Running the significance tests…")

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=f"Running the significance tests: {done:,} of {total:,} resamples")

        # the page estimated the tests first and asked when above the bound
        cache[key] = compare_systems(results[system_a], results[system_b], method, names=(system_a, system_b),
                                     resamples=resamples, seed=seed, confidence=confidence, progress=progress,
                                     cost_limit=UNBOUNDED)
        bar.empty()
    return cache[key]


def open_on_score_page(candidate: str, references: list[str], handled_key: str, token: object,
                       source: str = "") -> None:
    """Set the shared texts (and the pair's source document, or none) and go to the Score page
    (once per new selection)."""
    if st.session_state.get(handled_key) == token:
        return
    st.session_state[handled_key] = token
    state.set_texts(candidate, list(references))
    inputs.set_source(source)  # a source typed for another pair would not belong to this one
    try:
        st.switch_page(SCORE_PAGE)
    except st.errors.StreamlitAPIException:
        st.info("The pair's texts are set; open the Score page to see its evidence.")


def download_pair(label: str, frame, signature: str, stem: str, key: str, meta: dict | None = None) -> None:
    """CSV and JSON downloads of a table; says so when the CSV had to protect some cells."""
    c1, c2 = st.columns(2)
    c1.download_button(f"{label} (CSV)", export.to_csv(frame, signature), f"{stem}.csv", "text/csv", key=f"{key}_csv")
    c2.download_button(f"{label} (JSON)", export.to_json(frame, signature, meta=meta), f"{stem}.json",
                       "application/json", key=f"{key}_json")
    protected = export.csv_prefixed_cells(frame, signature)
    if protected:
        st.caption(f"{protected:,} text cell(s) start like a spreadsheet formula (=, +, -, @; DUC texts start with "
                   "-LRB-). The CSV puts a ' before them so a spreadsheet shows them as text; ROUGE Lens removes it "
                   "when you load this CSV back as a corpus. The JSON download keeps every text exactly.")


def example_judgements(imported_key: str) -> None:
    """For the annotators page: with an example corpus that comes with judgements loaded, those
    judgements in one click (they become the imported ones, `st.session_state[imported_key]`),
    and where they come from whenever they are in use."""
    sample = sample_corpora.sample_of(current_corpus())
    if sample is None or sample.judgements is None:
        return
    judgements = sample_corpora.load_judgements(sample.key)
    if st.session_state.get(imported_key) == judgements:
        st.info(f"Human scores: the example judgements **{sample.judgements}** ({len(judgements)} scores). "
                f"{sample_corpora.JUDGEMENTS_PROVENANCE}", icon=":material/info:")
        return

    def use() -> None:
        st.session_state[imported_key] = judgements

    c1, c2, _ = st.columns([2, 1, 1])
    c1.button("Use the example judgements", key="meta_example_judgements", on_click=use, type="primary",
              icon=":material/rate_review:", width="stretch")
    c2.download_button("Download them (CSV)", sample_corpora.judgements_bytes(sample.key), sample.judgements,
                       "text/csv", key="meta_example_judgements_csv", width="stretch")
    st.caption(f"This example corpus comes with {len(judgements)} judgements ({len(judgements.systems())} systems × "
               f"{len(judgements.documents())} documents, aspect: {md_list(judgements.aspects())}). "
               f"{sample_corpora.JUDGEMENTS_PROVENANCE}")


def settings_caption() -> None:
    options, methods = state.current_options(), state.current_methods()
    st.caption(f"Methods: {', '.join(methods)} · profile: {options.profile} · multi-reference: {options.multi_ref} "
               "(change them in the sidebar settings)")


__all__ = ["corpus_loader", "score_button", "workers_choice", "available_cores", "run_scoring", "current_corpus",
           "current_results", "results_current", "bootstrap_for", "comparison_for", "open_on_score_page",
           "download_pair", "settings_caption", "load_example", "example_caption", "example_judgements", "rouge_core"]
