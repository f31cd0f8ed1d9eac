nuri_add_test(test_mlkem SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mlkem.c ARGS ${NURI_VECTORS_DIR}/mlkem)
target_include_directories(test_mlkem PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/src/mlkem)
# The NIST-style KAT needs AES-256 for its CTR-DRBG (test code only) and SHA-256 for the digests.
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
