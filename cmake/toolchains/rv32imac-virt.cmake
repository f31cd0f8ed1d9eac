# rv32imac bare metal on QEMU's virt machine (128 MiB RAM): for programs that need more than
# the 16 KiB of sifive_e. Code at 0x80000000 (4 MiB), data at 0x80400000 (4 MiB).
set(NURI_RV32_MACHINE virt)
set(NURI_RV32_QEMU_EXTRA -bios none)
set(NURI_RV32_MEMMAP "-Wl,--defsym=__flash=0x80000000 -Wl,--defsym=__flash_size=0x400000 -Wl,--defsym=__ram=0x80400000 -Wl,--defsym=__ram_size=0x400000 -Wl,--defsym=__stack_size=0x10000")
set(NURI_PLATFORM "rv32-qemu-virt" CACHE STRING "" FORCE)
include(${CMAKE_CURRENT_LIST_DIR}/rv32-common.cmake)
