# The built-in kernel suite (`roofline run`): OpenBLAS (cblas) for the BLAS gemm, confined to this
# folder's sources.
file(GLOB ROOFLINE_SUITE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)

# The threads are the engine's pinned team (parallel.hpp); `#pragma omp simd` in the inner loops
# needs only -fopenmp-simd (no OpenMP runtime).
set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY COMPILE_OPTIONS -fopenmp-simd)
if(ROOFLINE_TSAN)
  # OpenBLAS's threads hand work over in uninstrumented code: the suite asks it for one thread.
  set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY COMPILE_DEFINITIONS ROOFLINE_TSAN_BUILD=1)
endif()
# The inner loops are vectorised whatever the build type (the ASan build is -O2).
set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/loops.cpp APPEND PROPERTY COMPILE_OPTIONS -O3)

# Debian's libopenblas-dev: pkg-config openblas gives the include directory that holds its
# cblas.h (with openblas_get_corename); FindBLAS is the fallback for other layouts.
set(ROOFLINE_OPENBLAS_FOUND OFF)
if(PkgConfig_FOUND)
  pkg_check_modules(OPENBLAS IMPORTED_TARGET openblas)
  if(OPENBLAS_FOUND)
    set(ROOFLINE_OPENBLAS_FOUND ON)
    set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY INCLUDE_DIRECTORIES ${OPENBLAS_INCLUDE_DIRS})
    target_link_libraries(roofline_measure PRIVATE $<LINK_ONLY:PkgConfig::OPENBLAS>)
  endif()
endif()
if(NOT ROOFLINE_OPENBLAS_FOUND)
  set(BLA_VENDOR OpenBLAS)
  find_package(BLAS QUIET)
  find_path(ROOFLINE_CBLAS_INCLUDE cblas.h PATH_SUFFIXES openblas openblas-pthread)
  if(BLAS_FOUND AND ROOFLINE_CBLAS_INCLUDE)
    set(ROOFLINE_OPENBLAS_FOUND ON)
    set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY INCLUDE_DIRECTORIES ${ROOFLINE_CBLAS_INCLUDE})
    target_link_libraries(roofline_measure PRIVATE $<LINK_ONLY:BLAS::BLAS>)
  endif()
endif()
if(ROOFLINE_OPENBLAS_FOUND)
  set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY COMPILE_DEFINITIONS ROOFLINE_HAVE_OPENBLAS=1)
else()
  message(STATUS "roofline: OpenBLAS not found; `roofline run` will report the BLAS kernels unavailable")
  set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY COMPILE_DEFINITIONS ROOFLINE_HAVE_OPENBLAS=0)
endif()
