"""The Review page's logic, without Streamlit: task definitions, the task key each judgement is
stored under, blinding, and what a verdict means as a human score.

A task is a definition (name, kind, question, one anchor text per scale point), stored in the
judgements database (lens_app.review_store) and editable. Two kinds:

* "rating": one system's output rated on points "1" … "k" (2 ≤ k ≤ 10);
* "compare": two systems' outputs side by side, blinded, on 3 or 5 points from "the first
  summary shown is (much) better" to "the second is (much) better". The stored verdict names
  the systems, not the sides: it is one of COMPARE_VALUES (e.g. "A better", "tie", "B better"),
  where A and B are the two systems in sorted order, whichever side each was shown on.

A judgement's task key names the task and its systems: the JSON text of
``["rating", <task name>, <system>]`` or ``["compare", <task name>, <A>, <B>]``. Judgements
saved before tasks existed have keys like ``rating:<system>|scale:1–5`` or
``compare:<A>|<B>|scale:A b`` (their scale names cut to 3 characters); `parse_task_key` reads
both, with the corpus's system names to split a legacy compare key whose names hold "|".

Blinding: which system of a compare task is shown first is decided per pair by a hash of the
annotator's seed (stored once per annotator), the corpus, the task key and the pair: the same
annotator always sees the same order, another annotator another one.

Human scores (for rouge_core.studies.meta): a rating is its number; a comparison gives the preferred
system 1 and the other 0, a tie 0.5 each (5 points: 1, 0.75, 0.5, 0.25, 0); an annotator's
several comparisons of one system on one document are averaged. The aspect is the task's name.

Who sees what (`visible_judgements`, the one place the rule lives): an annotator sees their own
judgements, and another annotator's verdicts and notes on a task (a task key: the task on its
systems, over one corpus) only once they have judged every pair of it themselves, or when the
task's owner lets everyone see them (`TaskOptions.others_visible`). The owner of a task is the
annotator who created it; the built-in tasks, and tasks made by earlier versions, have none
until a named annotator first sets one of their options. Without logins (SINGLE_USER) an
annotator is the name typed on the page, so the rule keeps annotators from being swayed, not
from lying about their name. With logins (lens_app.identity) the viewer is the logged-in
account and the server's configuration gives each a role: a task owner (OWNER) sees every
judgement, the agreement and the exports, and creates tasks and sets their options; an
annotator (ANNOTATOR) sees their own judgements only (others' would name them).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from rouge_core.studies.meta import HumanJudgements, HumanScore

KINDS = ("rating", "compare")
RATING_POINTS = range(2, 11)
COMPARE_VALUES = {
    3: ("A better", "tie", "B better"),
    5: ("A much better", "A slightly better", "tie", "B slightly better", "B much better"),
}
MAX_NAME = 80

# Judgements saved before task definitions existed: the scale name was cut to 3 characters.
LEGACY_SCALES = {"1–5": "1–5 rating", "A b": "A better / B better / tie"}
LEGACY_AB = ("A better", "tie", "B better")  # the old A/B scale, in order (it was shown as A, B, tie)


@dataclass(frozen=True)
class Task:
    name: str
    kind: str  # "rating" or "compare"
    question: str
    anchors: tuple[str, ...]  # one per point, in the order shown

    @property
    def points(self) -> int:
        return len(self.anchors)

    @property
    def values(self) -> tuple[str, ...]:
        """What is stored for each point: "1" … "k" for a rating; for a comparison the
        COMPARE_VALUES of its size, in shown order as if system A were shown first."""
        if self.kind == "rating":
            return tuple(str(i) for i in range(1, self.points + 1))
        return COMPARE_VALUES[self.points]

    def problems(self) -> list[str]:
        """Why this definition cannot be saved (empty when it can)."""
        out = []
        if not self.name.strip():
            out.append("a task needs a name")
        elif len(self.name) > MAX_NAME:
            out.append(f"a task name has at most {MAX_NAME} characters")
        if self.kind not in KINDS:
            out.append(f"the kind must be one of {', '.join(KINDS)}")
        elif self.kind == "rating" and self.points not in RATING_POINTS:
            out.append(f"a rating scale has {RATING_POINTS.start} to {RATING_POINTS.stop - 1} points")
        elif self.kind == "compare" and self.points not in COMPARE_VALUES:
            out.append("a comparison scale has 3 or 5 points")
        if not self.question.strip():
            out.append("a task needs a question")
        if any(not a.strip() for a in self.anchors):
            out.append("every point needs an anchor text")
        return out

    def to_json(self) -> str:
        return json.dumps({"kind": self.kind, "question": self.question, "anchors": list(self.anchors)},
                          ensure_ascii=False)

    @classmethod
    def from_json(cls, name: str, text: str) -> "Task":
        data = json.loads(text)
        return cls(name, data["kind"], data["question"], tuple(data["anchors"]))


DEFAULT_TASKS = (
    Task("Overall quality", "rating", "How good is this summary, given the reference?", (
        "Unusable: wrong or unreadable",
        "Poor: misses most of the key content",
        "Acceptable: the key content, with errors or gaps",
        "Good: the key content, minor issues only",
        "Excellent: complete, accurate and fluent",
    )),
    Task("Which summary is better?", "compare", "Which summary is better, given the reference?", (
        "The first summary is better",
        "They are about equally good",
        "The second summary is better",
    )),
)


# Who is looking (the roles the visibility rule and the task options know).
SINGLE_USER = "single-user"  # no logins on this server: the name typed on the page
OWNER = "task owner"  # logged in, named a task owner by the server's configuration
ANNOTATOR = "annotator"  # logged in, any other account allowed to annotate
ROLES = (SINGLE_USER, OWNER, ANNOTATOR)


@dataclass(frozen=True)
class TaskOptions:
    """A task's options, recorded with it in the judgements database; its owner sets them."""

    owner: str = ""  # the annotator who created the task; '' until someone claims a task without one
    rouge_highlights: bool = False  # ROUGE-1 matches marked on the texts: primes the annotator, hence off by default
    others_visible: bool = False  # others' verdicts and notes shown to annotators who have not finished the task


def may_change_options(viewer: str, options: TaskOptions, role: str = SINGLE_USER) -> bool:
    """Whether `viewer` in `role` may set a task's options: its owner, or for a task without
    an owner any named annotator (who becomes its owner by doing so); with logins, only an
    account in the task owner role."""
    viewer = viewer.strip()
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    return bool(viewer) and role != ANNOTATOR and options.owner in ("", viewer)


def default_anchors(kind: str, points: int) -> tuple[str, ...]:
    """Anchor texts to start a new scale from."""
    if kind == "compare":
        if points == 5:
            return ("The first is much better", "The first is somewhat better", "About equally good",
                    "The second is somewhat better", "The second is much better")
        return DEFAULT_TASKS[1].anchors
    if points == 5:
        return DEFAULT_TASKS[0].anchors
    return tuple(["Worst"] + [f"Point {i}" for i in range(2, points)] + ["Best"])


# --- task keys -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TaskRef:
    """What a stored task key stands for."""

    kind: str  # "rating" or "compare"
    name: str  # the task's name; for a legacy key, its scale's whole name
    systems: tuple[str, ...]  # rating: (system,); compare: (A, B) in sorted order
    legacy_scale: str = ""  # for keys saved before task definitions: "1–5 rating" or "A better / B better / tie"

    @property
    def aspect(self) -> str:
        """The name its human scores go by: the task's name; a legacy scale's whole name, with
        what was compared where the same scale served both kinds."""
        if self.legacy_scale == LEGACY_SCALES["A b"] and self.kind == "rating":
            return f"{self.legacy_scale} (against the reference)"
        if self.legacy_scale == LEGACY_SCALES["1–5"] and self.kind == "compare":
            return f"{self.legacy_scale} (how much better A is than B)"
        return self.name


def compared_pair(system_a: str, system_b: str) -> tuple[str, str]:
    """The two systems of a comparison in the order stored (sorted): A, B."""
    return tuple(sorted((system_a, system_b)))  # type: ignore[return-value]


def task_key(task: Task, systems: Sequence[str]) -> str:
    chosen = compared_pair(*systems) if task.kind == "compare" else tuple(systems)
    return json.dumps([task.kind, task.name, *chosen], ensure_ascii=False)


def parse_task_key(key: str, systems: Sequence[str] = ()) -> TaskRef:
    """A stored task key, new or legacy. `systems` (the corpus's system names) splits a legacy
    compare key whose system names hold "|"."""
    if key.startswith("["):
        kind, name, *chosen = json.loads(key)
        return TaskRef(kind, name, tuple(chosen))
    body, _, scale = key.rpartition("|scale:")
    if not body:  # the oldest keys had no scale
        body, scale = key, "A b" if key.startswith("compare:") else "1–5"
    whole = LEGACY_SCALES.get(scale, scale)
    if body.startswith("compare:"):
        names = body[len("compare:"):]
        splits = [(names[:i], names[i + 1:]) for i, c in enumerate(names) if c == "|"]
        known = [s for s in splits if s[0] in systems and s[1] in systems]
        a, b = (known or splits or [(names, "")])[0]
        return TaskRef("compare", whole, (a, b), whole)
    system = body[len("rating:"):] if body.startswith("rating:") else ""
    return TaskRef("rating", whole, (system,), whole)


# --- blinding ------------------------------------------------------------------------------------

def shown_swapped(seed: int, corpus: str, key: str, pair_id: str) -> bool:
    """Whether system B is shown first for this annotator (seed), corpus, task and pair."""
    digest = hashlib.sha256(json.dumps([seed, corpus, key, pair_id], ensure_ascii=False).encode("utf-8",
                                                                                              "surrogatepass"))
    return bool(digest.digest()[0] & 1)


def shown_order(pair: tuple[str, str], swapped: bool) -> tuple[str, str]:
    """The systems as shown: first, second."""
    return (pair[1], pair[0]) if swapped else pair


def stored_verdict(task: Task, shown_index: int, swapped: bool) -> str:
    """The value stored for the point the annotator chose (index in shown order)."""
    values = task.values
    if task.kind == "compare" and swapped:
        return values[len(values) - 1 - shown_index]
    return values[shown_index]


def verdict_text(ref: TaskRef, verdict: str) -> str:
    """A stored verdict in words, the compared systems named: "sysB better", "sysA much better"."""
    if ref.kind != "compare" or not verdict.startswith(("A ", "B ")):
        return verdict
    return (ref.systems[0] if verdict[0] == "A" else ref.systems[1]) + verdict[1:]


def shown_index(task: Task, verdict: str, swapped: bool) -> int | None:
    """Which shown point a stored verdict is (None: not a value of this task's scale)."""
    values = task.values
    if verdict not in values:
        return None
    i = values.index(verdict)
    return len(values) - 1 - i if task.kind == "compare" and swapped else i


# --- navigation ----------------------------------------------------------------------------------

def next_unjudged(ids: Sequence[str], judged: Iterable[str], position: int) -> int | None:
    """The first pair after `position` (wrapping around) without a verdict; None when every
    pair has one."""
    done = set(judged)
    n = len(ids)
    for step in range(1, n + 1):
        i = (position + step) % n
        if ids[i] not in done:
            return i
    return None


# --- who sees what --------------------------------------------------------------------------------

def finished(pair_ids: Sequence[str], judged: Iterable[str]) -> bool:
    """Whether every pair has a verdict (never for an unknown, i.e. empty, list of pairs)."""
    return bool(pair_ids) and set(pair_ids) <= set(judged)


def visible_judgements(viewer: str, rows: Iterable, options: Mapping[str, TaskOptions],
                       pair_ids: Sequence[str] | None, role: str = SINGLE_USER) -> list:
    """The stored judgements of one corpus that `viewer` in `role` may see (see the module
    docstring). A task owner (OWNER): all of them; an annotator (ANNOTATOR): their own.
    Without logins (SINGLE_USER): their own, and on each task key the others' once `viewer` has
    a verdict on every pair of `pair_ids` (the corpus's ids; None when the corpus is not
    stored: nobody has finished) or the task's options (by task name; a task without options
    keeps them hidden) show them.

    `rows` need `task`, `pair_id`, `annotator` and `verdict` (ReviewStore's Judgement)."""
    rows = list(rows)
    viewer = viewer.strip()
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    if role == OWNER and viewer:
        return rows
    if role == ANNOTATOR:
        return [row for row in rows if viewer and row.annotator == viewer]
    judged: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row.annotator == viewer and row.verdict:
            judged[row.task].add(str(row.pair_id))
    ids = list(pair_ids or ())

    def others_shown(key: str) -> bool:
        return options.get(parse_task_key(key).name, TaskOptions()).others_visible or finished(ids, judged[key])

    shown = {key: others_shown(key) for key in {row.task for row in rows}}
    return [row for row in rows if (viewer and row.annotator == viewer) or shown[row.task]]


def visibility_note(options: TaskOptions, pair_ids: Sequence[str], judged: Iterable[str], hidden: int,
                    role: str = SINGLE_USER) -> str:
    """Why the others' verdicts on the current task are shown or hidden, and when they appear
    (Markdown without user text); `judged`: the pairs the viewer has a verdict on, `hidden`:
    how many judgements of the corpus `visible_judgements` left out for a viewer in `role`."""
    if role == OWNER:
        return ("As a task owner you see every annotator's verdicts and notes on this corpus, the agreement between "
                "them and, in the export, each verdict's identity provider and subject.")
    if role == ANNOTATOR:
        held = f" ({hidden:,} judgement(s) of others on this corpus)" if hidden else ""
        return ("You see your own verdicts and notes. This server has logins: only its task owners see the other "
                f"annotators' judgements{held} and the agreement, so nobody's verdicts can sway yours and nobody "
                "else's identity is shown to you.")
    if options.others_visible:
        return ("The task's owner lets every annotator see the others' verdicts and notes on this task before "
                "finishing it.")
    judged = set(judged) & set(pair_ids)
    if finished(pair_ids, judged):
        return "You have judged every pair of this task: the other annotators' verdicts and notes on it are shown."
    held = f" ({hidden:,} judgement(s) of others on this corpus are hidden from you)" if hidden else ""
    return (f"Other annotators' verdicts and notes on this task stay hidden until you have judged all "
            f"{len(pair_ids):,} pairs of it (you have judged {len(judged):,}), so that they cannot sway yours{held}. "
            "The task's owner can show them earlier under *Options of this task*.")


def highlighted_verdicts(rows: Iterable, systems: Sequence[str] = ()) -> list[tuple[str, int, int]]:
    """Per aspect (task name): how many verdicts were made with ROUGE highlights shown, out of
    how many; only aspects with at least one. `rows` need `task`, `verdict` and
    `rouge_highlights`."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if row.verdict:
            count = counts[parse_task_key(row.task, systems).aspect]
            count[0] += bool(row.rouge_highlights)
            count[1] += 1
    return [(aspect, shown, total) for aspect, (shown, total) in sorted(counts.items()) if shown]


# --- human scores ----------------------------------------------------------------------------------

def verdict_scores(ref: TaskRef, verdict: str) -> dict[str, float]:
    """{system: human score} that one verdict gives (empty for no verdict or an unknown one)."""
    if ref.kind == "rating":
        if ref.legacy_scale == LEGACY_SCALES["A b"]:  # the candidate against the reference
            return {ref.systems[0]: 1 - LEGACY_AB.index(verdict) / 2} if verdict in LEGACY_AB else {}
        try:
            value = float(verdict)
        except ValueError:
            return {}
        return {ref.systems[0]: value} if math.isfinite(value) else {}
    a, b = ref.systems
    if ref.legacy_scale == LEGACY_SCALES["1–5"]:  # how much better A is than B, 3 = the same
        if verdict not in ("1", "2", "3", "4", "5"):
            return {}
        share = (int(verdict) - 1) / 4
        return {a: share, b: 1 - share}
    for values in COMPARE_VALUES.values():
        if verdict in values:
            position = values.index(verdict)
            share = 1 - position / (len(values) - 1)
            return {a: share, b: 1 - share}
    return {}


@dataclass(frozen=True)
class StoredJudgement:
    """What the human-score conversion needs of one stored row."""

    task: str
    pair_id: str
    annotator: str
    verdict: str


def human_judgements(rows: Iterable[StoredJudgement], systems: Sequence[str] = (), source: str = "") -> HumanJudgements:
    """The human scores of stored judgements (see the module docstring); the aspect is the
    task's name. An annotator's several scores for one system on one document (comparisons
    against several systems) are averaged."""
    collected: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    for row in rows:
        ref = parse_task_key(row.task, systems)
        for system, value in verdict_scores(ref, row.verdict).items():
            collected[(system, str(row.pair_id), row.annotator, ref.aspect)].append(value)
    scores = tuple(HumanScore(s, d, a, aspect, math.fsum(v) / len(v)) for (s, d, a, aspect), v in collected.items())
    return HumanJudgements(scores, source)


def scale_of(ref: TaskRef, task: Task | None) -> tuple[str, ...] | None:
    """The ordered values of a task key's scale, for weighted agreement (None: unknown)."""
    if ref.legacy_scale:
        return ("1", "2", "3", "4", "5") if ref.legacy_scale == LEGACY_SCALES["1–5"] else LEGACY_AB
    return task.values if task is not None else None


def progress_rows(verdicts: Mapping[str, Iterable[str]], total: int) -> list[dict]:
    """Per annotator: pairs judged (with a verdict) out of `total`."""
    rows = []
    for annotator in sorted(verdicts):
        judged = len(set(verdicts[annotator]))
        rows.append({"annotator": annotator, "judged": judged, "pairs": total,
                     "done": judged / total if total else math.nan})
    return rows


def export_frame(frame, systems: Sequence[str] = ()):
    """Stored judgements (ReviewStore.frame) as exported and shown: every row with its own
    task's name, kind and systems, rows saved before task definitions included (their
    scale's whole name as the task name)."""
    out = frame.copy()
    for i, row in out.iterrows():
        if row["task_name"]:
            continue
        ref = parse_task_key(row["task"], systems)
        out.at[i, "task_name"] = ref.aspect
        out.at[i, "kind"] = ref.kind
        out.at[i, "system_a"] = ref.systems[0]
        out.at[i, "system_b"] = ref.systems[1] if len(ref.systems) > 1 else ""
    first = ["pair_id", "annotator", "task_name", "kind", "system_a", "system_b", "verdict", "note", "updated_at"]
    return out[first + [c for c in out.columns if c not in first]]
