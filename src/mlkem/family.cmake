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
