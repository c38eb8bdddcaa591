"""Review: judge pairs one by one on a task (a rating of one system, or a blinded comparison of
two), with navigation, keyboard keys, progress per annotator and agreement. Judgements, task
definitions and options, annotators' preferences and, with its first judgement, the corpus are
kept in the judgements database (lens_app.review_store); once stored, the URL names the corpus,
task, systems and pair, so a reload or a shared link opens the same place. The annotator is the
logged-in account when the server has logins, else the name typed (lens_app.identity). Other
annotators' verdicts and notes are shown only as review_tasks.visible_judgements allows for the
viewer's role. The logic lives in lens_app.review_tasks."""

import pandas as pd
import streamlit as st

import rouge_core
from lens_app import corpus_ui as ui
from lens_app import review_tasks as rt
from lens_app import identity, review_ui, state
from lens_app.display import show_table
from lens_app.markup import md
from lens_app.review_store import ADVANCE, judgement_frame
from rouge_core.studies.agreement import agreement_rows
from rouge_core.viz import corpus_charts as charts
from rouge_core.viz.highlight import box_html, ngram_highlight_html
from lens_app.navigation import start_router_once

start_router_once()  # opened first on a fresh server: hand over to app.py's router

# Choices kept under plain keys: Streamlit forgets a widget's value when another page runs.
CHOICES = {"task": "review_task", "sys": "review_sys", "sys_a": "review_sys_a", "sys_b": "review_sys_b"}
POSITION = "review_index"
MEMORY = "_review_choices"
URL_READ = "_review_url_read"

st.title("Review")
store = review_ui.open_store()
# Who judges: the logged-in account (the page stops at the login when there is none), or the
# name typed (single-user mode, kept in the URL). The database location is server configuration
# (never a URL or a text field: a link must not make the server create files).
viewer = identity.review_viewer()
annotator = viewer.key
if "db" in st.query_params:  # links made by earlier versions carried a path: never used
    del st.query_params["db"]
review_ui.corpus_from_link(store)
ui.corpus_loader("review")
corpus = ui.current_corpus()
st.caption("Nothing is stored until your first verdict or note. Each one is then saved as you make it, together "
           "with the corpus (so that a reload or another annotator's browser opens it again), in "
           f"{review_ui.where_stored(store)}.")

if corpus is None:
    st.info("Load a corpus to review it, or reopen one stored with its judgements.")
    review_ui.stored_corpora(store, "review")
    stored_count = store.count()
    if stored_count:
        st.subheader("Judgements in this database")
        seen = review_ui.shown_frame(store, viewer, judgement_frame(store.visible_to(annotator, role=viewer.role)))
        hidden = stored_count - len(seen)
        if viewer.team:
            held = f" {hidden:,} of them, other annotators', are shown to task owners only." if hidden else ""
        else:
            held = (f" {hidden:,} of them, other annotators' verdicts and notes on tasks you have not finished, are "
                    "hidden from you until you have judged every pair of the task (or its owner shows them)."
                    if hidden else "")
        st.caption(f"{stored_count:,} judgement(s) stored.{held}" + ("" if annotator else " Enter your annotator "
                                                                        "name to see yours."))
        if not seen.empty:
            latest = seen.sort_values("updated_at").iloc[-1]
            st.caption(f"Latest you can see: pair {md(latest['pair_id'])} by {md(latest['annotator'])}: "
                       f"{md(latest['verdict'] or '(no verdict)')} at {md(latest['updated_at'])}")
            table = rt.export_frame(seen)
            show_table(table, key="review_all_judgements")
            ui.download_pair("Judgements you can see", table, "judgements|all", "judgements_all", "dl_all_judgements")
    st.stop()

fingerprint = review_ui.name_in_link(store, corpus)
systems = corpus.system_names
n = len(corpus)
memory = st.session_state.setdefault(MEMORY, {})

# A reload (or a link) names the task, systems and pair: they win once per session.
if not st.session_state.get(URL_READ):
    st.session_state[URL_READ] = True
    for param, key in CHOICES.items():
        if param in st.query_params:
            memory[key] = st.query_params[param]
    if "pair" in st.query_params and st.query_params["pair"] in corpus.ids:
        st.session_state[POSITION] = corpus.ids.index(st.query_params["pair"])


def choice(widget, label: str, options: list, key: str, **kwargs):
    """A selectbox or similar whose value survives page switches (kept under MEMORY)."""
    if key not in st.session_state and memory.get(key) in options:
        st.session_state[key] = memory[key]
    value = widget(label, options, key=key, **kwargs)
    memory[key] = value
    return value


# --- the task -----------------------------------------------------------------------------------
tasks = {t.name: t for t in store.tasks()}
all_options = store.task_options()
c1, c2, c3 = st.columns(3)
task = tasks[choice(c1.selectbox, "Task", list(tasks), CHOICES["task"])]
options = all_options.get(task.name, rt.TaskOptions())
if task.kind == "rating":
    chosen = (choice(c2.selectbox, "System to rate", systems, CHOICES["sys"]),)
elif len(systems) < 2:
    st.info("This task compares two systems; the corpus has one. Choose a rating task, or load a corpus with "
            "several candidate columns.")
    st.stop()
else:
    first_pick = choice(c2.selectbox, "Compare system", systems, CHOICES["sys_a"])
    others = [s for s in systems if s != first_pick]
    chosen = (first_pick, choice(c3.selectbox, "with system", others, CHOICES["sys_b"]))
    st.caption("Blinded: the two summaries are shown as “Summary 1” and “Summary 2”, in an order that changes from "
               "pair to pair (fixed per annotator), and their systems are named once your verdict is saved.")
key = rt.task_key(task, chosen)
in_url = {"task": task.name, **({"sys": chosen[0]} if task.kind == "rating" else {"sys_a": chosen[0], "sys_b": chosen[1]})}
for param in CHOICES:
    if param in in_url:
        st.query_params[param] = in_url[param]
    elif param in st.query_params:
        del st.query_params[param]


def task_editor() -> None:
    names = list(tasks)
    target = st.selectbox("Edit", ["New task…", *names], key="review_edit_target")
    existing = tasks.get(target)
    owner = all_options.get(target, rt.TaskOptions()).owner if existing else ""
    if viewer.role == rt.ANNOTATOR:
        st.caption("Only task owners create and change tasks on this server; you judge them.")
        return
    if existing is None and not annotator:
        st.caption("Enter your annotator name to create a task: its creator is its owner, who sets its options.")
        return
    if owner and owner != annotator:
        st.caption(f"This task belongs to {review_ui.owner_said(store, viewer, owner)}: only they can change it. "
                   "Create a task of your own to ask something else.")
        return
    in_use = existing is not None and store.task_in_use(existing.name)
    suffix = "new" if existing is None else target
    name = existing.name if existing else st.text_input("Name", key="review_edit_name", max_chars=rt.MAX_NAME)
    kinds = {"rating": "Rate one system (1 … k)", "compare": "Compare two systems, blinded (3 or 5 points)"}
    kind = existing.kind if existing else st.radio("Kind", list(kinds), format_func=kinds.get, key="review_edit_kind",
                                                   horizontal=True)
    if existing:
        st.caption(f"{kinds[kind]}." + (" Judgements were saved under this task: its points stay as they are; the "
                                        "question and anchors can change." if in_use else ""))
    sizes = list(rt.RATING_POINTS) if kind == "rating" else list(rt.COMPARE_VALUES)
    points = existing.points if existing and in_use else st.selectbox(
        "Points", sizes, index=sizes.index(existing.points if existing else (5 if kind == "rating" else 3)),
        key=f"review_edit_points_{suffix}_{kind}")
    question = st.text_input("Question", existing.question if existing else "", key=f"review_edit_question_{suffix}")
    start = existing.anchors if existing and existing.points == points else rt.default_anchors(kind, points)
    labels = rt.Task("", kind, "", start).values
    anchors = tuple(st.text_input(f"Anchor for {md(labels[i])}", start[i], key=f"review_edit_anchor_{suffix}_{points}_{i}")
                    for i in range(points))
    if st.button("Save the task", key="review_edit_save", type="primary"):
        edited = rt.Task(name.strip(), kind, question.strip(), tuple(a.strip() for a in anchors))
        if existing is None and edited.name in tasks:
            st.error(f"A task named {md(edited.name)} exists already; choose it above to edit it.")
        elif edited.problems():
            st.error(md("; ".join(edited.problems()).capitalize() + "."))
        else:
            try:
                store.save_task(edited, owner=annotator, role=viewer.role, account=viewer.account)
            except (PermissionError, review_ui.StoreError) as e:
                st.error(f"NOT saved: {md(e)}")
                return
            st.success(f"Saved the task {md(edited.name)}.")
            st.rerun()


with st.expander("Task definitions: name, question, scale and anchors", key="review_task_editor_open",
                 on_change="rerun") as editor:
    if editor.open:
        task_editor()

review_ui.task_options_view(store, task.name, options, viewer)

# --- where we are -------------------------------------------------------------------------------
rows = store.all(fingerprint, key)
mine = {j.pair_id for j in rows if annotator and j.annotator == annotator and j.verdict}
position = max(0, min(st.session_state.get(POSITION, 0), n - 1))
st.session_state[POSITION] = position


def go_to(index: int) -> None:
    st.session_state[POSITION] = max(0, min(n - 1, index))
    st.session_state["review_goto"] = st.session_state[POSITION] + 1


def go_unjudged(done: frozenset) -> None:
    target = rt.next_unjudged(corpus.ids, done, st.session_state.get(POSITION, 0))
    if target is None:
        st.session_state["review_message"] = "Every pair has your verdict on this task."
    else:
        go_to(target)


def go_typed() -> None:
    go_to(int(st.session_state["review_goto"]) - 1)


ADVANCE_KEY = f"review_advance|{annotator}"


def set_advance() -> None:
    store.set_preference(annotator, ADVANCE, bool(st.session_state[ADVANCE_KEY]))


st.session_state["review_goto"] = position + 1
b1, b2, b3, b4, b5 = st.columns([1, 1, 1.4, 1.2, 1.8], vertical_alignment="bottom")
b1.button("← Previous (k)", on_click=go_to, args=(position - 1,), key="review_prev", shortcut="k", disabled=position == 0)
b2.button("Next (j) →", on_click=go_to, args=(position + 1,), key="review_next", shortcut="j", disabled=position >= n - 1)
b3.button("Next unjudged (n)", on_click=go_unjudged, args=(frozenset(mine),), key="review_next_unjudged", shortcut="n",
          disabled=not annotator)
b4.number_input("Go to pair", 1, n, step=1, key="review_goto", on_change=go_typed)
advance = bool(store.preference(annotator, ADVANCE)) if annotator else False
st.session_state[ADVANCE_KEY] = advance  # the stored preference (another browser of this annotator may have set it)
b5.toggle("Next unjudged after a verdict", key=ADVANCE_KEY, on_change=set_advance, disabled=not annotator,
          help="Your preference, kept with your name: after each verdict is saved, go on to the next pair you have not "
               "judged on this task. Off: stay on the pair, to see the verdict saved (and, in a comparison, which "
               "system was which) and change it if the key was wrong.")
pair_id = corpus.ids[position]
st.query_params["pair"] = pair_id
st.progress((position + 1) / n, text=f"Pair {position + 1} of {n}: id {md(pair_id)}"
            + (f" · {md(viewer.label)} has judged {len(mine)} of {n} on this task" if annotator else ""))
message = st.session_state.pop("review_message", None)
if message:
    st.info(message)
with st.expander("Progress per annotator" if viewer.role != rt.ANNOTATOR else "Your progress",
                 key="review_progress_open", on_change="rerun") as progress_view:
    if progress_view.open:
        judged: dict[str, list[str]] = {}
        progress_rows = rt.visible_judgements(annotator, rows, all_options, corpus.ids, viewer.role) if viewer.team \
            else rows  # without logins everyone's progress shows (names only, no verdicts)
        names = review_ui.names_shown(store, viewer, [j.annotator for j in progress_rows])
        for j in progress_rows:
            if j.verdict:
                judged.setdefault(names[j.annotator], []).append(j.pair_id)
        if judged:
            show_table(pd.DataFrame(rt.progress_rows(judged, n)), key="review_progress", limit=None,
                       column_config={"done": st.column_config.ProgressColumn("done", format="percent")})
        else:
            st.caption("Nobody has judged a pair on this task yet.")

# --- the pair -----------------------------------------------------------------------------------
references = list(corpus.references[position])
stored = store.get(fingerprint, key, pair_id, annotator) if annotator else None
highlights = options.rouge_highlights  # what this annotator is shown now, recorded with the verdict
marked = " (words found in the summary marked)" if highlights else ""
marked_in_ref = " (words found in a reference marked)" if highlights else ""
if highlights:
    st.caption("The task's owner turned on the ROUGE-1 marks for this task (*Options of this task*): your verdicts "
               "are recorded as made with them.")


def drawn(text: str, other: list[str]) -> str:
    """`text` as escaped HTML for st.html: with its ROUGE-1 matches against `other` marked when
    the task shows highlights, else plain."""
    if not highlights:
        return box_html(text)
    result = rouge_core.score(text, other or [""], ["rouge1"], state.current_options(), evidence=True)
    ms = result["rouge1"]
    evidence = ms.per_reference[ms.chosen if ms.chosen is not None else 0].evidence
    return ngram_highlight_html(result.candidate, evidence, "candidate")


plural = "s" if len(references) > 1 else ""
# the document summarised, beside the summaries, when the corpus has one (scrolls past SOURCE_HEIGHT)
source_text = corpus.sources[position] if corpus.sources is not None else ""
SOURCE_HEIGHT = "28rem"
seed, seed_stored = review_ui.annotator_seed(store, annotator) if annotator else (0, True)
if task.kind == "rating":
    (system,) = chosen
    shown = (system,)
    swapped = False
    *source_column, left, right = st.columns(3 if source_text else 2)
    if source_text:
        with source_column[0]:
            st.markdown("**Source document**")
            st.html(box_html(source_text, SOURCE_HEIGHT))
    with left:
        st.markdown(f"**Reference{plural}**{marked}")
        for ref in references:
            st.html(drawn(ref, [corpus.systems[system][position]]))
    with right:
        st.markdown(f"**Summary — {md(system)}**{marked_in_ref}")
        st.html(drawn(corpus.systems[system][position], references))
else:
    pair = rt.compared_pair(*chosen)
    swapped = rt.shown_swapped(seed, fingerprint, key, pair_id) if annotator else False
    shown = rt.shown_order(pair, swapped)
    st.markdown(f"**Reference{plural}**")
    for ref in references:
        st.html(box_html(ref))
    *source_column, first_column, second_column = st.columns(3 if source_text else 2)
    if source_text:
        with source_column[0]:
            st.markdown("**Source document**")
            st.html(box_html(source_text, SOURCE_HEIGHT))
    for number, (column, system) in enumerate(zip((first_column, second_column), shown), 1):
        with column:
            st.markdown(f"**Summary {number}**{marked_in_ref}")
            st.html(drawn(corpus.systems[system][position], references))
            if stored and stored.verdict:
                st.caption(f"Summary {number} is **{md(system)}**.")
            else:
                st.caption("System hidden until your verdict is saved.")

# --- verdict and note, saved on every change --------------------------------------------------
current = rt.shown_index(task, stored.verdict, swapped) if stored else None


def save(index: int | None, note_key: str) -> None:
    verdict = rt.stored_verdict(task, index, swapped) if index is not None else (stored.verdict if stored else "")
    # a note added later keeps the record of what its verdict was made with
    primed = highlights if index is not None or not (stored and stored.verdict) else stored.rouge_highlights
    a, b = (chosen[0], "") if task.kind == "rating" else rt.compared_pair(*chosen)
    try:
        store.save(fingerprint, key, pair_id, annotator, verdict, st.session_state.get(note_key, ""), corpus.source,
                   task_name=task.name, kind=task.kind, system_a=a, system_b=b,
                   shown_first=shown[0] if task.kind == "compare" else "", rouge_highlights=primed,
                   corpus_data=corpus, seed=None if seed_stored else seed,  # both stored with the first judgement
                   account=viewer.account)
        what = task.anchors[index] if index is not None else "note"
        said = rt.verdict_text(rt.parse_task_key(key), verdict)
        st.session_state["review_saved"] = f"Saved pair {md(pair_id)}: {md(said or '(no verdict)')}" + (
            f" ({md(what)})" if index is not None else "")
    except Exception as e:  # shown, never swallowed silently
        st.session_state["review_saved"] = f"NOT saved: {md(e)}"
        return
    if index is not None and advance:
        go_unjudged(frozenset(mine | {pair_id}))


st.markdown(f"#### {md(task.question)}")
if not annotator:
    st.warning("Enter your annotator name to record judgements.")
keys = [str((i + 1) % 10) for i in range(task.points)]  # the tenth point of a 10-point scale is key 0
group = f"Your rating (keys {keys[0]}–{keys[-1]})" if task.kind == "rating" else f"Your preference (keys {keys[0]}–{keys[-1]})"
st.markdown(f"**{group}**")
note_key = f"note_{fingerprint}_{key}_{pair_id}_{annotator}"
for i, (column, anchor) in enumerate(zip(st.columns(task.points), task.anchors)):
    value = task.values[i] if task.kind == "rating" else f"{i + 1}"
    column.button(f"{value} · {md(anchor)}", key=f"verdict_{i}", shortcut=keys[i], on_click=save, args=(i, note_key),
                  type="primary" if current == i else "secondary", disabled=not annotator, width="stretch",
                  wrap=True)
if note_key not in st.session_state:
    st.session_state[note_key] = stored.note if stored else ""
st.text_area("Note", key=note_key, on_change=save, args=(None, note_key), disabled=not annotator)
message = st.session_state.pop("review_saved", None)
if message:
    (st.error if message.startswith("NOT") else st.success)(message)
if stored:
    st.caption(f"Last saved {md(stored.updated_at)} by {md(viewer.label)}")
st.caption("Keys: " + ", ".join(keys) + " set the verdict · j / k next / previous pair · n next unjudged pair.")

# --- the judgements this annotator may see: export, agreement, relation to ROUGE -----------------------
st.subheader("Judgements")
seen = store.visible_to(annotator, fingerprint, corpus.ids, viewer.role)  # the one rule: lens_app.review_tasks
hidden = store.count(fingerprint) - len(seen)
st.caption(rt.visibility_note(options, corpus.ids, mine, hidden, viewer.role))
judgements = review_ui.shown_frame(store, viewer, judgement_frame(seen))
if judgements.empty:
    st.caption("No judgements of yours for this corpus yet." if hidden else "No judgements for this corpus yet.")
    st.stop()
table = rt.export_frame(judgements, systems)
show_table(table.drop(columns=["corpus"]), key="review_judgements")
ui.download_pair("Judgements", table, f"judgements|corpus:{fingerprint}", "judgements", "dl_judgements")

this_task = [j for j in judgements.itertuples() if j.verdict and rt.parse_task_key(j.task, systems).aspect == task.name]
labels = [(j.annotator, (j.task, j.pair_id), j.verdict) for j in this_task]
if len({a for a, _, _ in labels}) >= 2:
    st.markdown(f"**Agreement between annotators** on {md(task.name)} (every system or pair of systems of this task)")
    agreement = pd.DataFrame(agreement_rows(labels, ordered=task.values))
    show_table(agreement, key="review_agreement", limit=None)
else:
    st.caption("The agreement between annotators is shown to task owners." if viewer.role == rt.ANNOTATOR else
               "Agreement with the other annotators appears with their verdicts (see above)." if hidden else
               "Agreement needs judgements from two annotators on this task.")
review_ui.link_to_meta()

current_rows = judgements[(judgements["task"] == key) & (judgements["verdict"] != "")]
results = ui.current_results()
first = chosen[0] if task.kind == "rating" else rt.compared_pair(*chosen)[0]
second = None if task.kind == "rating" else rt.compared_pair(*chosen)[1]
if results and ui.results_current(corpus) and first in results and not current_rows.empty:
    method = results[first].methods[0]
    index = {pid: i for i, pid in enumerate(corpus.ids)}
    a_values = results[first].values(method)
    b_values = results[second].values(method) if second in results else None
    data = current_rows.assign(difference=[a_values[index[p]] - (b_values[index[p]] if b_values else 0.0)
                                           for p in current_rows["pair_id"]])
    st.altair_chart(charts.verdicts_vs_difference(data, signature=results[first].signatures[method]), width="stretch")
elif not current_rows.empty:
    st.caption("Score the corpus (Corpus page) to see how the verdicts relate to ROUGE.")
