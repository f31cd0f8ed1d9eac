"""modq.vh's reductions on every input (hw/tb/modq_check.v runs them at time 0)."""

import cocotb
from cocotb.triggers import Timer


@cocotb.test()
async def every_input(dut):
    await Timer(1, "ns")
    assert int(dut.red_n.value) == 1 << 24, "modq_red24 did not run on every 24-bit input"
    assert int(dut.red_bad.value) == 0, f"modq_red24 wrong on {int(dut.red_bad.value)} inputs"
    assert int(dut.small_n.value) == 2 * 3329 + 2 * 3329 * 3329
    assert int(dut.small_bad.value) == 0, f"modq_sdiv128/add/sub wrong on {int(dut.small_bad.value)} inputs"
