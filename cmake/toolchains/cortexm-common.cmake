# Shared part of the Cortex-M bare-metal toolchain files (gcc-arm-none-eabi + newlib nano/rdimon,
# run under qemu-system-arm on an MPS2 board with semihosting, which passes the exit code through;
# QEMU models no cycles, so the benchmarks count instructions: CONTRIBUTING.md, "Toolchains").
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_USER_MAKE_RULES_OVERRIDE ${CMAKE_CURRENT_LIST_DIR}/../targets/bare-metal-rules.cmake)
set(_nuri_cm_flags "-mcpu=${NURI_CM_CPU} -mthumb -mfloat-abi=soft -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_nuri_cm_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_nuri_cm_flags}")
get_filename_component(_nuri_targets_dir ${CMAKE_CURRENT_LIST_DIR}/../targets ABSOLUTE)
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs --specs=rdimon.specs -T ${_nuri_targets_dir}/cortexm.ld -Wl,--gc-sections")
# Test programs add this vector table (reset goes to newlib/rdimon's _start).
set(NURI_TARGET_STARTUP ${_nuri_targets_dir}/cortexm_startup.c)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# The one emulator hook (a HardFault spins forever: hence the timeout). The exit code passes
# through semihosting. -icount shift=0 makes runs deterministic.
set(CMAKE_CROSSCOMPILING_EMULATOR timeout 300 qemu-system-arm -machine ${NURI_CM_MACHINE} -nographic -monitor none
    -semihosting-config enable=on,target=native -icount shift=0 -kernel)
