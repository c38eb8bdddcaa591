"""The streamed run's chunk-at-a-time formulations give what the pair-at-a-time ones gave, to the
byte and to the bit: CSV rows made a column at a time (cli.CsvRows.write_chunk) against the rows
of write_pair_scores (itself checked against the csv writer in test_cli_streaming), and the
statistics arrays read with map and attrgetters (corpus_stats.record_arrays) against the
generator-per-record reading they replaced."""

import io
import math
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings, strategies as st

from rouge_core import cli
from rouge_core.corpora.corpus_stats import MEASURES, SIDES, record_arrays
from rouge_core.corpora.pairs import pair_micro_stats
from rouge_core.stats import Score, Stats
from tests.extras import profiles_here

_TEXT = st.text(st.sampled_from(list("ab1 ,\"'\r\n=+-@\t\u2028é")), max_size=6)
# ratios of small counts (the common case: positive, finite, repeating), and every other float
_RATIO = st.builds(lambda a, b: a / b, st.integers(1, 40), st.integers(1, 40))
_ANY = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 1.0, 0.5]))
_FLOAT = st.one_of(_RATIO, _RATIO, _ANY)


@st.composite
def chunks(draw):
    pairs = draw(st.integers(0, 40))
    methods = draw(st.lists(_TEXT, min_size=1, max_size=4))
    ids = draw(st.lists(_TEXT, min_size=pairs, max_size=pairs))
    signatures = draw(st.lists(_TEXT, min_size=1, max_size=3))
    floats = _RATIO if draw(st.booleans()) else _FLOAT  # all positive and finite, or anything
    columns = []
    for m in methods:
        values = [draw(st.lists(floats, min_size=pairs, max_size=pairs)) for _ in range(3)]
        sigs = draw(st.lists(st.sampled_from(signatures), min_size=pairs, max_size=pairs))
        columns.append((m, *(np.array(v, dtype=np.float64) for v in values), sigs))
    return ids, columns


@settings(max_examples=200, deadline=None)
@given(system=_TEXT, chunk=chunks())
def test_chunk_rows_are_the_rows_written_pair_by_pair(system, chunk):
    ids, columns = chunk
    fast, slow = io.StringIO(newline=""), io.StringIO(newline="")
    cli.CsvRows(fast, header=False).write_chunk(system, ids, columns)
    cli.CsvRows(slow, header=False).write_pair_scores(
        system, ((pair_id, m, float(p[k]), float(r[k]), float(f[k]), sigs[k])
                 for k, pair_id in enumerate(ids) for m, p, r, f, sigs in columns))
    assert fast.getvalue() == slow.getvalue()


def test_chunk_rows_keep_zero_signs_and_nan_apart():
    """np.unique would merge 0.0 and -0.0 (and NaNs): only a column of positive finite scores is
    repr'd by its distinct values; these rows are written value by value."""
    out = io.StringIO(newline="")
    column = np.array([0.0, -0.0, math.nan, 0.5, 0.5])
    cli.CsvRows(out, header=False).write_chunk("s", ["1", "2", "3", "4", "5"], [("m", column, column, column, ["g"] * 5)])
    cells = [line.split(",")[3] for line in out.getvalue().split("\r\n") if line]
    assert cells == ["0.0", "'-0.0", "nan", "0.5", "0.5"]


def _record_arrays_per_record(records):
    """record_arrays as it was written before (a generator per record and measure)."""
    k = len(records)
    scores = tuple(np.fromiter((getattr(r.score, m) for r in records), np.float64, k) for m in MEASURES)
    pooled = [pair_micro_stats(r) for r in records]
    sides = tuple(np.fromiter((getattr(s, side) if s is not None else 0.0 for s in pooled), np.float64, k)
                  for side in SIDES)
    present = np.fromiter((s is not None for s in pooled), bool, k)
    exponents = {s.exponent for s in pooled if s is not None}
    exponent = next((s.exponent for s in pooled if s is not None), None)
    return scores, sides, present, exponent, exponents <= {1.0}


_STATS = st.builds(Stats, st.integers(0, 90), st.integers(0, 90), st.integers(0, 90),
                   st.sampled_from([1.0, 1.0, 1.2]))
_RECORD = st.builds(
    lambda score, stats, per_ref, pooled: SimpleNamespace(
        score=Score(*score), stats=stats if pooled else None,
        per_reference=tuple(SimpleNamespace(stats=s) for s in per_ref)),
    st.tuples(_FLOAT, _FLOAT, _FLOAT), _STATS, st.lists(_STATS, max_size=3), st.booleans())


@settings(max_examples=200, deadline=None)
@given(records=st.lists(_RECORD, max_size=30))
def test_record_arrays_read_what_the_per_record_reading_read(records):
    new, old = record_arrays(records), _record_arrays_per_record(records)
    for new_arrays, old_arrays in zip(new[:2], old[:2]):
        for a, b in zip(new_arrays, old_arrays):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    assert new[2].tolist() == old[2].tolist()
    assert new[3:] == old[3:]


_WORDS = st.sampled_from(["the", "cat", "sat", "on", "mat", "é", "dog", "ran", "", ".", "The", "running", "\n"])
_PAIR_TEXT = st.lists(_WORDS, max_size=12).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(cands=st.lists(_PAIR_TEXT, min_size=1, max_size=12), data=st.data(),
       profile=st.sampled_from(profiles_here()),  # the multilingual one needs pyonmttok (none on 3.13)
       methods=st.lists(st.sampled_from(["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4",
                                         "rougeSU4", "rouge3"]), min_size=1, max_size=4, unique=True),
       refs_per_pair=st.sampled_from([1, 1, 2]))
def test_kernel_columns_are_the_records_arrays(cands, data, profile, methods, refs_per_pair):
    """A streamed chunk's numbers read straight from the kernels' output (no record made) are
    the arrays and signatures read from the records, to the bit; where that reading does not
    apply (several references, a Python score function) the records are read."""
    from rouge_core.corpora.batch import batch_columns, score_batch

    refs = [data.draw(st.lists(_PAIR_TEXT, min_size=refs_per_pair, max_size=refs_per_pair)) for _ in cands]
    fast_arrays, fast_columns = batch_columns(score_batch(cands, refs, methods, profile), methods)
    records = score_batch(cands, refs, methods, profile).pairs
    names = tuple(records[0])
    slow_arrays, slow_columns = batch_columns(records, names)
    assert [c[0] for c in fast_columns] == list(names)
    for m in names:
        new, old = fast_arrays[m], slow_arrays[m]
        for new_arrays, old_arrays in zip(new[:2], old[:2]):
            for a, b in zip(new_arrays, old_arrays):
                assert a.tobytes() == b.tobytes(), m
        assert new[2].tolist() == old[2].tolist() and new[3:] == old[3:]
    assert [c[4] for c in fast_columns] == [c[4] for c in slow_columns]


def test_kernel_columns_read_one_reference_pairs_without_records():
    import pytest

    from rouge_core.corpora.batch import score_batch
    from rouge_core.kernels import native

    if not native.active():
        pytest.skip("the pure path makes records (no kernels' output to read)")

    batch = score_batch(["the cat sat"] * 3, [["the cat ran"]] * 3, ["rouge1", "rougeL"], "rouge-score")
    assert batch.columns() is not None and batch._pairs is None
    several = score_batch(["the cat sat"], [["the cat ran", "a dog"]], ["rouge1"], "rouge-score")
    assert several.columns() is None


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 30), chunk=st.integers(1, 8), odd=st.one_of(st.none(), st.integers(0, 29)),
       by_arrays=st.booleans())
def test_numbered_ids_are_kept_as_pair_numbers(n, chunk, odd, by_arrays):
    """A scorer given ids that are the pairs' 1-based positions (a JSON-lines file without an id
    column) keeps no id string (PairNumbers makes them when read: 10 million id strings take
    more memory than the statistics); once an id is not its position, every id is kept, the
    ones before it made again, in order."""
    from rouge_core.corpora.corpus import CorpusScorer
    from rouge_core.corpora.corpus_stats import PairNumbers

    ids = [str(k + 1) for k in range(n)]
    if odd is not None and odd < n:
        ids[odd] = f"doc-{odd}"
    scorer = CorpusScorer(["rouge1"], "rouge-score", keep_ids=True)
    for lo in range(0, n, chunk):
        part = ids[lo:lo + chunk]
        cands, refs = ["the cat sat"] * len(part), [["the cat ran"]] * len(part)
        if by_arrays:
            from rouge_core.corpora.batch import batch_columns, score_batch

            arrays, _ = batch_columns(score_batch(cands, refs, ["rouge1"], "rouge-score"), ["rouge1"])
            scorer.add_arrays(len(part), arrays, None if part == [str(lo + k + 1) for k in range(len(part))] else part,
                              [1])
        else:
            scorer.add_columns(cands, refs, part)
    result = scorer.result()
    assert list(result.ids) == ids
    assert isinstance(result.ids, PairNumbers) == (odd is None or odd >= n)


def test_score_corpus_keeps_numbered_ids_as_pair_numbers():
    from rouge_core.corpora.corpus import score_corpus
    from rouge_core.corpora.corpus_stats import PairNumbers

    numbered = score_corpus(iter(["the cat"] * 5), iter([["the dog"]] * 5), ["rouge1"], "rouge-score",
                            ids=[str(k) for k in range(1, 6)], chunk_size=2)
    assert isinstance(numbered.ids, PairNumbers) and list(numbered.ids) == ["1", "2", "3", "4", "5"]
    named = score_corpus(iter(["the cat"] * 3), iter([["the dog"]] * 3), ["rouge1"], "rouge-score",
                         ids=["1", "2", "x"], chunk_size=2)
    assert named.ids == ("1", "2", "x")
