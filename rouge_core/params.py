"""The valid range of each method parameter, defined once: n of ROUGE-N, the skip distance d
of ROUGE-S/SU, the weight w of ROUGE-W.

Method names, both command lines, the compatibility front doors, the app's widgets and its
share links all check values with these objects:

    NGRAM_N.check(4)            -> 4
    SKIP_DISTANCE.check(None)   -> None (unlimited)
    WLCS_WEIGHT.check(0.5)      -> ValueError: the ROUGE-W weight w must be a number from 1 to 5, got 0.5

`check` returns the value (an int for integer parameters, a float for w) or raises a
ValueError whose message names the parameter and its range.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass


@dataclass(frozen=True)
class ParameterRange:
    """A numeric method parameter: its name, bounds (inclusive), and whether it is an
    integer and may be unlimited (None).

    name: how messages name it ("n", "the skip distance d", "the ROUGE-W weight w").
    key: its short key (share links, keyword arguments): "n", "d", "w".
    minimum / maximum: inclusive bounds; maximum None: no upper bound.
    integer: only whole numbers (an integral float such as 4.0 is taken as 4).
    unlimited: None is a valid value meaning "no limit".
    default: the usual value (ROUGE-2, ROUGE-S4 / SU4, ROUGE-W-1.2).
    """

    name: str
    key: str
    minimum: float
    maximum: float | None
    integer: bool
    unlimited: bool
    default: float | None
    meaning: str

    def describe(self) -> str:
        """The range in words: 'an integer from 1 to 1,000', 'a non-negative integer, or unlimited'."""
        kind = "an integer" if self.integer else "a number"
        fmt = (lambda v: f"{int(v):,}") if self.integer else (lambda v: f"{v:g}")
        if self.maximum is not None:
            text = f"{kind} from {fmt(self.minimum)} to {fmt(self.maximum)}"
        elif self.minimum == 0:
            text = f"a non-negative {kind.split(' ', 1)[1]}"
        else:
            text = f"{kind} of at least {fmt(self.minimum)}"
        return text + (", or unlimited" if self.unlimited else "")

    def _error(self, value) -> ValueError:
        from .errors import excerpt

        shown = f"{value:g}" if isinstance(value, float) else excerpt(value)
        return ValueError(f"{self.name} must be {self.describe()}, got {shown}")

    def check(self, value):
        """The value if valid (int for integer parameters, float otherwise; None for unlimited),
        else ValueError naming the parameter and its range."""
        if value is None:
            if self.unlimited:
                return None
            raise self._error(value)
        given = value
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise self._error(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise self._error(value)
        if self.integer:
            if isinstance(value, numbers.Integral):
                value = int(value)
            elif float(value).is_integer():
                value = int(value)
            else:
                raise self._error(value)
        else:
            value = float(value)
        if value < self.minimum or (self.maximum is not None and value > self.maximum):
            raise self._error(given)
        return value

    validate = check

    def is_valid(self, value) -> bool:
        try:
            self.check(value)
        except ValueError:
            return False
        return True


NGRAM_N = ParameterRange(
    name="n", key="n", minimum=1, maximum=1000, integer=True, unlimited=False, default=2,
    meaning="the length of the n-grams ROUGE-N counts",
)
"""n of ROUGE-N. An upper limit exists only so that a typo or a link cannot ask for an endless
list of methods (the app scores ROUGE-1 to ROUGE-n); an n-gram longer than a text just
scores 0."""

SKIP_DISTANCE = ParameterRange(
    name="the skip distance d", key="d", minimum=0, maximum=None, integer=True, unlimited=True, default=4,
    meaning="how many tokens may stand between the two tokens of a skip-bigram (None: any number)",
)
"""d of ROUGE-S<d> / ROUGE-SU<d>: at most d tokens in the gap; None (rougeS*) is unlimited.
Any distance of at least the text length minus 2 counts the same pairs as unlimited."""

WLCS_WEIGHT = ParameterRange(
    name="the ROUGE-W weight w", key="w", minimum=1.0, maximum=5.0, integer=False, unlimited=False, default=1.2,
    meaning="the exponent of f(k) = k^w that rewards runs of consecutive matches",
)
"""w of ROUGE-W, f(k) = k^w.

Minimum 1: ROUGE-W needs f(x + y) >= f(x) + f(y), so that a run of consecutive matches
weighs at least as much as the same matches apart, and a weighted LCS never exceeds f of the
text length. For w < 1 that fails and P and R go above 1 (w = 1 is the plain LCS).

Maximum 5: nothing may overflow a float. The largest quantity is the ROUGE-1.5.5 form's
reference total, which weights the reference length twice: f(Σ f(|r_i|)) = (Σ |r_i|^w)^w
<= T^(w²) for T reference tokens in all. With w <= 5 that stays below the largest float
(1.8e308) for any T < 10^(308.25 / 25), about 2·10^12 tokens: far more than any text that
fits in memory, let alone one the cost bounds (rouge_core.scorer.cost) accept, so no weight in
range can overflow with or without a bound. (w = 6 would already overflow at about 3.7·10^8
reference tokens.)"""

ROUND_DECIMALS = ParameterRange(
    name="round_pr", key="round_pr", minimum=0, maximum=100, integer=True, unlimited=True, default=None,
    meaning="the decimals P and R are rounded to before F (ROUGE-1.5.5 prints 5; None: no rounding)",
)
"""Options.round_pr. 100 decimals are far below what a float holds, so no larger number could
round differently; the limit keeps a typo from failing every call later."""

PARAMETERS = {p.key: p for p in (NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT)}
