# Cortex-M4 bare metal on QEMU mps2-an386 (soft-float ABI: the library uses no floating point).
set(NURI_CM_CPU cortex-m4)
set(NURI_CM_MACHINE mps2-an386)
set(NURI_TARGET cortex-m4 CACHE STRING "" FORCE)
set(NURI_PLATFORM "cortex-m4-qemu-mps2-an386" CACHE STRING "" FORCE)
include(${CMAKE_CURRENT_LIST_DIR}/cortexm-common.cmake)
