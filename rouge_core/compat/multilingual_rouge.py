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
from ..text.languages import ALIASES, LANGUAGES
from ..text.multilingual import stemmer_name
from ..text.options import Options, profile
from ..scorer.scoring import Result, prepare, score_documents
from ..text.stemming import get_stemmer
from .rouge_score import RougeScorer as _RougeScoreScorer
from .rouge_score.rouge_scorer import _kept, _method_for
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
