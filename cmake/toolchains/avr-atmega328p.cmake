# AVR ATmega328P (2 KiB RAM, 32 KiB flash) under simavr, through the libsimavr harness
# tests/cross/simavr_run.c (UART to stdout, exit code from GPIOR1, exact cycles between GPIOR0
# marks). The harness is a host program: tests/cross/tests.cmake builds it with the host cc.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR avr)
set(CMAKE_C_COMPILER avr-gcc)
set(CMAKE_ASM_COMPILER avr-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_USER_MAKE_RULES_OVERRIDE ${CMAKE_CURRENT_LIST_DIR}/../targets/bare-metal-rules.cmake)
# avr-libc has no getenv: NURI_IMPL is then only the impl_name argument.
set(_nuri_avr_flags "-mmcu=atmega328p -DNURI_NO_GETENV -DF_CPU=16000000UL -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_nuri_avr_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_nuri_avr_flags}")
# The .mmcu section must sit outside flash, or simavr loads .data at the wrong offset.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections -Wl,--section-start=.mmcu=0x910000")
set(CMAKE_BUILD_TYPE MinSizeRel CACHE STRING "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR timeout 300 ${CMAKE_BINARY_DIR}/simavr_run)
set(NURI_TARGET avr CACHE STRING "" FORCE)
set(NURI_PLATFORM "avr-simavr" CACHE STRING "" FORCE)
