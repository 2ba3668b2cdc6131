"""`torch.onnx`: importable, so programs that export behind a flag run; export itself is not there.

PyTorch's exporter (``dynamo=True``, the default since 2.9) needs the
``onnxscript`` and ``onnx`` packages; without them ``export`` raises
``ModuleNotFoundError``. gradscope has no exporter at all, so ``export``
raises that same exception type, saying so, rather than writing nothing.
"""

__all__ = ["OnnxExporterError", "export", "is_in_onnx_export"]

producer_name = "pytorch"


class OnnxExporterError(RuntimeError):
    """Errors raised by the ONNX exporter (never raised: gradscope has none)."""


def is_in_onnx_export():
    """Whether an ONNX export is running: never in gradscope."""
    return False


def export(model, args=(), f=None, *rest, **kwargs):
    """Not available: gradscope has no ONNX exporter (PyTorch's needs onnxscript and onnx)."""
    err = ModuleNotFoundError(
        "No module named 'onnxscript': ONNX export is not available in gradscope "
        "(torch.onnx.export needs the onnxscript and onnx packages and PyTorch's exporter)"
    )
    err.name = "onnxscript"
    raise err
