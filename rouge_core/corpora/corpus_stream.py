"""Corpus files read lazily, a chunk of pairs at a time, with the checks and messages of the
whole-file readers (rouge_core.corpora.corpus_io): JSON lines and parallel text files, from files or
standard input, decoded as rouge_core.text.textio decodes them (UTF-8, BOM optional, or UTF-16 /
UTF-32 with a BOM; lines end at "\\n" only).

Each chunk is a `corpus_io.Corpus` of the next rows (ids continue from chunk to chunk), so the
command line scores a file of any length in constant memory (`rouge_core.cli`).
"""

from __future__ import annotations

import codecs
from typing import BinaryIO, Iterator, Mapping

from . import corpus_io
from .corpus_io import (CANDIDATE_PATTERN, ID_NAMES, MAX_PROBLEMS, REFERENCE_PATTERN, SOURCE_NAMES, Corpus,
                        CorpusError, guess_mapping, split_marked)
from ..errors import excerpt
from ..text.textio import _BOMS, InputError, _nul_message, JsonLine, _JSON_SPACE, json_type_name, parse_json

READ_BLOCK = 1 << 20  # bytes read at a time
MAX_LINE_CHARS = 64 * 1024 * 1024  # one line longer than this is refused (a device such as /dev/zero never ends a line)
CHUNK_ROWS = 8192


def text_lines(stream: BinaryIO, name: str, *, block: int = READ_BLOCK,
               max_line_chars: int = MAX_LINE_CHARS) -> Iterator[str]:
    """The lines of a binary stream, decoded and split as textio.decode_bytes + split_lines do
    for a whole file, read `block` bytes at a time."""
    first = stream.read(block)
    codec, label = next(((codec, label) for bom, codec, label in _BOMS if first.startswith(bom)), ("utf-8", "UTF-8"))
    decoder = codecs.getincrementaldecoder(codec)()
    pending = ""
    number = 0  # lines given so far
    offset = 0
    data = first
    while True:
        final = not data
        if codec == "utf-8" and b"\x00" in data:
            raise InputError(_nul_message(data, name))
        try:
            text = decoder.decode(data, final=final)
        except UnicodeDecodeError as exc:
            start = max(exc.start, 0)
            line = number + pending.count("\n") + data[:start].count(b"\n") + 1
            byte = data[start] if start < len(data) else 0
            raise InputError(f"{name} is not {label} text: line {line} has byte 0x{byte:02x} (offset {offset + start}), "
                             f"which {label} cannot decode; save the file as UTF-8.") from None
        if "\x00" in text:
            raise InputError(f"{name} looks like a binary file (line {number + text[:text.index(chr(0))].count(chr(10)) + 1}"
                             " holds a NUL character); use a plain-text file.")
        pending += text
        parts = pending.split("\n")
        pending = parts.pop()
        for line in parts:
            number += 1
            yield line[:-1] if line.endswith("\r") else line
        if len(pending) > max_line_chars:
            raise InputError(f"{name}: line {number + 1} is longer than {max_line_chars:,} characters")
        if final:
            break
        offset += len(data)
        data = stream.read(block)
    if pending:
        yield pending[:-1] if pending.endswith("\r") else pending


def jsonl_chunks(stream: BinaryIO, name: str, *, rows: int = CHUNK_ROWS, block: int = READ_BLOCK) -> Iterator[Corpus]:
    """A JSON-lines corpus (corpus_io.read_jsonl + build_corpus) `rows` pairs at a time. The
    columns are read from the first object; a later line with a candidate, reference, id or
    source column the first does not have is refused (it would change what is scored)."""
    columns: tuple[str, ...] | None = None
    seen_ids: set[str] = set()
    count = 0
    batch: list[JsonLine] = []

    def build(lines: list[JsonLine]) -> Corpus:
        nonlocal columns, count
        chunk, columns = build_jsonl_chunk(lines, name, columns, count)
        if has_id_column(columns):
            check_new_ids(chunk.ids, [line.number for line in lines], seen_ids, name)
        count += len(chunk.ids)
        return chunk

    # parsed as read (not jsonl_line_batches + parse_jsonl_lines): a chunk's lines are held once
    for number, line in enumerate(text_lines(stream, name, block=block), start=1):
        if not line.strip(_JSON_SPACE):
            continue
        batch.append(_parsed(number, line, name))
        if len(batch) >= rows:
            yield build(batch)
            batch = []
    if batch:
        yield build(batch)
    elif not count:
        raise CorpusError(f"{name}: the file holds no JSON objects")


def jsonl_line_batches(stream: BinaryIO, name: str, *, rows: int = CHUNK_ROWS,
                       block: int = READ_BLOCK) -> Iterator[list[tuple[int, str]]]:
    """The (line number, text) of a JSON-lines file's non-blank lines, `rows` at a time, not
    yet parsed (a worker process parses them: parse_jsonl_lines); CorpusError for a file
    without any."""
    batch: list[tuple[int, str]] = []
    given = False
    for number, line in enumerate(text_lines(stream, name, block=block), start=1):
        if not line.strip(_JSON_SPACE):
            continue
        batch.append((number, line))
        if len(batch) >= rows:
            given = True
            yield batch
            batch = []
    if batch:
        yield batch
    elif not given:
        raise CorpusError(f"{name}: the file holds no JSON objects")


def parse_jsonl_lines(batch: list[tuple[int, str]], name: str) -> list[JsonLine]:
    """Each numbered line's JSON value, or the error that names it."""
    return [_parsed(number, line, name) for number, line in batch]


def _parsed(number: int, line: str, name: str) -> JsonLine:
    try:
        return JsonLine(number, parse_json(line, f"{name} line {number}"), None)
    except InputError as exc:
        return JsonLine(number, None, exc)


def build_jsonl_chunk(lines: list[JsonLine], name: str, columns: tuple[str, ...] | None,
                      count: int) -> tuple[Corpus, tuple[str, ...]]:
    """The Corpus of parsed lines that follow `count` pairs, and the file's columns (`columns`:
    the first chunk's, None for the first chunk itself). Ids are not checked against earlier
    chunks' here (check_new_ids)."""
    problems = [str(line.error) for line in lines if line.error]
    objects = [line for line in lines if not line.error]
    for line in objects:
        if not isinstance(line.value, dict):
            problems.append(f"{name}: line {line.number}: expected a JSON object, found {json_type_name(line.value)}")
    if problems:
        raise CorpusError(problems[:MAX_PROBLEMS])
    if columns is None:
        columns = tuple(dict.fromkeys(k for line in objects for k in line.value))
    mapping = guess_mapping(columns)
    for line in objects:
        extra = [k for k in line.value if k not in columns and _decides(k)]
        if extra:
            raise CorpusError(f"{name}: line {line.number}: column {excerpt(extra[0])} is not in the first lines "
                              f"(columns {', '.join(columns)}); give every line the same columns")
    table = corpus_io.Table(columns, tuple(line.value for line in objects), tuple(line.number for line in objects),
                            name)
    chunk = corpus_io.build_corpus(table, mapping)
    ids = tuple(str(count + k + 1) for k in range(len(chunk.ids))) if mapping.id is None else chunk.ids
    return Corpus(ids, chunk.systems, chunk.references, chunk.warnings, name, chunk.sources), columns


def has_id_column(columns: tuple[str, ...]) -> bool:
    """Whether the pairs' ids come from a column (else they are numbered, and never repeat)."""
    return guess_mapping(columns).id is not None


def check_new_ids(ids, numbers, seen_ids: set[str], name: str) -> None:
    """CorpusError for the first pair whose id (from an id column) an earlier chunk had; the
    chunk's ids are added to `seen_ids`. `numbers`: the pairs' line numbers."""
    for pair_id, line in zip(ids, numbers):
        if pair_id in seen_ids:
            raise CorpusError(f"{name}: line {line}: duplicate id {excerpt(pair_id)}")
        seen_ids.add(pair_id)


def _decides(column: str) -> bool:
    """Whether a column would be read as an id, candidate, reference or source column."""
    c = column.strip()
    return (c.lower() in ID_NAMES or c.lower() in SOURCE_NAMES or bool(CANDIDATE_PATTERN.match(c))
            or bool(REFERENCE_PATTERN.match(c)))


def parallel_chunks(candidate_streams: Mapping[str, BinaryIO], reference_streams: Mapping[str, BinaryIO], *,
                    marker: str = corpus_io.SENTENCE_MARKER, rows: int = CHUNK_ROWS,
                    block: int = READ_BLOCK) -> Iterator[Corpus]:
    """Parallel text files (corpus_io.read_parallel) `rows` lines at a time: line i of every
    file belongs to pair i; files of different lengths are refused when the shorter ends."""
    if not candidate_streams:
        raise CorpusError("give at least one candidate file")
    if not reference_streams:
        raise CorpusError("give at least one reference file")
    for done, lines in parallel_line_batches(candidate_streams, reference_streams, rows=rows, block=block):
        yield parallel_chunk(lines, list(candidate_streams), list(reference_streams), marker, done)


def parallel_line_batches(candidate_streams: Mapping[str, BinaryIO], reference_streams: Mapping[str, BinaryIO], *,
                          rows: int = CHUNK_ROWS, block: int = READ_BLOCK) -> Iterator[tuple[int, list[list[str]]]]:
    """(lines before, rows) of parallel text files, `rows` rows at a time, a row holding line i of
    every file (candidates first), not yet split (a worker process builds the chunk:
    parallel_chunk); CorpusError when the files' line counts differ or they are empty."""
    names = [*candidate_streams, *reference_streams]
    readers = [text_lines(s, n, block=block) for n, s in [*candidate_streams.items(), *reference_streams.items()]]
    done = 0
    missing = object()
    while True:
        lines = []
        for _ in range(rows):
            row = [next(reader, missing) for reader in readers]
            ended = [n for n, v in zip(names, row) if v is missing]
            if len(ended) == len(row):
                break
            if ended:
                going = [n for n, v in zip(names, row) if v is not missing]
                raise CorpusError(f"the parallel files have different line counts ({', '.join(ended)}: "
                                  f"{done + len(lines)} lines; {', '.join(going)}: more); line i of each file must "
                                  "belong to pair i")
            lines.append(row)
        if not lines:
            if not done:
                raise CorpusError("the files are empty")
            return
        yield done, lines
        done += len(lines)
        if len(lines) < rows:
            return


def parallel_chunk(lines: list[list[str]], cand_names: list[str], ref_names: list[str], marker: str,
                    done: int) -> Corpus:
    k = len(cand_names)
    references, warnings, problems = corpus_io.parallel_references([row[k:] for row in lines], ref_names, marker,
                                                                   done + 1)
    if problems:
        raise CorpusError(problems)
    systems = {}
    for j, name in enumerate(cand_names):
        cands = [split_marked(row[j], marker) for row in lines]
        warnings.extend(f"line {done + i + 1}: empty candidate in {name} (scored as an empty text)"
                        for i, c in enumerate(cands) if not c)
        systems[name] = tuple(cands)
    ids = tuple(str(done + i + 1) for i in range(len(lines)))
    return Corpus(ids, systems, tuple(references), tuple(warnings), ", ".join(cand_names))
