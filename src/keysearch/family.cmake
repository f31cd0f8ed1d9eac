# PIPO key search: the search plan and entry points once (plan.c, impls.c), one folder per
# engine (nuri_backend: see cmake/NuriHelpers.cmake). Engines call the PIPO reference kernel.
if(NOT "pipo" IN_LIST _nuri_all_families)
  message(FATAL_ERROR "keysearch needs the pipo family: NURI_ONLY=\"pipo;keysearch\"")
endif()
list(APPEND NURI_SOURCES
  src/keysearch/impls.c
  src/keysearch/plan.c
  src/keysearch/gpu_params.c)
nuri_backend(keysearch ref ks_ref.c)
nuri_backend(keysearch portable ks_portable.c)
if(NURI_X86_64)
  nuri_backend(keysearch avx512 ks_avx512.c FLAGS -mavx512f -mavx512bw)
  nuri_backend(keysearch avx2 ks_avx2.c FLAGS -mavx2)
endif()
