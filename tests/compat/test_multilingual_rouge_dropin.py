"""rouge_core.compat.multilingual_rouge against XL-Sum's scorer itself (multilingual-rouge):
the same numbers, compared with ==, on generated text in every language it names.

multilingual-rouge is installed for the tests; two of its parts cannot run here as published
and are set up the way its README cannot: MeCab gets unidic-lite (its `fugashi[unidic]` needs a
dictionary download), and its Snowball stemmers run without NLTK's stopword data (see the
drop-in's docstring for what that changes).
"""

from __future__ import annotations

import warnings
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_core.compat.multilingual_rouge import RougeScorer, Score
from rouge_core.text.segment import not_published_here
from tests.fuzzing import FUZZ, fuzz

# XL-Sum's scorer needs pyonmttok, which is not published for every Python (it is not installed there)
WHY_MISSING = (f"multilingual-rouge needs pyonmttok: {not_published_here('pyonmttok')}" if not_published_here("pyonmttok")
               else "multilingual-rouge is a test dependency (requirements-test-library.txt)")
reference = pytest.importorskip("multilingual_rouge.rouge_scorer", reason=WHY_MISSING)
stemmers = pytest.importorskip("multilingual_rouge.stemmers", reason=WHY_MISSING)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# Every language XL-Sum's scorer treats in its own way, its aliases, a few of XL-Sum's other
# languages (its default tokenizer), and names it does not know (also its default).
SEGMENTED = ["thai", "chinese", "japanese", "burmese"]
STEMMED = ["bengali", "hindi", "turkish", "arabic", "danish", "dutch", "english", "finnish", "french", "german",
           "hungarian", "italian", "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish"]
ALIASES = ["bangla", "turkce", "chinese_simplified", "chinese_traditional", "mundo"]
OTHERS = [None, "korean", "tamil", "persian", "amharic", "vietnamese", "urdu", "gujarati", "Thai", "klingon"]
LANGS = SEGMENTED + STEMMED + ALIASES + OTHERS

_LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZàäåæçéèêëíïñöøóôúüßÆØÅÄÖÜÉ"
# The letters each language is written with (code point ranges or strings).
SCRIPT = {
    "thai": [(0x0E01, 0x0E5B)], "chinese": [(0x4E00, 0x4FFF), (0x3400, 0x3420), (0x20000, 0x20010)],
    "chinese_simplified": [(0x4E00, 0x4FFF)], "chinese_traditional": [(0x4E00, 0x9FFF)],
    "japanese": [(0x3041, 0x30FF), (0x4E00, 0x4FFF)], "burmese": [(0x1000, 0x109F)],
    "bengali": [(0x0980, 0x09FF)], "bangla": [(0x0980, 0x09FF)], "hindi": [(0x0900, 0x097F)],
    "turkish": "abcçdefgğhıijklmnoöprsştuüvyzIİÇĞÖŞÜ", "turkce": "abcçdefgğhıijklmnoöprsştuüvyzIİ",
    "arabic": [(0x0600, 0x06FF)], "persian": [(0x0600, 0x06FF)], "urdu": [(0x0600, 0x06FF)],
    "russian": [(0x0400, 0x04FF)], "korean": [(0xAC00, 0xAD00), (0x1100, 0x1175)], "tamil": [(0x0B80, 0x0BFF)],
    "amharic": [(0x1200, 0x137F)], "vietnamese": "aăâbcdđeêghiklmnoôơpqrstuưvxyàảãáạằẳẵắặầẩẫấậ",
    "gujarati": [(0x0A80, 0x0AFF)], "Thai": [(0x0E01, 0x0E5B)],
}
# What every text may also hold: white space of all kinds, punctuation, digits, symbols, Latin
# letters, CJK ideographs, emoji and joiners, OpenNMT's joiner sign, combining marks, Greek sigma.
EXTRAS = list(" \n\n\t.,!?;:-'\"()[]/%&_0123456789abcANDΣİﬁⅫ١२€©½²°。、的😀👩💻") + [
    "\u00a0", "\u3000", "\u2028", "\u200b", "\u200c", "\u200d", "\ufeff", "\x00", "\ufffd", "\u0301", "\u0308",
    "\uffed", "｟"]


def _letters(lang) -> list[str]:
    spec = SCRIPT.get(lang, _LATIN)
    if isinstance(spec, str):
        return list(spec)
    # up to 60 letters spread over each range: enough variety, and repeats so words match
    return [chr(c) for a, b in spec for c in range(a, b + 1, max(1, (b - a) // 60))]


def texts(lang):
    letters = _letters(lang)
    return st.text(st.sampled_from(letters * max(1, 3 * len(EXTRAS) // len(letters)) + EXTRAS), max_size=40)


@st.composite
def pairs(draw, lang):
    """A target and a prediction that share part of it (so matches happen)."""
    target = draw(texts(lang))
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(target)))
        prediction = target[:cut] + draw(texts(lang)) + target[cut:][: draw(st.integers(0, 10))]
    else:
        prediction = draw(texts(lang))
    return target, prediction


@pytest.fixture(scope="module", autouse=True)
def _runnable_reference():
    """MeCab with unidic-lite (XL-Sum's `fugashi[unidic]` has no dictionary without a download)
    and XL-Sum's Snowball stemmers without NLTK's stopword data."""
    mp = pytest.MonkeyPatch()
    try:
        import unidic
        import unidic_lite

        mp.setattr(unidic, "DICDIR", unidic_lite.DICDIR)
    except ImportError:
        pass
    for name in list(stemmers.LANG2STEMMER):
        if name not in ("bengali", "turkish", "hindi"):
            mp.setitem(stemmers.LANG2STEMMER, name, partial(stemmers.NLTKStemmer, name, ignore_stopwords=False))
    yield
    mp.undo()


_SCORERS: dict = {}


def scorers(lang, use_stemmer=False):
    key = (lang, use_stemmer)
    if key not in _SCORERS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # both warn about a language without a stemmer
            _SCORERS[key] = (reference.RougeScorer(TYPES, lang=lang, use_stemmer=use_stemmer),
                             RougeScorer(TYPES, lang=lang, use_stemmer=use_stemmer))
    return _SCORERS[key]


def _same_numbers(lang, target, prediction):
    theirs, ours = scorers(lang)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # XL-Sum warns when a segmenter finds nothing
        expected = theirs.score(target, prediction)
    assert ours.score(target, prediction) == expected


SEGMENTED_NAMES = SEGMENTED + ["chinese_simplified", "chinese_traditional"]


@fuzz
@pytest.mark.parametrize("lang", SEGMENTED_NAMES)
@FUZZ
@given(data=st.data())
def test_same_numbers_as_multilingual_rouge_in_segmented_languages(lang, data):
    _same_numbers(lang, *data.draw(pairs(lang)))


# The other languages all take XL-Sum's default tokenizer (without stemming), on their own
# letters: a third of the budget each.
@fuzz
@pytest.mark.parametrize("lang", [x for x in LANGS if x not in SEGMENTED_NAMES], ids=str)
@settings(FUZZ, max_examples=max(20, FUZZ.max_examples // 3))
@given(data=st.data())
def test_same_numbers_as_multilingual_rouge_in_other_languages(lang, data):
    _same_numbers(lang, *data.draw(pairs(lang)))


STEM_WORDS = {
    None: "running runs cats generously happiness connected connection the being".split(),
    "english": "running runs cats generously happiness connected connection the being".split(),
    "hindi": "लड़कियाँ लड़कों खाएंगे जाऊंगा किताबें पढ़ाई करेगा बच्चों नदियों".split(),
    "turkish": "kitaplar evlerimizden geliyorum gözlükçü İstanbul'da ışıklar".split(),
    "turkce": "kitaplar evlerimizden geliyorum".split(),
    "russian": "бегающий книгами читающих говорила красивыми".split(),
    "arabic": "الكتاب والمكتبة يكتبون كتابات المدرسة".split(),
    "german": "Häuser laufende Kindern gegangen Mädchen".split(),
    "mundo": "corriendo casas hablaban rápidamente".split(),
    "korean": "학교에 갔습니다 학생들".split(),  # no stemmer: neither stems
}


@fuzz
@pytest.mark.parametrize("lang", list(STEM_WORDS), ids=[str(x) for x in STEM_WORDS])
@settings(FUZZ, max_examples=max(20, FUZZ.max_examples // 3))
@given(data=st.data())
def test_same_numbers_with_the_stemmers_that_run_here(lang, data):
    words = st.sampled_from(STEM_WORDS[lang] + [",", ".", "\n", "12", "abc"])
    target = " ".join(data.draw(st.lists(words, max_size=12)))
    prediction = " ".join(data.draw(st.lists(words, max_size=12)))
    theirs, ours = scorers(lang, use_stemmer=True)
    assert ours.score(target, prediction) == theirs.score(target, prediction)


# Real prose (news-like sentences, one per line), in the two languages of issue 29's target.
PROSE = {
    "chinese": ("新华社北京3月15日电（记者王敏）国务院总理李克强15日上午在人民大会堂会见中外记者。\n"
                "据报道，这家公司2023年的营业收入为1,234.5亿元，同比增长12.5%。\n"
                "小明硕士毕业于中国科学院计算所，后在日本京都大学深造。",
                "国务院总理李克强在人民大会堂会见记者。\n这家公司去年营业收入1,234.5亿元，增长12.5%，"
                "海外业务占比超过30%。\n他说：“我们要加快建设5G网络。”"),
    "hindi": ("भारत के प्रधानमंत्री ने आज नई दिल्ली में एक बैठक की।\nइस बैठक में कई राज्यों के मुख्यमंत्री शामिल हुए, "
              "और 2024 के बजट पर चर्चा हुई।",
              "प्रधानमंत्री ने नई दिल्ली में मुख्यमंत्रियों के साथ बैठक की।\nबैठक में बजट पर चर्चा हुई।"),
}


@pytest.mark.parametrize("lang", list(PROSE))
def test_real_prose_on_the_kernels_gives_xlsums_numbers(lang):
    from rouge_core.kernels import native

    target, prediction = PROSE[lang]
    theirs, ours = scorers(lang)
    expected = theirs.score(target, prediction)
    assert ours.score(target, prediction) == expected == ours.score(target, prediction)
    assert ours._scores(target, prediction) == expected  # the Documents' path
    with native.pure():
        assert ours.score(target, prediction) == expected
    if native.active():  # read from the terms of each line, without Documents
        assert ours._terms_scores(target, prediction) == expected
        assert ours._terms_scores(target, "😀 " + prediction) is None  # beyond the BMP: the offsets' path
        assert ours.score(target, "😀 " + prediction) == theirs.score(target, "😀 " + prediction)
    for t, p in ((target, ""), ("", prediction), ("", ""), ("\n", " 。\n")):
        assert ours.score(t, p) == theirs.score(t, p)
    with pytest.raises(ValueError, match="prediction is not valid Unicode"):
        ours.score(target, "\ud800" + prediction)


# Chinese as jieba reads it: dictionary words, Latin words, numbers with points and percents,
# white space of every kind ("\r\n" too), full-width punctuation, characters beyond the BMP.
CHINESE_PARTS = (["中国", "中国人民", "北京", "清华大学", "研究生", "命运", "结婚", "的", "和尚", "尚未", "杭研", "网易",
                  "石墨烯", "臧", "犇", "\u9fd5", "\u9fd6"] * 3
                 + ["iPhone", "C++", "AT&T", "3", "1.5", "99%", "e-mail", "_", " ", "\t", "\n", "\r\n", "\r", "\u3000",
                    "，", "。", "“", "”", "😀", "\U00020000", "\x00"])
chinese_texts = st.lists(st.sampled_from(CHINESE_PARTS), max_size=30).map("".join)


@fuzz
@FUZZ
@given(chinese_texts, chinese_texts)
def test_same_numbers_as_multilingual_rouge_on_mixed_chinese(target, prediction):
    _same_numbers("chinese", target, prediction)


def test_known_values_and_the_tuple_shape():
    scorer = RougeScorer(["rouge1", "rougeL"], lang="thai")
    scores = scorer.score("สวัสดีครับ ผมชื่อสมชาย", "สวัสดีค่ะ")
    assert scores["rouge1"] == Score(precision=0.5, recall=1 / 7, fmeasure=2 * 0.5 * (1 / 7) / (0.5 + 1 / 7))
    assert scores["rouge1"]._fields == ("precision", "recall", "fmeasure")


def test_rougelsum_reads_lines_with_the_basic_tokenizer_only_as_xlsum_does():
    scorer = RougeScorer(["rougeL", "rougeLsum"], lang="chinese")
    scores = scorer.score("我爱北京\n天安门", "我爱北京")
    assert scores["rougeL"].recall == 3 / 5  # 我 爱 北京 " " 天安门: jieba words and the line end it keeps
    assert scores["rougeLsum"].recall == 1 / 2  # one token per line: the sentence 我爱北京 matches
    result = scorer.explain("我爱北京\n天安门", "我爱北京")
    assert "|tok:xlsum-basic|" in result["rougeLsum"]["rougeLsum"].signature
    assert "|tok:multilingual|" in result["rougeL"]["rougeL"].signature
    assert "|lang:chinese|" in result["rougeL"]["rougeL"].signature


def test_score_multi_keeps_the_best_f_per_type():
    scorer = RougeScorer(["rouge1"], lang="hindi")
    best = scorer.score_multi(["नमस्ते दुनिया", "नमस्ते"], "नमस्ते")
    assert best["rouge1"] == scorer.score("नमस्ते", "नमस्ते")["rouge1"]
    with pytest.raises(ValueError):
        scorer.score_multi([], "नमस्ते")


def test_what_cannot_run_says_so():
    with pytest.raises(ValueError, match="Bengali stemmer cannot run"):
        RougeScorer(["rouge1"], use_stemmer=True, lang="bangla")
    with pytest.raises(TypeError, match="does not support callable_tokenizer"):
        RougeScorer(["rouge1"], callable_tokenizer=str.split)
    with pytest.raises(TypeError, match="unexpected keyword"):
        RougeScorer(["rouge1"], langauge="thai")
    with pytest.warns(UserWarning, match="unknown stemmer language 'klingon'"):
        RougeScorer(["rouge1"], use_stemmer=True, lang="klingon")
    with pytest.raises(ValueError, match="Invalid rouge type: rougeX"):
        RougeScorer(["rougeX"]).score("a", "a")
