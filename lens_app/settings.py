"""The settings every page shares, owned by one frozen value.

`Settings` holds what the sidebar offers (a profile, the text-processing and scoring options,
and the methods' parameters), with the defaults and the choices defined here once. The method
parameters (n, d and its "unlimited" tick, w) are fields the method families declare
(rouge_core.families.methods `UiParameter`): each registered family's parameters become fields, share
link parameters and sidebar widgets, and `.methods()` asks every family the app scores.
Pages ask it for `.options()` (a rouge_core.Options) and `.methods()` (method names); share
links are `.to_query()` and `Settings.from_query(...)`. The sidebar's widgets are one view of
it (lens_app.sidebar); nothing else keeps a copy of a setting.

`language` and `strip_diacritics` are kept whatever the tokenizer, but `.options()` passes
them only to the tokenizers that read them (rouge_core.text.words.LANGUAGE_AWARE and
DIACRITICS_AWARE): a language the tokenizer ignores changes no number, so it stays out of the
Options and the signature, and comes back into effect with a tokenizer that reads it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace

import rouge_core
from rouge_core.errors import excerpt, short_text
from rouge_core.text.languages import LANGUAGES, XLSUM_STEMMED, canonical
from rouge_core.families.methods import FAMILIES, MAX_SIDEBAR_DISTANCE, UiParameter, ui_parameters
from rouge_core.text.multilingual import STEMMER_PREFIX as XLSUM_PREFIX
from rouge_core.text.multilingual import stemmer_installed
from rouge_core.text.options import MULTI_REF_MODES, RUNNABLE_XLSUM_STEMMERS
from rouge_core.scorer.signature import exact_number
from rouge_core.text.words import DIACRITICS_AWARE, LANGUAGE_AWARE, TOKENIZERS

CUSTOM = "custom"
DEFAULT_PROFILE = "rouge-score"
PROFILE_CHOICES = (*rouge_core.PROFILES, CUSTOM)
BASIC_STEMMERS = ("none", "porter", "rouge155", "snowball-english")
STEMMERS = (*BASIC_STEMMERS, *(s for s in RUNNABLE_XLSUM_STEMMERS if stemmer_installed(s)))  # those that run here
XLSUM_STEMMER_PROFILES = ("multilingual", CUSTOM)  # the profiles whose stemmer list offers XL-Sum's
STOPWORDS = ("none", "smart")
STEMMER_LABELS = {
    "none": "none",
    "porter": "porter: NLTK's Porter (rouge-score)",
    "rouge155": "rouge155: WordNet exceptions + Porter (ROUGE-1.5.5 -m)",
    "snowball-english": "snowball-english: Snowball (Porter 2)",
}
NO_LANGUAGE = "none"  # the widget's and the link's word for Options(language=None)
LANGUAGE_CHOICES = (NO_LANGUAGE, *LANGUAGES)
MULTI_REF_LABELS = {
    "pooled": "pooled: counts summed over references (ROUGE-1.5.5 -f A)",
    "best-recall": "best recall (ROUGE-1.5.5 -f B)",
    "best-f": "best F (rouge-score)",
    "max": "max of P, R, F separately (MATLAB)",
    "mean": "mean over references",
}


def stemmer_label(name: str) -> str:
    """A stemmer's name with what it is (the sidebar's choices)."""
    if name.startswith(XLSUM_PREFIX):
        language = name.removeprefix(XLSUM_PREFIX)
        what = "Porter (no language)" if language == "porter" else XLSUM_STEMMED[language]
        return f"{name}: XL-Sum's, {what}"
    return STEMMER_LABELS.get(name, name)




class LENGTH_LIMIT:  # noqa: N801 (a namespace of constants)
    """ROUGE-1.5.5's length limits as the sidebar offers them: one unit at a time (the script
    refuses -l with -b), a count of at least 1; 0 in a Settings field means no limit."""

    labels = {"none": "none", "words": "words (-l)", "bytes": "bytes (-b)"}
    default = {"words": 100, "bytes": 665}  # DUC 2002's 100 words; DUC 2004's 665 bytes
    maximum = 10**9


LENGTH_UNITS = tuple(LENGTH_LIMIT.labels)
LENGTH_FIELDS = {"words": "limit_words", "bytes": "limit_bytes"}

# The Options fields the sidebar sets; the profile decides the rest.
OPTION_FIELDS = ("tokenizer", "language", "strip_diacritics", "lowercase", "stemmer", "stopwords", "multi_ref", "alpha",
                 "limit_words", "limit_bytes")
CHOICES = {"profile": PROFILE_CHOICES, "tokenizer": TOKENIZERS, "language": LANGUAGE_CHOICES, "stemmer": STEMMERS,
           "stopwords": STOPWORDS, "multi_ref": MULTI_REF_MODES}


def _yes(value: bool) -> str:
    return "1" if value else "0"


def _whole(text: str) -> int:
    """A whole number from a link: digits only (a sign allowed), at most 1,000 of them."""
    digits = text.strip()
    if not digits.lstrip("+-").isdigit() or len(digits) > 1000:
        raise ValueError("not a whole number")
    return int(digits)


def _limit(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= LENGTH_LIMIT.maximum:
        raise ValueError(f"a length limit must be an integer from 0 (none) to {LENGTH_LIMIT.maximum:,}")
    return value


def _language(text: str) -> str:
    """A language from a link: its canonical name (XL-Sum's aliases accepted) or "none"."""
    return NO_LANGUAGE if text.strip().lower() in (NO_LANGUAGE, "") else canonical(text)


PARAMETERS = ui_parameters()  # the method parameters Settings holds: those of the families registered now


def _parameter_reader(parameter: UiParameter):
    """A method parameter from a link: a number the widget can hold (its range is checked
    with the others)."""
    def read(text: str):
        value = _whole(text) if parameter.range.integer else float(text)
        if parameter.widget_maximum is not None and value > parameter.widget_maximum:
            raise ValueError(f"the sidebar holds {parameter.range.name} up to {parameter.widget_maximum:,}; "
                             f"{parameter.beyond}")
        return value
    return read


def _parameter_query(parameter: UiParameter) -> dict:
    """The link parameters of a method parameter (and of its "unlimited" tick)."""
    to_text = str if parameter.range.integer else exact_number
    query = {parameter.setting: (parameter.query, to_text, _parameter_reader(parameter))}
    if parameter.unlimited_setting is not None:
        query[parameter.unlimited_setting] = (f"{parameter.query}inf", _yes, lambda s: s == "1")
    return query


# Settings field -> (URL parameter, to text, from text). The names are those of links already
# shared; the method parameters' are their ranges' keys (rouge_core.params).
QUERY = {
    "profile": ("profile", str, str),
    "tokenizer": ("tok", str, str),
    "language": ("lang", str, _language),
    "strip_diacritics": ("strip", _yes, lambda s: s == "1"),
    "lowercase": ("lc", _yes, lambda s: s == "1"),
    "stemmer": ("stem", str, str),
    "stopwords": ("sw", str, str),
    "multi_ref": ("multi", str, str),
    "alpha": ("alpha", exact_number, float),
    **{field: entry for parameter in PARAMETERS for field, entry in _parameter_query(parameter).items()},
    "limit_words": ("l", str, _limit),
    "limit_bytes": ("b", str, _limit),
}
RANGES = {parameter.setting: parameter.range for parameter in PARAMETERS}


def _profile_fields(name: str) -> dict:
    options = rouge_core.profile(name)
    return _sidebar_values(options)


def _sidebar_values(options: rouge_core.Options) -> dict:
    """The OPTION_FIELDS of an Options as the sidebar holds them."""
    values = {f: getattr(options, f) for f in OPTION_FIELDS}
    if not isinstance(values["stopwords"], str):
        values["stopwords"] = "none"
    if values["language"] is None:
        values["language"] = NO_LANGUAGE
    for field in LENGTH_FIELDS.values():
        values[field] = values[field] or 0
    return values


def _with_method_parameters(cls):
    """Give the class a field for each method parameter the registered families declare (and
    for its "unlimited" tick), at its range's default: max_n, weight, skip_distance and
    skip_unlimited for the built-in families."""
    for parameter in PARAMETERS:
        cls.__annotations__[parameter.setting] = "int" if parameter.range.integer else "float"
        setattr(cls, parameter.setting, parameter.range.default)
        if parameter.unlimited_setting is not None:
            cls.__annotations__[parameter.unlimited_setting] = "bool"
            setattr(cls, parameter.unlimited_setting, False)
    return cls


@dataclass(frozen=True)
@_with_method_parameters
class Settings:
    """What the sidebar holds: the options below, then the method parameters the families
    declare (`_with_method_parameters`). `skip_distance` is the finite distance of the widget
    and `skip_unlimited` the "unlimited" tick (the methods then use rougeS* / rougeSU*)."""

    profile: str = DEFAULT_PROFILE
    tokenizer: str = _profile_fields(DEFAULT_PROFILE)["tokenizer"]
    language: str = _profile_fields(DEFAULT_PROFILE)["language"]
    strip_diacritics: bool = _profile_fields(DEFAULT_PROFILE)["strip_diacritics"]
    lowercase: bool = _profile_fields(DEFAULT_PROFILE)["lowercase"]
    stemmer: str = _profile_fields(DEFAULT_PROFILE)["stemmer"]
    stopwords: str = _profile_fields(DEFAULT_PROFILE)["stopwords"]
    multi_ref: str = _profile_fields(DEFAULT_PROFILE)["multi_ref"]
    alpha: float = _profile_fields(DEFAULT_PROFILE)["alpha"]
    limit_words: int = 0
    limit_bytes: int = 0

    @classmethod
    def for_profile(cls, name: str, **changes) -> "Settings":
        """A profile's option values (method parameters as given, or their defaults)."""
        return cls(profile=name, **{**(_profile_fields(name) if name != CUSTOM else {}), **changes})

    @classmethod
    def from_options(cls, options: rouge_core.Options, **changes) -> "Settings":
        """The settings of an Options the sidebar can express (its profile and the fields
        the sidebar sets); ValueError for one it cannot."""
        settings = cls(profile=options.profile if options.profile in PROFILE_CHOICES else CUSTOM,
                       **_sidebar_values(options), **changes)
        offered = all(getattr(settings, f) in CHOICES[f] for f in CHOICES)  # not, e.g., a user's tokenizer
        if not offered or settings.options() != options:
            raise ValueError(f"the sidebar cannot express these options: {options}")
        return settings

    def options(self) -> rouge_core.Options:
        chosen = {f: getattr(self, f) for f in OPTION_FIELDS}
        chosen["language"] = None if self.language == NO_LANGUAGE or not self.reads_language else self.language
        chosen["strip_diacritics"] = self.strip_diacritics and self.reads_diacritics
        for field in LENGTH_FIELDS.values():
            chosen[field] = getattr(self, field) or None
        if self.profile == CUSTOM:
            return rouge_core.Options(**chosen)
        return rouge_core.profile(self.profile, **chosen)

    @property
    def stemmer_choices(self) -> tuple[str, ...]:
        """The stemmers the sidebar offers: XL-Sum's per-language ones with the multilingual
        (or a custom) profile, where they belong, and with any profile once one is chosen
        (a link can carry one)."""
        if self.profile in XLSUM_STEMMER_PROFILES or self.stemmer not in BASIC_STEMMERS:
            return STEMMERS
        return BASIC_STEMMERS

    @property
    def reads_language(self) -> bool:
        """Whether the tokenizer's words depend on the language."""
        return self.tokenizer in LANGUAGE_AWARE

    @property
    def reads_diacritics(self) -> bool:
        """Whether the tokenizer can strip Arabic and Hebrew diacritics."""
        return self.tokenizer in DIACRITICS_AWARE

    @property
    def length_unit(self) -> str:
        """"words", "bytes" or "none": the length limit in effect (a word limit wins, as in
        rouge_core.text.limits; the sidebar never sets both)."""
        return "words" if self.limit_words else "bytes" if self.limit_bytes else "none"

    @property
    def length_limit(self) -> int:
        """The count of the length limit in effect (0: none)."""
        return self.limit_words or self.limit_bytes

    def with_length_limit(self, unit: str, count: int) -> "Settings":
        """These settings with at most `count` of `unit` ("none": no limit) per text."""
        values = {field: (count if unit == name else 0) for name, field in LENGTH_FIELDS.items()}
        return self.replace(**values)

    @property
    def distance(self) -> int | None:
        """The skip distance the methods use (None: unlimited)."""
        return None if self.skip_unlimited else self.skip_distance

    def parameter_values(self) -> dict:
        """The method parameters as set, by Settings field (a family registered after this
        module was loaded has no field: its parameters are at their defaults)."""
        values = {}
        for parameter in ui_parameters():
            values[parameter.setting] = getattr(self, parameter.setting, parameter.range.default)
            if parameter.unlimited_setting is not None:
                values[parameter.unlimited_setting] = getattr(self, parameter.unlimited_setting, False)
        return values

    def methods(self) -> list[str]:
        """The methods of every family the app scores, with these parameters, in the registry's
        order: ROUGE-1 … ROUGE-n, L, Lsum, W, S, SU for the built-in families."""
        values = self.parameter_values()
        return [method.name for family in FAMILIES.values() if family.in_app for method in family.app_methods(values)]

    def differing(self) -> list[str]:
        """The option fields set away from the profile's own values (those in effect: a
        language the tokenizer does not read is none)."""
        if self.profile == CUSTOM:
            return []
        preset = _profile_fields(self.profile)
        chosen = _sidebar_values(self.options())
        return [f for f in OPTION_FIELDS if chosen[f] != preset[f]]

    @property
    def within_profile(self) -> bool:
        """Whether the options are still the profile's tool (settings it offers itself, such
        as rouge-score's Porter stemmer or the multilingual profile's language, keep it)."""
        return self.profile != CUSTOM and self.options().profile == self.profile

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
                problems.append(f"ignored the link's {param}={excerpt(raw)}: {short_text(str(exc), 300)}")
                continue
            values[field] = value
        if values.get("limit_words") and values.get("limit_bytes"):
            problems.append(f"ignored the link's b={values.pop('limit_bytes')}: a link sets a word limit (l) or a "
                            "byte limit (b), not both, as ROUGE-1.5.5 takes -l or -b")
        profile = values.pop("profile", DEFAULT_PROFILE)
        return cls.for_profile(profile, **values), problems


FIELDS = tuple(f.name for f in fields(Settings))
# the method parameters' fields (a profile's choice keeps them)
PARAMETER_FIELDS = tuple(field for field in FIELDS if field in {name for p in PARAMETERS
                                                                 for name in (p.setting, p.unlimited_setting) if name})
