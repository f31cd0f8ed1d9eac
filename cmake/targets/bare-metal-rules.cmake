# CMAKE_USER_MAKE_RULES_OVERRIDE for the bare-metal toolchain files: the top-level
# CMAKE_POSITION_INDEPENDENT_CODE is for the host shared library; on the MCU targets -fPIC/-fPIE
# would only route every global through a GOT (slower, larger, and the counts would not be
# those of ordinary firmware code).
set(CMAKE_C_COMPILE_OPTIONS_PIC "")
set(CMAKE_C_COMPILE_OPTIONS_PIE "")
set(CMAKE_ASM_COMPILE_OPTIONS_PIC "")
set(CMAKE_ASM_COMPILE_OPTIONS_PIE "")
