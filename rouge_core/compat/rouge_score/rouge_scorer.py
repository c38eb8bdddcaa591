"""`rouge_score.rouge_scorer`: a drop-in for Google's rouge-score `RougeScorer`, on rouge_core.

    from rouge_core.compat.rouge_score import rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    scorer.score(target, prediction)["rougeL"].fmeasure
    scorer.score_multi(targets, prediction)

Same numbers (bit for bit: the tests compare floats with ==), same return shape: a dict
{rouge type: scoring.Score(precision, recall, fmeasure)}. Same rouge types (rouge1..rouge9,
rougeL, rougeLsum) and the same errors for others ("Invalid rouge type: ...", "rougen
requires positive n: ...", raised by `score`, as rouge-score does).

- Texts are `str` or UTF-8 `bytes` (TensorFlow's `.numpy()` strings), read as rouge-score
  reads them: for rouge1..9 and rougeL its tokenizer lower-cases bytes before decoding them;
  rougeLsum decodes them first.
- `use_stemmer`: NLTK's Porter stemmer on tokens longer than 3 characters, as rouge-score.
- `tokenizer`: any object with `.tokenize(text) -> list of tokens` is honoured exactly as
  rouge-score honours it (its tokens are compared as given; `use_stemmer` is then up to it;
  rougeLsum hands it one decoded sentence at a time). A `tokenizers.DefaultTokenizer` is
  recognised and computed by rouge_core's own tokenizer (same tokens).
- `split_summaries=True` splits rougeLsum texts into sentences with `nltk.sent_tokenize`
  when NLTK's punkt data is installed (as rouge-score does). Without punkt data rouge-score
  itself raises LookupError; this drop-in falls back to rouge_core's punctuation splitter
  (a break after ., !, ? and CJK stops followed by white space, and at every newline), so
  numbers can differ from rouge-score's on texts where punkt would split differently
  (abbreviations such as "Dr. Smith"). `uses_punkt()` says which splitter is in use.
- `score_multi` keeps, for each type, the target with the highest F (the first on ties),
  as rouge-score does; `score_multi([], ...)` raises ValueError, as rouge-score does.

Beyond rouge-score: `RougeScorer.explain(target, prediction)` returns the rouge_core
`Result` (evidence and signature) behind the numbers.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Sequence

from ...families.lcs import lcs_alignment
from ...text.options import Options, profile
from ...kernels import native
from ...scorer.scoring import _COMBINED_BY_THE_KERNELS, Result, _texts_plan, score_documents
from ...text.document import Document, pretokenized
from ...text.sentences import split_sentences
from ...text.tokenize import tokenize_with
from .scoring import BaseScorer, Score
from .tokenize import as_text, lowered_text
from .tokenizers import DefaultTokenizer

__all__ = ["RougeScorer", "Score", "lcs_ind", "uses_punkt"]

_NGRAM_TYPE = re.compile(r"rouge[0-9]$")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_STR_ONLY = frozenset((str,))


def uses_punkt() -> bool:
    """True when NLTK's punkt data is installed, so `split_summaries=True` uses nltk.sent_tokenize."""
    try:
        import nltk

        try:
            nltk.data.find("tokenizers/punkt_tab")
        except LookupError:
            nltk.data.find("tokenizers/punkt")
        return True
    except (ImportError, LookupError):
        return False


def _split_into_sentences(text: str) -> list[str]:
    if uses_punkt():
        import nltk

        try:
            return list(nltk.sent_tokenize(text))
        except LookupError:  # punkt present but not the variant this NLTK wants
            pass
    return [text[a:b] for a, b in split_sentences(text, "punctuation")]


def _method_for(rouge_type: str) -> str:
    if rouge_type in ("rougeL", "rougeLsum"):
        return rouge_type
    if _NGRAM_TYPE.match(str(rouge_type)):
        if int(rouge_type[5:]) <= 0:
            raise ValueError("rougen requires positive n: %s" % rouge_type)
        return rouge_type
    raise ValueError("Invalid rouge type: %s" % rouge_type)


class _TokenListDocument(Document):
    """A user tokenizer's tokens as a Document whose text and Token objects are made only if
    someone asks (evidence, highlighting): scoring reads the terms and sentence bounds alone,
    and building a Token per token would cost more than the scoring. Equal, field by field,
    to `pretokenized(sentences)`."""

    @cached_property
    def _eager(self) -> Document:
        return pretokenized(self._sentences())

    def _sentences(self) -> list[list[str]]:
        terms = self.term_tuple
        return [list(terms[a:b]) for a, b in self.sentence_bounds]

    @cached_property
    def text(self) -> str:  # type: ignore[override]
        return self._eager.text

    @cached_property
    def tokens(self):  # type: ignore[override]
        return self._eager.tokens

    @cached_property
    def sentence_spans(self):  # type: ignore[override]
        return self._eager.sentence_spans

    def __len__(self) -> int:
        return len(self.term_tuple)

    def __eq__(self, other):
        return self._eager == other if isinstance(other, Document) else NotImplemented

    __hash__ = Document.__hash__

    def __reduce__(self):
        return (pretokenized, (self._sentences(),))


def _token_list_document(sentences: list[list]) -> Document:
    """The Document of token lists (one per sentence) from a user tokenizer; non-str tokens are
    compared by their str(), as rouge_core compares terms."""
    terms: list[str] = []
    bounds: list[tuple[int, int]] = []
    for tokens in sentences:
        first = len(terms)
        terms.extend(tokens)
        bounds.append((first, len(terms)))
    if not _STR_ONLY.issuperset(map(type, terms)):  # a C-level check: tokens are almost always str
        terms = [t if isinstance(t, str) else str(t) for t in terms]
    doc = object.__new__(_TokenListDocument)
    doc.__dict__.update(sentence_bounds=tuple(bounds), lcs_view=None, term_tuple=tuple(terms))
    return doc


def _whole_text(text) -> str:
    """What rouge-score's tokenizer sees of a text for rouge1..9 and rougeL, as a str that
    rouge_core's rouge-score tokenizer (which lower-cases again) splits into the same tokens:
    bytes are lower-cased before decoding, so their non-ASCII letters stay separators."""
    if isinstance(text, (bytes, bytearray)):
        return _NON_ASCII.sub(" ", lowered_text(text))
    return text


class RougeScorer(BaseScorer):
    """rouge-score's RougeScorer, computed by rouge_core (profile "rouge-score")."""

    _checked: tuple = (None, ())  # the rouge types last checked, and their methods (`_methods`)
    _kept_plan: tuple | None = None  # _kernel_plan's key and plan

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False, split_summaries: bool = False,
                 tokenizer=None):
        self.rouge_types = rouge_types
        self._split_summaries = split_summaries
        if type(tokenizer) is DefaultTokenizer:  # rouge-score's own tokens: rouge_core computes them
            use_stemmer, tokenizer = tokenizer.use_stemmer, None
        self._tokenizer = tokenizer
        self._options: Options = profile("rouge-score", stemmer="porter" if use_stemmer else "none")
        o = self._options
        self._tokenize_args = (o.tokenizer, o.lowercase, o.stemmer, o.stopwords)

    @property
    def options(self) -> Options:
        return self._options

    # -- documents ----------------------------------------------------------------------

    def _default(self, text: str, split: str) -> Document:
        return tokenize_with(text, *self._tokenize_args, split, self._options.data_dir, None, None, False)

    def _flat(self, text) -> Document:
        """The tokens of the whole text (rougeN, rougeL)."""
        if self._tokenizer is not None:
            return _token_list_document([self._tokenizer.tokenize(text)])
        return self._default(_whole_text(text), "none")

    def _sentences(self, text) -> Document:
        """One sentence per line (or per nltk/punctuation sentence), empty ones dropped (rougeLsum)."""
        text = as_text(text)
        if self._tokenizer is None and not self._split_summaries:
            return self._default(text, "newline")
        sentences = _split_into_sentences(text) if self._split_summaries else text.split("\n")
        sentences = [s for s in sentences if len(s)]
        if self._tokenizer is not None:
            return _token_list_document([self._tokenizer.tokenize(s) for s in sentences])
        return _token_list_document([self._default(s, "none").term_tuple for s in sentences])

    # -- scoring --------------------------------------------------------------------------

    def _results(self, target, prediction, evidence: bool, kept: dict | None = None) -> dict[str, Result]:
        """Each type's Result of `prediction` against `target`. `kept`: the prediction's
        Documents made by earlier calls with the same prediction (score_multi's, so the
        prediction is tokenized once whatever the number of targets), added to as made."""
        methods = [_method_for(t) for t in self.rouge_types]
        flat = [m for m in methods if m != "rougeLsum"]
        summary = [m for m in methods if m == "rougeLsum"]
        out: dict[str, Result] = {}
        if self._tokenizer is None and not self._split_summaries and _same_both_ways(target) \
                and _same_both_ways(prediction):
            # One tokenization serves every type: the newline-split document's tokens are the
            # whole text's tokens (a newline separates tokens either way).
            ref = self._default(as_text(target), "newline")
            cand = _kept(kept, "newline", lambda: self._default(as_text(prediction), "newline"))
            result = score_documents(cand, [ref], methods, self._options, evidence=evidence)
            return {m: result for m in methods}
        if flat:
            cand = _kept(kept, "flat", lambda: self._flat(prediction))
            result = score_documents(cand, [self._flat(target)], flat, self._options, evidence=evidence)
            out.update({m: result for m in flat})
        if summary:
            cand = _kept(kept, "sentences", lambda: self._sentences(prediction))
            result = score_documents(cand, [self._sentences(target)], summary, self._options, evidence=evidence)
            out["rougeLsum"] = result
        return out

    def _methods(self) -> tuple[str, ...]:
        """rouge_core's method of each rouge type, checked as rouge-score checks them (kept
        while the types stay the same)."""
        types = tuple(self.rouge_types)
        if types != self._checked[0]:
            self._checked = (types, tuple(_method_for(t) for t in types))
        return self._checked[1]

    def score(self, target, prediction) -> dict[str, Score]:
        """Scores of `prediction` against one `target`: {rouge type: Score}."""
        if type(target) is str and type(prediction) is str:
            fast = self._kernel_scores((target,), prediction)
            if fast is not None:
                return fast
        return self._scores(target, prediction)

    def _kernel_scores(self, targets: tuple, prediction: str) -> dict[str, Score] | None:
        """{rouge type: Score} of `prediction` against its targets (str), the best target by F
        (the first on ties) when there are several, from one call to the kernels that makes
        no Document or Result, the plan kept (_kernel_plan); None when the ordinary path must
        score them."""
        plan = self._kernel_plan(len(targets))
        if plan is None:
            return None
        bare, compiled, alpha, empty_nan, score_fn, max_side, max_chars, combine, kinds = plan
        chars = len(prediction)
        for target in targets:
            chars += len(target)
        if chars > max_chars:
            return None
        scored = bare(compiled, prediction, targets, alpha, empty_nan, score_fn, max_side, combine)
        if scored is None or scored is NotImplemented:
            return None
        return _records_scores(scored[2], kinds)

    def _kernel_plan(self, n_targets: int) -> tuple | None:
        """(the kernels' scorer that makes no Document, its plans, alpha, empty_nan, score_fn,
        max_side, the most characters it takes (as _texts_plan gives them), how the kernels
        combine the targets (best F: score_multi's rule), per rouge type whether it is an LCS
        type), kept on the scorer while its rouge types, settings, the number of targets and
        the kernels stay the same (a loop over pairs asks the same every time); None when the
        ordinary path scores (a user tokenizer, split summaries, a subclass, settings the
        compiled tokenizers do not take, a method without a kernel)."""
        kept = self._kept_plan
        if (kept is not None and kept[0] is native.KERNELS and kept[1] == n_targets and kept[2] == self.rouge_types
                and kept[3] == (self._tokenizer, self._split_summaries, self._options)):
            return kept[4]
        types = self.rouge_types
        plan = None
        if (n_targets and self._tokenizer is None and not self._split_summaries
                and type(self)._results is RougeScorer._results):
            texts = _texts_plan(self._methods(), self._options, n_targets, None)
            if texts is not None and texts[9] == (_BEST_F if n_targets > 1 else 0):
                _, _, compiled, max_side, max_chars, alpha, empty_nan, score_fn, bare, combine = texts
                plan = (bare, compiled, alpha, empty_nan, score_fn, max_side, max_chars, combine,
                        tuple((t, t in _LCS_TYPES) for t in dict.fromkeys(types)))
        snapshot = type(types)(types) if isinstance(types, (list, tuple)) else types
        self._kept_plan = (native.KERNELS, n_targets, snapshot, (self._tokenizer, self._split_summaries,
                                                                 self._options), plan)
        return plan

    def _scores(self, target, prediction, kept: dict | None = None) -> dict[str, Score]:
        results = self._results(target, prediction, False, kept)
        out = {}
        for rouge_type in self.rouge_types:
            method = results[rouge_type][rouge_type]
            out[rouge_type] = _score_of(rouge_type, method.score, method.per_reference[0].stats)
        return out

    def score_multi(self, targets: Sequence, prediction) -> dict[str, Score]:
        """For each type, the score against the target with the highest F (the first on ties)."""
        # str texts: one kernel call (the prediction tokenized once, the best target chosen there)
        if type(prediction) is str and isinstance(targets, (list, tuple)) and all(type(t) is str for t in targets):
            best = self._kernel_scores(tuple(targets), prediction)
            if best is not None:
                return best
        kept: dict = {}  # the prediction's Documents, made for the first target
        score_dicts = [self._scores(t, prediction, kept) for t in targets]
        if not score_dicts:
            raise ValueError("attempt to get argmax of an empty sequence")
        best = {}
        for k in self.rouge_types:
            values = [s[k].fmeasure for s in score_dicts]
            index = max(range(len(values)), key=lambda i: (values[i], -i))
            best[k] = score_dicts[index][k]
        return best

    def explain(self, target, prediction) -> dict[str, Result]:
        """The rouge_core Result (with evidence and signature) behind each type's score."""
        return self._results(target, prediction, evidence=True)


_LCS_TYPES = frozenset(("rougeL", "rougeLsum"))
# rouge-score's _score_lcs and _summary_level_lcs return Score(precision=0, recall=0, fmeasure=0)
# (integers) when a side has no token; its n-gram scores are 0.0 (a division) there.
_EMPTY_LCS = Score(precision=0, recall=0, fmeasure=0)
_BEST_F = _COMBINED_BY_THE_KERNELS["best-f"]  # score_multi's rule, as the kernels' combine code
_new_score = tuple.__new__  # Score(p, r, f) without namedtuple's Python-level __new__



def _records_scores(records: dict, kinds) -> dict[str, Score]:
    """{rouge type: Score} from the kernels' records by method name (a rouge type's method is
    named as the type); `kinds`: (rouge type, whether an LCS type) pairs. An LCS type on a
    side without tokens is rouge-score's integer zeros."""
    out = {}
    for rouge_type, lcs in kinds:
        record = records[rouge_type]
        stats = record.stats
        if lcs and (not stats.cand_total or not stats.ref_total):
            out[rouge_type] = _EMPTY_LCS
        else:
            score = record.score
            out[rouge_type] = _new_score(Score, (score.precision, score.recall, score.fmeasure))
    return out


def _kept(kept: dict | None, key: str, make):
    """kept[key], made by make() the first time (always made when kept is None)."""
    if kept is None:
        return make()
    if key not in kept:
        kept[key] = make()
    return kept[key]


def _score_of(rouge_type: str, score, stats) -> Score:
    """rouge-score's Score of one type on one target, from rouge_core's score and statistics:
    the integers 0 for rougeL and rougeLsum when a side has no token, as rouge-score returns."""
    if rouge_type in _LCS_TYPES and (not stats.cand_total or not stats.ref_total):
        return _EMPTY_LCS
    return Score(score.precision, score.recall, score.fmeasure)


def _same_both_ways(text) -> bool:
    """A str, or bytes that read the same whether lower-cased before or after decoding (ASCII)."""
    return not isinstance(text, (bytes, bytearray)) or bytes(text).isascii()


def lcs_ind(ref: Sequence, can: Sequence) -> list[int]:
    """Indices into `ref` of one longest common subsequence of `ref` and `can` (rouge-score's choice)."""
    return [i for i, _ in lcs_alignment(ref, can)]
