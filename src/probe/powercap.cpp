#include "roofline/powercap.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "roofline/error.hpp"

namespace roofline {

namespace fs = std::filesystem;

namespace {

/// A small sysfs attribute: read with open/read (sysfs files report a size of 4096 whatever they
/// hold). Empty with `why` set on failure.
std::optional<std::string> read_attribute(const fs::path& p, std::string* why = nullptr) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (why) *why = errno == EACCES ? "permission denied (root only)" : std::strerror(errno);
    return std::nullopt;
  }
  char buf[256];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  const int err = errno;
  ::close(fd);
  if (n < 0) {
    if (why) *why = err == EACCES ? "permission denied (root only)" : std::strerror(err);
    return std::nullopt;
  }
  std::string s(buf, static_cast<size_t>(n));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::optional<std::uint64_t> parse_u64(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    const auto d = static_cast<std::uint64_t>(ch - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

}  // namespace

PowerInterface find_powercap_zones(const fs::path& root) {
  PowerInterface pi;
  pi.root = root.string();
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    pi.why_none = "no " + root.string() + " (no powercap interface: a VM or a kernel without it)";
    return pi;
  }
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string id = e.path().filename().string();
    if (id.rfind("intel-rapl:", 0) != 0) continue;
    const auto name = read_attribute(e.path() / "name");
    if (!name || !fs::exists(e.path() / "energy_uj", ec)) continue;
    PowerZone z;
    z.id = id;
    z.name = *name;
    z.dir = e.path().string();
    if (const auto r = read_attribute(e.path() / "max_energy_range_uj"))
      z.max_energy_range_uj = parse_u64(*r).value_or(0);
    std::string why;
    const auto v = read_attribute(e.path() / "energy_uj", &why);
    z.readable = v && parse_u64(*v).has_value();
    if (!z.readable) z.why_unreadable = v ? "energy_uj is not a number" : why;
    pi.zones.push_back(std::move(z));
  }
  std::sort(pi.zones.begin(), pi.zones.end(),
            [](const PowerZone& a, const PowerZone& b) { return a.id < b.id; });
  if (pi.zones.empty()) pi.why_none = "no RAPL zone (intel-rapl:*) in " + root.string();
  return pi;
}

std::optional<std::uint64_t> read_energy_uj(const PowerZone& zone) {
  const auto v = read_attribute(fs::path(zone.dir) / "energy_uj");
  if (!v) return std::nullopt;
  return parse_u64(*v);
}

double energy_joules_between(std::uint64_t before, std::uint64_t after,
                             std::uint64_t max_range_uj) {
  if (after >= before) return static_cast<double>(after - before) * 1e-6;
  if (max_range_uj == 0 || before > max_range_uj)
    throw InputError("energy counter went from " + std::to_string(before) + " to " +
                     std::to_string(after) + " µJ with no known wrap range (max_energy_range_uj " +
                     std::to_string(max_range_uj) + ")");
  // One wrap: the counter ran from `before` up to max_range, restarted at 0 and reached `after`.
  return static_cast<double>(max_range_uj - before + after) * 1e-6;
}

}  // namespace roofline
