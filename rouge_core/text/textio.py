"""Reading user-supplied texts: the byte decoder, line reader and JSON reader that every front
door shares (the app's uploads, the corpus files, the command line), and the upload's JSON /
JSONL pairs.

Pure functions (no Streamlit) so the app's validation is testable on its own. Every
failure raises `InputError` whose message is written for the person who gave the file.

The same rules hold for every reader, so a file is accepted or refused alike everywhere:

- Bytes (`decode_bytes`): UTF-8 (a leading BOM is dropped), or UTF-16 / UTF-32 with a BOM.
  A file holding NUL characters is refused as binary (or, when every other byte is NUL, as
  UTF-16 without a BOM); bytes that do not decode are named with their line and offset.
- Lines (`split_lines`): a line ends at "\\n", and a "\\r" just before it belongs to the line
  end. Nothing else ends a line: U+2028, U+2029, U+0085, form feed, vertical tab,
  \\x1c-\\x1e and a bare "\\r" are characters of the text (`str.splitlines` breaks at all of
  them, which silently shifts the pairs of parallel files).
- JSON (`parse_json`, `json_lines`): standard JSON only (no NaN or Infinity), no key repeated
  in one object, nesting at most MAX_JSON_DEPTH deep, integers of at most
  `sys.get_int_max_str_digits()` digits, and no lone surrogate ("\\ud800" is half of a UTF-16
  pair, not a character; it cannot be written as UTF-8). JSON lines hold one value per line
  (lines of spaces and tabs are skipped); a raw U+2028 inside a string is valid JSON, as
  `json.dumps(ensure_ascii=False)` writes it.
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from dataclasses import dataclass
from typing import Iterator, NamedTuple

# The size limit of one uploaded text or pair file: the one number the app's upload widgets
# enforce and state and the README states (a test reads it there). Streamlit's upload
# widgets count in whole MB (of 1,048,576 bytes).
MAX_UPLOAD_MB = 1
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1_048_576
MAX_UPLOAD_LABEL = f"{MAX_UPLOAD_MB} MB"
MAX_JSON_DEPTH = 100  # nesting levels; no corpus needs more, and deeper data breaks recursive consumers

# Longest first: the UTF-32-LE BOM begins with the UTF-16-LE one.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"))
_JSON_SPACE = " \t\r"  # JSON's whitespace, less the "\n" that ends lines
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile("\\\\u[dD][89a-fA-F]")  # JSON's escape of a surrogate


class InputError(ValueError):
    """Bad user input; the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class TextPair:
    """One candidate with its references, as read from a file."""

    candidate: str
    references: tuple[str, ...]
    source: str = ""  # e.g. "pairs.jsonl line 3"


# --- bytes -> text ----------------------------------------------------------------------------


def decode_bytes(data: bytes, name: str = "file", *, limit: int | None = None) -> str:
    """The text of a file: UTF-8 (BOM optional) or UTF-16 / UTF-32 with a BOM; line ends are
    left as they are. Refuses files over `limit` bytes, binary files and undecodable bytes."""
    if limit is not None and len(data) > limit:
        raise InputError(f"{name} is {len(data):,} bytes, over the size limit of {limit:,} bytes.")
    codec, label = next(((codec, label) for bom, codec, label in _BOMS if data.startswith(bom)), ("utf-8", "UTF-8"))
    if codec == "utf-8" and b"\x00" in data:
        raise InputError(_nul_message(data, name))
    try:
        text = data.decode(codec)  # the BOM codecs drop the BOM
    except UnicodeDecodeError as exc:
        line = data[: exc.start].decode(codec, "replace").count("\n") + 1
        raise InputError(
            f"{name} is not {label} text: line {line} has byte 0x{data[exc.start]:02x} (offset {exc.start}), "
            f"which {label} cannot decode; save the file as UTF-8."
        ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(f"{name} looks like a binary file (line {line} holds a NUL character); use a plain-text file.")
    return text


def _nul_message(data: bytes, name: str) -> str:
    sample = data[:4096]
    even, odd = sample[0::2], sample[1::2]
    for zeros, letters, order in ((odd, even, "little-endian"), (even, odd, "big-endian")):
        if zeros and zeros.count(0) >= 0.9 * len(zeros) and letters.count(0) <= 0.1 * len(letters):
            return (f"{name} looks like UTF-16 ({order}) text without a byte-order mark; "
                    "save it as UTF-8 (or as UTF-16 with a BOM).")
    return f"{name} looks like a binary file (it contains NUL bytes); use a plain-text file."


def split_lines(text: str) -> list[str]:
    """The lines of a text: split at "\\n" only, a "\\r" before it dropped, no empty last
    line for a final "\\n". Line i of every parallel file is pair i, so nothing else may end
    a line (see the module docstring)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


# --- JSON ------------------------------------------------------------------------------------


class _JsonProblem(ValueError):
    """Raised inside the decoder's hooks; the message continues "<where> ..."."""


def json_type_name(value: object) -> str:
    """A JSON value's kind for messages: "an object", "an array", "a string", ..."""
    for kind, label in ((bool, "a boolean"), (dict, "an object"), (list, "an array"), (str, "a string"),
                        ((int, float), "a number")):
        if isinstance(value, kind):
            return label
    return "null"


def _object_without_repeats(pairs: list[tuple[str, object]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise _JsonProblem(f"repeats the key {json.dumps(repeated, ensure_ascii=False)} in one object "
                           "(only one of the values would be read)")
    return obj


def _no_constant(name: str) -> object:
    raise _JsonProblem(f"holds {name}, which is not a JSON number")


_DECODER = json.JSONDecoder(object_pairs_hook=_object_without_repeats, parse_constant=_no_constant)


def _value_problem(value: object) -> str | None:
    """Why a decoded value is unusable (too deep, a lone surrogate), or None."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return (f"holds a lone surrogate (\\u{ord(found.group()):04x}): half of a UTF-16 pair, "
                        "not a character")
        elif isinstance(item, (dict, list)):
            if depth >= MAX_JSON_DEPTH:
                return f"is nested more than {MAX_JSON_DEPTH} levels deep"
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


def _plainly_fine(text: str) -> bool:
    """Whether the JSON text cannot decode to a value _value_problem refuses, seen from the text
    alone: no surrogate nor \\uD800-\\uDFFF escape (so no decoded string holds one), and fewer brackets
    than MAX_JSON_DEPTH (so nothing nests that deep)."""
    if text.count("[") + text.count("{") >= MAX_JSON_DEPTH:
        return False
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        return False
    return text.isascii() or _SURROGATE.search(text) is None


def parse_json(text: str, where: str) -> object:
    """One JSON value; every problem is an InputError that starts with `where` (a file name,
    or "pairs.jsonl line 3")."""
    try:
        value = _DECODER.decode(text)
    except _JsonProblem as exc:
        raise InputError(f"{where} {exc}") from None
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}" if "\n" in text else f"column {exc.colno}"
        raise InputError(f"{where} is not valid JSON ({exc.msg} at {at})") from None
    except RecursionError:
        raise InputError(f"{where} is nested more than {MAX_JSON_DEPTH} levels deep") from None
    except ValueError:  # an integer longer than Python converts
        raise InputError(f"{where} holds an integer of more than {sys.get_int_max_str_digits():,} digits") from None
    problem = None if _plainly_fine(text) else _value_problem(value)
    if problem:
        raise InputError(f"{where} {problem}")
    return value


class JsonLine(NamedTuple):
    """One non-blank line of a JSON-lines file: its value, or the error that names it."""

    number: int
    value: object
    error: InputError | None


def json_lines(text: str, name: str) -> Iterator[JsonLine]:
    """The values of a JSON-lines text, one per non-blank line (lines split by `split_lines`);
    errors read "<name> line <n> ..."."""
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip(_JSON_SPACE):
            continue
        try:
            value, error = parse_json(line, f"{name} line {number}"), None
        except InputError as exc:
            value, error = None, exc
        yield JsonLine(number, value, error)


# --- uploads ---------------------------------------------------------------------------------


def decode_text(data: bytes, filename: str = "file", *, limit: int = MAX_UPLOAD_BYTES) -> str:
    """The text of an upload (`decode_bytes` within `limit`), "\\r\\n" line ends made "\\n"."""
    return decode_bytes(data, filename, limit=limit).replace("\r\n", "\n")


def _text_of(value: object, where: str, what: str) -> str:
    """A text as JSON gives it: a string, or a list of sentence strings (one per line)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return "\n".join(value)
    raise InputError(f"{where}: {what}, not {json_type_name(value)}.")


def pair_from_record(obj: object, where: str) -> TextPair:
    """One {"candidate": TEXT, "references": [TEXT, ...]} record; a TEXT is a string or a list
    of sentence strings, "references" may be a single TEXT (or be called "reference")."""
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected an object with \"candidate\" and \"references\", got {json_type_name(obj)}.")
    if "candidate" not in obj:
        raise InputError(f"{where}: the key \"candidate\" is missing.")
    if "references" in obj and "reference" in obj:
        raise InputError(f"{where}: give \"references\" or \"reference\", not both.")
    refs = obj.get("references", obj.get("reference"))
    if refs is None:
        raise InputError(f"{where}: the key \"references\" is missing.")
    candidate = _text_of(obj["candidate"], where, "\"candidate\" must be a string (or a list of sentence strings)")
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list):
        raise InputError(f"{where}: \"references\" must be a list of strings, not {json_type_name(refs)}.")
    if not refs:
        raise InputError(f"{where}: \"references\" is empty; give at least one reference.")
    what = "\"references\" must be a list of strings (a reference may be a list of sentence strings)"
    return TextPair(candidate, tuple(_text_of(r, where, what) for r in refs), where)


def parse_pairs(text: str, filename: str = "file.json") -> list[TextPair]:
    """Pairs from a .json file (one object or a list of objects) or a .jsonl / .ndjson file
    (one per line). Errors name the file and, for JSON lines, the line number."""
    if filename.lower().endswith((".jsonl", ".ndjson")):
        pairs = []
        for line in json_lines(text, filename):
            if line.error:
                raise line.error
            pairs.append(pair_from_record(line.value, f"{filename} line {line.number}"))
        if not pairs:
            raise InputError(f"{filename} holds no records.")
        return pairs
    obj = parse_json(text, filename)
    if isinstance(obj, list):
        if not obj:
            raise InputError(f"{filename} holds an empty list.")
        return [pair_from_record(item, f"{filename} item {i + 1}") for i, item in enumerate(obj)]
    return [pair_from_record(obj, filename)]


def input_problems(candidate: str, references: list[str] | tuple[str, ...]) -> list[str]:
    """What keeps these texts from being scored, in words for the user (empty list: fine)."""
    # Worded for what the scorer was given, not for what a box shows: a page learns a typed
    # text only once it is applied, so a box can look filled while its text has not arrived.
    problems = []
    if not candidate.strip():
        problems.append("There is no candidate text yet: type or paste the summary you want to score.")
    if not references or not any(r.strip() for r in references):
        problems.append("There is no reference text yet: give at least one reference.")
    else:
        empty = [str(i + 1) for i, r in enumerate(references) if not r.strip()]
        if empty:
            problems.append(f"Reference {', '.join(empty)} {'has' if len(empty) == 1 else 'have'} no text yet: "
                            "fill it in or remove it.")
    return problems


def pair_to_json(candidate: str, references: list[str] | tuple[str, ...]) -> str:
    """The texts as a JSON document that `parse_pairs` reads back."""
    return json.dumps({"candidate": candidate, "references": list(references)}, ensure_ascii=False, indent=2)
