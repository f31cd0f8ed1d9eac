# SPARKLE permutation counts on the self-counting targets: rv32 (minstret under -icount) and AVR
# (exact simavr cycles).
if(NURI_TARGET STREQUAL "rv32" OR NURI_TARGET STREQUAL "avr")
  nuri_add_cross_bench(bench_sparkle_cross ${NURI_BENCH_CROSS_DIR}/bench_sparkle_cross.c)
  target_include_directories(bench_sparkle_cross PRIVATE ${CMAKE_SOURCE_DIR}/src/sparkle)
endif()
