"""A fake PYNQ board for nuri.hw's tests: mlkem_axi's registers and an AXI DMA whose transfers are
answered by the core's micro-program interpreter (hw/scripts/gen_prog.py, itself checked against
nuri.mlkem and by the cocotb tests). ``fake_device(level)`` is a PynqDevice on it; the core counts
the commands it was given (``commands``), so a test can tell what never reached it."""

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hw" / "scripts"))
import gen_prog  # noqa: E402

K = {512: 2, 768: 3, 1024: 4}


class FakeBuffer(np.ndarray):
    freed = 0

    def freebuffer(self):
        FakeBuffer.freed += 1


def fake_allocate(shape, dtype):
    return np.zeros(shape, dtype=dtype).view(FakeBuffer)


class FakeCore:
    """mlkem_axi's registers, the interpreter behind them."""

    def __init__(self, k, overlay):
        self.k, self.overlay, self.cmd, self.status, self.commands = k, overlay, None, 0, 0

    def read(self, addr):
        return {0x04: self.status, 0x08: 1234, 0x0C: 567, 0x10: self.k | 2 << 8 | 1 << 16}.get(addr, 0)

    def write(self, addr, value):
        assert addr == 0x00 and (value >> 8) == self.k
        self.cmd = value & 3
        self.commands += 1


class FakeChannel:
    def __init__(self, dma, send):
        self.dma, self.send, self.buf = dma, send, None

    def transfer(self, buf):
        assert isinstance(buf, FakeBuffer) and buf.dtype == np.uint64
        self.buf = buf

    def wait(self):
        if self.send:
            return
        core = self.dma.core
        data = np.asarray(self.dma.sendchannel.buf, dtype="<u8").tobytes()
        out, flags = gen_prog.run(core.k, gen_prog.OPS[core.cmd], data)
        bad = flags["ek_bad"] or flags["dk_bad"]
        core.status = 2 | (4 if flags["ek_bad"] else 0) | (8 if flags["dk_bad"] else 0)
        assert len(out) == 8 * len(self.buf)
        self.buf[:] = np.frombuffer(bytes(len(out)) if bad else out, dtype="<u8")


class FakeDMA:
    def __init__(self, core):
        self.core = core
        self.sendchannel = FakeChannel(self, True)
        self.recvchannel = FakeChannel(self, False)


class FakeOverlay:
    def __init__(self, k):
        self.mlkem_axi_0 = FakeCore(k, self)
        self.axi_dma_0 = FakeDMA(self.mlkem_axi_0)


def fake_device(level):
    """A nuri.hw.PynqDevice running ML-KEM-<level> on the fake board."""
    from nuri import hw

    return hw.PynqDevice(overlay=FakeOverlay(K[level]), allocate=fake_allocate)
