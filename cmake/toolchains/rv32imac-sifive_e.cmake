# rv32imac bare metal on QEMU's HiFive1 model (sifive_e): XIP flash at 0x20400000, 16 KiB DTIM RAM.
set(NURI_RV32_MACHINE sifive_e)
set(NURI_RV32_QEMU_EXTRA "")
set(NURI_RV32_MEMMAP "-Wl,--defsym=__flash=0x20400000 -Wl,--defsym=__flash_size=0x1fc00000 -Wl,--defsym=__ram=0x80000000 -Wl,--defsym=__ram_size=0x4000 -Wl,--defsym=__stack_size=0x1800")
set(NURI_PLATFORM "rv32-qemu-sifive_e" CACHE STRING "" FORCE)
include(${CMAKE_CURRENT_LIST_DIR}/rv32-common.cmake)
