# Build step of decoupler_rewrite() (DecouplerRewrite.cmake), run with
# cmake -P before the tool: writes a one-entry compilation database holding
# the command nvcc (or clang, whichever CMake's CUDA compiler is) would get
# for the source, which the tool reads with -p and translates.
#
#   -DDD_ARGS_FILE=   the target's compile line (a generated script)
#   -DDD_COMPILER=    CMAKE_CUDA_COMPILER
#   -DDD_DIRECTORY=   the directory the command runs in
#   -DDD_SOURCE=      the source, absolute
#   -DDD_SOURCE_DIR=  its folder, searched first (as nvcc searches it first
#                     for the source's quoted includes)
#   -DDD_OUTPUT=      the database to write
cmake_minimum_required(VERSION 3.20)

foreach(var DD_ARGS_FILE DD_COMPILER DD_DIRECTORY DD_SOURCE DD_SOURCE_DIR DD_OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "DecouplerCompileDatabase.cmake: ${var} is not set")
  endif()
endforeach()
include("${DD_ARGS_FILE}")

# In the order of CMake's own command line (defines, includes, flags), with
# the source's folder ahead of the includes and the standard ahead of the
# options, so that a -std= among the options wins as it does for nvcc when
# CMake adds no standard flag of its own (policy CMP0128).
set(args "${DD_COMPILER}")
foreach(define IN LISTS DD_DEFINES)
  if(NOT define STREQUAL "")
    list(APPEND args "-D${define}")
  endif()
endforeach()
list(APPEND args "-I${DD_SOURCE_DIR}")
foreach(dir IN LISTS DD_INCLUDES)
  if(NOT dir STREQUAL "")
    list(APPEND args "-I${dir}")
  endif()
endforeach()
if(NOT DD_STANDARD STREQUAL "")
  list(APPEND args "-std=c++${DD_STANDARD}")
endif()
foreach(option IN LISTS DD_FLAGS DD_OPTIONS)
  if(option MATCHES "^SHELL:(.*)")
    # target_compile_options(... "SHELL:-Xcompiler -fPIC"): one group of
    # arguments, split as a shell would.
    separate_arguments(group UNIX_COMMAND "${CMAKE_MATCH_1}")
    list(APPEND args ${group})
  elseif(NOT option STREQUAL "")
    list(APPEND args "${option}")
  endif()
endforeach()
# CUDA_ARCHITECTURES as CMake passes them: 75, 90a, 80-real, 86-virtual,
# all, all-major, native (OFF: none, CMAKE_CUDA_FLAGS say).
get_filename_component(compiler_name "${DD_COMPILER}" NAME_WE)
foreach(arch IN LISTS DD_ARCHITECTURES)
  string(REGEX REPLACE "-(real|virtual)$" "" arch "${arch}")
  if(arch STREQUAL "" OR arch STREQUAL "OFF")
    continue()
  elseif(arch MATCHES "^(all|all-major|native)$")
    if(compiler_name STREQUAL "nvcc")
      list(APPEND args "-arch=${arch}")
    endif()
  elseif(compiler_name STREQUAL "nvcc")
    list(APPEND args "--generate-code=arch=compute_${arch},code=sm_${arch}")
  else()
    list(APPEND args "--cuda-gpu-arch=sm_${arch}")
  endif()
endforeach()
list(APPEND args -c "${DD_SOURCE}")

function(json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\r" "\\r" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

set(quoted)
foreach(arg IN LISTS args)
  json_string(q "${arg}")
  list(APPEND quoted "${q}")
endforeach()
list(JOIN quoted ",\n      " arguments)
json_string(directory "${DD_DIRECTORY}")
json_string(file "${DD_SOURCE}")
file(WRITE "${DD_OUTPUT}" "[
  {
    \"directory\": ${directory},
    \"file\": ${file},
    \"arguments\": [
      ${arguments}
    ]
  }
]
")
