#pragma once
// The libraries the CUDA backend opens at run time, each found once per process: cuBLASLt and
// cuBLAS from the toolkit, NVML from the driver. Each is looked for by soname (the loader's
// cache, LD_LIBRARY_PATH), then in $CUDA_HOME, $CUDA_PATH, the toolkit directory of the build,
// /usr/local/cuda and /usr/local/cuda-* (lib64, lib, targets/x86_64-linux/lib) and the
// driver's directories (detail::library_candidates). Handles stay open until the process ends.
#include <string>

#include <nlohmann/json.hpp>

namespace roofline::cuda::libs {

struct Library {
  void* handle = nullptr;  ///< null: not found, see reason
  std::string soname;
  std::string path;    ///< what dlopen loaded
  std::string reason;  ///< why not, naming every path tried
};

const Library& cublaslt();
const Library& cublas();
const Library& nvml();

/// Where each library was found, or why not: {"cublasLt": {"path": ...}, ...}.
nlohmann::json describe();

}  // namespace roofline::cuda::libs
