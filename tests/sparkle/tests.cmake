nuri_add_test(test_sparkle SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_sparkle.c ARGS ${NURI_VECTORS_DIR}/sparkle)
target_include_directories(test_sparkle PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/src/sparkle)
include(${CMAKE_CURRENT_LIST_DIR}/arm.cmake OPTIONAL)
