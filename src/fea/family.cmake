# FEA: portable kernels everywhere (ref, table, ct64), the GFNI kernel on x86-64 behind dispatch.
list(APPEND NURI_SOURCES
  src/fea/impls.c
  src/fea/feistel.c
  src/fea/format.c
  src/fea/ref/fea_ref.c
  src/fea/table/fea_table.c
  src/fea/ct64/fea_ct64.c)
if(NURI_X86_64)
  nuri_simd_source(src/fea/gfni/fea_gfni.c -mavx512f -mavx512bw -mavx512vl -mgfni)
  list(APPEND NURI_DEFINES NURI_HAVE_FEA_GFNI=1)
endif()
# ref is the auditing mirror of the spec: keep it scalar so it measures what it claims to be.
set_source_files_properties(src/fea/ref/fea_ref.c PROPERTIES COMPILE_OPTIONS "-fno-tree-vectorize;-fno-tree-slp-vectorize")
