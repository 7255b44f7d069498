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
# cblas.h (with openblas_get_corename); FindBLAS is the fallback for other layouts. The header
# gives the functions' types; the library itself is opened at run time (blas.cpp: dlopen of
# libopenblas.so.0, then the library found here), by the `run` that asks for a BLAS kernel: linked,
# OpenBLAS would start its thread pool in every command and every Python process that loads the
# module (and hang at exit where that pool cannot get its memory: `ulimit -v`).
set(ROOFLINE_OPENBLAS_FOUND OFF)
if(PkgConfig_FOUND)
  pkg_check_modules(OPENBLAS openblas)
  if(OPENBLAS_FOUND)
    set(ROOFLINE_OPENBLAS_FOUND ON)
    set(ROOFLINE_CBLAS_INCLUDE ${OPENBLAS_INCLUDE_DIRS})
    set(ROOFLINE_OPENBLAS_LIBRARY ${OPENBLAS_LINK_LIBRARIES})
  endif()
endif()
if(NOT ROOFLINE_OPENBLAS_FOUND)
  set(BLA_VENDOR OpenBLAS)
  find_package(BLAS QUIET)
  find_path(ROOFLINE_CBLAS_INCLUDE cblas.h PATH_SUFFIXES openblas openblas-pthread)
  if(BLAS_FOUND AND ROOFLINE_CBLAS_INCLUDE)
    set(ROOFLINE_OPENBLAS_FOUND ON)
    set(ROOFLINE_OPENBLAS_LIBRARY ${BLAS_LIBRARIES})
  endif()
endif()
if(ROOFLINE_OPENBLAS_FOUND)
  list(GET ROOFLINE_OPENBLAS_LIBRARY 0 _openblas_library)
  set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY INCLUDE_DIRECTORIES ${ROOFLINE_CBLAS_INCLUDE})
  set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY COMPILE_DEFINITIONS
    ROOFLINE_HAVE_OPENBLAS=1 ROOFLINE_OPENBLAS_LIBRARY="${_openblas_library}")
  target_link_libraries(roofline_measure PRIVATE ${CMAKE_DL_LIBS})
else()
  message(STATUS "roofline: OpenBLAS not found; `roofline run` will report the BLAS kernels unavailable")
  set_property(SOURCE ${ROOFLINE_SUITE_SOURCES} APPEND PROPERTY COMPILE_DEFINITIONS ROOFLINE_HAVE_OPENBLAS=0)
endif()
