# Programs the instrument tests run (tests/instrument/test_*.cpp), built with the clang that
# loads the flopcount plugin (included from tools/flopcount/CMakeLists.txt when the plugin is
# built). Small sources, one clang call each, so the cost in CI is a few seconds.
if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  message(STATUS "flopcount: test programs are x86-64 only")
  return()
endif()
set(_fc_dir ${PROJECT_BINARY_DIR}/tests/instrument)
set(_fc_src ${PROJECT_SOURCE_DIR}/tests/instrument/programs)
file(MAKE_DIRECTORY ${_fc_dir})
set(_fc_plugin -fpass-plugin=$<TARGET_FILE:RooflineFlopCount>)
set(_fc_rt $<TARGET_FILE:roofline_flopcount> -lpthread -ldl -lm)
set(_fc_outputs)

# fc_program(NAME COMPILER SOURCES ... FLAGS ... [LIBS ...] [DEPS targets] [PLAIN]); PLAIN: no
# plugin.
function(fc_program name compiler)
  cmake_parse_arguments(P "PLAIN" "" "SOURCES;FLAGS;LIBS;DEPS" ${ARGN})
  set(plugin ${_fc_plugin})
  if(P_PLAIN)
    set(plugin)
  endif()
  add_custom_command(OUTPUT ${_fc_dir}/${name}
    COMMAND ${compiler} ${P_FLAGS} ${plugin} ${P_SOURCES} ${P_LIBS} ${_fc_rt} -o ${_fc_dir}/${name}
    DEPENDS RooflineFlopCount roofline_flopcount ${P_SOURCES} ${P_DEPS}
    COMMENT "flopcount test program ${name}" VERBATIM)
  set(_fc_outputs ${_fc_outputs} ${_fc_dir}/${name} PARENT_SCOPE)
endfunction()

set(_k ${_fc_src}/fc_kernels.c)
fc_program(fc_kernels_v3 ${ROOFLINE_FLOPCOUNT_CLANG} SOURCES ${_k} FLAGS -O2 -g -march=x86-64-v3)
fc_program(fc_kernels_o0 ${ROOFLINE_FLOPCOUNT_CLANG} SOURCES ${_k} FLAGS -O0)
fc_program(fc_kernels_v4 ${ROOFLINE_FLOPCOUNT_CLANG} SOURCES ${_k}
  FLAGS -O3 -march=x86-64-v4 -mprefer-vector-width=512)
fc_program(fc_kernels_plain ${ROOFLINE_FLOPCOUNT_CLANG} SOURCES ${_k} FLAGS -O2 -march=x86-64-v3 PLAIN)
set(_m ${_fc_src}/fc_masked.c)
fc_program(fc_masked_512 ${ROOFLINE_FLOPCOUNT_CLANG} SOURCES ${_m}
  FLAGS -O2 -march=x86-64-v4 -mavx512vnni -mavx512bf16)
fc_program(fc_masked_256 ${ROOFLINE_FLOPCOUNT_CLANG} SOURCES ${_m} FLAGS -O2 -march=x86-64-v3)
# The marker example, as a user would build it with the plugin: region W counted.
fc_program(fc_saxpy_regions ${ROOFLINE_FLOPCOUNT_CLANG}
  SOURCES ${PROJECT_SOURCE_DIR}/examples/marker/saxpy.c
  FLAGS -O2 -march=x86-64-v3 -I${PROJECT_SOURCE_DIR}/include
  LIBS $<TARGET_FILE:roofline_marker> -lstdc++ DEPS roofline_marker)
# Nested regions for per-region simulated Q.
fc_program(fc_regions ${ROOFLINE_FLOPCOUNT_CLANG}
  SOURCES ${_fc_src}/fc_regions.c
  FLAGS -O2 -march=x86-64-v3 -I${PROJECT_SOURCE_DIR}/include
  LIBS $<TARGET_FILE:roofline_marker> -lstdc++ DEPS roofline_marker)
# The loops of a recorded likwid-perfctr run, for simulated against PMU traffic per region.
fc_program(fc_matvec_regions ${ROOFLINE_FLOPCOUNT_CLANG}
  SOURCES ${_fc_src}/fc_matvec_regions.c
  FLAGS -O2 -march=x86-64-v3 -I${PROJECT_SOURCE_DIR}/include
  LIBS $<TARGET_FILE:roofline_marker> -lstdc++ DEPS roofline_marker)
# The suite's own inner loops, compiled as the suite compiles them (-O3, OpenMP simd).
fc_program(fc_suite ${ROOFLINE_FLOPCOUNT_CLANGXX}
  SOURCES ${_fc_src}/suite_driver.cpp ${PROJECT_SOURCE_DIR}/src/measure/suite/loops.cpp
  FLAGS -std=c++20 -O3 -fopenmp-simd -march=x86-64-v3 -I${PROJECT_SOURCE_DIR}/src)
add_custom_target(flopcount_test_programs ALL DEPENDS ${_fc_outputs})
target_compile_definitions(roofline_test_objects PRIVATE ROOFLINE_FLOPCOUNT_PROGRAMS="${_fc_dir}")
