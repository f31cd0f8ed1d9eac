# The AVX-512 ML-KEM code (src/mlkem/avx512, src/common/keccakx8_avx512.c) in its emulated build
# (NURI_MLKEM_AVX512_EMULATED: the same sources through SIMDe's portable intrinsics): all of
# test_mlkem's vectors and differential tests on any x86-64 CPU, and the constant-time check under
# valgrind, which decodes no AVX-512 instruction (under valgrind the native avx512 backend is not
# offered: check-ct skips it). The native code runs its vectors in check-c on AVX-512 CPUs.
CHECK_EXTRA += check-mlkem-avx512-emul
.PHONY: check-mlkem-avx512-emul
check-mlkem-avx512-emul: bootstrap
	cmake -S . -B build/mlkem-avx512-emul $(CMAKE_COMMON) -DNURI_ONLY=mlkem -DNURI_MLKEM_AVX512_EMULATED=ON \
	  -DNURI_CT_VALGRIND=ON -DNURI_BUILD_BENCH=OFF -DNURI_BUILD_SHARED=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	ninja -C build/mlkem-avx512-emul -j$(JOBS) test_mlkem ct_mlkem
	cd build/mlkem-avx512-emul && NURI_CPU_MASK=3c0 ctest --output-on-failure -R '^(test_mlkem|ct_mlkem)$$'
