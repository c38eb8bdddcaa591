"""How error messages quote what the user gave: a short excerpt, never the whole input.

A method name, a setting, a token or a line of a file can be a megabyte long; a message that
quotes it whole is unreadable (and a "one-line" error of a command line becomes a megabyte of
terminal). `excerpt(value)` is the repr of a value cut to its first and last characters with
how many were left out, and a huge integer by its number of digits, so every message stays
short whatever the input.
"""

from __future__ import annotations

EXCERPT_CHARS = 60  # characters of a quoted value kept in a message (its start and its end)


def excerpt(value, limit: int = EXCERPT_CHARS) -> str:
    """`repr(value)` (a string as typed, quoted) at most about `limit` characters long: a
    longer one keeps its start and end around "… (N characters) …"; an integer too long to
    read is given by its sign and number of digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        digits = _digits(value)
        if digits > limit:
            return f"{'-' if value < 0 else ''}an integer of {digits:,} digits"
        return str(value)
    if isinstance(value, float):
        return repr(value)
    try:
        text = repr(value)
    except Exception:  # a user object whose repr fails
        return f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    keep = max(limit // 2 - 4, 8)
    return f"{text[:keep]}… ({len(text):,} characters) …{text[-keep:]}"


def _digits(value: int) -> int:
    """The decimal digits of `value` (without str(), which refuses 4,300 digits and more)."""
    n = abs(value)
    if n < 10**18:
        return len(str(n))
    estimate = int(n.bit_length() * 0.30102999566398120) + 1  # log10(2)
    # the estimate is the digit count or one more
    return estimate if n >= 10 ** (estimate - 1) else estimate - 1


def short_text(text: str, limit: int = EXCERPT_CHARS) -> str:
    """A user string without quotes, cut as `excerpt` cuts it (for messages that show the
    text itself, e.g. an unknown name)."""
    if len(text) <= limit:
        return text
    keep = max(limit // 2 - 4, 8)
    return f"{text[:keep]}… ({len(text):,} characters) …{text[-keep:]}"
