"""NumPy's dtypes and scalar types over the engine's tensor dtypes.

The engine has float64, float32, int64 and bool tensors. The narrower
integers (int32, int16, int8, uint32, uint16, uint8) and uint64 are held in int64 tensors
and labelled; float16 in float32 tensors. `fit` brings a result back into
its dtype after each operation: integers wrap around as NumPy's do on
overflow, float16 values are rounded to half precision.
"""

from ._cpu import torch

_NAMES = {}


class dtype:
    """`np.dtype`: one instance per kind of element."""

    __module__ = "numpy"
    __slots__ = ("name", "kind", "itemsize", "char", "str", "type", "_torch", "_rank", "_vocab")

    def __new__(cls, spec=None, align=False, copy=False):
        return _as_dtype(spec)

    @classmethod
    def _make(cls, name, kind, itemsize, char, str_, torch_dtype, rank):
        self = object.__new__(cls)
        self.name = name
        self.kind = kind
        self.itemsize = itemsize
        self.char = char
        self.str = str_
        self.type = None
        self._torch = torch_dtype
        self._rank = rank
        _NAMES[name] = self
        return self

    def __repr__(self):
        if self.kind == "U":
            return f"dtype('{self.str if self.itemsize else '<U'}')"
        return f"dtype('{self.name}')"

    def __str__(self):
        return self.name

    def __eq__(self, other):
        if isinstance(other, dtype):
            return self is other or (self.kind == "U" and other.kind == "U" and self.itemsize == other.itemsize)
        try:
            return self is _as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.name)

    @property
    def descr(self):
        return [("", self.str)]

    @property
    def byteorder(self):
        return "|" if self.itemsize == 1 else "="

    @property
    def names(self):
        return None

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def alignment(self):
        return self.itemsize

    @property
    def num(self):
        return {"bool": 0, "int8": 1, "uint8": 2, "int16": 3, "uint16": 4, "int32": 5, "uint32": 6, "int64": 7, "uint64": 8, "float16": 23,
                "float32": 11, "float64": 12}[self.name]


# rank orders kinds for promotion: bool < integers < floats.
bool_dtype = dtype._make("bool", "b", 1, "?", "|b1", torch.bool, 0)
int8_dtype = dtype._make("int8", "i", 1, "b", "|i1", torch.int64, 1)
uint8_dtype = dtype._make("uint8", "u", 1, "B", "|u1", torch.int64, 1)
int16_dtype = dtype._make("int16", "i", 2, "h", "<i2", torch.int64, 1)
int32_dtype = dtype._make("int32", "i", 4, "i", "<i4", torch.int64, 1)
uint16_dtype = dtype._make("uint16", "u", 2, "H", "<u2", torch.int64, 1)
uint32_dtype = dtype._make("uint32", "u", 4, "I", "<u4", torch.int64, 1)
int64_dtype = dtype._make("int64", "i", 8, "l", "<i8", torch.int64, 2)
uint64_dtype = dtype._make("uint64", "u", 8, "L", "<u8", torch.int64, 2)
float16_dtype = dtype._make("float16", "f", 2, "e", "<f2", torch.float32, 3)
float32_dtype = dtype._make("float32", "f", 4, "f", "<f4", torch.float32, 3)
float64_dtype = dtype._make("float64", "f", 8, "d", "<f8", torch.float64, 4)
_SIGNED = {1: int8_dtype, 2: int16_dtype, 4: int32_dtype, 8: int64_dtype}
_FLOATS = {2: float16_dtype, 4: float32_dtype, 8: float64_dtype}
# The float that holds every value of an integer of this many bytes.
_FLOAT_FOR_INT = {1: 2, 2: 4, 4: 8, 8: 8}

_ALIASES = {
    "float64": float64_dtype, "f8": float64_dtype, "d": float64_dtype, "double": float64_dtype,
    "float": float64_dtype, "<f8": float64_dtype, "=f8": float64_dtype, "float_": float64_dtype,
    "float32": float32_dtype, "f4": float32_dtype, "f": float32_dtype, "single": float32_dtype,
    "<f4": float32_dtype,
    "int64": int64_dtype, "i8": int64_dtype, "l": int64_dtype, "long": int64_dtype,
    "int": int64_dtype, "<i8": int64_dtype, "q": int64_dtype, "int_": int64_dtype,
    "intp": int64_dtype, "p": int64_dtype,
    "int32": int32_dtype, "i4": int32_dtype, "i": int32_dtype, "<i4": int32_dtype,
    "intc": int32_dtype,
    "bool": bool_dtype, "?": bool_dtype, "b1": bool_dtype, "bool_": bool_dtype, "|b1": bool_dtype,
    "int8": int8_dtype, "i1": int8_dtype, "b": int8_dtype, "|i1": int8_dtype, "byte": int8_dtype,
    "uint8": uint8_dtype, "u1": uint8_dtype, "B": uint8_dtype, "|u1": uint8_dtype, "ubyte": uint8_dtype,
    "int16": int16_dtype, "i2": int16_dtype, "h": int16_dtype, "<i2": int16_dtype, "short": int16_dtype,
    "uint16": uint16_dtype, "u2": uint16_dtype, "H": uint16_dtype, "<u2": uint16_dtype, "ushort": uint16_dtype,
    "uint32": uint32_dtype, "u4": uint32_dtype, "I": uint32_dtype, "<u4": uint32_dtype, "uintc": uint32_dtype,
    "uint64": uint64_dtype, "u8": uint64_dtype, "<u8": uint64_dtype, "L": uint64_dtype, "uint": uint64_dtype,
    "float16": float16_dtype, "f2": float16_dtype, "e": float16_dtype, "<f2": float16_dtype, "half": float16_dtype,
}

_FROM_TORCH = {torch.float64: float64_dtype, torch.float32: float32_dtype,
               torch.int64: int64_dtype, torch.bool: bool_dtype}


def from_torch(torch_dtype):
    found = _FROM_TORCH.get(torch_dtype)
    if found is None:
        raise TypeError(f"NumPy has no dtype for {torch_dtype}")
    return found


def _as_dtype(spec):
    """The dtype a `dtype=` argument names (NumPy's `np.dtype(spec)`)."""
    if spec is None:
        return float64_dtype
    if isinstance(spec, dtype):
        return spec
    if spec is str or (isinstance(spec, str) and spec.lstrip("<|=") in ("U", "str", "str_")) or \
            getattr(spec, "__name__", None) == "str_":
        from ._strings import unicode_dtype

        return unicode_dtype([], 0)
    if isinstance(spec, str) and spec.lstrip("<|=").startswith("U") and spec.lstrip("<|=")[1:].isdigit():
        from ._strings import unicode_dtype

        return unicode_dtype([], int(spec.lstrip("<|=")[1:]))
    if isinstance(spec, str):
        found = _ALIASES.get(spec)
        if found is None:
            raise TypeError(f"data type {spec!r} not understood")
        return found
    if spec is float:
        return float64_dtype
    if spec is int:
        return int64_dtype
    if spec is bool:
        return bool_dtype
    found = getattr(spec, "_np_dtype", None)
    if isinstance(found, dtype):
        return found
    found = getattr(spec, "dtype", None)
    if isinstance(found, dtype):
        return found
    if spec in _FROM_TORCH:
        return _FROM_TORCH[spec]
    raise TypeError(f"Cannot interpret '{spec!r}' as a data type")


def promote(a, b):
    """NumPy 2's promotion of two array dtypes (`np.result_type`)."""
    if a is b:
        return a
    ka, kb = a.kind, b.kind
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka == "f" and kb == "f":
        return a if a.itemsize >= b.itemsize else b
    if ka == "f" or kb == "f":
        # An integer meets a float: the float that holds all the integer's values.
        f, i = (a, b) if ka == "f" else (b, a)
        need = _FLOAT_FOR_INT[i.itemsize]
        return f if f.itemsize >= need else _FLOATS[need]
    if ka == kb:
        return a if a.itemsize >= b.itemsize else b
    u, signed = (a, b) if ka == "u" else (b, a)
    if signed.itemsize > u.itemsize:
        return signed
    return _SIGNED.get(2 * u.itemsize, float64_dtype)


def _bounds(dt):
    bits = 8 * dt.itemsize
    if dt.kind == "u":
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def weak_result(array_dtype, value):
    """The dtype of array op Python scalar: Python numbers are weak (NEP 50);
    an integer the array's dtype cannot hold is NumPy's OverflowError."""
    if isinstance(value, bool):
        return array_dtype
    if isinstance(value, int):
        if array_dtype is bool_dtype:
            return int64_dtype
        if array_dtype.kind in "iu" and array_dtype.itemsize < 8 or array_dtype.kind == "u":
            lo, hi = _bounds(array_dtype)
            if not lo <= value <= hi:
                raise OverflowError(f"Python integer {value} out of bounds for {array_dtype.name}")
        return array_dtype
    if isinstance(value, float):
        return array_dtype if array_dtype.kind == "f" else float64_dtype
    return None


def fit(t, dt):
    """The engine tensor `t` (already in `dt`'s engine dtype) brought into
    `dt`: narrow integers wrapped to their bits, float16 rounded to half."""
    bits = _WRAP_BITS.get(dt)
    if bits is not None:
        if dt.kind == "u":
            return t % (1 << bits)
        half = 1 << (bits - 1)
        return (t + half) % (1 << bits) - half
    if dt is float16_dtype:
        return _round_half(t)
    return t


def _round_half(t):
    """float32 values rounded to the nearest float16 (ties to even), the
    overflowing ones to infinity, as a cast to float16 rounds."""
    x = t.double()
    mag = x.abs()
    # The exponent of each value, corrected where log2 rounds across a power of 2.
    e = mag.clamp(min=2.0 ** -24).log2().floor()
    e = torch.where(mag < 2.0 ** e, e - 1, e)
    e = torch.where(mag >= 2.0 ** (e + 1), e + 1, e)
    step = 2.0 ** (e.clamp(min=-14.0) - 10)
    r = (x / step).round() * step
    r = torch.where(r.abs() >= 65520.0, r.sign() * float("inf"), r)
    r = torch.where(x != x, x, r)
    return r.to(torch.float32)


_WRAP_BITS = {}


# ---- scalar types -------------------------------------------------------

def _float32_shortest(value):
    """The shortest decimal digits that read back as this float32."""
    import struct

    if value != value or value in (float("inf"), float("-inf")) or value == 0:
        return float(value)
    bits = struct.pack("<f", value)
    for digits in range(1, 10):
        text = "%.*e" % (digits - 1, value)
        if struct.pack("<f", float(text)) == bits:
            return float(text)
    return float(value)


def _scalar_ops(cls, result_of):
    """Arithmetic on a NumPy scalar gives a NumPy scalar, as in NumPy."""

    is_float = issubclass(cls, float)

    def make(name):
        base = getattr(float if is_float else int, name)

        def op(self, other):
            kind = type(other)
            if kind is cls or (is_float and kind is float):
                # The loop's case (np.float64 with a float or its own type):
                # the result keeps the scalar's type, unless an integer
                # division or power made a float.
                out = base(self, other)
                if out is not NotImplemented and (is_float or type(out) is int):
                    return cls(out)
            elif not isinstance(other, (int, float)) or hasattr(other, "_t"):
                return NotImplemented
            else:
                out = base(self, other)
            if out is NotImplemented:
                return out
            return result_of(self, other, out)

        op.__name__ = name
        return op

    for name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                 "__truediv__", "__rtruediv__", "__pow__", "__rpow__", "__floordiv__",
                 "__rfloordiv__", "__mod__", "__rmod__"):
        setattr(cls, name, make(name))

    def neg(self):
        return result_of(self, self, -(float(self) if issubclass(cls, float) else int(self)))

    cls.__neg__ = neg
    cls.__abs__ = lambda self: result_of(self, self, abs(float(self) if issubclass(cls, float) else int(self)))


def _strong_dtype(x):
    d = getattr(type(x), "_np_dtype", None)
    if d is not None:
        return d
    if isinstance(x, bool):
        return None
    return None


def _scalar_result(self, other, out):
    mine = type(self)._np_dtype
    theirs = _strong_dtype(other)
    if theirs is not None:
        result = promote(mine, theirs)
    else:
        result = weak_result(mine, other)
    if isinstance(out, float) and result.kind != "f":
        result = float64_dtype
    return result.type(out)


class generic:
    __module__ = "numpy"

    def item(self):
        return self._py(self)

    @property
    def dtype(self):
        return type(self)._np_dtype

    @property
    def itemsize(self):
        return type(self)._np_dtype.itemsize

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def size(self):
        return 1

    def tolist(self):
        return self.item()

    def __array__(self, dtype=None):
        from ._creation import array

        return array(self.item(), dtype=dtype or type(self)._np_dtype)

    def astype(self, dtype):
        return _as_dtype(dtype).type(self.item())

    def round(self, decimals=0):
        from ._ufuncs import round as _round

        return _round(self, decimals)


class floating(generic):
    __module__ = "numpy"


class integer(generic):
    __module__ = "numpy"


class signedinteger(integer):
    __module__ = "numpy"


class number(generic):
    __module__ = "numpy"


class float64(float, floating):
    """`np.float64`: a Python float that prints as NumPy prints it."""

    __module__ = "numpy"
    _np_dtype = float64_dtype
    _py = float

    def __new__(cls, value=0.0):
        return float.__new__(cls, _to_float(value))

    def __repr__(self):
        return f"np.float64({float.__repr__(self)})"

    def __str__(self):
        return float.__repr__(self)

    def is_integer(self):
        return float(self).is_integer()

    __hash__ = float.__hash__


class float32(float, floating):
    """`np.float32`: held as the Python float of the float32 value."""

    __module__ = "numpy"
    _np_dtype = float32_dtype
    _py = float

    def __new__(cls, value=0.0):
        import struct

        v = _to_float(value)
        try:
            v = struct.unpack("<f", struct.pack("<f", v))[0]
        except OverflowError:
            v = float("inf") if v > 0 else float("-inf")
        return float.__new__(cls, v)

    def __repr__(self):
        return f"np.float32({self.__str__()})"

    def __str__(self):
        return float.__repr__(_float32_shortest(float(self)))

    __hash__ = float.__hash__


class int64(int, signedinteger):
    """`np.int64`."""

    __module__ = "numpy"
    _np_dtype = int64_dtype
    _py = int

    def __new__(cls, value=0):
        return int.__new__(cls, _wrap(_to_int(value), 64))

    def __repr__(self):
        return f"np.int64({int.__repr__(self)})"

    def __str__(self):
        return int.__repr__(self)

    __hash__ = int.__hash__


class int32(int, signedinteger):
    """`np.int32`."""

    __module__ = "numpy"
    _np_dtype = int32_dtype
    _py = int

    def __new__(cls, value=0):
        return int.__new__(cls, _wrap(_to_int(value), 32))

    def __repr__(self):
        return f"np.int32({int.__repr__(self)})"

    def __str__(self):
        return int.__repr__(self)

    __hash__ = int.__hash__


def _int_scalar(name, bits, unsigned=False):
    """A NumPy integer scalar type (`np.int8`, `np.uint8`, ...): a Python int
    wrapped to its bits."""

    def __new__(cls, value=0):
        v = _to_int(value)
        v = v % (1 << bits) if unsigned else _wrap(v, bits)
        return int.__new__(cls, v)

    def __repr__(self):
        return f"np.{name}({int.__repr__(self)})"

    def __str__(self):
        return int.__repr__(self)

    base = unsignedinteger if unsigned else signedinteger
    return type(name, (int, base), {"__module__": "numpy", "__new__": __new__, "__repr__": __repr__,
                                    "__str__": __str__, "__hash__": int.__hash__, "_py": int})


class unsignedinteger(integer):
    __module__ = "numpy"


int8 = _int_scalar("int8", 8)
int16 = _int_scalar("int16", 16)
uint8 = _int_scalar("uint8", 8, unsigned=True)
uint16 = _int_scalar("uint16", 16, unsigned=True)
uint32 = _int_scalar("uint32", 32, unsigned=True)
uint64 = _int_scalar("uint64", 64, unsigned=True)
int8._np_dtype, int16._np_dtype, uint8._np_dtype, uint64._np_dtype = (int8_dtype, int16_dtype, uint8_dtype,
                                                                      uint64_dtype)
uint16._np_dtype, uint32._np_dtype = uint16_dtype, uint32_dtype


def _float16_shortest(value):
    """The shortest decimal digits that read back as this float16."""
    import struct

    if value != value or value in (float("inf"), float("-inf")) or value == 0:
        return float(value)
    bits = struct.pack("<e", value)
    for digits in range(1, 7):
        text = "%.*e" % (digits - 1, value)
        try:
            if struct.pack("<e", float(text)) == bits:
                return float(text)
        except OverflowError:  # a candidate past float16's largest value
            continue
    return float(value)


class float16(float, floating):
    """`np.float16`: held as the Python float of the float16 value."""

    __module__ = "numpy"
    _np_dtype = float16_dtype
    _py = float

    def __new__(cls, value=0.0):
        import struct

        v = _to_float(value)
        try:
            v = struct.unpack("<e", struct.pack("<e", v))[0]
        except (OverflowError, struct.error):
            v = float("inf") if v > 0 else float("-inf")
        return float.__new__(cls, v)

    def __repr__(self):
        return f"np.float16({self.__str__()})"

    def __str__(self):
        return float.__repr__(_float16_shortest(float(self)))

    __hash__ = float.__hash__


class bool_(generic):
    """`np.bool_` (`np.bool`): `np.True_` and `np.False_`."""

    __module__ = "numpy"
    __slots__ = ("_value",)
    _np_dtype = bool_dtype
    _py = bool

    def __new__(cls, value=False):
        value = builtins_bool(value)
        return True_ if value else False_

    def __bool__(self):
        return self._value

    def item(self):
        return self._value

    def __repr__(self):
        return "np.True_" if self._value else "np.False_"

    def __str__(self):
        return "True" if self._value else "False"

    def __eq__(self, other):
        return self._value == other

    def __ne__(self, other):
        return self._value != other

    def __hash__(self):
        return hash(self._value)

    def __index__(self):
        return int(self._value)

    def __int__(self):
        return int(self._value)

    def __float__(self):
        return float(self._value)

    def __invert__(self):
        return bool_(not self._value)

    def __and__(self, other):
        return bool_(self._value and builtins_bool(other))

    def __or__(self, other):
        return bool_(self._value or builtins_bool(other))

    __rand__ = __and__
    __ror__ = __or__

    def __add__(self, other):
        return int(self._value) + other

    __radd__ = __add__


builtins_bool = bool
# NumPy 2 names the type `numpy.bool` (`np.bool_` is an alias).
bool_.__name__ = bool_.__qualname__ = "bool"
True_ = object.__new__(bool_)
True_._value = True
False_ = object.__new__(bool_)
False_._value = False


def _to_float(value):
    if isinstance(value, str):
        return float(value)
    if hasattr(value, "item") and not isinstance(value, (int, float)):
        value = value.item()
    return float(value)


def _to_int(value):
    if isinstance(value, str):
        return int(value)
    if hasattr(value, "item") and not isinstance(value, (int, float)):
        value = value.item()
    return int(value)


def _wrap(v, bits):
    half = 1 << (bits - 1)
    return (v + half) % (1 << bits) - half


for _cls in (float64, float32, float16, int64, int32, int16, int8, uint8, uint16, uint32, uint64):
    _scalar_ops(_cls, _scalar_result)
    _cls._np_dtype.type = _cls
bool_dtype.type = bool_
_WRAP_BITS.update({int32_dtype: 32, int16_dtype: 16, int8_dtype: 8, uint8_dtype: 8, uint16_dtype: 16,
                   uint32_dtype: 32})
