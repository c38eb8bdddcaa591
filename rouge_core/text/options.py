"""One frozen options object, its fields split by job; profiles are named presets of it.

Every field of `Options` is declared with the job it has in the pipeline and how the
signature shows it (`option(default, job, signature=Shown(...))`), and everything that
depends on that split is derived from those declarations, never listed again:

    TOKENS      text -> tokens: decides the Document (one tokenization serves every method);
                `Options.tokenize_key()`, in the order rouge_core.text.tokenize.tokenize_with takes them
    STATISTICS  tokens -> statistics: read only by the method families that name them
                (rouge_core.families.methods `Family.statistics_options`), and so in their signatures only
    SCORE       statistics -> score: applied to statistics once they exist (rouge_core.scorer.scoring
                `rescore` changes them without computing anything again)
    LABEL       the profile's name: it changes no number

`Options.part(job)` is one job's (field, value) pairs, a key of its own; `statistics_key()`
is what decides the statistics (TOKENS and STATISTICS). rouge_core.scorer.signature reads its keys,
labels and values from the `Shown` of each field: the fields shown `always` in the order of
the jobs (the profile, then how texts became tokens, the reference count, then how statistics
became scores), the others when set away from their `usual` value, in the order declared here
(published short forms keep that order, so a new field goes last).
"""

from __future__ import annotations

import hashlib
import inspect
import os
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable

from ..errors import excerpt
from ..params import ROUND_DECIMALS
from ..stats import alpha_from_beta, beta_from_alpha
from .sentences import SENTENCE_SPLITTERS
from .languages import UNRUNNABLE_STEMMERS, canonical
from .multilingual import STEMMER_LANGUAGES, STEMMER_PREFIX
from .stemming import STEMMERS, is_stemmer_name
from .tokenize import tokenize_with
from .words import TOKENIZERS, UserTokenizer, tokenizer_label, word_splitter

# The jobs an option can have (see the module docstring), in the order the signature shows them.
LABEL = "label"
TOKENS = "tokens"
STATISTICS = "statistics"
SCORE = "score"
JOBS = (LABEL, TOKENS, STATISTICS, SCORE)


# --- how values print in a signature -------------------------------------------------------
def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def exact_number(value: float) -> str:
    """A number as a signature prints it: short (`0.2`, `1`) where that reads back as the same
    float, else every digit (`0.37174721189591076`, α of β = 1.3), so the signature
    reproduces the number it stands for."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def stopwords_label(spec) -> str:
    """"none", "smart", or "custom<count>:<content hash>" for the user's own words."""
    if isinstance(spec, frozenset):
        return f"custom{len(spec)}:{_digest(chr(10).join(sorted(spec)))}"
    return str(spec)


@lru_cache(maxsize=16)
def data_dir_label(data_dir: str) -> str:
    """The content of a data folder's files that change scores (stopwords, exception lists)."""
    from .resources import DATA_FILES

    h = hashlib.sha256()
    for name in DATA_FILES:
        path = Path(data_dir) / name
        h.update(name.encode())
        h.update(path.read_bytes() if path.is_file() else b"(missing)")
    return h.hexdigest()[:8]


@dataclass(frozen=True)
class Shown:
    """How a field enters the signature: its short `key`, its `label` in the long form, and
    `shown(value)`, the text of its value. A field shown `always` is in every signature;
    another only when its value is neither `usual` nor False and it `applies` to the options
    (a STATISTICS field: in the signature of the families that read it)."""

    key: str
    label: str
    always: bool = False
    usual: object = None
    shown: Callable[[object], str] = str
    applies: Callable[["Options"], bool] | None = None

    def text(self, value) -> str:
        return self.shown(value)


def option(default, job: str, *, signature: Shown, splitter: bool = False):
    """An Options field: its default, its job (TOKENS, STATISTICS, SCORE or LABEL), how the
    signature shows it; `splitter`: a TOKENS field that chooses the word splitter (the
    tokenizer and what refines it), folded into one value of `tokenize_key()`."""
    if job not in JOBS:
        raise ValueError(f"unknown option job {job!r}; choose one of {JOBS}")
    return field(default=default, metadata={"job": job, "signature": signature, "splitter": splitter})


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
      the script's routine for each metric compares; the rules: rouge_core.scorer.rules155).
    wlcs_form: "rouge155" (what the script computes) or "paper" (Lin 2004).
    su_form: "rouge155" (unigrams of all positions but the last) or "start-token" (MATLAB).
    empty: "zero" (scores of empty sides are 0) or "nan" (MATLAB: undefined ratios are NaN).
    limit_words / limit_bytes: keep only the start of every text, candidate and references
      alike (ROUGE-1.5.5 -l / -b, counted its way: see rouge_core.text.limits); None or 0: no limit.
    lcs_byte_limit_defect: ROUGE-1.5.5's ROUGE-L/W reader ignores the running byte count
      under -b, so L and W see whole sentences while clipping uses the cut text.
    best_sentence_clip: rougeLsum-best counts a reference token at most as often as it occurs
      (True). False is reval's ROUGELsum, which adds each candidate sentence's best LCS
      unclipped: a reference sentence that is the best match of several candidate sentences
      counts each time, so recall can exceed 1 (a named reval quirk: "a\na" against "a"
      gives R = 2).
    tokenizer: a name from rouge_core.text.words.TOKENIZERS, or the user's own function text ->
      tokens (strings, or (string, start, end) triples) or an object with `tokenize(text)`;
      it enters the signature by its qualified name.
    language: None or a name from rouge_core.text.languages.LANGUAGES (XL-Sum's aliases such as
      "bangla" or "chinese_simplified" are accepted and stored by their canonical name). For
      `unicode` and `cjk` it says whether Han characters are Chinese or Japanese words and
      gives Turkish and Azerbaijani their I/ı, İ/i; for `multilingual` it chooses XL-Sum's
      segmenter.
    strip_diacritics: `unicode` and `cjk` drop Arabic harakat, Hebrew niqqud and cantillation
      and the Arabic tatweel from words (kept by default).
    """

    tokenizer: str = option("rouge-score", TOKENS, splitter=True,
                            signature=Shown("tok", "tokenizer", always=True, shown=tokenizer_label))
    language: str | None = option(None, TOKENS, splitter=True, signature=Shown("lang", "language"))
    strip_diacritics: bool = option(False, TOKENS, splitter=True,
                                    signature=Shown("diacritics", "diacritics", usual=False, shown=lambda _: "strip"))
    lowercase: bool = option(True, TOKENS, signature=Shown("lc", "lower-case", always=True, shown=yes_no))
    stemmer: str = option("none", TOKENS, signature=Shown("stem", "stemmer", always=True))
    stopwords: str | frozenset = option("none", TOKENS,
                                        signature=Shown("sw", "stopwords", always=True, shown=stopwords_label))
    sentence_split: str = option("newline", TOKENS, signature=Shown("split", "sentence splitting", always=True))
    multi_ref: str = option("best-f", SCORE, signature=Shown("multi", "several references", always=True))
    alpha: float = option(0.5, SCORE, signature=Shown("alpha", "alpha (F weight)", always=True, shown=exact_number))
    round_pr: int | None = option(None, SCORE, signature=Shown("round", "P and R rounded to"))
    wlcs_form: str = option("paper", STATISTICS, signature=Shown("wform", "wform"))
    su_form: str = option("rouge155", STATISTICS, signature=Shown("suform", "suform"))
    empty: str = option("zero", SCORE, signature=Shown("empty", "empty sides score", usual="zero"))
    limit_words: int | None = option(None, TOKENS, signature=Shown("words", "word limit (-l)"))
    limit_bytes: int | None = option(None, TOKENS, signature=Shown("bytes", "byte limit (-b)"))
    # the defect changes nothing without a byte limit
    lcs_byte_limit_defect: bool = option(False, TOKENS, signature=Shown(
        "lcsbytes", "ROUGE-1.5.5's -b defect for L and W", shown=lambda _: "yes",
        applies=lambda options: bool(options.limit_bytes)))
    best_sentence_clip: bool = option(True, STATISTICS, signature=Shown("bestclip", "bestclip", shown=yes_no))
    data_dir: str | None = option(None, TOKENS,
                                  signature=Shown("data", "data folder (content)", shown=lambda d: data_dir_label(d)))
    profile: str = option("custom", LABEL, signature=Shown("profile", "profile", always=True))

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
        # the caches: string hashes differ between processes, and a user's tokenizer may not pickle
        return {name: value for name, value in self.__dict__.items() if not name.startswith("_")}

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
        """The TOKENS fields' values (one tokenization serves every method), in the order of
        `tokenize_with`'s parameters, the word splitter resolved from the fields that choose
        it; computed once per Options."""
        key = self.__dict__.get("_tokenize_key")
        if key is None:
            # a name, or the tokenizer resolved with the options that change its words
            splitter = word_splitter(*(getattr(self, name) for name in SPLITTER_FIELDS))
            key = (splitter, *(getattr(self, name) for name in TOKENIZE_PARAMETERS[1:]))
            object.__setattr__(self, "_tokenize_key", key)
        return key

    def part(self, job: str) -> tuple[tuple[str, object], ...]:
        """The (field, value) pairs of one job (TOKENS, STATISTICS, SCORE or LABEL): equal
        parts, equal results of that job."""
        return tuple((name, getattr(self, name)) for name in fields_of(job))

    def statistics_key(self) -> tuple[tuple[str, object], ...]:
        """What decides the statistics (the TOKENS and STATISTICS parts): equal keys, equal
        statistics; the SCORE and LABEL fields only turn them into scores."""
        return self.part(TOKENS) + self.part(STATISTICS)

    def as_dict(self) -> dict:
        d = asdict(self)
        if isinstance(self.stopwords, frozenset):
            d["stopwords"] = sorted(self.stopwords)
        if not isinstance(self.tokenizer, str):
            d["tokenizer"] = UserTokenizer.wrap(self.tokenizer).name
        return d


def fields_of(job: str) -> tuple[str, ...]:
    """The names of the Options fields with this job, in declaration order."""
    return _JOB_FIELDS[job]


def shown(name: str) -> Shown:
    """How the signature shows the Options field `name`."""
    return _SHOWN[name]


_SHOWN = {f.name: f.metadata["signature"] for f in fields(Options)}
_JOB_FIELDS = {job: tuple(f.name for f in fields(Options) if f.metadata["job"] == job) for job in JOBS}
SPLITTER_FIELDS = tuple(f.name for f in fields(Options) if f.metadata["splitter"])  # word_splitter's parameters
# tokenize_with's settings, by their Options names; the first takes the word splitter
TOKENIZE_PARAMETERS = tuple(name for name, p in inspect.signature(tokenize_with).parameters.items()
                            if p.kind is p.POSITIONAL_OR_KEYWORD)[1:]
if set(TOKENIZE_PARAMETERS[1:]) | set(SPLITTER_FIELDS) != set(fields_of(TOKENS)) or TOKENIZE_PARAMETERS[0] not in SPLITTER_FIELDS:
    raise ImportError(f"the TOKENS options {fields_of(TOKENS)} are not tokenize_with's settings {TOKENIZE_PARAMETERS}")


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
