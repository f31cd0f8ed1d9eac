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

# nuri_simd_source(<file> <flags...>): a source compiled with extra ISA flags (backends use
# nuri_backend below, which calls the same property). The library
# itself stays baseline; only these files may use the ISA, and only behind dispatch.
macro(nuri_simd_source file)
  list(APPEND NURI_SOURCES ${file})
  set_source_files_properties(${file} PROPERTIES COMPILE_OPTIONS "${ARGN}")
endmacro()

# nuri_backend(<family> <folder> <sources...> [FLAGS <flags...>]): one backend of a family, in
# its own folder src/<family>/<folder>/. Adds the sources (compiled with FLAGS only, e.g. -mavx2:
# the rest of the library stays baseline) and defines NURI_HAVE_<FAMILY>_<FOLDER>=1 ('-' -> '_'),
# which switches on the backend's line in src/<family>/impls.c. The folder defines the entry
# nuri_<family>_backend_<folder> (name, CPU features, constant-time claim, kernels, hooks).
macro(nuri_backend fam folder)
  cmake_parse_arguments(_NB "" "" "FLAGS" ${ARGN})
  foreach(_nb_src ${_NB_UNPARSED_ARGUMENTS})
    list(APPEND NURI_SOURCES src/${fam}/${folder}/${_nb_src})
    if(_NB_FLAGS)
      set_source_files_properties(src/${fam}/${folder}/${_nb_src} PROPERTIES COMPILE_OPTIONS "${_NB_FLAGS}")
    endif()
  endforeach()
  string(TOUPPER "NURI_HAVE_${fam}_${folder}" _nb_def)
  string(REPLACE "-" "_" _nb_def ${_nb_def})
  list(APPEND NURI_DEFINES ${_nb_def}=1)
endmacro()
