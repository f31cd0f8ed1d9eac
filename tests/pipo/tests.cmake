nuri_add_test(test_pipo SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pipo.c ARGS ${NURI_VECTORS_DIR}/pipo)
target_include_directories(test_pipo PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/src/pipo)
