"""The Verilator simulation of mlkem_axi as a device of nuri.hw (entry point ``nuri.hw.devices``:
``verilator``): a small C++ harness (hw/sim/mlkem_axi_harness.cpp) built with the checkout's RTL
(hw/rtl) on first use into build/hw/harness/ (or $NURI_HW_BUILD_DIR), cached by a digest of the
sources, kept running, and fed commands over pipes."""

import hashlib
import os
import shutil
import struct
import subprocess
import threading
from pathlib import Path

from nuri.hw import Device

from . import checkout

K_OF_LEVEL = {512: 2, 768: 3, 1024: 4}


def core_sources(rtl):
    """The sources of mlkem_axi in compile order, from hw/rtl/core.f (the list synthesis reads too)."""
    lines = (rtl / "core.f").read_text().splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("//")]


def build(k, nbu=2):
    """Builds (once per RTL version) the harness for ML-KEM with K = k; returns its path."""
    hw = checkout() / "hw"
    rtl = hw / "rtl"
    harness = hw / "sim" / "mlkem_axi_harness.cpp"
    sources = [rtl / s for s in core_sources(rtl)]
    files = sources + [rtl / "core.f"] + sorted(rtl.glob("*.vh")) + [harness]
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()[:16]
    base = Path(os.environ.get("NURI_HW_BUILD_DIR", hw.parent / "build" / "hw" / "harness"))
    out = base / f"k{k}-nbu{nbu}-{digest}"
    exe = out / "harness"
    if exe.exists():
        return exe
    if shutil.which("verilator") is None:
        raise RuntimeError("nuri.hw: verilator is not installed (scripts/bootstrap.sh hwsim)")
    base.mkdir(parents=True, exist_ok=True)
    tmp = base / f".tmp-{os.getpid()}-{k}-{nbu}"
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [
        "verilator",
        "--cc",
        "--exe",
        "--build",
        "-j",
        "2",
        "-O2",
        "-Wno-fatal",
        "-Wno-WIDTH",
        f"-I{rtl}",
        "--top-module",
        "mlkem_axi",
        f"-GK={k}",
        f"-GNBU={nbu}",
        "--Mdir",
        str(tmp),
        "-o",
        "harness",
        *map(str, sources),
        str(harness),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError("nuri.hw: building the simulation failed:\n" + res.stderr[-2000:])
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        tmp.rename(out)
    except OSError:  # built meanwhile by another process
        shutil.rmtree(tmp, ignore_errors=True)
    return exe


class VerilatorDevice(Device):
    def __init__(self, level, nbu=2):
        if level not in K_OF_LEVEL:
            raise ValueError(f"level must be 512, 768 or 1024, got {level!r}")
        self.level, self.nbu = level, nbu
        self._proc = subprocess.Popen(
            [str(build(K_OF_LEVEL[level], nbu))], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self._lock = threading.Lock()

    def _command(self, op, data, out_len):
        with self._lock:
            self._proc.stdin.write(struct.pack("<BI", op, len(data)) + data)
            self._proc.stdin.flush()
            head = self._proc.stdout.read(16)
            if len(head) != 16:
                raise RuntimeError("nuri.hw: the simulation stopped")
            status, core, io, n = struct.unpack("<4I", head)
            return status, core, io, self._proc.stdout.read(n)

    def close(self):
        if self._proc.poll() is None:
            self._proc.stdin.write(b"\xff")
            self._proc.stdin.close()
            self._proc.wait()
