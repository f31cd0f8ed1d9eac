# PIPO: the mode layer once (modes.c) over the backends, one folder each (nuri_backend: see
# cmake/NuriHelpers.cmake). Portable kernels everywhere, SIMD kernels on x86-64 behind dispatch.
list(APPEND NURI_SOURCES
  src/pipo/impls.c
  src/pipo/modes.c)
# ref is the one-block-at-a-time baseline. GCC -O3 would turn its block loop into a 16-lane
# SSE2 loop (in effect an automatic byte-slicing), which is what the bitslice/SIMD kernels do
# explicitly; keep ref scalar so it measures what it claims to be.
nuri_backend(pipo ref pipo_ref.c FLAGS -fno-tree-vectorize -fno-tree-slp-vectorize)
if(NOT NURI_TARGET STREQUAL "avr")
  # 64-bit words cost ~120 KB of AVR code in bitslice64: the 32 KiB ATmega328P keeps ref only
  nuri_backend(pipo bitslice64 pipo_bs64.c)
endif()
if(NURI_X86_64)
  nuri_backend(pipo avx2 pipo_avx2.c FLAGS -mavx2)
  nuri_backend(pipo avx512 pipo_avx512.c FLAGS -mavx512f -mavx512bw -mavx512vl -mgfni)
endif()
# Single-target builds: the assembly / NEON kernels of the target (cmake/toolchains/*).
if(NURI_TARGET STREQUAL "rv32")
  include(${CMAKE_CURRENT_LIST_DIR}/rv32.cmake)
endif()
if(NURI_AARCH64)
  # ASIMD is part of ARMv8-A: no extra flags, NURI_CPU_NEON at run time
  nuri_backend(pipo neon pipo_neon.c)
endif()
if(NURI_TARGET STREQUAL "avr")
  # the mode layer batches 8 blocks (64 bytes of stack) instead of 128 on the 2 KiB-RAM ATmega328P
  list(APPEND NURI_DEFINES NURI_PIPO_CHUNK=8)
endif()
