// `import ncu` without a machine: the kernels are judged against the roofs the export itself
// describes (`ncu --set roofline` peaks), and the import's notes say so
// (machine_from_export_roofs).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <string>

#include "roofline/import.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {

const std::filesystem::path kImportData = std::filesystem::path(ROOFLINE_TEST_DATA) / "import";

TEST(ImportExportRoofs, TheExportsPeaksAreTheMachineAndANoteSaysSo) {
  const auto path = kImportData / "ncu-set-roofline.csv";
  ImportResult res = import_ncu(read_text_file(path), path.string());
  ASSERT_TRUE(res.roofs.has_value());
  const size_t notes = res.notes.size();
  const std::optional<MachineDocument> m = machine_from_export_roofs(res);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->roofs.name, res.roofs->name);
  ASSERT_EQ(m->roofs.compute.size(), 3u);  // fp64, fp32 and fp16 FMA peaks
  EXPECT_EQ(m->roofs.compute[1].peak.value, res.roofs->compute[1].peak.value);
  ASSERT_EQ(m->roofs.memory.size(), 1u);
  // DRAM: dram__bytes.sum.peak_sustained × dram__cycles_elapsed.avg.per_second, 1.562 TB/s.
  EXPECT_NEAR(m->roofs.memory.front().bandwidth.value, 1.562e12, 0.0005e12);
  ASSERT_EQ(res.notes.size(), notes + 1);
  EXPECT_EQ(res.notes.back(),
            "roofs from the report's peak metrics (ncu --set roofline): 3 compute roofs (no "
            "tensor roof: give --hw for one), DRAM 1.562 TB/s");
}

TEST(ImportExportRoofs, AnExportOfNoPeaksGivesNoMachineAndNoNote) {
  const auto path = kImportData / "ncu-raw-saxpy.csv";
  ImportResult res = import_ncu(read_text_file(path), path.string());
  ASSERT_FALSE(res.roofs.has_value());
  const auto notes = res.notes;
  EXPECT_FALSE(machine_from_export_roofs(res).has_value());
  EXPECT_EQ(res.notes, notes);
}

}  // namespace ROOFLINE_UNITY_ID
