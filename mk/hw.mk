# ML-KEM hardware (hw/): cocotb + Verilator unit tests, synthesis estimates (../shared/spec/fpga.md).
HW_PY := $(CURDIR)/$(VENV)/bin/python
.PHONY: check-hw hw-check hw-report
CHECK_EXTRA += check-hw

# the units' tests against the Python models (FIPS 202/203) and hashlib: a few minutes
check-hw:
	@scripts/bootstrap.sh hw
	PYTHONPATH=hw/tb $(HW_PY) hw/tb/run.py

hw-check: check-hw

# synthesis estimates (Yosys) and simulated cycles, as bench records in build/hw/report.json
hw-report: check-hw
	PYTHONPATH=hw/tb $(HW_PY) hw/scripts/report.py
