"""XL-Sum's basic tokenizer and OpenNMT fallback (rouge_core.text.multilingual): the fast paths for
text whose characters lower-case one to one, hold nothing the tokenizer drops, or no CJK
ideograph give exactly what the character-by-character reference gives (issue 29, item 5:
the multilingual profile is most of the meta-evaluation page's scoring)."""

from hypothesis import given, settings, strategies as st

from rouge_core.text import multilingual as ml

# characters that exercise every class: letters that grow when lower-cased (İ), final sigma,
# spaces of every kind, punctuation, controls and format characters the tokenizer drops, CJK
SPECIAL = "İΣσAb \t\n\r\u2028\u00a0\u3000.,!?¿…—-_'\"\u200b\u200d\u00ad\x07\x00\ufffd中文字日本語かなカナ한국어ไทย"
texts = st.one_of(st.text(max_size=40), st.text(alphabet=SPECIAL, max_size=40),
                  st.lists(st.sampled_from(["word", "ΟΔΟΣ", "İstanbul", "中文", "a-b", "x.y", " ", "\u200b"]),
                           max_size=12).map(" ".join))


def reference_pieces(text: str, lowercase: bool) -> list:
    if lowercase:
        lowered = text.lower()
        origin = [i for i, ch in enumerate(text) for _ in range(len(ch.lower()))]
        if len(origin) != len(lowered):
            lowered = "".join(ch.lower() for ch in text)
    else:
        lowered, origin = text, list(range(len(text)))
    return ml._basic_pieces(lowered, origin)


@given(texts, st.booleans())
@settings(max_examples=400, deadline=None)
def test_basic_pieces_equal_the_character_by_character_reference(text, lowercase):
    assert ml.basic_pieces(text, lowercase) == reference_pieces(text, lowercase)


@given(st.lists(st.text(alphabet="ab中1-■ ", min_size=1, max_size=6), max_size=8))
@settings(max_examples=200, deadline=None)
def test_tokens_without_ideographs_pass_whole(tokens):
    joined = " ".join(tokens)
    spans = ml.align(tokens, joined)
    if not ml._CJK_IDEOGRAPH.search(joined):
        assert ml._cut_ideographs(tokens, spans) == [(t, a, b) for t, (a, b) in zip(tokens, spans)]


def reference_joined(pieces):
    parts, origins = [], []
    for k, (piece, where) in enumerate(pieces):
        if k:
            gap_start = pieces[k - 1][1][-1] + 1
            parts.append(" ")
            origins.append((gap_start, max(gap_start, where[0])))
        parts.append(piece)
        origins.extend((i, i + 1) for i in where)
    return "".join(parts), origins


@given(texts)
@settings(max_examples=300, deadline=None)
def test_joined_origins_equal_the_listed_ones(text):
    pieces = ml.basic_pieces(text)
    joined, origins = ml._joined(pieces)
    want_joined, want = reference_joined(pieces)
    assert joined == want_joined and len(origins) == len(want) and list(origins) == want
    if want:
        assert origins[-1] == want[-1]
