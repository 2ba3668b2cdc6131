"""`torch.distributions`: `Categorical`, `Bernoulli`, `Normal` and
`Uniform` with `sample`, `rsample`, `log_prob` and `entropy`, and
`kl_divergence` between two of a kind, written as PyTorch writes them
(the same formulas, the same draws from the generator), for the policy
gradient and VAE code learners paste."""

import math

import torch
import torch.nn.functional as F

__all__ = ["Distribution", "Categorical", "Bernoulli", "Normal", "Uniform", "kl_divergence", "kl"]

_EPS = {torch.float32: 1.1920928955078125e-07, torch.float64: 2.220446049250313e-16, torch.bfloat16: 0.0078125}
_MIN = {torch.float32: -3.4028234663852886e38, torch.float64: -1.7976931348623157e308,
        torch.bfloat16: -3.3895313892515355e38}


def _broadcast_all(*values):
    dtype = next((v.dtype for v in values if isinstance(v, torch.Tensor)), torch.float32)
    device = next((v.device for v in values if isinstance(v, torch.Tensor)), None)
    tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=dtype, device=device)
               for v in values]
    return torch.broadcast_tensors(*tensors)


def _size(shape):
    return shape if isinstance(shape, torch.Size) else torch.Size(shape)


class Distribution:
    """The shapes, the repr and the argument checks PyTorch's
    `Distribution` gives its subclasses."""

    arg_constraints = {}
    _validate_args = True

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(), validate_args=None):
        self._batch_shape = _size(batch_shape)
        self._event_shape = _size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for name, (constraint, check) in self.arg_constraints.items():
                if name not in self.__dict__:
                    continue
                value = self.__dict__[name]
                if not bool(check(value).all()):
                    raise ValueError(
                        f"Expected parameter {name} ({type(value).__name__} of shape {tuple(value.shape)}) of "
                        f"distribution {self!r} to satisfy the constraint {constraint}, but found invalid "
                        f"values:\n{value}"
                    )

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def stddev(self):
        return self.variance.sqrt()

    def _extended_shape(self, sample_shape=torch.Size()):
        return torch.Size(tuple(_size(sample_shape)) + tuple(self._batch_shape) + tuple(self._event_shape))

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.__dict__]
        parts = []
        for p in names:
            v = self.__dict__[p]
            parts.append(f"{p}: {v if v.numel() == 1 else v.size()}")
        return type(self).__name__ + "(" + ", ".join(parts) + ")"


def _simplex(p):
    return (p >= 0).all(-1).logical_and(((p.sum(-1) - 1).abs() < 1e-6))


class Categorical(Distribution):
    arg_constraints = {"probs": ("Simplex()", _simplex), "logits": ("IndependentConstraint(Real(), 1)",
                                                                  lambda v: (v == v))}

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.__dict__["probs"] = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.__dict__["logits"] = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.__dict__["probs"] if probs is not None else self.__dict__["logits"]
        self._num_events = self._param.shape[-1]
        batch = self._param.shape[:-1] if self._param.dim() > 1 else torch.Size()
        super().__init__(batch, validate_args=validate_args)

    @property
    def probs(self):
        if "probs" not in self.__dict__:
            self.__dict__["probs"] = F.softmax(self.__dict__["logits"], dim=-1)
        return self.__dict__["probs"]

    @property
    def logits(self):
        if "logits" not in self.__dict__:
            p = self.__dict__["probs"]
            eps = _EPS[p.dtype]
            self.__dict__["logits"] = p.clamp(min=eps, max=1 - eps).log()
        return self.__dict__["logits"]

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape=torch.Size()):
        sample_shape = _size(sample_shape)
        # The probabilities are cached with their graph (entropy uses them).
        probs = self.probs
        with torch.no_grad():
            probs_2d = probs.reshape(-1, self._num_events)
            samples_2d = torch.multinomial(probs_2d, max(sample_shape.numel(), 1), True).T
            return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        logits = torch.clamp(self.logits, min=_MIN[self.logits.dtype])
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)


class Bernoulli(Distribution):
    arg_constraints = {"probs": ("Interval(lower_bound=0.0, upper_bound=1.0)",
                                 lambda v: (v >= 0).logical_and(v <= 1)),
                       "logits": ("Real()", lambda v: (v == v))}

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.__dict__["probs"],) = _broadcast_all(probs)
            param = self.__dict__["probs"]
        else:
            (self.__dict__["logits"],) = _broadcast_all(logits)
            param = self.__dict__["logits"]
        super().__init__(param.shape, validate_args=validate_args)

    @property
    def probs(self):
        if "probs" not in self.__dict__:
            self.__dict__["probs"] = self.__dict__["logits"].sigmoid()
        return self.__dict__["probs"]

    @property
    def logits(self):
        if "logits" not in self.__dict__:
            p = self.__dict__["probs"]
            eps = _EPS[p.dtype]
            clamped = p.clamp(min=eps, max=1 - eps)
            self.__dict__["logits"] = clamped.log() - (-clamped).log1p()
        return self.__dict__["logits"]

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        logits, value = torch.broadcast_tensors(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")


class Normal(Distribution):
    arg_constraints = {"loc": ("Real()", lambda v: (v == v)),
                       "scale": ("GreaterThan(lower_bound=0.0)", lambda v: v > 0)}
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _broadcast_all(loc, scale)
        plain = not isinstance(loc, torch.Tensor) and not isinstance(scale, torch.Tensor)
        super().__init__(torch.Size() if plain else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            # torch.normal(loc, scale): standard draws, times scale, plus loc.
            return torch.randn(tuple(shape), dtype=self.loc.dtype) * self.scale.expand(shape) + self.loc.expand(shape)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            eps = torch.randn(tuple(shape), dtype=self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        return 0.5 * (1 + torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)


class Uniform(Distribution):
    arg_constraints = {"low": ("Real()", lambda v: (v == v)), "high": ("Real()", lambda v: (v == v))}
    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self._bounds = (low, high)
        self.low, self.high = _broadcast_all(low, high)
        plain = not isinstance(low, torch.Tensor) and not isinstance(high, torch.Tensor)
        super().__init__(torch.Size() if plain else self.low.size(), validate_args=validate_args)
        if self._validate_args and not bool((self.low < self.high).all()):
            raise ValueError("Uniform is not defined when low>= high")

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(tuple(shape), dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        if self._validate_args:
            inside = self.low.le(value).logical_and(self.high.gt(value))
            if not bool(inside.all()):
                low, high = (b if isinstance(b, torch.Tensor) else float(b) for b in self._bounds)
                raise ValueError(
                    f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be within "
                    f"the support (Interval(lower_bound={low}, upper_bound={high})) of the distribution {self!r}, "
                    f"but found invalid values:\n{value}"
                )
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def entropy(self):
        return torch.log(self.high - self.low)


def kl_divergence(p, q):
    """KL(p || q) for two distributions of the same kind, by PyTorch's formulas."""
    if type(p) is Normal and type(q) is Normal:
        var_ratio = (p.scale / q.scale).pow(2)
        t1 = ((p.loc - q.loc) / q.scale).pow(2)
        return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
    if type(p) is Categorical and type(q) is Categorical:
        t = p.probs * (p.logits - q.logits)
        t = t.masked_fill((q.probs == 0).expand_as(t), float("inf"))
        t = t.masked_fill((p.probs == 0).expand_as(t), 0)
        return t.sum(-1)
    if type(p) is Bernoulli and type(q) is Bernoulli:
        t1 = p.probs * (F.softplus(-q.logits) - F.softplus(-p.logits))
        t1 = t1.masked_fill(q.probs == 0, float("inf")).masked_fill(p.probs == 0, 0)
        t2 = (1 - p.probs) * (F.softplus(q.logits) - F.softplus(p.logits))
        t2 = t2.masked_fill(q.probs == 1, float("inf")).masked_fill(p.probs == 1, 0)
        return t1 + t2
    if type(p) is Uniform and type(q) is Uniform:
        result = ((q.high - q.low) / (p.high - p.low)).log()
        outside = (q.low > p.low).logical_or(q.high < p.high)
        return result.masked_fill(outside, float("inf"))
    raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
                              f"{type(q).__name__}")


# The submodules PyTorch's users import from (`torch.distributions.normal`).
from . import bernoulli, categorical, kl, normal, uniform  # noqa: E402
