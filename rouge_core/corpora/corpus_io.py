"""Reading corpora: CSV / TSV, JSON lines, JSON documents and parallel text files, with
line-numbered errors.

A corpus is a list of pairs: an id, one candidate per system, and one or more references.
Bytes, lines and JSON are read by rouge_core.text.textio (the rules every front door shares: UTF-8
or a BOM-marked UTF-16/32; lines end at "\\n" only; strict JSON).

Sentences (the one convention of every front door: the app's corpus pages and the command
line): a text's sentences are its lines. In a table (CSV, TSV, JSON) a cell keeps its text
exactly, so its sentences are the lines of the cell, or the items of a JSON list. A parallel
text file holds one text per line, so a line holding several sentences separates them with
SENTENCE_MARKER ("<q>", as PreSumm and BertSum write their outputs; another marker can be
given) or with a literal backslash-n (the two characters `\\n`); both become real newlines,
which the "newline" sentence splitter uses.

A reference cell may hold several references as a JSON list of strings (`["ref one", "ref
two"]`): in a JSON file a list, in a CSV cell (or a JSON string) the list's JSON text. The
per-pair exports write their `references` column that way, so they load back as the same
pairs. A CSV with a `signature` column is a ROUGE Lens export: the `'` its export put before
cells that start like a spreadsheet formula (rouge_core.corpora.export.neutralise) is removed again.

`read_corpus` reads any of these, and the released files of SummEval, sacrerouge and REALSumm
(rouge_core.corpora.formats), recognised by their content: one record per (document, system) becomes
one pair per document with one candidate per system. A corpus needs every system's summary of
every document and one set of references per document, so a document some system did not
summarise is left out, and a document whose systems carry different references (REALSumm's
per-system tokenisations) keeps the set most of its systems carry; warnings say so, with
examples.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from . import export, formats
from ..errors import excerpt
from ..text.textio import (InputError, TextPair, decode_bytes, decode_text, json_lines, json_type_name, parse_json,
                           parse_pairs, split_lines)
from .. import optional

DEFAULT_MAX_BYTES = 20 * 1024 * 1024
# Rows (pairs, or judgements) a reader takes by default: reading and checking a row costs about
# 5 µs and 1 KB, so this many stay within about a second and 200 MB however short the rows are
# (20 MB of tiny rows would be 5 million of them). max_rows=None reads every row (the command
# line: --no-cost-limit).
DEFAULT_MAX_ROWS = 200_000
SENTENCE_MARKER = "<q>"
MAX_PROBLEMS = 20  # report this many problems, then stop: a broken file can have thousands

ID_NAMES = ("id", "doc_id", "pair_id", "example_id", "key")
REFERENCE_PATTERN = re.compile(r"^(references?|refs?|targets?|gold)([_ -]?\d+)?$", re.IGNORECASE)
SOURCE_NAMES = ("source", "src", "document", "article", "source_text")  # the optional source document column
CANDIDATE_PATTERN = re.compile(r"^(candidates?|predictions?|prediction|hypothes[ie]s|outputs?|systems?|summary|generated)([_ -].+)?$", re.IGNORECASE)


class CorpusError(InputError):
    """A corpus could not be read; `problems` lists each problem (with its line number).
    One of the InputError family (rouge_core.text.textio): bad user input, said in words."""

    def __init__(self, problems: Sequence[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        text = self.problems[0] if len(self.problems) == 1 else "\n".join(f"- {p}" for p in self.problems)
        super().__init__(text)


@dataclass(frozen=True)
class Table:
    """Raw rows of a CSV / JSON file, with where each row starts (a line, or an item of a
    JSON list: `unit`)."""

    columns: tuple[str, ...]
    rows: tuple[dict, ...]
    lines: tuple[int, ...]
    source: str = ""
    unit: str = "line"
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class ColumnMapping:
    id: str | None  # None: ids are the row numbers
    candidates: tuple[str, ...]  # one column per system
    references: tuple[str, ...]  # columns of single references or of lists of references
    source: str | None = None  # the source documents' column, if any


@dataclass(frozen=True)
class Corpus:
    ids: tuple[str, ...]
    systems: dict[str, tuple[str, ...]]  # system name -> one candidate per pair
    references: tuple[tuple[str, ...], ...]
    warnings: tuple[str, ...] = field(default_factory=tuple)
    source: str = ""  # where the corpus came from (a file name)
    sources: tuple[str, ...] | None = None  # the source document of each pair, when the file has them
    recognised: str = ""  # the standard format the file was recognised as, and what of it was read (read_corpus)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def system_names(self) -> list[str]:
        return list(self.systems)

    def first_references(self) -> "Corpus":
        """The same corpus with only each pair's first reference (SummEval's first is the
        original CNN/DailyMail highlights, the ten others crowd-written)."""
        if all(len(refs) <= 1 for refs in self.references):
            return self
        return replace(self, references=tuple(refs[:1] for refs in self.references))

    def fingerprint(self) -> str:
        """A short content hash: judgements of the same corpus share it across sessions (computed
        once per Corpus: pages ask for it on every rerun)."""
        known = self.__dict__.get("_fingerprint")
        if known is not None:
            return known
        import hashlib

        h = hashlib.sha256()
        content = [self.ids, self.systems, self.references]
        if self.sources is not None:  # a corpus without sources keeps the hash it always had
            content.append(self.sources)
        payload = json.dumps(content, ensure_ascii=False, sort_keys=True)
        h.update(payload.encode("utf-8", "surrogatepass"))  # a corpus built in code may hold lone surrogates
        known = h.hexdigest()[:16]
        object.__setattr__(self, "_fingerprint", known)
        return known

    def preview(self, limit: int = 20):
        pd = optional.pandas("Corpus.preview()")

        rows = []
        for i in range(min(limit, len(self.ids))):
            row = {"id": self.ids[i]}
            for name, cands in self.systems.items():
                row[name] = cands[i]
            for k, ref in enumerate(self.references[i]):
                row[f"reference_{k + 1}"] = ref
            if self.sources is not None:
                row["source"] = self.sources[i]
            rows.append(row)
        return pd.DataFrame(rows)


# --- bytes -> text -------------------------------------------------------------------------

def decode(data: bytes, name: str = "file", max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """textio.decode_bytes, its errors as CorpusError."""
    try:
        return decode_bytes(data, name, limit=max_bytes)
    except InputError as e:
        raise CorpusError(str(e)) from None


# --- CSV / JSONL ---------------------------------------------------------------------------

def _too_many_rows(name: str, max_rows: int, unit: str = "row") -> CorpusError:
    return CorpusError(f"{name}: more than {max_rows:,} {unit}s, the most read by default (about a second and "
                       f"200 MB); pass max_rows=None to read them all (the command line: --no-cost-limit)")


def read_csv(data: bytes, name: str = "file.csv", max_bytes: int = DEFAULT_MAX_BYTES, *, delimiter: str = ",",
             max_rows: int | None = DEFAULT_MAX_ROWS) -> Table:
    text = decode(data, name, max_bytes)
    if not text.strip():
        raise CorpusError(f"{name}: the file is empty")
    # The csv module refuses cells over 131,072 characters by default; a cell can be as long as
    # the file (long documents as references), and the file is already within max_bytes.
    csv.field_size_limit(max(csv.field_size_limit(), len(text)))
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    problems: list[str] = []
    try:
        header = next(reader)
    except csv.Error as e:
        raise CorpusError(f"{name}: line {reader.line_num}: malformed CSV header ({e})") from None
    header = [h.strip() for h in header]
    if len(set(header)) != len(header):
        dupes = sorted({h for h in header if header.count(h) > 1})
        raise CorpusError(f"{name}: line 1: repeated column name(s): {', '.join(dupes)}")
    rows, lines = [], []
    while len(problems) < MAX_PROBLEMS:
        start = reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            problems.append(f"{name}: line {start}: malformed CSV ({e})")
            break  # the reader cannot resynchronise after a broken quote
        if not record or all(not c.strip() for c in record):
            continue  # blank line
        if len(record) != len(header):
            problems.append(f"{name}: line {start}: {len(record)} fields, but the header has {len(header)}")
            continue
        if max_rows is not None and len(rows) >= max_rows:
            raise _too_many_rows(name, max_rows)
        rows.append(dict(zip(header, record)))
        lines.append(start)
    if problems:
        raise CorpusError(problems)
    warnings = ()
    if "signature" in header:  # a ROUGE Lens export: undo its spreadsheet protection
        restored = [{k: export.restore(v) for k, v in row.items()} for row in rows]
        changed = sum(a != b for old, new in zip(rows, restored) for a, b in zip(old.values(), new.values()))
        header, rows = [export.restore(h) for h in header], restored
        if changed:
            warnings = (f"{name} is a ROUGE Lens export: the ' its CSV put before {changed} cell(s) that start like a "
                        "spreadsheet formula was removed, so the texts are as they were scored",)
    return Table(tuple(header), tuple(rows), tuple(lines), name, warnings=warnings)


def _table_of_objects(values, numbers: Sequence[int], name: str, unit: str) -> Table:
    problems: list[str] = []
    rows, lines, columns = [], [], {}
    for number, obj in zip(numbers, values):
        if not isinstance(obj, dict):
            problems.append(f"{name}: {unit} {number}: expected a JSON object, found {json_type_name(obj)}")
            if len(problems) >= MAX_PROBLEMS:
                break
            continue
        rows.append(obj)
        lines.append(number)
        columns.update(dict.fromkeys(obj))
    if problems:
        raise CorpusError(problems)
    if not rows:
        raise CorpusError(f"{name}: the file holds no JSON objects")
    return Table(tuple(columns), tuple(rows), tuple(lines), name, unit=unit)


def read_jsonl(data: bytes, name: str = "file.jsonl", max_bytes: int = DEFAULT_MAX_BYTES, *,
               max_rows: int | None = DEFAULT_MAX_ROWS) -> Table:
    """One JSON object per line (textio.json_lines)."""
    problems: list[str] = []
    values, numbers = [], []
    for line in json_lines(decode(data, name, max_bytes), name):
        if max_rows is not None and len(values) >= max_rows:
            raise _too_many_rows(name, max_rows, "line")
        if line.error:
            problems.append(str(line.error))
            if len(problems) >= MAX_PROBLEMS:
                break
        else:
            values.append(line.value)
            numbers.append(line.number)
    if problems:
        raise CorpusError(problems)
    return _table_of_objects(values, numbers, name, "line")


def read_json(data: bytes, name: str = "file.json", max_bytes: int = DEFAULT_MAX_BYTES, *,
              max_rows: int | None = DEFAULT_MAX_ROWS) -> Table:
    """A JSON document: a list of objects, or an object whose "rows" are (a ROUGE Lens JSON
    export). A file of one object per line is read as JSON lines."""
    text = decode(data, name, max_bytes)
    try:
        document = parse_json(text, name)
    except InputError as e:
        first = next(json_lines(text, name), None)
        if first is None or first.error:
            raise CorpusError(str(e)) from None
        return read_jsonl(data, name, max_bytes, max_rows=max_rows)  # JSON lines named .json
    if isinstance(document, dict) and isinstance(document.get("rows"), list):
        document = document["rows"]
    if not isinstance(document, list):
        document = [document]
    if max_rows is not None and len(document) > max_rows:
        raise _too_many_rows(name, max_rows, "item")
    return _table_of_objects(document, range(1, len(document) + 1), name, "item")


def read_table(data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES, *,
               max_rows: int | None = DEFAULT_MAX_ROWS) -> Table:
    """Chosen by the file name: .jsonl / .ndjson JSON lines, .json a JSON document (or JSON
    lines), .tsv tab-separated, anything else CSV. A gzip-compressed file is read as the file
    it holds (named without ".gz"; the size limit counts its decompressed bytes). At most
    `max_rows` rows (None: all)."""
    try:
        data, name = formats.unpack(data, name, max_bytes)
    except InputError as e:
        raise CorpusError(str(e)) from None
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        return read_jsonl(data, name, max_bytes, max_rows=max_rows)
    if lower.endswith(".json"):
        return read_json(data, name, max_bytes, max_rows=max_rows)
    return read_csv(data, name, max_bytes, delimiter="\t" if lower.endswith(".tsv") else ",", max_rows=max_rows)


def guess_mapping(columns: Sequence[str]) -> ColumnMapping:
    """Recognise id, candidate and reference columns by their usual names."""
    lower = {c.lower(): c for c in columns}
    id_col = next((lower[n] for n in ID_NAMES if n in lower), None)
    refs = tuple(c for c in columns if REFERENCE_PATTERN.match(c.strip()))
    cands = tuple(c for c in columns if c != id_col and c not in refs and CANDIDATE_PATTERN.match(c.strip()))
    source = next((lower[n] for n in SOURCE_NAMES if n in lower and lower[n] not in (*refs, *cands)), None)
    return ColumnMapping(id_col, cands, refs, source)


def _json_list_text(value: str) -> list[str] | None:
    """The references of a cell that holds the JSON text of a non-empty list of strings, else None."""
    stripped = value.strip()
    if not (stripped.startswith("[") and stripped.endswith("]")):
        return None
    try:
        parsed = parse_json(stripped, "cell")
    except InputError:
        return None
    return parsed if isinstance(parsed, list) and parsed and all(isinstance(v, str) for v in parsed) else None


def _cell_texts(value, column: str, where: str, *, reference: bool = False) -> tuple[list[str], str | None]:
    """A cell as a list of texts: a string, or a list of strings (for a reference column also
    the JSON text of one, as the per-pair exports write it)."""
    if value is None:
        return [], None
    if isinstance(value, list):
        # a candidate's list is its sentences; a reference column's list holds references,
        # each a text or a list of sentences
        texts = [("\n".join(v) if reference and isinstance(v, list) and all(isinstance(x, str) for x in v) else v)
                 for v in value]
        if not all(isinstance(v, str) for v in texts):
            kind = "texts or lists of sentences" if reference else "strings (the sentences)"
            return [], f"{where}: column {excerpt(column)} must hold a list of {kind}"
        return texts, None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [str(value)], None
    if not isinstance(value, str):
        return [], f"{where}: column {excerpt(column)} holds {json_type_name(value)}, not text"
    listed = _json_list_text(value) if reference else None
    return (listed, None) if listed is not None else ([value], None)


def build_corpus(table: Table, mapping: ColumnMapping | None = None) -> Corpus:
    """Validate the mapped columns row by row; every problem names its line. A cell's text is
    kept exactly (its sentences are its lines, or the items of a JSON list)."""
    mapping = mapping or guess_mapping(table.columns)
    name = table.source or "file"
    missing = []
    if not mapping.candidates:
        missing.append("a candidate column (e.g. 'candidate', or one per system: 'candidate_A', 'candidate_B')")
    if not mapping.references:
        missing.append("a reference column ('reference', 'reference_1', ... or 'references' holding a list)")
    for col in (mapping.id, *mapping.candidates, *mapping.references, mapping.source):
        if col is not None and col not in table.columns:
            missing.append(f"column {excerpt(col)} (the file has: {', '.join(table.columns)})")
    if missing:
        raise CorpusError([f"{name}: missing {m}" for m in missing])
    if set(mapping.candidates) & set(mapping.references):
        raise CorpusError(f"{name}: a column cannot be both a candidate and a reference")
    if mapping.source is not None and mapping.source in (*mapping.candidates, *mapping.references):
        raise CorpusError(f"{name}: the source column {mapping.source!r} cannot be a candidate or a reference too")

    problems: list[str] = []
    warnings: list[str] = list(table.warnings)
    ids: list[str] = []
    first_line: dict[str, int] = {}
    systems: dict[str, list[str]] = {c: [] for c in mapping.candidates}
    references: list[tuple[str, ...]] = []
    sources: list[str] = []
    for row, line in zip(table.rows, table.lines):
        where = f"{name}: {table.unit} {line}"
        if len(problems) >= MAX_PROBLEMS:
            problems.append("... (more problems not shown)")
            break
        if mapping.id is None:
            pair_id = str(len(ids) + 1)
        else:
            raw = row.get(mapping.id)
            pair_id = "" if raw is None else str(raw).strip()
            if not pair_id:
                problems.append(f"{where}: empty id")
                continue
        if pair_id in first_line:
            problems.append(f"{where}: duplicate id {excerpt(pair_id)} (first on {table.unit} {first_line[pair_id]})")
            continue
        first_line[pair_id] = line
        refs: list[str] = []
        for col in mapping.references:
            texts, err = _cell_texts(row.get(col), col, where, reference=True)
            if err:
                problems.append(err)
            refs.extend(t for t in texts if t.strip())
        if not refs:
            problems.append(f"{where}: no reference (empty cell{'s' if len(mapping.references) > 1 else ''} in {', '.join(map(repr, mapping.references))})")
            continue
        for col in mapping.candidates:
            texts, err = _cell_texts(row.get(col), col, where)
            if err:
                problems.append(err)
            text = "\n".join(texts)
            if not text.strip():
                warnings.append(f"{table.unit} {line}: empty candidate in {excerpt(col)} (scored as an empty text)")
            systems[col].append(text)
        if mapping.source is not None:
            texts, err = _cell_texts(row.get(mapping.source), mapping.source, where)
            if err:
                problems.append(err)
            sources.append("\n".join(texts))
        ids.append(pair_id)
        references.append(tuple(refs))
    if problems:
        raise CorpusError(problems)
    if not ids:
        raise CorpusError(f"{name}: no pairs found")
    if mapping.source is not None and not any(s.strip() for s in sources):
        warnings.append(f"the source column {mapping.source!r} is empty in every row (no source documents)")
    return Corpus(tuple(ids), {_system_name(c, mapping.candidates): tuple(v) for c, v in systems.items()},
                  tuple(references), tuple(warnings), name,
                  tuple(sources) if mapping.source is not None and any(s.strip() for s in sources) else None)


def _system_name(column: str, all_columns: Sequence[str]) -> str:
    return column


# --- parallel text files ---------------------------------------------------------------------

def split_marked(line: str, marker: str = SENTENCE_MARKER) -> str:
    """One line of a parallel file -> text with real newlines between its sentences. A line
    that marks its sentences `<t> … </t>` (REALSumm's files) is split at the tags, which go."""
    text = formats.tagged_sentences(line.replace("\\n", "\n"))
    if marker:
        text = text.replace(marker, "\n")
        if marker.strip() and marker != marker.strip():
            text = text.replace(marker.strip(), "\n")  # " <s> " also matches "<s>" at line edges
    return "\n".join(part.strip() for part in text.split("\n") if part.strip())


def _lines(data: bytes, name: str, max_bytes: int) -> list[str]:
    return split_lines(decode(data, name, max_bytes))


def parallel_references(lines: Sequence[Sequence[str]], names: Sequence[str], marker: str,
                        first: int = 1) -> tuple[list[tuple[str, ...]], list[str], list[str]]:
    """Line i of every reference file (`lines[i]`, the files `names`) as pair i's references, with
    the warnings (an empty reference left out) and problems (every reference empty) naming the
    line (numbered from `first`)."""
    references, warnings, problems = [], [], []
    for i, row in enumerate(lines):
        refs = [split_marked(line, marker) for line in row]
        empty = [name for name, r in zip(names, refs) if not r]
        if len(empty) == len(refs):
            problems.append(f"line {first + i}: empty reference in {', '.join(empty)}")
            if len(problems) >= MAX_PROBLEMS:
                break
        elif empty:
            warnings.append(f"line {first + i}: empty reference in {', '.join(empty)} (left out)")
        references.append(tuple(r for r in refs if r))
    return references, warnings, problems


def read_parallel(candidate_files: Mapping[str, bytes], reference_files: Mapping[str, bytes], *,
                  marker: str = SENTENCE_MARKER, max_bytes: int = DEFAULT_MAX_BYTES,
                  max_rows: int | None = DEFAULT_MAX_ROWS, source_file: tuple[str, bytes] | None = None) -> Corpus:
    """Line i of every candidate file (one file per system) is scored against line i of
    every reference file; line i of the optional `source_file` (name, bytes) is pair i's source
    document (its sentences separated as a candidate's). Ids are line numbers; at most
    `max_rows` lines (None: all)."""
    if not candidate_files:
        raise CorpusError("give at least one candidate file")
    if not reference_files:
        raise CorpusError("give at least one reference file")
    problems: list[str] = []
    texts: dict[str, list[str]] = {}
    extra = [source_file] if source_file is not None else []
    for name, data in [*candidate_files.items(), *reference_files.items(), *extra]:
        if max_rows is not None and data.count(b"\n") > max_rows:  # cheap before decoding; exact below
            lines = _lines(data, name, max_bytes)
            if len(lines) > max_rows:
                raise _too_many_rows(name, max_rows, "line")
            texts[name] = lines
            continue
        try:
            texts[name] = _lines(data, name, max_bytes)
        except CorpusError as e:
            problems.extend(e.problems)
    if problems:
        raise CorpusError(problems)
    counts = {name: len(lines) for name, lines in texts.items()}
    if len(set(counts.values())) > 1:
        detail = ", ".join(f"{n}: {c} line{'' if c == 1 else 's'}" for n, c in counts.items())
        raise CorpusError(f"the parallel files have different line counts ({detail}); line i of each file must belong to pair i")
    n = next(iter(counts.values()))
    if n == 0:
        raise CorpusError("the files are empty")
    references, warnings, problems = parallel_references(
        [[texts[name][i] for name in reference_files] for i in range(n)], list(reference_files), marker)
    if problems:
        raise CorpusError(problems)
    systems = {}
    for name in candidate_files:
        cands = [split_marked(line, marker) for line in texts[name]]
        warnings.extend(f"line {i + 1}: empty candidate in {name} (scored as an empty text)" for i, c in enumerate(cands) if not c)
        systems[name] = tuple(cands)
    sources = tuple(split_marked(line, marker) for line in texts[source_file[0]]) if source_file is not None else None
    tagged = [name for name, lines in texts.items() if any(formats.has_sentence_tags(line) for line in lines)]
    recognised = (f"Sentences in <t> … </t> tags (as REALSumm's files write them) were split at the tags, which were "
                  f"removed, in {formats.listed(tagged)}." if tagged else "")
    return Corpus(tuple(str(i + 1) for i in range(n)), systems, tuple(references), tuple(warnings), ", ".join(candidate_files),
                  sources, recognised)


# --- pair files (the app's Score page) -------------------------------------------------------

PAIR_FILE_TYPES = ("json", "jsonl", "ndjson", "csv", "tsv")  # the extensions read_pairs reads


def read_pairs(data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> list[TextPair]:
    """The candidate-and-references pairs of one file, for a page that scores one pair at a
    time. A .json / .jsonl / .ndjson file holds {"candidate": ..., "references": [...]}
    records (textio.parse_pairs); a .csv / .tsv file is a corpus table read as the Corpus
    page reads it (`read_table`, columns recognised by `guess_mapping`): one pair per row and
    candidate column, in row order, each named by its id (and its column when the table has
    several systems). Problems raise InputError (a CorpusError for tables) naming the file."""
    if not name.lower().endswith((".csv", ".tsv")):
        return parse_pairs(decode_text(data, name, limit=max_bytes), name)
    corpus = build_corpus(read_table(data, name, max_bytes))
    several = len(corpus.systems) > 1
    return [TextPair(candidates[i], corpus.references[i], f"{name} id {corpus.ids[i]}" + (f", {system}" if several else ""))
            for i in range(len(corpus)) for system, candidates in corpus.systems.items()]


# --- any file, its format recognised by its content --------------------------------------------

AUTO = "auto"


def detect_format(data: bytes, name: str, max_bytes: int | None, format: str = AUTO):
    """(the file's bytes unpacked, their name, formats.detect's answer): gzip undone, the format
    recognised by content, and checked against `format` unless it is "auto"; CorpusError
    otherwise."""
    try:
        unpacked, inner = formats.unpack(data, name, max_bytes)
        detected = formats.detect(unpacked, inner, max_bytes)
        if format != AUTO:
            formats.check_format(detected, format, name)
    except InputError as e:
        raise CorpusError(str(e)) from None
    return unpacked, inner, detected


def read_corpus(data: bytes, name: str, max_bytes: int | None = DEFAULT_MAX_BYTES, *, format: str = AUTO,
                first_reference_only: bool = False, mapping: ColumnMapping | None = None) -> Corpus:
    """A corpus from a table (CSV, TSV, JSON lines, JSON: columns as `mapping` says, else as
    `guess_mapping` recognises them), SummEval's model annotations, a sacrerouge summaries file
    or a REALSumm scores dict (pickle or JSON), gzip-compressed or not. `format` is "auto" (the
    content decides, rouge_core.corpora.formats.detect) or one of rouge_core.corpora.formats.FORMATS (the content
    must agree). `first_reference_only` keeps each pair's first reference. The corpus's
    `recognised` says which format was recognised and what of the file was read and not read;
    every problem raises CorpusError naming its line, item or document."""
    unpacked, inner, detected = detect_format(data, name, max_bytes, format)
    if detected.format == formats.TABLE:
        table = read_table(unpacked, inner, max_bytes)
        try:
            corpus = build_corpus(table, mapping)
        except CorpusError as e:
            if mapping is None and inner.lower().endswith((".jsonl", ".ndjson", ".json")):
                raise CorpusError([*e.problems, f"{name} was read as a table, since it is no standard format either: "
                                                f"{detected.reason}"]) from None
            raise
        return corpus.first_references() if first_reference_only else corpus
    if detected.format not in formats.HOLDS_SUMMARIES:
        raise CorpusError(f"{name} is {detected.title}: {detected.reason}. It holds scores, not summaries. Import "
                          "it as human judgements (the annotators page, or rouge_core.studies.meta.read_judgements); the "
                          "summaries are in the summaries file sacrerouge writes beside it (summaries.jsonl)")
    try:
        summaries = formats.read_summaries(unpacked, inner, detected.format, max_bytes, MAX_PROBLEMS)
    except InputError as e:
        raise CorpusError(str(e)) from None
    return _corpus_of_summaries(summaries, name, detected, first_reference_only)


def _most_common(values: list) -> tuple[object, int]:
    """The value most items carry (ties: the first seen) and how many distinct values there are."""
    counts: dict = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=lambda v: counts[v]), len(counts)


def _corpus_of_summaries(found: formats.Summaries, name: str, detected: formats.Detection,
                         first_reference_only: bool) -> Corpus:
    listed = formats.listed
    problems = list(found.problems)
    if problems:
        raise CorpusError(problems[:MAX_PROBLEMS] + (["... (more problems not shown)"] if len(problems) > MAX_PROBLEMS
                                                     else []))
    if not found.items:
        skipped = f" ({'; '.join(found.skipped)})" if found.skipped else ""
        raise CorpusError(f"{name}: no summaries found{skipped}")
    documents: dict[str, dict] = {}
    systems: dict[str, None] = {}
    for item in found.items:
        cells = documents.setdefault(item.document, {})
        if item.system in cells:
            problems.append(f"{item.where}: document {item.document!r}, system {item.system!r} already has a summary "
                            f"({cells[item.system].where})")
            if len(problems) >= MAX_PROBLEMS:
                break
            continue
        cells[item.system] = item
        systems.setdefault(item.system)
    if problems:
        raise CorpusError(problems)
    warnings: list[str] = []
    complete = {d: cells for d, cells in documents.items() if len(cells) == len(systems)}
    incomplete = [d for d in documents if d not in complete]
    if incomplete:
        first = incomplete[0]
        lacking = [s for s in systems if s not in documents[first]]
        warnings.append(f"{len(incomplete):,} of {len(documents):,} documents lack a summary from some system and are "
                        f"left out (a corpus holds every system's summary of every document): e.g. {first} has none "
                        f"from {listed(lacking, 3)}")
    if not complete:
        raise CorpusError(f"{name}: no document has a summary from every one of its {len(systems):,} systems "
                          f"({listed(list(systems), 5)}); a corpus needs them all")
    ids, references, sources = [], [], []
    differing_refs, differing_sources = [], []
    candidates: dict[str, list[str]] = {s: [] for s in systems}
    for doc, cells in complete.items():
        in_order = [cells[s] for s in systems]
        refs, kinds = _most_common([tuple(r for r in c.references if r.strip()) for c in in_order])
        if kinds > 1:
            differing_refs.append(doc)
        if not refs:
            problems.append(f"{in_order[0].where}: document {doc!r} has no reference summary (ROUGE needs one)")
            if len(problems) >= MAX_PROBLEMS:
                break
            continue
        given = [c.source for c in in_order if c.source is not None and c.source.strip()]
        source, kinds = _most_common(given) if given else ("", 1)
        if kinds > 1:
            differing_sources.append(doc)
        ids.append(doc)
        references.append(refs[:1] if first_reference_only else refs)
        sources.append(source)
        for s in systems:
            candidates[s].append(cells[s].text)
    if problems:
        raise CorpusError(problems)
    if differing_refs:
        warnings.append(f"{len(differing_refs):,} document(s) come with different references for different systems "
                        f"(e.g. {differing_refs[0]}); each is scored against the references most of its systems carry")
    if differing_sources:
        warnings.append(f"{len(differing_sources):,} document(s) come with different source documents for different "
                        f"systems (e.g. {differing_sources[0]}); each shows the one most of its systems carry")
    for s, texts in candidates.items():
        empty = [ids[i] for i, t in enumerate(texts) if not t.strip()]
        if empty:
            warnings.append(f"{len(empty):,} empty summary(ies) of {s!r} (scored as empty texts), e.g. document {empty[0]}")
    has_sources = any(src.strip() for src in sources)
    counts = sorted({len(r) for r in references})
    per = (f"{counts[0]} reference{'s' if counts[0] != 1 else ''}" if len(counts) == 1
           else f"{counts[0]} to {counts[-1]} references")
    kept = " (the first of each document's references kept)" if first_reference_only else ""
    read = (f"Recognised {detected.title}: {detected.reason}. Read {found.records:,} {found.unit}s into {len(ids):,} "
            f"documents × {len(systems):,} systems, {per} per document{kept}, "
            f"{'with' if has_sources else 'without'} source documents.")
    if found.skipped:
        read += " Left out: " + "; ".join(found.skipped) + "."
    if found.unused:
        read += " Not read into the corpus: " + "; ".join(found.unused) + "."
    return Corpus(tuple(ids), {s: tuple(texts) for s, texts in candidates.items()}, tuple(references),
                  tuple(warnings), name, tuple(sources) if has_sources else None, read)
