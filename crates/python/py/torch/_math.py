"""PyTorch's elementwise functions that the engine has no kernel for:
inverse trigonometric and hyperbolic functions, `exp2`, `hypot`,
`logaddexp`, `fmax`/`fmin` and `nan_to_num`. Each records PyTorch's one
node (`AtanBackward0`) with the formula of `derivatives.yaml`, made of the
engine's differentiable ops so double backward works.

The transcendental ones compute their values on the host with Python's
`math` (in double precision, rounded to the tensor's dtype: within one
unit in the last place of PyTorch's float32 kernels), since they cannot
be composed from the engine's ops without losing accuracy near their
poles. That costs a round trip for a GPU tensor; learners' tensors are
small.
"""

import builtins as _builtins
import math

import _gradscope as _C

from . import _composite

_INF = float("inf")
_NAN = float("nan")


def _float_dtype(*tensors):
    """The result dtype of a float function: float64 if any input is,
    else float32 (integers and bools promote to the default dtype)."""
    return _C.float64 if _builtins.any(t.dtype == _C.float64 for t in tensors) else _C.float32


def _checked(fn, overflow):
    """`fn` with Python's domain errors as NaN and overflows as
    `overflow(v)` (the infinity the C library returns)."""

    def safe(*v):
        try:
            return fn(*v)
        except ValueError:
            return _NAN
        except OverflowError:
            return overflow(*v)

    return safe


def _host(fn, *tensors):
    """`fn` of each element (of the inputs broadcast together), as a tensor
    of their float dtype on the first input's device."""
    from . import broadcast_tensors

    dtype = _float_dtype(*tensors)
    parts = broadcast_tensors(*tensors) if len(tensors) > 1 else tensors
    shape = tuple(parts[0].shape)
    columns = [p.detach().cpu().to(_C.float64).reshape(-1).tolist() for p in parts]
    values = [fn(*v) for v in zip(*columns)]
    return _C.tensor(values, dtype=dtype, device=tensors[0]._device).reshape(shape)


def _signed_inf(v, *rest):
    return _INF if v > 0 else -_INF


def _pos_inf(*v):
    return _INF


def _unary(name, fn, backward, overflow=_pos_inf):
    safe = _checked(fn, overflow)

    def method(self):
        return _composite.op(name, [self], lambda: _host(safe, self), lambda g, x: [backward(g, x)], ("self",))

    return method


# Formulas from derivatives.yaml; `x` is the saved input.
acos = _unary("AcosBackward0", math.acos, lambda g, x: g * -((-x * x + 1).rsqrt()))
asin = _unary("AsinBackward0", math.asin, lambda g, x: g * (-x * x + 1).rsqrt())
atan = _unary("AtanBackward0", math.atan, lambda g, x: g / (x * x + 1))
tan = _unary("TanBackward0", math.tan, lambda g, x: g * (x.tan() ** 2 + 1))
sinh = _unary("SinhBackward0", math.sinh, lambda g, x: g * x.cosh(), _signed_inf)
cosh = _unary("CoshBackward0", math.cosh, lambda g, x: g * x.sinh())
asinh = _unary("AsinhBackward0", math.asinh, lambda g, x: g * (x.pow(2) + 1).rsqrt())
acosh = _unary("AcoshBackward0", math.acosh, lambda g, x: g * (x.pow(2) - 1).rsqrt())
atanh = _unary("AtanhBackward0", lambda v: math.atanh(v) if _builtins.abs(v) != 1 else v * _INF,
               lambda g, x: g / (1 - x.pow(2)))
exp2 = _unary("Exp2Backward0", lambda v: 2.0**v, lambda g, x: g * x.exp2() * math.log(2.0))


def _tensor_other(function, other):
    """PyTorch's argument check where `other` must be a tensor."""
    from . import Tensor

    if not isinstance(other, Tensor):
        raise TypeError(
            f"{function}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )


def _binary(name, fn, backward):
    safe = _checked(fn, _pos_inf)
    function = name[:-len("Backward0")].lower()

    def method(self, other):
        _tensor_other(function, other)
        return _composite.op(name, [self, other], lambda: _host(safe, self, other), backward, ("self", "other"))

    return method


def _atan2_backward(g, x, y):
    # atan2_backward, in its order of operations.
    recip = (x * x + y * y).reciprocal()
    return [g * y * recip, g * -x * recip]


def _logaddexp(a, b):
    if a == b == -_INF or a == b == _INF:
        return a
    m = _builtins.max(a, b)
    return m + math.log1p(math.exp(-_builtins.abs(a - b)))


atan2 = arctan2 = _binary("Atan2Backward0", math.atan2, _atan2_backward)


def hypot(self, other):
    """The engine's `hypot` (`HypotBackward0`), for a tensor `other` only."""
    _tensor_other("hypot", other)
    return _C.TensorBase._hypot(self, other)


logaddexp = _binary("LogaddexpBackward0", _logaddexp,
                    lambda g, x, y: [g / ((y - x).exp() + 1), g / ((x - y).exp() + 1)])


def fmax(self, other):
    """The larger of the two, ignoring a NaN in either (PyTorch's `fmax`);
    ties send the gradient to `self`."""
    _tensor_other("fmax", other)

    def forward():
        return _C.where(other.isnan(), self, _C.where(self.isnan(), other, self.maximum(other)))

    def backward(g, x, y):
        to_self = (x >= y).logical_or(y.isnan())
        return [g.masked_fill(to_self.logical_not(), 0), g.masked_fill(to_self, 0)]

    return _composite.op("FmaxBackward0", [self, other], forward, backward, ("self", "other"))


def fmin(self, other):
    """The smaller of the two, ignoring a NaN in either (PyTorch's `fmin`)."""
    _tensor_other("fmin", other)

    def forward():
        return _C.where(other.isnan(), self, _C.where(self.isnan(), other, self.minimum(other)))

    def backward(g, x, y):
        to_self = (x <= y).logical_or(y.isnan())
        return [g.masked_fill(to_self.logical_not(), 0), g.masked_fill(to_self, 0)]

    return _composite.op("FminBackward0", [self, other], forward, backward, ("self", "other"))


_LIMITS = {_C.float32: 3.4028234663852886e38, _C.float64: 1.7976931348623157e308,
           _C.bfloat16: 3.3895313892515355e38}


def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    """NaN as `nan`, infinities as `posinf`/`neginf` (by default the
    dtype's largest and smallest finite values); integers are unchanged."""
    if not self.is_floating_point():
        return self.clone()
    big = _LIMITS[self.dtype]
    posinf = big if posinf is None else posinf
    neginf = -big if neginf is None else neginf

    def forward():
        zero = _C.zeros((), dtype=self.dtype, device=self._device)
        out = _C.where(self.isnan(), zero + nan, self)
        out = _C.where(out == _INF, zero + posinf, out)
        return _C.where(out == -_INF, zero + neginf, out)

    return _composite.op("NanToNumBackward0", [self], forward, lambda g, x: [g * x.isfinite()], ("self",))


def _erfinv(y):
    """The inverse of `math.erf`: Giles' approximation refined by Newton's
    method to double precision."""
    if y <= -1 or y >= 1:
        return -_INF if y == -1 else (_INF if y == 1 else _NAN)
    w = -math.log((1.0 - y) * (1.0 + y))
    if w < 5.0:
        w -= 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941):
            p = c + p * w
    else:
        w = math.sqrt(w) - 3.0
        p = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                  0.00943887047, 1.00167406, 2.83297682):
            p = c + p * w
    x = p * y
    for _ in range(3):
        x -= (math.erf(x) - y) / (2.0 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


erfc = _unary("ErfcBackward0", math.erfc, lambda g, x: g * (-(x * x)).exp() * (-2 / math.sqrt(math.pi)))
erfinv = _unary("ErfinvBackward0", _erfinv, lambda g, x: g * (x.erfinv().pow(2)).exp() * (math.sqrt(math.pi) / 2))


def sgn(self):
    """`sign` for real tensors, with PyTorch's node (a zero gradient)."""
    return _composite.op("SgnBackward0", [self], lambda: self.sign(), lambda g: [g.zeros_like()])


def _scaled(name, factor):
    def method(self):
        x = self if self.is_floating_point() else self.to(_C.float32)
        return _composite.op(name, [x], lambda: x * factor, lambda g: [g * factor])

    return method


deg2rad = _scaled("Deg2RadBackward0", math.pi / 180)
rad2deg = _scaled("Rad2DegBackward0", 180 / math.pi)


def logit(self, eps=None):
    """`log(x / (1 - x))`, of `x` clamped to `[eps, 1 - eps]` when `eps` is given."""

    def clamped(x):
        return x if eps is None else x.clamp(eps, 1 - eps)

    def backward(g, x):
        # logit_backward: NaN outside [0, 1] without eps, zero outside [eps, 1 - eps] with it.
        grad = g / (x * (1 - x))
        if eps is None:
            outside = (x < 0).logical_or(x > 1)
            return [grad.masked_fill(outside, _NAN)]
        return [grad.masked_fill((x < eps).logical_or(x > 1 - eps), 0)]

    def forward():
        z = clamped(self)
        return (z / (1 - z)).log()

    return _composite.op("LogitBackward0", [self], forward, backward, ("self",))


def xlogy(self, other):
    """`x * log(y)`, 0 where `x` is 0 (unless `y` is NaN)."""
    from . import Tensor

    # PyTorch's overloads: a number for `other` (XlogyBackward2) or `self` (1).
    name = "XlogyBackward0"
    if not isinstance(other, Tensor):
        name = "XlogyBackward2"
        other = _C.tensor(float(other), dtype=_float_dtype(self), device=self._device)
    if not isinstance(self, Tensor):
        name = "XlogyBackward1"
        self = _C.tensor(float(self), dtype=_float_dtype(other), device=other._device)

    def forward():
        out = self * other.log()
        zero = _C.zeros((), dtype=out.dtype, device=out._device)
        return _C.where((self == 0).logical_and(other.isnan().logical_not()), zero, out)

    def backward(g, x, y):
        grad_x = g.xlogy(y).masked_fill((x == 0).logical_and(y <= 0), 0)
        return [grad_x, g * x / y]

    return _composite.op(name, [self, other], forward, backward, ("self", "other"))


def sinc(self):
    """`sin(pi x) / (pi x)`, 1 at 0."""

    def forward():
        x = self if self.is_floating_point() else self.to(_C.float32)
        product = x * math.pi
        return _C.where(x == 0, x * 0 + 1, product.sin() / product)

    def backward(g, x):
        product = x * math.pi
        grad = (product * product.cos() - product.sin()) / (x * product) * g
        return [_C.where(x == 0, g * 0, grad)]

    return _composite.op("SincBackward0", [self], forward, backward, ("self",))


def heaviside(self, values):
    """0 below zero, 1 above, `values` at zero (no gradient, as in PyTorch)."""
    if self.requires_grad or values.requires_grad:
        raise RuntimeError("the derivative for 'heaviside' is not implemented.")
    if self.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes")
    zero = _C.zeros((), dtype=self.dtype, device=self._device)
    return _C.where(self == 0, values, (self > 0).to(self.dtype) + zero)


# In-place forms (`x.atan_()`): the function's result written back.
INPLACE = ("acos", "asin", "atan", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2", "erfinv",
           "erfc", "sgn", "deg2rad", "rad2deg", "logit", "sinc", "nan_to_num", "atan2", "hypot", "xlogy")


# PyTorch has no derivative for these in place: their node's backward raises.
_NO_INPLACE_DERIVATIVE = ("asinh", "acosh", "atanh")


def _in_place(name):
    function = globals()[name]
    if name in _NO_INPLACE_DERIVATIVE:
        def function(t, inner=function):
            def backward(g):
                raise NotImplementedError(f"the derivative for 'inplace version of {name}' is not implemented.")

            return _composite.op(f"{name.capitalize()}Backward1", [t], lambda: inner(t), backward)

    def method(self, *args, **kwargs):
        return _C._inplace_with(self, name + "_", lambda t: function(t, *args, **kwargs))

    method.__name__ = name + "_"
    return method


METHODS = ("heaviside", "erfc", "erfinv", "sgn", "deg2rad", "rad2deg", "logit", "xlogy", "sinc", "acos",
           "asin", "atan", "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2", "atan2", "arctan2",
           "hypot", "logaddexp", "fmax", "fmin", "nan_to_num")
ALIASES = {"arccos": "acos", "arcsin": "asin", "arctan": "atan", "arcsinh": "asinh",
           "arccosh": "acosh", "arctanh": "atanh"}
ALIASES_INPLACE = {"arccos_": "acos", "arcsin_": "asin", "arctan_": "atan", "arcsinh_": "asinh",
                   "arccosh_": "acosh", "arctanh_": "atanh", "arctan2_": "atan2"}


# Integer bit operations, on the host (Python's ints are two's complement
# for these, as int64 is), and their bool forms, which are logical.
def _bitwise(name, fn, logical):
    def function(self, other):
        from . import Tensor

        other_t = other if isinstance(other, Tensor) else _C.tensor(other, dtype=self.dtype, device=self._device)
        if self.is_floating_point() or other_t.is_floating_point():
            kind = "Float" if _C.float32 in (self.dtype, other_t.dtype) else "Double"
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{kind}'")
        if self.dtype == _C.bool and other_t.dtype == _C.bool:
            return logical(self, other_t)
        from . import broadcast_tensors

        a, b = broadcast_tensors(self.to(_C.int64), other_t.to(_C.int64))
        values = [fn(x, y) for x, y in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist())]
        return _C.tensor(values, dtype=_C.int64, device=self._device).reshape(tuple(a.shape))

    function.__name__ = name
    return function


def _wrapped64(v):
    return (v + 2**63) % 2**64 - 2**63


bitwise_and = _bitwise("bitwise_and", lambda x, y: x & y, lambda a, b: a.logical_and(b))
bitwise_or = _bitwise("bitwise_or", lambda x, y: x | y, lambda a, b: a.logical_or(b))
bitwise_xor = _bitwise("bitwise_xor", lambda x, y: x ^ y, lambda a, b: a.logical_xor(b))
bitwise_left_shift = _bitwise("lshift", lambda x, y: _wrapped64(x << y) if 0 <= y < 64 else 0, None)
bitwise_right_shift = _bitwise("rshift", lambda x, y: x >> _builtins.min(y, 63) if y >= 0 else 0, None)
gcd = _bitwise("gcd", math.gcd, None)


def lcm(self, other):
    return _bitwise("lcm", lambda x, y: abs(x * y) // math.gcd(x, y) if x and y else 0, None)(self, other)


def bitwise_not(self):
    if self.dtype == _C.bool:
        return self.logical_not()
    if self.is_floating_point():
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    values = [~v for v in self.reshape(-1).tolist()]
    return _C.tensor(values, dtype=self.dtype, device=self._device).reshape(tuple(self.shape))


def signbit(self):
    values = [math.copysign(1.0, v) < 0 for v in self.detach().cpu().to(_C.float64).reshape(-1).tolist()]
    return _C.tensor(values, dtype=_C.bool, device=self._device).reshape(tuple(self.shape))


def isposinf(self):
    return self == _INF if self.is_floating_point() else self != self


def isneginf(self):
    return self == -_INF if self.is_floating_point() else self != self


def isreal(self):
    return _C.ones(tuple(self.shape), dtype=_C.bool, device=self._device)


def positive(self):
    if self.dtype == _C.bool:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return self


def copysign(self, other):
    """`|self|` with `other`'s sign (of zero too); the gradient flows to
    `self` only, flipped where the sign changed."""
    from . import Tensor

    name = "CopysignBackward0" if isinstance(other, Tensor) else "CopysignBackward1"
    signs = other if isinstance(other, Tensor) else _C.tensor(float(other), dtype=_float_dtype(self),
                                                             device=self._device)
    negative = signbit(signs)

    def forward():
        magnitude = self.abs() if self.is_floating_point() else self.to(_C.float32).abs()
        # (times -1, not negation, so that a zero gets the sign too)
        return _C.where(negative, magnitude * -1.0, magnitude)

    def backward(g, x):
        # copysign_tensor_self_backward: grad * sgn(self) * sgn(result),
        # nothing for `other`.
        result_sign = _C.where(negative, _C.full((), -1.0, dtype=g.dtype, device=g._device),
                               _C.ones((), dtype=g.dtype, device=g._device))
        grad = g * x.sign() * result_sign
        return [grad] if len(inputs) == 1 else [grad, _C.zeros(tuple(other.shape), dtype=g.dtype, device=g._device)]

    inputs = [self, other] if name == "CopysignBackward0" else [self]
    return _composite.op(name, inputs, forward, backward, ("self",))


def float_power(self, exponent):
    from . import Tensor

    base = self.to(_C.float64) if isinstance(self, Tensor) else self
    power = exponent.to(_C.float64) if isinstance(exponent, Tensor) else float(exponent)
    return base.pow(power) if isinstance(base, Tensor) else _C.tensor(float(base), dtype=_C.float64).pow(power)


def _logaddexp2(a, b):
    if a == b == -_INF or a == b == _INF:
        return a
    m = _builtins.max(a, b)
    return m + math.log2(1 + 2.0 ** (-_builtins.abs(a - b)))


logaddexp2 = _binary("Logaddexp2Backward0", _logaddexp2,
                     lambda g, x, y: [g / ((y - x).exp2() + 1), g / ((x - y).exp2() + 1)])


METHODS_MORE = ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
                "bitwise_right_shift", "gcd", "lcm", "signbit", "isposinf", "isneginf", "isreal", "positive",
                "copysign", "float_power", "logaddexp2")


# The gamma family, on the host in double precision: lgamma, digamma and
# polygamma, each the next one's derivative.
_B2J = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def _hurwitz(s, z):
    """sum over k >= 0 of 1 / (z + k)**s (s >= 2): terms until z + k >= 20,
    then the Euler-Maclaurin tail."""
    total = 0.0
    while z < 20:
        if z == 0:
            return _INF
        total += 1 / z ** s
        z += 1
    tail = z ** (1 - s) / (s - 1) + 0.5 * z ** -s
    rising, factorial = 1.0, 1.0
    for j, b in enumerate(_B2J, start=1):
        # (s)(s+1)...(s+2j-2) / (2j)!
        rising *= (s + 2 * j - 3) * (s + 2 * j - 2) if j > 1 else s
        factorial *= (2 * j - 1) * (2 * j)
        tail += b * rising / factorial * z ** (-s - 2 * j + 1)
    return total + tail


def _polygamma(n, x):
    if n == 0:
        return _digamma(x)
    if x <= 0 and x == math.floor(x):
        return _INF if n % 2 else -_INF
    sign = 1 if n % 2 else -1
    return sign * math.factorial(n) * _hurwitz(n + 1, x)


def _digamma(x):
    if x == 0:
        return -_INF
    if x < 0 and x == math.floor(x):
        return _NAN
    if x < 0:
        return _digamma(1 - x) - math.pi / math.tan(math.pi * x)
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    f = 1 / (x * x)
    series = f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f * (1 / 132)))))
    return result + math.log(x) - 0.5 / x - series


def _lgamma(x):
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):
        return _INF


def polygamma(n, input):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return _composite.op("PolygammaBackward0", [input], lambda: _host(lambda v: _polygamma(n, v), input),
                         lambda g, x: [g * polygamma(n + 1, x)], ("self",))


digamma = _unary("DigammaBackward0", _digamma, lambda g, x: g * polygamma(1, x))
lgamma = _unary("LgammaBackward0", _lgamma, lambda g, x: g * digamma(x))


def _polygamma_method(self, n):
    return polygamma(n, self)


METHODS_GAMMA = ("digamma", "lgamma")
