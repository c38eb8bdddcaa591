"""rouge_core.deferred: a dataclass field given a Later reads, compares, hashes, prints,
pickles and copies exactly as one given the value, and computes it once."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass, fields, replace

import pytest

from rouge_core.deferred import Deferred, Later


@dataclass(frozen=True)
class Record:
    name: str
    rows: tuple = Deferred()
    total: int = 0


CALLS: list[int] = []


def squares(n: int) -> tuple:
    CALLS.append(n)
    return tuple(k * k for k in range(n))


def test_a_later_is_computed_once_on_first_read():
    CALLS.clear()
    record = Record("a", Later(squares, 4), 14)
    assert CALLS == []
    assert record.rows == (0, 1, 4, 9) and record.rows is record.rows
    assert CALLS == [4]
    assert vars(record) == {"name": "a", "rows": (0, 1, 4, 9), "total": 14}


def test_a_deferred_record_equals_hashes_and_prints_as_a_given_one():
    given = Record("a", (0, 1, 4), 5)
    assert Record("a", Later(squares, 3), 5) == given
    assert hash(Record("a", Later(squares, 3), 5)) == hash(given)
    assert repr(Record("a", Later(squares, 3), 5)) == repr(given) == "Record(name='a', rows=(0, 1, 4), total=5)"
    assert Record("a", Later(squares, 2), 5) != given
    assert replace(Record("a", Later(squares, 3), 5), total=6) == Record("a", (0, 1, 4), 6)


def test_an_unread_record_pickles_and_copies_as_its_value():
    for clone in (lambda r: pickle.loads(pickle.dumps(r)), copy.deepcopy, copy.copy):
        CALLS.clear()
        again = clone(Record("b", Later(squares, 3)))
        assert again == Record("b", (0, 1, 4))
        assert CALLS == [3]
    again = pickle.loads(pickle.dumps(Record("b", Later(squares, 3))))
    assert type(vars(again)["rows"]) is tuple  # the copy holds the value, not the Later


def test_the_field_stays_required_and_frozen():
    assert [f.name for f in fields(Record)] == ["name", "rows", "total"]
    with pytest.raises(TypeError, match="rows"):
        Record("a")  # type: ignore[call-arg]
    with pytest.raises(FrozenInstanceError):
        Record("a", ()).rows = (1,)  # type: ignore[misc]
