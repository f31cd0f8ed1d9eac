"""nuri: fast, verified PIPO, FEA, SPARKLE (Schwaemm, Esch) and ML-KEM.

Submodules are imported on first use: ``nuri.pipo``, ``nuri.fea``, ``nuri.aead``,
``nuri.hash``, ``nuri.sparkle``, ``nuri.mlkem``; ``nuri.hw`` runs ML-KEM on the hardware core."""

import importlib

from .exceptions import AlreadyFinalized, InvalidTag, NuriError, UnsupportedImplementation

# The primitive families of the C library (one module each; their known-answer self-tests are in
# nuri.tools.selftest): the one list the CLI (selftest), the report and the tooling iterate over.
FAMILIES = ("pipo", "fea", "sparkle", "mlkem")
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
