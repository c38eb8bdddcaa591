"""rouge_core.corpora.pickle_data: plain data out of a pickle without running any of its code."""

import copyreg
import io
import os
import pickle
import pickletools

import numpy as np
import pytest
from hypothesis import given, strategies as st

from rouge_core.corpora.pickle_data import PickleError, looks_like_pickle, read_pickle_data
from tests.fuzzing import FUZZ, fuzz

PROTOCOLS = range(0, pickle.HIGHEST_PROTOCOL + 1)


class Shell:
    """Runs a command when unpickled (what a hostile pickle does)."""

    def __init__(self, command: str):
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


class Plain:
    """An ordinary object: pickled with NEWOBJ / BUILD (or INST / OBJ in protocols 0 and 1)."""

    def __init__(self):
        self.x = 1


@pytest.fixture
def witness(tmp_path):
    """A file a hostile pickle would create: it must never exist."""
    path = tmp_path / "ran"
    yield path
    assert not path.exists(), "the pickle ran code"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_pickle_that_would_run_a_command_is_refused_and_runs_nothing(protocol, witness):
    data = pickle.dumps({"scores": Shell(f"touch {witness}")}, protocol=protocol)
    with pytest.raises(PickleError, match=r"evil.pkl: byte \d+ \(REDUCE\): the file calls (posix|os|nt)\.system, "
                                          "which this reader does not run"):
        read_pickle_data(data, "evil.pkl")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_objects_of_classes_are_refused(protocol):
    data = pickle.dumps([Plain()], protocol=protocol)
    with pytest.raises(PickleError, match="(creates an instance|the file calls copy_?reg\\._reconstructor)"):
        read_pickle_data(data)


def test_builtins_eval_through_stack_global_is_refused(witness):
    data = (b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00" + b"\x8c\x08builtins\x8c\x04eval\x93"
            + b"\x8c" + bytes([len(f"open('{witness}','w')")]) + f"open('{witness}','w')".encode() + b"\x85R.")
    with pytest.raises(PickleError, match=r"the file calls builtins\.eval"):
        read_pickle_data(data)


def test_extension_codes_persistent_ids_and_build_are_refused():
    copyreg.add_extension("collections", "OrderedDict", 240)
    try:
        import collections

        ext = pickle.dumps(collections.OrderedDict, protocol=2)  # EXT1 240
    finally:
        copyreg.remove_extension("collections", "OrderedDict", 240)
    with pytest.raises(PickleError, match=r"\(EXT1\): the file names a callable through the extension registry"):
        read_pickle_data(ext)

    class KeyedPickler(pickle.Pickler):
        # a subclass's method: since Python 3.13 the C Pickler's persistent_id cannot be set on an instance
        def persistent_id(self, obj):
            return "key" if obj == "secret" else None

    buffer = io.BytesIO()
    KeyedPickler(buffer, protocol=2).dump(["secret"])
    with pytest.raises(PickleError, match=r"\(BINPERSID\): the file asks for an object by persistent id"):
        read_pickle_data(buffer.getvalue())

    built = b"\x80\x02}q\x00}q\x01b."  # BUILD on a dict
    with pytest.raises(PickleError, match=r"\(BUILD\): BUILD sets the state of an object"):
        read_pickle_data(built)


def test_numpy_calls_other_than_number_scalars_are_refused():
    with pytest.raises(PickleError, match="a numpy dtype other than a fixed-size number \\('O8'\\)"):
        read_pickle_data(pickle.dumps(np.dtype(object), protocol=3))
    with pytest.raises(PickleError, match="REDUCE calls|the file calls numpy"):
        read_pickle_data(pickle.dumps(np.arange(3), protocol=3))  # arrays are not scalars
    with pytest.raises(PickleError, match="the data holds a reference to numpy.dtype|holds numpy.dtype"):
        read_pickle_data(b"\x80\x02cnumpy\ndtype\nq\x00.")  # a bare global as the value


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_numpy_number_scalars_become_python_numbers(protocol):
    values = {"f8": np.float64(0.1), "f4": np.float32(1.5), "f2": np.float16(-2.0), "i8": np.int64(-3),
              "u1": np.uint8(250), "b": np.bool_(True), "big": np.array([2.5], dtype=">f8")[0],
              "i2": np.array([-7], dtype=">i2")[0]}
    read = read_pickle_data(pickle.dumps(values, protocol=protocol))
    assert read == {"f8": 0.1, "f4": 1.5, "f2": -2.0, "i8": -3, "u1": 250, "b": True, "big": 2.5, "i2": -7}
    assert type(read["f8"]) is float and type(read["i8"]) is int and type(read["b"]) is bool


def test_truncated_and_garbage_bytes_are_named():
    data = pickle.dumps({"a": [1, 2, 3]}, protocol=3)
    with pytest.raises(PickleError, match="x.pkl: not a pickle this reader can read"):
        read_pickle_data(data[:-3], "x.pkl")
    with pytest.raises(PickleError, match="x.pkl: "):
        read_pickle_data(b"\x80\x03\xff\xff", "x.pkl")
    assert looks_like_pickle(data) and not looks_like_pickle(b'{"a": 1}') and not looks_like_pickle(b"\x80")


def test_a_container_holding_itself_is_read():
    looped: list = [1]
    looped.append(looped)
    read = read_pickle_data(pickle.dumps(looped, protocol=2))
    assert read[0] == 1 and read[1] is read


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10) | st.binary(max_size=10),
    lambda inner: (st.lists(inner, max_size=5) | st.tuples(inner, inner)
                   | st.dictionaries(st.text(max_size=5) | st.integers(), inner, max_size=5)
                   | st.frozensets(st.integers() | st.text(max_size=5), max_size=5)
                   | st.sets(st.integers(), max_size=5)),
    max_leaves=20)


@fuzz
@FUZZ
@given(PLAIN, st.sampled_from(list(PROTOCOLS)))
def test_plain_data_reads_as_pickle_load_gives_it(value, protocol):
    data = pickle.dumps(value, protocol=protocol)
    assert read_pickle_data(data) == pickle.loads(data)


@fuzz
@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_give_data_or_a_pickle_error(data):
    try:
        read_pickle_data(b"\x80\x03" + data)
    except PickleError:
        pass


def test_the_opcodes_a_reduce_needs_are_all_refused_outside_numpy():
    """Every opcode pickletools knows is either read as data, a numpy scalar's part, or refused."""
    from rouge_core.corpora import pickle_data

    handled = {"PROTO", "FRAME", "STOP", "MARK", "POP", "POP_MARK", "DUP", "NONE", "NEWTRUE", "NEWFALSE", "INT",
               "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "FLOAT", "BINFLOAT", "UNICODE",
               "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "BINBYTES", "SHORT_BINBYTES", "BINBYTES8", "STRING",
               "BINSTRING", "SHORT_BINSTRING", "BYTEARRAY8", "EMPTY_DICT", "EMPTY_LIST", "EMPTY_TUPLE", "EMPTY_SET",
               "DICT", "LIST", "TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "FROZENSET", "SETITEM", "SETITEMS", "APPEND",
               "APPENDS", "ADDITEMS", "PUT", "BINPUT", "LONG_BINPUT", "MEMOIZE", "GET", "BINGET", "LONG_BINGET",
               "GLOBAL", "STACK_GLOBAL", "REDUCE", "BUILD"}
    every = {op.name for op in pickletools.opcodes}
    assert every == handled | set(pickle_data._REFUSED)
