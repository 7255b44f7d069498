// What a roof counts (OP or FLOP) as every reader of a machine document takes it, and what
// `roofline hw compare` says of it: a precision that is an integer type counts OP, an "integer"
// or a unit naming the other kind is refused; a roof that names no precision differs from none;
// an `ops` roof is an operation of unnamed precision; a thousands separator is refused.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include "unity_id.hpp"

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "roofline/compare.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"

using namespace roofline;
using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::TempDir;
using roofline::test::write_text;

namespace ROOFLINE_UNITY_ID {

// The tester's file: an int8 roof whose precision alone says it counts OP.
const char* const kInt8Machine =
    R"({"schema":"roofline.machine","version":1,"name":"i8","compute":[{"name":"int8 tensor",)"
    R"("precision":"int8","peak":6e14}],"memory":[{"level":"HBM","kind":"memory","bandwidth":2e12}]})";

// A roof named "fp32" that gives no precision.
const char* const kNoPrecisionMachine =
    R"({"schema":"roofline.machine","version":1,"name":"m","compute":[{"name":"fp32","peak":1e13}],)"
    R"("memory":[{"level":"HBM","bandwidth":"2 TB/s"}]})";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

json one_roof(const json& roof) {
  return {{"schema", "roofline.machine"},
          {"version", 1},
          {"name", "x"},
          {"compute", json::array({roof})},
          {"memory", json::array({{{"level", "HBM"}, {"bandwidth", 2e12}}})}};
}

TEST(WorkKinds, APrecisionOfIntegerTypeCountsOperations) {
  EXPECT_EQ(precision_counts_operations("int8"), true);
  EXPECT_EQ(precision_counts_operations("I8"), true);
  EXPECT_EQ(precision_counts_operations("int4"), true);
  EXPECT_EQ(precision_counts_operations("ops"), true);
  EXPECT_EQ(precision_counts_operations("fp32"), false);
  EXPECT_EQ(precision_counts_operations("bf16"), false);
  EXPECT_EQ(precision_counts_operations("fp4"), false);
  EXPECT_EQ(precision_counts_operations(""), std::nullopt);
  EXPECT_EQ(precision_counts_operations("tuple"), std::nullopt);

  const MachineDocument m = machine_from_json(json::parse(kInt8Machine), "i8.json");
  const ComputeRoof& c = m.roofs.compute.front();
  EXPECT_TRUE(c.integer);
  EXPECT_EQ(m.roofs.units_of(c).work, "OP");
  EXPECT_EQ(format_work_rate(c.peak, m.roofs.units_of(c)), "600 TOP/s");
  // "ops" (a TOPS of unnamed precision) too; a float type, or none, counts FLOP.
  EXPECT_TRUE(
      machine_from_json(one_roof({{"name", "npu"}, {"precision", "ops"}, {"peak", 4e13}}), "x.json")
          .roofs.compute.front()
          .integer);
  EXPECT_FALSE(
      machine_from_json(one_roof({{"name", "v"}, {"precision", "fp32"}, {"peak", 4e13}}), "x.json")
          .roofs.compute.front()
          .integer);
  // A roof of no known precision counts what "integer" says.
  EXPECT_TRUE(
      machine_from_json(one_roof({{"name", "p"}, {"peak", 4e13}, {"integer", true}}), "x.json")
          .roofs.compute.front()
          .integer);
}

TEST(WorkKinds, AnIntegerFieldThatContradictsThePrecisionIsRefused) {
  std::string e = error_of([] {
    machine_from_json(
        one_roof({{"name", "int8 t"}, {"precision", "int8"}, {"peak", 1e14}, {"integer", false}}),
        "x.json");
  });
  EXPECT_NE(e.find("x.json: compute[0].integer: precision 'int8' counts integer operations (OP)"),
            std::string::npos)
      << e;
  e = error_of([] {
    machine_from_json(
        one_roof({{"name", "fp32 v"}, {"precision", "fp32"}, {"peak", 1e14}, {"integer", true}}),
        "x.json");
  });
  EXPECT_NE(e.find("x.json: compute[0].integer: precision 'fp32' is a floating-point type"),
            std::string::npos)
      << e;
}

TEST(WorkKinds, APeakInTheOtherKindOfWorkIsRefused) {
  // "20 TOPS" on an fp32 roof was read as 20 TFLOP/s, "20 TFLOPS" on an int8 one as 20 TOP/s.
  std::string e = error_of([] {
    machine_from_json(one_roof({{"name", "fp32 v"}, {"precision", "fp32"}, {"peak", "20 TOPS"}}),
                      "m.json");
  });
  EXPECT_NE(e.find("m.json: compute[0].peak: '20 TOPS' is OP/s, but roof 'fp32 v' (precision "
                   "'fp32') counts floating-point work"),
            std::string::npos)
      << e;
  e = error_of([] {
    machine_from_json(one_roof({{"name", "int8 t"}, {"precision", "int8"}, {"peak", "20 TFLOPS"}}),
                      "m.json");
  });
  EXPECT_NE(e.find("m.json: compute[0].peak: '20 TFLOPS' is FLOP/s, but roof 'int8 t' "
                   "(precision 'int8') counts integer operations"),
            std::string::npos)
      << e;
  e = error_of([] {
    machine_from_json(one_roof({{"name", "int8 t"},
                                {"precision", "int8"},
                                {"peak", "20 TOPS"},
                                {"provenance", "theoretical"},
                                {"theoretical", "20 TFLOP/s"},
                                {"formula", "f"}}),
                      "m.json");
  });
  EXPECT_NE(e.find("m.json: compute[0].theoretical: '20 TFLOP/s' is FLOP/s"), std::string::npos)
      << e;
  // Its own kind, or a bare number, is read as given.
  const auto peak_of = [](const json& roof) {
    return machine_from_json(one_roof(roof), "m.json").roofs.compute.front().peak.value;
  };
  EXPECT_DOUBLE_EQ(peak_of({{"name", "i"}, {"precision", "int8"}, {"peak", "20 TOPS"}}), 20e12);
  EXPECT_DOUBLE_EQ(peak_of({{"name", "f"}, {"precision", "fp32"}, {"peak", "20 TFLOPS"}}), 20e12);
  EXPECT_DOUBLE_EQ(peak_of({{"name", "f"}, {"precision", "fp32"}, {"peak", "20 T"}}), 20e12);
}

TEST(WorkKinds, AThousandsSeparatorIsRefusedNamingTheValue) {
  const std::string e =
      error_of([] { parse_quantity("1,555 GB/s", Dimension::byte_rate, "x.json: bandwidth"); });
  EXPECT_NE(e.find("x.json: bandwidth: a thousands separator (',') is not accepted: write "
                   "'1555 GB/s'"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("(got '1,555 GB/s'"), std::string::npos) << e;
  json j = json::parse(kNoPrecisionMachine);
  j["memory"][0]["bandwidth"] = "1,555 GB/s";
  const std::string in_file = error_of([&] { machine_from_json(j, "m1.json"); });
  EXPECT_NE(in_file.find("m1.json: memory[0].bandwidth: a thousands separator"), std::string::npos)
      << in_file;
}

// A comma that is no thousands separator is a decimal comma: dropping it had told "1,5 TB/s" to
// write '15 TB/s', ten times the value meant.
TEST(WorkKinds, ADecimalCommaIsToldToBeAPoint) {
  const auto said = [](const char* text) {
    return error_of([&] { parse_quantity(text, Dimension::byte_rate, "--bandwidth"); });
  };
  EXPECT_NE(said("1,5 TB/s").find("--bandwidth: a decimal comma is not accepted: write '1.5 TB/s'"),
            std::string::npos)
      << said("1,5 TB/s");
  EXPECT_NE(said("1,55 TB/s").find("write '1.55 TB/s'"), std::string::npos) << said("1,55 TB/s");
  EXPECT_NE(said("1,5555 TB/s").find("write '1.5555 TB/s'"), std::string::npos);
  EXPECT_NE(said("12,000,000.5 B/s")
                .find("thousands separator (',') is not accepted: write "
                      "'12000000.5 B/s'"),
            std::string::npos)
      << said("12,000,000.5 B/s");
  EXPECT_NE(said("1234,567 GB/s").find("write '1234.567 GB/s'"), std::string::npos)
      << said("1234,567 GB/s");
  EXPECT_NE(said("1,555,5 GB/s").find("',' is not accepted in a number"), std::string::npos)
      << said("1,555,5 GB/s");
}

TEST(WorkKinds, ARoofOfNoPrecisionDiffersFromNone) {
  const MachineDocument m = machine_from_json(json::parse(kNoPrecisionMachine), "m1.json");
  const MachineDocument a100 = resolve_machine("a100-80gb");
  const std::vector<const RoofSet*> sets{&m.roofs, &a100.roofs};
  EXPECT_FALSE(mixed_precisions(sets, {"fp32", "fp32 vector"}).has_value());
  // Two named precisions still differ.
  const MachineDocument tpu = resolve_machine("tpu-v5e");
  const auto mixed =
      mixed_precisions({&m.roofs, &a100.roofs, &tpu.roofs}, {"fp32", "fp32 vector", "bf16 mxu"});
  ASSERT_TRUE(mixed.has_value());
  EXPECT_EQ(mixed->named, "m fp32, a100-80gb fp32 vector, tpu-v5e bf16 mxu");
}

TEST(WorkKinds, AnOpsRoofIsAnOperationOfUnnamedPrecision) {
  const MachineDocument m4 = resolve_machine("apple-m4-max");
  const MachineDocument h100 = resolve_machine("h100-sxm");
  const MachineDocument a100 = resolve_machine("a100-80gb");
  std::string note = mixed_work_note(compare_at({&m4.roofs, &h100.roofs}, Intensity(5)));
  EXPECT_NE(note.find("their ratio compares an operation of unnamed precision ('ops': a TOPS "
                      "figure that names no type) with a floating-point one"),
            std::string::npos)
      << note;
  EXPECT_EQ(note.find("integer operation"), std::string::npos) << note;
  note = mixed_work_note(
      compare_roofs_at({&a100.roofs, &h100.roofs}, Intensity(5), {"int8 tensor", "fp32 vector"}));
  EXPECT_NE(note.find("compares an integer operation with a floating-point one"), std::string::npos)
      << note;
}

TEST(WorkKinds, HwCompareCountsAFilesInt8RoofInOp) {
  TempDir dir;
  write_text(dir.file("i8.json"), kInt8Machine);
  auto r = run_cli(
      {"hw", "compare", dir.file("i8.json"), "a100-80gb", "--at", "100", "--precision", "int8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 6e14 OP/s over 2e12 B/s: a ridge of 300 OP/byte; at I = 100 it attains 2e12 x 100.
  EXPECT_NE(r.out.find("600 TOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("300 OP/byte"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("200 TOP/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FLOP/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("count different work"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  // point judges its OP work on the roof, as compare reads it.
  r = run_cli(
      {"point", "--machine", dir.file("i8.json"), "-W", "2 TOP", "-Q", "1 GB", "-T", "0.01"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // A "TFLOPS" on the int8 roof is refused by every command, naming file, roof and value.
  write_text(dir.file("bad.json"),
             std::string(kInt8Machine)
                 .replace(std::string(kInt8Machine).find("6e14"), 4, "\"20 TFLOPS\""));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"hw", "compare", dir.file("bad.json"), "a100-80gb", "--at", "1"},
        std::vector<std::string>{"hw", "show", dir.file("bad.json")}}) {
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("bad.json: compute[0].peak: '20 TFLOPS' is FLOP/s, but roof 'int8 "
                         "tensor' (precision 'int8') counts integer operations"),
              std::string::npos)
        << r.err;
  }
}

TEST(WorkKinds, APeakFlagInTheOtherKindOfWorkIsRefused) {
  auto r = run_cli({"point", "--peak", "20 TFLOPS", "--precision", "int8", "--bandwidth", "1 TB/s",
                    "-W", "1e9", "-Q", "1e9", "-T", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("--peak '20 TFLOPS' is FLOP/s, but the roof of --precision int8 counts "
                       "OP/s: give the peak in OP/s (TOPS)"),
            std::string::npos)
      << r.err;
  r = run_cli(
      {"point", "--peak", "20 TOPS", "--bandwidth", "1 TB/s", "-W", "1e9", "-Q", "1e9", "-T", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("--peak '20 TOPS' is OP/s, but the roof of no --precision counts FLOP/s"),
            std::string::npos)
      << r.err;
  // Its own kind is read as given: 20 TOP/s of int8, a ridge of 20 OP/byte at 1 TB/s.
  r = run_cli({"point", "--peak", "20 TOPS", "--precision", "int8", "--bandwidth", "1 TB/s", "-W",
               "1e9", "-Q", "1e9", "-T", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("20 TOP/s"), std::string::npos) << r.out;
}

TEST(WorkKinds, HwCompareOfARoofWithoutPrecisionWarnsOfNoMix) {
  TempDir dir;
  write_text(dir.file("m1.json"), kNoPrecisionMachine);
  const auto r = run_cli({"hw", "compare", dir.file("m1.json"), "a100-80gb", "--at", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("different precisions"), std::string::npos) << r.err;
  // 19.5 / 10 TFLOP/s: both right of their ridges (5 and 9.564 FLOP/byte).
  EXPECT_NE(r.out.find("1.95x  peak ratio"), std::string::npos) << r.out;
}

}  // namespace ROOFLINE_UNITY_ID
