# ML-KEM (FIPS 203): the KEM logic once (kem.c), kernels behind the backend interface
# (ref/, opt/), and the project's Keccak/SHA-3 (src/common/fips202.c, added here so the
# top-level CMakeLists stays untouched; guarded so another family may add it too).
list(APPEND NURI_SOURCES
  src/mlkem/impls.c
  src/mlkem/kem.c
  src/mlkem/ref/mlkem_ref.c
  src/mlkem/opt/mlkem_opt.c)
if(NOT "src/common/fips202.c" IN_LIST NURI_SOURCES)
  list(APPEND NURI_SOURCES src/common/fips202.c)
endif()
# AVX2 kernels, the four-way AVX2 Keccak and the BMI2 single-state Keccak they use (x86-64 builds; dispatch picks them only on
# CPUs with AVX2). No AVX-512 backend: the development machine has no AVX-512 to test one on.
if(NURI_X86_64)
  nuri_simd_source(src/mlkem/avx2/mlkem_avx2.c -mavx2)
  if(NOT "src/common/keccakx4_avx2.c" IN_LIST NURI_SOURCES)
    nuri_simd_source(src/common/keccakx4_avx2.c -mavx2)
    nuri_simd_source(src/common/keccak1_bmi2.c -mbmi -mbmi2)
  endif()
  list(APPEND NURI_DEFINES NURI_HAVE_MLKEM_AVX2=1)
endif()
