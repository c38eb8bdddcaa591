"""Upload decoding and JSON parsing: clear messages for bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from rouge_core.text.textio import (MAX_UPLOAD_BYTES, InputError, TextPair, decode_bytes, decode_text, input_problems, json_lines,
                              pair_from_record, pair_to_json, parse_json, parse_pairs, split_lines)


def test_utf8_text_is_decoded_with_bom_and_crlf_normalised():
    assert decode_text("\ufeffcafé\r\nline".encode("utf-8"), "a.txt") == "café\nline"


def test_binary_is_rejected():
    with pytest.raises(InputError, match="binary"):
        decode_text(b"\x89PNG\r\n\x1a\n\x00\x00", "picture.txt")


def test_non_utf8_is_rejected_with_the_position():
    with pytest.raises(InputError, match=r"latin.txt is not UTF-8 text: line 1 has byte 0xe9 \(offset 3\)"):
        decode_text("café".encode("latin-1"), "latin.txt")


def test_size_limit():
    decode_text(b"a" * MAX_UPLOAD_BYTES, "ok.txt")
    with pytest.raises(InputError, match="limit"):
        decode_text(b"a" * (MAX_UPLOAD_BYTES + 1), "big.txt")


def test_json_object_and_list():
    one = parse_pairs('{"candidate": "a", "references": ["b", "c"]}', "p.json")
    assert one[0].candidate == "a" and one[0].references == ("b", "c")
    many = parse_pairs('[{"candidate": "a", "references": "b"}, {"candidate": "c", "references": ["d"]}]', "p.json")
    assert [p.candidate for p in many] == ["a", "c"] and many[0].references == ("b",)


def test_jsonl_errors_name_the_line():
    text = '{"candidate": "a", "references": ["b"]}\n\n{"candidate": "a", "references": [\n'
    with pytest.raises(InputError, match="p.jsonl line 3 is not valid JSON"):
        parse_pairs(text, "p.jsonl")
    with pytest.raises(InputError, match="line 2: the key \"references\" is missing"):
        parse_pairs('{"candidate": "a", "references": ["b"]}\n{"candidate": "x"}', "p.jsonl")


@pytest.mark.parametrize(
    "text, message",
    [
        ("{oops", "not valid JSON"),
        ("[]", "empty list"),
        ('{"references": ["b"]}', "candidate"),
        ('{"candidate": 3, "references": ["b"]}', "must be a string"),
        ('{"candidate": "a", "references": [1]}', "list of strings"),
        ('{"candidate": "a", "references": []}', "empty"),
        ('"just a string"', "expected an object"),
    ],
)
def test_malformed_json(text, message):
    with pytest.raises(InputError, match=message):
        parse_pairs(text, "p.json")


def test_input_problems():
    assert input_problems("a", ["b"]) == []
    assert "There is no candidate text yet" in input_problems("  ", ["b"])[0]
    assert "There is no reference text yet" in input_problems("a", ["", " "])[0]
    assert "Reference 2 has no text yet" in input_problems("a", ["b", ""])[0]


def test_pair_json_round_trip():
    text = pair_to_json("a <b>", ["c\nd", "é"])
    assert json.loads(text)["references"] == ["c\nd", "é"]
    assert parse_pairs(text, "x.json")[0].references == ("c\nd", "é")


# --- issue 14: one decoder, one line reader, one JSON reader for every front door -----------

SEPARATORS_INSIDE_A_LINE = ["\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\r"]


@pytest.mark.parametrize("sep", SEPARATORS_INSIDE_A_LINE)
def test_only_newline_ends_a_line(sep):
    assert split_lines(f"a{sep}b\r\nc\n") == [f"a{sep}b", "c"]


def test_split_lines_edges():
    assert split_lines("") == []
    assert split_lines("a") == ["a"]
    assert split_lines("a\n\n") == ["a", ""]
    assert split_lines("a\r\r\nb") == ["a\r", "b"]  # one "\r" belongs to the line end


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_with_a_bom_are_decoded(encoding):
    text = "café — ☕\r\nline 2\n"
    data = ("\ufeff" + text).encode(encoding) if encoding[-2:] in ("le", "be") else text.encode(encoding)
    assert decode_bytes(data, "u.txt") == text
    assert decode_text(data, "u.txt") == "café — ☕\nline 2\n"


def test_utf16_without_a_bom_is_named():
    with pytest.raises(InputError, match=r"u.txt looks like UTF-16 \(little-endian\) text without a byte-order mark"):
        decode_text("plain text".encode("utf-16-le"), "u.txt")
    with pytest.raises(InputError, match=r"UTF-16 \(big-endian\)"):
        decode_text("plain text".encode("utf-16-be"), "u.txt")


def test_broken_utf16_names_line_and_offset():
    data = "\ufeffok\nbad ".encode("utf-16-le") + b"\x00\xd8" + "x".encode("utf-16-le")  # a lone high surrogate
    # BOM (2 bytes) + 7 characters (14 bytes): the surrogate's first byte is at offset 16
    with pytest.raises(InputError, match=r"u.txt is not UTF-16 text: line 2 has byte 0x00 \(offset 16\)"):
        decode_bytes(data, "u.txt")


def test_nul_character_after_a_bom_is_binary():
    with pytest.raises(InputError, match="line 2 holds a NUL character"):
        decode_bytes("\ufeffa\nb\x00".encode("utf-16"), "u.txt")


def test_jsonl_with_raw_u2028_inside_a_string_is_valid():
    line = json.dumps({"candidate": "one\u2028two\u0085three", "references": ["r\x0cs"]}, ensure_ascii=False)
    assert "\u2028" in line
    pairs = parse_pairs(line + "\n" + line + "\n", "p.jsonl")
    assert [(p.candidate, p.references) for p in pairs] == [("one\u2028two\u0085three", ("r\x0cs",))] * 2


@pytest.mark.parametrize("data, message", [
    (b"[" * 100000, "p.jsonl line 1 is nested more than 100 levels deep"),
    (b"[" * 150 + b"]" * 150, "p.jsonl line 1 is nested more than 100 levels deep"),
    (b'{"candidate": ' + b"1" * 5000 + b', "references": ["r"]}', "p.jsonl line 1 holds an integer of more than 4,300 digits"),
    (b'{"candidate": "\\ud800", "references": ["r"]}', r"p.jsonl line 1 holds a lone surrogate \(\\ud800\)"),
    (b'{"candidate": "a", "references": ["\\udfff"]}', r"lone surrogate \(\\udfff\)"),
    (b'{"candidate": "a", "candidate": "b", "references": ["r"]}', 'repeats the key "candidate"'),
    (b'{"candidate": NaN, "references": ["r"]}', "holds NaN, which is not a JSON number"),
])
def test_hostile_json_is_a_clear_input_error(data, message):
    for name in ("p.jsonl", "p.json"):
        with pytest.raises(InputError, match=message.replace("p.jsonl line 1", name if name == "p.json" else "p.jsonl line 1")):
            parse_pairs(decode_text(data, name), name)


def test_json_error_positions():
    with pytest.raises(InputError, match=r"p.json is not valid JSON \(Expecting value at line 2, column 1\)"):
        parse_json('{"a":\n}', "p.json")
    lines = list(json_lines('\n\n{"a": 1}\n{"a":}\n', "x"))
    assert [(l.number, l.value, l.error) for l in lines[:1]] == [(3, {"a": 1}, None)]
    assert str(lines[1].error) == "x line 4 is not valid JSON (Expecting value at column 6)"


def test_json_lines_skip_blank_lines_only():
    lines = list(json_lines('{"a": 1}\r\n \t\r\n\n{"a": 2}\n\x0c\n', "x"))
    assert [(l.number, l.value) for l in lines[:2]] == [(1, {"a": 1}), (4, {"a": 2})]
    assert lines[2].number == 5 and "is not valid JSON" in str(lines[2].error)


def test_records_accept_sentence_lists_and_a_single_reference():
    pair = pair_from_record({"candidate": ["s1", "s2"], "reference": ["r1", ["r2a", "r2b"]]}, "w")
    assert pair == TextPair("s1\ns2", ("r1", "r2a\nr2b"), "w")
    with pytest.raises(InputError, match='give "references" or "reference", not both'):
        pair_from_record({"candidate": "a", "reference": "b", "references": ["c"]}, "w")
    with pytest.raises(InputError, match=r"w: \"references\" must be a list of strings, not an object"):
        pair_from_record({"candidate": "a", "references": {"r": 1}}, "w")


_JSON_PIECES = st.sampled_from(['"a"', '"\\ud800"', '"\\uDFFF"', '"\\u00e9"', '"\\\\ud800"', '"\ud83d"', '"é"', "1",
                                "[", "]", "{", "}", '"k":', ","])


@settings(max_examples=300, deadline=None)
@given(st.lists(_JSON_PIECES, max_size=12), st.integers(0, 120))
def test_the_text_check_never_passes_a_value_the_full_check_refuses(pieces, depth):
    """parse_json skips the walk over a decoded value when its text alone shows nothing can be
    wrong (textio._plainly_fine): whenever it says so, the walk finds no problem either."""
    from rouge_core.text.textio import _DECODER, _plainly_fine, _value_problem

    for text in ("".join(pieces), "[" * depth + "".join(pieces) + "]" * depth, "[" * depth + "]" * depth):
        try:
            value = _DECODER.decode(text)
        except (ValueError, RecursionError):
            continue
        if _plainly_fine(text):
            assert _value_problem(value) is None, text
