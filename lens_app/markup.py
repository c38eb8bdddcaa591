"""User strings inside Streamlit's Markdown.

Markdown reaches more places than `st.markdown`: captions, alerts, widget labels, radio and
segmented-control options, tab and expander labels, progress texts. A user string (a token, a
system name from a CSV header, an annotator's name, a file name, a pair id) goes through `md`
first, so it shows as typed and never becomes a link, an image, HTML, a colour directive
(`:red[...]`), an emoji or icon shortcode (`:material/...:`) or LaTeX (`$...$`).
"""

from __future__ import annotations

import re

# CommonMark lets a backslash escape any ASCII punctuation character; escaping all of them
# covers every construct above.
_ASCII_PUNCTUATION = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
# GFM also links bare URLs (www., http://, https://) and e-mail addresses, and it finds them in
# the text *after* escapes are resolved, so escaping cannot stop it. An invisible word joiner
# where the pattern needs "www." , a scheme's ":" or an address's "@" does.
_AUTOLINK_STARTS = re.compile(r"(?i)www(?=\.)|https?(?=:)|@")
WORD_JOINER = "\u2060"


def md(text: object) -> str:
    """`text` as literal Markdown text on one line (line breaks become spaces)."""
    flat = _LINE_BREAKS.sub(" ", str(text))
    unlinked = _AUTOLINK_STARTS.sub(lambda m: m.group() + WORD_JOINER, flat)
    return _ASCII_PUNCTUATION.sub(r"\\\1", unlinked)


def md_list(items, separator: str = ", ") -> str:
    """Several user strings, each escaped, joined."""
    return separator.join(md(item) for item in items)


_ESCAPED = re.compile(r"""\\([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")


def plain(markdown: str) -> str:
    """What a reader sees of Markdown text made with `md`: escapes and word joiners removed
    (tests compare messages with it)."""
    return _ESCAPED.sub(r"\1", markdown).replace(WORD_JOINER, "")
