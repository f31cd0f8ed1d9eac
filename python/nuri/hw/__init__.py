"""ML-KEM on the nuri hardware core (hw/rtl/mlkem_axi.v): the calls of ``nuri.mlkem``, run by a
device: an FPGA board through PYNQ (``nuri.hw.PynqDevice``) or the Verilator simulation of the core.

>>> from nuri import hw, mlkem                                   # doctest: +SKIP
>>> ek, dk = hw.keygen(768, seed=bytes(64))                       # doctest: +SKIP
>>> ek == mlkem.keygen(768, seed=bytes(64))[0]                    # doctest: +SKIP
True

Without ``device`` the calls use ``default_device(level)``. Every call is deterministic
(KeyGen_internal / Encaps_internal): a missing seed or m is drawn from the operating system here,
as the core has no random source. Bad keys raise ValueError as in nuri.mlkem (FIPS 203 7.2 / 7.3,
found by the core); ``device.cycles`` gives the core and I/O cycles of the last command.

Devices are :class:`Device` subclasses (``run(op, data, out_len)``, ``level``, ``nbu``, ``cycles``).
Besides PynqDevice, a backend plugs in by an entry point of the group ``nuri.hw.devices`` (name ->
Device subclass, made as ``cls(level, **options)``): a checkout's nuri-dev toolkit (``make python``)
installs ``verilator``, the simulation built from hw/rtl (it needs the repository and Verilator; from
an installed wheel alone, ``simulator`` raises NeedsCheckout). ``backends()`` lists what is installed,
``open_device(name, level)`` makes one and ``simulator(level)`` / ``default_device(level)`` share one
per level.
"""

import os
import threading

from .. import mlkem
from .._util import mlkem_level, mlkem_sized
from ._device import STATUS_DK_BAD, STATUS_DONE, STATUS_EK_BAD, Device  # noqa: F401
from ._pynq import PynqDevice

__all__ = [
    "keygen",
    "encaps",
    "decaps",
    "backends",
    "open_device",
    "simulator",
    "default_device",
    "PynqDevice",
    "Device",
]

OP_KEYGEN, OP_ENCAPS, OP_DECAPS = 0, 1, 2
ENTRY_POINT_GROUP = "nuri.hw.devices"
LEVELS = (512, 768, 1024)
_shared = {}
_shared_lock = threading.Lock()


def backends():
    """{name: entry point} of the device backends installed (group ``nuri.hw.devices``)."""
    from importlib.metadata import entry_points

    eps = entry_points()
    found = eps.select(group=ENTRY_POINT_GROUP) if hasattr(eps, "select") else eps.get(ENTRY_POINT_GROUP, ())
    return {ep.name: ep for ep in found}


def open_device(name, level, **options):
    """A new device of the backend `name` running ML-KEM-<level>."""
    if level not in LEVELS:
        raise ValueError(f"level must be 512, 768 or 1024, got {level!r}")
    ep = backends().get(name)
    if ep is None:
        if name == "verilator":
            from ..tools import NeedsCheckout

            raise NeedsCheckout(
                "nuri.hw: the Verilator model of the ML-KEM core needs a checkout of nuri (hw/rtl and its "
                "nuri-dev toolkit, installed by make python)"
            )
        raise ValueError(f"nuri.hw: no device backend {name!r} (installed: {', '.join(backends()) or 'none'})")
    return ep.load()(level, **options)


def simulator(level, nbu=2):
    """The shared Verilator simulation of the core for ML-KEM-<level> (built and started on first use)."""
    key = ("verilator", level, nbu)
    with _shared_lock:
        if key not in _shared:
            _shared[key] = open_device("verilator", level, nbu=nbu)
        return _shared[key]


def default_device(level):
    """The device the calls use when given none: the simulation (NBU = 2)."""
    return simulator(level)


def _device(level, device):
    dev = device if device is not None else default_device(level)
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
