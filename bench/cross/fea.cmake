# FEA counts: rv32 virt (minstret under -icount), AVR (exact simavr cycles) and Cortex-M (QEMU insn plugin, from outside).
if((NURI_TARGET STREQUAL "rv32" AND NURI_PLATFORM STREQUAL "rv32-qemu-virt") OR NURI_TARGET STREQUAL "avr")
  nuri_add_cross_bench(bench_fea_count ${NURI_BENCH_CROSS_DIR}/bench_fea_count.c)
elseif(NURI_TARGET MATCHES "^cortex-m")
  add_executable(bench_fea_count ${NURI_BENCH_CROSS_DIR}/bench_fea_count.c ${NURI_TARGET_STARTUP})
  target_link_libraries(bench_fea_count PRIVATE nuri_static)
  target_include_directories(bench_fea_count PRIVATE ${NURI_CROSS_DIR})
  target_compile_definitions(bench_fea_count PRIVATE NURI_FEA_COUNT_ARGS=1 NURI_PLATFORM="${NURI_PLATFORM}")
endif()
