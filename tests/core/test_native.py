"""Differential tests: the compiled kernels (rouge_core._native) against the pure-Python
reference, on random inputs, for every method family, profile and evidence type. Every float
must be the same to the bit (compared through repr, which also tells 1 from 1.0 and 0.0 from
-0.0), every alignment and evidence record equal.

Skipped when the kernels are not built (a machine without a compiler) or ROUGE_LENS_PURE is
set; the rest of the suite then runs on the pure path alone.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rouge_core
from rouge_core.kernels import native
from rouge_core.families.bitparallel_lcs import CandidateLayout
from rouge_core.text.document import pretokenized
from rouge_core.families.lcs import lcs_length
from rouge_core.scorer.scoring import prepare, score_documents
from rouge_core.families.wlcs import _first_partners, _gain_tables, _python_alignment, wlcs_alignment
from tests.extras import needs_pyonmttok

pytestmark = pytest.mark.skipif(not native.active(), reason=f"compiled kernels not in use: {native.describe()}")

SETTINGS = settings(max_examples=120, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

METHODS = ["rouge1", "rouge2", "rouge3", "rouge5", "rougeL", "rougeLsum", "rougeLsum-best", "rougeW-1.2",
           "rougeW-3.5", "rougeS0", "rougeS4", "rougeS*", "rougeSU0", "rougeSU4", "rougeSU*"]
PROFILES = ["rouge-score", "rouge-1.5.5", "matlab", "reval"]

# Words that repeat (so there are matches), Unicode words (non-ASCII texts take the pure
# tokenizer, ASCII ones the compiled one), the start token MATLAB's SU form uses, and
# separators, blank and empty lines.
WORDS = ["a", "b", "the", "cat", "A", "The", "x1", "café", "İstanbul", "straße", "中文", "<s>", "ǅ", "naïve"]
SEPARATORS = [" ", " ", " ", "\n", "\n\n", ", ", ". ", " \t", "\n \n", "!"]


@st.composite
def texts(draw, max_words=40):
    n = draw(st.integers(0, max_words))
    parts = []
    for _ in range(n):
        parts.append(draw(st.sampled_from(WORDS)))
        parts.append(draw(st.sampled_from(SEPARATORS)))
    return "".join(parts)


ascii_texts = st.builds(lambda words, seps: "".join(w + s for w, s in zip(words, seps)),
                        st.lists(st.sampled_from(["a", "b", "c", "the", "The", "D4", "cat"]), max_size=90),
                        st.lists(st.sampled_from([" ", " ", "\n", ". ", ",", "  \n", "\n\n"]), min_size=90, max_size=90))
token_lists = st.lists(st.sampled_from("abcde"), max_size=14)
sentence_lists = st.lists(token_lists, max_size=5)


def snapshot(result) -> dict:
    """Everything a Result says, floats by repr."""
    out = {}
    for name, m in result.methods.items():
        out[name] = (repr(m.score), m.chosen, m.reason, m.signature, repr(m.stats),
                     [(r.index, repr(r.stats), repr(r.score), r.evidence) for r in m.per_reference])
    return out


def both_paths(fn):
    """fn() on the compiled kernels, then on the pure path (fresh inputs each time)."""
    fast = fn()
    with native.pure():
        slow = fn()
    return fast, slow


def assert_same_scores(cand, refs, methods, profile, evidence, **overrides):
    def run():
        return snapshot(rouge_core.score(cand, refs, methods, profile, evidence=evidence,
                                         cost_limit=rouge_core.UNBOUNDED, **overrides))

    fast, slow = both_paths(run)
    assert fast == slow


@SETTINGS
@given(texts(), st.lists(texts(), min_size=1, max_size=3), st.sampled_from(PROFILES), st.booleans())
def test_every_method_profile_and_evidence_matches_pure(cand, refs, profile, evidence):
    assert_same_scores(cand, refs, METHODS, profile, evidence)


@SETTINGS
@given(ascii_texts, st.lists(ascii_texts, min_size=1, max_size=2), st.sampled_from(PROFILES), st.booleans())
def test_longer_ascii_texts_match_pure(cand, refs, profile, evidence):
    # up to 90 tokens: bit vectors of more than one 64-bit word
    assert_same_scores(cand, refs, METHODS, profile, evidence)


# score() of ASCII texts without evidence takes one call to the kernels (score_texts): the
# candidate is tokenized, each reference only looked up in the candidate's vocabulary, and the
# reference's Document tokenizes it when read.
@SETTINGS
@given(ascii_texts, st.lists(ascii_texts, min_size=1, max_size=3), st.sampled_from(["rouge-score", "rouge-1.5.5"]),
       st.sampled_from(["rouge155", "start-token"]))
def test_ascii_texts_scored_in_one_call_match_pure(cand, refs, profile, su_form):
    assert_same_scores(cand, refs, METHODS, profile, False, su_form=su_form)
    opts = rouge_core.profile(profile)
    result = rouge_core.score(cand, refs, ["rougeL"], opts, evidence=False)
    assert [type(doc).__name__ for doc in result.references] == ["_ProbedDocument"] * len(refs)
    with native.pure():
        eager = [prepare(text, opts) for text in [cand, *refs]]
    for doc, pure_doc in zip([result.candidate, *result.references], eager):
        assert len(doc) == len(pure_doc)
        assert (doc.term_tuple, doc.sentence_bounds, doc.tokens) == (pure_doc.term_tuple, pure_doc.sentence_bounds,
                                                                      pure_doc.tokens)
        assert pickle.loads(pickle.dumps(doc)) == pure_doc


def test_a_probed_reference_builds_its_tokens_once_when_read():
    result = rouge_core.score("the cat sat", ["The cat\nsat down"], ["rouge1"], "rouge-score", evidence=False)
    ref = result.references[0]
    assert ref.memoized(native.TOKENS) is None  # looked up in the candidate's vocabulary only
    tokens = native.tokens_of(ref)
    assert native.tokens_of(ref) is tokens and ref.memoized(native.TOKENS) is tokens
    assert tokens.terms() == ("the", "cat", "sat", "down") and tokens.bounds() == ((0, 2), (2, 4))
    # scored again as a Document (its own Tokens now), the same numbers
    again = score_documents(result.candidate, (ref,), ["rouge1"], rouge_core.profile("rouge-score"), evidence=False)
    assert again["rouge1"] == result["rouge1"]


@pytest.mark.parametrize("shared", [1, 63, 64, 65, 127, 128, 129, 300])
def test_rouge_l_over_the_tokens_both_texts_have(shared):
    # rougeL's bit-parallel rows run over the candidate tokens the reference has only (the
    # others are on no common subsequence): widths on and around 64-bit word boundaries
    import random

    rng = random.Random(shared)
    cand = [rng.choice("abcdef") for _ in range(shared)]
    for _ in range(shared):  # words the reference lacks, anywhere in the candidate
        cand.insert(rng.randrange(len(cand) + 1), rng.choice(["x", "y", "z"]))
    ref = [rng.choice("abcdefuv") for _ in range(shared + 7)]
    cand_text, ref_text = " ".join(cand), " ".join(ref)
    assert_same_scores(cand_text, [ref_text], ["rougeL", "rougeLsum"], "rouge-score", False)
    assert_same_scores(cand_text, [ref_text], ["rougeL"], "rouge-score", False)
    fast = rouge_core.score(cand_text, [ref_text], ["rougeL"], "rouge-score", evidence=False)["rougeL"]
    assert fast.stats.hits == lcs_length(cand, ref)


# The evidence whose big collections the compiled path fills in on first read (rouge_core.deferred).
DEFERRED_EVIDENCE_METHODS = ["rouge1", "rouge3", "rougeL", "rougeLsum", "rougeS4", "rougeSU*"]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(ascii_texts, st.lists(ascii_texts, min_size=1, max_size=2), st.sampled_from(PROFILES))
def test_unread_compiled_evidence_pickles_copies_and_prints_as_pure(cand, refs, profile):
    def run():
        result = rouge_core.score(cand, refs, DEFERRED_EVIDENCE_METHODS, profile, evidence=True,
                                  cost_limit=rouge_core.UNBOUNDED)
        return [r.evidence for m in result.methods.values() for r in m.per_reference]

    slow = both_paths(run)[1]
    assert pickle.loads(pickle.dumps(run())) == slow  # e.g. st.cache_data's copies
    assert copy.deepcopy(run()) == slow
    assert repr(run()) == repr(slow)
    assert [hash(e) for e in run()] == [hash(e) for e in slow]
    fast = run()
    assert [type(e) for e in fast] == [type(e) for e in slow] and fast == slow


@SETTINGS
@given(texts(), texts(), st.sampled_from(["pooled", "best-recall", "best-f", "max", "mean"]),
       st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.sampled_from([None, 5]), st.sampled_from(["zero", "nan"]))
def test_score_options_match_pure(cand, ref, multi_ref, alpha, round_pr, empty):
    assert_same_scores(cand, [ref, cand + " b"], METHODS, "rouge-score", False, multi_ref=multi_ref, alpha=alpha,
                       round_pr=round_pr, empty=empty)


@SETTINGS
@given(texts(), texts(), st.sampled_from(["porter", "none"]), st.sampled_from(["none", "smart"]),
       st.sampled_from([None, 7]), st.sampled_from([None, 30]))
def test_tokenizer_settings_match_pure(cand, ref, stemmer, stopwords, limit_words, limit_bytes):
    # stemming, stopwords and ROUGE-1.5.5's -l / -b (its L/W view) take the Python tokenizer
    profile = "rouge-1.5.5" if stemmer == "none" else "rouge-score"
    overrides = dict(stemmer=stemmer if profile == "rouge-score" else "rouge155", stopwords=stopwords)
    if profile == "rouge-1.5.5":
        overrides.update(limit_words=limit_words, limit_bytes=limit_bytes)
    for evidence in (False, True):
        assert_same_scores(cand, [ref], METHODS, profile, evidence, **overrides)


@SETTINGS
@given(sentence_lists, st.lists(sentence_lists, min_size=1, max_size=2), st.sampled_from(PROFILES), st.booleans())
def test_pretokenized_sentences_match_pure(cand, refs, profile, evidence):
    # empty sentences and repeated tokens, as token lists
    assert_same_scores(cand, refs, METHODS, profile, evidence)


@SETTINGS
@given(texts(), st.sampled_from(["rouge-score", "rouge155"]), st.booleans())
def test_compiled_tokenizer_gives_the_pure_document(text, tokenizer, lowercase):
    def run():
        doc = rouge_core.tokenize(text, tokenizer=tokenizer, lowercase=lowercase)
        return doc.term_tuple, doc.sentence_bounds, doc.sentence_spans, doc.tokens, len(doc)

    fast, slow = both_paths(run)
    assert fast == slow


def test_compiled_documents_pickle_and_compare_as_pure_ones():
    text = "The cat sat.\n\n  \nOn the mat!"
    doc = rouge_core.tokenize(text)
    with native.pure():
        reference = rouge_core.tokenize(text)
    assert doc == reference
    again = pickle.loads(pickle.dumps(doc))
    assert again == reference and again.term_tuple == ("the", "cat", "sat", "on", "the", "mat")
    assert len(doc) == 6 and doc.sentence_bounds == ((0, 3), (3, 3), (3, 6))


# --- the kernels one by one against their pure modules ---------------------------------------

def flat(sentences):
    terms, bounds = [], []
    for s in sentences:
        bounds.append((len(terms), len(terms) + len(s)))
        terms += s
    return terms, bounds


@SETTINGS
@given(sentence_lists, token_lists, sentence_lists)
def test_layout_matches_candidate_layout(cand_sentences, ref, ref_sentences):
    terms, bounds = flat(cand_sentences)
    fast, slow = native.KERNELS.Layout(terms, bounds), CandidateLayout(terms, bounds)
    assert fast.union_positions(ref) == slow.union_positions(ref)
    assert fast.alignments(ref) == slow.alignments(ref)
    assert fast.lcs_length(ref) == slow.lcs_length(ref)
    assert fast.sentence_lcs_lengths(ref) == slow.sentence_lcs_lengths(ref)
    assert fast.unigram_hits(ref) == slow.unigram_hits(ref)
    rterms, rbounds = flat(ref_sentences)
    assert fast.union_positions_of(rterms, rbounds) == slow.union_positions_of(rterms, rbounds)
    assert fast.union_hits(rterms, rbounds) == slow.union_hits(rterms, rbounds)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from("abcdefg"), min_size=60, max_size=300),
       st.lists(st.sampled_from("abcdefg"), min_size=60, max_size=300), st.integers(1, 40))
def test_layout_on_many_words(cand, ref, sentence_length):
    bounds = [(a, min(a + sentence_length, len(cand))) for a in range(0, len(cand), sentence_length)]
    fast, slow = native.KERNELS.Layout(cand, bounds), CandidateLayout(cand, bounds)
    assert fast.union_positions(ref) == slow.union_positions(ref)
    assert fast.alignments(ref) == slow.alignments(ref)
    assert fast.lcs_length(ref) == slow.lcs_length(ref)
    assert fast.sentence_lcs_lengths(ref) == slow.sentence_lcs_lengths(ref)


@SETTINGS
@given(st.lists(st.sampled_from("abcd"), max_size=80), st.lists(st.sampled_from("abcd"), max_size=80),
       st.sampled_from([1.0, 1.2, 2.0, 3.7, 5.0]))
def test_wlcs_alignment_matches_the_python_dp(ref, cand, w):
    gain_new, gain_old, _ = _gain_tables(w, min(len(ref), len(cand)))
    value, pairs = _python_alignment(ref, cand, gain_new, gain_old)
    fast_value, fast_pairs = wlcs_alignment(ref, cand, w)
    assert repr(fast_value) == repr(value) and fast_pairs == pairs


def zipf_words(rng, n: int, vocabulary: int) -> list[str]:
    """n words where a few are frequent and most rare (as in prose): many matches per row for
    the frequent ones, long stretches without a match for the rare ones."""
    return [f"w{min(int(rng.paretovariate(1.1)), vocabulary)}" for _ in range(n)]


@pytest.mark.parametrize("seed", range(6))
def test_wlcs_on_long_rows_matches_the_python_dp(seed):
    """The kernels' ROUGE-W sweep updates one row in place, searching each stretch between the
    row above's decreases instead of comparing every cell: long rows (several 64-bit words of
    traceback bits, stretches far longer than the search's 16-cell threshold), rows that
    decrease (heavy weights), both ROUGE-W forms, with and without the alignment."""
    import random

    rng = random.Random(seed)
    w = [1.0, 1.2, 2.0, 5.0][seed % 4]
    ref = zipf_words(rng, rng.randint(150, 400), rng.choice([8, 40, 400]))
    cand = zipf_words(rng, rng.randint(150, 400), rng.choice([8, 40, 400]))
    gain_new, gain_old, _ = _gain_tables(w, min(len(ref), len(cand)))
    value, pairs = _python_alignment(ref, cand, gain_new, gain_old)
    fast_value, fast_pairs = wlcs_alignment(ref, cand, w)
    assert repr(fast_value) == repr(value) and fast_pairs == pairs
    # sentences of 5..40 words: ROUGE-1.5.5's form runs a DP per reference sentence over the
    # candidate's sentences side by side
    def sentences(words):
        out, at = [], 0
        while at < len(words):
            size = rng.randint(5, 40)
            out.append(" ".join(words[at:at + size]))
            at += size
        return "\n".join(out)

    cand_text, ref_text = sentences(cand), sentences(ref)
    for profile in ("rouge-score", "rouge-1.5.5"):
        assert_same_scores(cand_text, [ref_text], [f"rougeW-{w}"], profile, evidence=True)


@SETTINGS
@given(sentence_lists, sentence_lists, st.sampled_from([1.2, 2.5]))
def test_first_partners_match_the_python_dp(ref_sentences, cand_sentences, w):
    starts = [sum(map(len, cand_sentences[:t])) for t in range(len(cand_sentences))]
    fast = _first_partners(ref_sentences, cand_sentences, starts, w)
    with native.pure():
        slow = _first_partners(ref_sentences, cand_sentences, starts, w)
    assert fast == slow


def python_first_partners(ref_sentences, cand_sentences, starts, w):
    """The definition: every (reference sentence, candidate sentence) DP in plain Python, in
    order; a position keeps the first candidate position any of them aligns it to."""
    gain_new, gain_old, _ = _gain_tables(w, max(map(len, ref_sentences), default=0))
    partners = []
    for ref_sentence in ref_sentences:
        partner = {}
        for start, cand_sentence in zip(starts, cand_sentences):
            for r, c in _python_alignment(ref_sentence, cand_sentence, gain_new, gain_old)[1]:
                partner.setdefault(r, start + c)
        partners.append(partner)
    return partners


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.sampled_from("aabbcdefgh"), max_size=12), max_size=6),
       st.lists(st.lists(st.sampled_from("aabbcdefghij"), max_size=12), min_size=1, max_size=40),
       st.sampled_from([1.0, 1.2, 3.0]))
def test_first_partners_skipping_sentences_match_every_dp(ref_sentences, cand_sentences, w):
    """The kernel runs a reference sentence's DP only against the candidate sentences that
    hold the token of a position still without a partner, and stops when none is left: many
    candidate sentences sharing a few frequent words (positions partnered early, repeated
    words that one sentence after another leaves unaligned, empty sentences) give the
    partners of every DP run in order."""
    starts = [sum(map(len, cand_sentences[:t])) for t in range(len(cand_sentences))]
    assert native.first_partners(ref_sentences, cand_sentences, starts, w) == python_first_partners(
        ref_sentences, cand_sentences, starts, w)


def test_first_partners_on_a_block_of_many_rows_match_every_dp():
    """Blocks far wider than a 64-bit word of traceback bits, one sentence on a side."""
    import random

    rng = random.Random(7)
    ref_sentences = [zipf_words(rng, 300, 30), zipf_words(rng, 20, 30)]
    cand_sentences = [zipf_words(rng, 5, 30), zipf_words(rng, 260, 30), [], zipf_words(rng, 90, 30)]
    starts = [sum(map(len, cand_sentences[:t])) for t in range(len(cand_sentences))]
    for w in (1.2, 4.0):
        expected = python_first_partners(ref_sentences, cand_sentences, starts, w)
        assert native.first_partners(ref_sentences, cand_sentences, starts, w) == expected
        assert sum(map(len, expected)) > 100


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.sampled_from(["the", "a", "of", "cat", "sat", "mat", "dog"]), min_size=1, max_size=10),
                min_size=1, max_size=30),
       st.lists(st.lists(st.sampled_from(["the", "a", "of", "cat", "sat", "hat", "ran"]), min_size=1, max_size=10),
                min_size=1, max_size=8))
def test_rouge155_rouge_w_of_many_sentences_matches_the_pure_path(cand_sentences, ref_sentences):
    cand, ref = "\n".join(map(" ".join, cand_sentences)), "\n".join(map(" ".join, ref_sentences))
    assert_same_scores(cand, [ref], ["rougeW-1.2"], "rouge-1.5.5", evidence=True)


def test_native_path_is_reported():
    assert rouge_core.accelerated is True
    assert native.path() == "native" and "native" in native.describe()


def test_a_document_of_non_string_terms_takes_the_pure_path():
    doc = pretokenized([["a", "b"]])
    odd = type(doc)(doc.text, tuple(type(t)(i, t.start, t.end, t.sentence) for i, t in enumerate(doc.tokens)),
                    doc.sentence_bounds, doc.sentence_spans)
    result = score_documents(odd, (odd,), ["rouge1", "rougeL"], rouge_core.profile("reval"), evidence=False)
    assert result["rouge1"].fmeasure == 1.0 and native.tokens_of(odd) is None


def test_prepare_keeps_its_messages():
    opts = rouge_core.profile("rouge-score")
    with pytest.raises(ValueError, match="lone surrogate"):
        prepare("a\ud800", opts, "candidate")


def test_a_replaced_compiled_document_keeps_its_terms():
    # ROUGE-1.5.5's -b gives a Document its L/W view with dataclasses.replace
    from dataclasses import replace

    doc = rouge_core.tokenize("the cat sat\non the mat")
    view = replace(doc, lcs_view=rouge_core.tokenize("the cat"))
    assert view.term_tuple == doc.term_tuple and len(view) == 6
    assert rouge_core.score_documents(view, (doc,), ["rougeLsum", "rouge1"], rouge_core.profile("rouge-1.5.5"),
                                      evidence=False)["rouge1"].fmeasure == 1.0


@SETTINGS
@given(st.lists(st.tuples(st.text("aZ09x", min_size=1, max_size=150),
                          st.sampled_from([" ", "  ", "\n", "\n\n", " \n ", "-", "\t", "\r\n", "é"])), max_size=60),
       st.booleans())
def test_compiled_tokenizer_on_long_words_and_lines(parts, lowercase):
    # words across the tokenizer's 64-byte blocks, long lines, blank lines, non-ASCII text
    text = "".join(w + sep for w, sep in parts)

    def run():
        doc = rouge_core.tokenize(text, tokenizer="rouge-score", lowercase=lowercase)
        return doc.term_tuple, doc.sentence_bounds

    fast, slow = both_paths(run)
    assert fast == slow


# --- settings the compiled tokenizer does not take: Python tokenizes, both paths agree ---------

# ASCII words the Unicode tokenizers split differently from the ASCII ones (apostrophes,
# underscores, decimals), Turkish dotted and dotless i, Arabic with harakat and tatweel, Hebrew
# with niqqud, Han, Thai, full-width letters.
MULTILINGUAL_WORDS = ["a", "the", "The", "cat", "don't", "a_b", "e-mail", "3.5", "x1", "İstanbul", "ırmak", "I",
                      "كَتَبَ", "كـتب", "שָׁלוֹם", "東京都", "中文", "ภาษาไทย", "ＡＢＣ", "naïve", "café"]
multilingual_texts = st.builds(lambda ws, seps: "".join(w + s for w, s in zip(ws, seps)),
                               st.lists(st.sampled_from(MULTILINGUAL_WORDS), max_size=20),
                               st.lists(st.sampled_from([" ", " ", "\n", ". ", ", "]), min_size=20, max_size=20))
ascii_only_texts = st.builds(lambda ws, seps: "".join(w + s for w, s in zip(ws, seps)),
                             st.lists(st.sampled_from(["a", "The", "don't", "a_b", "e-mail", "3.5", "x1", "cat"]),
                                      max_size=20),
                             st.lists(st.sampled_from([" ", "\n", ". "]), min_size=20, max_size=20))
TOKENIZATION_OPTIONS = [
    dict(tokenizer="unicode"), dict(tokenizer="cjk"), dict(tokenizer="xlsum-basic"),
    dict(tokenizer="unicode", language="turkish"), dict(tokenizer="cjk", language="japanese"),
    dict(tokenizer="unicode", strip_diacritics=True), dict(tokenizer="cjk", language="chinese", strip_diacritics=True),
]
TOKENIZATION_METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]


def first_three_letters(text: str) -> list[str]:
    """A user's tokenizer (module level, so the signature names it)."""
    return [word[:3] for word in text.split()]


def test_these_settings_never_take_the_compiled_tokenizer():
    from rouge_core.text.tokenize import text_tokenizer

    for overrides in [*TOKENIZATION_OPTIONS, dict(tokenizer=first_three_letters), dict(tokenizer="multilingual")]:
        opts = rouge_core.profile("rouge-score", **overrides)
        assert text_tokenizer(native.KERNELS, *opts.tokenize_key()) is None, overrides
    # the language option alone leaves the ASCII tokenizer its words, and its compiled path
    assert text_tokenizer(native.KERNELS, *rouge_core.profile("rouge-score", language="turkish").tokenize_key())


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(multilingual_texts, ascii_only_texts), st.lists(st.one_of(multilingual_texts, ascii_only_texts),
                                                                  min_size=1, max_size=2),
       st.sampled_from(range(len(TOKENIZATION_OPTIONS))), st.booleans())
def test_unicode_tokenizers_and_language_options_match_pure(cand, refs, which, evidence):
    assert_same_scores(cand, refs, TOKENIZATION_METHODS, "rouge-score", evidence, **TOKENIZATION_OPTIONS[which])


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(multilingual_texts, ascii_only_texts), st.one_of(multilingual_texts, ascii_only_texts),
       st.sampled_from([None, "japanese", "thai", "turkish"]), st.booleans())
@needs_pyonmttok
def test_multilingual_profile_matches_pure(cand, ref, language, stem):
    overrides = dict(language=language)
    if stem and language == "turkish":
        overrides["stemmer"] = "xlsum-turkish"
    assert_same_scores(cand, [ref], TOKENIZATION_METHODS, "multilingual", False, **overrides)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(multilingual_texts, ascii_only_texts), st.lists(ascii_only_texts, min_size=1, max_size=2),
       st.booleans())
def test_a_user_tokenizer_matches_pure(cand, refs, evidence):
    assert_same_scores(cand, refs, TOKENIZATION_METHODS, "rouge-score", evidence, tokenizer=first_three_letters)


@pytest.mark.parametrize("overrides", [*TOKENIZATION_OPTIONS, dict(tokenizer=first_three_letters),
                                       dict(profile="multilingual", language="japanese")])
def test_corpus_on_threads_with_these_settings_matches_pure(overrides):
    overrides = dict(overrides)
    opts = rouge_core.profile(overrides.pop("profile", "rouge-score"), **overrides)
    words = MULTILINGUAL_WORDS
    cands = [" ".join(words[(i * 7 + k) % len(words)] for k in range(i % 9)) + "\n" + words[i % len(words)]
             for i in range(40)]
    refs = [[" ".join(words[(i * 5 + k) % len(words)] for k in range(6)), "the cat don't"] for i in range(40)]

    def run():
        result = rouge_core.score_corpus(cands, refs, TOKENIZATION_METHODS, opts, workers=2)
        return [{name: (repr(m.score), m.signature) for name, m in pair.items()} for pair in result.pairs]

    fast, slow = both_paths(run)
    assert fast == slow
