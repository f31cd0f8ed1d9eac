# ML-KEM (FIPS 203): the KEM logic once (kem.c) over the backends, one folder each
# (nuri_backend: see cmake/NuriHelpers.cmake). Keccak/SHA-3 (src/common/fips202.c) is part of
# the common layer.
list(APPEND NURI_SOURCES
  src/mlkem/impls.c
  src/mlkem/levels.c
  src/mlkem/kem.c)
nuri_backend(mlkem ref mlkem_ref.c)
nuri_backend(mlkem opt mlkem_opt.c)
# AVX2 kernels, with the four-way AVX2 Keccak and the BMI2 single-state Keccak they use (x86-64
# builds; dispatch picks them only on CPUs with AVX2; the BMI2 Keccak runs only if the CPU has BMI2).
# AVX-512 kernels (F/BW/VL) with the eight-way AVX-512 Keccak; dispatch picks them on CPUs with those.
# NURI_MLKEM_AVX512_EMULATED (test builds, needs SIMDe: mk/mlkem-avx512.mk) compiles the same
# sources through portable intrinsics instead, so that their vectors and their constant-time check
# run on CPUs without AVX-512 and under valgrind, which has no AVX-512.
option(NURI_MLKEM_AVX512_EMULATED "Build the AVX-512 ML-KEM code through portable intrinsics (tests only)" OFF)
if(NURI_X86_64)
  if(NURI_MLKEM_AVX512_EMULATED)
    set(_mlkem_avx512_flags -mavx2 -Wno-psabi -DNURI_AVX512_EMULATED=1) # 512-bit values passed in memory: fine here
  else()
    set(_mlkem_avx512_flags -mavx512f -mavx512bw -mavx512vl)
  endif()
  nuri_backend(mlkem avx512 mlkem_avx512.c FLAGS ${_mlkem_avx512_flags})
  if(NOT "src/common/keccakx8_avx512.c" IN_LIST NURI_SOURCES)
    nuri_simd_source(src/common/keccakx8_avx512.c ${_mlkem_avx512_flags})
  endif()
  nuri_backend(mlkem avx2 mlkem_avx2.c FLAGS -mavx2)
  if(NOT "src/common/keccakx4_avx2.c" IN_LIST NURI_SOURCES)
    nuri_simd_source(src/common/keccakx4_avx2.c -mavx2)
    nuri_simd_source(src/common/keccak1_bmi2.c -mbmi -mbmi2)
  endif()
endif()
# NEON kernels with the two-way Keccak on plain NEON and on the SHA-3 extension (AArch64 builds:
# NEON is part of ARMv8-A, so only the SHA-3 file gets extra flags, and dispatch inside the backend
# runs it only on CPUs whose HWCAP has SHA3). NURI_MLKEM_NEON_EMULATED (test builds, needs SIMDe:
# mk/mlkem-neon.mk) compiles the same sources on x86-64 through portable intrinsics, so that their
# vectors and their constant-time check run natively and under valgrind, which has no AArch64.
option(NURI_MLKEM_NEON_EMULATED "Build the NEON ML-KEM code through portable intrinsics (tests only)" OFF)
if(NURI_AARCH64 OR NURI_MLKEM_NEON_EMULATED)
  if(NURI_MLKEM_NEON_EMULATED)
    set(_mlkem_neon_flags -DNURI_NEON_EMULATED=1)
    set(_mlkem_sha3_flags -DNURI_NEON_EMULATED=1)
  else()
    set(_mlkem_neon_flags "")
    set(_mlkem_sha3_flags -march=armv8.2-a+sha3)
  endif()
  # GCC's scheduling before register allocation spreads the Keccak round over more than the 32
  # vector registers (spills: 161 instead of 145 instructions per two rounds on the SHA-3 path)
  set(_keccakx2_flags "")
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT NURI_MLKEM_NEON_EMULATED)
    set(_keccakx2_flags -fno-schedule-insns)
  endif()
  nuri_backend(mlkem neon mlkem_neon.c FLAGS ${_mlkem_neon_flags})
  if(NOT "src/common/keccakx2_neon.c" IN_LIST NURI_SOURCES)
    nuri_simd_source(src/common/keccakx2_neon.c ${_mlkem_neon_flags} ${_keccakx2_flags})
    nuri_simd_source(src/common/keccakx2_neon_sha3.c ${_mlkem_sha3_flags} ${_keccakx2_flags})
  endif()
endif()
