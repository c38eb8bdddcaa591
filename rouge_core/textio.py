"""Reading user-supplied texts: uploads decoded with clear errors, JSON / JSONL pairs.

Pure functions (no Streamlit) so the app's validation is testable on its own. Every
failure raises `InputError` whose message is written for the person who uploaded the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

MAX_UPLOAD_BYTES = 1_048_576  # 1 MB per text file (Streamlit's upload widgets count in whole MB)
MAX_UPLOAD_LABEL = "1 MB"


class InputError(ValueError):
    """Bad user input; the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class TextPair:
    """One candidate with its references, as read from a file."""

    candidate: str
    references: tuple[str, ...]
    source: str = ""  # e.g. "pairs.jsonl line 3"


def decode_text(data: bytes, filename: str = "file", *, limit: int = MAX_UPLOAD_BYTES) -> str:
    """The UTF-8 text of an upload; rejects files over `limit`, binary and non-UTF-8 data."""
    if len(data) > limit:
        raise InputError(
            f"{filename} is {len(data):,} bytes; the limit is {limit:,} bytes ({MAX_UPLOAD_LABEL}). "
            "Upload a shorter text or use the command line for large corpora."
        )
    if b"\x00" in data:
        raise InputError(f"{filename} looks like a binary file (it contains NUL bytes); upload a plain-text file.")
    try:
        text = data.decode("utf-8-sig")  # -sig: editors on Windows often add a BOM
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{filename} is not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start} cannot be decoded); "
            "save it as UTF-8 and upload it again."
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _pair_from(obj: object, where: str) -> TextPair:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected an object with \"candidate\" and \"references\", got {type(obj).__name__}.")
    if "candidate" not in obj:
        raise InputError(f"{where}: the key \"candidate\" is missing.")
    refs = obj.get("references", obj.get("reference"))
    if refs is None:
        raise InputError(f"{where}: the key \"references\" is missing.")
    if isinstance(refs, str):
        refs = [refs]
    candidate = obj["candidate"]
    if not isinstance(candidate, str):
        raise InputError(f"{where}: \"candidate\" must be a string.")
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise InputError(f"{where}: \"references\" must be a list of strings.")
    if not refs:
        raise InputError(f"{where}: \"references\" is empty; give at least one reference.")
    return TextPair(candidate, tuple(refs), where)


def parse_pairs(text: str, filename: str = "file.json") -> list[TextPair]:
    """Pairs from a .json file (one object or a list of objects) or a .jsonl file (one per line).

    Errors name the file and, for JSONL, the line number.
    """
    if filename.lower().endswith(".jsonl"):
        pairs = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{filename} line {number}"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{where} is not valid JSON: {exc.msg} (column {exc.colno}).") from None
            pairs.append(_pair_from(obj, where))
        if not pairs:
            raise InputError(f"{filename} holds no records.")
        return pairs
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{filename} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.") from None
    if isinstance(obj, list):
        if not obj:
            raise InputError(f"{filename} holds an empty list.")
        return [_pair_from(item, f"{filename} item {i + 1}") for i, item in enumerate(obj)]
    return [_pair_from(obj, filename)]


def input_problems(candidate: str, references: list[str] | tuple[str, ...]) -> list[str]:
    """What keeps these texts from being scored, in words for the user (empty list: fine)."""
    problems = []
    if not candidate.strip():
        problems.append("The candidate is empty: type or paste the summary you want to score.")
    if not references or not any(r.strip() for r in references):
        problems.append("Every reference is empty: give at least one reference text.")
    else:
        empty = [str(i + 1) for i, r in enumerate(references) if not r.strip()]
        if empty:
            problems.append(f"Reference {', '.join(empty)} is empty: fill it in or remove it.")
    return problems


def pair_to_json(candidate: str, references: list[str] | tuple[str, ...]) -> str:
    """The texts as a JSON document that `parse_pairs` reads back."""
    return json.dumps({"candidate": candidate, "references": list(references)}, ensure_ascii=False, indent=2)
