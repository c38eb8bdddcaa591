"""The compiled tokenizers of rouge-score and ROUGE-1.5.5 on any text (issue 29, item 1): the same
words and sentences as the pure path (rouge_core.text.words) and as rouge-score's own tokenizer, on
the whole Unicode range (astral characters, combining marks, lone surrogates), on every code
point whose lower case differs from it, and through every entry point that tokenizes (tokenize,
score without evidence, the batch). The lower-casing table comes from Python's own str.lower()
(rouge_core.kernels.kernel_spec.lowerings) and is checked against the running Python's at import.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rouge_score import tokenizers as rouge_score_tokenizers

import rouge_core
from rouge_core.kernels import kernel_spec, native
from rouge_core.corpora.batch import score_batch
from rouge_core.scorer.scoring import prepare

pytestmark = pytest.mark.skipif(not native.active(), reason=f"compiled kernels not in use: {native.describe()}")

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
RULES = [("rouge-score", True), ("rouge-score", False), ("rouge155", True), ("rouge155", False)]

# Every code point whose str.lower() differs from it, on this Python (its Unicode version).
LOWER_DIFFERS = [cp for cp in range(sys.maxunicode + 1) if chr(cp).lower() != chr(cp)]
SPECIAL = "\u0130\u212a"  # İ -> "i" + U+0307 (grows), KELVIN SIGN -> "k": lower-case to ASCII

any_character = st.characters(min_codepoint=0, max_codepoint=sys.maxunicode, exclude_categories=())
pieces = st.one_of(
    st.text(any_character, max_size=6),  # anything: astral, surrogates, controls, marks
    st.sampled_from(["the", "Cat", "x9", "KELVIN", "I", "i", " ", " ", "\n", "\n\n", " \n ", "\r\n", "\t", ","]),
    st.sampled_from(list(SPECIAL) + ["e\u0301", "\u0301", "\U0001F600", "\U00010400", "ǅ", "ß", "Σ", "ΑΣ", "ﬃ"]),
    st.sampled_from([chr(cp) for cp in LOWER_DIFFERS]),
)
unicode_texts = st.lists(pieces, max_size=40).map("".join)


def documents(text: str, tokenizer: str, lowercase: bool):
    """(compiled, pure) Documents of `text`."""
    fast = rouge_core.tokenize(text, tokenizer=tokenizer, lowercase=lowercase)
    with native.pure():
        slow = rouge_core.tokenize(text, tokenizer=tokenizer, lowercase=lowercase)
    return fast, slow


def rouge_score_tokens(text: str) -> list[str]:
    return rouge_score_tokenizers.DefaultTokenizer(use_stemmer=False).tokenize(text)


def has_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


@SETTINGS
@given(unicode_texts)
def test_the_compiled_tokenizers_give_the_pure_documents_on_any_text(text):
    for tokenizer, lowercase in RULES:
        fast, slow = documents(text, tokenizer, lowercase)
        assert (fast.term_tuple, fast.sentence_bounds, len(fast)) == (slow.term_tuple, slow.sentence_bounds, len(slow))
        assert (fast.tokens, fast.sentence_spans) == (slow.tokens, slow.sentence_spans)
        # every text with UTF-8 is tokenized in C; a lone surrogate leaves it to Python
        assert (type(fast).__name__ == "_NativeDocument") == has_utf8(text)
    assert list(documents(text, "rouge-score", True)[0].term_tuple) == rouge_score_tokens(text)


def test_every_code_point_whose_lower_case_differs():
    # alone, inside a word, at a word's end, upper and lower neighbours, on a line of its own
    for cp in LOWER_DIFFERS:
        c = chr(cp)
        text = f"{c} a{c}b {c}x9 Q{c}{c}\n{c}\nz{c}"
        for tokenizer, lowercase in RULES:
            fast, slow = documents(text, tokenizer, lowercase)
            assert (fast.term_tuple, fast.sentence_bounds) == (slow.term_tuple, slow.sentence_bounds), hex(cp)
        assert list(documents(text, "rouge-score", True)[0].term_tuple) == rouge_score_tokens(text), hex(cp)


def test_the_code_points_that_lower_case_to_ascii_keep_their_letters():
    fast, _ = documents("İstanbul \u212aelvin İİ x\u212a", "rouge-score", True)
    assert fast.term_tuple == ("i", "stanbul", "kelvin", "i", "i", "xk")
    assert documents("İstanbul \u212aelvin", "rouge155", True)[0].term_tuple == ("stanbul", "elvin")
    assert documents("İstanbul \u212aelvin", "rouge-score", False)[0].term_tuple == ("stanbul", "elvin")


def test_the_lowering_table_is_this_pythons_str_lower():
    version, table = native.KERNELS.LOWERINGS
    assert table == kernel_spec.lowerings()
    assert dict(table) == {0x130: "i ", 0x212A: "k"}  # Unicode 14 to 16 agree
    assert version == unicodedata.unidata_version and native.WHY_NO_UNICODE == ""
    for cp, ascii_form in table:
        lowered = chr(cp).lower()
        assert len(ascii_form) == len(lowered) <= len(chr(cp).encode())
        assert all(a == c if c.isascii() and c.isalnum() else a == " " for a, c in zip(ascii_form, lowered))


class _OtherBuild:
    """The extension as another Python's build would present it: another Unicode version, and a
    table that differs from this Python's."""

    def __init__(self, table):
        self.LOWERINGS = ("0.0.0", table)
        self.configured = []

    def configure_lowering(self, ok):
        self.configured.append(ok)


def test_a_build_from_another_unicode_version_is_checked_at_import():
    same = _OtherBuild(kernel_spec.lowerings())
    assert native._check_lowerings(same) == "" and same.configured == [True]  # same table: used
    other = _OtherBuild(((0x130, "i "),))
    with pytest.warns(RuntimeWarning, match="lower-casing table comes from Unicode 0.0.0"):
        why = native._check_lowerings(other)
    assert other.configured == [False] and "pure path" in why


def test_without_this_pythons_table_non_ascii_text_under_rouge_score_takes_the_pure_path():
    text, ref = "İstanbul café\nKELVIN \u212a", "istanbul cafe kelvin"
    opts = rouge_core.profile("rouge-score")
    expected = rouge_core.score(text, [ref], ["rouge1", "rougeLsum"], opts, evidence=False).to_dict()
    native.KERNELS.configure_lowering(False)
    try:
        assert type(prepare(text, opts)).__name__ == "_SplitDocument"  # Python's tokenizer
        assert type(prepare("ascii text", opts)).__name__ == "_NativeDocument"
        assert type(rouge_core.tokenize(text, tokenizer="rouge155")).__name__ == "_NativeDocument"  # no str.lower()
        result = rouge_core.score(text, [ref], ["rouge1", "rougeLsum"], opts, evidence=False)
        assert result.to_dict() == expected
        assert score_batch([text], [[ref]], ["rouge1", "rougeLsum"], opts)[0]["rouge1"].fmeasure == \
            expected["rouge1"]["fmeasure"]
    finally:
        native.KERNELS.configure_lowering(True)


def snapshot(result):
    return {name: (repr(m.score), repr(m.stats), [repr(r.stats) for r in m.per_reference])
            for name, m in result.methods.items()}


METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]
prose_words = st.sampled_from(["the", "The", "café", "Café", "naïve", "İstanbul", "\u212aelvin", "“quoted”", "—",
                               "straße", "Ωmega", "中文", "x1", "a"])
prose = st.lists(st.tuples(prose_words, st.sampled_from([" ", " ", "\n", ", ", ". "])), max_size=30).map(
    lambda parts: "".join(w + s for w, s in parts))


@SETTINGS
@given(prose, st.lists(prose, min_size=1, max_size=3), st.sampled_from(["rouge-score", "rouge-1.5.5"]))
def test_non_ascii_texts_scored_in_one_call_match_pure(cand, refs, profile):
    def run():
        return snapshot(rouge_core.score(cand, refs, METHODS, profile, evidence=False, cost_limit=rouge_core.UNBOUNDED))

    fast = run()
    with native.pure():
        slow = run()
    assert fast == slow
    result = rouge_core.score(cand, refs, ["rougeL"], profile, evidence=False)
    assert [type(d).__name__ for d in result.references] == ["_ProbedDocument"] * len(refs)
    with native.pure():
        eager = [prepare(t, rouge_core.profile(profile)) for t in [cand, *refs]]
    for doc, pure_doc in zip([result.candidate, *result.references], eager):
        assert (doc.term_tuple, doc.sentence_bounds, doc.tokens) == (pure_doc.term_tuple, pure_doc.sentence_bounds,
                                                                      pure_doc.tokens)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(prose, prose), min_size=1, max_size=12), st.sampled_from(["rouge-score", "rouge-1.5.5"]))
def test_the_batch_tokenizes_non_ascii_texts_as_the_pure_path(pairs, profile):
    cands, refs = [c for c, _ in pairs], [[r] for _, r in pairs]
    fast = score_batch(cands, refs, METHODS, profile, workers=2, chunk_size=3)
    with native.pure():
        slow = score_batch(cands, refs, METHODS, profile)
    assert [{k: repr(v.score) for k, v in p.items()} for p in fast] == \
        [{k: repr(v.score) for k, v in p.items()} for p in slow]


def test_a_lone_surrogate_keeps_its_message_and_its_batch_pair_goes_to_python():
    with pytest.raises(ValueError, match="lone surrogate U\\+D800 at character 2"):
        rouge_core.score("a\ud800", ["a"], ["rouge1"], evidence=False)
    with pytest.raises(ValueError, match="pair 2: candidate is not valid Unicode"):
        score_batch(["a b", "a\ud800"], [["a"], ["a"]], ["rouge1"], "rouge-score")
