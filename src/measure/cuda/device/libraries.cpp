// Run-time lookup of cuBLASLt, cuBLAS and NVML (libraries.hpp).
#include "measure/cuda/device/libraries.hpp"

#include "measure/cuda/internal.hpp"

namespace roofline::cuda::libs {

namespace {

Library find(const std::string& soname) {
  Library lib;
  lib.soname = soname;
  const detail::OpenedLibrary o = detail::open_library(
      detail::library_candidates(soname, detail::library_search_here(ROOFLINE_CUDA_LIBRARY_DIR)));
  lib.handle = o.handle;
  lib.path = o.path;
  if (!o.handle) lib.reason = o.why_not(soname);
  return lib;
}

nlohmann::json describe(const Library& l) {
  if (l.handle) return {{"soname", l.soname}, {"path", l.path}};
  return {{"soname", l.soname}, {"reason", l.reason}};
}

}  // namespace

const Library& cublaslt() {
  static const Library lib = find(ROOFLINE_CUBLASLT_SONAME);
  return lib;
}

const Library& cublas() {
  // libcublas needs libcublasLt (found next to it through its RUNPATH, or already loaded).
  (void)cublaslt();
  static const Library lib = find(ROOFLINE_CUBLAS_SONAME);
  return lib;
}

const Library& nvml() {
  static const Library lib = find("libnvidia-ml.so.1");
  return lib;
}

nlohmann::json describe() {
  return {{"cublasLt", describe(cublaslt())},
          {"cublas", describe(cublas())},
          {"nvml", describe(nvml())}};
}

}  // namespace roofline::cuda::libs
