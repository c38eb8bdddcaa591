"""One frozen options object; profiles are named presets of it."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, fields, replace

from .errors import excerpt
from .params import ROUND_DECIMALS
from .stats import alpha_from_beta, beta_from_alpha
from .sentences import SENTENCE_SPLITTERS
from .languages import UNRUNNABLE_STEMMERS, canonical
from .multilingual import STEMMER_LANGUAGES, STEMMER_PREFIX
from .stemming import STEMMERS, is_stemmer_name
from .words import TOKENIZERS, UserTokenizer, word_splitter

MULTI_REF_MODES = ("pooled", "best-recall", "best-f", "max", "mean")
PROFILES = ("rouge-1.5.5", "rouge-score", "matlab", "reval", "multilingual")


@dataclass(frozen=True)
class Options:
    """How texts are processed and scores are formed. Hashable, so results can be cached.

    multi_ref:
      pooled       sum hits and totals over references (ROUGE-1.5.5 -f A)
      best-recall  the reference with the highest recall (ROUGE-1.5.5 -f B)
      best-f       the reference with the highest F (rouge-score score_multi)
      max          the maximum of each of P, R and F over references (MATLAB)
      mean         the mean of per-reference P, R and F
    round_pr: ROUGE-1.5.5 prints P and R to 5 decimals and computes F from the rounded
      values; with `round_pr=5` scores are rounded the same way (and `-f B` compares what
      the script's routine for each metric compares; the rules: rouge_core.rules155).
    wlcs_form: "rouge155" (what the script computes) or "paper" (Lin 2004).
    su_form: "rouge155" (unigrams of all positions but the last) or "start-token" (MATLAB).
    empty: "zero" (scores of empty sides are 0) or "nan" (MATLAB: undefined ratios are NaN).
    limit_words / limit_bytes: keep only the start of every text, candidate and references
      alike (ROUGE-1.5.5 -l / -b, counted its way: see rouge_core.limits); None or 0: no limit.
    lcs_byte_limit_defect: ROUGE-1.5.5's ROUGE-L/W reader ignores the running byte count
      under -b, so L and W see whole sentences while clipping uses the cut text.
    best_sentence_clip: rougeLsum-best counts a reference token at most as often as it occurs
      (True). False is reval's ROUGELsum, which adds each candidate sentence's best LCS
      unclipped: a reference sentence that is the best match of several candidate sentences
      counts each time, so recall can exceed 1 (a named reval quirk: "a\na" against "a"
      gives R = 2).
    tokenizer: a name from rouge_core.words.TOKENIZERS, or the user's own function text ->
      tokens (strings, or (string, start, end) triples) or an object with `tokenize(text)`;
      it enters the signature by its qualified name.
    language: None or a name from rouge_core.languages.LANGUAGES (XL-Sum's aliases such as
      "bangla" or "chinese_simplified" are accepted and stored by their canonical name). For
      `unicode` and `cjk` it says whether Han characters are Chinese or Japanese words and
      gives Turkish and Azerbaijani their I/ı, İ/i; for `multilingual` it chooses XL-Sum's
      segmenter.
    strip_diacritics: `unicode` and `cjk` drop Arabic harakat, Hebrew niqqud and cantillation
      and the Arabic tatweel from words (kept by default).
    """

    tokenizer: str = "rouge-score"
    lowercase: bool = True
    stemmer: str = "none"
    stopwords: str | frozenset = "none"
    sentence_split: str = "newline"
    multi_ref: str = "best-f"
    alpha: float = 0.5
    round_pr: int | None = None
    wlcs_form: str = "paper"
    su_form: str = "rouge155"
    empty: str = "zero"
    limit_words: int | None = None
    limit_bytes: int | None = None
    lcs_byte_limit_defect: bool = False
    best_sentence_clip: bool = True
    data_dir: str | None = None
    language: str | None = None
    strip_diacritics: bool = False
    profile: str = "custom"

    def __post_init__(self) -> None:
        # Options are the front door of every setting: each field is checked here, with a
        # message that names it, so a bad value never fails deep inside scoring.
        for name in ("sentence_split", "multi_ref", "wlcs_form", "su_form", "empty", "stemmer", "profile"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a string, not {type(value).__name__}")
        if not isinstance(self.tokenizer, str):
            UserTokenizer.wrap(self.tokenizer)  # TypeError unless it is a function or has tokenize()
        elif self.tokenizer not in TOKENIZERS:
            raise ValueError(f"unknown tokenizer {excerpt(self.tokenizer)}; choose one of {TOKENIZERS} "
                             "or pass a function (text -> tokens)")
        object.__setattr__(self, "language", canonical(self.language))
        for name in ("lowercase", "lcs_byte_limit_defect", "best_sentence_clip", "strip_diacritics"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be True or False, not {excerpt(getattr(self, name))}")
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float)):
            raise TypeError(f"alpha must be a number in [0, 1], not {type(self.alpha).__name__}")
        for name, what in (("limit_words", "a word limit"), ("limit_bytes", "a byte limit")):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be None or a non-negative integer ({what}), got {excerpt(value)}")
        if self.round_pr is not None and (isinstance(self.round_pr, bool) or not isinstance(self.round_pr, int)
                                          or not ROUND_DECIMALS.minimum <= self.round_pr <= ROUND_DECIMALS.maximum):
            raise ValueError(f"round_pr must be None (no rounding) or an integer from {ROUND_DECIMALS.minimum} to "
                             f"{ROUND_DECIMALS.maximum} (the decimals P and R are rounded to), got "
                             f"{excerpt(self.round_pr)}")
        if self.data_dir is not None and not isinstance(self.data_dir, (str, os.PathLike)):
            raise TypeError(f"data_dir must be a folder path or None, not {type(self.data_dir).__name__}")
        if not is_stemmer_name(self.stemmer):
            raise ValueError(f"unknown stemmer {excerpt(self.stemmer)}; choose one of {STEMMERS}, snowball-<language> "
                             "or xlsum-<language>")
        if self.stemmer.startswith(STEMMER_PREFIX) and self.stemmer not in XLSUM_STEMMERS:
            raise ValueError(f"unknown XL-Sum stemmer {excerpt(self.stemmer)}; choose one of {', '.join(XLSUM_STEMMERS)}")
        if isinstance(self.stopwords, str):
            if self.stopwords not in ("none", "smart"):
                raise ValueError(f"unknown stopword list {excerpt(self.stopwords)}; use 'none', 'smart' or a set of words")
        elif not isinstance(self.stopwords, (set, frozenset, list, tuple)) or not all(
                isinstance(w, str) for w in self.stopwords):
            raise TypeError("stopwords must be 'none', 'smart' or a set of words (strings)")
        if self.sentence_split not in SENTENCE_SPLITTERS:
            raise ValueError(f"unknown sentence splitter {excerpt(self.sentence_split)}; choose one of {SENTENCE_SPLITTERS}")
        if self.multi_ref not in MULTI_REF_MODES:
            raise ValueError(f"unknown multi-reference mode {excerpt(self.multi_ref)}; choose one of {MULTI_REF_MODES}")
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError(f"alpha must be in [0, 1], got {self.alpha}")
        if self.wlcs_form not in ("rouge155", "paper"):
            raise ValueError(f"unknown ROUGE-W form {excerpt(self.wlcs_form)}; choose 'rouge155' or 'paper'")
        if self.su_form not in ("rouge155", "start-token"):
            raise ValueError(f"unknown ROUGE-SU form {excerpt(self.su_form)}; choose 'rouge155' or 'start-token'")
        if self.empty not in ("zero", "nan"):
            raise ValueError(f"unknown empty-input rule {excerpt(self.empty)}; choose 'zero' or 'nan'")
        if isinstance(self.stopwords, (set, list, tuple)):
            object.__setattr__(self, "stopwords", frozenset(self.stopwords))

    def __hash__(self) -> int:
        # Options key the method/signature caches on every scoring call; hash the fields once.
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_hash", None)  # string hashes differ between processes
        return state

    @property
    def beta(self) -> float:
        return beta_from_alpha(self.alpha)

    def with_beta(self, beta: float) -> "Options":
        """A copy with α = 1/(1+β²); as any change, it leaves the profile unless the tool offers
        it (ROUGE-1.5.5's -p does; rouge-score has no β)."""
        return self.replace(beta=beta)

    def replace(self, **changes) -> "Options":
        """A copy with some fields changed; the profile name becomes "custom" unless given."""
        if "beta" in changes:
            changes["alpha"] = alpha_from_beta(changes.pop("beta"))
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
        if any(getattr(self, k) != v for k, v in changes.items() if k != "profile"):
            changes.setdefault("profile", "custom")
        return replace(self, **changes)

    def tokenize_key(self) -> tuple:
        """The fields that decide tokenization (one tokenization serves every method), in the
        order of `tokenize_with`'s parameters; computed once per Options."""
        key = self.__dict__.get("_tokenize_key")
        if key is None:
            # a name, or the tokenizer resolved with the options that change its words
            splitter = word_splitter(self.tokenizer, self.language, self.strip_diacritics)
            key = (splitter, self.lowercase, self.stemmer, self.stopwords, self.sentence_split, self.data_dir,
                   self.limit_words, self.limit_bytes, self.lcs_byte_limit_defect)
            object.__setattr__(self, "_tokenize_key", key)
        return key

    def as_dict(self) -> dict:
        d = asdict(self)
        if isinstance(self.stopwords, frozenset):
            d["stopwords"] = sorted(self.stopwords)
        if not isinstance(self.tokenizer, str):
            d["tokenizer"] = UserTokenizer.wrap(self.tokenizer).name
        return d


_PRESETS = {
    # The Perl script: byte tokenizer, pooled references (-f A), P and R rounded before F.
    "rouge-1.5.5": dict(tokenizer="rouge155", multi_ref="pooled", round_pr=5, wlcs_form="rouge155", su_form="rouge155",
                        lcs_byte_limit_defect=True),
    # Google's rouge-score: its tokenizer, best F over references (score_multi).
    "rouge-score": dict(tokenizer="rouge-score", multi_ref="best-f"),
    # MATLAB rougeEvaluationScore: tokens as given (case kept), maximum over references, NaN rules.
    "matlab": dict(tokenizer="whitespace", lowercase=False, multi_ref="max", su_form="start-token", empty="nan"),
    # Go reval: token lists as given, one reference per call; best F when given several.
    # Its ROUGELsum adds unclipped best-sentence LCS lengths (recall can exceed 1).
    "reval": dict(tokenizer="whitespace", lowercase=False, multi_ref="best-f", best_sentence_clip=False),
    # XL-Sum's multilingual rouge-score (multilingual-rouge): its tokenizer and segmenters for
    # `language`, rouge-score's scoring; use_stemmer is stemmer="xlsum-<language>".
    "multilingual": dict(tokenizer="multilingual", multi_ref="best-f"),
}


def profile(name: str = "rouge-score", **overrides) -> Options:
    """Options under which the numbers equal the named tool's.

    Overrides that merely restate the preset keep the profile name (e.g. a stemmer the
    tool itself offers: `profile("rouge-score", stemmer="porter")`).
    """
    key = name.lower().replace("_", "-")
    aliases = {"rouge155": "rouge-1.5.5", "rouge-155": "rouge-1.5.5", "perl": "rouge-1.5.5", "rouge_score": "rouge-score",
               "xlsum": "multilingual", "multilingual-rouge": "multilingual"}
    key = aliases.get(key, key)
    if key not in _PRESETS:
        raise ValueError(f"unknown profile {excerpt(name)}; choose one of {PROFILES}")
    base = Options(profile=key, **_PRESETS[key])
    native = _NATIVE_OPTIONS[key]
    custom = {k: v for k, v in overrides.items() if not (k in native and (native[k] == ANY or v in native[k]))}
    base = replace(base, **{k: v for k, v in overrides.items() if k not in custom})
    return base.replace(**custom) if custom else base


ANY = "any value"
XLSUM_STEMMERS = tuple(STEMMER_PREFIX + name for name in STEMMER_LANGUAGES)
# those that run (given the [multilingual] extra where they need a package of it)
RUNNABLE_XLSUM_STEMMERS = tuple(STEMMER_PREFIX + name for name in STEMMER_LANGUAGES if name not in UNRUNNABLE_STEMMERS)
# Settings each tool itself offers: choosing them stays within the profile.
_NATIVE_OPTIONS = {
    "rouge-1.5.5": {
        "stemmer": ("none", "rouge155"),
        "stopwords": ("none", "smart"),
        "multi_ref": ("pooled", "best-recall"),
        "alpha": ANY,  # -p
        "limit_words": ANY,  # -l
        "limit_bytes": ANY,  # -b
        "data_dir": ANY,  # -e
    },
    "rouge-score": {"stemmer": ("none", "porter"), "sentence_split": ("newline", "punctuation")},
    "multilingual": {"stemmer": ("none", *XLSUM_STEMMERS), "language": ANY},
    "matlab": {},
    "reval": {},
}
