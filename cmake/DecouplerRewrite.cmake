# decoupler_rewrite(<target> <source>...
#                   [DECOUPLER_ARGS <arg>...]   # tool options, e.g. -Rdecoupler --passes=atomics
#                   [COMPILE_ARGS <arg>...])    # extra clang arguments for the parse
#
# Runs the decoupler tool over each CUDA <source> as a build step and adds the
# rewritten file to <target>, which also links decoupler::runtime (the <dd/...>
# headers the rewritten code includes):
#
#   find_package(decoupler CONFIG REQUIRED)
#   add_executable(histogram a/histogram.cu)      # the program as written
#   add_executable(histogram_dd)                  # the same, rewritten
#   decoupler_rewrite(histogram_dd a/histogram.cu)
#
# What the tool parses with (docs/cmake.md has the details):
#   * <target>'s own CUDA compile line, evaluated as for its CUDA sources:
#     compile definitions, include directories, compile options,
#     CMAKE_CUDA_FLAGS(_<CONFIG>), and the CUDA standard of its compile
#     features (cuda_std_20 -> -std=c++20) or CUDA_STANDARD, and the
#     target's CUDA_ARCHITECTURES (each a device compilation the rewrite
#     must suit: the tool compares the code of each and refuses a pass that
#     needs a newer GPU), all usage requirements of linked targets included. They reach the tool as an
#     nvcc (or clang) command in a one-entry compilation database, so the
#     tool's nvcc translation decides what clang sees: only options that
#     change how the file parses (-D, -U, -I, -isystem, -std, -include, the
#     same inside -Xcompiler and options files); nvcc-only options are dropped.
#   * the source's own folder first (-I<folder>), so quoted includes resolve
#     as they do for nvcc; the rewritten file gets that folder as a source
#     include directory too (ahead of the target's), since nvcc compiles it
#     from the build tree;
#   * --cuda-path= the toolkit CMake found (CMAKE_CUDA_COMPILER_TOOLKIT_ROOT;
#     DECOUPLER_CUDA_PATH overrides it).
#
# <source> a/k.cu (relative to CMAKE_CURRENT_SOURCE_DIR) is rewritten into
# ${CMAKE_CURRENT_BINARY_DIR}/decoupler/<target>/a/k.dd.cu, so a/k.cu and
# b/k.cu, or two targets rewriting one source, never share an output. The
# rewrite re-runs when the source, a header it includes (a depfile the tool
# writes), the target's compile line or the tool changes.
#
# The tool is the imported decoupler::decoupler of the installed package, or
# the decoupler target in decoupler's own build.
include_guard(GLOBAL)

# The tool writes its depfile with absolute paths; NEW lets the Ninja
# generators accept it for an output that build.ninja names relatively.
# Functions keep the policies in effect where they are defined.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

# Writes, once per target and directory, a script that sets the target's
# CUDA compile line (evaluated at generate time, per configuration) and
# returns its path (with $<CONFIG> in it) in <out_var>.
function(_decoupler_compile_args target out_var)
  set(file "${CMAKE_CURRENT_BINARY_DIR}/decoupler/${target}/compile-args-$<CONFIG>.cmake")
  set(${out_var} "${file}" PARENT_SCOPE)
  get_property(done DIRECTORY PROPERTY "_DECOUPLER_COMPILE_ARGS_${target}")
  if(done)
    return()
  endif()
  set_property(DIRECTORY PROPERTY "_DECOUPLER_COMPILE_ARGS_${target}" TRUE)

  # The standard nvcc gets: the highest of the compile features
  # (cuda_std_NN, the target's and its dependencies') and CUDA_STANDARD.
  set(features "$<TARGET_PROPERTY:${target},COMPILE_FEATURES>")
  set(property "$<TARGET_PROPERTY:${target},CUDA_STANDARD>")
  set(standard "")
  foreach(level 03 11 14 17 20 23 26)
    set(standard "$<IF:$<OR:$<IN_LIST:cuda_std_${level},${features}>,$<STREQUAL:${property},${level}>>,${level},${standard}>")
  endforeach()

  # CMAKE_CUDA_FLAGS and the per-configuration flags (-DNDEBUG changes the
  # parse), as they stand where decoupler_rewrite() is called.
  separate_arguments(flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS}")
  set(configs ${CMAKE_CONFIGURATION_TYPES} ${CMAKE_BUILD_TYPE} Debug Release RelWithDebInfo MinSizeRel)
  list(REMOVE_DUPLICATES configs)
  foreach(config IN LISTS configs)
    string(TOUPPER "${config}" upper)
    separate_arguments(config_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS_${upper}}")
    if(config_flags)
      # Inside $<...>: keep the flags' own ">" and "," literal.
      string(REPLACE ">" "$<ANGLE-R>" config_flags "${config_flags}")
      string(REPLACE "," "$<COMMA>" config_flags "${config_flags}")
      list(APPEND flags "$<$<CONFIG:${config}>:${config_flags}>")
    endif()
  endforeach()

  # Bracket arguments: whatever the properties hold is read back verbatim.
  set(q "[=======[")
  set(e "]=======]")
  # (In the documented order: CMake 3.25 crashes on another one.)
  file(GENERATE OUTPUT "${file}" CONTENT "# decoupler_rewrite(): the CUDA compile line of ${target}, config $<CONFIG>.
set(DD_DEFINES ${q}$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>${e})
set(DD_INCLUDES ${q}$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>${e})
set(DD_STANDARD ${q}${standard}${e})
set(DD_FLAGS ${q}${flags}${e})
set(DD_OPTIONS ${q}$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>${e})
set(DD_ARCHITECTURES ${q}$<TARGET_PROPERTY:${target},CUDA_ARCHITECTURES>${e})
"
    CONDITION $<COMPILE_LANGUAGE:CUDA> TARGET ${target})
endfunction()

function(decoupler_rewrite target)
  cmake_parse_arguments(PARSE_ARGV 1 DD "" "" "DECOUPLER_ARGS;COMPILE_ARGS")
  if(NOT DD_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "decoupler_rewrite(${target}): no sources given")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "decoupler_rewrite(${target}): no such target")
  endif()
  # A custom command's output is a source only for targets of its directory.
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "decoupler_rewrite(${target}): call it in the directory that "
      "creates ${target} (${target_dir}), not in ${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  foreach(needed decoupler::decoupler decoupler::runtime)
    if(NOT TARGET ${needed})
      message(FATAL_ERROR "decoupler_rewrite(${target}): target ${needed} not found; "
        "load decoupler with find_package(decoupler CONFIG REQUIRED) rather than "
        "including DecouplerRewrite.cmake by itself")
    endif()
  endforeach()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT CUDA IN_LIST languages)
    message(FATAL_ERROR "decoupler_rewrite(${target}): the CUDA language is not enabled "
      "(project(... LANGUAGES CXX CUDA) or enable_language(CUDA)); the rewritten "
      "sources are compiled as CUDA")
  endif()
  # A header edit must re-run the rewrite: that takes add_custom_command's
  # DEPFILE, which CMake 3.20 supports for the Ninja and Makefile generators
  # and 3.21 also for Visual Studio and Xcode.
  if(CMAKE_VERSION VERSION_LESS 3.20
     OR NOT (CMAKE_GENERATOR MATCHES "Ninja|Makefiles"
             OR (CMAKE_GENERATOR MATCHES "Visual Studio|Xcode"
                 AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.21)))
    message(FATAL_ERROR "decoupler_rewrite(${target}): the generator '${CMAKE_GENERATOR}' "
      "of CMake ${CMAKE_VERSION} cannot take a depfile from a custom command "
      "(add_custom_command DEPFILE), which decoupler_rewrite() needs so that an "
      "edited header re-runs the rewrite. Use Ninja or a Makefile generator "
      "(CMake 3.20+), or Visual Studio or Xcode with CMake 3.21+.")
  endif()

  set(cuda_path "${DECOUPLER_CUDA_PATH}")
  if(NOT cuda_path AND EXISTS "${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}/include/cuda_runtime.h")
    set(cuda_path "${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}")
  endif()
  set(cuda_path_arg)
  if(cuda_path)
    set(cuda_path_arg "--cuda-path=${cuda_path}")
  endif()
  set(extra_args)
  foreach(arg IN LISTS DD_COMPILE_ARGS)
    list(APPEND extra_args "--extra-arg=${arg}")
  endforeach()

  _decoupler_compile_args(${target} args_file)
  set(database_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/DecouplerCompileDatabase.cmake")
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/decoupler/${target}")
  set(outputs)
  foreach(source IN LISTS DD_UNPARSED_ARGUMENTS)
    get_filename_component(source_abs "${source}" ABSOLUTE)
    get_filename_component(source_dir "${source_abs}" DIRECTORY)
    # The output mirrors the source's path below the current source folder;
    # a source outside it gets "__" for each "..", as CMake names objects.
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${source_abs}")
    string(REPLACE "/" ";" parts "${relative}")
    list(TRANSFORM parts REPLACE "^\\.\\.$" "__")
    list(JOIN parts "/" relative)
    get_filename_component(relative_dir "${relative}" DIRECTORY)
    get_filename_component(stem "${relative}" NAME_WLE)
    if(relative_dir)
      set(output "${out_dir}/${relative_dir}/${stem}.dd.cu")
    else()
      set(output "${out_dir}/${stem}.dd.cu")
    endif()
    if(output IN_LIST outputs)
      message(FATAL_ERROR "decoupler_rewrite(${target}): ${source} is given twice")
    endif()

    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${CMAKE_COMMAND}"
              "-DDD_ARGS_FILE=${args_file}"
              "-DDD_COMPILER=${CMAKE_CUDA_COMPILER}"
              "-DDD_DIRECTORY=${CMAKE_BINARY_DIR}"
              "-DDD_SOURCE=${source_abs}"
              "-DDD_SOURCE_DIR=${source_dir}"
              "-DDD_OUTPUT=${output}.json"
              -P "${database_script}"
      COMMAND decoupler::decoupler ${DD_DECOUPLER_ARGS}
              -p "${output}.json" ${cuda_path_arg} ${extra_args}
              "--depfile=${output}.d" "${source_abs}" -o "${output}"
      DEPENDS "${source_abs}" "${args_file}" "${database_script}" decoupler::decoupler
      DEPFILE "${output}.d"
      COMMENT "decoupler: rewriting ${source} for ${target}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    # nvcc compiles the rewritten file from the build tree: its quoted
    # includes must find what sits next to the source, first (a source's
    # include directories come before the target's on the command line).
    set_source_files_properties("${output}" PROPERTIES INCLUDE_DIRECTORIES "${source_dir}")
    list(APPEND outputs "${output}")
  endforeach()
  target_sources(${target} PRIVATE ${outputs})
  target_link_libraries(${target} PRIVATE decoupler::runtime)
endfunction()
