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
# builds; dispatch picks them only on CPUs with AVX2; the BMI2 Keccak runs only if the CPU has BMI2). No AVX-512 backend: the
# development machine has no AVX-512 to test one on.
if(NURI_X86_64)
  nuri_backend(mlkem avx2 mlkem_avx2.c FLAGS -mavx2)
  if(NOT "src/common/keccakx4_avx2.c" IN_LIST NURI_SOURCES)
    nuri_simd_source(src/common/keccakx4_avx2.c -mavx2)
    nuri_simd_source(src/common/keccak1_bmi2.c -mbmi -mbmi2)
  endif()
endif()
