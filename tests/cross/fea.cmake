# FEA target programs, on every MCU target: the vectors in binary form (in flash on AVR).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(_fea_kat_stride 1)
if(NURI_TARGET STREQUAL "avr")
  set(_fea_kat_stride 3) # 32 KiB flash (with the bitplane kernel): every third vector (each file: every variant and key size, 9-10 of its 14 n)
endif()
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/fea_kat_bin.h
  COMMAND Python3::Interpreter ${NURI_CROSS_DIR}/gen_fea_kat.py ${CMAKE_SOURCE_DIR}/tests/fea/fea_vectors.h
          ${CMAKE_CURRENT_BINARY_DIR}/fea_kat_bin.h ${_fea_kat_stride}
  DEPENDS ${NURI_CROSS_DIR}/gen_fea_kat.py ${CMAKE_SOURCE_DIR}/tests/fea/fea_vectors.h)
if(NOT NURI_TARGET STREQUAL "aarch64")
  nuri_add_cross_test(test_fea_kat ${NURI_CROSS_DIR}/test_fea_kat.c ${CMAKE_CURRENT_BINARY_DIR}/fea_kat_bin.h)
endif()
