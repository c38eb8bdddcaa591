"""lens_app.markup: user strings in Streamlit Markdown stay literal text."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from lens_app.markup import WORD_JOINER, md, md_list, plain
from tests.fuzzing import FUZZ, fuzz

LINE_BREAKS = "\r\n\u2028\u2029\x0b\x0c\x85"


@fuzz
@FUZZ
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_characters=WORD_JOINER) | st.sampled_from("[]()!*_`~$:<>#\\@.www http https")))
def test_what_the_reader_sees_is_the_text(text):
    shown = md(text)
    assert plain(shown) == re.sub(f"[{LINE_BREAKS}]+", " ", text)
    assert not any(ch in shown for ch in LINE_BREAKS)
    # every ASCII punctuation character is escaped: no Markdown construct can start
    unescaped = re.sub(r"\\[!-/:-@\[-`{-~]", "", shown)
    assert not re.search(r"[!-/:-@\[-`{-~]", unescaped)


def test_links_images_directives_and_bare_urls_are_text():
    assert md("![x](http://a.b/c.png)") == "\\!\\[x\\]\\(http" + WORD_JOINER + "\\:\\/\\/a\\.b\\/c\\.png\\)"
    assert md(":red[x] :material/search: $x$") == "\\:red\\[x\\] \\:material\\/search\\: \\$x\\$"
    assert md("www.evil.example") == "www" + WORD_JOINER + "\\.evil\\.example"
    assert md("mail a@b.example") == "mail a\\@" + WORD_JOINER + "b\\.example"
    assert md("line one\nline two") == "line one line two"
    assert md_list(["a_b", "c*d"]) == "a\\_b, c\\*d"
