# FEA: the Feistel network, key schedule and formatted-data layer once (feistel.c, impls.c,
# format.c) over the backends, one folder each (nuri_backend: see cmake/NuriHelpers.cmake):
# portable kernels everywhere (ref, bitplane; table and ct64 except on AVR), the GFNI and AES
# kernels on x86-64 behind dispatch.
list(APPEND NURI_SOURCES
  src/fea/impls.c
  src/fea/feistel.c
  src/fea/format.c
  src/fea/pattern.c)
# ref is the auditing mirror of the spec: keep it scalar so it measures what it claims to be.
nuri_backend(fea ref fea_ref.c FLAGS -fno-tree-vectorize -fno-tree-slp-vectorize)
nuri_backend(fea bitplane fea_bitplane.c)
if(NURI_TARGET STREQUAL "avr")
  # ATmega328P (2 KiB RAM): the 16 KiB T-tables would sit in RAM and ct64 needs ~5 KiB of stack;
  # the AVR kernel (tables in flash, assembly) takes their place.
  enable_language(ASM)
  nuri_backend(fea avr fea_avr.c fea_avr.S)
else()
  nuri_backend(fea table fea_table.c)
  nuri_backend(fea ct64 fea_ct64.c)
endif()
if(NURI_PLATFORM STREQUAL "rv32-qemu-sifive_e")
  # 16 KiB RAM (6 KiB stack): batches of 16 values (ct64 still pads them to 64 inside)
  list(APPEND NURI_DEFINES NURI_FEA_CHUNK=16)
endif()
if(NURI_X86_64)
  nuri_backend(fea gfni fea_gfni.c FLAGS -mavx512f -mavx512bw -mavx512vl -mgfni)
  # the AES S-box instruction route (scripts/gen_fea_aes.py): 128-bit AES-NI and 256-bit VAES
  nuri_backend(fea aesni fea_aesni.c FLAGS -maes -mssse3)
  nuri_backend(fea aesni fea_vaes.c FLAGS -mavx2 -maes -mvaes)
endif()
if(NURI_AARCH64)
  # ASIMD is part of ARMv8-A: no extra flags, NURI_CPU_NEON at run time
  nuri_backend(fea neon fea_neon.c)
  # the AES-instruction kernel (the x86 body, ../fea_aes_body.h, on NEON + AESE)
  nuri_backend(fea neon_aes fea_neon_aes.c FLAGS -march=armv8-a+crypto)
endif()
