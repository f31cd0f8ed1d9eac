"""Testbench helpers shared by the units that take a message as 64-bit little-endian lanes."""

from cocotb.triggers import ReadOnly, RisingEdge


async def feed_message(dut, msg):
    """Drives in_valid/in_data/in_bytes/in_last with msg, one lane per accepted cycle (an empty
    message is one last lane of 0 bytes), waiting on in_ready."""
    words = [msg[i : i + 8] for i in range(0, len(msg), 8)] or [b""]
    for k, w in enumerate(words):
        dut.in_valid.value = 1
        dut.in_data.value = int.from_bytes(w.ljust(8, b"\0"), "little")
        dut.in_bytes.value = len(w)
        dut.in_last.value = int(k == len(words) - 1)
        while True:
            await ReadOnly()
            ready = dut.in_ready.value == 1
            await RisingEdge(dut.clk)
            if ready:
                break
    dut.in_valid.value = 0
    dut.in_last.value = 0
