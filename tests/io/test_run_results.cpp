#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <functional>
#include <string>

#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"

using namespace roofline;
using nlohmann::json;

namespace ROOFLINE_UNITY_ID {

RunRecord gemm_record() {
  RunRecord r;
  r.kernel = "gemm-blas-fp64";
  r.level = "DRAM";
  r.dtype = "fp64";
  r.variant = "OPENBLAS_CORETYPE=Haswell";
  r.params = {{"m", 512}, {"n", 256}};
  r.working_set_bytes = 6291456;
  r.count.work = Work(268435456);
  r.count.traffic = Bytes(3145728);
  r.count.traffic_write_allocate = Bytes(4194304);
  r.count.work_formula = "2·m·n·k";
  r.count.traffic_formula = "8·(m·k + k·n + 2·m·n)";
  r.traffic = {{"DRAM", Bytes(3145728)}, {"L3", Bytes(9e6)}};
  r.times = {0.004, 0.003, 0.005, 0.0035};
  r.sustained = 0.004;
  r.median = 0.00375;
  r.min = 0.003;
  r.max = 0.005;
  r.q1 = 0.0034;
  r.q3 = 0.0042;
  r.noisy = true;
  r.seconds_per_repetition = 0.016;
  r.calls_per_repetition = 4;
  r.threads = 2;
  r.check = "C[3] = 1.5, expected 2";
  r.passed = false;
  r.precision = "fp64";
  r.note = "OpenBLAS core Haswell";
  return r;
}

RunResultsDocument two_runs() {
  RunResultsDocument d;
  d.blas_corename = "Haswell";
  d.blas_config = "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY";
  d.results.push_back(gemm_record());
  RunRecord plain;
  plain.kernel = "triad-fp64";
  plain.level = "L2";
  plain.count.work = Work(2e6);
  plain.count.traffic = Bytes(24e6);
  plain.traffic = {{"L2", Bytes(24e6)}};
  plain.times = {2e-3};
  plain.sustained = 2e-3;
  plain.median = 2e-3;
  plain.min = 2e-3;
  plain.max = 2e-3;
  d.results.push_back(plain);
  return d;
}

std::string refusal(const json& j) {
  try {
    run_results_from_json(j, "child");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

// What the child run writes, as text, reads back to the same records: every field of each.
TEST(RunResults, RoundTripKeepsEveryField) {
  const RunResultsDocument d = two_runs();
  const std::string text = json_text(run_results_to_json(d), -1);
  const RunResultsDocument back = run_results_from_json(parse_json(text, "child"), "child");
  EXPECT_EQ(back.blas_corename, "Haswell");
  EXPECT_EQ(back.blas_config, "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY");
  ASSERT_EQ(back.results.size(), 2u);
  const RunRecord& g = back.results[0];
  EXPECT_EQ(g.kernel, "gemm-blas-fp64");
  EXPECT_EQ(g.level, "DRAM");
  EXPECT_EQ(g.dtype, "fp64");
  EXPECT_EQ(g.variant, "OPENBLAS_CORETYPE=Haswell");
  EXPECT_EQ(g.params, (std::map<std::string, double>{{"m", 512}, {"n", 256}}));
  EXPECT_EQ(g.working_set_bytes, 6291456);
  EXPECT_EQ(g.count.kernel, "gemm-blas-fp64");
  EXPECT_EQ(g.count.work.value, 268435456);
  EXPECT_EQ(g.count.traffic.value, 3145728);
  EXPECT_EQ(g.count.traffic_write_allocate.value, 4194304);
  EXPECT_EQ(g.count.work_formula, "2·m·n·k");
  EXPECT_EQ(g.count.traffic_formula, "8·(m·k + k·n + 2·m·n)");
  ASSERT_EQ(g.traffic.size(), 2u);
  EXPECT_EQ(g.traffic[0].level, "DRAM");  // the levels' order is kept
  EXPECT_EQ(g.traffic[0].bytes.value, 3145728);
  EXPECT_EQ(g.traffic[1].level, "L3");
  EXPECT_EQ(g.traffic[1].bytes.value, 9e6);
  EXPECT_EQ(g.times, (std::vector<double>{0.004, 0.003, 0.005, 0.0035}));
  EXPECT_EQ(g.sustained, 0.004);
  EXPECT_EQ(g.median, 0.00375);
  EXPECT_EQ(g.min, 0.003);
  EXPECT_EQ(g.max, 0.005);
  EXPECT_EQ(g.q1, 0.0034);
  EXPECT_EQ(g.q3, 0.0042);
  EXPECT_TRUE(g.noisy);
  EXPECT_EQ(g.seconds_per_repetition, 0.016);
  EXPECT_EQ(g.calls_per_repetition, 4);
  EXPECT_EQ(g.threads, 2);
  EXPECT_EQ(g.check, "C[3] = 1.5, expected 2");
  EXPECT_FALSE(g.passed);
  EXPECT_EQ(g.precision, "fp64");
  EXPECT_EQ(g.note, "OpenBLAS core Haswell");
  const RunRecord& t = back.results[1];
  EXPECT_EQ(t.kernel, "triad-fp64");
  EXPECT_EQ(t.level, "L2");
  EXPECT_EQ(t.dtype, "");
  EXPECT_TRUE(t.params.empty());
  EXPECT_EQ(t.count.traffic.value, 24e6);
  EXPECT_EQ(t.count.traffic_write_allocate.value, 0);  // unset, and read back as written
  EXPECT_EQ(t.times, (std::vector<double>{2e-3}));
  EXPECT_EQ(t.calls_per_repetition, 1);
  EXPECT_EQ(t.threads, 1);
  EXPECT_EQ(t.check, "passed");
  EXPECT_TRUE(t.passed);
  EXPECT_FALSE(t.noisy);
}

// The document's form: the core and configuration under "blas", the records in order under
// "results", each as run_record_to_json writes it.
TEST(RunResults, WritesBlasAndTheRecordsInOrder) {
  const RunResultsDocument d = two_runs();
  const json j = run_results_to_json(d);
  EXPECT_EQ(j.size(), 2u);
  EXPECT_EQ(j.at("blas"), json({{"corename", "Haswell"},
                                {"config", "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY"}}));
  ASSERT_EQ(j.at("results").size(), 2u);
  EXPECT_EQ(j["results"][0], run_record_to_json(d.results[0]));
  EXPECT_EQ(j["results"][1], run_record_to_json(d.results[1]));
  EXPECT_EQ(j["results"][1]["kernel"], "triad-fp64");
  const json none = run_results_to_json(RunResultsDocument{});
  EXPECT_EQ(json_text(none, -1), R"j({"blas":{"config":"","corename":""},"results":[]})j");
}

// A document that is not the child's form is refused, naming the field and what it held.
TEST(RunResults, MalformedDocumentIsRefusedNamingTheField) {
  const json good = run_results_to_json(two_runs());
  EXPECT_EQ(refusal(json::array()), "child: expected an object (got [])");
  json j = good;
  j.erase("blas");
  EXPECT_EQ(refusal(j), "child: blas: missing field");
  j = good;
  j["blas"].erase("corename");
  EXPECT_EQ(refusal(j), "child: blas.corename: missing field");
  j = good;
  j["blas"]["corename"] = 7;
  EXPECT_EQ(refusal(j), "child: blas.corename: expected a string (got 7)");
  j = good;
  j.erase("results");
  EXPECT_EQ(refusal(j), "child: results: missing field");
  j = good;
  j["results"] = {{"kernel", "x"}};
  EXPECT_EQ(refusal(j), R"j(child: results: expected an array (got {"kernel":"x"}))j");
  j = good;
  j["results"][1] = "triad";
  EXPECT_EQ(refusal(j), R"j(child: results[1]: expected a run record, an object (got "triad"))j");
  j = good;
  j["results"][1]["median"] = "fast";
  EXPECT_EQ(refusal(j), R"j(child: results[1].median: expected a number (got "fast"))j");
  j = good;
  j["results"][0].erase("work");
  EXPECT_EQ(refusal(j), "child: results[0].work: missing field");
  j = good;
  j["results"][0]["times"][2] = nullptr;
  EXPECT_EQ(refusal(j), "child: results[0].times[2]: expected a number (got null)");
  j = good;
  j["results"][0]["traffic"][1].erase("level");
  EXPECT_EQ(refusal(j), "child: results[0].traffic[1].level: missing field");
  j = good;
  j["results"][0]["params"]["m"] = "512";
  EXPECT_EQ(refusal(j), R"j(child: results[0].params.m: expected a number (got "512"))j");
  j = good;
  j["results"][0]["threads"] = 2.5;
  EXPECT_EQ(refusal(j), "child: results[0].threads: expected an integer (got 2.5)");
  j = good;
  j["results"][0]["passed"] = "yes";
  EXPECT_EQ(refusal(j), R"j(child: results[0].passed: expected true or false (got "yes"))j");
  // A record read alone names its origin the same way.
  json record = good["results"][0];
  record.erase("kernel");
  try {
    run_record_from_json(record, "run.json: points[0].run");
    ADD_FAILURE() << "accepted a record without its kernel";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "run.json: points[0].run: kernel: missing field");
  }
}

}  // namespace ROOFLINE_UNITY_ID
