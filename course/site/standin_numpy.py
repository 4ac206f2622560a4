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
from collections.abc import Iterable, Iterator
from typing import Any

IS_STANDIN = True
__version__ = "2.4.6"


class dtype:  # noqa: N801 - numpy's own spelling
    """An element type, named as numpy names it, stored with an ``array`` typecode."""

    def __init__(self, name: str, code: str) -> None:
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
    raise NotImplementedError(f"the numpy stand-in has no dtype {kind!r}")


def _unsupported(what: str) -> NotImplementedError:
    return NotImplementedError(f"{what} needs the real numpy; this site has the offline stand-in")


class ndarray:  # noqa: N801 - numpy's own spelling
    """A flat array of numbers kept in an ``array.array`` (shape kept for reshaped views)."""

    def __init__(
        self, data: _array.array[Any], kind: dtype, shape: tuple[int, ...] | None = None
    ) -> None:
        self._data, self.dtype = data, kind
        self.shape = shape if shape is not None else (len(data),)
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
        wanted = (
            tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], tuple) else tuple(shape)
        )
        total = 1
        for extent in wanted:
            total *= extent
        if total != len(self._data):
            raise ValueError(
                f"cannot reshape an array of size {len(self._data)} into shape {wanted}"
            )
        return ndarray(self._data, self.dtype, wanted)

    def tolist(self) -> list[Any]:
        return self._data.tolist()

    def tobytes(self) -> bytes:
        return self._data.tobytes()

    def __len__(self) -> int:
        return self.shape[0]

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


def _flat(values: Any) -> tuple[list[Any], tuple[int, ...]]:
    if isinstance(values, ndarray):
        return values.tolist(), values.shape
    items = list(values)
    if items and isinstance(items[0], (list, tuple, ndarray)):
        rows = [_flat(item) for item in items]
        inner = {shape for _, shape in rows}
        if len(inner) != 1:
            raise ValueError("the rows of an array must all have the same length")
        return [x for row, _ in rows for x in row], (len(items), *inner.pop())
    return items, (len(items),)


def _make(values: Iterable[Any], kind: dtype, shape: tuple[int, ...] | None = None) -> ndarray:
    if not kind.code:
        raise _unsupported(f"storing {kind.name}")
    items = list(values)
    if kind.code in "fd":
        items = [float(x) for x in items]
    elif kind.code == "B" or kind.code == "b":
        items = [int(x) for x in items]
    else:
        items = [int(x) for x in items]
    return ndarray(_array.array(kind.code, items), kind, shape)


def _guess(items: list[Any]) -> dtype:
    return int64 if all(isinstance(x, (bool, int)) for x in items) else float64


def asarray(values: Any, dtype: Any = None) -> ndarray:
    """``values`` (a list, nested lists or an array) as an array."""
    if isinstance(values, ndarray) and dtype is None:
        return values
    items, shape = _flat(values)
    kind = (
        _dtype(dtype)
        if dtype is not None
        else (values.dtype if isinstance(values, ndarray) else _guess(items))
    )
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
    data = _array.array(kind.code)
    data.frombytes(bytes(buffer))
    return ndarray(data, kind)


def concatenate(arrays: Iterable[Any], axis: int = 0) -> ndarray:
    """One flat array of the arrays one after another."""
    parts = [asarray(part) for part in arrays]
    if axis != 0 or any(part.ndim != 1 for part in parts):
        raise _unsupported("concatenating along another axis")
    kind = float64 if any(part.dtype.code in "fd" for part in parts) else parts[0].dtype
    return _make([x for part in parts for x in part.tolist()], kind)


def zeros(shape: Any, dtype: Any = float64) -> ndarray:
    """An array of zeros of ``shape``."""
    wanted = (shape,) if isinstance(shape, int) else tuple(shape)
    total = 1
    for extent in wanted:
        total *= extent
    return _make([0] * total, _dtype(dtype), wanted)


def sum(values: Any) -> Any:  # noqa: A001 - numpy's own name
    """The sum of every element."""
    import builtins

    return builtins.sum(asarray(values).tolist())
