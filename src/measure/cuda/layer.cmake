# The CUDA backend (docs/cuda.md). Host-side arithmetic (theory.cpp, assemble.cpp) is always in
# `roofline_measure`. When CMake finds a CUDA compiler and ROOFLINE_CUDA is ON, the kernels (device/*.cu)
# go into the static library roofline_cuda, the host code that drives them (device/*.cpp) into
# `roofline_measure`, and no_cuda.cpp is dropped; otherwise device/ is dropped and no_cuda.cpp reports
# "CUDA not compiled in". This file is included from src/CMakeLists.txt after `roofline_measure` exists,
# so sources are removed from the target's SOURCES property.
set(_cuda_dir ${CMAKE_CURRENT_LIST_DIR})
get_target_property(_roofline_sources roofline_measure SOURCES)

set(ROOFLINE_HAVE_CUDA OFF)
if(ROOFLINE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
    if(CUDAToolkit_FOUND)
      set(ROOFLINE_HAVE_CUDA ON)
    else()
      message(STATUS "roofline: CUDA compiler found but not the CUDA toolkit libraries; CUDA backend off")
    endif()
  else()
    message(STATUS "roofline: no CUDA compiler found; CUDA backend off")
  endif()
else()
  message(STATUS "roofline: CUDA backend off (ROOFLINE_CUDA=OFF)")
endif()

if(ROOFLINE_HAVE_CUDA)
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  list(FILTER _roofline_sources EXCLUDE REGEX "/measure/cuda/no_cuda\\.cpp$")
  file(GLOB _cuda_kernels CONFIGURE_DEPENDS ${_cuda_dir}/device/*.cu)
  add_library(roofline_cuda STATIC ${_cuda_kernels})
  # Ampere (A100), Hopper (H100/H200) and, where nvcc knows it, Blackwell (B200): SASS for each,
  # plus PTX of the newest for later GPUs to JIT.
  set(_cuda_archs 80-real 90-real)
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)
    list(APPEND _cuda_archs 100)
  else()
    list(APPEND _cuda_archs 90-virtual)
  endif()
  set_target_properties(roofline_cuda PROPERTIES
    CUDA_ARCHITECTURES "${_cuda_archs}"
    POSITION_INDEPENDENT_CODE ON
    # The sanitizer flags from cmake/Warnings.cmake are host-compiler flags nvcc does not take.
    COMPILE_OPTIONS "")
  target_compile_options(roofline_cuda PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-O3 -Xcompiler=-Wall,-Wextra --Werror=all-warnings>)
  target_link_libraries(roofline_cuda PUBLIC CUDA::cudart_static)
  # The static runtime keeps every roofline binary free of a libcudart dependency. cuBLASLt
  # (540 MB) is opened with dlopen only when GEMM roofs are measured, and NVML comes with the
  # driver: neither is linked, so programs start as fast as without CUDA.
  target_link_libraries(roofline_measure PRIVATE roofline_cuda CUDA::cudart_static ${CMAKE_DL_LIBS})
  target_include_directories(roofline_measure PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
  target_compile_definitions(roofline_measure PUBLIC ROOFLINE_HAVE_CUDA=1)
  target_compile_definitions(roofline_measure PRIVATE
    ROOFLINE_CUDA_LIBRARY_DIR="${CUDAToolkit_LIBRARY_DIR}"
    ROOFLINE_CUBLASLT_SONAME="libcublasLt.so.${CUDAToolkit_VERSION_MAJOR}"
    ROOFLINE_CUBLAS_SONAME="libcublas.so.${CUDAToolkit_VERSION_MAJOR}")
  # The host code that drives the kernels is compiled file by file, not in the library's unity
  # sources: tests/ci.d/cuda_compile.sh builds exactly these objects without the whole library.
  file(GLOB _cuda_host CONFIGURE_DEPENDS ${_cuda_dir}/device/*.cpp)
  set_source_files_properties(${_cuda_host} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  message(STATUS "roofline: CUDA backend on (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, archs ${_cuda_archs})")
else()
  list(FILTER _roofline_sources EXCLUDE REGEX "/measure/cuda/device/")
endif()
set_property(TARGET roofline_measure PROPERTY SOURCES ${_roofline_sources})
