# decoupler_rewrite(<target> <source>...
#                   [DECOUPLER_ARGS <arg>...]   # e.g. -Rdecoupler --atomics-float
#                   [COMPILE_ARGS <arg>...])    # extra clang arguments for parsing
#
# Runs the decoupler tool over each CUDA <source> as a build step and adds the
# rewritten files (<build dir>/decoupler/<name>.dd.cu) to <target>, which
# also gets the dd runtime headers. The target's include directories and
# compile definitions are passed to the tool, so the sources parse as they
# compile. The rewrite re-runs when a source or the tool changes.
#
#   add_executable(histogram histogram.cu)       # the original program
#   add_executable(histogram_dd)                  # the same, rewritten
#   decoupler_rewrite(histogram_dd histogram.cu)
#
# The tool is the in-tree `decoupler` target when there is one, otherwise
# DECOUPLER_EXECUTABLE (found on PATH by default).
include_guard(GLOBAL)

function(decoupler_rewrite target)
  cmake_parse_arguments(PARSE_ARGV 1 DD "" "" "DECOUPLER_ARGS;COMPILE_ARGS")
  if(NOT DD_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "decoupler_rewrite(${target}): no sources given")
  endif()
  if(TARGET decoupler)
    set(tool $<TARGET_FILE:decoupler>)
    set(tool_dep decoupler)
  else()
    find_program(DECOUPLER_EXECUTABLE decoupler REQUIRED)
    set(tool ${DECOUPLER_EXECUTABLE})
    set(tool_dep ${DECOUPLER_EXECUTABLE})
  endif()

  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(outputs)
  foreach(source IN LISTS DD_UNPARSED_ARGUMENTS)
    get_filename_component(source_abs ${source} ABSOLUTE)
    get_filename_component(name ${source} NAME_WE)
    set(output ${CMAKE_CURRENT_BINARY_DIR}/decoupler/${name}.dd.cu)
    add_custom_command(
      OUTPUT ${output}
      COMMAND ${tool} ${DD_DECOUPLER_ARGS} ${source_abs} -o ${output} --
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
              ${DD_COMPILE_ARGS}
      DEPENDS ${source_abs} ${tool_dep}
      COMMENT "decoupler: rewriting ${source}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND outputs ${output})
  endforeach()
  target_sources(${target} PRIVATE ${outputs})
  target_link_libraries(${target} PRIVATE decoupler::runtime)
endfunction()
