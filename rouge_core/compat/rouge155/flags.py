"""ROUGE-1.5.5's command line: Perl Getopt::Std parsing of its flag set, and validation.

The flags that decide how texts are read and scored (-m, -s, -f, -p, -l, -b, -e) become the
`rouge-1.5.5` profile's rouge_core.Options, the one set of options every front door scores
with; the others choose the metrics (-n, -x, -w, -2, -u, -U, -3) and shape the run and its
report (-a, -c, -d, -r, -t, -z). Values keep their raw text where the script prints them as
typed (`-c 95`, `-w 1.2`, `-2 4` appear in the report as "95%", "ROUGE-W-1.2", "ROUGE-S4").
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...errors import excerpt
from rouge_core.scorer.basic_elements import BE_MODES
from rouge_core.text.options import Options, profile
from rouge_core.params import NGRAM_N, WLCS_WEIGHT

from .errors import USAGE_ERROR, Rouge155Error

# The script's getopts spec is 'ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:'.
_WITH_VALUE = set("bceflnptr23wz")
_SWITCHES = set("ahHdmMsuUvx")
_UNSUPPORTED = {
    "M": "-M (stem the models only) is not supported",
}
# With -3 the summaries are Basic Element files: the text metrics cannot read them (the
# script dies reading them) and the length limits and stopwords do not apply (it ignores them).
_NOT_WITH_BE = (("max_n", "-n (ROUGE-N)"), ("weight", "-w (ROUGE-W)"), ("skip_distance", "-2 (ROUGE-S)"),
                ("word_limit", "-l"), ("byte_limit", "-b"), ("remove_stopwords", "-s"))
LIST_FORMATS = ("SEE", "SPL", "ISI", "SIMPLE")

NO_COST_LIMIT = "--no-cost-limit"  # not the script's: lifts rouge_core's cost bound (rouge_core.scorer.cost)

USAGE = (
    "usage: rouge155 [-a] [-c cf] [-d] [-e data-dir] [-b n-bytes|-l n-words] [-m] [-n max-ngram]\n"
    "                [-s] [-r resamples] [-2 max-gap [-u|-U]] [-w weight] [-x] [-f A|B]\n"
    "                [-3 H|HM|HMR|HM1|HMR1|HMR2 (Basic Elements, SIMPLE files)]\n"
    "                [-p alpha] [-t 0|1|2] [-z SEE|SPL|ISI|SIMPLE] [--no-cost-limit] CONFIG [SYSTEM_ID]\n"
    "--no-cost-limit: score documents whose estimated cost is above the bound (about 2 s and\n"
    "                 500 MB per document; e.g. -2 -1 on long summaries)"
)

# Long keyword names accepted by `evaluate(...)`, each standing for one flag.
KEYWORD_FLAGS = {
    "all_systems": "a", "byte_limit": "b", "confidence": "c", "per_document": "d",
    "data_dir": "e", "formula": "f", "word_limit": "l", "stem": "m", "max_n": "n",
    "alpha": "p", "resamples": "r", "remove_stopwords": "s", "counting": "t",
    "skip_unigrams": "u", "skip_unigrams_and_plain": "U", "weight": "w", "no_lcs": "x",
    "list_format": "z", "skip_distance": "2", "basic_elements": "3",
}


@dataclass(frozen=True)
class Flags:
    """The flags of one run, validated as the script validates them (or more strictly).

    `options`: how texts are read and scored, as the `rouge-1.5.5` profile with -m
    (stemmer "rouge155"), -s (stopwords "smart"), -f (multi_ref "pooled" for A, the
    script's reading of anything but B, "best-recall" for B), -p (alpha), -l / -b
    (limit_words / limit_bytes) and -e (data_dir) applied."""

    options: Options = profile("rouge-1.5.5")
    all_systems: bool = False
    confidence: float = 95.0
    confidence_text: str = "95"
    per_document: bool = False
    max_n: int = 0  # 0: no ROUGE-N (the script computes none without -n)
    resamples: int = 1000
    counting: int = 0  # -t: 0 per-document average, 1 pooled counts, 2 raw counts
    skip_distance: int | None = None
    skip_distance_text: str = ""
    skip_unigrams: bool = False  # -u
    skip_unigrams_and_plain: bool = False  # -U
    weight: float | None = None
    weight_text: str = ""
    no_lcs: bool = False
    list_format: str | None = None
    be_mode: str | None = None  # -3: score Basic Elements (SIMPLE files) in this mode
    verbose: bool = False
    help: bool = False
    no_cost_limit: bool = False  # --no-cost-limit: score documents above the cost bound


def _usage_error(message: str) -> Rouge155Error:
    return Rouge155Error(message, USAGE_ERROR)


def getopt(argv: Sequence[str]) -> tuple[dict[str, str | bool], list[str]]:
    """Perl Getopt::Std `getopts`: options stop at the first non-option or at `--`."""
    args = list(argv)
    found: dict[str, str | bool] = {}
    while args and len(args[0]) >= 2 and args[0].startswith("-"):
        token = args.pop(0)
        if token == "--":
            break
        if token == NO_COST_LIMIT:
            found[NO_COST_LIMIT] = True
            continue
        first, rest = token[1], token[2:]
        if first in _WITH_VALUE:
            if rest == "":
                if not args:
                    raise _usage_error(f"option -{first} requires a value")
                rest = args.pop(0)
            found[first] = rest
        elif first in _SWITCHES:
            found[first] = True
            if rest:
                args.insert(0, "-" + rest)
        else:
            raise _usage_error(f"unknown option -{first}")
    return found, args


def _number(flag: str, text: str, *, integer: bool) -> float:
    try:
        return int(text) if integer else float(text)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise _usage_error(f"option -{flag} expects {kind}, got {excerpt(text)}") from None


def flags_from_getopt(found: Mapping[str, str | bool]) -> Flags:
    for flag, reason in _UNSUPPORTED.items():
        if flag in found:
            raise _usage_error(reason)
    kw: dict[str, Any] = {}
    text = {k: v for k, v in found.items() if isinstance(v, str)}
    if "l" in text and "b" in text:
        raise _usage_error("specify a length limit in words (-l) or in bytes (-b), not both")
    for flag, name in (("l", "word_limit"), ("b", "byte_limit")):
        if flag in text:
            limit = int(_number(flag, text[flag], integer=True))
            if limit < 0:
                raise _usage_error(f"option -{flag} expects a non-negative integer, got {text[flag]}")
            kw[name] = limit
    if "c" in text:
        c = _number("c", text["c"], integer=False)
        if not 0 <= c <= 100:
            raise _usage_error(f"option -c: confidence must be within 0 and 100, got {text['c']}")
        kw.update(confidence=c, confidence_text=text["c"])
    if "e" in text:
        kw["data_dir"] = text["e"]
    if "f" in text:
        kw["formula"] = "B" if text["f"] == "B" else "A"
    if "n" in text:
        n = int(_number("n", text["n"], integer=True))
        if n < 0 or n > NGRAM_N.maximum:
            raise _usage_error(f"option -n: {NGRAM_N.name} must be {NGRAM_N.describe()} (0: no ROUGE-N), "
                               f"got {text['n']}")
        kw["max_n"] = n
    if "p" in text:
        a = _number("p", text["p"], integer=False)
        if not 0 <= a <= 1:
            raise _usage_error(f"option -p: alpha must be within 0 and 1, got {text['p']}")
        kw["alpha"] = a
    if "r" in text:
        r = int(_number("r", text["r"], integer=True))
        if r < 1:
            raise _usage_error(f"option -r expects at least 1 resample, got {text['r']}")
        kw["resamples"] = r
    if "t" in text:
        t = int(_number("t", text["t"], integer=True))
        kw["counting"] = t if t in (1, 2) else 0  # the script treats other values as 0
    if "w" in text:
        w = _number("w", text["w"], integer=False)
        try:
            WLCS_WEIGHT.check(w)
        except ValueError as exc:
            raise _usage_error(f"option -w: {exc}") from None
        kw.update(weight=w, weight_text=text["w"])
    if "2" in text:
        kw.update(skip_distance=int(_number("2", text["2"], integer=True)), skip_distance_text=text["2"])
    if "3" in text:
        if text["3"] not in BE_MODES:
            raise _usage_error(f"option -3 expects one of {', '.join(BE_MODES)}, got {excerpt(text['3'])}")
        kw["be_mode"] = text["3"]
    if "z" in text:
        z = text["z"].upper()
        if z not in LIST_FORMATS:
            raise _usage_error(f"option -z expects one of SEE, SPL, ISI, SIMPLE, got {excerpt(text['z'])}")
        kw["list_format"] = z
    switches = {"a": "all_systems", "d": "per_document", "m": "stem", "s": "remove_stopwords",
                "u": "skip_unigrams", "U": "skip_unigrams_and_plain", "x": "no_lcs", "v": "verbose"}
    for flag, name in switches.items():
        if found.get(flag) is True:
            kw[name] = True
    if found.get("h") is True or found.get("H") is True:
        kw["help"] = True
    if found.get(NO_COST_LIMIT) is True:
        kw["no_cost_limit"] = True
    if kw.get("be_mode") is not None:
        clashing = [flag for name, flag in _NOT_WITH_BE if kw.get(name) not in (None, 0, False)]
        if clashing:
            raise _usage_error(f"{', '.join(clashing)} cannot be used with -3: Basic Element files are scored as BE "
                               "units only (ROUGE-1.5.5 dies reading them for ROUGE-N, W or S, and ignores -l, -b "
                               "and -s for BEs)")
    options = profile(
        "rouge-1.5.5",
        stemmer="rouge155" if kw.pop("stem", False) else "none",
        stopwords="smart" if kw.pop("remove_stopwords", False) else "none",
        multi_ref="best-recall" if kw.pop("formula", "A") == "B" else "pooled",
        alpha=kw.pop("alpha", 0.5),
        limit_words=kw.pop("word_limit", 0) or None,
        limit_bytes=kw.pop("byte_limit", 0) or None,
        data_dir=kw.pop("data_dir", None),
    )
    return Flags(options=options, **kw)


def parse_command_line(argv: Sequence[str]) -> tuple[Flags, list[str]]:
    found, rest = getopt(argv)
    return flags_from_getopt(found), rest


def flags_to_argv(flags: str | Sequence[str] = "", **keywords: Any) -> list[str]:
    """A flag string (or list) plus keyword options, as one argv list for `getopt`.

    Keywords are long names (`max_n=2`, `stem=True`, `skip_distance=4`, `formula="B"`,
    `no_cost_limit=True`) or the flag letters themselves (`n=2`, `m=True`). True switches a
    flag on; False or None leaves it out.
    """
    argv = shlex.split(flags) if isinstance(flags, str) else list(flags)
    for name, value in keywords.items():
        if name == "no_cost_limit":
            if value is True:
                argv.insert(0, NO_COST_LIMIT)
            elif value not in (False, None):
                raise _usage_error("option 'no_cost_limit' is a switch: pass True or False")
            continue
        flag = KEYWORD_FLAGS.get(name, name)
        if len(flag) != 1 or flag not in _WITH_VALUE | _SWITCHES:
            raise _usage_error(f"unknown option {excerpt(name)}")
        if value is None or value is False:
            continue
        if flag in _SWITCHES:
            if value is not True:
                raise _usage_error(f"option {excerpt(name)} is a switch: pass True or False")
            argv.append("-" + flag)
        else:
            argv += ["-" + flag, str(value)]
    return argv
