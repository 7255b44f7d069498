// The filters of `roofline hw list` (docs/hardware.md): --vendor, --kind, --year, --memory-min
// and --search, on summaries of the catalogue, and their errors.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <functional>

#include "roofline/error.hpp"
#include "roofline/hardware.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {
HardwareSummary entry(const std::string& name, const std::string& vendor, const std::string& kind,
                      std::optional<int> year, std::optional<double> memory,
                      std::vector<std::string> aliases = {}, const std::string& display = "") {
  HardwareSummary s;
  s.name = name;
  s.vendor = vendor;
  s.kind = kind;
  s.release_year = year;
  s.memory_bytes = memory;
  s.aliases = std::move(aliases);
  s.display_name = display.empty() ? name : display;
  return s;
}
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(HwFilters, YearTakesOneYearARangeOrAnOpenEnd) {
  HardwareFilter f;
  parse_year_filter("2024", f);
  EXPECT_EQ(f.year_min, 2024);
  EXPECT_EQ(f.year_max, 2024);
  f = {};
  parse_year_filter("2022-2024", f);
  EXPECT_EQ(f.year_min, 2022);
  EXPECT_EQ(f.year_max, 2024);
  f = {};
  parse_year_filter("2023-", f);
  EXPECT_EQ(f.year_min, 2023);
  EXPECT_FALSE(f.year_max);
  f = {};
  parse_year_filter("-2020", f);
  EXPECT_FALSE(f.year_min);
  EXPECT_EQ(f.year_max, 2020);
  for (const char* bad : {"24", "2024-2022-2020", "abcd", "2024.5", "-", ""}) {
    HardwareFilter g;
    EXPECT_NE(error_of([&] { parse_year_filter(bad, g); }).find("--year"), std::string::npos)
        << bad;
  }
  HardwareFilter g;
  EXPECT_NE(error_of([&] { parse_year_filter("2025-2020", g); }).find("is empty"),
            std::string::npos);
}

TEST(HwFilters, MemoryMinIsGigabytesOrASizeWithItsUnit) {
  EXPECT_DOUBLE_EQ(parse_memory_min("80"), 80e9);
  EXPECT_DOUBLE_EQ(parse_memory_min("1.5"), 1.5e9);
  EXPECT_DOUBLE_EQ(parse_memory_min("80 GB"), 80e9);
  EXPECT_DOUBLE_EQ(parse_memory_min("1.5 TB"), 1.5e12);
  EXPECT_DOUBLE_EQ(parse_memory_min("96 GiB"), 96.0 * 1024 * 1024 * 1024);
  EXPECT_NE(error_of([] { parse_memory_min("lots"); }).find("--memory-min"), std::string::npos);
  EXPECT_NE(error_of([] { parse_memory_min("80 TFLOP/s"); }).find("--memory-min"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_memory_min("-5 GB"); }).find("--memory-min"), std::string::npos);
}

TEST(HwFilters, AnEntryPassesEveryFilterThatIsSet) {
  const auto h100 = entry("h100-sxm", "NVIDIA", "gpu", 2022, 80e9, {"h100"}, "NVIDIA H100 SXM5");
  const auto epyc = entry("epyc-9755", "AMD", "cpu", 2024, std::nullopt, {"turin-9755"});
  const auto m4 = entry("apple-m4-max", "Apple", "soc", 2024, 128e9, {"m4-max"});
  const auto undated = entry("my-gpu", "Acme", "gpu", std::nullopt, 16e9);
  HardwareFilter none;
  for (const auto* e : {&h100, &epyc, &m4, &undated}) EXPECT_TRUE(matches_filter(*e, none));

  HardwareFilter vendor;
  vendor.vendor = "nvidia";  // case-insensitive
  EXPECT_TRUE(matches_filter(h100, vendor));
  EXPECT_FALSE(matches_filter(epyc, vendor));

  HardwareFilter kind;
  kind.kind = "SOC";
  EXPECT_TRUE(matches_filter(m4, kind));
  EXPECT_FALSE(matches_filter(h100, kind));

  HardwareFilter year;
  parse_year_filter("2023-", year);
  EXPECT_FALSE(matches_filter(h100, year));
  EXPECT_TRUE(matches_filter(epyc, year));
  EXPECT_FALSE(matches_filter(undated, year));  // no release year: not in any year range

  HardwareFilter memory;
  memory.memory_min = parse_memory_min("80");
  EXPECT_TRUE(matches_filter(h100, memory));  // 80 GB >= 80 GB
  EXPECT_TRUE(matches_filter(m4, memory));
  EXPECT_FALSE(matches_filter(undated, memory));
  EXPECT_FALSE(matches_filter(epyc, memory));  // a CPU without a size does not pass
  memory.memory_min = 81e9;
  EXPECT_FALSE(matches_filter(h100, memory));

  HardwareFilter search;
  search.search = "H100";
  EXPECT_TRUE(matches_filter(h100, search));
  search.search = "h100 sxm5";  // the display name, ignoring case and spaces
  EXPECT_TRUE(matches_filter(h100, search));
  search.search = "turin";  // an alias
  EXPECT_TRUE(matches_filter(epyc, search));
  EXPECT_FALSE(matches_filter(h100, search));

  HardwareFilter both;
  both.vendor = "AMD";
  both.kind = "gpu";
  EXPECT_FALSE(matches_filter(epyc, both));  // AMD but a cpu
}
}  // namespace ROOFLINE_UNITY_ID
