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
