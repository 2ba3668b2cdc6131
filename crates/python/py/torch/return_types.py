"""`torch.return_types`: the named tuples `max(dim)` and friends return."""


def _make(name, fields):
    class ReturnType(tuple):
        __slots__ = ()
        n_fields = len(fields)

        def __new__(cls, values):
            return tuple.__new__(cls, values)

        def __repr__(self):
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
            return f"torch.return_types.{name}(\n{body})"

    for i, field in enumerate(fields):
        setattr(ReturnType, field, property(lambda self, i=i: self[i]))
    ReturnType.__name__ = ReturnType.__qualname__ = name
    ReturnType.__module__ = "torch.return_types"
    return ReturnType


max = _make("max", ("values", "indices"))
min = _make("min", ("values", "indices"))
sort = _make("sort", ("values", "indices"))
topk = _make("topk", ("values", "indices"))
aminmax = _make("aminmax", ("min", "max"))
cummax = _make("cummax", ("values", "indices"))
cummin = _make("cummin", ("values", "indices"))
median = _make("median", ("values", "indices"))
kthvalue = _make("kthvalue", ("values", "indices"))
mode = _make("mode", ("values", "indices"))
nanmedian = _make("nanmedian", ("values", "indices"))
slogdet = _make("slogdet", ("sign", "logabsdet"))
linalg_slogdet = _make("linalg_slogdet", ("sign", "logabsdet"))
svd = _make("svd", ("U", "S", "V"))
linalg_svd = _make("linalg_svd", ("U", "S", "Vh"))
histogram = _make("histogram", ("hist", "bin_edges"))
