nuri_add_test(test_keysearch SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_keysearch.c)
target_include_directories(test_keysearch PRIVATE ${CMAKE_SOURCE_DIR}/src/keysearch)
# the CUDA kernel's search functions (gpu/ks_bitplane.cuh) compiled as host C: the GPU's twin
nuri_add_test(test_bitplane SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_bitplane.c)
target_include_directories(test_bitplane PRIVATE ${CMAKE_SOURCE_DIR}/src/keysearch ${CMAKE_SOURCE_DIR}/gpu)
