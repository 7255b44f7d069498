#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>

#include "roofline/check_io.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"

using namespace roofline;
using nlohmann::json;

namespace ROOFLINE_UNITY_ID {
json minimal_machine() {
  return json::parse(R"({
    "schema": "roofline.machine", "version": 1, "name": "test",
    "compute": [{"name": "fp32 fma", "precision": "fp32", "peak": "19.5 TFLOP/s",
                 "provenance": "datasheet", "source": "unit test"}],
    "memory": [{"level": "HBM", "kind": "memory", "bandwidth": 2e12}],
    "extra_section": {"keep": true}
  })");
}
std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Documents, MachineRoundTrip) {
  MachineDocument m = machine_from_json(minimal_machine(), "m.json");
  EXPECT_EQ(m.roofs.name, "test");
  ASSERT_EQ(m.roofs.compute.size(), 1u);
  EXPECT_DOUBLE_EQ(m.roofs.compute[0].peak.value, 19.5e12);
  EXPECT_DOUBLE_EQ(m.roofs.memory[0].bandwidth.value, 2e12);
  EXPECT_EQ(section_json(m, "extra_section"), json({{"keep", true}}));
  const json back = machine_to_json(m);
  MachineDocument again = machine_from_json(back, "again");
  EXPECT_DOUBLE_EQ(again.roofs.compute[0].peak.value, 19.5e12);
  EXPECT_EQ(again.roofs.compute[0].source, "unit test");
  EXPECT_EQ(section_json(again, "extra_section"), json({{"keep", true}}));
}

// What no reader here knows (a field of `info`, a whole section, written by another version or
// kept in the catalogue) is written back as it was read: the same JSON, to the number's last
// digit and type (an integer stays an integer, 1e-300 and 0.1 stay those doubles).
TEST(Documents, MachineKeepsWhatNoReaderKnows) {
  json in = minimal_machine();
  in["info"] = {{"vendor", "Acme"},
                {"future_field", {{"year", 2031}, {"ratio", 0.1}, {"tiny", 1e-300}}},
                {"big", 18446744073709551615ull},
                {"negative", -7},
                {"list", {1, "two", nullptr, false, 3.5}},
                {"text", "caf\u00e9 \u2014 \u03c0"}};
  in["future_section"] = {{"nested", {{"deep", {1.25, -0.0}}}}, {"empty", json::object()}};
  in["scalar_section"] = 42;
  const MachineDocument m = machine_from_json(in, "m.json");
  const json out = machine_to_json(m);
  for (const char* key : {"info", "extra_section", "future_section", "scalar_section"})
    EXPECT_EQ(out.at(key).dump(), in.at(key).dump()) << key;
  EXPECT_TRUE(out["info"]["big"].is_number_unsigned());
  EXPECT_TRUE(out["info"]["negative"].is_number_integer());
  EXPECT_EQ(out["info"]["future_field"]["tiny"].get<double>(), 1e-300);
  EXPECT_TRUE(std::signbit(out["future_section"]["nested"]["deep"][1].get<double>()));
  // Read from its text, as a file is, and written again: the same text (the roofs included).
  const std::string text = out.dump(2);
  EXPECT_EQ(machine_to_json(machine_from_json(parse_json(text, "m.json"), "m.json")).dump(2), text);
  // An empty info is none, and is not written.
  in["info"] = json::object();
  EXPECT_FALSE(machine_to_json(machine_from_json(in, "m.json")).contains("info"));
}

// A roof's statistics that give the median alone, or one end, read back as they were read: the
// writer had added both ends (the missing one as the median), and the value, which the reader
// checks against both ends once both are there, then refused the document the tool wrote
// (fuzz_machine, fuzz/found/fuzz_machine/stats-without-max-round-trip.json).
TEST(Documents, StatisticsWithoutTheirEndsReadBack) {
  for (const char* stats : {R"({"repetitions": 5, "median": 1.8e12})",
                            R"({"repetitions": 5, "median": 1.8e12, "min": 1.7e12})",
                            R"({"repetitions": 5, "median": 1.8e12, "best": 2.039e12})"}) {
    SCOPED_TRACE(stats);
    const json doc = {
        {"schema", "roofline.machine"},
        {"version", 1},
        {"name", "m"},
        {"compute", {{{"name", "fp64"}, {"peak", 1e12}}}},
        {"memory", {{{"level", "HBM"}, {"bandwidth", 2.039e12}, {"stats", json::parse(stats)}}}}};
    const MachineDocument m = machine_from_json(doc, "m.json");
    const json written = machine_to_json(m);
    MachineDocument again;
    ASSERT_NO_THROW(again = machine_from_json(written, "again")) << written.dump();
    ASSERT_TRUE(again.roofs.memory[0].stats && m.roofs.memory[0].stats);
    EXPECT_EQ(again.roofs.memory[0].stats->min, m.roofs.memory[0].stats->min);
    EXPECT_EQ(again.roofs.memory[0].stats->max, m.roofs.memory[0].stats->max);
    EXPECT_EQ(machine_to_json(again), written);
  }
  // Both ends given keep the check: a value outside them is refused.
  json doc = {
      {"schema", "roofline.machine"},
      {"version", 1},
      {"name", "m"},
      {"compute", {{{"name", "fp64"}, {"peak", 1e12}}}},
      {"memory",
       {{{"level", "HBM"},
         {"bandwidth", 2.039e12},
         {"stats", {{"repetitions", 5}, {"median", 1.8e12}, {"min", 1.7e12}, {"max", 1.85e12}}}}}}};
  EXPECT_THROW(machine_from_json(doc, "m.json"), InputError);
}

TEST(Documents, MachineErrorsNameFileFieldAndValue) {
  json j = minimal_machine();
  j["version"] = 2;
  std::string msg = message_of([&] { machine_from_json(j, "m.json"); });
  EXPECT_NE(msg.find("m.json: version: unsupported version 2"), std::string::npos) << msg;

  j = minimal_machine();
  j["compute"][0]["peak"] = -1;
  msg = message_of([&] { machine_from_json(j, "m.json"); });
  EXPECT_NE(msg.find("compute[0].peak"), std::string::npos) << msg;
  EXPECT_NE(msg.find("-1"), std::string::npos) << msg;

  j = minimal_machine();
  j["memory"][0]["bandwidth"] = "19.5 TFLOP/s";
  msg = message_of([&] { machine_from_json(j, "m.json"); });
  EXPECT_NE(msg.find("memory[0].bandwidth"), std::string::npos) << msg;

  j = minimal_machine();
  j["memory"][0].erase("level");
  msg = message_of([&] { machine_from_json(j, "m.json"); });
  EXPECT_NE(msg.find("memory[0].level: missing field"), std::string::npos) << msg;

  j = minimal_machine();
  j["schema"] = "something.else";
  EXPECT_FALSE(message_of([&] { machine_from_json(j, "m.json"); }).empty());

  j = minimal_machine();
  j["compute"].push_back(j["compute"][0]);
  msg = message_of([&] { machine_from_json(j, "m.json"); });
  EXPECT_NE(msg.find("appears twice"), std::string::npos) << msg;
}

TEST(Documents, PointsAcceptNumbersObjectsAndArrays) {
  const json j = json::parse(R"({
    "schema": "roofline.points", "version": 1,
    "points": [
      {"name": "a", "work": 2e9, "traffic": 12e9, "time": 0.01, "precision": "fp32"},
      {"name": "b", "work": "1 GFLOP", "traffic": {"L2": 4e9, "HBM": "1 GB"}, "time": "5 ms"},
      {"name": "c", "work": 1e9, "traffic": [{"level": "HBM", "bytes": 1e9}], "time": 1,
       "energy": "1.5 kJ"}
    ]})");
  const PointsDocument d = points_from_json(j, "p.json");
  ASSERT_EQ(d.points.size(), 3u);
  EXPECT_DOUBLE_EQ(d.points[0].intensity().value, 1.0 / 6);
  EXPECT_DOUBLE_EQ(d.points[1].time.value, 0.005);
  EXPECT_EQ(d.points[1].traffic.size(), 2u);
  EXPECT_DOUBLE_EQ(d.points[1].traffic_at("HBM").bytes.value, 1e9);
  // An energy with its unit, as work and time take theirs.
  EXPECT_DOUBLE_EQ(d.points[2].energy, 1500);
  const PointsDocument again = points_from_json(points_to_json(d), "again");
  EXPECT_DOUBLE_EQ(again.points[1].traffic_at("L2").bytes.value, 4e9);
}

// A traffic object's levels keep the file's order where parse_json recorded it (the parsed
// object sorts its keys): the first level given is the one diff quotes I at, as Python's Point
// keeps the order of its mapping. Objects nested elsewhere are not taken for a point's traffic.
TEST(Documents, PointsKeepTheFilesOrderOfTrafficLevels) {
  // An array before "points" whose objects also hold a "traffic" object (at the depth of a
  // point's) is not taken for the points': the points' orders are kept by their index, so
  // d's and e's levels, the same two in the opposite orders, cannot be swapped.
  const std::string text = R"({"schema": "roofline.points", "version": 1,
    "earlier": [{"traffic": {"L3": 1, "L2": 2}}, {"traffic": {"Y": 1, "X": 2}}], "points": [
    {"name": "a", "work": 1e9, "traffic": {"L3": 1e8, "L2": 2e8, "DRAM": 3e8}, "time": 1,
     "run": {"traffic": {"Z": 1, "A": 2}}},
    {"name": "b", "work": 1e9, "traffic": 1e9, "time": 1},
    {"name": "c", "work": 1e9, "traffic": {"HBM": 1e9, "L2": 4e9}, "time": 1},
    {"name": "d", "work": 1e9, "traffic": {"L2": 1e9, "L3": 4e9}, "time": 1},
    {"name": "e", "work": 1e9, "traffic": {"L3": 1e9, "L2": 4e9}, "time": 1}]})";
  JsonKeyOrder order = points_traffic_order();
  const json j = parse_json(text, "p.json", &order);
  ASSERT_EQ(order.keys.size(), 5u);    // one per point
  EXPECT_TRUE(order.keys[1].empty());  // b's traffic is a number
  const PointsDocument d = points_from_json(j, "p.json", &order);
  auto levels = [](const Point& p) {
    std::vector<std::string> l;
    for (const auto& t : p.traffic) l.push_back(t.level);
    return l;
  };
  EXPECT_EQ(levels(d.points[0]), (std::vector<std::string>{"L3", "L2", "DRAM"}));
  EXPECT_EQ(levels(d.points[2]), (std::vector<std::string>{"HBM", "L2"}));
  EXPECT_EQ(levels(d.points[3]), (std::vector<std::string>{"L2", "L3"}));
  EXPECT_EQ(levels(d.points[4]), (std::vector<std::string>{"L3", "L2"}));
  EXPECT_DOUBLE_EQ(d.points[0].traffic[1].bytes.value, 2e8);
  // Without the recorded order: sorted, as the parsed object holds them.
  EXPECT_EQ(levels(points_from_json(j, "p.json").points[0]),
            (std::vector<std::string>{"DRAM", "L2", "L3"}));
}

// A point without a name is named by its place, but never by a name another point has: diff
// and check pair points by name, and "two points are named 'point 2'" named no point the user
// wrote.
// A point of work on no matrix engine keeps its flag in a file (Python's kernel points and
// torch operators carry it): read back, it was judged on the A100's fp16 tensor roof (312
// TFLOP/s) where the program judged it on fp16 vector (78).
TEST(Documents, VectorOnlyTravelsInThePointsDocument) {
  const json j = json::parse(R"({"schema": "roofline.points", "version": 1, "points": [
      {"name": "axpy", "work": 2e9, "traffic": 6e9, "time": 1e-3, "precision": "fp16",
       "vector_only": true},
      {"name": "mm", "work": 2e12, "traffic": 6e9, "time": 1e-2, "precision": "fp16"}]})");
  const PointsDocument d = points_from_json(j, "p.json");
  EXPECT_TRUE(d.points[0].vector_only);
  EXPECT_FALSE(d.points[1].vector_only);
  const MachineDocument a100 = resolve_machine("a100-80gb");
  EXPECT_EQ(diagnose(d.points[0], a100.roofs).compute_roof, "fp16 vector");
  EXPECT_EQ(diagnose(d.points[1], a100.roofs).compute_roof, "fp16 tensor");
  const json back = points_to_json(d);
  EXPECT_EQ(back["points"][0]["vector_only"], true);
  EXPECT_FALSE(back["points"][1].contains("vector_only"));
  json bad = j;
  bad["points"][0]["vector_only"] = "yes";
  EXPECT_NE(message_of([&] { points_from_json(bad, "p.json"); }).find("points[0].vector_only"),
            std::string::npos);
  bad["points"][0].erase("vector_only");
  bad["points"][0]["vector_onl"] = true;  // one letter short: refused, not left unread
  EXPECT_NE(message_of([&] { points_from_json(bad, "p.json"); }).find("did you mean 'vector_only'"),
            std::string::npos);
}

TEST(Documents, UnnamedPointsNeverTakeAnotherPointsName) {
  const json j = json::parse(R"({"schema": "roofline.points", "version": 1, "points": [
      {"name": "a", "work": 1, "traffic": 1, "time": 1},
      {"work": 1, "traffic": 1, "time": 1},
      {"name": "point 2", "work": 1, "traffic": 1, "time": 1},
      {"work": 1, "traffic": 1, "time": 1}]})");
  const PointsDocument d = points_from_json(j, "p.json");
  ASSERT_EQ(d.points.size(), 4u);
  EXPECT_EQ(d.points[1].name, "point 2 (no name)");
  EXPECT_EQ(d.points[2].name, "point 2");
  EXPECT_EQ(d.points[3].name, "point 4");
  // The fallback taken too (by a name as written): the next one free.
  const json k = json::parse(R"j({"schema": "roofline.points", "version": 1, "points": [
      {"name": "point 2", "work": 1, "traffic": 1, "time": 1},
      {"work": 1, "traffic": 1, "time": 1},
      {"name": "point 2 (no name)", "work": 1, "traffic": 1, "time": 1}]})j");
  EXPECT_EQ(points_from_json(k, "k.json").points[1].name, "point 2 (no name 2)");
}

TEST(Documents, BadPointsNameThePoint) {
  json j = json::parse(R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "a", "work": 2e9, "traffic": 12e9, "time": 0}]})");
  std::string msg = message_of([&] { points_from_json(j, "p.json"); });
  EXPECT_NE(msg.find("p.json: points[0].time"), std::string::npos) << msg;
  j["points"][0]["time"] = 1;
  j["points"][0]["work"] = nullptr;
  msg = message_of([&] { points_from_json(j, "p.json"); });
  EXPECT_NE(msg.find("points[0].work"), std::string::npos) << msg;
  // An energy of null is none given (as left out); 0 says to leave it out.
  j["points"][0]["work"] = 1;
  j["points"][0]["energy"] = nullptr;
  EXPECT_EQ(points_from_json(j, "p.json").points[0].energy, 0);
  j["points"][0]["energy"] = 0;
  EXPECT_NE(message_of([&] {
              points_from_json(j, "p.json");
            }).find("points[0].energy: must be > 0 (got 0): leave it out when not measured"),
            std::string::npos);
  // A negative energy is refused by the same range, "> 0" (it read "must be ≥ 0", beside 0
  // refused as "must be > 0"), as a number or a string with its unit.
  for (const json& negative : {json(-1), json("-1 J")}) {
    j["points"][0]["energy"] = negative;
    msg = message_of([&] { points_from_json(j, "p.json"); });
    EXPECT_NE(msg.find("points[0].energy: must be > 0 (got " + negative.dump() + ")"),
              std::string::npos)
        << msg;
    EXPECT_EQ(msg.find("≥"), std::string::npos) << msg;
  }
  // An energy in another dimension (a power, an energy per FLOP) is no energy.
  j["points"][0]["work"] = 1;
  for (const char* bad : {"30 W", "1 pJ/FLOP", "2 kJ/B"}) {
    j["points"][0]["energy"] = bad;
    msg = message_of([&] { points_from_json(j, "p.json"); });
    EXPECT_NE(msg.find("points[0].energy"), std::string::npos) << msg;
    EXPECT_NE(msg.find("an energy (J)"), std::string::npos) << msg;
  }
  j = json::parse(R"({"schema": "roofline.points", "version": 7, "points": []})");
  EXPECT_FALSE(message_of([&] { points_from_json(j, "p.json"); }).empty());
}

TEST(Files, MalformedJsonGivesLineAndColumn) {
  const std::string msg = message_of([] { parse_json("{\n  \"a\": 1,\n  oops\n}", "x.json"); });
  EXPECT_NE(msg.find("x.json: line 3"), std::string::npos) << msg;
  EXPECT_FALSE(message_of([] { parse_json("   ", "e.json"); }).empty());
  // A number beyond double's range is a parse failure of another kind (found by fuzz_points):
  // still an InputError naming the file, never an escaping library exception.
  const std::string huge = message_of([] { parse_json(R"({"work": 4e800})", "h.json"); });
  EXPECT_NE(huge.find("h.json: malformed JSON"), std::string::npos) << huge;
  EXPECT_NE(huge.find("4e800"), std::string::npos) << huge;
}

TEST(Files, ReadErrorsNameThePath) {
  EXPECT_NE(message_of([] { read_text_file("/nonexistent/file.json"); }).find("no such file"),
            std::string::npos);
  EXPECT_NE(message_of([] { read_text_file("/tmp"); }).find("is a directory"), std::string::npos);
}

TEST(Files, AtomicWriteReplacesWholeFileAndLeavesNoTemporary) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("roofline-atomic-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path f = dir / "out.json";
  write_file_atomic(f, "first");
  write_file_atomic(f, "second, longer");
  EXPECT_EQ(read_text_file(f), "second, longer");
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) (void)e, ++n;
  EXPECT_EQ(n, 1u);
  EXPECT_THROW(write_file_atomic(dir / "missing" / "x.json", "x"), InputError);
  EXPECT_THROW(write_file_atomic(dir, "x"), InputError);
  EXPECT_EQ(read_text_file(f), "second, longer");
  fs::remove_all(dir);
}
}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {

RunRecord triad_record() {
  RunRecord r;
  r.kernel = "triad-fp64";
  r.level = "DRAM";
  r.dtype = "fp64";
  r.count.work = Work(2e6);
  r.count.traffic = Bytes(24e6);
  r.traffic = {{"DRAM", Bytes(24e6)}};
  r.times = {2e-3, 1e-3, 3e-3};
  r.sustained = 2e-3;
  r.median = 2e-3;
  r.min = 1e-3;
  r.max = 3e-3;
  r.precision = "fp64";
  return r;
}

// A run's bandwidth-only section that is not what `roofline run` writes is refused, naming the
// file and the field, rather than read as no run at all.
TEST(Documents, ABadBandwidthOnlySectionIsNamed) {
  const auto with = [](const std::string& runs) {
    return json::parse(R"({"schema": "roofline.points", "version": 1, "points": [],
      "run": {"bandwidth_only": )" +
                       runs + "}}");
  };
  const auto refused = [&](const std::string& runs) {
    return message_of([&] { (void)points_from_json(with(runs), "copy.json"); });
  };
  EXPECT_NE(refused("5").find("copy.json: run.bandwidth_only: expected an array of runs"),
            std::string::npos)
      << refused("5");
  EXPECT_NE(refused(R"([{"level": "L1"}])").find("run.bandwidth_only[0].kernel"), std::string::npos)
      << refused(R"([{"level": "L1"}])");
  EXPECT_NE(
      refused(R"([{"kernel": "copy", "bandwidth": -1}])").find("run.bandwidth_only[0].bandwidth"),
      std::string::npos);
  // Without a bandwidth it is named all the same.
  const PointsDocument d = points_from_json(with(R"([{"kernel": "copy"}])"), "copy.json");
  ASSERT_EQ(d.not_points.size(), 1u);
  EXPECT_EQ(d.not_points[0].name, "copy");
  EXPECT_EQ(d.not_points[0].detail,
            "copy does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run, not a point");
}

// The run document is a points document (its points read back as points) whose points carry
// their run and diagnosis or why none, and whose `run` says how the runs were made.
TEST(Documents, RunDocumentIsAPointsDocumentWithItsRuns) {
  RunDocument d;
  d.machine = "m";
  const RunRecord r = triad_record();
  RunDocumentPoint judged{r.to_point(), r, Diagnosis{}, "", "clock above base"};
  judged.diagnosis->attainment = 0.5;
  d.points.push_back(judged);
  d.points.push_back({r.to_point(), r, std::nullopt, "no roof for L1", ""});
  d.threads = 2;
  d.quick = true;
  d.blas = {"Zen", "OpenBLAS 0.3.21", "SkylakeX", true, {{"OPENBLAS_CORETYPE", "Zen"}}};
  d.caches = {{1, 32768, 1, 32768, 0, ""}, {3, 32e6, 8, 4e6, 64e6, "bounded by cpuid"}};
  RunRecord copy = r;
  copy.kernel = "copy-fp64";
  copy.count.work = Work(0);
  d.bandwidth_only = {copy};
  d.mem_available_bytes = 8e9;

  const json j = run_document_to_json(d);
  const PointsDocument back = points_from_json(j, "run.json");
  ASSERT_EQ(back.points.size(), 2u);
  EXPECT_EQ(back.machine, "m");
  EXPECT_EQ(back.points[0].name, "triad-fp64 @DRAM");
  EXPECT_DOUBLE_EQ(back.points[0].time.value, 2e-3);
  // The bandwidth-only run reads back as no point, named as its point would be, with why and
  // its bandwidth: 24 MB / 2 ms = 12 GB/s.
  ASSERT_EQ(back.not_points.size(), 1u);
  EXPECT_EQ(back.not_points[0].name, "copy-fp64 @DRAM");
  EXPECT_EQ(back.not_points[0].reason, "no arithmetic, W = 0");
  EXPECT_EQ(back.not_points[0].detail,
            "copy-fp64 @DRAM does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run (Q/T = "
            "12 GB/s), not a point");
  // Its Q and T as the run gives them, and the one text and entry every command says it with.
  EXPECT_TRUE(back.not_points[0].bandwidth_only);
  ASSERT_EQ(back.not_points[0].traffic.size(), 1u);
  EXPECT_EQ(back.not_points[0].traffic[0].level, "DRAM");
  EXPECT_DOUBLE_EQ(back.not_points[0].traffic[0].bytes.value, 24e6);
  EXPECT_DOUBLE_EQ(back.not_points[0].time, 2e-3);
  EXPECT_EQ(bandwidth_run_note(back.not_points[0], "not drawn", "run.json"),
            "run.json: " + back.not_points[0].detail + ": not drawn");
  EXPECT_EQ(bandwidth_run_note(back.not_points[0], "not judged", "", true),
            "no arithmetic, W = 0: a bandwidth run, not a point: not judged");
  EXPECT_EQ(bandwidth_run_note(back.not_points[0], "", "", true),
            "no arithmetic, W = 0: a bandwidth run, not a point");
  EXPECT_EQ(left_out_to_json(back.not_points[0]),
            json({{"name", "copy-fp64 @DRAM"},
                  {"reason", "no arithmetic, W = 0"},
                  {"detail", back.not_points[0].detail},
                  {"bandwidth_only", true},
                  {"traffic", {{{"level", "DRAM"}, {"bytes", 24e6}}}},
                  {"time", 2e-3}}));
  // A point left out for want of a roof carries none of it.
  EXPECT_EQ(
      left_out_to_json({"k", "no roof for fp16", "machine 'm' has no roof"}),
      json({{"name", "k"}, {"reason", "no roof for fp16"}, {"detail", "machine 'm' has no roof"}}));
  EXPECT_DOUBLE_EQ(j["points"][0]["diagnosis"]["attainment"].get<double>(), 0.5);
  EXPECT_EQ(j["points"][0]["above_roof_cause"], "clock above base");
  EXPECT_FALSE(j["points"][0].contains("diagnosis_unavailable"));
  EXPECT_EQ(j["points"][1]["diagnosis_unavailable"], "no roof for L1");
  EXPECT_FALSE(j["points"][1].contains("diagnosis"));
  EXPECT_FALSE(j["points"][1].contains("above_roof_cause"));
  EXPECT_EQ(j["points"][1]["run"]["kernel"], "triad-fp64");
  // The rate's spread from the times' min 1, median 2 and max 3 (rates 1/3 … 1 around 1/2):
  // median · (max − min) / (min · max) = 2 · 2 / 3.
  EXPECT_DOUBLE_EQ(j["points"][1]["run"]["spread"].get<double>(), 4.0 / 3.0);

  const json& run = j.at("run");
  EXPECT_EQ(run["threads"], 2);
  EXPECT_EQ(run["quick"], true);
  EXPECT_EQ(run["blas"]["corename"], "Zen");
  EXPECT_EQ(run["blas"]["generic"], true);
  EXPECT_EQ(run["blas"]["environment"]["OPENBLAS_CORETYPE"], "Zen");
  ASSERT_EQ(run["caches"].size(), 2u);
  EXPECT_EQ(run["caches"][0]["level"], "L1");
  EXPECT_FALSE(run["caches"][0].contains("note"));  // believed: no reported size, no note
  EXPECT_EQ(run["caches"][1]["level"], "L3");
  EXPECT_DOUBLE_EQ(run["caches"][1]["size_per_core"].get<double>(), 4e6);
  EXPECT_DOUBLE_EQ(run["caches"][1]["reported_size"].get<double>(), 64e6);
  ASSERT_EQ(run["bandwidth_only"].size(), 1u);
  // A bandwidth-only run's bandwidth: compulsory traffic / sustained time = 24 MB / 2 ms.
  EXPECT_DOUBLE_EQ(run["bandwidth_only"][0]["bandwidth"].get<double>(), 12e9);
  EXPECT_DOUBLE_EQ(run["mem_available"].get<double>(), 8e9);
}

// A misspelt field is refused beside the right one ("precison", "Name"), while a longer name
// beside it is another field ("times" beside "time"), and a name of three letters matches only
// in another case ("runs" is no "run", "mins" no "min").
TEST(Documents, AMisspeltFieldIsRefusedAnotherFieldIsNot) {
  const auto doc = [](const std::string& extra, const std::string& run = "") {
    return json::parse(R"({"schema": "roofline.points", "version": 1, "points": [{"name": "a",
      "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp32")" +
                       extra + (run.empty() ? "" : R"(, "run": )" + run) + "}]}");
  };
  const auto refused = [&](const json& j) {
    try {
      (void)points_from_json(j, "p.json");
      (void)point_spreads(j, "p.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refused(doc(R"(, "precison": "fp16")"))
                .find("points[0].precison: unknown field; did you mean 'precision'?"),
            std::string::npos);
  EXPECT_NE(refused(doc(R"(, "Name": "b")")).find("did you mean 'name'?"), std::string::npos);
  EXPECT_EQ(refused(doc(R"(, "times": [1, 1.1])")), "");
  EXPECT_EQ(refused(doc(R"(, "note": "n", "notes": "x")")), "");
  EXPECT_EQ(refused(doc(R"(, "runs": 3)")), "");
  EXPECT_EQ(refused(doc("", R"({"min": 1, "median": 1.1, "max": 1.2, "mins": 2})")), "");
  EXPECT_NE(refused(doc("", R"({"min": 1, "median": 1.1, "max": 1.2, "tiems": [1, 2]})"))
                .find("points[0].run.tiems: unknown field; did you mean 'times'?"),
            std::string::npos);
}

}  // namespace ROOFLINE_UNITY_ID
