"""Small helpers shared by the family modules: argument checks and status codes."""

import operator

from ._native import ffi, lib
from .exceptions import AlreadyFinalized, InvalidTag, NuriError, UnsupportedImplementation

# C status codes by name (nuri.h), never by number: the exception each one raises.
_RAISES = {
    lib.NURI_EAUTH: InvalidTag,
    lib.NURI_ESTATE: AlreadyFinalized,
    lib.NURI_EUNSUPPORTED: UnsupportedImplementation,
    lib.NURI_ENOTFOUND: UnsupportedImplementation,
    lib.NURI_EINVAL: ValueError,
    lib.NURI_ELENGTH: ValueError,
    lib.NURI_EPADDING: ValueError,
    lib.NURI_EBUFFER: ValueError,
    lib.NURI_EDOMAIN: ValueError,
    lib.NURI_EBADEK: ValueError,
    lib.NURI_EBADDK: ValueError,
    lib.NURI_EWEAKEK: ValueError,
}


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


def mlkem_level(level):
    """An ML-KEM parameter set (512, 768 or 1024); TypeError unless an integer, ValueError otherwise."""
    level = as_int(level, "level")
    if level not in (512, 768, 1024):
        raise ValueError(f"level must be 512, 768 or 1024, got {level!r}")
    return level


def mlkem_sized(value, name, want, level):
    """value as bytes of exactly `want` bytes (a key or ciphertext of ML-KEM-<level>)."""
    value = as_bytes(value, name)
    if len(value) != want:
        raise ValueError(f"{name} for ML-KEM-{level} must be {want} bytes long, got {len(value)}")
    return value


def check_len(value, name, allowed):
    value = as_bytes(value, name)
    if len(value) not in allowed:
        want = " or ".join(str(n) for n in sorted(allowed))
        raise ValueError(f"{name} must be {want} bytes long, got {len(value)}")
    return value


def check(rc, what):
    """Raises for a negative status: InvalidTag (EAUTH), AlreadyFinalized (ESTATE),
    UnsupportedImplementation (EUNSUPPORTED, ENOTFOUND), ValueError (other bad input), NuriError
    (anything else, e.g. ERANDOM)."""
    if rc == 0:
        return
    msg = ffi.string(lib.nuri_strerror(rc)).decode()
    raise _RAISES.get(rc, NuriError)(f"{what}: {msg}" if rc in _RAISES else f"{what}: {msg} ({rc})")


def impl_names(count, info, supported):
    """Names of the registered implementations usable on this CPU."""
    return [ffi.string(info(i).name).decode() for i in range(count()) if supported(i)]


def c_name(name):
    """A C string the library returned (an implementation name) as str, or None for NULL."""
    return ffi.string(name).decode() if name != ffi.NULL else None


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
