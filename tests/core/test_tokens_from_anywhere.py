"""Tokens from anywhere on the compiled kernels (issue 29, item 2): stemming and stopwords over the
compiled tokenizer (once per word type), Python tokenizers' Documents without Token objects until
someone reads them, and XL-Sum's tokenizer without a Python loop per character; every path gives
the pure pipeline's words, sentences and Token objects."""

from __future__ import annotations

import importlib
import pickle
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rouge_core
from rouge_core.text import multilingual
from rouge_core.kernels import native
from rouge_core.scorer.scoring import prepare
from tests.extras import needs_pyonmttok

tokenize_module = importlib.import_module("rouge_core.text.tokenize")  # rouge_core.text.tokenize is also the function
SETTINGS = settings(max_examples=80, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
needs_kernels = pytest.mark.skipif(not native.active(), reason=f"compiled kernels not in use: {native.describe()}")

WORDS = ["the", "The", "runs", "running", "Runner", "ran", "a", "of", "café", "İstanbul", "naïve", "x1", "about",
         "generously", "\u212aelvin"]
prose = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", " ", "\n", ", ", ". ", "\n\n", " \n"])),
                 max_size=30).map(lambda parts: "".join(w + s for w, s in parts))


def documents(text: str, **settings_):
    fast = rouge_core.tokenize(text, **settings_)
    with native.pure():
        slow = rouge_core.tokenize(text, **settings_)
    return fast, slow


def same_document(fast, slow) -> None:
    """Equal Documents, whose terms and sentences (found without offsets) are those of their
    Token objects (found with them, when read)."""
    assert (fast.term_tuple, fast.sentence_bounds, len(fast)) == (slow.term_tuple, slow.sentence_bounds, len(slow))
    assert (fast.tokens, fast.sentence_spans) == (slow.tokens, slow.sentence_spans)
    assert tuple(t.term for t in fast.tokens) == fast.term_tuple
    assert [t.sentence for t in fast.tokens] == [s for s, (a, b) in enumerate(fast.sentence_bounds) for _ in range(a, b)]
    assert fast == slow and pickle.loads(pickle.dumps(fast)) == slow


FILTERS = [dict(stemmer="porter"), dict(stopwords="smart"), dict(stemmer="porter", stopwords="smart"),
           dict(tokenizer="rouge155", stemmer="rouge155"), dict(tokenizer="rouge155", stemmer="rouge155",
                                                                stopwords="smart"),
           dict(stemmer="snowball-english", lowercase=False)]


@needs_kernels
@SETTINGS
@given(prose, st.sampled_from(range(len(FILTERS))))
def test_stemming_and_stopwords_over_the_compiled_tokenizer_give_the_pure_documents(text, which):
    fast, slow = documents(text, **FILTERS[which])
    assert type(fast).__name__ == "_NativeDocument"
    same_document(fast, slow)
    assert native.tokens_of(fast).terms() == slow.term_tuple


class CountingStemmer:
    def __init__(self):
        self.calls = []

    def __call__(self, term: str) -> str:
        self.calls.append(term)
        return term[:4]


@pytest.mark.parametrize("path", ["native", "pure"])
def test_a_stemmer_runs_once_per_word_type(monkeypatch, path):
    stemmer = CountingStemmer()
    monkeypatch.setattr(tokenize_module, "get_stemmer", lambda name, data_dir=None: stemmer)
    text = "runs runs running\nrunners runs running ran"
    for number, tokenizer in enumerate(("rouge-score", "rouge155")):
        stemmer.calls.clear()
        if path == "pure":
            with native.pure():
                doc = rouge_core.tokenize(text, tokenizer=tokenizer, stemmer="porter")
        else:
            doc = rouge_core.tokenize(text, tokenizer=tokenizer, stemmer="porter")
        assert doc.term_tuple == ("runs", "runs", "runn", "runn", "runs", "runn", "ran")
        if path == "native" and number and native.active():  # the kernels' table of stems: shared by every call
            assert stemmer.calls == []
        else:
            assert sorted(stemmer.calls) == ["ran", "runners", "running", "runs"]  # each word once
        stemmer.calls.clear()
        assert doc.tokens[2].term == "runn" and sorted(set(stemmer.calls)) == sorted(stemmer.calls)


@needs_kernels
def test_a_stem_that_is_not_a_string_is_left_to_the_python_pipeline(monkeypatch):
    monkeypatch.setattr(tokenize_module, "get_stemmer", lambda name, data_dir=None: lambda term: 7 if term == "b" else term)
    doc = rouge_core.tokenize("a b", stemmer="porter")
    assert type(doc).__name__ != "_NativeDocument" and doc.term_tuple == ("a", 7)
    assert native.tokens_of(doc) is None  # terms that are not strings: the pure path scores them


PYTHON_TOKENIZERS = [dict(tokenizer="unicode"), dict(tokenizer="cjk"), dict(tokenizer="whitespace"),
                     dict(tokenizer="xlsum-basic"), dict(tokenizer="unicode", stemmer="porter"),
                     dict(sentence_split="punctuation"), dict(limit_words=7, tokenizer="rouge155")]
OPENNMT_TOKENIZERS = [dict(tokenizer="multilingual"), dict(tokenizer="multilingual", language="hindi")]


@needs_kernels
@pytest.mark.parametrize("tokenizers", [pytest.param(PYTHON_TOKENIZERS, id="python"),
                                        pytest.param(OPENNMT_TOKENIZERS, id="opennmt", marks=needs_pyonmttok)])
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=prose, data=st.data())
def test_python_tokenizers_make_documents_whose_token_objects_wait_to_be_read(tokenizers, text, data):
    options = rouge_core.profile("rouge-score", **data.draw(st.sampled_from(tokenizers), label="tokenizer"))
    fast = prepare(text, options)
    result = rouge_core.score(fast, [text + " the"], ["rouge1", "rougeL", "rougeLsum"], options, evidence=False)
    assert "tokens" not in fast.__dict__  # scored from the terms, interned once
    assert native.tokens_of(fast) is not None and native.tokens_of(fast).terms() == fast.term_tuple
    with native.pure():
        slow = prepare(text, options)
        expected = rouge_core.score(slow, [text + " the"], ["rouge1", "rougeL", "rougeLsum"], options, evidence=False)
    assert result.to_dict() == expected.to_dict()
    same_document(fast, slow)


# --- XL-Sum's tokenizer: the fast steps against the reference steps ----------------------------

DEVANAGARI = ["हिन्दी", "भाषा", "है", "के", "में", "क्षेत्र", "२०२४", "श्री", "।", "॥"]
OTHER = ["Σ", "ΑΣ Β", "İ", "ß", "ǅ", "a-b", "x.y", "3,5", "don't", "«x»", "\u200d", "\u200c", "\u00ad", "\u200b",
         "\ufffd", "\x00", "\x07", "\u2028", "\u3000", "\u00a0", "中文", "東京", "ภาษา", "😀", "\U00020000", "ＡＢ", "e\u0301",
         "\u0301", "\t", "\r\n"]
xlsum_texts = st.lists(st.tuples(st.sampled_from(DEVANAGARI + OTHER + ["The", "cat", "4", "x9"]),
                                 st.sampled_from([" ", " ", "", "\n", ", ", "\n\n", "  \n "])), max_size=25).map(
    lambda parts: "".join(w + s for w, s in parts))
any_text = st.text(st.characters(min_codepoint=0, max_codepoint=sys.maxunicode, exclude_categories=()), max_size=30)


@needs_pyonmttok
@SETTINGS
@given(st.one_of(xlsum_texts, any_text), st.sampled_from([None, "hindi", "chinese", "thai"]), st.booleans())
def test_xlsum_fast_steps_give_the_reference_tokens(text, language, lowercase):
    expected = multilingual._reference_split_xlsum(text, lowercase, language)
    assert multilingual.split_xlsum(text, lowercase, language) == expected
    assert multilingual.split_basic(text, lowercase) == [
        (piece, where[0], where[-1] + 1) for piece, where in multilingual.basic_pieces(text, lowercase)]
    # the terms alone, per non-empty line, as the pipeline puts the tokens with offsets there
    lines = [(start, start + len(line)) for start, line in _lines(text) if line]
    per_line = multilingual.xlsum_terms(text, lowercase, language)
    if per_line is not None:
        assert per_line == _by_line(expected, lines)
    basic = multilingual.basic_terms(text, lowercase)
    if basic is not None:
        assert basic == [[piece for piece, _, _ in multilingual.split_basic(text[s:e], lowercase)] for s, e in lines]


def _lines(text: str):
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def _by_line(triples, lines):
    """As the pipeline assigns a whole-text splitter's tokens: to the line they start in (one
    starting between two lines, to the one before)."""
    out = [[] for _ in lines]
    k = 0
    for term, start, _ in triples:
        if not lines or start < lines[0][0] or start >= lines[-1][1]:
            continue
        while k + 1 < len(lines) and lines[k + 1][0] <= start:
            k += 1
        out[k].append(term)
    return out


@needs_pyonmttok
def test_the_fast_steps_run_on_ordinary_text():
    text = "हिन्दी भाषा, बहुत\u200dसुंदर है।\nThe cat's 3.5 km"
    assert multilingual._fast_split_xlsum(text, True, "hindi") is not None
    assert multilingual.xlsum_terms(text, True, "hindi") == [["हिन्दी", "भाषा", "बहुतसुंदर", "है"],
                                                             ["the", "cat", "s", "3", "5", "km"]]
    assert multilingual._fast_pieces("İx", True) is None and multilingual._fast_pieces("😀 x", True) is None


@needs_pyonmttok
@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.text(st.characters(exclude_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=8)
                .filter(lambda w: not any(c.isspace() for c in w)), min_size=1, max_size=8))
def test_opennmt_tokenizes_each_space_separated_word_on_its_own(words):
    # what the per-piece cache of OpenNMT's tokens rests on (rouge_core.text.multilingual._onmt_piece),
    # for words that do not start with a combining mark (OpenNMT joins one to the space before)
    import unicodedata

    onmt = multilingual._onmt()
    words = [w for w in words if not unicodedata.category(w[0]).startswith("M")] or ["x"]
    assert onmt(" ".join(words)) == [tok for word in words for tok in onmt(word)]
    assert onmt("a \u0301b") == ["a", "％0020\u0301", "b"] and multilingual._onmt_piece("\u0301b") is None


@needs_pyonmttok
@SETTINGS
@given(xlsum_texts, st.sampled_from([None, "hindi", "chinese"]))
def test_the_multilingual_profile_documents_match_pure(text, language):
    options = rouge_core.profile("multilingual", language=language)
    fast = prepare(text, options)
    with native.pure():
        slow = prepare(text, options)
    same_document(fast, slow)
    with native.pure():
        eager = tokenize_module._tokenize_spans(text, slow.sentence_spans, *options.tokenize_key()[:2],
                                                *options.tokenize_key()[2:4], options.data_dir)
    assert (eager.term_tuple, eager.sentence_bounds) == (fast.term_tuple, fast.sentence_bounds)


@pytest.mark.parametrize("name", ["porter", "rouge155", "snowball-english"])
def test_each_stemmer_has_one_cache_of_stems_shared_by_every_caller_and_thread(name):
    from concurrent.futures import ThreadPoolExecutor

    from rouge_core.text.stemming import clear_stem_caches, get_stemmer
    from rouge_core.text.tokenize import stem_map

    stem = get_stemmer(name)
    assert get_stemmer(name) is stem  # one per process
    words = [f"generously{k}ing" for k in range(300)] + ["running", "generously"]
    expected = [stem.__wrapped__(w) for w in words]
    clear_stem_caches()  # the stemmer's own cache and the kernels' table in front of it
    texts = [" ".join(words[k::4]) for k in range(4)] * 4
    with ThreadPoolExecutor(4) as pool:
        docs = list(pool.map(lambda t: rouge_core.tokenize(t, stemmer=name, tokenizer="rouge155"), texts))
    assert [d.term_tuple for d in docs] == [tuple(expected[k::4]) for k in range(4)] * 4
    info = stem.cache_info()
    # one cache for every thread: each word type kept once; a word is stemmed at most once per thread
    # (4 threads may miss it together before the first stores it: lru_cache does not wait; under the
    # sanitizers' slowdown that happens to dozens of words)
    assert info.currsize == len(words) and info.misses <= 4 * len(words)
    table = stem_map(name, "none", None)
    if table is None:  # the pure path: the stemmer's cache answers every repeated word
        assert info.hits >= len(texts) * 75 - info.misses
    else:  # the kernels' table answers them, in C: the stemmer sees each word at most once per thread
        assert len(table) == len(words) and info.hits + info.misses <= 4 * len(words)


# --- which code runs: tokenize.route agrees with the Documents, every front door on the kernels ----

ROUTE_CASES = [  # (profile, overrides, text, route)
    ("rouge-score", {}, "The café opened.\nNaïve İstanbul", "compiled"),
    ("rouge-score", {}, "plain ascii text", "compiled"),
    ("rouge-1.5.5", {}, "The café opened.", "compiled"),
    ("rouge-score", {"stemmer": "porter"}, "Running cafés", "compiled"),
    ("rouge-1.5.5", {"stemmer": "rouge155", "stopwords": "smart"}, "the running cafés", "compiled"),
    ("rouge-score", {"sentence_split": "punctuation"}, "One. Two café.", "split:rouge-score"),
    ("rouge-score", {"sentence_split": "punctuation"}, "One. Two cafe.", "lazy:ascii"),
    ("rouge-1.5.5", {"limit_words": 3}, "the café is open", "split:rouge155"),
    ("rouge-1.5.5", {"limit_bytes": 12, "lcs_byte_limit_defect": True}, "the café is open", "eager:rouge155"),
    ("matlab", {}, "Über alles", "lazy:whitespace"),
    ("rouge-score", {"tokenizer": "unicode"}, "Über café", "split:unicode"),
    ("rouge-score", {"tokenizer": "cjk"}, "中文 text", "split:cjk"),
    pytest.param("multilingual", {}, "हिन्दी भाषा है।\nThe cat", "lazy:multilingual", marks=needs_pyonmttok),
    pytest.param("multilingual", {"language": "hindi"}, "हिन्दी भाषा है।", "lazy:multilingual", marks=needs_pyonmttok),
    pytest.param("multilingual", {}, "emoji 😀 here", "split:multilingual", marks=needs_pyonmttok),
    ("multilingual", {"tokenizer": "xlsum-basic"}, "हिन्दी भाषा", "lazy:xlsum-basic"),
]
DOCUMENT_OF_ROUTE = {"compiled": "_NativeDocument", "lazy": "_LazyDocument", "split": "_SplitDocument",
                     "eager": "Document"}


@needs_kernels
@pytest.mark.parametrize("prof, overrides, text, expected", ROUTE_CASES)
def test_route_names_the_code_that_makes_the_document(prof, overrides, text, expected):
    options = rouge_core.profile(prof, **overrides)
    assert tokenize_module.route(text, options.tokenize_key()) == expected
    doc = prepare(text, options)
    assert type(doc).__name__ == DOCUMENT_OF_ROUTE[expected.split(":")[0]]
    if not expected.startswith("compiled"):
        with native.pure():
            assert tokenize_module.route(text, options.tokenize_key()) == expected  # the same Python code runs


@needs_kernels
def test_chinese_is_read_line_by_line_on_the_compiled_jieba_and_split_by_jieba_on_the_pure_path():
    options = rouge_core.profile("multilingual", language="chinese")
    text = "中文是语言\n我来到北京清华大学"
    assert tokenize_module.route(text, options.tokenize_key()) == "lazy:multilingual"
    assert type(prepare(text, options)).__name__ == "_LazyDocument"
    with native.pure():
        assert tokenize_module.route(text, options.tokenize_key()) == "split:multilingual"
        assert type(prepare(text, options)).__name__ == "_SplitDocument"


def test_on_the_pure_path_non_ascii_text_is_split_in_python():
    options = rouge_core.profile("rouge-score")
    with native.pure():
        assert tokenize_module.route("café", options.tokenize_key()) == "split:rouge-score"
        assert tokenize_module.route("cafe", options.tokenize_key()) == "lazy:ascii"


@needs_kernels
def test_the_cost_model_prices_non_ascii_text_on_the_compiled_tokenizer_by_its_bytes():
    from rouge_core.scorer import cost

    options = rouge_core.profile("rouge-score")
    ascii_shape, accented = cost.text_shape("cafe " * 10, options), cost.text_shape("café " * 10, options)
    assert (ascii_shape.route, accented.route) == ("compiled", "compiled")
    assert (ascii_shape.wide, accented.wide) == (0, 10)  # é: two bytes of UTF-8
    terms = cost.tokenize_terms(accented, options)
    assert terms.time == {"tok.compiled.char": 50, "tok.compiled.wide": 10}
    stemmed = rouge_core.profile("rouge-score", stemmer="porter")
    terms = cost.tokenize_terms(cost.text_shape("running runs", stemmed), stemmed, tokens=2, distinct=2)
    assert terms.time["tok.compiled.mapped.token"] == 2 and terms.time["stem.porter.type"] == 2
    split = cost.text_shape("One. Two café.", rouge_core.profile("rouge-score", sentence_split="punctuation"))
    assert "tok.split.token" in cost.tokenize_terms(split, options, tokens=3, distinct=3).time


ACCENTED_PAIRS = [("The café opened early, naïve İstanbul fans said.\nA second line", "the cafe opened; İstanbul fans"),
                  ("Ünïcödé everywhere — “quoted”", "unicode everywhere quoted"),
                  ("plain text only", "plain text, only")]


@needs_kernels
@pytest.mark.parametrize("prof", ["rouge-score", "rouge-1.5.5"])
def test_every_front_door_takes_non_ascii_text_on_the_kernels(monkeypatch, prof):
    from rouge_core.compat.rouge_score import rouge_scorer

    methods = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    options = rouge_core.profile(prof)
    with native.pure():
        expected = [rouge_core.score(c, [r], methods, options, evidence=False).to_dict() for c, r in ACCENTED_PAIRS]
        dropin_expected = [rouge_scorer.RougeScorer(methods).score(r, c) for c, r in ACCENTED_PAIRS]

    def python_tokenizer(*args, **kwargs):
        raise AssertionError("the Python tokenizer ran")

    monkeypatch.setattr(tokenize_module, "_split_document", python_tokenizer)
    monkeypatch.setattr(tokenize_module, "_tokenize_spans", python_tokenizer)
    from rouge_core.scorer.scoring import score_documents

    cands, refs = [c for c, _ in ACCENTED_PAIRS], [[r] for _, r in ACCENTED_PAIRS]
    for k, (c, r) in enumerate(ACCENTED_PAIRS):
        assert rouge_core.score(c, [r], methods, options, evidence=False).to_dict() == expected[k]
        assert rouge_core.score(c, [r], methods, options).to_dict() == expected[k]  # with evidence
        docs = prepare(c, options), prepare(r, options)
        assert score_documents(docs[0], (docs[1],), methods, options, evidence=False).to_dict() == expected[k]
        if prof == "rouge-score":
            assert rouge_scorer.RougeScorer(methods).score(r, c) == dropin_expected[k]
    from rouge_core.corpora.batch import score_batch

    batch = score_batch(cands, refs, methods, options)
    corpus = rouge_core.score_corpus(cands, refs, methods, options)
    for k in range(len(ACCENTED_PAIRS)):
        assert {m: (s.precision, s.recall, s.fmeasure) for m, s in batch[k].items()} == {
            m: (v["precision"], v["recall"], v["fmeasure"]) for m, v in expected[k].items()}
    assert len(corpus.pairs) == len(ACCENTED_PAIRS)


@needs_kernels
@pytest.mark.parametrize("text", ["plain words", "accented wörds"])
def test_stemming_over_the_compiled_tokenizer_is_charged_before_any_word_is_stemmed(monkeypatch, text):
    from rouge_core.scorer import cost

    def never(term):
        raise AssertionError("stemmed before the cost check")

    # priced as a calibration would price it: stemming dominates, reading characters is cheap
    monkeypatch.setattr(cost, "SECONDS", {"stem.porter.type": 1e-4, "tok.compiled.char": 1e-9})
    monkeypatch.setattr(cost, "BYTES", {})
    monkeypatch.setattr(tokenize_module, "get_stemmer", lambda name, data_dir=None: never)
    long_text = " ".join(f"{text} w{i}x" for i in range(30_000))  # 30,000 distinct words: about 3 s
    assert tokenize_module.route(long_text, rouge_core.profile("rouge-score", stemmer="porter").tokenize_key()) \
        == "compiled"
    with pytest.raises(rouge_core.CostLimitError) as info:
        rouge_core.score(long_text, ["a b c"], ["rouge1"], "rouge-score", stemmer="porter")
    assert info.value.method == cost.TOKENIZING
