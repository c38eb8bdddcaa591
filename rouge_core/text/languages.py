"""Language names: the `language` option's values, their aliases and what each one changes.

Names are XL-Sum's (the multilingual scorer's `lang=`): its 45 languages, the stemmer
languages its scorer names, and a few more scripts the `unicode` tokenizer handles. The
language decides only what a script cannot: whether Han characters are Chinese or Japanese
words, Turkish and Azerbaijani case (I/ı, İ/i), and, under the `multilingual` profile, XL-Sum's
segmenter and stemmer. Scripts written without spaces (Thai, Lao, Khmer, Myanmar) are found
by script, whatever the language.
"""

from __future__ import annotations

from ..errors import excerpt

# XL-Sum's alternative names (its scorer maps them before anything else).
ALIASES = {
    "bangla": "bengali",
    "turkce": "turkish",
    "chinese_simplified": "chinese",
    "chinese_traditional": "chinese",
    "mundo": "spanish",
}

# XL-Sum's scorer segments these languages with a language-specific segmenter.
XLSUM_SEGMENTED = {"thai": "PyThaiNLP newmm", "chinese": "jieba", "japanese": "MeCab (fugashi, unidic-lite)",
                   "burmese": "XL-Sum's rule-based syllable splitter"}
# ...and stems these with a language-specific stemmer (the others with use_stemmer: none).
XLSUM_STEMMED = {
    "bengali": "Rafi stemmer (not runnable: its rule file is missing from the published package)",
    "hindi": "suffix stripping (Ramanathan & Rao 2003)",
    "turkish": "TurkishStemmer",
    **{name: "Snowball (NLTK)" for name in (
        "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian", "norwegian",
        "portuguese", "romanian", "russian", "spanish", "swedish")},
}
# ...of which these cannot run as XL-Sum publishes them (the reason is the error message).
UNRUNNABLE_STEMMERS = {
    "bengali": "XL-Sum's Bengali stemmer cannot run: the rule file it reads is missing from the published "
               "multilingual-rouge package; score Bengali without stemming",
}

_NAMES = (
    "amharic", "arabic", "azerbaijani", "bengali", "burmese", "chinese", "danish", "dutch", "english", "finnish",
    "french", "german", "greek", "gujarati", "hausa", "hebrew", "hindi", "hungarian", "igbo", "indonesian", "italian",
    "japanese", "khmer", "kirundi", "korean", "kyrgyz", "lao", "marathi", "nepali", "norwegian", "oromo", "pashto",
    "persian", "pidgin", "portuguese", "punjabi", "romanian", "russian", "scottish_gaelic", "serbian_cyrillic",
    "serbian_latin", "sinhala", "somali", "spanish", "swahili", "swedish", "tamil", "telugu", "thai", "tigrinya",
    "turkish", "ukrainian", "urdu", "uzbek", "vietnamese", "welsh", "yoruba",
)
LANGUAGES: tuple[str, ...] = _NAMES
"""Every value the `language` option takes (besides None), canonical names only."""

# Languages whose Han characters are words of Chinese or of Japanese.
HAN_LANGUAGES = {"chinese": "chinese", "japanese": "japanese"}
# Languages with a dotted and a dotless i: upper-case I is ı, İ is i.
TURKIC_CASE = frozenset({"turkish", "azerbaijani"})


def canonical(language: str | None) -> str | None:
    """The canonical name of `language` (aliases resolved, case and spaces ignored), None for
    none; ValueError naming the known languages for an unknown one."""
    if language is None or language == "":
        return None
    if not isinstance(language, str):
        raise TypeError(f"language must be a language name or None, not {type(language).__name__}")
    key = language.strip().lower().replace(" ", "_").replace("-", "_")
    key = ALIASES.get(key, key)
    if key not in LANGUAGES:
        raise ValueError(f"unknown language {excerpt(language)}; choose one of {', '.join(LANGUAGES)} "
                         f"(or {', '.join(ALIASES)})")
    return key


def display_name(language: str) -> str:
    """A language's name for people: "scottish_gaelic" -> "Scottish gaelic"."""
    return language.replace("_", " ").capitalize()


def label(language: str | None) -> str:
    """A one-line label for a language: its name and what it changes (the app's select box)."""
    if language is None:
        return "any (words by script)"
    name = display_name(language)
    notes = []
    if language in HAN_LANGUAGES:
        notes.append(f"Han characters as {name} words")
    if language in TURKIC_CASE:
        notes.append("dotted and dotless i")
    if language in XLSUM_SEGMENTED:
        notes.append(f"XL-Sum: {XLSUM_SEGMENTED[language]}")
    if language in XLSUM_STEMMED and language not in UNRUNNABLE_STEMMERS:
        notes.append(f"stemmer: {XLSUM_STEMMED[language]}")
    return f"{name} ({'; '.join(notes)})" if notes else name


def language_choices() -> list[tuple[str | None, str]]:
    """(value, label) pairs for a language select box, "any" first."""
    return [(None, label(None)), *((name, label(name)) for name in LANGUAGES)]


# One candidate and reference per language written without spaces or with marks a naive word
# pattern breaks: the app's examples and the tests of their highlights use these.
EXAMPLES: dict[str, tuple[str, str]] = {
    "thai": ("ผมชอบแมว และหมา", "ผมชอบหมา"),
    "hindi": ("मुझे हिन्दी किताबें पसंद हैं।", "मुझे किताबें पसंद नहीं हैं।"),
    "chinese": ("我爱北京天安门。", "我去北京。"),
    "japanese": ("東京都に住んでいます。", "東京に住んでいる。"),
}
"""language -> (candidate, reference)."""
