"""Tokenizers, stemmers, stopwords, sentence splitting and length limits."""

from __future__ import annotations

import pytest

import rouge_core
from rouge_core.text.limits import limit_spans, perl_lcs_byte_spans
from rouge_core.text.porter155 import porter_stem
from rouge_core.text.resources import exception_table, smart_stopwords
from rouge_core.text.sentences import split_sentences
from rouge_core.text.tokenize import tokenize


def terms(text, **kw):
    return tokenize(text, **kw).terms


class TestTokenizers:
    def test_rouge155_drops_non_ascii_bytes_and_splits_hyphens(self):
        assert terms("Café state-of-the-art 3.14 İstanbul", tokenizer="rouge155") == [
            "caf", "state", "of", "the", "art", "3", "14", "stanbul"]

    def test_rouge_score_lowercases_unicode_first(self):
        # "İ".lower() is "i" + a combining dot, so rouge-score keeps an "i" the script drops.
        assert terms("İstanbul Café", tokenizer="rouge-score") == ["i", "stanbul", "caf"]

    def test_unicode_tokenizer_keeps_accented_and_non_latin_words(self):
        assert terms("Café naïve Москва don't", tokenizer="unicode") == ["café", "naïve", "москва", "don't"]

    def test_whitespace_tokenizer_keeps_case_when_asked(self):
        assert terms("The cat.", tokenizer="whitespace", lowercase=False) == ["The", "cat."]

    def test_cjk_characters_are_tokens(self):
        assert terms("我爱北京 ok", tokenizer="cjk") == ["我", "爱", "北", "京", "ok"]

    @pytest.mark.parametrize("tokenizer", ["rouge155", "rouge-score", "whitespace", "unicode", "cjk"])
    def test_offsets_point_at_the_surface_text(self, tokenizer):
        text = "The Cat sat.\n  On the MAT, café!"
        doc = tokenize(text, tokenizer=tokenizer)
        assert doc.tokens
        for tok in doc.tokens:
            surface = text[tok.start:tok.end]
            assert surface.strip() == surface and surface
            assert tok.term.lower().startswith(surface.lower()[:1]) or tokenizer == "rouge155"

    def test_sentences_follow_lines_and_skip_empty_ones(self):
        doc = tokenize("a b\n\nc\n   \nd", tokenizer="rouge155")
        assert doc.sentence_terms() == [["a", "b"], ["c"], [], ["d"]]

    def test_punctuation_splitter(self):
        spans = split_sentences("One. Two! Three? Four", "punctuation")
        assert ["One.", "Two!", "Three?", "Four"] == ["One. Two! Three? Four"[a:b] for a, b in spans]


class TestStemmers:
    @pytest.mark.parametrize("word,stem", [
        ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("cats", "cat"), ("feed", "feed"),
        ("agreed", "agre"), ("plastered", "plaster"), ("bled", "bled"), ("motoring", "motor"), ("sing", "sing"),
        ("conflated", "conflat"), ("troubled", "troubl"), ("sized", "size"), ("hopping", "hop"), ("tanned", "tan"),
        ("falling", "fall"), ("hissing", "hiss"), ("fizzed", "fizz"), ("failing", "fail"), ("filing", "file"),
        ("happy", "happi"), ("sky", "sky"), ("relational", "relat"), ("generalizations", "gener"),
        ("oscillators", "oscil"), ("yelling", "yell"),
    ])
    def test_classic_porter_examples(self, word, stem):
        assert porter_stem(word) == stem

    @pytest.mark.parametrize("word,stem", [
        ("agreement", "agreem"), ("statements", "statem"), ("documented", "docum"), ("regiment", "regim"),
        ("environmental", "environ"), ("dependent", "depend"), ("adoption", "adopt"), ("adjustment", "adjust"),
    ])
    def test_lins_step_4(self, word, stem):
        # ROUGE-1.5.5 changed step 4: "-ement" first, then "-ment" and "-ent" separately.
        assert porter_stem(word) == stem

    def test_exception_table_later_files_win(self):
        table = exception_table(None)
        assert len(table) == 5930
        assert table["better"] == "well" and table["best"] == "well" and table["went"] == "go"

    def test_rouge155_stemmer_uses_exceptions_then_porter_and_skips_short_tokens(self):
        assert terms("children went better was running", tokenizer="rouge155", stemmer="rouge155") == [
            "child", "go", "well", "was", "run"]

    def test_rouge_score_stemmer_is_nltk_porter(self):
        assert terms("children went running", stemmer="porter") == ["children", "went", "run"]

    def test_snowball(self):
        assert terms("corriendo casas", tokenizer="unicode", stemmer="snowball-spanish") == ["corr", "cas"]

    def test_unknown_stemmer_is_a_clear_error(self):
        with pytest.raises(ValueError, match="unknown stemmer"):
            terms("x", stemmer="nope")

    def test_smart_stopwords_are_removed_before_ngrams(self):
        assert "the" in smart_stopwords(None)
        assert terms("the cat sat on the mat", tokenizer="rouge155", stopwords="smart") == ["cat", "mat"]


class TestLimits:
    def test_words_counted_the_perl_way(self):
        text = "a, b c\n d e f"
        spans = split_sentences(text)
        # line 2 starts with white space: Perl's split gives a leading empty word
        assert [text[a:b] for a, b in limit_spans(text, spans, words=4)] == ["a, b c", ""]
        assert [text[a:b] for a, b in limit_spans(text, spans, words=5)] == ["a, b c", " d"]

    def test_bytes_cut_inside_a_sentence(self):
        text = "abcdef\nghijkl"
        assert [text[a:b] for a, b in limit_spans(text, split_sentences(text), byte_limit=9)] == ["abcdef", "ghi"]

    def test_perl_lcs_reader_does_not_advance_its_byte_count(self):
        text = "abcdef\nghijkl\nmnopqrstuvwx"
        spans = perl_lcs_byte_spans(text, split_sentences(text), 9)
        assert [text[a:b] for a, b in spans] == ["abcdef", "ghijkl", "mnopqrstu"]

    def test_a_word_limit_wins_over_a_byte_limit_for_every_reader(self):
        text = "the cat sat on the mat\nthe dog ate my homework"
        doc = tokenize(text, tokenizer="rouge155", limit_words=3, limit_bytes=30, lcs_byte_limit_defect=True)
        assert doc.lcs_view is None and doc.terms == ["the", "cat", "sat"]
        assert tokenize(text, limit_bytes=30, lcs_byte_limit_defect=True).lcs_view.terms == text.split()

    def test_latin1_counts_one_byte_per_character(self):
        text = "\xe9\xe9\xe9\xe9"  # four bytes when read as latin-1, eight as UTF-8
        assert limit_spans(text, [(0, 4)], byte_limit=3, encoding="latin-1") == [(0, 3)]
        assert limit_spans(text, [(0, 4)], byte_limit=3) == [(0, 1)]

    def test_byte_limit_defect_only_under_the_rouge155_profile(self):
        text = "the cat sat on the mat\nthe dog ate my homework"
        perl = rouge_core.score(text, [text], ["rouge1", "rougeLsum"], "rouge-1.5.5", limit_bytes=30)
        assert perl["rouge1"].recall == 1.0
        assert perl["rougeLsum"].recall < 1.0  # whole sentences compared, cut text clips
        fixed = rouge_core.score(text, [text], ["rouge1", "rougeLsum"], "rouge-score", limit_bytes=30)
        assert fixed["rougeLsum"].recall == 1.0
