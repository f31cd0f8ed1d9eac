nuri_add_test(test_keysearch SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_keysearch.c)
target_include_directories(test_keysearch PRIVATE ${CMAKE_SOURCE_DIR}/src/keysearch)
