# AArch64 SPARKLE kernels (a64, neon) against the portable reference; AArch64 targets only
# (run through CMAKE_CROSSCOMPILING_EMULATOR, i.e. qemu-aarch64, when cross-compiling).
if(NURI_AARCH64)
  nuri_add_test(test_sparkle_arm SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_sparkle_arm.c)
  target_include_directories(test_sparkle_arm PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/src/sparkle)
endif()
