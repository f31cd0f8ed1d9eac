set(_fea_args "")
if(EXISTS ${NURI_SHARED_DIR}/vectors/fea/fea1_128.txt)
  set(_fea_args ${NURI_SHARED_DIR}/vectors/fea)
endif()
nuri_add_test(test_fea SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fea.c ARGS ${_fea_args})
target_include_directories(test_fea PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/src/fea)
nuri_add_test(test_fea_pattern SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fea_pattern.c
              ARGS ${CMAKE_CURRENT_LIST_DIR}/pattern_cases.tsv)
