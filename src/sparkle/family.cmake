# SPARKLE / Schwaemm / Esch: portable kernels everywhere, multi-instance SIMD kernels on x86-64
# behind dispatch, AArch64 assembly kernels from src/sparkle/aarch64.cmake on AArch64 targets.
list(APPEND NURI_SOURCES
  src/sparkle/impls.c
  src/sparkle/ref/sparkle_ref.c
  src/sparkle/schwaemm.c
  src/sparkle/esch.c
  src/sparkle/batch.c)
if(NURI_TARGET STREQUAL "avr")
  # opt unrolls every branch count: ~69 KB of AVR code, twice the ATmega328P's flash; ref only.
  list(APPEND NURI_DEFINES NURI_SPARKLE_NO_OPT=1)
else()
  list(APPEND NURI_SOURCES src/sparkle/opt/sparkle_opt.c)
endif()
if(NURI_X86_64)
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/sparkle/avx2/sparkle_avx2.c)
    nuri_simd_source(src/sparkle/avx2/sparkle_avx2.c -mavx2)
    list(APPEND NURI_DEFINES NURI_HAVE_SPARKLE_AVX2=1)
  endif()
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/sparkle/avx512/sparkle_avx512.c)
    nuri_simd_source(src/sparkle/avx512/sparkle_avx512.c -mavx512f)
    list(APPEND NURI_DEFINES NURI_HAVE_SPARKLE_AVX512=1)
  endif()
endif()
if(NURI_AARCH64 AND EXISTS ${CMAKE_SOURCE_DIR}/src/sparkle/aarch64.cmake)
  include(${CMAKE_SOURCE_DIR}/src/sparkle/aarch64.cmake)
endif()
# ref is the spec-shaped baseline: keep GCC from turning its branch loops into SIMD code, so it
# measures what it claims to be (the designers' reference is plain scalar C too).
set_source_files_properties(src/sparkle/ref/sparkle_ref.c PROPERTIES COMPILE_OPTIONS "-fno-tree-vectorize;-fno-tree-slp-vectorize")
