"""Built-in examples, in one place: the worked examples from the MATLAB, reval, Medium and
Kolena documentation (texts copied from the conformance seeds), a multi-sentence summary
pair, and what the Learn and Why-do-tools-disagree pages show before there are texts.

Copied here rather than read from shared/ at run time, so the app has no data dependency.
The language examples are rouge_core.text.languages.EXAMPLES (the library's tests check their
highlights); each names its language, and loading one chooses the multilingual profile.
"""

from __future__ import annotations

from dataclasses import dataclass

from rouge_core.errors import excerpt
from rouge_core.text import languages


@dataclass(frozen=True)
class Example:
    key: str
    title: str
    source: str
    candidate: str
    references: tuple[str, ...]
    note: str = ""
    language: str | None = None  # set: loading it scores under the multilingual profile with this language


EXAMPLES: tuple[Example, ...] = (
    Example(
        "matlab-fox",
        "MATLAB: the fast brown fox",
        "MathWorks rougeEvaluationScore documentation",
        "the fast brown fox jumped over the lazy dog",
        ("the quick brown animal jumped over the lazy dog", "the quick brown fox jumped over the lazy dog"),
        "Two references: MATLAB keeps the best, ROUGE-1.5.5 -f A pools them (15/18).",
    ),
    Example(
        "matlab-simple-summary",
        "MATLAB: a simple summary",
        "MathWorks rougeEvaluationScore documentation",
        "a simple summary document containing some words",
        ("a simple document", "another document with some words"),
        "Reference 1 wins on recall, reference 2 is longer: the multi-reference mode decides.",
    ),
    Example(
        "reval-cat",
        "reval: the cat is sitting",
        "reval (Go package) documentation",
        "the cat is sitting on the mat",
        ("the cat sat on the mat",),
        "5 of 7 candidate unigrams match; the LCS has 5 tokens.",
    ),
    Example(
        "reval-lsum",
        "reval: two sentences (Lsum)",
        "reval (Go package) documentation",
        "the cat is on the mat\nit is cute",
        ("the dog is on the mat\nthe animal is cute\nthe pet sleeps well",),
        "One sentence per line: ROUGE-Lsum takes the union LCS per reference sentence.",
    ),
    Example(
        "reval-abc",
        "reval: a b c vs c b a",
        "reval (Go package) documentation",
        "a b c",
        ("c b a",),
        "Same bag of words (ROUGE-1 = 1) but the LCS has length 1.",
    ),
    Example(
        "medium-cat-dog",
        "Medium: the cat and the dog",
        "“Two minutes NLP — Learn the ROUGE metric by examples” (NLPlanet, 2022)",
        "The cat and the dog.",
        ("The cat is on the mat.",),
        "Case and the final period are removed by the tokenizers.",
    ),
    Example(
        "kolena-pooled",
        "Kolena: pooled references",
        "Kolena ROUGE-N metric documentation",
        "The quick brown fox jumps over the lazy dog",
        ("A fast brown dog jumps over a sleeping fox", "A quick brown dog jumps over the fox"),
        "Pooled recall is 12/17 for ROUGE-1; best-F picks reference 2.",
    ),
    Example(
        "news-summary",
        "A multi-sentence news summary",
        "written for ROUGE Lens",
        "The city council approved the new budget on Monday.\n"
        "Spending on public transport will rise by ten percent.\n"
        "Critics said the plan ignores housing.",
        (
            "On Monday the city council voted to approve the budget.\n"
            "Public transport spending rises by ten percent next year.\n"
            "Opponents argued that housing was left out of the plan.",
        ),
        "Three sentences per side: compare sentence-level ROUGE-L with summary-level ROUGE-Lsum.",
    ),
)

DEFAULT_EXAMPLE = EXAMPLES[0]

# Why each language needs more than rouge-score's [a-z0-9] (the note under a loaded example).
_LANGUAGE_NOTES = {
    "thai": "Thai has no spaces between words: PyThaiNLP cuts ผมชอบแมว into ผม ชอบ แมว. XL-Sum counts the space "
            "between phrases as a token of its own.",
    "hindi": "Devanagari vowel signs (matras) belong to their word: a naive word pattern breaks हिन्दी apart.",
    "chinese": "Chinese has no spaces: jieba segments it into words (北京, 天安门).",
    "japanese": "Japanese mixes kanji and kana without spaces: MeCab segments it into words (東京, に, 住ん, で).",
}
LANGUAGE_EXAMPLES: tuple[Example, ...] = tuple(
    Example(f"language-{language}", languages.display_name(language), "written for ROUGE Lens", candidate,
            (reference,), _LANGUAGE_NOTES.get(language, ""), language)
    for language, (candidate, reference) in languages.EXAMPLES.items())

# What the Learn and Why-do-tools-disagree pages show before the Score page has texts.
LEARN_EXAMPLE = Example(
    "learn-walkthrough", "Learn: clipping, sentences and two references", "written for ROUGE Lens",
    # a repeated "the" (clipping), two sentences per side (summary-level L), a second reference (multi-reference modes)
    "the cat sat on the mat with the dog\nthe dog barked at the cat",
    ("the cat was on the mat\na dog barked loudly at the cat", "a cat sat on a mat next to the dog"),
)
DISAGREE_EXAMPLE = Example(
    "tools-disagree", "Why tools disagree: accents, hyphens, decimals, irregular forms", "written for ROUGE Lens",
    "The children went to the café. Results are state-of-the-art at 3.14 points.",
    ("The child goes to a cafe. The results were better at 3.14 points.",),
)


def get_example(key: str) -> Example:
    for example in (*EXAMPLES, *LANGUAGE_EXAMPLES):
        if example.key == key:
            return example
    raise KeyError(f"no example {excerpt(key)}; known: {', '.join(e.key for e in (*EXAMPLES, *LANGUAGE_EXAMPLES))}")
