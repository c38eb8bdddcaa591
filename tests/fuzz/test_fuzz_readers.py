"""Fuzzing the readers of user files: the corpus readers (CSV / TSV, JSON lines, JSON, parallel
text) and the upload readers. Each either gives back exactly the pairs that were written or
raises its documented error (corpus_io.CorpusError, textio.InputError); nothing else."""

from __future__ import annotations

import csv
import io
import json

from hypothesis import assume, given
from hypothesis import strategies as st

from rouge_core.corpora.corpus_io import CorpusError, build_corpus, read_parallel, read_table, split_marked
from rouge_core.corpora.export import to_csv, to_json
from rouge_core.text.textio import InputError, decode_text, pair_to_json, parse_pairs
from tests.fuzzing import FUZZ, fuzz

# Characters that str.splitlines (and spreadsheets, and editors) may take for line ends, and
# the ones a formula or an encoding trips on: drawn often, among any other Unicode.
TRICKY = "\u2028\u2029\u0085\x0c\x0b\x1c\x1d\x1e\x1f\r\t \ufeff\u200b=+-@＝＋－＠'\",;[]{}\\<>&é☕𝔸"
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-32")


def texts(min_size: int = 0, max_size: int = 30, newlines: bool = True):
    """Unicode text, rich in TRICKY characters: pieces of each kind joined (hypothesis draws a
    text over one alphabet fast, a mix of strategies per character slowly)."""
    tricky = st.text(TRICKY + ("\n" if newlines else ""), max_size=8)
    anything = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00" if newlines else "\x00\n"),
                       max_size=8)
    pieces = st.lists(st.one_of(tricky, anything), max_size=3).map("".join)
    return pieces.filter(lambda t: min_size <= len(t) <= max_size) if min_size else pieces


def non_blank(max_size: int = 30, newlines: bool = True):
    return texts(1, max_size, newlines).filter(lambda t: t.strip())


@st.composite
def corpora(draw, newlines: bool = True):
    """(ids, candidates, references): what a reader must give back."""
    n = draw(st.integers(1, 4))
    prefix = draw(st.text(TRICKY, max_size=3))  # unique ids by construction; "-", "=", "'" ... test the CSV quoting
    ids = [(prefix + str(i)).strip() for i in range(1, n + 1)]
    candidates = draw(st.lists(texts(newlines=newlines), min_size=n, max_size=n))
    reference = non_blank(newlines=newlines).filter(lambda t: not _json_list(t))
    references = draw(st.lists(st.lists(reference, min_size=1, max_size=2), min_size=n, max_size=n))
    return ids, candidates, references


def _json_list(text: str) -> bool:
    """A text that a reference cell reads as a list of references (corpus_io's documented encoding)."""
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _same_pairs(corpus, ids, candidates, references, system="candidate"):
    assert corpus.ids == tuple(ids)
    assert corpus.systems[system] == tuple(candidates)
    assert corpus.references == tuple(tuple(r) for r in references)
    corpus.fingerprint()


@fuzz
@FUZZ
@given(corpora(), st.sampled_from(ENCODINGS), st.booleans(), st.sampled_from(["\n", "\r\n"]))
def test_jsonl_round_trip(corpus, encoding, ascii_only, line_end):
    ids, candidates, references = corpus
    lines = [json.dumps({"id": i, "candidate": c, "references": r}, ensure_ascii=ascii_only)
             for i, c, r in zip(ids, candidates, references)]
    data = line_end.join(lines).encode(encoding)
    for name in ("c.jsonl", "c.json"):
        _same_pairs(build_corpus(read_table(data, name)), ids, candidates, references)


@fuzz
@FUZZ
@given(corpora(), st.sampled_from(ENCODINGS), st.sampled_from([",", "\t"]))
def test_csv_round_trip(corpus, encoding, delimiter):
    ids, candidates, references = corpus
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")  # "\r\n": cells with CR are quoted
    writer.writerow(["id", "candidate", "reference_1", "reference_2"])
    for i, c, refs in zip(ids, candidates, references):
        writer.writerow([i, c, *refs, *[""] * (2 - len(refs))])
    name = "c.tsv" if delimiter == "\t" else "c.csv"
    _same_pairs(build_corpus(read_table(out.getvalue().encode(encoding), name)), ids, candidates, references)


@fuzz
@FUZZ
@given(corpora())
def test_exports_load_back_as_the_same_pairs(corpus):
    ids, candidates, references = corpus
    rows = [{"id": i, "candidate": c, "references": json.dumps(r, ensure_ascii=False), "rouge1_fmeasure": 0.5}
            for i, c, r in zip(ids, candidates, references)]
    _same_pairs(build_corpus(read_table(to_csv(rows, "rouge1|v:test"), "pairs.csv")), ids, candidates, references)
    _same_pairs(build_corpus(read_table(to_json(rows, "rouge1|v:test"), "pairs.json")), ids, candidates, references)


@fuzz
@FUZZ
@given(st.lists(st.tuples(texts(newlines=False), texts(newlines=False)), min_size=1, max_size=5),
       st.sampled_from(ENCODINGS), st.lists(st.sampled_from(["\n", "\r\n"]), min_size=6, max_size=6),
       st.booleans())
def test_parallel_files_keep_every_pair_aligned(pairs, encoding, ends, final_newline):
    def file(lines):
        text = "".join(line + ends[k] for k, line in enumerate(lines))
        return (text if final_newline else text[: -len(ends[len(lines) - 1])]).encode(encoding)

    cands, refs = [c for c, _ in pairs], [r for _, r in pairs]
    assume(final_newline or (cands[-1] and refs[-1]))  # else the empty last line is no line at all
    # A UTF-8 file's leading U+FEFF is its byte-order mark, not text
    assume(encoding != "utf-8" or not (cands[0].startswith("\ufeff") or refs[0].startswith("\ufeff")))
    expected_refs = [split_marked(r.removesuffix("\r")) for r in refs]
    try:
        corpus = read_parallel({"c.txt": file(cands)}, {"r.txt": file(refs)})
    except CorpusError as e:
        assert not all(expected_refs) and "empty reference" in str(e)
        return
    assert corpus.ids == tuple(str(i + 1) for i in range(len(pairs)))
    assert corpus.systems["c.txt"] == tuple(split_marked(c.removesuffix("\r")) for c in cands)
    assert corpus.references == tuple((r,) for r in expected_refs)


@fuzz
@FUZZ
@given(st.lists(st.tuples(texts(), st.lists(texts(), min_size=1, max_size=3)), min_size=1, max_size=4),
       st.sampled_from(ENCODINGS), st.booleans())
def test_upload_pairs_round_trip(pairs, encoding, ascii_only):
    jsonl = "\n".join(json.dumps({"candidate": c, "references": r}, ensure_ascii=ascii_only) for c, r in pairs)
    read = parse_pairs(decode_text(jsonl.encode(encoding), "p.jsonl"), "p.jsonl")
    assert [(p.candidate, list(p.references)) for p in read] == pairs
    one = parse_pairs(decode_text(pair_to_json(*pairs[0]).encode(encoding), "p.json"), "p.json")
    assert [(p.candidate, list(p.references)) for p in one] == pairs[:1]


JSONISH = '[]{}":,0123456789eE.-+ \t\r\n\\u\ud800tfnrulsaNIy' + TRICKY


def hostile_bytes():
    text_like = st.text(st.sampled_from(JSONISH) | st.characters(), max_size=200)
    encoded = st.tuples(text_like, st.sampled_from(ENCODINGS)).map(lambda t: t[0].encode(t[1], "surrogatepass"))
    nested = st.integers(1, 3000).map(lambda k: b"[" * k + b"]" * (k // 2))
    big_int = st.integers(4000, 6000).map(lambda k: b'{"candidate": ' + b"7" * k + b', "reference": "r"}')
    # well-formed records whose texts may hold lone surrogates (as JSON escapes "\ud800")
    surrogates = st.text(st.characters(categories=["Cs"]) | st.sampled_from("ab \u2028"), max_size=4)
    records = st.tuples(surrogates, surrogates).map(
        lambda t: json.dumps({"id": 1, "candidate": t[0], "references": [t[1] or "r"]}).encode())
    return st.one_of(st.binary(max_size=200), encoded, nested, big_int, records)


@fuzz
@FUZZ
@given(hostile_bytes(), st.sampled_from(["c.csv", "c.tsv", "c.jsonl", "c.json", "c.ndjson"]))
def test_corpus_readers_raise_only_corpus_errors(data, name):
    try:
        corpus = build_corpus(read_table(data, name))
    except CorpusError as e:
        assert e.problems and all(isinstance(p, str) and p for p in e.problems)
        return
    corpus.fingerprint()
    for text in (*corpus.ids, *(c for cands in corpus.systems.values() for c in cands), *(r for refs in corpus.references for r in refs)):
        text.encode("utf-8")  # no lone surrogate gets through


@fuzz
@FUZZ
@given(hostile_bytes(), hostile_bytes())
def test_parallel_reader_raises_only_corpus_errors(cands, refs):
    try:
        corpus = read_parallel({"c.txt": cands}, {"r.txt": refs})
    except CorpusError:
        return
    corpus.fingerprint()


@fuzz
@FUZZ
@given(hostile_bytes(), st.sampled_from(["p.json", "p.jsonl", "p.txt"]))
def test_upload_readers_raise_only_input_errors(data, name):
    try:
        text = decode_text(data, name)
        if name != "p.txt":
            for pair in parse_pairs(text, name):
                (pair.candidate + "".join(pair.references)).encode("utf-8")
    except InputError as e:
        assert str(e) and "\n" not in str(e)  # one line for the page
