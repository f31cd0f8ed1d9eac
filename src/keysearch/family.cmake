# PIPO key search (issue 18): engines over the PIPO reference kernels (needs the pipo family).
if(NOT "pipo" IN_LIST _nuri_all_families)
  message(FATAL_ERROR "keysearch needs the pipo family: NURI_ONLY=\"pipo;keysearch\"")
endif()
list(APPEND NURI_SOURCES
  src/keysearch/impls.c
  src/keysearch/plan.c
  src/keysearch/ref/ks_ref.c
  src/keysearch/portable/ks_portable.c)
if(NURI_X86_64)
  nuri_simd_source(src/keysearch/avx2/ks_avx2.c -mavx2)
  list(APPEND NURI_DEFINES NURI_HAVE_KS_AVX2=1)
endif()
