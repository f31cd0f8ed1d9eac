"""ML-KEM on the nuri hardware core (hw/rtl/mlkem_axi.v): the calls of ``nuri.mlkem``, run by a
device, either the Verilator simulation of the core (built on demand; needs verilator and a C++
compiler) or an FPGA board through PYNQ (``nuri.hw.PynqDevice``).

>>> from nuri import hw, mlkem                                   # doctest: +SKIP
>>> ek, dk = hw.keygen(768, seed=bytes(64))                       # doctest: +SKIP
>>> ek == mlkem.keygen(768, seed=bytes(64))[0]                    # doctest: +SKIP
True

Without ``device`` the calls use ``simulator(level)``. Every call is deterministic
(KeyGen_internal / Encaps_internal): a missing seed or m is drawn from the operating system here,
as the core has no random source. Bad keys raise ValueError as in nuri.mlkem (FIPS 203 7.2 / 7.3,
found by the core); ``last_cycles(device)`` gives the core and I/O cycles of the last command.
"""

import os

from .. import mlkem
from .._util import mlkem_level, mlkem_sized
from ._device import STATUS_DK_BAD, STATUS_DONE, STATUS_EK_BAD, Device  # noqa: F401
from ._pynq import PynqDevice
from ._verilator import VerilatorDevice, simulator

__all__ = ["keygen", "encaps", "decaps", "simulator", "VerilatorDevice", "PynqDevice", "Device"]

OP_KEYGEN, OP_ENCAPS, OP_DECAPS = 0, 1, 2


def _device(level, device):
    dev = device if device is not None else simulator(level)
    if dev.level != level:
        raise ValueError(f"the device runs ML-KEM-{dev.level}, not ML-KEM-{level}")
    return dev


def keygen(level: int, seed: bytes = None, *, device=None):
    """(ek, dk) for seed = d || z (64 bytes; None draws it)."""
    level = mlkem_level(level)
    nek, ndk, _ = mlkem.sizes(level)
    seed = os.urandom(64) if seed is None else mlkem_sized(seed, "seed (d || z)", 64, level)
    out = _device(level, device).run(OP_KEYGEN, seed, nek + ndk)
    return out[:nek], out[nek:]


def encaps(level: int, ek: bytes, m: bytes = None, *, device=None):
    """(shared_key, ciphertext); ValueError if ek fails the FIPS 203 modulus check."""
    level = mlkem_level(level)
    nek, _, nct = mlkem.sizes(level)
    ek = mlkem_sized(ek, "encapsulation key", nek, level)
    m = os.urandom(32) if m is None else mlkem_sized(m, "m", 32, level)
    out = _device(level, device).run(OP_ENCAPS, ek + m, 32 + nct)
    return out[:32], out[32:]


def decaps(level: int, dk: bytes, ciphertext: bytes, *, device=None) -> bytes:
    """The 32-byte shared key (the implicit-rejection key for an altered ciphertext);
    ValueError if dk fails the FIPS 203 hash check."""
    level = mlkem_level(level)
    _, ndk, nct = mlkem.sizes(level)
    dk = mlkem_sized(dk, "decapsulation key", ndk, level)
    ciphertext = mlkem_sized(ciphertext, "ciphertext", nct, level)
    return _device(level, device).run(OP_DECAPS, dk + ciphertext, 32)
