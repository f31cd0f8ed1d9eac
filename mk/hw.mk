# ML-KEM hardware (hw/): cocotb + Verilator tests, synthesis estimates (../shared/spec/fpga.md).
HW_PY := $(CURDIR)/$(VENV)/bin/python
.PHONY: check-hw hw-check hw-report
CHECK_EXTRA += check-hw

# make check: the units (Keccak, sponge, samplers, codec, the NBU = 2 polynomial engine) and the
# whole ML-KEM-768 core, then nuri.hw through the AXI wrapper (Verilator harness), against the
# Python models, hashlib and nuri.mlkem
check-hw: python
	@scripts/bootstrap.sh hw
	PYTHONPATH=hw/tb $(HW_PY) hw/tb/run.py --quick
	NURI_HW_SIM=1 $(HW_PY) -m pytest -q tests/python/test_hw.py

# every unit, every engine width, the core at all three levels and NBU = 1, 2, 4
hw-check: python
	@scripts/bootstrap.sh hw
	PYTHONPATH=hw/tb $(HW_PY) hw/tb/run.py
	NURI_HW_SIM=1 $(HW_PY) -m pytest -q tests/python/test_hw.py

# synthesis estimates (Yosys), post-route Fmax (nextpnr-ecp5) and simulated cycles, as bench
# records in build/hw/report.json
hw-report: hw-check
	PYTHONPATH=hw/tb $(HW_PY) hw/scripts/report.py
