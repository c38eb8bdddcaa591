"""Words in every script: the `unicode` and `cjk` tokenizers, word segmentation, the language
and diacritics options, user tokenizers, and the tokenization view of the Learn page."""

from __future__ import annotations

import importlib.util
import sys
import types
import unicodedata

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge_core
from rouge_core.text import languages, segment
from tests.extras import needs_icu4py, needs_pyonmttok
from rouge_core.teach.explain import tokenization_view
from rouge_core.text.tokenize import tokenize
from rouge_core.text.words import UserTokenizer, load_tokenizer


def terms(text, tokenizer="unicode", **kw):
    return tokenize(text, tokenizer=tokenizer, **kw).terms


def surfaces(text, tokenizer="unicode", **kw):
    return [text[t.start:t.end] for t in tokenize(text, tokenizer=tokenizer, lowercase=False, **kw).tokens]


# --- one test per script ------------------------------------------------------------------

ICU_SCRIPTS = ("lao", "khmer", "myanmar")
SCRIPT_CASES = [
    # Thai, Lao, Khmer and Myanmar: segmented into words (not characters, not syllables)
    ("thai", "สวัสดีครับ ผมชอบกินข้าว", ["สวัสดี", "ครับ", "ผม", "ชอบ", "กินข้าว"]),
    ("lao", "ສະບາຍດີ ປະເທດລາວ", ["ສະບາຍດີ", "ປະເທດ", "ລາວ"]),
    ("khmer", "ខ្ញុំស្រឡាញ់ភាសាខ្មែរ", ["ខ្ញុំ", "ស្រឡាញ់", "ភាសាខ្មែរ"]),
    ("myanmar", "မြန်မာနိုင်ငံသည် ကောင်းသည်", ["မြန်မာနိုင်ငံ", "သည်", "ကောင်း", "သည်"]),
    # Indic scripts keep their vowel signs and viramas inside the word
    ("hindi", "हिन्दी भाषा बहुत सुंदर है", ["हिन्दी", "भाषा", "बहुत", "सुंदर", "है"]),
    ("marathi", "मराठी भाषा महाराष्ट्राची आहे", ["मराठी", "भाषा", "महाराष्ट्राची", "आहे"]),
    ("bengali", "আমি বাংলায় গান গাই", ["আমি", "বাংলায়", "গান", "গাই"]),
    ("tamil", "தமிழ் மொழி அழகானது", ["தமிழ்", "மொழி", "அழகானது"]),
    # Arabic and Hebrew keep their diacritics by default; Hebrew gershayim keep an acronym whole
    ("arabic", "كِتَابٌ جَمِيلٌ", ["كِتَابٌ", "جَمِيلٌ"]),
    ("hebrew", "שָׁלוֹם עוֹלָם צה״ל", ["שָׁלוֹם", "עוֹלָם", "צה״ל"]),
    # Chinese (jieba) and Japanese (MeCab) words; Korean keeps its spacing words
    ("chinese", "我爱北京天安门。", ["我", "爱", "北京", "天安门"]),
    ("japanese", "東京都に住んでいます。", ["東京", "都", "に", "住ん", "で", "い", "ます"]),
    ("korean", "한국어는 아름답습니다. 학교에 갔다", ["한국어는", "아름답습니다", "학교에", "갔다"]),
    ("russian", "Москва — столица России", ["москва", "столица", "россии"]),
    ("greek", "ΟΔΟΣ Αθηνών", ["οδο\u03c2", "αθηνών"]),  # a final capital sigma lower-cases to ς
    ("vietnamese", "Tiếng Việt rất đẹp", ["tiếng", "việt", "rất", "đẹp"]),
    ("turkish", "Gözlükçü ışık", ["gözlükçü", "ışık"]),
    # emoji are tokens, a ZWJ sequence, a flag and a skin tone each one token
    ("emoji", "I ❤️ 👩\u200d💻 and 🇫🇷 👍🏽!", ["i", "❤️", "👩\u200d💻", "and", "🇫🇷", "👍🏽"]),
]


# Lao, Khmer and Myanmar are segmented by ICU (icu4py: Python 3.11 or later)
SCRIPT_PARAMS = [pytest.param(*case, id=case[0], marks=needs_icu4py if case[0] in ICU_SCRIPTS else ())
                 for case in SCRIPT_CASES]


@pytest.mark.parametrize("script, text, expected", SCRIPT_PARAMS)
def test_words_of_each_script(script, text, expected):
    assert terms(text) == expected


@pytest.mark.parametrize("script, text, expected", SCRIPT_PARAMS)
def test_offsets_cover_the_typed_surface_of_each_word(script, text, expected):
    doc = tokenize(text, tokenizer="unicode", lowercase=False)
    assert [text[t.start:t.end] for t in doc.tokens] == [t.term for t in doc.tokens]
    assert [unicodedata.normalize("NFC", t.term).lower() for t in doc.tokens] == expected


def test_thai_is_not_cut_into_pieces_without_its_vowel_signs():
    # the old pattern [^\W_]+ cut สวัสดีครับ into สว / สด / คร / บ (marks dropped)
    assert terms("สวัสดีครับ") == ["สวัสดี", "ครับ"]
    assert "".join(terms("สวัสดีครับ")) == "สวัสดีครับ"


def test_nfd_and_nfc_spellings_are_the_same_word_with_offsets_on_each():
    text = "cafe\u0301 café"
    doc = tokenize(text, tokenizer="unicode")
    assert doc.terms == ["café", "café"]
    assert [(t.start, t.end) for t in doc.tokens] == [(0, 5), (6, 10)]


def test_arabic_and_hebrew_diacritics_strip_on_request():
    assert terms("كِتَابٌ جَمِيلـٌ", strip_diacritics=True) == ["كتاب", "جميل"]  # harakat and tatweel
    assert terms("שָׁלוֹם", strip_diacritics=True) == ["שלום"]
    assert terms("كِتَابٌ") != terms("كتاب")  # kept by default: a vowelled word is another word
    assert terms("café", strip_diacritics=True) == ["café"]  # Latin accents are not Arabic or Hebrew marks


def test_turkish_case_needs_the_language():
    assert terms("İstanbul IŞIK", language="turkish") == ["istanbul", "ışık"]
    assert terms("İstanbul") == ["i\u0307stanbul"]  # Python's lower() without a language


def test_han_characters_are_chinese_unless_the_text_has_kana_or_the_language_says():
    assert terms("東京都") == ["東", "京都"]  # no kana: Chinese (jieba)
    assert terms("東京都", language="japanese") == ["東京", "都"]
    assert terms("東京都", language="chinese_simplified") == ["東", "京都"]  # XL-Sum's alias


def test_cjk_tokenizer_keeps_one_token_per_han_or_kana_character_and_words_elsewhere():
    assert terms("東京都に住む iPhone한국어", tokenizer="cjk") == ["東", "京", "都", "に", "住", "む", "iphone한국어"]
    assert terms("𠀀𪜀 ok", tokenizer="cjk") == ["𠀀", "𪜀", "ok"]  # extension B and C ideographs
    assert terms("สวัสดีครับ", tokenizer="cjk") == ["สวัสดี", "ครับ"]


def test_mixed_scripts_split_where_the_script_changes():
    assert terms("iPhoneสวัสดีครับ") == ["iphone", "สวัสดี", "ครับ"]
    assert terms("Python很好") == ["python", "很", "好"]


def test_persian_zwnj_stays_inside_the_word():
    assert terms("می\u200cخواهم") == ["می\u200cخواهم"]


# --- property: no letter or mark is lost --------------------------------------------------

_SCRIPTS_ALPHABET = st.sampled_from(
    list("abcXYZéüİıΣσςаяαω") + ["\u0301", "\u0308", "\u093f", "\u094d", "\u0e31", "\u0e48", "\u064e", "\u05b8"]
    + [chr(c) for c in (0x0E01, 0x0E2A, 0x0E32, 0x0915, 0x0924, 0x0995, 0x0B95, 0x0627, 0x0628, 0x05D0, 0x05E9,
                        0x4E00, 0x4EAC, 0x3042, 0x30A2, 0xAC00, 0x1100, 0x1161)]
    # Lao, Khmer, Myanmar letters where ICU segments them (icu4py: Python 3.11 or later)
    + ([chr(0x0E81), chr(0x1780), chr(0x1000)] if importlib.util.find_spec("icu4py") else [])
    + list(" \n.,!?'’-\u05f4\u200d\u200c") + ["😀", "👩\u200d💻", "1", "٣"])


def _letters_and_marks(s: str) -> list[str]:
    return [c for c in s if unicodedata.category(c)[0] in "LM"]


@settings(max_examples=120, deadline=None)
@given(st.lists(_SCRIPTS_ALPHABET, max_size=30).map("".join), st.sampled_from(["unicode", "cjk"]))
def test_tokenizing_never_drops_a_letter_or_mark(text, tokenizer):
    """Every letter and mark of the NFC text is in some token, in order, unless it hangs on
    white space or punctuation (a mark after a space belongs to no word)."""
    normal = unicodedata.normalize("NFC", text)
    kept = []
    for cluster in regex.findall(r"\X", normal):
        base = cluster[0]
        if unicodedata.category(base)[0] in "LMN" or regex.match(r"\p{Extended_Pictographic}", base):
            kept.extend(_letters_and_marks(cluster))
        else:  # a space or punctuation cluster: its trailing marks stand alone and still count
            kept.extend(_letters_and_marks(cluster[1:]))
    doc = tokenize(text, tokenizer=tokenizer, lowercase=False)
    assert _letters_and_marks("".join(doc.terms)) == kept
    for token in doc.tokens:  # offsets are inside the text and in order
        assert 0 <= token.start <= token.end <= len(text)


# --- options, signature, user tokenizers --------------------------------------------------

@needs_pyonmttok
def test_language_option_is_canonical_and_enters_the_signature():
    options = rouge_core.profile("multilingual", language="bangla")
    assert options.language == "bengali" and options.profile == "multilingual"
    sig = rouge_core.score("a b", ["a"], ["rouge1"], options)["rouge1"].signature
    assert "|tok:multilingual|" in sig and "|lang:bengali|" in sig
    strip = rouge_core.Options(tokenizer="unicode", strip_diacritics=True)
    assert "|diacritics:strip|" in rouge_core.score("a", ["a"], ["rouge1"], strip)["rouge1"].signature
    with pytest.raises(ValueError, match="unknown language 'klingon'"):
        rouge_core.Options(language="klingon")


def test_language_changes_the_numbers_where_it_changes_the_words():
    cand, ref = "東京都に住む", "東京都"
    chinese = rouge_core.score(ref, [ref], ["rouge1"], "rouge-score", tokenizer="unicode")
    japanese = rouge_core.score(cand, [ref], ["rouge1"], "rouge-score", tokenizer="unicode", language="japanese")
    assert chinese.candidate.terms == ["東", "京都"]
    assert japanese.references[0].terms == ["東京", "都"]
    assert japanese["rouge1"].recall == 1.0


def split_on_commas(text):
    return [w.strip() for w in text.split(",")]


def spans_of_words(text):
    return [(m.group(), m.start(), m.end()) for m in regex.finditer(r"\w+", text)]


def test_a_user_tokenizer_returns_tokens_or_tokens_with_offsets():
    options = rouge_core.Options(tokenizer=split_on_commas)
    result = rouge_core.score("New York, the Big Apple", ["new york, a city"], ["rouge1"], options)
    assert result.candidate.terms == ["new york", "the big apple"]
    assert [(t.start, t.end) for t in result.candidate.tokens] == [(0, 8), (10, 23)]
    assert result["rouge1"].recall == 0.5
    assert f"|tok:{__name__}.split_on_commas|" in result["rouge1"].signature
    kept_case = rouge_core.Options(tokenizer=spans_of_words, lowercase=False)
    assert rouge_core.score("Hi there", ["hi"], ["rouge1"], kept_case).candidate.terms == ["Hi", "there"]


class _RougeScoreStyleTokenizer:
    def tokenize(self, text):
        return text.split()


def test_an_object_with_a_tokenize_method_is_a_tokenizer():
    options = rouge_core.Options(tokenizer=_RougeScoreStyleTokenizer())
    assert rouge_core.score("A b", ["a"], ["rouge1"], options).candidate.terms == ["a", "b"]
    assert f"|tok:{__name__}._RougeScoreStyleTokenizer|" in \
        rouge_core.score("a", ["a"], ["rouge1"], options)["rouge1"].signature


def test_bad_user_tokenizers_get_clear_errors():
    with pytest.raises(TypeError, match="tokenizer must be one of"):
        rouge_core.Options(tokenizer=42)
    with pytest.raises(TypeError, match="must return a list of tokens, not str"):
        rouge_core.score("a", ["a"], ["rouge1"], rouge_core.Options(tokenizer=str.lower))
    with pytest.raises(ValueError, match="offsets 0..99 outside the text"):
        rouge_core.score("a", ["a"], ["rouge1"], rouge_core.Options(tokenizer=lambda t: [("a", 0, 99)]))
    with pytest.raises(TypeError, match="token 1 is 3"):
        rouge_core.score("a", ["a"], ["rouge1"], rouge_core.Options(tokenizer=lambda t: [3]))


def test_load_tokenizer_imports_module_function_and_explains_failures(monkeypatch):
    module = types.ModuleType("my_tokenizers_for_test")
    module.split = split_on_commas
    module.not_callable = 3
    monkeypatch.setitem(sys.modules, "my_tokenizers_for_test", module)
    loaded = load_tokenizer("my_tokenizers_for_test:split")
    assert isinstance(loaded, UserTokenizer) and loaded("a, b", True) == [("a", 0, 1), ("b", 3, 4)]
    for spec, message in (("nocolon", "MODULE:FUNCTION"), ("no_such_module_xyz:f", "cannot import the tokenizer module"),
                          ("my_tokenizers_for_test:missing", "has no 'missing'"),
                          ("my_tokenizers_for_test:not_callable", "is not callable")):
        with pytest.raises(ValueError, match=message):
            load_tokenizer(spec)


def test_a_missing_segmenter_names_the_extra(monkeypatch):
    segment.thai_segmenter.cache_clear()
    monkeypatch.setitem(sys.modules, "pythainlp.tokenize", None)  # import fails as if not installed
    try:
        with pytest.raises(segment.MissingExtraError, match=r"rouge-lens\[multilingual\]") as info:
            terms("สวัสดีครับ")
        assert "pythainlp" in str(info.value) and "Thai word segmentation" in str(info.value)
        assert isinstance(info.value, ValueError)  # front doors report it like any bad setting
        assert terms("only latin words") == ["only", "latin", "words"]  # nothing to segment, nothing needed
    finally:
        segment.thai_segmenter.cache_clear()


# --- what the app shows -------------------------------------------------------------------

def test_tokenization_view_shows_each_typed_word_its_tokens_and_what_was_dropped():
    rows = tokenization_view("Café, สวัสดีครับ!", rouge_core.profile("rouge-score", tokenizer="unicode"))
    assert rows == [
        {"as typed": "Café,", "start": 0, "end": 5, "tokens": ["café"], "offsets": [(0, 4)], "dropped": ","},
        {"as typed": "สวัสดีครับ!", "start": 6, "end": 17, "tokens": ["สวัสดี", "ครับ"],
         "offsets": [(6, 12), (12, 16)], "dropped": "!"},
    ]
    perl = tokenization_view("Café", rouge_core.profile("rouge-1.5.5"))
    assert perl[0]["tokens"] == ["caf"] and perl[0]["dropped"] == "é"


def test_language_choices_label_every_language_once():
    choices = languages.language_choices()
    assert choices[0] == (None, "any (words by script)")
    values = [v for v, _ in choices[1:]]
    assert values == list(languages.LANGUAGES) and len(set(values)) == len(values)
    labels = dict(choices)
    assert labels["japanese"].startswith("Japanese (Han characters as Japanese words")
    assert "PyThaiNLP" in labels["thai"] and "TurkishStemmer" in labels["turkish"]
    for alias, name in languages.ALIASES.items():
        assert languages.canonical(alias) == name


def test_disagreement_walk_names_the_language_step():
    from rouge_core.teach.disagree import Comparison

    walk = Comparison("東京都に住む", ["東京都"]).attribute(
        "rouge-score", rouge_core.profile("rouge-score", tokenizer="unicode", language="japanese"))
    assert [s.field for s in walk.steps] == ["tokenizer", "language"]
    language = walk.steps[1]
    assert language.cause.startswith("tokenization (language")
    assert [(d.surface, d.before, d.after) for d in language.token_diffs] == [("東京都", ("東", "京都"), ("東京", "都"))]


@needs_pyonmttok
def test_xlsum_stemmers_are_named_by_language_and_checked():
    options = rouge_core.profile("multilingual", language="hindi", stemmer="xlsum-hindi")
    assert options.profile == "multilingual"  # XL-Sum's own use_stemmer stays within the profile
    assert tokenize("लड़कियाँ खाएंगे", tokenizer="multilingual", stemmer="xlsum-hindi").terms == ["लड़क", "खा"]
    assert tokenize("running cats", tokenizer="multilingual", stemmer="xlsum-porter").terms == ["run", "cat"]
    with pytest.raises(ValueError, match="unknown XL-Sum stemmer 'xlsum-klingon'"):
        rouge_core.Options(stemmer="xlsum-klingon")
