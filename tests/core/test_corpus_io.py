import hashlib
import json

import pytest

from rouge_core import score_corpus
from rouge_core.corpora.corpus_io import (ColumnMapping, Corpus, CorpusError, build_corpus, guess_mapping, read_csv, read_jsonl,
                                  read_parallel, read_table, split_marked)
from rouge_core.corpora.export import csv_prefixed_cells, to_csv, to_json


def load(data: bytes, name="c.csv", mapping=None):
    return build_corpus(read_table(data, name), mapping)


def test_csv_with_several_references_and_systems():
    c = load(b"id,candidate_A,candidate_B,reference_1,reference_2\n"
             b"x,a b,c d,ref one,ref two\ny,\"quoted, comma\",e,r,\n")
    assert c.ids == ("x", "y")
    assert c.system_names == ["candidate_A", "candidate_B"]
    assert c.references == (("ref one", "ref two"), ("r",))
    assert c.systems["candidate_A"][1] == "quoted, comma"


def test_jsonl_with_reference_list():
    data = "\n".join(json.dumps(r) for r in [{"id": 1, "candidate": "a", "references": ["r1", "r2"]},
                                              {"id": 2, "candidate": "b", "references": ["r3"]}]).encode()
    c = load(data, "c.jsonl")
    assert c.ids == ("1", "2") and c.references[0] == ("r1", "r2")


def test_column_mapping_when_names_differ():
    table = read_csv(b"key,hyp,gold_text\n1,a,b\n")
    assert guess_mapping(table.columns).candidates == ()
    with pytest.raises(CorpusError, match="missing a candidate column"):
        build_corpus(table)
    c = build_corpus(table, ColumnMapping("key", ("hyp",), ("gold_text",)))
    assert c.systems == {"hyp": ("a",)} and c.references == (("b",),)
    c = build_corpus(table, ColumnMapping(None, ("hyp",), ("gold_text",)))
    assert c.ids == ("1",)


def test_malformed_jsonl_names_the_line():
    with pytest.raises(CorpusError, match="c.jsonl line 2 is not valid JSON"):
        read_jsonl(b'{"id": 1, "candidate": "a", "reference": "b"}\n{"id": 2, "candidate": \n', "c.jsonl")


def test_malformed_csv_names_the_line():
    with pytest.raises(CorpusError, match="line 3: 2 fields, but the header has 3"):
        read_csv(b"id,candidate,reference\n1,a,b\n2,a\n")
    with pytest.raises(CorpusError, match="line 2: malformed CSV"):
        read_csv(b'id,candidate,reference\n1,"a"x,b\n')


def test_empty_cells_duplicates_and_missing_columns():
    with pytest.raises(CorpusError) as e:
        load(b"id,candidate,reference\n1,a,b\n1,c,d\n,e,f\n3,g,\n")
    text = str(e.value)
    assert "line 3: duplicate id '1' (first on line 2)" in text
    assert "line 4: empty id" in text
    assert "line 5: no reference" in text
    with pytest.raises(CorpusError, match="missing a reference column"):
        load(b"id,candidate\n1,a\n")
    c = load(b"id,candidate,reference\n1,,b\n")
    assert c.warnings and "empty candidate" in c.warnings[0]


def test_non_utf8_and_size_limit():
    with pytest.raises(CorpusError, match=r"not UTF-8 text: line 2 has byte 0xe9"):
        read_csv(b"id,candidate,reference\n1,caf\xe9,b\n")
    with pytest.raises(CorpusError, match="over the size limit"):
        read_csv(b"id,candidate,reference\n" + b"1,a,b\n" * 100, max_bytes=50)
    assert read_csv("\ufeffid,candidate,reference\n1,a,b\n".encode("utf-8")).columns[0] == "id"  # BOM


def test_parallel_files_and_markers():
    c = read_parallel({"sys1.txt": b"a b <q> c d\nx\n", "sys2.txt": b"e\\nf\ng\n"}, {"ref.txt": b"r1\nr2\n"})
    assert c.systems["sys1.txt"] == ("a b\nc d", "x")
    assert c.systems["sys2.txt"] == ("e\nf", "g")
    assert c.ids == ("1", "2") and c.references == (("r1",), ("r2",))
    with pytest.raises(CorpusError, match="different line counts"):
        read_parallel({"s.txt": b"a\nb\nc\n"}, {"r.txt": b"a\nb\n"})
    with pytest.raises(CorpusError, match="line 2: empty reference"):
        read_parallel({"s.txt": b"a\nb\n"}, {"r.txt": b"a\n \n"})
    assert split_marked("<q> one <q>two") == "one\ntwo"  # "<q>", as PreSumm writes it, by default
    assert split_marked("<s> one <s> two", " <s> ") == "one\ntwo"  # or the marker given
    assert read_parallel({"s.txt": b"a <s> b\n"}, {"r.txt": b"r\n"}, marker=" <s> ").systems["s.txt"] == ("a\nb",)


# --- issue 14: the corpus readers share textio's decoder, line reader and JSON reader --------

SEPARATORS_INSIDE_A_LINE = ["\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\r"]


@pytest.mark.parametrize("sep", SEPARATORS_INSIDE_A_LINE)
def test_parallel_lines_end_only_at_newline(sep):
    cands = f"first{sep}half\r\nsecond\n".encode()
    refs = b"ref one\nref two\n"
    c = read_parallel({"c.txt": cands}, {"r.txt": refs})
    assert c.systems["c.txt"] == (f"first{sep}half", "second")
    assert c.references == (("ref one",), ("ref two",))


@pytest.mark.parametrize("sep", SEPARATORS_INSIDE_A_LINE)
def test_jsonl_lines_end_only_at_newline(sep):
    rows = [{"id": "a", "candidate": f"x{sep}y", "reference": "r"}, {"id": "b", "candidate": "z", "reference": "s"}]
    text = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows)
    if sep in "\u2028\u2029\u0085":  # JSON strings may hold these raw (json.dumps writes them so)
        assert sep in text
        c = load(text.encode(), "c.jsonl")
        assert c.ids == ("a", "b") and c.systems["candidate"] == (f"x{sep}y", "z")
        return
    if sep == "\r":  # between tokens a raw CR is JSON whitespace: still one line
        c = load(text.replace(', "reference"', ',\r"reference"').encode(), "c.jsonl")
        assert c.ids == ("a", "b") and c.systems["candidate"] == ("x\ry", "z")
        return
    # a raw control character inside a string is not JSON: an error for line 1, never a shifted pair
    raw = text.replace(json.dumps(f"x{sep}y")[1:-1], f"x{sep}y")
    assert sep in raw
    with pytest.raises(CorpusError, match=r"c.jsonl line 1 is not valid JSON \(Invalid control character"):
        load(raw.encode(), "c.jsonl")


def test_jsonl_with_raw_u2028_as_json_dumps_writes_it():
    row = {"id": "1", "candidate": "a\u2028b", "references": ["c\u2028d", "e"]}
    line = json.dumps(row, ensure_ascii=False)
    assert "\u2028" in line
    c = load((line + "\n").encode(), "c.jsonl")
    assert c.systems["candidate"] == ("a\u2028b",) and c.references == (("c\u2028d", "e"),)


@pytest.mark.parametrize("data, message", [
    (b"[" * 100000, "c.jsonl line 1 is nested more than 100 levels deep"),
    (b'{"id": 1, "candidate": ' + b"9" * 5000 + b', "reference": "r"}', "c.jsonl line 1 holds an integer of more than 4,300 digits"),
    (b'{"id": 1, "candidate": "\\ud800", "reference": "r"}', r"c.jsonl line 1 holds a lone surrogate \(\\ud800\)"),
])
def test_hostile_jsonl_is_a_corpus_error(data, message):
    with pytest.raises(CorpusError, match=message):
        read_table(data, "c.jsonl")
    with pytest.raises(CorpusError, match=message.replace("c.jsonl line 1", "c.json")):
        read_table(data, "c.json")


def test_fingerprint_of_a_corpus_with_a_lone_surrogate():
    odd = Corpus(("1",), {"s": ("\ud800",)}, (("r",),))
    assert len(odd.fingerprint()) == 16
    assert odd.fingerprint() != Corpus(("1",), {"s": ("\ud801",)}, (("r",),)).fingerprint()
    # valid texts keep their fingerprint (judgements are stored under it)
    plain = Corpus(("1",), {"s": ("café",)}, (("r",),))
    payload = json.dumps([plain.ids, plain.systems, plain.references], ensure_ascii=False, sort_keys=True)
    assert plain.fingerprint() == hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-8-sig"])
def test_corpus_files_with_a_bom(encoding):
    c = load("id,candidate,reference\n1,café,thé\n".encode(encoding), "c.csv")
    assert c.systems["candidate"] == ("café",) and c.references == (("thé",),)
    p = read_parallel({"c.txt": "a\u2028b\nc\n".encode(encoding)}, {"r.txt": b"r\ns\n"})
    assert p.systems["c.txt"] == ("a\u2028b", "c")


def test_utf16_without_bom_is_named():
    with pytest.raises(CorpusError, match="c.csv looks like UTF-16"):
        read_csv("id,candidate,reference\n".encode("utf-16-le"), "c.csv")


def test_tsv_is_tab_separated():
    c = load(b"id\tcandidate\treference\n1\ta, b\tc\n", "c.tsv")
    assert c.systems["candidate"] == ("a, b",) and c.references == (("c",),)


def test_json_document_list_and_export():
    rows = [{"id": "x", "candidate": "a", "references": ["r1", "r2"]}, {"id": "y", "candidate": "b", "reference": "r3"}]
    c = load(json.dumps(rows, indent=2).encode(), "c.json")
    assert c.ids == ("x", "y") and c.references == (("r1", "r2"), ("r3",))
    with pytest.raises(CorpusError, match="c.json: item 2: expected a JSON object, found a string"):
        load(json.dumps([rows[0], "oops"]).encode(), "c.json")
    # the json module's own words, which Python 3.13 changed: it names the trailing comma itself
    with pytest.raises(CorpusError, match=r"c.json is not valid JSON \((Expecting value at line 3|Illegal trailing "
                                          r"comma before end of array at line 2, column 12)"):
        load(b'[\n  {"id": 1},\n  ]\n', "c.json")
    # JSON lines under a .json name
    c = load(b'{"id": 1, "candidate": "a", "reference": "b"}\n{"id": 2, "candidate": "c", "reference": "d"}\n', "c.json")
    assert c.ids == ("1", "2")


def test_reference_cell_holding_a_json_list():
    c = load(b'id,candidate,references\n1,a,"[""r1"", ""r, 2""]"\n2,b,[1] is a citation\n3,c,"[""x"", 3]"\n')
    assert c.references == (("r1", "r, 2"), ("[1] is a citation",), ('["x", 3]',))
    c = load(b'id,candidate,candidate_B\n1,"[""a"", ""b""]",c\n', mapping=ColumnMapping("id", ("candidate",), ("candidate_B",)))
    assert c.systems["candidate"] == ('["a", "b"]',)  # only reference cells hold lists


def test_corpus_exports_load_back_as_the_same_pairs():
    candidates = ["-LRB- a -RRB- b", "=1+2 c\r\n@d", "plain, \"quoted\""]
    references = [["-LRB- a b", "second, with comma"], ["one\nline two\r=x"], ["'- quoted", "ｗｉｄｅ ＝ x"]]
    result = score_corpus(candidates, references, ["rouge1"], ids=["1", "2", "-3"])
    frame = result.to_frame()
    data = to_csv(frame, result.signature)
    # candidates 1 and 2 and the id -3; a references cell is JSON text, starting with "["
    assert csv_prefixed_cells(frame, result.signature) == 3
    assert b"'=1+2 c\r\n'@d" in data  # every line of a cell is protected
    assert data.count(b"'") == 4 + 1  # and the ' of "'- quoted" inside the JSON list
    table = read_table(data, "pairs.csv")
    assert table.warnings == ("pairs.csv is a ROUGE Lens export: the ' its CSV put before 3 cell(s) that start like a "
                              "spreadsheet formula was removed, so the texts are as they were scored",)
    back = build_corpus(table)
    assert back.ids == ("1", "2", "-3")
    assert back.systems["candidate"] == tuple(candidates)
    assert back.references == tuple(tuple(r) for r in references)
    assert back.warnings[0] == table.warnings[0]
    back_json = load(to_json(frame, result.signature), "pairs.json")
    assert back_json.systems["candidate"] == tuple(candidates) and back_json.references == back.references


def test_csv_cell_longer_than_the_csv_module_default():
    long_text = "word " * 60_000  # 300,000 characters, over csv's default 131,072
    c = load(f"id,candidate,reference\n1,{long_text},b\n".encode())
    assert c.systems["candidate"] == (long_text,)


# --- issue 30: the optional source document --------------------------------------------------------

def test_a_source_column_is_read_and_kept_out_of_the_systems():
    from rouge_core.corpora.corpus_io import build_corpus, read_jsonl

    data = (b'{"id": "a", "candidate": "x y", "reference": "x z", "source": ["first line", "second"]}\n'
            b'{"id": "b", "candidate": "p", "reference": "q", "source": "a text"}\n')
    corpus = build_corpus(read_jsonl(data, "c.jsonl"))
    assert corpus.sources == ("first line\nsecond", "a text") and list(corpus.systems) == ["candidate"]
    assert corpus.preview()["source"].tolist() == ["first line\nsecond", "a text"]
    plain = build_corpus(read_jsonl(b'{"id": "a", "candidate": "x y", "reference": "x z"}\n', "c.jsonl"))
    assert plain.sources is None
    # the hash of a corpus without sources is the one it always had (stored judgements still find it)
    import hashlib
    import json

    expected = hashlib.sha256(json.dumps([plain.ids, plain.systems, plain.references], ensure_ascii=False,
                                         sort_keys=True).encode()).hexdigest()[:16]
    assert plain.fingerprint() == expected != corpus.fingerprint()


def test_a_source_file_beside_parallel_files():
    from rouge_core.corpora.corpus_io import read_parallel

    corpus = read_parallel({"c.txt": b"x y\np\n"}, {"r.txt": b"x z\nq\n"}, source_file=("s.txt", b"one<q>two\nthree\n"))
    assert corpus.sources == ("one\ntwo", "three")
    from rouge_core.corpora.corpus_io import CorpusError

    with pytest.raises(CorpusError, match="different line counts"):
        read_parallel({"c.txt": b"x y\np\n"}, {"r.txt": b"x z\nq\n"}, source_file=("s.txt", b"one\n"))
