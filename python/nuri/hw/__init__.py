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
``open_device(name, level)`` makes one and ``simulator(level)`` shares one per level.

``default_device(level)``, the device of every call without ``device=`` (and of ``nuri.mlkem``'s
``impl="hw"``), is, in this order: the device given to ``set_default_device`` for that level; the one
the environment names, ``NURI_HW_DEVICE=pynq:<bitfile>`` (``{level}`` in the path is replaced by
512, 768 or 1024: a board's overlay holds one level's core) or ``NURI_HW_DEVICE=<backend>`` (an
entry point name); else the Verilator model when it is installed. ``available()`` says whether one
of them can be had without making it.
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
    "set_default_device",
    "clear_default_device",
    "available",
    "DEVICE_ENV",
    "PynqDevice",
    "Device",
]

OP_KEYGEN, OP_ENCAPS, OP_DECAPS = 0, 1, 2
ENTRY_POINT_GROUP = "nuri.hw.devices"
LEVELS = (512, 768, 1024)
DEVICE_ENV = "NURI_HW_DEVICE"
_shared = {}
_chosen = {}  # level -> the device given to set_default_device
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


def set_default_device(device):
    """Makes ``device`` (a Device, e.g. a PynqDevice on a board) the default of its level, for this
    process; ``clear_default_device(level)`` undoes it."""
    if not isinstance(device, Device):
        raise TypeError(f"device must be a nuri.hw.Device, got {type(device).__name__}")
    if device.level not in LEVELS:
        raise ValueError(f"the device runs no ML-KEM level (level {device.level!r})")
    with _shared_lock:
        _chosen[device.level] = device


def clear_default_device(level):
    """Forgets the device set_default_device gave ``level`` (the environment or the model again)."""
    with _shared_lock:
        _chosen.pop(level, None)


def _from_env(level, spec):
    name, _, arg = spec.partition(":")
    if name == "pynq":
        if not arg:
            raise ValueError(f"{DEVICE_ENV}=pynq needs the overlay: pynq:<bitfile> ({{level}} in it is the level)")
        key = ("pynq", level, arg)
        with _shared_lock:
            if key not in _shared:
                dev = PynqDevice(arg.replace("{level}", str(level)))
                if dev.level != level:
                    raise ValueError(f"{DEVICE_ENV}: the overlay {arg!r} holds an ML-KEM-{dev.level} core, not {level}")
                _shared[key] = dev
            return _shared[key]
    if arg:
        raise ValueError(f"{DEVICE_ENV}={spec!r}: only pynq takes an argument (pynq:<bitfile>)")
    if name == "verilator":
        return simulator(level)
    key = (name, level, None)
    with _shared_lock:
        if key not in _shared:
            _shared[key] = open_device(name, level)
        return _shared[key]


def available():
    """True when default_device can give a device: one was set, the environment names one, or a
    device backend (the Verilator model of a checkout) is installed. Nothing is built or opened."""
    return bool(_chosen) or bool(os.environ.get(DEVICE_ENV)) or bool(backends())


def default_device(level):
    """The device the calls use when given none (module docstring: set_default_device, then
    $NURI_HW_DEVICE, then the Verilator simulation with NBU = 2). NeedsCheckout, one line, when
    there is none."""
    if level not in LEVELS:
        raise ValueError(f"level must be 512, 768 or 1024, got {level!r}")
    dev = _chosen.get(level)
    if dev is not None:
        return dev
    spec = os.environ.get(DEVICE_ENV)
    if spec:
        return _from_env(level, spec)
    if "verilator" not in backends():
        from ..tools import NeedsCheckout

        raise NeedsCheckout(
            "nuri.hw: no device for the ML-KEM hardware core: the Verilator model needs a checkout of nuri "
            f"(its nuri-dev toolkit, installed by make python); on a board set {DEVICE_ENV}=pynq:<bitfile>"
        )
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
