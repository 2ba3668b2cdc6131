"""`gzip`, read side: what programs do with a compressed data file
(`gzip.open(name, "rt")`, `gzip.decompress(data)`), over the native `zlib`.
CPython's `gzip` needs `os` and file descriptors, which the runtime does
not have; writing is refused as on a read-only file system."""

import builtins
import io
import zlib

__all__ = ["BadGzipFile", "GzipFile", "open", "compress", "decompress"]

READ, WRITE = "rb", "wb"


class BadGzipFile(OSError):
    """Raised for data that is not gzip."""


def decompress(data):
    """Every member of gzip `data`, decompressed and joined."""
    data = bytes(data)
    if data[:2] != b"\x1f\x8b" and data:
        raise BadGzipFile("Not a gzipped file (%r)" % data[:2])
    out = []
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out.append(d.decompress(data))
        out.append(d.flush())
        data = d.unused_data
        while data[:1] == b"\x00":
            data = data[1:]
        if data and data[:2] != b"\x1f\x8b":
            raise BadGzipFile("Not a gzipped file (%r)" % data[:2])
    return b"".join(out)


def compress(data, compresslevel=9, *, mtime=None):
    c = zlib.compressobj(compresslevel, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return c.compress(bytes(data)) + c.flush()


class GzipFile(io.BytesIO):
    """A gzip file opened for reading: the decompressed bytes."""

    def __init__(self, filename=None, mode=None, compresslevel=9, fileobj=None, mtime=None):
        if mode and any(c in mode for c in "wax+"):
            raise OSError(30, "Read-only file system", filename)
        if fileobj is None:
            fileobj = builtins.open(filename, "rb")
        super().__init__(decompress(fileobj.read()))
        self.name = filename if filename is not None else getattr(fileobj, "name", "")
        self.mode = READ


def open(filename, mode="rb", compresslevel=9, encoding=None, errors=None, newline=None):
    """`gzip.open`: binary by default, text with `"t"` in `mode`."""
    if "t" in mode:
        if "b" in mode:
            raise ValueError("Invalid mode: %r" % (mode,))
    else:
        if encoding is not None:
            raise ValueError("Argument 'encoding' not supported in binary mode")
        if errors is not None:
            raise ValueError("Argument 'errors' not supported in binary mode")
        if newline is not None:
            raise ValueError("Argument 'newline' not supported in binary mode")
    gz_mode = mode.replace("t", "")
    if isinstance(filename, (str, bytes)) or hasattr(filename, "__fspath__"):
        binary_file = GzipFile(filename, gz_mode, compresslevel)
    elif hasattr(filename, "read"):
        binary_file = GzipFile(None, gz_mode, compresslevel, filename)
    else:
        raise TypeError("filename must be a str or bytes object, or a file")
    if "t" in mode:
        return io.TextIOWrapper(binary_file, encoding or "utf-8", errors, newline)
    return binary_file
