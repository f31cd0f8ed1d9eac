# The NEON ML-KEM code (src/mlkem/neon, src/common/keccakx2_neon*.c) in its emulated build
# (NURI_MLKEM_NEON_EMULATED: the same sources through SIMDe's portable NEON intrinsics on x86-64):
# all of test_mlkem's vectors and differential tests, and the constant-time check under valgrind
# (which runs no AArch64 code), each with the Keccak of the SHA-3 extension and with plain NEON
# (NURI_CPU_MASK=40000 hides the extension). The AArch64 code itself runs every vector under
# qemu-aarch64 (check-cross) and its own constant-time check there (check-mlkem-neon-trace).
CHECK_EXTRA += check-mlkem-neon-emul
.PHONY: check-mlkem-neon-emul
check-mlkem-neon-emul: bootstrap
	cmake -S . -B build/mlkem-neon-emul $(CMAKE_COMMON) -DNURI_ONLY=mlkem -DNURI_MLKEM_NEON_EMULATED=ON \
	  -DNURI_CT_VALGRIND=ON -DNURI_BUILD_BENCH=OFF -DNURI_BUILD_SHARED=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	ninja -C build/mlkem-neon-emul -j$(JOBS) test_mlkem ct_mlkem
	cd build/mlkem-neon-emul && ctest --output-on-failure -R '^(test_mlkem|ct_mlkem)$$'
	cd build/mlkem-neon-emul && NURI_CPU_MASK=40000 ctest --output-on-failure -R '^(test_mlkem|ct_mlkem)$$'

# ML-KEM instruction counts under qemu-aarch64 (docs/performance.md): ref, opt, neon with and
# without the SHA-3 extension, at every level, and the four peers cross-built from crates.io at
# ML-KEM-768 (bench/arm/peers; a few minutes the first time). JSON records appended to
# build/bench.json, the table on the terminal.
.PHONY: bench-mlkem-arm
bench-mlkem-arm: bootstrap-cross
	@mkdir -p build
	@set -o pipefail; NURI_ARM_PEERS=1 bench/arm/count_mlkem.sh 512 768 1024 | tee -a build/bench.json

# nuri's AArch64 ML-KEM (neon on both Keccak paths, opt, ref) against pyca/cryptography: the AArch64
# build of tests/mlkem/interop_mlkem.c under qemu-aarch64, driven by
# tests/python/test_mlkem_pyca_aarch64.py (keys from the same seeds, ciphertexts both ways, implicit
# rejection). The host's implementations meet pyca in tests/python (check-python).
CHECK_EXTRA += check-mlkem-neon-pyca
.PHONY: check-mlkem-neon-pyca
ARM_MLKEM := build/arm-mlkem
check-mlkem-neon-pyca: bootstrap-cross python
	@scripts/bootstrap.sh seal
	@[ -f $(ARM_MLKEM)/build.ninja ] || cmake -S . -B $(ARM_MLKEM) -G Ninja \
	  -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux.cmake -DCMAKE_BUILD_TYPE=Release -DNURI_ONLY=mlkem \
	  -DNURI_BUILD_TESTS=OFF -DNURI_BUILD_BENCH=OFF >/dev/null
	ninja -C $(ARM_MLKEM) -j$(JOBS) nuri_static >/dev/null
	aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror -Iinclude tests/mlkem/interop_mlkem.c \
	  $(ARM_MLKEM)/libnuri.a -o $(ARM_MLKEM)/interop_mlkem
	NURI_AARCH64_INTEROP=$(ARM_MLKEM)/interop_mlkem $(VENV)/bin/pytest -q tests/python/test_mlkem_pyca_aarch64.py
