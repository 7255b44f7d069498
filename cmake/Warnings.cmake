# Warnings and sanitizers for every target of ours (docs/architecture.md: warnings on, sanitizer builds).
add_library(roofline_warnings INTERFACE)
target_compile_options(roofline_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wpedantic>)
if(ROOFLINE_WERROR)
  target_compile_options(roofline_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
# ROOFLINE_SANITIZED tells code built with a sanitizer so (GCC names it __SANITIZE_ADDRESS__ and
# __SANITIZE_THREAD__, clang 14 only __has_feature): no per-CPU clones, a SEGV that the
# sanitizer reports instead of dying by the signal.
if(ROOFLINE_SANITIZE OR ROOFLINE_FUZZ OR ROOFLINE_TSAN)
  add_compile_definitions(ROOFLINE_SANITIZED=1)
endif()
if(ROOFLINE_SANITIZE OR ROOFLINE_FUZZ)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
# The fuzz targets share the ASan+UBSan build (the asan preset, clang): the library is compiled
# once with libFuzzer's coverage hooks, which the tests, the CLI and the fuzz targets all link
# (without libFuzzer the hooks are the sanitizer runtime's no-ops). Two clang builds, or a GCC
# one beside a clang one, compiled the layers twice: most of CI's time on a 2-core machine.
if(ROOFLINE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ROOFLINE_FUZZ needs clang (libFuzzer): configure with the asan preset")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(ROOFLINE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
# GCC 12 reports false -Wrestrict/-Wstringop-overflow positives inside libstdc++'s std::string at
# -O3 (GCC bug 105329); they are not about our code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(roofline_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict -Wno-stringop-overflow -Wno-array-bounds>)
endif()
# Code that drives the library rather than being measured — the test program, and the CLI in the
# sanitizer builds — compiles at a lower optimisation level than the library: the measuring
# kernels and everything the tests call keep the build type's level, while the test program's
# thousands of assertions, at -O3 (release) or -O1 with sanitizers, took most of each build's
# compile time (one unity batch of tests on Zen 1: 112 s at -O3, 56 s at -O1; with ASan 204 s
# at -O1, 87 s at -O0). A SHIPPED target (the CLI) keeps the build type's level outside the
# sanitizer builds: roofline_driver_code(TARGET [SHIPPED]).
function(roofline_driver_code target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SHIPPED" "" "")
  if(ROOFLINE_SANITIZE OR ROOFLINE_TSAN OR ROOFLINE_FUZZ)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O0>)
  elseif(NOT ARG_SHIPPED)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O1>)
  endif()
endfunction()
