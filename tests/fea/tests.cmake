nuri_add_test(test_fea SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fea.c ARGS ${NURI_VECTORS_DIR}/fea)
target_include_directories(test_fea PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/src/fea)
nuri_add_test(test_fea_pattern SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fea_pattern.c
              ARGS ${CMAKE_CURRENT_LIST_DIR}/pattern_cases.tsv)
