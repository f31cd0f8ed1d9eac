# FEA target programs: the 32-bit targets with enough RAM for the batch Feistel layer
# (src/fea/feistel.c keeps ~10 KiB of batch state on the stack): rv32 virt and Cortex-M.
# Not yet on sifive_e (16 KiB RAM) nor AVR (2 KiB RAM).
if((NURI_TARGET STREQUAL "rv32" AND NURI_PLATFORM STREQUAL "rv32-qemu-virt") OR NURI_TARGET MATCHES "^cortex-m")
  nuri_add_cross_test(test_fea_kat ${NURI_CROSS_DIR}/test_fea_kat.c)
  target_include_directories(test_fea_kat PRIVATE ${CMAKE_SOURCE_DIR}/tests/fea)
endif()
