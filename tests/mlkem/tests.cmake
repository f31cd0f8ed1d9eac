nuri_add_test(test_mlkem SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mlkem.c ARGS ${NURI_VECTORS_DIR}/mlkem)
target_include_directories(test_mlkem PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/src/mlkem)
# The NIST-style KAT's CTR-DRBG needs AES-256: libcrypto's where the build finds it, else the
# test's own (tests/common/aes256.c; the emulated targets have no libcrypto). OpenSSL also serves
# as a second SHA-3 implementation to compare with.
find_package(OpenSSL)
if(OpenSSL_FOUND)
  target_link_libraries(test_mlkem PRIVATE OpenSSL::Crypto)
  target_compile_definitions(test_mlkem PRIVATE NURI_TEST_OPENSSL=1)
endif()

# Stack use of each operation (painted thread stack).
find_package(Threads REQUIRED)
nuri_add_test(stack_mlkem SOURCES ${CMAKE_CURRENT_LIST_DIR}/stack_mlkem.c)
target_link_libraries(stack_mlkem PRIVATE Threads::Threads)

# The same program on the CPU without its AVX-512 bits (NURI_CPU_MASK): dispatch must fall back,
# and the log must say that avx512 did not run.
if(NURI_X86_64 AND NOT NURI_MLKEM_AVX512_EMULATED)
  add_test(NAME test_mlkem_without_avx512 COMMAND test_mlkem ${NURI_VECTORS_DIR}/mlkem)
  set_tests_properties(test_mlkem_without_avx512 PROPERTIES ENVIRONMENT NURI_CPU_MASK=3c0
    PASS_REGULAR_EXPRESSION "avx512: skipped: CPU lacks AVX-512.*test_mlkem: [0-9]+ passed, 0 failed"
    FAIL_REGULAR_EXPRESSION "FAIL ")
endif()

# AArch64: the neon backend's two-way Keccak on plain NEON too (CPUs without the SHA-3 extension):
# NURI_CPU_MASK hides the extension; under qemu-aarch64 a CPU model without it (Cortex-A72) tests
# the detection itself, and the default model (max) must run the SHA-3 path. Each log says which
# Keccak ran (CTest then judges by the output: the regular expressions include "0 failed").
if(NURI_AARCH64)
  add_test(NAME test_mlkem_neon_plain COMMAND test_mlkem ${NURI_VECTORS_DIR}/mlkem)
  set_tests_properties(test_mlkem_neon_plain PROPERTIES ENVIRONMENT NURI_CPU_MASK=40000 TIMEOUT 900
    PASS_REGULAR_EXPRESSION "runs on plain NEON.*test_mlkem: [0-9]+ passed, 0 failed" FAIL_REGULAR_EXPRESSION "FAIL ")
  if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR MATCHES "qemu-aarch64")
    set_tests_properties(test_mlkem PROPERTIES
      PASS_REGULAR_EXPRESSION "runs on the SHA-3 extension.*test_mlkem: [0-9]+ passed, 0 failed" FAIL_REGULAR_EXPRESSION "FAIL ")
    add_test(NAME test_mlkem_cortex_a72 COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} -cpu cortex-a72 $<TARGET_FILE:test_mlkem>
      ${NURI_VECTORS_DIR}/mlkem)
    set_tests_properties(test_mlkem_cortex_a72 PROPERTIES TIMEOUT 900
      PASS_REGULAR_EXPRESSION "runs on plain NEON.*test_mlkem: [0-9]+ passed, 0 failed" FAIL_REGULAR_EXPRESSION "FAIL ")
  endif()
endif()
