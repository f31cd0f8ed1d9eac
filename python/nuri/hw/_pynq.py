"""nuri.hw on an FPGA board through PYNQ: the overlay's mlkem_axi (AXI4-Lite registers as an
MMIO IP) and an AXI DMA (sendchannel -> s_axis, m_axis -> recvchannel), with contiguous buffers
from pynq.allocate. The pynq module is imported only when a PynqDevice is made; tests pass a fake
overlay and allocator (tests/python/test_hw.py)."""

from ._device import REG_CMD, REG_CYCLES, REG_INFO, REG_IO_CYCLES, REG_STATUS, Device

LEVEL_OF_K = {2: 512, 3: 768, 4: 1024}


class PynqDevice(Device):
    def __init__(self, bitfile=None, *, core="mlkem_axi_0", dma="axi_dma_0", overlay=None, allocate=None):
        if overlay is None or allocate is None:
            try:
                import pynq
            except ImportError as exc:
                raise RuntimeError("nuri.hw.PynqDevice needs the pynq package (on the board)") from exc
            overlay = overlay if overlay is not None else pynq.Overlay(bitfile)
            allocate = allocate if allocate is not None else pynq.allocate
        self._ip = getattr(overlay, core)
        self._dma = getattr(overlay, dma)
        self._allocate = allocate
        info = self._ip.read(REG_INFO)
        self.k, self.nbu = info & 0xFF, (info >> 8) & 0xFF
        if self.k not in LEVEL_OF_K:
            raise RuntimeError(f"nuri.hw: {core} is not an ML-KEM core (INFO {info:#x})")
        self.level = LEVEL_OF_K[self.k]

    def _command(self, op, data, out_len):
        import numpy as np

        src = self._allocate(shape=(len(data) // 8,), dtype=np.uint64)
        dst = self._allocate(shape=(out_len // 8,), dtype=np.uint64)
        try:
            src[:] = np.frombuffer(data, dtype="<u8")
            if hasattr(src, "flush"):
                src.flush()
            self._ip.write(REG_CMD, op | self.k << 8)
            self._dma.recvchannel.transfer(dst)
            self._dma.sendchannel.transfer(src)
            self._dma.sendchannel.wait()
            self._dma.recvchannel.wait()
            if hasattr(dst, "invalidate"):
                dst.invalidate()
            out = np.asarray(dst, dtype="<u8").tobytes()
            return (self._ip.read(REG_STATUS), self._ip.read(REG_CYCLES), self._ip.read(REG_IO_CYCLES), out)
        finally:
            dst[:] = 0  # the buffers held keys: wipe before giving them back
            src[:] = 0
            for buf in (src, dst):
                if hasattr(buf, "freebuffer"):
                    buf.freebuffer()
