"""Upload decoding and JSON parsing: clear messages for bad input."""

from __future__ import annotations

import json

import pytest

from rouge_core.textio import MAX_UPLOAD_BYTES, InputError, decode_text, input_problems, pair_to_json, parse_pairs


def test_utf8_text_is_decoded_with_bom_and_crlf_normalised():
    assert decode_text("\ufeffcafé\r\nline".encode("utf-8"), "a.txt") == "café\nline"


def test_binary_is_rejected():
    with pytest.raises(InputError, match="binary"):
        decode_text(b"\x89PNG\r\n\x1a\n\x00\x00", "picture.txt")


def test_non_utf8_is_rejected_with_the_position():
    with pytest.raises(InputError, match=r"not UTF-8.*0xe9 at position 3"):
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
    assert "candidate is empty" in input_problems("  ", ["b"])[0]
    assert "Every reference is empty" in input_problems("a", ["", " "])[0]
    assert "Reference 2 is empty" in input_problems("a", ["b", ""])[0]


def test_pair_json_round_trip():
    text = pair_to_json("a <b>", ["c\nd", "é"])
    assert json.loads(text)["references"] == ["c\nd", "é"]
    assert parse_pairs(text, "x.json")[0].references == ("c\nd", "é")
