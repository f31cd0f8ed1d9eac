# Cortex-M3 bare metal on QEMU mps2-an385 (the AT91SAM3X8E of the FEA work is a Cortex-M3).
set(NURI_CM_CPU cortex-m3)
set(NURI_CM_MACHINE mps2-an385)
set(NURI_TARGET cortex-m3 CACHE STRING "" FORCE)
set(NURI_PLATFORM "cortex-m3-qemu-mps2-an385" CACHE STRING "" FORCE)
include(${CMAKE_CURRENT_LIST_DIR}/cortexm-common.cmake)
