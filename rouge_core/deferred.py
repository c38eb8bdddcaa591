"""Dataclass fields whose value may be computed on first read.

Evidence holds collections that can be big (a 2,000-token pair has 24,000 aligned pairs of
union LCS and 13,000 rows of rougeSU4) and that only a view or an export reads. The compiled
path gives such a field a `Later` instead of the value: the field computes it on first read
and keeps it, so the record reads, compares, hashes, prints and pickles exactly as if the
value had been given (the pure path gives it, and both are equal).

    @dataclass(frozen=True)
    class SkipBigramEvidence:
        rows: tuple[SkipBigramRow, ...] = Deferred()   # still a required field
        ...

    SkipBigramEvidence(..., Later(build_rows, cand, ref), ...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PENDING = object()


class Later:
    """`make(*args)`, computed once when first asked for (`value()`). Pickled (and deep-copied)
    as its value."""

    __slots__ = ("_make", "_args", "_value")

    def __init__(self, make: Callable[..., Any], *args) -> None:
        self._make = make
        self._args = args
        self._value = _PENDING

    def value(self):
        value = self._value
        if value is _PENDING:  # two threads may both compute it: the same value
            value = self._value = self._make(*self._args)
        return value

    def __reduce__(self):
        return (_given, (self.value(),))

    def __repr__(self) -> str:
        return f"Later({getattr(self._make, '__qualname__', self._make)})"


def _given(value):
    return value


class Deferred:
    """A dataclass field (declared `name: type = Deferred()`, required all the same) that
    accepts a `Later` for its value: the first read computes it and keeps the value in the
    instance's __dict__, under the field's own name."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:  # no class-level default: dataclasses then leave the field required
            raise AttributeError(self.name)
        value = obj.__dict__[self.name]
        if type(value) is Later:
            value = obj.__dict__[self.name] = value.value()
        return value

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.name] = value
