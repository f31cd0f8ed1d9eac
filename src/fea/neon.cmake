# FEA NEON kernel for AArch64 (ASIMD is part of ARMv8-A: no extra flags, NURI_CPU_NEON at run time).
list(APPEND NURI_SOURCES src/fea/neon/fea_neon.c)
list(APPEND NURI_DEFINES NURI_HAVE_FEA_NEON=1)
