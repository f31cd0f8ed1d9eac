# Shared part of the rv32imac bare-metal toolchain files (gcc-riscv64-unknown-elf + picolibc,
# run under qemu-system-riscv32 with semihosting). Included by rv32imac-<machine>.cmake after
# they set NURI_RV32_MACHINE and the memory map (CONTRIBUTING.md, "Toolchains").
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_USER_MAKE_RULES_OVERRIDE ${CMAKE_CURRENT_LIST_DIR}/../targets/bare-metal-rules.cmake)
# -misa-spec=2.2 keeps csrr (zicsr) legal while the multilib matcher still picks rv32imac/ilp32.
set(_nuri_rv32_flags "-march=rv32imac -misa-spec=2.2 -mabi=ilp32 --specs=picolibc.specs -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_nuri_rv32_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_nuri_rv32_flags}")
# --crt0=hosted: main's return value becomes QEMU's exit code (semihosting SYS_EXIT).
set(CMAKE_EXE_LINKER_FLAGS_INIT "--oslib=semihost --crt0=hosted -Wl,--gc-sections ${NURI_RV32_MEMMAP}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# The one emulator hook. -icount shift=0 makes mcycle == minstret == the executed-instruction
# count, deterministic on every run (QEMU models no pipeline timing: these are instructions).
set(CMAKE_CROSSCOMPILING_EMULATOR timeout 300 qemu-system-riscv32 -machine ${NURI_RV32_MACHINE} ${NURI_RV32_QEMU_EXTRA}
    -nographic -monitor none -serial none -semihosting-config enable=on,target=native -icount shift=0 -kernel)
set(NURI_TARGET rv32 CACHE STRING "" FORCE)
