"""Options split by job (text -> tokens, tokens -> statistics, statistics -> score): every
field declares its job and how the signature shows it, and the tokenize key, the statistics
key, the rescoring fields and the signature's keys all come from those declarations."""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest

import rouge_core
from rouge_core.families.methods import FAMILIES
from rouge_core.text.options import (JOBS, LABEL, SCORE, SPLITTER_FIELDS, STATISTICS, TOKENS, Options, fields_of, shown)
from rouge_core.scorer.scoring import SCORE_FIELDS, rescore, statistics_key
from rouge_core.scorer.signature import Signature
from rouge_core.text.tokenize import tokenize, tokenize_with

# another valid value of every field
OTHER = {"tokenizer": "whitespace", "language": "japanese", "strip_diacritics": True, "lowercase": False,
         "stemmer": "porter", "stopwords": "smart", "sentence_split": "punctuation", "multi_ref": "pooled",
         "alpha": 0.2, "round_pr": 5, "wlcs_form": "rouge155", "su_form": "start-token", "empty": "nan",
         "limit_words": 3, "limit_bytes": 12, "lcs_byte_limit_defect": True, "best_sentence_clip": False,
         "data_dir": None, "profile": "rouge-1.5.5"}


def test_every_field_has_one_job():
    names = [f.name for f in fields(Options)]
    assert sorted(n for job in JOBS for n in fields_of(job)) == sorted(names)
    assert set(OTHER) == set(names)
    assert fields_of(SCORE) == ("multi_ref", "alpha", "round_pr", "empty") and fields_of(LABEL) == ("profile",)
    assert fields_of(STATISTICS) == ("wlcs_form", "su_form", "best_sentence_clip")
    assert SCORE_FIELDS == {"multi_ref", "alpha", "round_pr", "empty", "profile"}
    assert len({shown(n).key for n in names}) == len(names)  # one signature key each


@pytest.mark.parametrize("name", sorted(OTHER))
def test_a_field_changes_its_own_part_only(name):
    if OTHER[name] is None:
        pytest.skip("data_dir: another folder is tested in test_signature")
    # the language and the diacritics rule refine the tokenizers that read them
    reads = {"tokenizer": "unicode"} if name in ("language", "strip_diacritics") else {}
    base = Options(**reads)
    other = Options(**{**reads, name: OTHER[name]})
    job = next(j for j in JOBS if name in fields_of(j))
    for j in JOBS:
        assert (base.part(j) != other.part(j)) == (j == job), j
    assert (statistics_key(base) != statistics_key(other)) == (job in (TOKENS, STATISTICS))
    assert (base.tokenize_key() != other.tokenize_key()) == (job == TOKENS)
    # hashable: each part keys its own cache
    assert hash(base.part(job)) != hash(other.part(job)) or base.part(job) != other.part(job)


def test_the_tokenize_key_is_tokenize_with_s_arguments():
    params = [n for n, p in inspect.signature(tokenize_with).parameters.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert SPLITTER_FIELDS == ("tokenizer", "language", "strip_diacritics")
    options = rouge_core.profile("rouge-1.5.5", stemmer="rouge155", stopwords="smart", limit_bytes=30)
    key = options.tokenize_key()
    assert len(key) == len(params) - 1 and key[1:] == tuple(getattr(options, n) for n in params[2:])
    text = "The cats were running.\nThe dogs sat on the mats near the cats, happily."
    by_key = tokenize_with(text, *key)
    by_name = tokenize(text, **{n: getattr(options, n) for n in fields_of(TOKENS)})
    assert by_key.terms == by_name.terms and by_key.sentence_bounds == by_name.sentence_bounds
    assert list(by_key.terms) == ["cat", "run", "dog"]  # stemmed, SMART stopwords out, cut at 30 bytes


def test_rescoring_takes_every_score_field_and_refuses_the_rest():
    result = rouge_core.score("the cat sat on the mat\nthe dog", ["the cat sat\non a mat", "a dog sat"],
                              ["rouge1", "rougeW-1.2", "rougeSU4", "rougeLsum-best"], Options())
    for name in fields_of(SCORE):
        changed = Options(**{name: OTHER[name]})
        again = rouge_core.score(result.candidate.text, [r.text for r in result.references], list(result.methods),
                                 changed)
        assert [m.fmeasure for m in rescore(result, changed)] == [m.fmeasure for m in again]
    for name in (*fields_of(TOKENS), *fields_of(STATISTICS)):
        if OTHER[name] is None:
            continue
        with pytest.raises(ValueError, match=name):
            rescore(result, Options(**{name: OTHER[name]}))


def test_family_options_are_statistics_options_and_enter_only_their_signatures():
    readers = {name: [k for k, f in FAMILIES.items() if name in f.statistics_options] for name in fields_of(STATISTICS)}
    assert readers == {"wlcs_form": ["W"], "su_form": ["SU"], "best_sentence_clip": ["Lbest"]}
    options = Options(wlcs_form="rouge155", su_form="start-token")
    w = Signature.of(rouge_core.parse_method("rougeW-1.2"), options, 1)
    su = Signature.of(rouge_core.parse_method("rougeSU4"), options, 1)
    assert w.family == (("wform", "rouge155"),) and su.family == (("suform", "start-token"),)
    assert Signature.of(rouge_core.parse_method("rouge1"), options, 1).family == ()


def test_keywords_and_replace_are_unchanged():
    options = Options(tokenizer="rouge155", multi_ref="pooled", round_pr=5, wlcs_form="rouge155", profile="rouge-1.5.5")
    assert options.replace(alpha=0.25).alpha == 0.25 and options.replace(alpha=0.25).profile == "custom"
    assert options.with_beta(1.0).alpha == 0.5
    assert Options(**options.as_dict()) == options
    with pytest.raises(TypeError, match="unknown option"):
        options.replace(colour="blue")
