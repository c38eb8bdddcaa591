"""The Porter stemmer exactly as ROUGE-1.5.5.pl embeds it.

ROUGE-1.5.5 carries the Perl Porter stemmer from Martin Porter's site (the one with
`bli -> ble` and `logi -> log` in step 2), with step 4 modified by the script's author
(see below). NLTK's PorterStemmer adds other changes, so it is *not* used for this profile. The regular
expressions below are transliterated from the Perl source one for one; Python's `re`
has the same leftmost-first alternation semantics, so suffix choice matches Perl's.
"""

from __future__ import annotations

import re
from functools import lru_cache

_c = "[^aeiou]"  # consonant
_v = "[aeiouy]"  # vowel
_C = _c + "[^aeiouy]*"  # consonant sequence
_V = _v + "[aeiou]*"  # vowel sequence

_MGR0 = re.compile("^(" + _C + ")?" + _V + _C)  # [C]VC... is m>0
_MEQ1 = re.compile("^(" + _C + ")?" + _V + _C + "(" + _V + ")?$")  # [C]VC[V] is m=1
_MGR1 = re.compile("^(" + _C + ")?" + _V + _C + _V + _C)  # [C]VCVC... is m>1
_VOWEL_IN_STEM = re.compile("^(" + _C + ")?" + _v)
_CVC_ENDING = re.compile("^" + _C + _v + "[^aeiouwxy]$")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
    "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
    "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log",
}
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": "",
}
_STEP2_RE = re.compile(
    "(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism"
    "|iveness|fulness|ousness|aliti|iviti|biliti|logi)$"
)
_STEP3_RE = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_STEP4_ION_RE = re.compile("(s|t)(ion)$")
_STEP1A_SSES_IES = re.compile("(ss|i)es$")
_STEP1A_S = re.compile("([^s])s$")
_STEP1B_ED_ING = re.compile("(ed|ing)$")
_STEP1B_AT_BL_IZ = re.compile("(at|bl|iz)$")
_DOUBLE_CONSONANT = re.compile(r"([^aeiouylsz])\1$")


@lru_cache(maxsize=200_000)
def porter_stem(word: str) -> str:
    """Stem one lower-case word the way ROUGE-1.5.5's embedded Porter stemmer does."""
    if len(word) < 3:
        return word
    w = word
    initial_y = w[0] == "y"
    if initial_y:  # an initial y is a consonant: upper-case it so no pattern sees a vowel
        w = "Y" + w[1:]

    # Step 1a
    m = _STEP1A_SSES_IES.search(w)
    if m:
        w = w[: m.start()] + m.group(1)
    else:
        m = _STEP1A_S.search(w)
        if m:
            w = w[: m.start()] + m.group(1)

    # Step 1b
    if w.endswith("eed"):
        if _MGR0.search(w[:-3]):
            w = w[:-1]
    else:
        m = _STEP1B_ED_ING.search(w)
        if m:
            stem = w[: m.start()]
            if _VOWEL_IN_STEM.search(stem):
                w = stem
                if _STEP1B_AT_BL_IZ.search(w):
                    w += "e"
                elif _DOUBLE_CONSONANT.search(w):
                    w = w[:-1]
                elif _CVC_ENDING.search(w):
                    w += "e"

    # Step 1c
    if w.endswith("y"):
        stem = w[:-1]
        if _VOWEL_IN_STEM.search(stem):
            w = stem + "i"

    # Step 2
    m = _STEP2_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2[m.group(1)]

    # Step 3
    m = _STEP3_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3[m.group(1)]

    # Step 4, as Chin-Yew Lin modified it on 02/14/2004: "-ement" is in the main list and
    # separate checks then try "-ment" and "-ent" on what is left ("agreement" -> "agreem").
    m = _STEP4_RE.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    if w.endswith("ment"):
        stem = w[:-4]
        if _MGR1.search(stem):
            w = stem
    if w.endswith("ent"):
        stem = w[:-3]
        if _MGR1.search(stem):
            w = stem
    else:
        m = _STEP4_ION_RE.search(w)
        if m:
            stem = w[: m.start()] + m.group(1)
            if _MGR1.search(stem):
                w = stem

    # Step 5
    if w.endswith("e"):
        stem = w[:-1]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC_ENDING.search(stem)):
            w = stem
    if w.endswith("ll") and _MGR1.search(w):
        w = w[:-1]

    if initial_y:
        w = "y" + w[1:]
    return w
