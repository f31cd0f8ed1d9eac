# Helpers used by the family fragments (src/<family>/family.cmake).

function(nuri_warnings tgt)
  target_compile_options(${tgt} PRIVATE -Wall -Wextra -Wshadow -Wvla -Wstrict-prototypes -Wmissing-prototypes)
  if(NURI_WERROR)
    target_compile_options(${tgt} PRIVATE -Werror)
  endif()
  if(NURI_SANITIZE)
    target_compile_options(${tgt} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  endif()
  if(NURI_CT_VALGRIND)
    target_compile_definitions(${tgt} PRIVATE NURI_CT_VALGRIND=1)
  endif()
endfunction()

# True when building for x86-64 (host distribution build).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND NURI_TARGET STREQUAL "host")
  set(NURI_X86_64 ON)
endif()
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(NURI_AARCH64 ON)
endif()

# nuri_simd_source(<file> <flags...>): a source compiled with extra ISA flags. The library
# itself stays baseline; only these files may use the ISA, and only behind dispatch.
macro(nuri_simd_source file)
  list(APPEND NURI_SOURCES ${file})
  set_source_files_properties(${file} PROPERTIES COMPILE_OPTIONS "${ARGN}")
endmacro()
