// `hw ridges --add` in the layers: the machines added to the catalogue's entries (io's
// add_machines: one row per machine, entries of one name told apart, a machine of no ridge
// refused) and why one added is not in the table (report's ridge_added_not_shown).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/hw_output.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {

std::string gpu_document(const std::string& bandwidth, const std::string& compute) {
  return R"({"schema": "roofline.machine", "version": 1, "name": "my-gpu",
    "default_memory": "DRAM",)" +
         compute + R"(
    "memory": [{"level": "DRAM", "kind": "memory", "bandwidth": ")" +
         bandwidth + R"(", "source": "spec"}]})";
}
const std::string kFp32 = R"("default_compute": "fp32 vector",
    "compute": [{"name": "fp32 vector", "precision": "fp32", "unit": "vector",
                 "peak": "10 TFLOP/s", "source": "spec"}],)";

std::vector<std::string> names(const std::vector<HardwareSummary>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.name);
  return out;
}

TEST(HwRidgesAdd, OneRowPerMachineAndEntriesOfOneNameToldApart) {
  test::TempDir dir;
  test::write_text(dir.file("before.json"), gpu_document("1 TB/s", kFp32));
  test::write_text(dir.file("after.json"), gpu_document("1.2 TB/s", kFp32));
  std::filesystem::copy_file(dir.file("before.json"), dir.file("copy.json"));
  std::vector<HardwareSummary> entries = {resolve_summary("a100-80gb", "")};
  // By alias, the catalogue entry's name; by path, the document's.
  EXPECT_EQ(entries.front().name, "a100-80gb");
  EXPECT_EQ(resolve_summary(dir.file("before.json"), "").name, "my-gpu");
  // The catalogue entry by an alias, one file twice and a copy of it are the entries there are.
  std::vector<AddedMachine> added = add_machines(
      entries, {"a100", dir.file("before.json"), dir.file("before.json"), dir.file("copy.json")},
      "");
  EXPECT_EQ(names(entries), (std::vector<std::string>{"a100-80gb", "my-gpu"}));
  ASSERT_EQ(added.size(), 4u);
  EXPECT_EQ(added[0].spec, "a100");
  EXPECT_EQ(added[0].name, "a100-80gb");
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(added[i].name, "my-gpu") << i;
  EXPECT_EQ(added[3].spec, dir.file("copy.json"));
  // Measured again after a change: two machines, told apart by their files' names, and the
  // added names follow.
  entries = {resolve_summary("a100-80gb", "")};
  added = add_machines(entries, {dir.file("before.json"), dir.file("after.json")}, "");
  EXPECT_EQ(names(entries),
            (std::vector<std::string>{"a100-80gb", "my-gpu (before.json)", "my-gpu (after.json)"}));
  ASSERT_EQ(added.size(), 2u);
  EXPECT_EQ(added[0].name, "my-gpu (before.json)");
  EXPECT_EQ(added[1].name, "my-gpu (after.json)");
  // Nothing added: the entries as they were.
  entries = {resolve_summary("a100-80gb", "")};
  EXPECT_TRUE(add_machines(entries, {}, "").empty());
  EXPECT_EQ(names(entries), (std::vector<std::string>{"a100-80gb"}));
}

TEST(HwRidgesAdd, AMachineOfNoRidgeIsRefusedNamingTheRoofItLacks) {
  test::TempDir dir;
  test::write_text(dir.file("bw\x1b[2J.json"), gpu_document("1 TB/s", R"("compute": [],)"));
  std::vector<HardwareSummary> entries;
  try {
    add_machines(entries, {dir.file("bw\x1b[2J.json")}, "");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--add " + (dir.path / "bw\\u001b[2J.json").string() +
                                         ": the machine has no compute roof, so it has no ridge");
  }
  EXPECT_TRUE(entries.empty());
}

TEST(HwRidgesAdd, WhyAnAddedMachineIsNotInTheTable) {
  std::vector<HardwareSummary> entries(3);
  entries[0].name = "h100";
  entries[1].name = "npu";
  entries[2].name = "l4";
  for (auto* e : {&entries[0], &entries[1]}) {
    MemoryRoof m;
    m.level = "NVLink";
    e->machine.roofs.memory.push_back(m);
  }
  MemoryRoof gddr;
  gddr.level = "GDDR6";
  entries[2].machine.roofs.memory.push_back(gddr);
  const std::vector<RidgeRow> rows = {{&entries[0], {}}};
  const std::vector<PrecisionGroup> groups = {{"fp64", {"fp64"}}, {"bf16/fp16", {"bf16", "fp16"}}};
  // In the table, or left out by --kind (not among the entries): nothing to say.
  EXPECT_EQ(ridge_added_not_shown({{"h100.json", "h100"}, {"tpu", "tpu-v5e"}}, entries, rows,
                                  groups, "NVLink"),
            "");
  // Without a dense roof of the groups shown; without the --level roof, that first.
  EXPECT_EQ(ridge_added_not_shown({{"h100.json", "h100"}, {"npu\x1b[2J.json", "npu"}}, entries,
                                  rows, groups, "NVLink"),
            "--add npu\\u001b[2J.json: no dense roof of fp64, bf16/fp16, the roofs the table "
            "shows (give --precision for another)");
  EXPECT_EQ(ridge_added_not_shown({{"npu.json", "npu"}, {"l4.json", "l4"}}, entries, rows, groups,
                                  "NVLink\x1b[2J"),
            "--add npu.json: no memory roof 'NVLink\\u001b[2J', the level the table shows");
  EXPECT_EQ(ridge_added_not_shown({{"l4.json", "l4"}, {"npu.json", "npu"}}, entries, rows, groups,
                                  "NVLink"),
            "--add l4.json: no memory roof 'NVLink', the level the table shows");
  // No level asked: a machine not shown lacks a dense roof.
  EXPECT_EQ(ridge_added_not_shown({{"l4.json", "l4"}}, entries, rows, groups, ""),
            "--add l4.json: no dense roof of fp64, bf16/fp16, the roofs the table shows (give "
            "--precision for another)");
  // Under a --precision value naming a roof, the reason the left-out line gives.
  EXPECT_EQ(ridge_added_not_shown({{"l4.json", "l4"}}, entries, rows,
                                  {precision_group("fp16 tensor sparse")}, ""),
            "--add l4.json: no roof named fp16 tensor sparse, the roofs the table shows (give "
            "--precision for another)");
}

}  // namespace ROOFLINE_UNITY_ID
