"""`torch.backends`: the switches seed-setting and device-picking code
touches (`cudnn.deterministic`, `mps.is_available()`, ...). gradscope runs
on the CPU or WebGPU, so no CUDA, cuDNN or MPS backend is available and
the switches change nothing."""

__all__ = ["cudnn", "mps", "cuda", "cpu", "mkldnn", "openmp", "opt_einsum"]


class _Backend:
    def __init__(self, name, available=False, **flags):
        self.__name__ = f"torch.backends.{name}"
        self._available = available
        self.__dict__.update(flags)

    def is_available(self):
        return self._available

    def is_built(self):
        return self._available

    def __repr__(self):
        return f"<module '{self.__name__}'>"


class _Matmul:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True


cudnn = _Backend("cudnn", deterministic=False, benchmark=False, enabled=True, allow_tf32=True)
mps = _Backend("mps")
cuda = _Backend("cuda", matmul=_Matmul())
cpu = _Backend("cpu", available=True)
mkldnn = _Backend("mkldnn", enabled=True)
openmp = _Backend("openmp")
opt_einsum = _Backend("opt_einsum", enabled=True)


def cudnn_version():
    return None


cudnn.version = cudnn_version
cpu.get_cpu_capability = lambda: "DEFAULT"
