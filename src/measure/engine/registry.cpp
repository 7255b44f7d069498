// The backend registry and the engine's entry point (engine.hpp); the level names every command
// shares (measure.hpp).
#include <algorithm>
#include <cctype>

#include "measure/engine/backends.hpp"
#include "roofline/engine.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace engine {

const std::vector<const Backend*>& backends() {
  static const std::vector<const Backend*> all = {&cpu_backend(), &cuda_backend()};
  return all;
}

const Backend& find_backend(const std::string& device) {
  const std::string want = device.empty() ? "cpu" : device;
  std::string known;
  for (const Backend* b : backends()) {
    if (b->name() == want) return *b;
    known += (known.empty() ? "" : ", ") + b->name();
  }
  throw InputError("--device: unknown device '" + device + "' (known: " + known + ")");
}

MachineDocument measure(const MeasureOptions& o) {
  return find_backend(o.device).document(o);
}

}  // namespace engine

MachineDocument measure_machine(const MeasureOptions& options) {
  return engine::measure(options);
}

void check_measurable(const MeasureOptions& options) {
  engine::find_backend(options.device).check(options);
}

const std::vector<std::string>& memory_level_names() {
  static const std::vector<std::string> names{"L1", "L2", "L3", "L4", "DRAM"};
  return names;
}

std::string parse_memory_level(const std::string& name, const std::string& option) {
  std::string up;
  for (char ch : name)
    if (!std::isspace(static_cast<unsigned char>(ch))) up += ch;
  up = upper(up);
  if (up == "MEM" || up == "RAM" || up == "MEMORY") up = "DRAM";
  const auto& known = memory_level_names();
  if (std::find(known.begin(), known.end(), up) == known.end())
    throw InputError(option + ": unknown level '" + name +
                     "' (expected L1, L2, L3, L4 or DRAM; MEM, RAM, MEMORY mean DRAM)");
  return up;
}

std::vector<std::string> parse_memory_levels(const std::vector<std::string>& items,
                                             const std::string& option) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    if (item.empty()) continue;  // nothing given: "no level given" below
    // An empty name ("L1,,DRAM", "L1,") is refused, as the command line refuses it.
    for (const std::string& part : split(item)) {
      if (part.find_first_not_of(" \t") == std::string::npos)
        throw InputError(option + ": an empty name in the list '" + item + "'");
      const std::string level = parse_memory_level(part, option);
      if (std::find(out.begin(), out.end(), level) == out.end()) out.push_back(level);
    }
  }
  if (out.empty()) throw InputError(option + ": no level given (expected L1, L2, L3, L4, DRAM)");
  return out;
}

}  // namespace roofline
