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
