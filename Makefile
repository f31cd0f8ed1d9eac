# The front door. Quick start: `make demo` (the main job) and `make check` (all tests).
# Each installs what it needs (scripts/bootstrap.sh: apt-get for missing tools, a .venv for Python).
JOBS ?= 2
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
NURI := $(VENV)/bin/nuri
CMAKE_COMMON := -G Ninja -DNURI_WERROR=ON

.PHONY: peers all demo bootstrap-demo bootstrap-all check check-c check-ct check-python check-cross check-docs bench python bootstrap bootstrap-cross build clean

all: build

# Components add their own targets in mk/<component>.mk: `CHECK_EXTRA += check-foo` puts a smoke
# test in `make check`, `BENCH_EXTRA += bench-foo` a benchmark in `make bench`.
CHECK_EXTRA :=
BENCH_EXTRA :=
-include mk/*.mk

bootstrap:
	@scripts/bootstrap.sh host

# the cross toolchains and emulators (scripts/deps/cross.apt): check-cross, bench and demo use them
bootstrap-cross:
	@scripts/bootstrap.sh cross

# what make demo runs beside the host tools: the emulated targets, the hardware core's simulation, the
# benchmark peers (cargo) and ffmpeg (the clip the hardware core seals)
bootstrap-demo:
	@scripts/bootstrap.sh cross hwsim peers video

# every group in scripts/deps/ (make check runs every component's tests)
bootstrap-all:
	@scripts/bootstrap.sh all

# Release build of the library, tests and benchmark harness.
build: bootstrap
	cmake -S . -B build/release $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release >/dev/null
	ninja -C build/release -j$(JOBS)

# The Python package (C core + cffi bindings + the nuri CLI, with its runtime dependencies) installed
# into .venv, and beside it the checkout's nuri-dev toolkit (tools/: report, benchmark peers, hardware
# simulation, database and video fixtures), editable: it runs from this checkout and is never in the wheel
# (PYTHONWARNINGS quiets setuptools' page of notices about editable installs).
python: bootstrap
	$(VENV)/bin/pip install -q --no-build-isolation .
	PYTHONWARNINGS=ignore $(VENV)/bin/pip install -q --no-build-isolation --no-deps -e tools

# ---- tests ----
check: bootstrap-all check-c check-ct check-python check-docs check-cross $(CHECK_EXTRA)
	@echo "make check: all test suites passed"

# C tests under AddressSanitizer + UndefinedBehaviorSanitizer.
check-c: bootstrap
	cmake -S . -B build/asan $(CMAKE_COMMON) -DNURI_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	ninja -C build/asan -j$(JOBS)
	cd build/asan && ctest --output-on-failure -j$(JOBS)

# Constant-time checks: valgrind with secrets marked undefined (tests/ct/); ABI checks (exported
# symbols prefixed nuri_, install + pkg-config) run in this non-sanitized build.
check-ct: bootstrap
	cmake -S . -B build/ct $(CMAKE_COMMON) -DNURI_CT_VALGRIND=ON -DNURI_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	ninja -C build/ct -j$(JOBS)
	cd build/ct && ctest --output-on-failure -j$(JOBS) -R '^(ct_|abi_)'

check-python: python
	$(VENV)/bin/pytest -q tests/python

check-docs: python
	cd build && ../$(PY) ../scripts/run_doctests.py

check-cross: bootstrap-cross
	@if [ -x scripts/check-cross.sh ]; then scripts/check-cross.sh; else echo "check-cross: no cross targets yet"; fi

# ---- the main job and benchmarks ----
# Peer programs measured in the same benchmark run (Rust crates from the Rust package registry: FF1, Ascon, ML-KEM).
# Optional: without cargo the benchmarks run without peers (`nuri report` and `nuri bench` build them
# too and say so). Built from each peer's folder, so that its .cargo/config.toml (build flags) applies.
peers:
	@for m in bench/peers/Cargo.toml bench/peers/*/Cargo.toml; do \
	  [ -f $$m ] || continue; \
	  if command -v cargo >/dev/null; then (cd $$(dirname $$m) && cargo build -q --release) || echo "peers: $$m failed to build (skipped)"; \
	  else echo "peers: cargo not found, skipping $$m"; fi; done

# The main job: every system at work. `nuri report` runs the self-test, the host benchmarks with peers,
# the emulated targets, the ML-KEM hardware core in simulation (ML-KEM-768, NBU = 2, bit-exact against
# the C library) and key search (every engine, the GPU's when usable), writes report/index.md (headline
# figures beside peers first, charts, then the long tables), ends with a summary of its parts (ok /
# FAILED / skipped and why) and exits non-zero when a part it attempted failed.
demo: bootstrap-demo python
	$(NURI) selftest
	$(NURI) report

# Host benchmarks (with peers, built by `nuri bench`), then the emulated targets' counts (their toolchains
# come from the bootstrap): one JSON record per line in build/bench.json; a failing part fails the target.
bench: bootstrap-cross python
	@mkdir -p build
	@set -o pipefail; $(NURI) bench --json | tee build/bench.json
	@set -o pipefail; scripts/bench-cross.sh | tee -a build/bench.json
	@$(if $(BENCH_EXTRA),$(MAKE) --no-print-directory $(BENCH_EXTRA),true)
	@echo "records written to build/bench.json"

clean:
	rm -rf build dist *.egg-info
