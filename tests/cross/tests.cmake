# Target test programs for single-target cross builds (NURI_TARGET != host): small programs that
# fit the MCU targets, run through CMAKE_CROSSCOMPILING_EMULATOR (set by cmake/toolchains/*).
# AArch64 runs the normal host tests under qemu-aarch64 as well.
set(NURI_CROSS_DIR ${CMAKE_CURRENT_LIST_DIR})

if(NURI_TARGET STREQUAL "avr")
  # The emulator hook of the AVR toolchain file: a host program linked to libsimavr.
  find_program(NURI_HOST_CC NAMES cc gcc REQUIRED)
  execute_process(COMMAND ${NURI_HOST_CC} -O2 -I/usr/include/simavr ${NURI_CROSS_DIR}/simavr_run.c
                          -o ${CMAKE_BINARY_DIR}/simavr_run -lsimavr
                  RESULT_VARIABLE _simavr_rc)
  if(NOT _simavr_rc EQUAL 0)
    message(FATAL_ERROR "cannot build tests/cross/simavr_run.c (needs simavr and libsimavr-dev)")
  endif()
endif()

add_library(nuri_cross_support STATIC ${NURI_CROSS_DIR}/cross_support.c)
target_include_directories(nuri_cross_support PUBLIC ${NURI_CROSS_DIR})
nuri_warnings(nuri_cross_support)
target_compile_options(nuri_cross_support PRIVATE -Wno-missing-prototypes)

# nuri_add_cross_test(<name> <sources...>): a target program linked to libnuri and the support layer.
function(nuri_add_cross_test name)
  add_executable(${name} ${ARGN} ${NURI_TARGET_STARTUP})
  target_link_libraries(${name} PRIVATE nuri_static nuri_cross_support)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/common ${NURI_CROSS_DIR} ${CMAKE_CURRENT_BINARY_DIR})
  nuri_warnings(${name})
  target_compile_options(${name} PRIVATE -Wno-missing-prototypes)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 LABELS cross)
endfunction()

if("pipo" IN_LIST NURI_FAMILIES)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/pipo_kat_bin.h
    COMMAND Python3::Interpreter ${NURI_CROSS_DIR}/gen_pipo_kat.py ${CMAKE_SOURCE_DIR}/tests/pipo/pipo_vectors.h
            ${CMAKE_CURRENT_BINARY_DIR}/pipo_kat_bin.h
    DEPENDS ${NURI_CROSS_DIR}/gen_pipo_kat.py ${CMAKE_SOURCE_DIR}/tests/pipo/pipo_vectors.h)
  nuri_add_cross_test(test_pipo_kat ${NURI_CROSS_DIR}/test_pipo_kat.c ${CMAKE_CURRENT_BINARY_DIR}/pipo_kat_bin.h)
endif()

# Further families' target programs (FEA, ...) register themselves here.
foreach(_f ${NURI_FAMILIES})
  if(EXISTS ${NURI_CROSS_DIR}/${_f}.cmake)
    include(${NURI_CROSS_DIR}/${_f}.cmake)
  endif()
endforeach()

# Target benchmark programs (bench/cross), built along with the tests.
if(EXISTS ${CMAKE_SOURCE_DIR}/bench/cross/bench_cross.cmake)
  include(${CMAKE_SOURCE_DIR}/bench/cross/bench_cross.cmake)
endif()
