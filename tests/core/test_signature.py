"""The signature identifies the numbers: whenever an option can change a score, it changes
the signature; and a signature's short form parses back into the same value."""

from __future__ import annotations

import math
import shutil
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge_core
from rouge_core.text.options import Options
from rouge_core.text.resources import BUNDLED_DATA_DIR
from rouge_core.scorer.signature import VARIES, Signature, signature

METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeLsum-best", "rougeW-1.2", "rougeS4", "rougeSU4", "rougeSU*"]
TEXTS = [
    ("The Cats were running. The dog sat on the mat!\nCafé naïve costs 3.14 here",
     ["the cat ran. a dog sat on a mat\ncafe costs 3.14", "The dogs were running on the mat. The cat sat."]),
    ("the the the cat\nthe cat", ["the cat\nthe cat sat"]),
    ("the cat\nthe cat", ["the cat sat"]),  # two candidate sentences choose one reference sentence
    ("", ["the cat sat"]),  # an empty candidate: the empty-input rule decides
    ("東京に住んでいます。\nكَتَبَ الوَلَدُ", ["東京に住む\nكتب الولد"]),  # segmentation by language; Arabic marks
]


def _custom_data_dir(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("data")
    shutil.copytree(BUNDLED_DATA_DIR, folder, dirs_exist_ok=True)
    (folder / "smart_common_words.txt").write_text("cat\ndog\n", encoding="latin-1")
    return str(folder)


def _changes(data_dir: str) -> dict[str, list]:
    """Another value of every Options field (profile label included)."""
    return {
        "tokenizer": ["rouge155", "whitespace", "unicode", "cjk"],
        "lowercase": [False],
        "stemmer": ["porter", "rouge155", "snowball-english"],
        "stopwords": ["smart", frozenset({"the", "a"}), frozenset({"the", "on"})],
        "sentence_split": ["punctuation", "none"],
        "multi_ref": ["pooled", "best-recall", "max", "mean"],
        "alpha": [0.2, 0.9],
        "round_pr": [5, 2],
        "wlcs_form": ["rouge155"],
        "su_form": ["start-token"],
        "empty": ["nan"],
        "limit_words": [3],
        "limit_bytes": [12],
        "lcs_byte_limit_defect": [True],
        "data_dir": [data_dir],
        "best_sentence_clip": [False],
        "profile": ["rouge-1.5.5"],
        "language": ["japanese", "chinese", "arabic"],
        "strip_diacritics": [True],
    }


def _scores(options: Options, candidate: str, references: list[str]):
    result = rouge_core.score(candidate, references, METHODS, options, evidence=False)
    return {m.name: (m.precision, m.recall, m.fmeasure) for m in result}, {m.name: m.signature for m in result}


def _same(a, b) -> bool:
    return all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))


def test_every_option_is_covered():
    assert set(_changes("x")) == {f.name for f in fields(Options)}


@pytest.mark.parametrize("base", [rouge_core.profile("rouge-score"), rouge_core.profile("rouge-1.5.5", limit_bytes=40),
                                  rouge_core.profile("rouge-1.5.5", stopwords="smart"),
                                  rouge_core.profile("rouge-score", tokenizer="unicode")],
                         ids=["rouge-score", "bytes", "smart", "unicode"])
def test_a_score_changes_only_with_the_signature(base, tmp_path_factory):
    data_dir = _custom_data_dir(tmp_path_factory)
    changed_somewhere = set()
    for field, values in _changes(data_dir).items():
        for value in values:
            try:
                other = Options(**{**{f.name: getattr(base, f.name) for f in fields(Options)}, field: value})
            except ValueError:
                continue
            for candidate, references in TEXTS:
                before, sig_before = _scores(base, candidate, references)
                after, sig_after = _scores(other, candidate, references)
                for m in METHODS:
                    if not _same(before[m], after[m]):
                        changed_somewhere.add(field)
                        assert sig_before[m] != sig_after[m], (field, value, m, sig_before[m])
    if base.tokenizer == "rouge-score":  # the test would catch an option left out: each one bites here
        assert changed_somewhere >= set(_changes(data_dir)) - {"profile", "lcs_byte_limit_defect", "limit_bytes",
                                                                "data_dir", "language", "strip_diacritics"}
    if base.tokenizer == "unicode":
        assert {"language", "strip_diacritics"} <= changed_somewhere


def test_the_byte_limit_defect_and_data_folder_enter_when_they_matter(tmp_path_factory):
    data_dir = _custom_data_dir(tmp_path_factory)
    method = rouge_core.parse_method("rougeLsum")
    base = rouge_core.profile("rouge-1.5.5", limit_bytes=40)
    assert "lcsbytes:yes" in signature(method, base, 1)
    assert "lcsbytes" not in signature(method, rouge_core.profile("rouge-1.5.5"), 1)  # no byte limit: no effect
    smart_custom = rouge_core.profile("rouge-1.5.5", stopwords="smart", data_dir=data_dir)
    assert "|data:" in signature(method, smart_custom, 1)
    assert signature(method, smart_custom, 1) != signature(method, smart_custom.replace(data_dir=str(BUNDLED_DATA_DIR)), 1)


OPTIONS = st.builds(
    lambda profile, stemmer, stopwords, alpha, round_pr, empty, words, clip: rouge_core.profile(profile).replace(
        stemmer=stemmer, stopwords=stopwords, alpha=alpha, round_pr=round_pr, empty=empty, limit_words=words,
        best_sentence_clip=clip),
    st.sampled_from(rouge_core.PROFILES), st.sampled_from(["none", "porter", "rouge155"]),
    st.one_of(st.sampled_from(["none", "smart"]), st.frozensets(st.text("abc", min_size=1), max_size=4)),
    st.floats(0, 1), st.sampled_from([None, 5]), st.sampled_from(["zero", "nan"]), st.one_of(st.none(), st.integers(0, 50)),
    st.booleans())


@settings(max_examples=200, deadline=None)
@given(OPTIONS, st.sampled_from(METHODS), st.one_of(st.integers(0, 9), st.just(VARIES)))
def test_the_short_form_parses_back(options, method, refs):
    sig = Signature.of(rouge_core.parse_method(method), options, refs)
    assert Signature.parse(sig.short) == sig
    assert str(sig) == sig.short == signature(rouge_core.parse_method(method), options, refs)
    assert sig.long.splitlines()[0] == f"method: {sig.method}" and f"references: {refs}" in sig.long


def test_the_usual_signature_keeps_its_short_form():
    sig = signature(rouge_core.parse_method("rougeL"), rouge_core.profile("rouge-score"), 2)
    assert sig == ("rougeL|profile:rouge-score|tok:rouge-score|lc:yes|stem:none|sw:none|split:newline|refs:2|"
                   f"multi:best-f|alpha:0.5|v:{rouge_core.__version__}")
    with pytest.raises(ValueError, match="not a ROUGE Lens signature"):
        Signature.parse("rougeL|profile:x")


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.2, 0.5, 1.0, 1, 0]),
                 st.floats(0, 100).map(lambda beta: 1 / (1 + beta * beta))))
def test_the_signature_carries_alpha_exactly(alpha):
    """The α a signature prints reads back as the α used (β = 1.3 gives α = 0.37174721189591076,
    which `:g` printed as 0.371747), and the usual ones stay short."""
    sig = Signature.of(rouge_core.parse_method("rouge1"), rouge_core.profile("rouge-score").replace(alpha=alpha), 1)
    assert float(sig.alpha) == alpha
    if alpha in (0.0, 0.2, 0.5, 1.0):
        assert sig.alpha == f"{alpha:g}"


def test_with_beta_leaves_a_profile_that_has_no_beta():
    options = rouge_core.profile("rouge-score").with_beta(2)
    assert options.alpha == 0.2 and options.profile == "custom"
    assert rouge_core.profile("rouge-score").with_beta(1).profile == "rouge-score"  # β = 1 is its own α = 0.5
