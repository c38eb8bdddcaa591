"""The settings every page shares, owned by one frozen value.

`Settings` holds what the sidebar offers (a profile, the text-processing and scoring options,
and the methods' parameters n, d and w), with the defaults and the choices defined here once.
Pages ask it for `.options()` (a rouge_core.Options) and `.methods()` (method names); share
links are `.to_query()` and `Settings.from_query(...)`. The sidebar's widgets are one view of
it (lens_app.sidebar); nothing else keeps a copy of a setting.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace

import rouge_core
from rouge_core.methods import method_name
from rouge_core.options import MULTI_REF_MODES
from rouge_core.params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT
from rouge_core.words import TOKENIZERS

CUSTOM = "custom"
DEFAULT_PROFILE = "rouge-score"
PROFILE_CHOICES = (*rouge_core.PROFILES, CUSTOM)
STEMMERS = ("none", "porter", "rouge155", "snowball-english")
STOPWORDS = ("none", "smart")
MULTI_REF_LABELS = {
    "pooled": "pooled: counts summed over references (ROUGE-1.5.5 -f A)",
    "best-recall": "best recall (ROUGE-1.5.5 -f B)",
    "best-f": "best F (rouge-score)",
    "max": "max of P, R, F separately (MATLAB)",
    "mean": "mean over references",
}
TOKENIZER_LABELS = {
    "rouge155": "rouge155: ASCII letters and digits (Perl)",
    "rouge-score": "rouge-score: lower-case, [a-z0-9]",
    "whitespace": "whitespace: tokens as written",
    "unicode": "unicode: words in any script",
    "cjk": "cjk: one token per CJK character",
}
# The Options fields the sidebar sets; the profile decides the rest.
OPTION_FIELDS = ("tokenizer", "lowercase", "stemmer", "stopwords", "multi_ref", "alpha")
CHOICES = {"profile": PROFILE_CHOICES, "tokenizer": TOKENIZERS, "stemmer": STEMMERS, "stopwords": STOPWORDS,
           "multi_ref": MULTI_REF_MODES}


def _yes(value: bool) -> str:
    return "1" if value else "0"


# Settings field -> (URL parameter, to text, from text). The names are those of links already shared.
QUERY = {
    "profile": ("profile", str, str),
    "tokenizer": ("tok", str, str),
    "lowercase": ("lc", _yes, lambda s: s == "1"),
    "stemmer": ("stem", str, str),
    "stopwords": ("sw", str, str),
    "multi_ref": ("multi", str, str),
    "alpha": ("alpha", lambda v: f"{v:g}", float),
    "max_n": ("n", str, int),
    "skip_distance": ("d", str, int),
    "skip_unlimited": ("dinf", _yes, lambda s: s == "1"),
    "weight": ("w", lambda v: f"{v:g}", float),
}
RANGES = {"max_n": NGRAM_N, "skip_distance": SKIP_DISTANCE, "weight": WLCS_WEIGHT}


def _profile_fields(name: str) -> dict:
    options = rouge_core.profile(name)
    values = {f: getattr(options, f) for f in OPTION_FIELDS}
    if not isinstance(values["stopwords"], str):
        values["stopwords"] = "none"
    return values


@dataclass(frozen=True)
class Settings:
    """What the sidebar holds. `skip_distance` is the finite distance of the widget and
    `skip_unlimited` the "unlimited" tick (the methods then use rougeS* / rougeSU*)."""

    profile: str = DEFAULT_PROFILE
    tokenizer: str = _profile_fields(DEFAULT_PROFILE)["tokenizer"]
    lowercase: bool = _profile_fields(DEFAULT_PROFILE)["lowercase"]
    stemmer: str = _profile_fields(DEFAULT_PROFILE)["stemmer"]
    stopwords: str = _profile_fields(DEFAULT_PROFILE)["stopwords"]
    multi_ref: str = _profile_fields(DEFAULT_PROFILE)["multi_ref"]
    alpha: float = _profile_fields(DEFAULT_PROFILE)["alpha"]
    max_n: int = NGRAM_N.default
    skip_distance: int = SKIP_DISTANCE.default
    skip_unlimited: bool = False
    weight: float = WLCS_WEIGHT.default

    @classmethod
    def for_profile(cls, name: str, **changes) -> "Settings":
        """A profile's option values (method parameters as given, or their defaults)."""
        return cls(profile=name, **{**(_profile_fields(name) if name != CUSTOM else {}), **changes})

    @classmethod
    def from_options(cls, options: rouge_core.Options, **changes) -> "Settings":
        """The settings of an Options the sidebar can express (its profile and the fields
        the sidebar sets); ValueError for one it cannot."""
        settings = cls(profile=options.profile if options.profile in PROFILE_CHOICES else CUSTOM,
                       **{f: getattr(options, f) for f in OPTION_FIELDS}, **changes)
        if settings.options() != options:
            raise ValueError(f"the sidebar cannot express these options: {options}")
        return settings

    def options(self) -> rouge_core.Options:
        chosen = {f: getattr(self, f) for f in OPTION_FIELDS}
        if self.profile == CUSTOM:
            return rouge_core.Options(**chosen)
        return rouge_core.profile(self.profile, **chosen)

    @property
    def distance(self) -> int | None:
        """The skip distance the methods use (None: unlimited)."""
        return None if self.skip_unlimited else self.skip_distance

    def methods(self) -> list[str]:
        """Every method family with these parameters: ROUGE-1 … ROUGE-n, L, Lsum, W, S, SU."""
        return [*(method_name("N", k) for k in range(1, self.max_n + 1)), method_name("L"), method_name("Lsum"),
                method_name("W", self.weight), method_name("S", self.distance), method_name("SU", self.distance)]

    def differing(self) -> list[str]:
        """The option fields set away from the profile's own values."""
        if self.profile == CUSTOM:
            return []
        preset = _profile_fields(self.profile)
        return [f for f in OPTION_FIELDS if getattr(self, f) != preset[f]]

    def replace(self, **changes) -> "Settings":
        return replace(self, **changes)

    def as_dict(self) -> dict:
        return asdict(self)

    # --- links ----------------------------------------------------------------------------
    def to_query(self) -> dict[str, str]:
        return {param: to_text(getattr(self, field)) for field, (param, to_text, _) in QUERY.items()}

    @classmethod
    def from_query(cls, params: dict[str, list[str]]) -> tuple["Settings", list[str]]:
        """The settings a link carries, and a message for each value that made no sense (that
        value is left at its default). A link's profile sets its own values first; the
        link's other values then override them."""
        values: dict[str, object] = {}
        problems = []
        for field, (param, _, from_text) in QUERY.items():
            if not params.get(param):
                continue
            raw = params[param][0]
            try:
                value = from_text(raw)
                if field in CHOICES and value not in CHOICES[field]:
                    raise ValueError(f"choose one of {', '.join(CHOICES[field])}")
                if field == "alpha" and not (math.isfinite(value) and 0.0 <= value <= 1.0):
                    raise ValueError("alpha must be in [0, 1]")
                if field in RANGES:
                    value = RANGES[field].check(value)
            except ValueError as exc:
                problems.append(f"ignored the link's {param}={raw!r}: {exc}")
                continue
            values[field] = value
        profile = values.pop("profile", DEFAULT_PROFILE)
        return cls.for_profile(profile, **values), problems


FIELDS = tuple(f.name for f in fields(Settings))
