"""The released files of three meta-evaluation projects, recognised by their content and read
as records: summaries (for rouge_core.corpora.corpus_io.read_corpus) and human scores (for
rouge_core.studies.meta.read_judgements).

Formats (the field layouts are those the projects' own code writes and reads):

* **SummEval** (Fabbri et al. 2021), `model_annotations.aligned.jsonl`: one JSON line per
  (document, system): `id` (the CNN/DailyMail story, e.g. "dm-test-…"), `model_id` ("M0" …
  "M23"), `decoded` (the summary), `references` (11: the original highlights first, then ten
  crowd-written ones), `expert_annotations` (3) and `turker_annotations` (5), each a
  {coherence, consistency, fluency, relevance} object, `filepath`, and `text` (the source
  article) once SummEval's `pair_data.py` has added it. Human scores are named as sacrerouge
  names them: `expert_relevance`, `turker_coherence`, …; the k-th annotation of a list is
  "annotator k" (the file does not say whether the k-th annotation of every summary is the
  same person's). Fields named `metric_scores…` hold automatic metrics' scores.
* **sacrerouge** (Deutsch & Roth 2020): a summaries file, one JSON line per summary:
  `instance_id`, `summarizer_id`, `summarizer_type` ("peer", or "reference" for a
  reference scored as a summary), `summary` ({"text": …}), `reference` or `references`
  ({"text": …} each) and optionally `document` or `documents`; a text is a string or a list
  of sentences. A metrics file, one JSON line per summary: `instance_id`, `summarizer_id`,
  `summarizer_type` and `metrics`, a nested object whose keys are joined with "_" (sacrerouge's
  `MetricsDict.flatten_keys`: {"expert": {"relevance": …}} is `expert_relevance`); a list of
  numbers holds one score per annotator. Lines of the same summary are merged, as sacrerouge's
  `correlate` merges them.
* **REALSumm** (Bhandari et al. 2020), `scores_dicts/abs.pkl` and `ext.pkl` (or their JSON
  conversion): {doc_id: {"doc_id", "ref_summ", "system_summaries": {"<system>.txt":
  {"system_summary", "scores": {"litepyramid_recall": …, "rouge_1_f_score": …, …}}}}}. Texts
  mark their sentences `<t> … </t>`; systems are named without ".txt" (as sacrerouge does).
  The human score is `litepyramid_recall`; the other scores are automatic metrics'. A pickle
  is read by rouge_core.corpora.pickle_data, which cannot run code; the JSON conversion of a pickle
  (`json.dump` of its dict) is read as well.

Anything else is a table (CSV, TSV, JSON lines, JSON) for the column-based readers.
Compressed files (`.gz`) are read within the same size limit, counted after decompression.

Automatic metrics' scores (`AUTOMATIC_METRIC`: ROUGE, BERTScore, MoverScore, JS-2, BLEU, …)
are not human judgements: read_judgements leaves them out, and names them, unless asked.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from .pickle_data import PickleError, looks_like_pickle, read_pickle_data
from ..text.textio import InputError, decode_bytes, json_lines, json_type_name, parse_json

TABLE, SUMMEVAL, SACREROUGE_SUMMARIES, SACREROUGE_METRICS, REALSUMM = (
    "table", "summeval", "sacrerouge-summaries", "sacrerouge-metrics", "realsumm")
TITLES = {
    TABLE: "a table (CSV / TSV / JSON lines / JSON)",
    SUMMEVAL: "SummEval model annotations",
    SACREROUGE_SUMMARIES: "a sacrerouge summaries file",
    SACREROUGE_METRICS: "a sacrerouge metrics file",
    REALSUMM: "a REALSumm scores dict",
}
FORMATS = tuple(TITLES)
HOLDS_SUMMARIES = (TABLE, SUMMEVAL, SACREROUGE_SUMMARIES, REALSUMM)
HOLDS_JUDGEMENTS = (TABLE, SUMMEVAL, SACREROUGE_METRICS, REALSUMM)

# What each format's records carry, for the message when a file is none of them.
SIGNS = ("SummEval records have model_id and decoded; sacrerouge's have instance_id and summarizer_id (and summary "
         "or metrics); REALSumm's scores dict maps each doc_id to its ref_summ and system_summaries")

AUTOMATIC_METRIC = re.compile(
    r"^(metric_scores|python[-_]rouge|rouge|bert|mover|js[-_]|bleu|sacrebleu|meteor|chrf|cider|qaeval|s3|supert|blanc|"
    r"bewte|autosummeng|memog|npower|apes|sumqe|simetrix|bleurt|bartscore|lite3pyramid|pyreval|summaqa|"
    r"sentence_movers|sms|data_stats|syntactic|summa_qa)", re.IGNORECASE)
SUMMEVAL_GROUPS = ("expert", "turker")
REALSUMM_HUMAN = "litepyramid_recall"
_SENTENCE_TAG = re.compile(r"\s*</?t>\s*")
LISTED = 8  # names listed in a message before "and N more"


def is_automatic(metric: str) -> bool:
    """Whether a score's name is an automatic metric's (ROUGE, BERTScore, …), not a human judgement's."""
    return bool(AUTOMATIC_METRIC.match(metric.strip()))


def listed(names: Sequence[str], limit: int = LISTED) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit:,} more" if len(names) > limit else "")


def has_sentence_tags(text: str) -> bool:
    """Whether a text marks its sentences `<t> … </t>` (it starts with the tag)."""
    return text.lstrip().startswith("<t>")


def tagged_sentences(text: str) -> str:
    """A text whose sentences are marked `<t> … </t>` (REALSumm's files, the outputs of
    pointer-generator-era systems) with one sentence per line and the tags removed (as
    ROUGE-1.5.5's pyrouge wrappers remove them: left in, each tag would count as a word "t");
    other texts as they are."""
    if not has_sentence_tags(text):
        return text
    return "\n".join(part for part in _SENTENCE_TAG.split(text) if part.strip())


# --- bytes ---------------------------------------------------------------------------------------

GZIP_MAGIC = b"\x1f\x8b"


def unpack(data: bytes, name: str, limit: int | None) -> tuple[bytes, str]:
    """The bytes of a file, decompressed when they are gzip's (the limit then counts the
    decompressed bytes, so a small file cannot unpack into a huge one), and its name without
    ".gz"."""
    if not data.startswith(GZIP_MAGIC):
        return data, name
    inner = name[:-3] if name.lower().endswith(".gz") else name
    out = bytearray()
    try:
        while data:
            stream = zlib.decompressobj(16 + zlib.MAX_WBITS)
            room = -1 if limit is None else limit + 1 - len(out)
            out += stream.decompress(data, room if room > 0 else 1) if limit is not None else stream.decompress(data)
            if limit is not None and len(out) > limit:
                raise InputError(f"{name} unpacks to more than the size limit of {limit:,} bytes")
            if not stream.eof:
                raise InputError(f"{name} is a truncated gzip file")
            data = stream.unused_data  # a gzip file may hold several members, one after another
    except zlib.error as e:
        raise InputError(f"{name} is not a valid gzip file ({e})") from None
    return bytes(out), inner


# --- detection -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Detection:
    """What a file was recognised as, and why (the fields or the bytes that said so)."""

    format: str
    reason: str

    @property
    def title(self) -> str:
        return TITLES[self.format]


def _record_format(record: object) -> str | None:
    if not isinstance(record, dict):
        return None
    if "model_id" in record and "decoded" in record:
        return SUMMEVAL
    if "instance_id" in record and "summarizer_id" in record:
        if "summary" in record:
            return SACREROUGE_SUMMARIES
        if "metrics" in record:
            return SACREROUGE_METRICS
    return None


def _is_realsumm(document: object) -> bool:
    if not isinstance(document, dict) or not document:
        return False
    first = next(iter(document.values()))
    return isinstance(first, dict) and "system_summaries" in first


def _fields(record: object) -> str:
    return listed([str(k) for k in record]) if isinstance(record, dict) else json_type_name(record)


def _first_json_record(text: str, name: str) -> tuple[object, str] | None:
    """The first record of a JSON-lines text (its first non-blank line holds a whole value) or
    of a JSON document, with the unit; None when the text is not JSON."""
    first = next(json_lines(text, name), None)
    if first is None:
        return None
    if first.error is None:
        return first.value, "line"
    try:
        document = parse_json(text, name)
    except InputError:
        return None
    if isinstance(document, list):
        return (document[0] if document else None), "item"
    return document, "document"


def detect(data: bytes, name: str, limit: int | None) -> Detection:
    """Which format a file is in, by its content (not its name): a pickle, or JSON whose first
    record has the fields of one of the formats; else a table."""
    data, name = unpack(data, name, limit)
    if looks_like_pickle(data):
        return Detection(REALSUMM, "a pickle, as REALSumm releases them, read as plain data without running any of "
                                   "its code")
    try:
        text = decode_bytes(data, name, limit=limit)
    except InputError:
        return Detection(TABLE, "not text of a known format")
    if text.lstrip()[:1] not in ("{", "["):
        return Detection(TABLE, "not JSON")
    found = _first_json_record(text, name)
    if found is None:
        return Detection(TABLE, "not valid JSON")
    record, unit = found
    if _is_realsumm(record):
        return Detection(REALSUMM, "it maps document ids to their ref_summ and system_summaries")
    if unit == "document" and isinstance(record, dict) and isinstance(record.get("rows"), list):
        record = record["rows"][0] if record["rows"] else None
    kind = _record_format(record)
    if kind == SUMMEVAL:
        return Detection(kind, "its records have model_id and decoded")
    if kind is not None:
        holds = "summary" if kind == SACREROUGE_SUMMARIES else "metrics"
        return Detection(kind, f"its records have instance_id, summarizer_id and {holds}")
    return Detection(TABLE, f"its records' fields are {_fields(record)}; {SIGNS}")


def check_format(detected: Detection, wanted: str, name: str) -> None:
    """A format chosen by the user must be the one the content shows."""
    if wanted not in TITLES:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {wanted!r}")
    if wanted != detected.format:
        raise InputError(f"{name} is not {TITLES[wanted]}: it reads as {detected.title}; {detected.reason}. "
                         f"{SIGNS}")


# --- parsed records --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Record:
    """One record of a file with where it is ("abs.pkl doc 52, system bart_out")."""

    where: str
    value: dict


def _json_records(data: bytes, name: str, limit: int | None) -> tuple[list[Record], list[str]]:
    """The objects of a JSON-lines file or of a JSON document (a list, or {"rows": [...]})."""
    text = decode_bytes(data, name, limit=limit)
    problems: list[str] = []
    first = next(json_lines(text, name), None)
    if first is not None and first.error is not None:  # not JSON lines: one JSON document
        document = parse_json(text, name)
        if isinstance(document, dict) and isinstance(document.get("rows"), list):
            document = document["rows"]
        items = document if isinstance(document, list) else [document]
        values = [(f"{name} item {i}", v) for i, v in enumerate(items, 1)]
    else:
        values = []
        for line in json_lines(text, name):
            if line.error is not None:
                problems.append(str(line.error))
            else:
                values.append((f"{name} line {line.number}", line.value))
    records = []
    for where, value in values:
        if isinstance(value, dict):
            records.append(Record(where, value))
        else:
            problems.append(f"{where}: expected a JSON object, found {json_type_name(value)}")
    return records, problems


def _realsumm_document(data: bytes, name: str, limit: int | None) -> dict:
    if looks_like_pickle(data):
        try:
            document = read_pickle_data(data, name)
        except PickleError as e:
            raise InputError(str(e)) from None
    else:
        document = parse_json(decode_bytes(data, name, limit=limit), name)
    if not isinstance(document, dict):
        raise InputError(f"{name}: a REALSumm scores dict maps doc ids to documents; this file holds "
                         f"{type(document).__name__}")
    return document


# --- texts -------------------------------------------------------------------------------------------

def _flat_sentences(value, where: str, what: str) -> list[str]:
    """A text given as a string or as (nested) lists of sentence strings, as sentences."""
    out: list[str] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, list):
            todo.extend(reversed(item))
        else:
            raise ValueError(f"{where}: {what} must be a text or a list of sentences, not {json_type_name(item)}")
    return out


def text_of(value, where: str, what: str) -> str:
    """A text: a string as it is, a list of sentences one per line; a {"text": …} object's text."""
    if isinstance(value, dict):
        if "text" not in value:
            raise ValueError(f"{where}: {what} is an object without \"text\" (its fields: {_fields(value)})")
        value = value["text"]
    if isinstance(value, str):
        return value
    return "\n".join(_flat_sentences(value, where, what))


def _texts(value, where: str, what: str) -> list[str]:
    """One text or a list of them ({"text": …} objects, strings or lists of sentences)."""
    if isinstance(value, (str, dict)):
        return [text_of(value, where, what)]
    if not isinstance(value, list):
        raise ValueError(f"{where}: {what} must be a list, not {json_type_name(value)}")
    return [text_of(item, where, what) for item in value]


def _identifier(value, where: str, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"{where}: {what} must be a text or a whole number, not {json_type_name(value)}")
    text = str(value).strip()
    if not text:
        raise ValueError(f"{where}: {what} is empty")
    return text


def _realsumm_system(name: str) -> str:
    return name[:-4] if name.endswith(".txt") else name


# --- summaries ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Summary:
    """One system's summary of one document, with the document's references and source."""

    where: str
    document: str
    system: str
    text: str
    references: tuple[str, ...]
    source: str | None


@dataclass(frozen=True)
class Summaries:
    """The summaries of a file, what was skipped, and what the file holds that a corpus does not use."""

    items: tuple[Summary, ...]
    records: int
    unit: str
    skipped: tuple[str, ...] = ()  # sentences: what was left out and why
    unused: tuple[str, ...] = ()  # fields that are read elsewhere or not at all
    problems: tuple[str, ...] = ()


SUMMEVAL_CORPUS_FIELDS = {"id", "model_id", "decoded", "references", "text"}
SACREROUGE_CORPUS_FIELDS = {"instance_id", "summarizer_id", "summarizer_type", "summary", "reference", "references",
                            "document", "documents"}


def _unused(records: Iterable[Record], used: set[str], judgement_fields: Iterable[str] = ()) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for record in records:
        seen.update(dict.fromkeys(k for k in record.value if k not in used))
    judged = [k for k in seen if any(k.startswith(j) for j in judgement_fields)]
    others = [k for k in seen if k not in judged]
    out = []
    if judged:
        out.append(f"{listed(judged)} (human or metric scores: import this file on the annotators page)")
    if others:
        out.append(listed(others))
    return tuple(out)


def _summeval_summary(r: Record) -> Summary:
    v = r.value
    missing = [k for k in ("id", "model_id", "decoded", "references") if k not in v]
    if missing:
        raise ValueError(f"{r.where}: no {' and no '.join(missing)} (a SummEval record has id, model_id, decoded and "
                         f"references; its fields: {_fields(v)})")
    source = text_of(v["text"], r.where, "text") if v.get("text") is not None else None
    return Summary(r.where, _identifier(v["id"], r.where, "id"), _identifier(v["model_id"], r.where, "model_id"),
                   text_of(v["decoded"], r.where, "decoded"), tuple(_texts(v["references"], r.where, "references")),
                   source)


def _sacrerouge_summary(r: Record) -> Summary | None:
    """A peer's summary; None for a reference scored as a summary (sacrerouge's jackknifing)."""
    v = r.value
    if v.get("summarizer_type", "peer") == "reference":
        return None
    missing = [k for k in ("instance_id", "summarizer_id", "summary") if k not in v]
    if missing:
        raise ValueError(f"{r.where}: no {' and no '.join(missing)} (a sacrerouge summary has instance_id, "
                         f"summarizer_id and summary; its fields: {_fields(v)})")
    if "reference" in v and "references" in v:
        raise ValueError(f"{r.where}: both reference and references (give one)")
    references = _texts(v.get("references", v.get("reference", [])), r.where, "references")
    documents = v.get("documents", v.get("document"))
    source = None if documents is None else "\n\n".join(_texts(documents, r.where, "documents"))
    return Summary(r.where, _identifier(v["instance_id"], r.where, "instance_id"),
                   _identifier(v["summarizer_id"], r.where, "summarizer_id"),
                   text_of(v["summary"], r.where, "summary"), tuple(references), source)


def _realsumm_records(document: dict, name: str, problems: list[str]) -> list[Record]:
    """One record per (document, system) of a REALSumm scores dict: {"doc_id", "ref_summ",
    "system", "summary": the system's entry}; a malformed document is a problem."""
    records = []
    for key, entry in document.items():
        where = f"{name} doc {key}"
        try:
            if not isinstance(entry, dict):
                raise ValueError(f"{where}: expected an object with doc_id, ref_summ and system_summaries, found "
                                 f"{type(entry).__name__}")
            doc_id = _identifier(entry.get("doc_id", key), where, "doc_id")
            systems = entry.get("system_summaries")
            if not isinstance(systems, dict):
                raise ValueError(f"{where}: no system_summaries object (its fields: {_fields(entry)})")
            for system, summary in systems.items():
                here = f"{where}, system {system}"
                if not isinstance(summary, dict):
                    raise ValueError(f"{here}: expected an object with system_summary and scores")
                records.append(Record(here, {"doc_id": doc_id, "ref_summ": entry.get("ref_summ"),
                                             "system": _realsumm_system(_identifier(system, here, "system name")),
                                             "summary": summary}))
        except ValueError as e:
            problems.append(str(e))
    return records


def _realsumm_summary(r: Record) -> Summary:
    v = r.value
    if not isinstance(v["ref_summ"], str):
        raise ValueError(f"{r.where}: ref_summ must be a text")
    if not isinstance(v["summary"].get("system_summary"), str):
        raise ValueError(f"{r.where}: system_summary must be a text")
    return Summary(r.where, v["doc_id"], v["system"], tagged_sentences(v["summary"]["system_summary"]),
                   (tagged_sentences(v["ref_summ"]),), None)


def _each(records: list[Record], read, problems: list[str], max_problems: int) -> list:
    """read(record) of every record (None results left out); a record's ValueError is noted
    as a problem and reading goes on, up to max_problems."""
    out = []
    for record in records:
        if len(problems) >= max_problems:
            break
        try:
            item = read(record)
        except ValueError as e:
            problems.append(str(e))
            continue
        if item is not None:
            out.append(item)
    return out


def read_summaries(data: bytes, name: str, fmt: str, limit: int | None, max_problems: int) -> Summaries:
    """The summaries of a SummEval, sacrerouge summaries or REALSumm file (decompressed)."""
    skipped: list[str] = []
    if fmt == REALSUMM:
        document = _realsumm_document(data, name, limit)
        problems: list[str] = []
        records = _realsumm_records(document, name, problems)
        items = _each(records, _realsumm_summary, problems, max_problems)
        used = {"doc_id", "ref_summ", "system_summaries"}
        extra = sorted({str(k) for e in document.values() if isinstance(e, dict) for k in e if k not in used})
        unused = ["scores (litepyramid_recall, the human score, and automatic metrics' scores: import this file on "
                  "the annotators page)"] + ([listed(extra)] if extra else [])
        return Summaries(tuple(items), len(document), "document", (), tuple(unused), tuple(problems))
    records, problems = _json_records(data, name, limit)
    if fmt == SUMMEVAL:
        items = _each(records, _summeval_summary, problems, max_problems)
        unused = _unused(records, SUMMEVAL_CORPUS_FIELDS, ("expert_annotations", "turker_annotations", "metric_scores"))
    elif fmt == SACREROUGE_SUMMARIES:
        items = _each(records, _sacrerouge_summary, problems, max_problems)
        references = sum(r.value.get("summarizer_type") == "reference" for r in records)
        if references:
            skipped.append(f"{references:,} record(s) of reference summaries scored as summaries (summarizer_type "
                           "\"reference\", sacrerouge's jackknifing): the corpus's systems are the peers")
        unused = _unused(records, SACREROUGE_CORPUS_FIELDS, ("metrics",))
    else:
        raise ValueError(f"{fmt!r} holds no summaries")
    unit = "line" if records and " line " in records[0].where else "item"
    return Summaries(tuple(items), len(records), unit, tuple(skipped), unused, tuple(problems))


# --- human scores -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Score:
    where: str
    system: str
    document: str
    annotator: str
    aspect: str
    value: float


@dataclass(frozen=True)
class Scores:
    items: tuple[Score, ...]
    records: int
    left_out: tuple[str, ...] = ()  # automatic metrics' names not read
    skipped: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    annotators: dict = field(default_factory=dict)  # aspect -> most annotators of one summary


def _number(value, where: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: {what} must be a number, not {json_type_name(value)} {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{where}: {what} is {value!r}, not a finite number")
    return number


def _flatten(metrics: dict, prefix: str = "") -> Iterator[tuple[str, object]]:
    """(joined name, value) of a nested metrics object, names joined with "_" (sacrerouge)."""
    todo = [(prefix, metrics)]
    while todo:
        path, value = todo.pop(0)
        if isinstance(value, dict):
            todo[0:0] = [(f"{path}_{k}" if path else str(k), v) for k, v in value.items()]
        else:
            yield path, value


def _annotated(name: str, value, where: str) -> Iterator[tuple[str, float]]:
    """(annotator, score) of one metric's value: a number (no annotator named) or a list of
    numbers, one per annotator ("annotator 1", …)."""
    if isinstance(value, list):
        if not value:
            raise ValueError(f"{where}: {name} is an empty list")
        for k, item in enumerate(value, 1):
            yield f"annotator {k}", _number(item, where, f"{name}[{k - 1}]")
    else:
        yield "", _number(value, where, name)


class _ScoreSink:
    """Scores gathered per record, automatic metrics left out (and named) unless wanted."""

    def __init__(self, include_automatic: bool):
        self.include_automatic = include_automatic
        self.items: list[Score] = []
        self.left_out: dict[str, None] = {}
        self.annotators: dict[str, int] = defaultdict(int)

    def record(self, read):
        """read(record) with its scores kept only when the whole record reads."""
        def whole(r: Record) -> None:
            mark = len(self.items)
            try:
                read(r)
            except ValueError:
                del self.items[mark:]
                raise
        return whole

    def add(self, where: str, system: str, document: str, aspect: str, value) -> None:
        if not self.include_automatic and is_automatic(aspect):
            self.left_out[aspect] = None
            return
        scored = list(_annotated(aspect, value, where))
        self.annotators[aspect] = max(self.annotators[aspect], len(scored))
        self.items.extend(Score(where, system, document, annotator, aspect, score) for annotator, score in scored)


def _summeval_scores(sink: "_ScoreSink"):
    def read(r: Record) -> None:
        v = r.value
        missing = [k for k in ("id", "model_id") if k not in v]
        if missing:
            raise ValueError(f"{r.where}: no {' and no '.join(missing)} (its fields: {_fields(v)})")
        document = _identifier(v["id"], r.where, "id")
        system = _identifier(v["model_id"], r.where, "model_id")
        for group in SUMMEVAL_GROUPS:
            annotations = v.get(f"{group}_annotations")
            if annotations is None:
                continue
            if not isinstance(annotations, list) or not all(isinstance(a, dict) for a in annotations):
                raise ValueError(f"{r.where}: {group}_annotations must be a list of objects")
            by_aspect: dict[str, list] = defaultdict(list)
            for annotation in annotations:
                for aspect, score in annotation.items():
                    by_aspect[f"{group}_{aspect}"].append(score)
            for aspect, scores in by_aspect.items():
                if len(scores) != len(annotations):
                    raise ValueError(f"{r.where}: {aspect} is missing from some of the {group} annotations")
                sink.add(r.where, system, document, aspect, scores)
        for key, value in v.items():
            if key.startswith("metric_scores") and isinstance(value, dict):
                for metric, score in _flatten(value, key):
                    sink.add(r.where, system, document, metric, score)
    return read


def _sacrerouge_scores(sink: "_ScoreSink"):
    def read(r: Record) -> None:
        v = r.value
        if v.get("summarizer_type", "peer") == "reference":
            return
        missing = [k for k in ("instance_id", "summarizer_id", "metrics") if k not in v]
        if missing:
            raise ValueError(f"{r.where}: no {' and no '.join(missing)} (a sacrerouge metrics line has instance_id, "
                             f"summarizer_id and metrics; its fields: {_fields(v)})")
        if not isinstance(v["metrics"], dict):
            raise ValueError(f"{r.where}: metrics must be an object, not {json_type_name(v['metrics'])}")
        document = _identifier(v["instance_id"], r.where, "instance_id")
        system = _identifier(v["summarizer_id"], r.where, "summarizer_id")
        for metric, value in _flatten(v["metrics"]):
            sink.add(r.where, system, document, metric, value)
    return read


def _realsumm_scores(sink: "_ScoreSink"):
    def read(r: Record) -> None:
        scores = r.value["summary"].get("scores")
        if not isinstance(scores, dict):
            raise ValueError(f"{r.where}: no scores object (its fields: {_fields(r.value['summary'])})")
        for metric, value in scores.items():
            sink.add(r.where, r.value["system"], r.value["doc_id"], str(metric), value)
    return read


def read_scores(data: bytes, name: str, fmt: str, limit: int | None, max_problems: int,
                include_automatic: bool = False) -> Scores:
    """The human scores (and, when asked, the automatic metrics' scores) of a SummEval,
    sacrerouge metrics or REALSumm file (decompressed). A record is read whole or not at all."""
    sink = _ScoreSink(include_automatic)
    skipped: list[str] = []
    if fmt == REALSUMM:
        document = _realsumm_document(data, name, limit)
        problems: list[str] = []
        records = _realsumm_records(document, name, problems)
        read, count = _realsumm_scores(sink), len(document)
    else:
        records, problems = _json_records(data, name, limit)
        count = len(records)
        if fmt == SUMMEVAL:
            read = _summeval_scores(sink)
        elif fmt == SACREROUGE_METRICS:
            read = _sacrerouge_scores(sink)
            references = sum(r.value.get("summarizer_type") == "reference" for r in records)
            if references:
                skipped.append(f"{references:,} line(s) scoring reference summaries (summarizer_type \"reference\"): "
                               "the corpus's systems are the peers")
        else:
            raise ValueError(f"{fmt!r} holds no scores")
    _each(records, sink.record(read), problems, max_problems)
    return Scores(tuple(sink.items), count, tuple(sink.left_out), tuple(skipped), tuple(problems),
                  dict(sink.annotators))
