// dlopen of the first of several candidate paths (shared_library.hpp).
#include "measure/engine/shared_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <filesystem>

namespace roofline {

std::string OpenedLibrary::why_not(const std::string& soname) const {
  std::string m = soname + " not found (tried:";
  for (size_t i = 0; i < failures.size(); ++i) m += (i ? "; " : " ") + failures[i];
  return m + ")";
}

OpenedLibrary open_library(const std::vector<std::string>& candidates) {
  OpenedLibrary lib;
  for (const std::string& path : candidates) {
    // A path with a slash that does not exist: say so without asking the loader.
    if (path.find('/') != std::string::npos) {
      std::error_code ec;
      if (!std::filesystem::exists(path, ec)) {
        lib.failures.push_back(path + ": no such file");
        continue;
      }
    }
    dlerror();
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      lib.handle = h;
      lib.path = path;
      // The file the loader chose for a bare soname.
      link_map* map = nullptr;
      if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0])
        lib.path = map->l_name;
      return lib;
    }
    const char* e = dlerror();
    lib.failures.push_back(path + ": " + (e ? e : "dlopen failed"));
  }
  return lib;
}

}  // namespace roofline
