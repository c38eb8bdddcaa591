"""Differential tests: ROUGE-W (weighted LCS) on its NumPy kernel and its pure-Python loop
against the original pure-Python DP, kept here as the reference. Equality is exact: the
same floats (==, not approx) and the same aligned pairs, runs and evidence."""

from __future__ import annotations

import contextlib
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_core.families import wlcs, wlcs_fast
from rouge_core.stats import Stats
from rouge_core.families.wlcs import WlcsEvidence, WlcsRun, weight

WEIGHTS = [1.2, 1.5, 2.0, 0.5, 1.0, 3.7]


# ---- the reference: rouge_core/families/wlcs.py as it was before the NumPy kernel ----------------

def reference_alignment(ref, cand, w):
    rows, cols = len(ref), len(cand)
    c = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    run = [[0] * (cols + 1) for _ in range(rows + 1)]
    move = [[0] * (cols + 1) for _ in range(rows + 1)]  # 1 diagonal, 2 up, 3 left
    for i in range(1, rows + 1):
        r = ref[i - 1]
        for j in range(1, cols + 1):
            if r == cand[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + weight(k + 1, w) - weight(k, w)
                run[i][j] = k + 1
                move[i][j] = 1
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j] = c[i - 1][j]
                move[i][j] = 2
            else:
                c[i][j] = c[i][j - 1]
                move[i][j] = 3
    pairs = []
    i, j = rows, cols
    while i > 0 and j > 0:
        step = move[i][j]
        if step == 1:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif step == 2:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return c[rows][cols], pairs


def reference_paper(cand, ref, w, evidence=False):
    value, pairs = reference_alignment(ref, cand, w)
    stats = Stats(value, weight(len(cand), w), weight(len(ref), w), 1.0 / w, len(ref))
    if not evidence:
        return stats, None
    return stats, WlcsEvidence("paper", w, tuple(wlcs._runs_of(pairs, w)), value)


def reference_rouge155(cand, cand_bounds, ref, ref_bounds, w, evidence=False, clip_cand=None, clip_ref=None):
    cand_left = Counter(cand if clip_cand is None else clip_cand)
    ref_left = Counter(ref if clip_ref is None else clip_ref)
    cand_sentences = [cand[a:b] for a, b in cand_bounds]
    hits = 0.0
    runs = []
    ref_base = 0.0
    for ra, rb in ref_bounds:
        ref_sentence = ref[ra:rb]
        ref_base += weight(len(ref_sentence), w)
        partner = {}
        for (ca, _cb), cand_sentence in zip(cand_bounds, cand_sentences):
            for r, c in reference_alignment(ref_sentence, cand_sentence, w)[1]:
                partner.setdefault(r, ca + c)
        current = []
        length = len(ref_sentence)
        for r in range(length):
            if r not in partner:
                continue
            tok = ref_sentence[r]
            if not (cand_left[tok] > 0 and ref_left[tok] > 0):
                continue
            cand_left[tok] -= 1
            ref_left[tok] -= 1
            current.append(r)
            if r + 1 == length or (r + 1) not in partner:
                run_weight = weight(len(current), w)
                hits += run_weight
                if evidence:
                    runs.append(WlcsRun(tuple(ra + x for x in current), tuple(partner[x] for x in current), run_weight))
                current = []
    cand_len = len(cand if clip_cand is None else clip_cand)
    stats = Stats(hits, weight(cand_len, w), weight(ref_base, w), 1.0 / w, ref_base)
    return stats, (WlcsEvidence("rouge155", w, tuple(runs), hits) if evidence else None)


# ---- helpers ---------------------------------------------------------------------------

@contextlib.contextmanager
def kernel(which):
    """Force rouge_core.families.wlcs onto one path, whatever the input size."""
    saved = wlcs._NUMPY_MIN_WIDTH, wlcs._NUMPY_MIN_CELLS
    wlcs._NUMPY_MIN_WIDTH, wlcs._NUMPY_MIN_CELLS = (0, 0) if which == "numpy" else (10**18, 10**18)
    try:
        yield
    finally:
        wlcs._NUMPY_MIN_WIDTH, wlcs._NUMPY_MIN_CELLS = saved


def flatten(sentences):
    flat, bounds = [], []
    for s in sentences:
        bounds.append((len(flat), len(flat) + len(s)))
        flat += s
    return flat, bounds


def outcome(f, *args, **kwargs):
    """The result, or the exception type and message: both paths must fail alike."""
    try:
        return f(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - compared, not swallowed
        return type(exc), str(exc)


def tables(w, longest_run):
    """The NumPy kernel's gain tables: f(k+1) and f(k) for k < longest_run."""
    lengths = range(longest_run)
    return wlcs_fast.gain_tables([weight(k + 1, w) for k in lengths], [weight(k, w) for k in lengths])


def zipf_tokens(rng, n, vocab=400):
    words = [f"w{i}" for i in range(vocab)]
    weights = [1.0 / (rank + 1) for rank in range(vocab)]
    return rng.choices(words, weights=weights, k=n)


PATHS = ["numpy", "python"]
tokens = st.lists(st.sampled_from("abcd"), max_size=40)
long_tokens = st.lists(st.sampled_from("abcdefgh"), min_size=50, max_size=300)
sentences = st.lists(st.lists(st.sampled_from("abcde"), max_size=12), max_size=6)
weights = st.sampled_from(WEIGHTS)
EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW_EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---- the NumPy claims the kernel rests on ----------------------------------------------

def test_complex_maximum_accumulate_is_lexicographic_and_exact():
    segments = np.array([0, 0, 0, 1, 1, 1, 2, 2], dtype=np.float64)
    values = np.array([5.0, 3.0, 7.5, 0.1, 9.0, 2.0, 0.0, 1e-300])
    scan = np.maximum.accumulate(segments + 1j * values)
    assert scan.real.tolist() == segments.tolist()
    assert scan.imag.tolist() == [5.0, 5.0, 7.5, 0.1, 9.0, 9.0, 0.0, 1e-300]
    rng = np.random.default_rng(0)
    for _ in range(50):
        segments = np.cumsum(rng.random(500) < 0.1).astype(np.float64)
        values = rng.random(500) * 10.0 ** rng.integers(-5, 6)
        scan = np.maximum.accumulate(segments + 1j * values).imag
        expected, best, segment = [], None, None
        for s, v in zip(segments.tolist(), values.tolist()):
            best = v if s != segment or v > best else best
            segment = s
            expected.append(best)
        assert scan.tolist() == expected


def test_bool_comparison_writes_the_up_and_left_move_bytes():
    moves = np.full(4, 7, dtype=np.int8)
    np.greater_equal(np.array([1.0, 0.0, 2.0, 2.0]), np.array([0.0, 1.0, 2.0, 3.0]), out=moves.view(np.bool_))
    assert moves.tolist() == [wlcs_fast.UP, wlcs_fast.LEFT, wlcs_fast.UP, wlcs_fast.LEFT]


# ---- wlcs_alignment -------------------------------------------------------------------

@pytest.mark.parametrize("path", PATHS)
@EXAMPLES
@given(ref=tokens, cand=tokens, w=weights)
def test_alignment_equals_reference(path, ref, cand, w):
    with kernel(path):
        assert wlcs.wlcs_alignment(ref, cand, w) == reference_alignment(ref, cand, w)


@pytest.mark.parametrize("path", PATHS)
@FEW_EXAMPLES
@given(ref=long_tokens, cand=long_tokens, w=weights)
def test_long_alignment_equals_reference(path, ref, cand, w):
    with kernel(path):
        assert wlcs.wlcs_alignment(ref, cand, w) == reference_alignment(ref, cand, w)


@pytest.mark.parametrize("path", PATHS)
def test_alignment_edge_cases(path):
    cases = [([], []), ([], ["a"]), (["a"], []), (["a"], ["a"]), (["a"], ["b"]), (list("aaaa"), list("aaaa")),
             (list("abab"), list("baba")), (list("aaab"), list("ab")), (tuple("abcabc"), tuple("cbacba"))]
    with kernel(path):
        for ref, cand in cases:
            for w in WEIGHTS:
                assert wlcs.wlcs_alignment(ref, cand, w) == reference_alignment(ref, cand, w), (ref, cand, w)


@pytest.mark.parametrize("path", PATHS)
def test_zipf_text_with_many_ties_and_runs(path):
    rng = random.Random(3)
    for n, m in [(400, 350), (120, 500), (500, 90)]:
        ref, cand = zipf_tokens(rng, n, vocab=60), zipf_tokens(rng, m, vocab=60)
        cand[100:140] = ref[50:90]  # a long shared run
        for w in (1.2, 2.0):
            with kernel(path):
                assert wlcs.wlcs_alignment(ref, cand, w) == reference_alignment(ref, cand, w)


@pytest.mark.parametrize("path", PATHS)
def test_weights_that_overflow_or_fail_behave_as_the_reference(path):
    long_runs = list("ab" * 20 + "c" * 30), list("c" * 30 + "ab" * 20)
    # Only runs of length 1: f(k) overflows for lengths the DP never reaches.
    short_runs = list("abcdefghij" * 3), list("jihgfedcba" * 3)
    with kernel(path):
        for ref, cand in (long_runs, short_runs):
            for w in (250.0, 400.0, 600.0, -1.0, 0.0, 2, np.float64(1.3)):
                expected = outcome(reference_alignment, ref, cand, w)
                assert outcome(wlcs.wlcs_alignment, ref, cand, w) == expected, w
    reference_alignment(*short_runs, 400.0)  # succeeds: the tables overflow, the DP does not


def test_without_numpy_the_python_loop_runs(monkeypatch):
    monkeypatch.setattr(wlcs, "_numpy_kernel_module", False)  # as after a failed `import numpy`
    monkeypatch.setattr(wlcs_fast, "wlcs_alignment", None)  # would fail if called
    rng = random.Random(8)
    ref, cand = zipf_tokens(rng, 300, vocab=40), zipf_tokens(rng, 300, vocab=40)
    with kernel("numpy"):
        assert wlcs.wlcs_alignment(ref, cand, 1.2) == reference_alignment(ref, cand, 1.2)


def test_numpy_kernel_directly():
    rng = random.Random(5)
    for _ in range(30):
        ref, cand = zipf_tokens(rng, rng.randint(0, 120), vocab=20), zipf_tokens(rng, rng.randint(0, 120), vocab=20)
        w = rng.choice(WEIGHTS)
        longest = min(len(ref), len(cand))
        assert wlcs_fast.wlcs_alignment(ref, cand, *tables(w, longest)) == reference_alignment(ref, cand, w)


# ---- sentence-by-sentence form (ROUGE-1.5.5) -------------------------------------------

@FEW_EXAMPLES
@given(ref_sentences=sentences, cand_sentences=sentences, w=weights)
def test_every_block_of_the_shared_sweep_traces_back_its_own_dp(ref_sentences, cand_sentences, w):
    longest = max([len(s) for s in ref_sentences + cand_sentences], default=0)
    result = wlcs_fast.sentence_alignments(ref_sentences, cand_sentences, *tables(w, longest))
    assert result == [[reference_alignment(r, c, w)[1] for c in cand_sentences] for r in ref_sentences]


@pytest.mark.parametrize("path", PATHS)
@EXAMPLES
@given(ref_sentences=sentences, cand_sentences=sentences, w=weights, evidence=st.booleans())
def test_rouge155_equals_reference(path, ref_sentences, cand_sentences, w, evidence):
    ref, ref_bounds = flatten(ref_sentences)
    cand, cand_bounds = flatten(cand_sentences)
    with kernel(path):
        got = wlcs.wlcs_rouge155(cand, cand_bounds, ref, ref_bounds, w, evidence)
    assert got == reference_rouge155(cand, cand_bounds, ref, ref_bounds, w, evidence)


@pytest.mark.parametrize("path", PATHS)
@FEW_EXAMPLES
@given(ref_sentences=sentences, cand_sentences=sentences, clip_ref=tokens, clip_cand=tokens, w=weights)
def test_rouge155_with_clipping_equals_reference(path, ref_sentences, cand_sentences, clip_ref, clip_cand, w):
    ref, ref_bounds = flatten(ref_sentences)
    cand, cand_bounds = flatten(cand_sentences)
    args = (cand, cand_bounds, ref, ref_bounds, w, True)
    with kernel(path):
        got = wlcs.wlcs_rouge155(*args, clip_cand=clip_cand, clip_ref=clip_ref)
    assert got == reference_rouge155(*args, clip_cand=clip_cand, clip_ref=clip_ref)


@pytest.mark.parametrize("path", PATHS)
def test_rouge155_long_documents(path):
    rng = random.Random(11)
    for _ in range(3):
        ref_sentences = [zipf_tokens(rng, rng.randint(0, 30), vocab=80) for _ in range(rng.randint(1, 12))]
        cand_sentences = [zipf_tokens(rng, rng.randint(0, 30), vocab=80) for _ in range(rng.randint(1, 12))]
        ref, ref_bounds = flatten(ref_sentences)
        cand, cand_bounds = flatten(cand_sentences)
        for w in (1.2, 0.5):
            with kernel(path):
                got = wlcs.wlcs_rouge155(cand, cand_bounds, ref, ref_bounds, w, True)
            assert got == reference_rouge155(cand, cand_bounds, ref, ref_bounds, w, True)


@pytest.mark.parametrize("path", PATHS)
def test_rouge155_unusual_bounds(path):
    ref = list("abcabcab")
    cand = list("bcaabcbb")
    ref_bounds = [(0, 3), (3, 3), (3, 8)]
    cand_bounds = [(5, 8), (0, 5), (2, 4), (6, 20)]  # out of order, overlapping, past the end
    with kernel(path):
        got = wlcs.wlcs_rouge155(cand, cand_bounds, ref, ref_bounds, 1.2, True)
    assert got == reference_rouge155(cand, cand_bounds, ref, ref_bounds, 1.2, True)
    with kernel(path):
        for args in ((cand, [], ref, ref_bounds), (cand, cand_bounds, ref, [])):
            assert wlcs.wlcs_rouge155(*args, 1.2, True) == reference_rouge155(*args, 1.2, True)


# ---- paper form ------------------------------------------------------------------------

@pytest.mark.parametrize("path", PATHS)
@EXAMPLES
@given(ref=tokens, cand=tokens, w=weights, evidence=st.booleans())
def test_paper_equals_reference(path, ref, cand, w, evidence):
    with kernel(path):
        assert wlcs.wlcs_paper(cand, ref, w, evidence) == reference_paper(cand, ref, w, evidence)


def test_default_thresholds_pick_both_paths_with_equal_results():
    rng = random.Random(2)
    for n in (10, 60, 150, 400):  # below and above the NumPy thresholds
        ref, cand = zipf_tokens(rng, n, vocab=50), zipf_tokens(rng, n, vocab=50)
        assert wlcs.wlcs_paper(cand, ref, 1.2, True) == reference_paper(cand, ref, 1.2, True)
