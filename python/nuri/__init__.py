"""nuri: fast, verified PIPO, FEA, SPARKLE (Schwaemm, Esch) and ML-KEM.

Submodules are imported on first use: ``nuri.pipo``, ``nuri.fea``, ``nuri.aead``,
``nuri.hash``, ``nuri.sparkle``, ``nuri.mlkem``, ``nuri.keysearch``; ``nuri.hw`` runs ML-KEM on
the hardware core.

Every family module lists its implementations (``implementations()``, fastest first, and
``default_implementation()``, the one dispatch picks) and takes ``impl=<name>`` by keyword
wherever a key, a context or a one-shot call is made. The Python API, like the C headers, is
stable under semantic versioning from 1.0.0."""

import importlib

from .exceptions import AlreadyFinalized, InvalidTag, NuriError, UnsupportedImplementation

# The primitive families of the C library, one registry each (one module each; their known-answer
# self-tests are in nuri.tools.selftest): the one list the CLI (selftest), the report and the
# tooling iterate over. aead and hash are the Schwaemm and Esch APIs over the sparkle registry.
FAMILIES = ("pipo", "fea", "sparkle", "mlkem", "keysearch")
__all__ = [
    "FAMILIES",
    "InvalidTag",
    "AlreadyFinalized",
    "UnsupportedImplementation",
    "NuriError",
    "pipo",
    "fea",
    "aead",
    "hash",
    "sparkle",
    "mlkem",
    "keysearch",
    "cpu_features",
]

_SUBMODULES = {"pipo", "fea", "aead", "hash", "sparkle", "mlkem", "keysearch", "cli", "hw"}


def __getattr__(name):
    if name == "__version__":  # the one version string: NURI_VERSION_STRING in include/nuri/nuri.h
        from ._native import ffi, lib

        return ffi.string(lib.nuri_version()).decode()
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'nuri' has no attribute {name!r}")


def cpu_features():
    """The CPU features nuri detected (after NURI_CPU_MASK), e.g. ['avx2', 'avx512f', 'gfni']."""
    from ._native import ffi, lib

    buf = ffi.new("char[256]")
    return ffi.string(lib.nuri_cpu_feature_names(lib.nuri_cpu_features(), buf, 256)).decode().split()
