"""A drop-in for XL-Sum's multilingual ROUGE scorer (`multilingual_rouge.rouge_scorer.RougeScorer`,
the csebuetnlp fork of rouge-score published as `multilingual-rouge`), on rouge_core.

    from rouge_core.compat.multilingual_rouge import RougeScorer
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], lang="thai")
    scorer.score(target, prediction)["rougeL"].fmeasure
    scorer.score_multi(targets, prediction)

Same numbers as multilingual-rouge with `use_stemmer=False` (the tests compare floats with ==
on generated text in every language it names), same `Score(precision, recall, fmeasure)`
tuples, same rouge types and errors. Tokenization is rouge_core.text.multilingual (see there):
`lang` takes XL-Sum's names and aliases as XL-Sum does (exact spelling: "bangla" is Bengali,
"Thai" is no language it knows, so it gets the default tokenizer, as in XL-Sum). Its
rougeLsum reads each line with the basic tokenizer only (no segmenter), as XL-Sum's does.

With `use_stemmer=True`: Porter without `lang`, the language's stemmer with one (tokens longer
than 3 characters), no stemming for a language without a stemmer (XL-Sum warns; so does
this). Differences from XL-Sum, which cannot run these here as published:
- Snowball languages (arabic, danish, dutch, english, finnish, french, german, hungarian,
  italian, norwegian, portuguese, romanian, russian, spanish, swedish): XL-Sum asks NLTK to
  leave NLTK's stopwords of the language unstemmed, which needs NLTK's stopword data (not
  installable here; without it XL-Sum fails); here those stopwords are stemmed like any word.
- Bengali: XL-Sum's stemmer reads a rule file missing from its published package (it fails);
  here `use_stemmer=True, lang="bengali"` is a ValueError saying so.
Hindi (its suffix list), Turkish (TurkishStemmer) and Porter are the same stemmers.

Not supported: XL-Sum's `callable_tokenizer`, `callable_stemmer` and `min_char_length` keywords
(a TypeError says so; pass your own tokenizer to rouge_core as `Options(tokenizer=...)`).

Beyond XL-Sum: `score_multi(targets, prediction)` (the target with the best F per type, as
rouge-score has it) and `explain(target, prediction)` (rouge_core Results with evidence and
the signature: `profile:multilingual|tok:multilingual|...|lang:thai`).
"""

from __future__ import annotations

import warnings
from typing import Sequence

from ..errors import excerpt
from ..kernels import native
from ..scorer.cost import native_bound
from ..scorer.inputs import check_unicode
from ..text.languages import ALIASES, LANGUAGES
from ..text.multilingual import stemmer_name
from ..text.options import Options, profile
from ..scorer.scoring import Result, _plans_of, prepare, score_documents
from ..text.stemming import get_stemmer
from ..text.tokenize import term_filter
from ..text.words import splitter
from .rouge_score import RougeScorer as _RougeScoreScorer
from .rouge_score.rouge_scorer import _LCS_TYPES, _kept, _method_for, _records_scores
from .rouge_score.scoring import Score

__all__ = ["RougeScorer", "Score"]

_UNSUPPORTED = ("callable_tokenizer", "callable_stemmer", "min_char_length")


def _language(lang: str | None) -> str | None:
    """XL-Sum's reading of `lang`: its aliases mapped, then used only where it matches a name
    exactly (anything else means no language-specific step)."""
    if not lang:
        return None
    lang = ALIASES.get(lang, lang)
    return lang


class RougeScorer(_RougeScoreScorer):
    """XL-Sum's RougeScorer, computed by rouge_core (profile "multilingual")."""

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False, lang: str | None = None, **kwargs):
        unknown = set(kwargs) - set(_UNSUPPORTED)
        if unknown:
            raise TypeError(f"RougeScorer got unexpected keyword argument(s): {', '.join(sorted(unknown))}")
        if any(kwargs.get(k) is not None and not (k == "min_char_length" and kwargs[k] == 3) for k in kwargs):
            raise TypeError(f"this drop-in does not support {', '.join(sorted(kwargs))}; pass your own tokenizer "
                            "to rouge_core as Options(tokenizer=...)")
        super().__init__(rouge_types)
        key = _language(lang)
        known = key if key in LANGUAGES else None
        stemmer = stemmer_name(key, use_stemmer)
        if use_stemmer and stemmer == "none":
            warnings.warn(f"unknown stemmer language {excerpt(lang)}: tokens are not stemmed (as in XL-Sum)", stacklevel=2)
        if stemmer != "none":
            get_stemmer(stemmer)  # fails now (Bengali, a missing package), not at the first score
        self.lang = lang
        self._options = profile("multilingual", language=known, stemmer=stemmer)
        # XL-Sum's rougeLsum: each line through the basic tokenizer, stemmed, no segmenter
        self._summary_options: Options = self._options.replace(tokenizer="xlsum-basic", language=None,
                                                               profile="multilingual")

    _terms_plans: tuple | None = None  # _plans_for_terms's key and plans

    def score(self, target, prediction) -> dict[str, Score]:
        """Scores of `prediction` against one `target`: {rouge type: Score}."""
        if type(target) is str and type(prediction) is str:
            fast = self._terms_scores(target, prediction)
            if fast is not None:
                return fast
        return self._scores(target, prediction)

    def _terms_scores(self, target: str, prediction: str) -> dict[str, Score] | None:
        """`score` from each text's terms per line (the tokenizers' `terms`, as the pipeline's
        Documents hold them) interned and scored by the kernels with the plans and the bound
        of `score_documents`, so the same numbers, without making Documents or Results; None
        where the ordinary path must score (the pure path, a text whose terms need offsets to
        be found, stemming, a side beyond the kernels' bound)."""
        methods = self._methods()
        plans = self._plans_for_terms(methods)
        if plans is None:
            return None
        for text, what in ((prediction, "prediction"), (target, "target")):  # as prepare checks them
            if not text.isascii():
                check_unicode(text, what)
        records: dict = {}
        for options, terms_of, lowercase, compiled, max_side in plans:
            cand = _line_tokens(terms_of, prediction, lowercase)
            ref = _line_tokens(terms_of, target, lowercase) if cand is not None else None
            if ref is None:
                return None
            scored = native.score_pair(compiled, cand, (ref,), options.alpha, options.empty == "nan", None, max_side)
            if type(scored) is not dict:
                return None
            records.update(scored)
        return _records_scores(records, tuple((t, t in _LCS_TYPES) for t in dict.fromkeys(self.rouge_types)))

    def _plans_for_terms(self, methods: tuple) -> tuple | None:
        """Per group of methods scored together (XL-Sum's tokens for all but rougeLsum, its
        basic tokenizer's lines for rougeLsum): (options, the tokenizer's `terms`, lower-case,
        the kernels' plans, the most tokens a side may have within the default cost bound, as
        score_documents has it: native_bound); kept while the methods and the kernels stay;
        None when the kernels are off or a group cannot be scored from terms alone."""
        kernels = native.KERNELS
        kept = self._terms_plans
        if kept is not None and kept[0] is kernels and kept[1] == methods:
            return kept[2]
        plans: tuple | None = ()
        flat = tuple(m for m in methods if m != "rougeLsum")
        groups = [(flat, self._options)] if flat else []
        if "rougeLsum" in methods:
            groups.append((("rougeLsum",), self._summary_options))
        for names, options in groups if kernels is not None else ():
            tokenizer, lowercase, stemmer, stopwords, sentence_split, _, limit_words, limit_bytes, _ = \
                options.tokenize_key()
            terms_of = getattr(splitter(tokenizer), "terms", None)
            _, _, planned, compiled = _plans_of(names, options, 1)
            if (terms_of is None or compiled is None or sentence_split != "newline" or limit_words or limit_bytes
                    or options.round_pr is not None or term_filter(stemmer, stopwords, options.data_dir) is not None):
                plans = None
                break
            plans += ((options, terms_of, lowercase, compiled, native_bound(planned, options, 1, None)),)
        if kernels is None:
            plans = None
        self._terms_plans = (kernels, methods, plans)
        return plans

    def _results(self, target: str, prediction: str, evidence: bool, kept: dict | None = None) -> dict[str, Result]:
        methods = [_method_for(t) for t in self.rouge_types]
        out: dict[str, Result] = {}
        flat = [m for m in methods if m != "rougeLsum"]
        if flat:
            cand = _kept(kept, "flat", lambda: prepare(prediction, self._options, "prediction"))
            result = score_documents(cand, [prepare(target, self._options, "target")], flat, self._options,
                                     evidence=evidence)
            out.update({m: result for m in flat})
        if "rougeLsum" in methods:
            o = self._summary_options
            cand = _kept(kept, "sentences", lambda: prepare(prediction, o, "prediction"))
            result = score_documents(cand, [prepare(target, o, "target")], ["rougeLsum"], o, evidence=evidence)
            out["rougeLsum"] = result
        return out


def _line_tokens(terms_of, text: str, lowercase: bool):
    """The kernels' Tokens of a text's terms per non-empty line (one sentence each, as the
    pipeline's Document of them: rouge_core.text.tokenize._terms_document); None when the
    tokenizer cannot tell them without offsets."""
    per_line = terms_of(text, lowercase)
    if per_line is None:
        return None
    terms: list[str] = []
    bounds = []
    for words in per_line:
        first = len(terms)
        terms.extend(words)
        bounds.append((first, len(terms)))
    return native.tokens(tuple(terms), tuple(bounds))
