import json

import pytest

from rouge_core.corpus_io import (ColumnMapping, CorpusError, build_corpus, guess_mapping, read_csv, read_jsonl,
                                  read_parallel, read_table, split_marked)


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
    with pytest.raises(CorpusError, match="line 2: malformed JSON"):
        read_jsonl(b'{"id": 1, "candidate": "a", "reference": "b"}\n{"id": 2, "candidate": \n')


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
    with pytest.raises(CorpusError, match=r"line 2: not UTF-8"):
        read_csv(b"id,candidate,reference\n1,caf\xe9,b\n")
    with pytest.raises(CorpusError, match="over the size limit"):
        read_csv(b"id,candidate,reference\n" + b"1,a,b\n" * 100, max_bytes=50)
    assert read_csv("\ufeffid,candidate,reference\n1,a,b\n".encode("utf-8")).columns[0] == "id"  # BOM


def test_parallel_files_and_markers():
    c = read_parallel({"sys1.txt": b"a b <s> c d\nx\n", "sys2.txt": b"e\\nf\ng\n"}, {"ref.txt": b"r1\nr2\n"})
    assert c.systems["sys1.txt"] == ("a b\nc d", "x")
    assert c.systems["sys2.txt"] == ("e\nf", "g")
    assert c.ids == ("1", "2") and c.references == (("r1",), ("r2",))
    with pytest.raises(CorpusError, match="different line counts"):
        read_parallel({"s.txt": b"a\nb\nc\n"}, {"r.txt": b"a\nb\n"})
    with pytest.raises(CorpusError, match="line 2: empty reference"):
        read_parallel({"s.txt": b"a\nb\n"}, {"r.txt": b"a\n \n"})
    assert split_marked("<s> one <s> two") == "one\ntwo"
