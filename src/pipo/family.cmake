# PIPO: portable kernels everywhere, SIMD kernels on x86-64 behind dispatch.
list(APPEND NURI_SOURCES
  src/pipo/impls.c
  src/pipo/modes.c
  src/pipo/ref/pipo_ref.c
  src/pipo/bitslice64/pipo_bs64.c)
if(NURI_X86_64)
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/pipo/avx2/pipo_avx2.c)
    nuri_simd_source(src/pipo/avx2/pipo_avx2.c -mavx2)
    list(APPEND NURI_DEFINES NURI_HAVE_PIPO_AVX2=1)
  endif()
  if(EXISTS ${CMAKE_SOURCE_DIR}/src/pipo/avx512/pipo_avx512.c)
    nuri_simd_source(src/pipo/avx512/pipo_avx512.c -mavx512f -mavx512bw -mavx512vl -mgfni)
    list(APPEND NURI_DEFINES NURI_HAVE_PIPO_AVX512=1)
  endif()
endif()
# ref is the one-block-at-a-time baseline. GCC -O3 would turn its block loop into a 16-lane
# SSE2 loop (in effect an automatic byte-slicing), which is what the bitslice/SIMD kernels do
# explicitly; keep ref scalar so it measures what it claims to be.
set_source_files_properties(src/pipo/ref/pipo_ref.c PROPERTIES COMPILE_OPTIONS "-fno-tree-vectorize;-fno-tree-slp-vectorize")
# Single-target builds: the assembly / NEON kernels of the target (cmake/toolchains/*).
if(NURI_TARGET STREQUAL "rv32" AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/rv32.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/rv32.cmake)
endif()
if(NURI_AARCH64 AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/neon.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/neon.cmake)
endif()
if(NURI_TARGET STREQUAL "avr")
  # 64-bit words cost ~120 KB of AVR code in bitslice64: the 32 KiB ATmega328P keeps ref only, and
  # the mode layer batches 8 blocks (64 bytes of stack) instead of 128.
  list(APPEND NURI_DEFINES NURI_PIPO_NO_BS64=1 NURI_PIPO_CHUNK=8)
endif()
