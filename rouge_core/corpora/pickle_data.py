"""Plain data out of a pickle file, without unpickling it.

`pickle.load` runs code: a pickle names callables (the GLOBAL and STACK_GLOBAL opcodes import
any module's attribute) and calls them (REDUCE, NEWOBJ, INST, OBJ, BUILD through
`__setstate__`, the extension registry, persistent ids), so loading a pickle someone else
made can do anything the app can. REALSumm releases its judgements as pickles (`abs.pkl`,
`ext.pkl`), so this module reads such files another way.

`read_pickle_data` never calls `pickle`. It walks the opcodes with `pickletools.genops`,
which only decodes them (it resolves no global and calls nothing), on a stack machine of its
own that can build nothing but dict, list, tuple, set, frozenset, str, bytes, int, float,
bool and None:

* a global is never imported: GLOBAL / STACK_GLOBAL push an inert `Global(module, name)`
  record (two strings);
* REDUCE is evaluated only for the two globals of numpy's scalar pickles, and by this
  module's code, not numpy's: `numpy.dtype(spec, align, copy)` gives a `_DType` record of a
  fixed-size number type, BUILD on it sets its byte order, and
  `numpy.core.multiarray.scalar(dtype, raw bytes)` (also spelt `numpy._core.multiarray`) is
  decoded with `struct` into a Python float, int or bool;
* every other opcode that could call something (INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1/2/4,
  PERSID, BINPERSID, BUILD on anything else, REDUCE on anything else) and the out-of-band
  buffers of protocol 5 are refused, naming the opcode and its byte position.

So there is no path from a file's bytes to any callable but the functions below: the file
cannot run code. Memory stays proportional to the file (no opcode copies a container), and
the walk is a loop, not a recursion.
"""

from __future__ import annotations

import pickletools
import struct
import sys
from dataclasses import dataclass

__all__ = ["PickleError", "read_pickle_data", "looks_like_pickle"]

PICKLE_PROTOCOLS = range(2, 6)  # protocol 2+ files start with PROTO (0x80) and their number


class PickleError(ValueError):
    """The file is not a pickle of plain data this reader accepts (the message says why)."""


@dataclass(frozen=True)
class Global:
    """What a GLOBAL opcode names; never imported."""

    module: str
    name: str

    def __str__(self) -> str:
        return f"{self.module}.{self.name}"


_NUMPY_DTYPE = {("numpy", "dtype")}
_BUILTIN_CONTAINERS = {(module, kind.__name__): kind for module in ("builtins", "__builtin__")
                       for kind in (set, frozenset, bytes, bytearray)}
_LATIN1_ENCODE = {("_codecs", "encode")}
_NUMPY_SCALAR = {("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar")}

# numpy dtype spec -> struct format (without byte order) and the Python type of its value
_NUMBER_TYPES = {
    "f8": "d", "f4": "f", "f2": "e",
    "i8": "q", "i4": "i", "i2": "h", "i1": "b",
    "u8": "Q", "u4": "I", "u2": "H", "u1": "B",
    "b1": "?",
}
_BYTE_ORDERS = {"<": "<", ">": ">", "|": "<", "=": "<" if sys.byteorder == "little" else ">"}


@dataclass
class _DType:
    """A numpy dtype of a fixed-size number, as far as its pickle says (mutable: BUILD sets
    its byte order)."""

    spec: str
    order: str = "="


class _Mark:
    """The MARK opcode's place on the stack."""


_MARK = _Mark()

_REFUSED = {  # opcode -> why it is refused (each can call code, or needs data from elsewhere)
    "INST": "creates an instance of a named class",
    "OBJ": "creates an instance of a class",
    "NEWOBJ": "creates an instance of a class",
    "NEWOBJ_EX": "creates an instance of a class",
    "EXT1": "names a callable through the extension registry",
    "EXT2": "names a callable through the extension registry",
    "EXT4": "names a callable through the extension registry",
    "PERSID": "asks for an object by persistent id",
    "BINPERSID": "asks for an object by persistent id",
    "NEXT_BUFFER": "needs an out-of-band buffer",
    "READONLY_BUFFER": "needs an out-of-band buffer",
}


def looks_like_pickle(data: bytes) -> bool:
    """Whether the bytes start as a pickle of protocol 2 or later does (every pickle Python 3
    writes by default)."""
    return len(data) >= 2 and data[0] == 0x80 and data[1] in PICKLE_PROTOCOLS


def _scalar(dtype: _DType, raw: bytes, where: str):
    code = _NUMBER_TYPES[dtype.spec]
    if len(raw) != struct.calcsize(code):
        raise PickleError(f"{where}: a numpy {dtype.spec} scalar of {len(raw)} bytes")
    return struct.unpack(_BYTE_ORDERS[dtype.order] + code, raw)[0]


def _reduce(func, args, where: str):
    if not isinstance(func, Global):
        raise PickleError(f"{where}: REDUCE calls something that is not a named function")
    if not isinstance(args, tuple):
        raise PickleError(f"{where}: REDUCE with arguments that are not a tuple")
    key = (func.module, func.name)
    if key in _BUILTIN_CONTAINERS:  # protocols 0-2 write sets, frozensets and bytes as calls
        kind = _BUILTIN_CONTAINERS[key]
        if not args:
            return bytes() if kind is bytearray else kind()
        if len(args) != 1 or not isinstance(args[0], (list, tuple, bytes)):
            raise PickleError(f"{where}: {func} of something other than one list")
        try:
            if kind in (bytes, bytearray):
                return bytes(args[0])  # a list of small ints, or bytes
            return kind(_plain(v, where) for v in args[0])
        except (TypeError, ValueError):
            raise PickleError(f"{where}: {func} of unhashable values or of values that are no bytes") from None
    if key in _LATIN1_ENCODE:  # protocols 0-2 write bytes as _codecs.encode(text, "latin1")
        if len(args) == 2 and isinstance(args[0], str) and args[1] == "latin1":
            try:
                return args[0].encode("latin-1")
            except UnicodeEncodeError:
                raise PickleError(f"{where}: bytes given as text beyond Latin-1") from None
        raise PickleError(f"{where}: {func} other than of Latin-1 text")
    if key in _NUMPY_DTYPE:
        if len(args) == 3 and args[0] in _NUMBER_TYPES and args[1] in (False, 0) and args[2] in (True, 1):
            return _DType(args[0])
        raise PickleError(f"{where}: a numpy dtype other than a fixed-size number ({args[0]!r})"
                          if args else f"{where}: a numpy dtype without arguments")
    if key in _NUMPY_SCALAR:
        if len(args) == 2 and isinstance(args[0], _DType) and isinstance(args[1], bytes):
            return _scalar(args[0], args[1], where)
        raise PickleError(f"{where}: a numpy scalar of another kind than a number")
    raise PickleError(f"{where}: the file calls {func}, which this reader does not run (only plain data "
                      "and numpy numbers are read)")


def _build(target, state, where: str) -> None:
    """BUILD: only a numpy number dtype's state, (version, byte order, None, None, None, -1,
    -1, flags), is accepted."""
    if (isinstance(target, _DType) and isinstance(state, tuple) and len(state) == 8 and state[0] in (3, 4)
            and state[1] in _BYTE_ORDERS and state[2:5] == (None, None, None) and state[5:7] == (-1, -1)
            and isinstance(state[7], int)):
        target.order = state[1]
        return
    raise PickleError(f"{where}: BUILD sets the state of an object (only plain data is read)")


def _pop_mark(stack: list, where: str) -> list:
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is _MARK:
            items = stack[i + 1:]
            del stack[i:]
            return items
    raise PickleError(f"{where}: no MARK before this opcode")


def _pop(stack: list, where: str, count: int = 1) -> list:
    if len(stack) < count or any(v is _MARK for v in stack[len(stack) - count:]):
        raise PickleError(f"{where}: the stack holds too few values")
    items = stack[len(stack) - count:]
    del stack[len(stack) - count:]
    return items


def _plain(value, where: str):
    """A value that may go into the result (not a dtype or a global on its own)."""
    if isinstance(value, (Global, _DType)):
        raise PickleError(f"{where}: the data holds a reference to {value} (only plain data is read)")
    return value


def _set_items(target, pairs: list, where: str) -> None:
    if not isinstance(target, dict):
        raise PickleError(f"{where}: SETITEM(S) on something that is not a dict")
    if len(pairs) % 2:
        raise PickleError(f"{where}: an odd number of keys and values")
    for k in range(0, len(pairs), 2):
        try:
            target[_plain(pairs[k], where)] = _plain(pairs[k + 1], where)
        except TypeError:
            raise PickleError(f"{where}: a dict key of type {type(pairs[k]).__name__}") from None


def read_pickle_data(data: bytes, name: str = "file.pkl"):
    """The plain data a pickle file holds (see the module's text for what is read and why it
    cannot run code). Raises PickleError naming the first thing it refuses."""
    stack: list = []
    memo: dict = {}
    result = _MARK
    try:
        for opcode, arg, pos in pickletools.genops(data):
            op = opcode.name
            where = f"{name}: byte {pos} ({op})"
            if op in _REFUSED:
                raise PickleError(f"{where}: the file {_REFUSED[op]}, which this reader does not do (only plain data "
                                  "and numpy numbers are read)")
            if op in ("PROTO", "FRAME"):
                continue
            if op == "STOP":
                (result,) = _pop(stack, where)
                break
            if op == "MARK":
                stack.append(_MARK)
            elif op == "POP":
                if stack and stack[-1] is _MARK:
                    stack.pop()
                else:
                    _pop(stack, where)
            elif op == "POP_MARK":
                _pop_mark(stack, where)
            elif op == "DUP":
                stack.append(_pop(stack, where)[0])
                stack.append(stack[-1])
            elif op == "NONE":
                stack.append(None)
            elif op in ("NEWTRUE", "NEWFALSE"):
                stack.append(op == "NEWTRUE")
            elif op == "INT":  # protocol 0 writes True / False as I01 / I00; genops decodes them
                stack.append(arg)
            elif op in ("BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4", "FLOAT", "BINFLOAT",
                        "UNICODE", "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8",
                        "BINBYTES", "SHORT_BINBYTES", "BINBYTES8"):
                stack.append(arg)
            elif op in ("STRING", "BINSTRING", "SHORT_BINSTRING"):  # Python 2 str: text
                stack.append(arg.decode("latin-1") if isinstance(arg, bytes) else arg)
            elif op == "BYTEARRAY8":
                stack.append(bytes(arg))
            elif op == "EMPTY_DICT":
                stack.append({})
            elif op == "EMPTY_LIST":
                stack.append([])
            elif op == "EMPTY_TUPLE":
                stack.append(())
            elif op == "EMPTY_SET":
                stack.append(set())
            elif op == "DICT":
                d: dict = {}
                _set_items(d, _pop_mark(stack, where), where)
                stack.append(d)
            elif op == "LIST":
                stack.append([_plain(v, where) for v in _pop_mark(stack, where)])
            elif op == "TUPLE":
                stack.append(tuple(_pop_mark(stack, where)))
            elif op in ("TUPLE1", "TUPLE2", "TUPLE3"):
                stack.append(tuple(_pop(stack, where, int(op[-1]))))
            elif op == "FROZENSET":
                try:
                    stack.append(frozenset(_plain(v, where) for v in _pop_mark(stack, where)))
                except TypeError:
                    raise PickleError(f"{where}: a set of unhashable values") from None
            elif op == "SETITEM":
                pairs = _pop(stack, where, 2)
                if not stack or stack[-1] is _MARK:
                    raise PickleError(f"{where}: SETITEM without a dict")
                _set_items(stack[-1], pairs, where)
            elif op == "SETITEMS":
                pairs = _pop_mark(stack, where)
                if not stack or stack[-1] is _MARK:
                    raise PickleError(f"{where}: SETITEMS without a dict")
                _set_items(stack[-1], pairs, where)
            elif op in ("APPEND", "APPENDS"):
                items = _pop(stack, where) if op == "APPEND" else _pop_mark(stack, where)
                if not stack or not isinstance(stack[-1], list):
                    raise PickleError(f"{where}: {op} on something that is not a list")
                stack[-1].extend(_plain(v, where) for v in items)
            elif op == "ADDITEMS":
                items = _pop_mark(stack, where)
                if not stack or not isinstance(stack[-1], set):
                    raise PickleError(f"{where}: ADDITEMS on something that is not a set")
                try:
                    stack[-1].update(_plain(v, where) for v in items)
                except TypeError:
                    raise PickleError(f"{where}: a set of unhashable values") from None
            elif op in ("PUT", "BINPUT", "LONG_BINPUT"):
                if not stack or stack[-1] is _MARK:
                    raise PickleError(f"{where}: nothing to remember")
                memo[arg] = stack[-1]
            elif op == "MEMOIZE":
                if not stack or stack[-1] is _MARK:
                    raise PickleError(f"{where}: nothing to remember")
                memo[len(memo)] = stack[-1]
            elif op in ("GET", "BINGET", "LONG_BINGET"):
                if arg not in memo:
                    raise PickleError(f"{where}: refers to memo entry {arg}, which was never stored")
                stack.append(memo[arg])
            elif op == "GLOBAL":
                module, _, attribute = str(arg).partition(" ")
                stack.append(Global(module, attribute))
            elif op == "STACK_GLOBAL":
                module, attribute = _pop(stack, where, 2)
                if not isinstance(module, str) or not isinstance(attribute, str):
                    raise PickleError(f"{where}: a global named by something other than text")
                stack.append(Global(module, attribute))
            elif op == "REDUCE":
                func, args = _pop(stack, where, 2)
                stack.append(_reduce(func, args, where))
            elif op == "BUILD":
                (state,) = _pop(stack, where)
                if not stack or stack[-1] is _MARK:
                    raise PickleError(f"{where}: BUILD without an object")
                _build(stack[-1], state, where)
            else:
                raise PickleError(f"{where}: an opcode this reader does not know")
    except PickleError:
        raise
    except (ValueError, TypeError, struct.error, UnicodeDecodeError, OverflowError) as e:  # genops: truncated, unknown opcode
        raise PickleError(f"{name}: not a pickle this reader can read ({e})") from None
    if result is _MARK:
        raise PickleError(f"{name}: the pickle ends without its STOP opcode")
    _check_plain(result, name)
    return result


_PLAIN_LEAVES = (str, bytes, int, float, bool, type(None))
_PLAIN_CONTAINERS = (dict, list, tuple, set, frozenset)


def _check_plain(value, name: str) -> None:
    """Every value reachable from the result is plain data (a walk with a stack, each
    container once: a memo can make a container hold itself)."""
    seen: set[int] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, _PLAIN_LEAVES):
            continue
        if not isinstance(item, _PLAIN_CONTAINERS):
            raise PickleError(f"{name}: the data holds {item} (only plain data is read)")
        if id(item) in seen:
            continue
        seen.add(id(item))
        todo.extend(item.keys() if isinstance(item, dict) else ())
        todo.extend(item.values() if isinstance(item, dict) else item)
