"""jieba's default cut compiled (rouge_core/kernels/jieba.c, rouge_core.text.segment.CompiledJieba)
against jieba itself: the same words for every text (mixed Han, Latin, digits, punctuation, white
space, characters beyond the Basic Multilingual Plane, "\\r\\n"; real Chinese prose), a user's
dictionary change followed, jieba itself where the copy cannot follow, and the pure path on jieba."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rouge_core.kernels import native
from tests.extras import needs_package

jieba = pytest.importorskip("jieba")
from rouge_core.text.segment import CompiledJieba, compiled_jieba  # noqa: E402

needs_kernels = pytest.mark.skipif(not native.active(), reason=f"compiled kernels not in use: {native.describe()}")
pytestmark = [needs_kernels, needs_package("jieba", "Chinese word segmentation")]
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Dictionary words (several share prefixes, so the route has choices), characters jieba's HMM
# reads (unknown names), the edges of its Han range (U+9FD5 is in it, U+9FD6 and U+4DFF are not).
HAN = ["中国", "中国人", "中国人民", "人民", "北京", "清华", "清华大学", "大学", "研究生", "生命", "命运", "结婚", "的",
       "和尚", "尚未", "未来", "来到", "我", "他", "网易", "杭研", "大厦", "小明", "硕士", "毕业", "于", "科学院",
       "计算所", "京都", "深造", "永和", "服装", "饰品", "有限公司", "乒乓球", "拍卖", "完了", "南京市", "长江大桥",
       "石墨烯", "韩玉赏鉴", "吴国忠", "臧", "犇", "龘", "\u4e00", "\u9fd5", "\u9fd6", "\u9fff", "\u4dff", "\u3400"]
LATIN = ["a", "B", "iPhone", "x86", "C++", "c#", "AT&T", "3", "12", "1.5", "2.0.1", "99%", "50.5%", "-", "_", ".",
         "%", "+", "#", "&", "e-mail", "v1.2a"]
OTHER = [" ", "  ", "\t", "\n", "\r\n", "\r", "\r\r\n", "\u3000", "\u00a0", "\u2028", "，", "。", "！", "、", "“", "”",
         "（", "）", "😀", "\U00020000", "\U0002a6d6", "é", "ß", "ㄅ", "ア", "\x00", "\x1c", "\ufeff", "\u200b"]
texts = st.lists(st.sampled_from(HAN * 3 + LATIN + OTHER), max_size=40).map("".join)
any_text = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=("Cs",)), max_size=40)

PROSE = """\
小明硕士毕业于中国科学院计算所，后在日本京都大学深造。
新华社北京3月15日电（记者王敏）国务院总理李克强15日上午在人民大会堂会见中外记者，并回答记者提问。
据报道，这家公司2023年的营业收入为1,234.5亿元，同比增长12.5%，其中海外业务占比超过30%。
工信处女干事每月经过下属科室都要亲口交代24口交换机等技术性器件的安装工作。
结婚的和尚未结婚的都来了。南京市长江大桥于1968年建成通车。
他说：“我们要加快建设5G网络，推动AI和IoT技术的应用。”
香港特别行政区政府今日公布，截至6月底，本港人口为7,413,100人。
石墨烯是一种由碳原子以sp²杂化轨道组成六角型呈蜂巢晶格的二维碳纳米材料。
"""


def _compiled(text: str) -> list[str]:
    model = compiled_jieba().model()
    assert model is not None
    return native.jieba_cut(model, text)


@SETTINGS
@given(st.one_of(texts, any_text))
def test_the_compiled_cut_gives_jiebas_words(text):
    words = _compiled(text)
    assert words == list(jieba.cut(text))
    ends = native.jieba_cut(compiled_jieba().model(), text, False)
    assert ends == [sum(map(len, words[:k + 1])) for k in range(len(words))]


def test_real_prose_line_by_line_and_whole():
    for line in PROSE.splitlines():
        assert _compiled(line) == list(jieba.cut(line))
    assert _compiled(PROSE) == list(jieba.cut(PROSE))
    long = PROSE * 20  # above the size where the cut runs without the GIL
    assert len(long) > 4096 and _compiled(long) == list(jieba.cut(long))
    assert _compiled("结婚的和尚未结婚的") == ["结婚", "的", "和", "尚未", "结婚", "的"]
    assert _compiled("") == []


def test_jieba_known_cuts_including_its_hmm():
    # jieba's README: 杭研 is not in its dictionary, its HMM joins it
    assert _compiled("他来到了网易杭研大厦") == ["他", "来到", "了", "网易", "杭研", "大厦"]
    assert _compiled("我来到北京清华大学") == ["我", "来到", "北京", "清华大学"]


@pytest.fixture
def own_dictionary(monkeypatch):
    """jieba's tables as copies the test may change (put back afterwards)."""
    compiled_jieba()  # jieba's dictionary read first
    monkeypatch.setattr(jieba.dt, "FREQ", dict(jieba.dt.FREQ))
    monkeypatch.setattr(jieba.dt, "total", jieba.dt.total)
    monkeypatch.setattr(jieba.finalseg, "Force_Split_Words", set())
    yield


def test_a_user_word_is_followed(own_dictionary):
    text = "韩玉赏鉴和吴国忠在台中讲话"
    before = _compiled(text)
    assert before == list(jieba.cut(text))
    jieba.add_word("韩玉赏鉴")
    jieba.add_word("台中讲话", 10)
    after = _compiled(text)
    assert after == list(jieba.cut(text)) and after != before and "韩玉赏鉴" in after and "台中讲话" in after
    jieba.suggest_freq("吴国忠", tune=True)  # a frequency that joins the name
    assert _compiled(text) == list(jieba.cut(text)) and "吴国忠" in _compiled(text)
    jieba.load_userdict(io.BytesIO("讲话 3 v\n在台 50000\n".encode()))
    assert _compiled(text) == list(jieba.cut(text))


def test_another_main_dictionary_is_followed(own_dictionary, monkeypatch, tmp_path):
    path = tmp_path / "small_dict.txt"
    path.write_text("我 100 r\n来到 50 v\n北京 80 ns\n清华 20 nz\n大学 40 n\n清华大学 5 nt\n北京清华大学读书 3 l\n",
                    encoding="utf-8")
    for name in ("dictionary", "initialized"):
        monkeypatch.setattr(jieba.dt, name, getattr(jieba.dt, name))
    monkeypatch.setattr(jieba.dt, "tmp_dir", str(tmp_path))  # its cache file goes there
    text = "我来到北京清华大学读书"
    jieba.set_dictionary(str(path))
    assert _compiled(text) == list(jieba.cut(text)) == ["我", "来到", "北京清华大学读书"]
    assert len(jieba.dt.FREQ) < 100  # the small dictionary, not the default one


def test_a_word_forced_apart_leaves_the_cut_to_jieba(own_dictionary):
    compiled = compiled_jieba()
    assert compiled.model() is not None
    jieba.del_word("清华大学")  # frequency 0: finalseg's Force_Split_Words, which the copy does not follow
    assert compiled.model() is None
    assert compiled.words("我来到北京清华大学") == list(jieba.cut("我来到北京清华大学"))


def test_what_the_copy_does_not_take_leaves_the_cut_to_jieba(own_dictionary, monkeypatch):
    jieba.dt.FREQ["负数"] = -5  # not a frequency jieba's dictionary files can hold
    jieba.dt.total += 1
    assert compiled_jieba().model() is None
    monkeypatch.setattr(jieba, "cut", lambda text, *a, **k: iter([text]))  # a replaced jieba.cut is called
    assert compiled_jieba().words("中文") == ["中文"]


def test_another_jieba_version_is_not_copied(monkeypatch):
    monkeypatch.setattr(jieba, "__version__", "0.43")
    assert compiled_jieba().model() is None
    assert CompiledJieba(jieba).words("我来到北京清华大学") == list(jieba.cut("我来到北京清华大学"))


def test_the_pure_path_cuts_with_jieba():
    with native.pure():
        assert compiled_jieba().model() is None
        assert compiled_jieba().words(PROSE) == list(jieba.cut(PROSE))


def test_the_cost_model_prices_the_cut_that_runs(monkeypatch):
    # the compiled copy is about 15 times faster than jieba's own cut: priced apart, and the
    # multilingual profile's Chinese read line by line on it
    import rouge_core
    from rouge_core.scorer.cost import text_shape

    multilingual = rouge_core.profile("multilingual", language="chinese")
    unicode = rouge_core.profile("rouge-score", tokenizer="unicode", language="chinese")
    text = PROSE + "\n" + PROSE
    lines = text.count("\n") + 1
    assert text_shape(text, multilingual).segments == (("xlsum-chinese-compiled", len(text), lines),)
    assert [s[0] for s in text_shape(text, unicode).segments] == ["chinese-compiled"]
    with native.pure():
        assert text_shape(text, multilingual).segments == (("xlsum-chinese", len(text), 1),)
        assert [s[0] for s in text_shape(text, unicode).segments] == ["chinese"]
    monkeypatch.setattr(jieba, "__version__", "0.43")  # jieba cuts: priced as jieba
    assert text_shape(text, multilingual).segments == (("xlsum-chinese", len(text), 1),)
