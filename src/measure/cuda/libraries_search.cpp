// Where the CUDA backend looks for the toolkit's and the driver's shared libraries at run time
// (internal.hpp: library_candidates, library_search_here); no CUDA needed.
#include <glob.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "measure/cuda/internal.hpp"

namespace roofline::cuda::detail {

std::vector<std::string> library_candidates(const std::string& soname, const LibrarySearch& s) {
  std::vector<std::string> out;
  auto add = [&](const std::string& path) {
    if (std::find(out.begin(), out.end(), path) == out.end()) out.push_back(path);
  };
  // A toolkit root keeps its libraries in lib64 (the .run installer), lib (Debian's and NVIDIA's
  // packages link lib64 → targets/x86_64-linux/lib) or targets/x86_64-linux/lib itself.
  auto add_root = [&](const std::string& root) {
    if (root.empty()) return;
    for (const char* sub : {"/lib64/", "/lib/", "/targets/x86_64-linux/lib/"})
      add(root + sub + soname);
  };
  add(soname);
  add_root(s.cuda_home);
  add_root(s.cuda_path);
  if (!s.build_library_dir.empty()) add(s.build_library_dir + "/" + soname);
  for (const std::string& root : s.toolkit_roots) add_root(root);
  for (const std::string& dir : s.extra_dirs)
    if (!dir.empty()) add(dir + "/" + soname);
  return out;
}

LibrarySearch library_search_here(const std::string& build_library_dir) {
  LibrarySearch s;
  if (const char* v = std::getenv("CUDA_HOME")) s.cuda_home = v;
  if (const char* v = std::getenv("CUDA_PATH")) s.cuda_path = v;
  s.build_library_dir = build_library_dir;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory("/usr/local/cuda", ec)) s.toolkit_roots.push_back("/usr/local/cuda");
  std::vector<std::string> versioned;
  for (const fs::directory_entry& e : fs::directory_iterator("/usr/local", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("cuda-", 0) == 0 && e.is_directory(ec)) versioned.push_back(e.path().string());
  }
  // Newest first: "cuda-13.0" before "cuda-12.8" (compare the version numbers, not the text).
  auto version = [](const std::string& path) {
    const std::string v = path.substr(path.rfind("cuda-") + 5);
    int major = 0, minor = 0;
    std::sscanf(v.c_str(), "%d.%d", &major, &minor);
    return major * 1000 + minor;
  };
  std::sort(versioned.begin(), versioned.end(),
            [&](const std::string& a, const std::string& b) { return version(a) > version(b); });
  s.toolkit_roots.insert(s.toolkit_roots.end(), versioned.begin(), versioned.end());
  // The driver's libraries (NVML): the distribution's directory, and where containers mount
  // the host's driver.
  s.extra_dirs = {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/nvidia/lib64",
                  "/usr/local/nvidia/lib"};
  // A toolkit without cuBLAS, beside a Python whose wheels bring it (PyTorch's, for one).
  std::vector<std::string> sites = {"/opt/*/.venv/lib/python3*/site-packages",
                                    "/usr/local/lib/python3*/dist-packages",
                                    "/usr/lib/python3/dist-packages"};
  if (const char* v = std::getenv("VIRTUAL_ENV"))
    sites.insert(sites.begin(), std::string(v) + "/lib/python3*/site-packages");
  for (const std::string& d : wheel_library_dirs(sites)) s.extra_dirs.push_back(d);
  return s;
}

std::vector<std::string> wheel_library_dirs(const std::vector<std::string>& patterns) {
  std::vector<std::string> out;
  for (const std::string& pattern : patterns) {
    glob_t g{};
    if (glob(pattern.c_str(), GLOB_ONLYDIR, nullptr, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc; ++i)
        for (const char* sub : {"/nvidia/cu13/lib", "/nvidia/cublas/lib"}) {
          const std::string dir = std::string(g.gl_pathv[i]) + sub;
          std::error_code ec;
          if (std::filesystem::is_directory(dir, ec) &&
              std::find(out.begin(), out.end(), dir) == out.end())
            out.push_back(dir);
        }
    }
    globfree(&g);
  }
  return out;
}

}  // namespace roofline::cuda::detail
