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
