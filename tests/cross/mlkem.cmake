# ML-KEM target program where the RAM allows (~28 KB of stack): rv32 virt, Cortex-M3/M4, AArch64.
# Not on sifive_e (16 KiB RAM) nor AVR (2 KiB RAM).
if((NURI_TARGET STREQUAL "rv32" AND NURI_PLATFORM STREQUAL "rv32-qemu-virt") OR NURI_TARGET MATCHES "^cortex-m"
   OR NURI_TARGET STREQUAL "aarch64")
  nuri_add_cross_test(test_mlkem_kat ${NURI_CROSS_DIR}/test_mlkem_kat.c)
  target_include_directories(test_mlkem_kat PRIVATE ${CMAKE_SOURCE_DIR}/tests/mlkem)
endif()
