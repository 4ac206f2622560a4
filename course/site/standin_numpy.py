"""A STAND-IN for numpy in the offline browser site: NOT the real numpy.

Pyodide's real numpy exists only in Pyodide's own distribution, which the build
cannot always reach.  ipycanvas imports numpy, and the kit's board reaches only a
few of its functions (packing drawing commands into a byte buffer), so the site
build can package this module as ``numpy`` instead.  It knows one-dimensional and
flat arrays of whole and floating numbers, enough for ipycanvas's command buffers;
anything else raises ``NotImplementedError`` saying it is the stand-in.  A lesson
that really computes with numpy needs the real one (``--pyodide-packages``).
"""

from __future__ import annotations

import array as _array
import itertools as _itertools
import reprlib as _reprlib
from collections.abc import Iterable, Iterator
from typing import Any

try:  # in the site the kit is installed too: a refusal is then also the kit's own error
    from reversi.errors import ReversiError as _Base
except ImportError:  # pragma: no cover - the stand-in's wheel alone
    _Base = Exception  # type: ignore[misc,assignment]

IS_STANDIN = True
__version__ = "2.4.6"

#: Most elements an array of the stand-in holds, and most read from an iterator of unknown length.
_MAX_ITEMS = 1 << 24
_MAX_STREAMED = 1 << 20
#: Deepest nesting of lists read (numpy's own limit is 64 dimensions).
_MAX_DEPTH = 32
_CODES = ("", "b", "B", "h", "i", "q", "f", "d")


class StandInError(_Base, NotImplementedError):
    """Something only the real numpy can do; the message says so."""


class ArrayValueError(_Base, ValueError):
    """A value no array can be made of (text, a number too large for its type, a bad shape)."""


def _shown(value: object) -> str:
    try:
        return _reprlib.repr(value)
    except Exception:  # a value whose repr fails (a huge number) still gets a name
        return f"<a {type(value).__name__}>"


class dtype:  # noqa: N801 - numpy's own spelling
    """An element type, named as numpy names it, stored with an ``array`` typecode."""

    def __init__(self, name: str, code: str) -> None:
        if not isinstance(name, str) or not isinstance(code, str) or code not in _CODES:
            raise ArrayValueError(
                f"a dtype is a name and one of the typecodes {_CODES}, not {_shown(name)}, {_shown(code)}"
            )
        self.name, self.code = name, code

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self.name == other
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"dtype('{self.name}')"


uint8 = dtype("uint8", "B")
int8 = dtype("int8", "b")
int16 = dtype("int16", "h")
int32 = dtype("int32", "i")
int64 = dtype("int64", "q")
float16 = dtype("float16", "")  # only compared against, never stored
float32 = dtype("float32", "f")
float64 = dtype("float64", "d")
_BY_NAME = {kind.name: kind for kind in (uint8, int8, int16, int32, int64, float32, float64)}


def _dtype(kind: Any) -> dtype:
    if kind is None:
        return float64
    if isinstance(kind, dtype):
        return kind
    if kind is int:
        return int64
    if kind is float:
        return float64
    if isinstance(kind, str) and kind in _BY_NAME:
        return _BY_NAME[kind]
    raise StandInError(f"the numpy stand-in has no dtype {_shown(kind)}")


def _unsupported(what: str) -> StandInError:
    return StandInError(f"{what} needs the real numpy; this site has the offline stand-in")


def _shape(shape: Any, what: str) -> tuple[int, ...]:
    """``shape`` (a whole number or a tuple of them, none negative), checked."""
    wanted = (shape,) if isinstance(shape, int) else shape
    if not isinstance(wanted, tuple | list) or len(wanted) > _MAX_DEPTH or not all(
        isinstance(extent, int) and not isinstance(extent, bool) and extent >= 0 for extent in wanted
    ):
        raise ArrayValueError(f"{what} is a tuple of whole numbers from 0 up, not {_shown(shape)}")
    return tuple(wanted)


def _total(shape: tuple[int, ...]) -> int:
    total = 1
    for extent in shape:
        total *= extent
        if total > _MAX_ITEMS:
            raise _unsupported(f"an array of shape {_shown(shape)} (more than {_MAX_ITEMS} elements)")
    return total


class ndarray:  # noqa: N801 - numpy's own spelling
    """A flat array of numbers kept in an ``array.array`` (shape kept for reshaped views)."""

    def __init__(
        self, data: _array.array[Any], kind: dtype, shape: tuple[int, ...] | None = None
    ) -> None:
        if not isinstance(data, _array.array) or not isinstance(kind, dtype):
            raise ArrayValueError(
                f"an ndarray is made from an array.array and a dtype, not {_shown(data)}, {_shown(kind)}"
            )
        shape = shape if shape is not None else (len(data),)
        if _total(_shape(shape, "an array's shape")) != len(data):
            raise ArrayValueError(f"{len(data)} elements do not fill the shape {_shown(shape)}")
        self._data, self.dtype = data, kind
        self.shape = tuple(shape)
        self.flags = {"C_CONTIGUOUS": True}

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return len(self._data)

    def astype(self, kind: Any) -> ndarray:
        return _make(self._data, _dtype(kind), self.shape)

    def ravel(self) -> ndarray:
        return ndarray(self._data, self.dtype)

    flatten = ravel

    def reshape(self, *shape: Any) -> ndarray:
        wanted = _shape(
            shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape, "a new shape"
        )
        if _total(wanted) != len(self._data):
            raise ArrayValueError(
                f"cannot reshape an array of size {len(self._data)} into shape {wanted}"
            )
        return ndarray(self._data, self.dtype, wanted)

    def tolist(self) -> list[Any]:
        return self._data.tolist()

    def tobytes(self) -> bytes:
        return self._data.tobytes()

    def __len__(self) -> int:
        return self.shape[0] if self.shape else 0

    def __iter__(self) -> Iterator[Any]:
        if self.ndim != 1:
            raise _unsupported("iterating a multi-dimensional array")
        return iter(self._data)

    def __getitem__(self, index: Any) -> Any:
        if self.ndim != 1:
            raise _unsupported("indexing a multi-dimensional array")
        if isinstance(index, slice):
            return ndarray(self._data[index], self.dtype)
        return self._data[index]

    def __buffer__(self, flags: int) -> memoryview:
        return memoryview(self._data)

    def __repr__(self) -> str:
        return f"array({self.tolist()}, dtype={self.dtype.name})  # numpy stand-in"


def _items(values: Any) -> list[Any]:
    """The elements of ``values`` as a list: a sized collection, or at most
    :data:`_MAX_STREAMED` from an iterator (a generator may never end)."""
    if isinstance(values, str):
        raise ArrayValueError(f"the numpy stand-in holds numbers, not text: {_shown(values)}")
    try:
        if hasattr(values, "__len__"):
            if len(values) > _MAX_ITEMS:
                raise _unsupported(f"an array of more than {_MAX_ITEMS} elements")
            return list(values)
        items = list(_itertools.islice(iter(values), _MAX_STREAMED + 1))
    except TypeError:
        raise ArrayValueError(f"an array is made of a list of numbers, not {_shown(values)}") from None
    if len(items) > _MAX_STREAMED:
        raise _unsupported(f"an array from an iterator of more than {_MAX_STREAMED} elements")
    return items


def _flat(values: Any, depth: int = 0) -> tuple[list[Any], tuple[int, ...]]:
    if isinstance(values, ndarray):
        return values.tolist(), values.shape
    if depth > _MAX_DEPTH:
        raise ArrayValueError(f"lists nested more than {_MAX_DEPTH} deep are not an array")
    items = _items(values)
    if items and isinstance(items[0], (list, tuple, ndarray)):
        rows = [_flat(item, depth + 1) for item in items]
        inner = {shape for _, shape in rows}
        if len(inner) != 1:
            raise ArrayValueError("the rows of an array must all have the same length")
        flat = [x for row, _ in rows for x in row]
        if len(flat) > _MAX_ITEMS:
            raise _unsupported(f"an array of more than {_MAX_ITEMS} elements")
        return flat, (len(items), *inner.pop())
    return items, (len(items),)


def _make(values: Iterable[Any], kind: dtype, shape: tuple[int, ...] | None = None) -> ndarray:
    if not kind.code:
        raise _unsupported(f"storing {kind.name}")
    convert = float if kind.code in "fd" else int
    items = list(values)
    try:
        data = _array.array(kind.code, [_converted(x, convert) for x in items])
    except (TypeError, ValueError, ArithmeticError):
        wrong = next((x for x in items if not _fits(x, kind, convert)), None)
        raise ArrayValueError(
            f"{_shown(wrong)} cannot be stored in an array of {kind.name}"
        ) from None
    return ndarray(data, kind, shape)


def _converted(value: Any, convert: Any) -> Any:
    if isinstance(value, str | bytes):  # numpy would make an array of text; the stand-in holds numbers
        raise TypeError
    return convert(value)


def _fits(value: Any, kind: dtype, convert: Any) -> bool:
    try:
        _array.array(kind.code, [_converted(value, convert)])
    except (TypeError, ValueError, ArithmeticError):
        return False
    return True


def _guess(items: list[Any]) -> dtype:
    return int64 if all(isinstance(x, (bool, int)) for x in items) else float64


def asarray(values: Any, dtype: Any = None) -> ndarray:
    """``values`` (a list, nested lists or an array) as an array."""
    if isinstance(values, ndarray) and dtype is None:
        return values
    kind = _dtype(dtype) if dtype is not None else None
    items, shape = _flat(values)
    if kind is None:
        kind = values.dtype if isinstance(values, ndarray) else _guess(items)
    return _make(items, kind, shape)


def array(values: Any, dtype: Any = None, copy: bool = True) -> ndarray:
    """A new array of ``values``."""
    made = asarray(values, dtype)
    return (
        ndarray(_array.array(made._data.typecode, made._data), made.dtype, made.shape)
        if made is values
        else made
    )


def require(values: Any, dtype: Any = None, requirements: Any = None) -> ndarray:
    """``values`` as an array of ``dtype`` (always contiguous here)."""
    return asarray(values, dtype)


def ascontiguousarray(values: Any, dtype: Any = None) -> ndarray:
    """``values`` as an array (every stand-in array is contiguous)."""
    return asarray(values, dtype)


def frombuffer(buffer: bytes | bytearray | memoryview, dtype: Any = float64) -> ndarray:
    """The bytes of ``buffer`` read as numbers of ``dtype``."""
    kind = _dtype(dtype)
    if not kind.code:
        raise _unsupported(f"reading {kind.name}")
    try:
        raw = bytes(memoryview(buffer))  # never bytes(n), which makes n zero bytes
    except TypeError:
        raise ArrayValueError(f"frombuffer reads bytes, not {_shown(buffer)}") from None
    data = _array.array(kind.code)
    if len(raw) % data.itemsize:
        raise ArrayValueError(
            f"{len(raw)} bytes are not a whole number of {kind.name} elements ({data.itemsize} bytes each)"
        )
    data.frombytes(raw)
    return ndarray(data, kind)


def concatenate(arrays: Iterable[Any], axis: int = 0) -> ndarray:
    """One flat array of the arrays one after another."""
    parts = [asarray(part) for part in _items(arrays)]
    if not parts:
        raise ArrayValueError("concatenate needs at least one array")
    if axis != 0 or any(part.ndim != 1 for part in parts):
        raise _unsupported("concatenating along another axis")
    kind = float64 if any(part.dtype.code in "fd" for part in parts) else parts[0].dtype
    flat = [x for part in parts for x in part.tolist()]
    if len(flat) > _MAX_ITEMS:
        raise _unsupported(f"an array of more than {_MAX_ITEMS} elements")
    return _make(flat, kind)


def zeros(shape: Any, dtype: Any = float64) -> ndarray:
    """An array of zeros of ``shape``."""
    wanted = _shape(shape, "the shape of zeros")
    total = _total(wanted)
    kind = _dtype(dtype)
    if not kind.code:
        raise _unsupported(f"storing {kind.name}")
    data = _array.array(kind.code)
    data.frombytes(bytes(total * data.itemsize))
    return ndarray(data, kind, wanted)


def sum(values: Any) -> Any:  # noqa: A001 - numpy's own name
    """The sum of every element."""
    import builtins

    return builtins.sum(asarray(values).tolist())
