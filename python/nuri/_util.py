"""Small helpers shared by the family modules: argument checks and status codes."""
import operator

from ._native import ffi, lib
from .exceptions import InvalidTag, NuriError

NURI_EAUTH = -5


def as_bytes(value, name):
    """bytes-like -> bytes; anything else is a TypeError naming the argument."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{name} must be bytes, not {type(value).__name__}")


def as_int(value, name):
    """An integer (int, numpy integer: anything with __index__ but bool); anything else is a TypeError.
    (int() would truncate 1.5 and parse '5'.)"""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None


def as_str(value, name):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def impl_arg(impl):
    """The implementation name for C (NULL = dispatch); TypeError unless None or a str."""
    if impl is None:
        return ffi.NULL
    return as_str(impl, "impl").encode() if impl else ffi.NULL


def check_len(value, name, allowed):
    value = as_bytes(value, name)
    if len(value) not in allowed:
        want = " or ".join(str(n) for n in sorted(allowed))
        raise ValueError(f"{name} must be {want} bytes long, got {len(value)}")
    return value


def check(rc, what):
    """Raises for a negative status: ValueError for bad input, InvalidTag for EAUTH."""
    if rc == 0:
        return
    msg = ffi.string(lib.nuri_strerror(rc)).decode()
    if rc == NURI_EAUTH:
        raise InvalidTag(f"{what}: {msg}")
    if rc in (-1, -2, -3, -4, -7, -8, -9, -10):
        raise ValueError(f"{what}: {msg}")
    raise NuriError(f"{what}: {msg} ({rc})")


def impl_names(count, info, supported):
    """Names of the registered implementations usable on this CPU."""
    return [ffi.string(info(i).name).decode() for i in range(count()) if supported(i)]


def read_full(f, n):
    """Reads exactly n bytes from a file object unless EOF comes first (pipes return short reads)."""
    parts, got = [], 0
    while got < n:
        b = f.read(n - got)
        if not b:
            break
        parts.append(b)
        got += len(b)
    return b"".join(parts)
