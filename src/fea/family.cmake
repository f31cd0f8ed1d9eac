# FEA: portable kernels everywhere (ref, bitplane; table and ct64 except on AVR), the GFNI and AES kernels on x86-64 behind dispatch.
list(APPEND NURI_SOURCES
  src/fea/impls.c
  src/fea/feistel.c
  src/fea/format.c
  src/fea/pattern.c
  src/fea/bitplane/fea_bitplane.c
  src/fea/ref/fea_ref.c)
if(NURI_TARGET STREQUAL "avr")
  # ATmega328P (2 KiB RAM): the 16 KiB T-tables would sit in RAM and ct64 needs ~5 KiB of stack;
  # the AVR kernel (tables in flash, assembly) takes their place (src/fea/avr/).
  enable_language(ASM)
  list(APPEND NURI_SOURCES src/fea/avr/fea_avr.c src/fea/avr/fea_avr.S)
else()
  list(APPEND NURI_SOURCES src/fea/table/fea_table.c src/fea/ct64/fea_ct64.c)
endif()
if(NURI_PLATFORM STREQUAL "rv32-qemu-sifive_e")
  # 16 KiB RAM (6 KiB stack): batches of 16 values (ct64 still pads them to 64 inside)
  list(APPEND NURI_DEFINES NURI_FEA_CHUNK=16)
endif()
if(NURI_X86_64)
  nuri_simd_source(src/fea/gfni/fea_gfni.c -mavx512f -mavx512bw -mavx512vl -mgfni)
  list(APPEND NURI_DEFINES NURI_HAVE_FEA_GFNI=1)
  # the AES S-box instruction route (scripts/gen_fea_aesni.py): 128-bit AES-NI and 256-bit VAES
  nuri_simd_source(src/fea/aesni/fea_aesni.c -maes -mssse3)
  nuri_simd_source(src/fea/aesni/fea_vaes.c -mavx2 -maes -mvaes)
  list(APPEND NURI_DEFINES NURI_HAVE_FEA_AESNI=1)
endif()
if(NURI_AARCH64 AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/neon.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/neon.cmake)
endif()
# ref is the auditing mirror of the spec: keep it scalar so it measures what it claims to be.
set_source_files_properties(src/fea/ref/fea_ref.c PROPERTIES COMPILE_OPTIONS "-fno-tree-vectorize;-fno-tree-slp-vectorize")
