# measure/cpu: every kernel file is compiled with the flags of its instruction set only; the
# code that chooses among them (backends.cpp) is built with the baseline flags and calls a
# kernel only when CPUID says the CPU supports it.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  set(_rl_cpu ${CMAKE_CURRENT_LIST_DIR})
  set_source_files_properties(${_rl_cpu}/kernels_avx2.cpp PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
  set_source_files_properties(${_rl_cpu}/kernels_avx512.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma;-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq")
  set_source_files_properties(${_rl_cpu}/kernels_avx512_vnni.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx512f;-mavx512vnni")
  set_source_files_properties(${_rl_cpu}/kernels_avxvnni.cpp PROPERTIES COMPILE_OPTIONS "-mavx2;-mavxvnni")
  set_source_files_properties(${_rl_cpu}/kernels_avx512_bf16.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx512f;-mavx512bf16")
  set_source_files_properties(${_rl_cpu}/kernels_avx512_fp16.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx512f;-mavx512fp16")
  # The kernels are inline assembly: sanitizer instrumentation around them adds nothing.
endif()
