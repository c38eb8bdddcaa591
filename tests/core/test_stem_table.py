"""Stemming on the compiled path (issue 34, item 3; issue 29: stemming cached per word type):
one table of stems per stemmer and stopword list in the process (rouge_core.text.tokenize.stem_map),
looked up in C by every call and by the batch's threads without the GIL, so that each word type
goes through the stemmer once. The numbers stay those of the pure pipeline to the bit, whatever
the stemmer, the order of calls and the number of threads."""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rouge_core
import rouge_core.corpora.batch as batch
import rouge_core.text.tokenize as tokenize_module
from rouge_core.corpora.batch import score_batch
from rouge_core.corpora.corpus import score_pair_stats
from rouge_core.kernels import kernel_spec, native

needs_kernels = pytest.mark.skipif(not native.active(), reason="the compiled kernels' table of stems")

FOUR = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# words whose stems differ between NLTK's Porter (rouge-score), ROUGE-1.5.5's (with its WordNet
# exceptions) and Snowball, and words of 3 characters or fewer (left alone by the first two)
WORDS = ["dying", "generously", "running", "ran", "flies", "was", "the", "oxen", "happiness", "relational",
         "cats", "a", "is", "sky", "skies", "agreed", "feet", "went", "Caring", "CONDITIONAL", "x1y2", "café"]
STEMMED = [dict(stemmer="porter"), dict(stemmer="rouge155"), dict(stemmer="snowball-english"),
           dict(stemmer="porter", stopwords="smart"), dict(stopwords="smart")]
prose = st.builds(lambda ws, seps: "".join(w + s for w, s in zip(ws, seps)),
                  st.lists(st.sampled_from(WORDS), max_size=30),
                  st.lists(st.sampled_from([" ", "\n", ", ", ". "]), min_size=30, max_size=30))


def records(pairs) -> list:
    return [{name: (repr(m.score), m.chosen, m.reason, m.signature, repr(m.stats)) for name, m in pair.items()}
            for pair in pairs]


def pure_records(cands, refs, opts) -> list:
    with native.pure():
        return records(score_pair_stats(c, tuple(r), FOUR, opts) for c, r in zip(cands, refs))


class CountingStemmer:
    """A stemmer that counts its calls per word (thread-safe), as NLTK's Porter on long words."""

    def __init__(self):
        self.calls: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, term: str) -> str:
        with self.lock:
            self.calls[term] = self.calls.get(term, 0) + 1
        return term[:4] if len(term) > 3 else term


def corpus(n: int) -> tuple[list[str], list[list[str]]]:
    cands = [" ".join(WORDS[(i + k) % len(WORDS)] for k in range(12)) + f"\nrunning{i % 5} dogs" for i in range(n)]
    refs = [[" ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(9)), f"the dog{i % 4} runs"] for i in range(n)]
    return cands, refs


def _counting_porter(monkeypatch) -> "CountingStemmer":
    """The kernels' "porter" stemmer replaced by a CountingStemmer (the others none), returned."""
    stemmer = CountingStemmer()
    monkeypatch.setattr(tokenize_module, "get_stemmer", lambda name, data_dir=None: stemmer if name == "porter" else None)
    return stemmer


@needs_kernels
@pytest.mark.parametrize("workers", [1, 2])
def test_the_batch_stems_each_word_type_once_in_the_process(monkeypatch, workers):
    stemmer = _counting_porter(monkeypatch)
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    cands, refs = corpus(300)
    first = records(score_batch(cands, refs, FOUR, opts, workers=workers, chunk_size=8))
    types = {w for text in cands + [r for rs in refs for r in rs] for w in rouge_core.tokenize(text).term_tuple}
    assert set(stemmer.calls) == types
    # two threads may meet a new word at the same moment; never more often than once per thread
    assert max(stemmer.calls.values()) <= workers
    stemmer.calls.clear()
    again = records(score_batch(cands, refs, FOUR, opts, workers=workers, chunk_size=8))
    assert again == first and stemmer.calls == {}  # every word type known: the stemmer is not called
    assert first == pure_records(cands, refs, opts)


@needs_kernels
def test_the_batch_tokenizes_and_stems_on_the_kernels_threads_not_in_python(monkeypatch):
    called = []
    monkeypatch.setattr(batch, "_tokens_for", lambda *args: called.append(args) or [])
    cands, refs = corpus(200)
    for overrides in STEMMED:
        opts = rouge_core.profile("rouge-score", **overrides)
        got = records(score_batch(cands, refs, FOUR, opts, workers=2, chunk_size=8))
        assert got == pure_records(cands, refs, opts), overrides
    assert called == []  # no chunk was tokenized by this thread in Python


@needs_kernels
def test_one_table_per_stemmer_and_stopword_list_never_crossed():
    """Interleaved calls under every stemmer and stopword list, in both orders: each gives the
    pure pipeline's terms (a table keyed by name alone, or shared, would give another's stems)."""
    text = " ".join(WORDS) + "\n" + " ".join(reversed(WORDS))
    for order in (STEMMED, STEMMED[::-1]):
        for overrides in order * 2:
            for profile in ("rouge-score", "rouge-1.5.5"):
                opts = rouge_core.profile(profile, **overrides)
                fast = tokenize_module.tokenize_with(text, *opts.tokenize_key())
                with native.pure():
                    slow = tokenize_module.tokenize_with(text, *opts.tokenize_key())
                assert type(fast).__name__ == "_NativeDocument"
                assert native.tokens_of(fast).terms() == slow.term_tuple, (profile, overrides)
    tables = {id(tokenize_module.stem_map(o.get("stemmer", "none"), o.get("stopwords", "none"), None)) for o in STEMMED}
    assert len(tables) == len(STEMMED)


@needs_kernels
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(prose, st.lists(prose, min_size=1, max_size=3)), min_size=1, max_size=20),
       st.sampled_from(range(len(STEMMED))), st.sampled_from([1, 2, 3]), st.sampled_from([1, 4, 64]))
def test_stemmed_batches_give_the_pure_numbers_whatever_the_threads(pairs, which, workers, chunk_size):
    opts = rouge_core.profile("rouge-score", **STEMMED[which])
    cands, refs = [c for c, _ in pairs], [r for _, r in pairs]
    got = records(score_batch(cands, refs, FOUR, opts, workers=workers, chunk_size=chunk_size))
    assert got == pure_records(cands, refs, opts)
    assert got == records(rouge_core.score(c, r, FOUR, opts).methods for c, r in zip(cands, refs))


@needs_kernels
def test_a_stemmer_error_in_a_batch_thread_names_the_pair(monkeypatch):
    def stem(term: str) -> str:
        if term == "oxen":
            raise ValueError("no stem for oxen")
        return term

    monkeypatch.setattr(tokenize_module, "get_stemmer", lambda name, data_dir=None: stem)
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    cands = ["the cat sat", "dogs ran far", "the oxen ran", "a cat"]
    refs = [["the cat"], ["dogs ran"], ["oxen"], ["cat"]]
    with pytest.raises(ValueError, match="pair 3: no stem for oxen"):
        score_batch(cands, refs, FOUR, opts, workers=2, chunk_size=1)


@needs_kernels
def test_a_stem_that_is_not_a_string_leaves_the_pair_to_python(monkeypatch):
    monkeypatch.setattr(tokenize_module, "get_stemmer",
                        lambda name, data_dir=None: lambda term: 7 if term == "b" else term)
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    cands, refs = ["a b c", "a c"], [["a b"], ["c a"]]
    got = records(score_batch(cands, refs, FOUR, opts, workers=2, chunk_size=1))
    assert got == records(score_pair_stats(c, tuple(r), FOUR, opts) for c, r in zip(cands, refs))


@needs_kernels
def test_the_table_is_bounded_and_may_be_emptied_while_in_use():
    seen = []

    def keep(term: str) -> str | None:
        seen.append(term)
        return None if term == "the" else term.upper()

    table = native.stem_map(keep, 3)
    text = "the cat sat on the mat with a hat and a bat"
    tokens = native.tokenize_text(text, kernel_spec.WORDS_LOWER_ASCII)
    stemmed = native.tokens_stemmed(tokens, table)
    assert stemmed.terms() == tuple(w.upper() for w in text.split() if w != "the")
    assert len(table) <= 3  # full, it starts afresh
    assert native.tokens_stemmed(tokens, table).terms() == stemmed.terms()
    table.clear()
    assert len(table) == 0
    seen.clear()
    assert native.tokens_stemmed(tokens, table).terms() == stemmed.terms()
    assert sorted(seen) == sorted(set(text.split()))  # each word type once after emptying
    with pytest.raises(ValueError):
        native.stem_map(keep, 0)
    with pytest.raises(TypeError):
        native.tokens_stemmed(tokens, keep)


@needs_kernels
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(prose, st.lists(prose, min_size=1, max_size=3), st.sampled_from(range(len(STEMMED))),
       st.sampled_from(["rouge-score", "rouge-1.5.5"]))
def test_score_of_stemmed_texts_is_one_kernel_call_with_the_pure_numbers_and_documents(cand, refs, which, profile):
    import rouge_core.scorer.scoring as scoring

    opts = rouge_core.profile(profile, **STEMMED[which])
    methods = FOUR if profile == "rouge-score" else ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4"]
    with native.pure():
        slow = rouge_core.score(cand, refs, methods, opts)
    with pytest.MonkeyPatch.context() as patch:  # no Python tokenizing: one call to the kernels
        patch.setattr(scoring, "prepare_pair", lambda *args: pytest.fail("tokenized in Python"))
        fast = rouge_core.score(cand, refs, methods, opts)
    assert records([fast.methods]) == records([slow.methods])
    for got, want in zip((fast.candidate, *fast.references), (slow.candidate, *slow.references)):
        assert (got.term_tuple, got.sentence_bounds, got.tokens) == (want.term_tuple, want.sentence_bounds, want.tokens)


@needs_kernels
def test_score_stems_each_word_type_once_across_calls(monkeypatch):
    stemmer = _counting_porter(monkeypatch)
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    cands, refs = corpus(40)
    first = [records([rouge_core.score(c, r, FOUR, opts).methods]) for c, r in zip(cands, refs)]
    assert max(stemmer.calls.values()) == 1
    stemmer.calls.clear()
    assert [records([rouge_core.score(c, r, FOUR, opts).methods]) for c, r in zip(cands, refs)] == first
    assert stemmer.calls == {}


@needs_kernels
@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork")
def test_a_forked_child_starts_with_its_own_tables_and_the_same_numbers():
    """A batch thread of the parent may hold a table's lock when another thread forks (a server
    starting a worker process); that thread does not exist in the child, so the child must not
    use the inherited tables: it makes new ones, and scores as the parent does."""
    import os

    cands, refs = corpus(6)
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    expected = records(score_batch(cands, refs, FOUR, opts, workers=2).pairs)
    parent_table = tokenize_module.stem_map("porter", None, None)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, then leave at once (no pytest teardown in the child)
        try:
            fresh = tokenize_module.stem_map("porter", None, None)
            same = records(score_batch(cands, refs, FOUR, opts, workers=2).pairs) == expected
            os.write(write, f"{int(fresh is not parent_table)}{int(len(fresh) > 0)}{int(same)}".encode())
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 16).decode()
    os.waitpid(pid, 0)
    os.close(read)
    assert answer == "111"


@needs_kernels
def test_a_warm_batch_thread_stems_from_its_own_copy_without_the_tables_lock():
    """Issue 34: the batch's threads look each text's words up in their own copy of the table,
    so once they know the words they write no memory they share (a lock taken per text passes
    its cache line from core to core and kept two threads from doubling the speed)."""
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    table = tokenize_module.stem_map("porter", None, None)
    cands, refs = corpus(120)
    first = records(score_batch(cands, refs, FOUR, opts, workers=1, chunk_size=8))
    before = table.locked_reads
    assert records(score_batch(cands, refs, FOUR, opts, workers=1, chunk_size=8)) == first
    assert table.locked_reads == before  # every word in this thread's copy: the lock never taken
    rouge_core.score(cands[0], refs[0], FOUR, opts)  # a single call has no copy: it reads the table
    assert table.locked_reads > before
    assert first == pure_records(cands, refs, opts)


@needs_kernels
@pytest.mark.parametrize("workers", [1, 2])
def test_the_threads_copies_follow_the_table_when_it_is_emptied(monkeypatch, workers):
    stemmer = _counting_porter(monkeypatch)
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    cands, refs = corpus(200)
    first = records(score_batch(cands, refs, FOUR, opts, workers=workers, chunk_size=8))
    types = set(stemmer.calls)
    tokenize_module.stem_map("porter", None, None).clear()
    stemmer.calls.clear()
    assert records(score_batch(cands, refs, FOUR, opts, workers=workers, chunk_size=8)) == first
    assert set(stemmer.calls) == types  # emptied: every word type stemmed again, not read from a stale copy
    assert first == pure_records(cands, refs, opts)


@needs_kernels
def test_a_small_table_emptied_again_and_again_during_a_two_thread_batch_gives_the_pure_numbers(monkeypatch):
    """The table full every few words (its threads' copies too) and emptied by another thread
    while two threads stem: the numbers stay the pure pipeline's."""
    _counting_porter(monkeypatch)
    monkeypatch.setattr(tokenize_module, "STEM_CACHE_SIZE", 5)
    opts = rouge_core.profile("rouge-score", stemmer="porter")
    table = tokenize_module.stem_map("porter", None, None)
    cands, refs = corpus(300)
    stop = threading.Event()

    def empty_it():
        while not stop.is_set():
            table.clear()

    emptier = threading.Thread(target=empty_it)
    emptier.start()
    try:
        got = records(score_batch(cands, refs, FOUR, opts, workers=2, chunk_size=4))
    finally:
        stop.set()
        emptier.join()
    assert len(table) <= 5
    assert got == pure_records(cands, refs, opts)
