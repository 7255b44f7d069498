// Bad input for every command, from one table: malformed, truncated and wrong-version documents,
// NaN/inf/negative/zero/huge values, wrong units, unknown names, empty files, directories instead
// of files, unreadable paths. Each case must give one clear message on stderr (naming what was
// wrong), a non-zero exit status, and leave the output file it was given unchanged — no file
// created, none half-written, no temporary left beside it.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

struct Case {
  std::string what;               // the bad input, in words
  std::vector<std::string> args;  // {dir} = the case's folder, {data} = tests/data
  int exit_code;                  // 2 bad input, 3 unavailable, 127 command not found
  std::string message;            // a part of the one-line message on stderr
};

const std::string kA100 = "{data}/core/machine-a100.json";
const std::string kPoints = "{data}/core/points.json";
const std::string kWork = "--work=1e9", kTraffic = "--traffic=1e9", kTime = "--time=0.01";
const std::string kPeak = "--peak=19.5T", kBw = "--bandwidth=2e12";

/// Documents written into each case's folder.
void write_fixtures(const std::filesystem::path& dir) {
  auto put = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
  };
  put("empty.json", "");
  put("blank.json", "  \n\t\n");
  put("truncated.json", R"({"schema": "roofline.machine", "version": 1, "compute": [{"name": "fp)");
  put("wrong-version.json", R"({"schema": "roofline.machine", "version": 99, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e12}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("wrong-schema.json", R"({"schema": "something.else", "version": 1})");
  put("blank-name.json", R"({"schema": "roofline.machine", "version": 1, "name": " ",
    "compute": [{"name": "fp32", "peak": 1e12}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  for (const char* power : {"-400", "0", "\"four hundred\"", "\"400 GB\""})
    put(std::string("power-") + std::to_string(std::strlen(power)) + ".json",
        std::string(R"({"schema": "roofline.machine", "version": 1, "name": "p",
      "info": {"power_w": )") +
            power + R"(},
      "compute": [{"name": "fp16", "precision": "fp16", "peak": 1e14}],
      "memory": [{"level": "HBM", "bandwidth": 1e12}]})");
  put("negative-bandwidth.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e12}], "memory": [{"level": "DRAM", "bandwidth": -5}]})");
  put("zero-peak.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 0}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("huge-number.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e999}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("wrong-unit.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": "2 TB/s"}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("point-analysis.json", R"({"name": "point", "work": 1e9, "time": 1e-3,
    "traffic": [{"level": "DRAM", "bytes": 1e8}], "diagnosis": {"verdict": "far-below"}})");
  put("points-negative-time.json", R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "k", "work": 1e9, "traffic": 1e9, "time": -1}]})");
  put("points-zero-work.json", R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "k", "work": 0, "traffic": 1e9, "time": 1}]})");
  put("points-string-time.json", R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "k", "work": 1e9, "traffic": 1e9, "time": "soon"}]})");
  put("points-energy0.json", R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "k", "work": 1e9, "traffic": 1e9, "time": 1, "energy": 0}]})");
  put("points-fp8.json", R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "k", "work": 1e9, "traffic": 1e9, "time": 1, "precision": "fp8"}]})");
  put("default-missing.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "default_compute": "nonexist",
    "compute": [{"name": "fp32", "peak": 1e12}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("peak-1e308.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e308}], "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("points-twice.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "x", "work": 1e9, "traffic": 1e9, "time": 0.01},
    {"name": "x", "work": 1e9, "traffic": 1e9, "time": 0.02}]})");
  put("points-level-twice.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "time": 1,
     "traffic": [{"level": "HBM", "bytes": 1e9}, {"level": "HBM", "bytes": 2e9}]}]})");
  put("points-spread-overflow.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "x", "work": 2e9, "traffic": 1e9, "time": 0.1, "run": {"times": [1e-320, 1e308]}}]})");
  put("only-compute.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e12}]})");
  put("points-none.json", R"({"schema": "roofline.points", "version": 1, "points": []})");
  put("points-level-l9.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "time": 1, "traffic": [{"level": "L9", "bytes": 1e9}]}]})");
  put("points-two-names-one-roof.json", R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "k", "work": 1e12, "time": 1, "traffic": {"DRAM": 1e9, "HBM3": 1e12}}]})");
  put("config-no-layers.json", R"({"hidden_size": 4096, "num_attention_heads": 32,
    "num_hidden_layers": 0, "intermediate_size": 11008, "vocab_size": 32000})");
  put("ncu.csv", "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\"\n");
  put("dcgm.txt", "#Entity   DRAMA  FP32A\nGPU 0     0.06\n");
  // Two raw-page rows with one ID (two exports joined).
  put("ncu-id-twice.csv",
      "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"byte\",\"nsecond\",\"inst\"\n"
      "\"0\",\"saxpy\",\"1000000\",\"1000\",\"500000\"\n"
      "\"0\",\"saxpy\",\"2000000\",\"1000\",\"500000\"\n");
  put("stats-disorder.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e12,
      "stats": {"repetitions": 5, "median": 1.8e12, "min": 2e12, "max": 1e12}}],
    "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("stats-tiny-median.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e12,
      "stats": {"repetitions": 5, "median": 1e-300, "min": 1e-300, "max": 1e12}}],
    "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("only-sparse.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp16 tensor sparse", "peak": 1e15, "sparse": true}],
    "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("sparse-default.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "default_compute": "fp16 tensor sparse",
    "compute": [{"name": "fp16 tensor", "peak": 5e14},
                {"name": "fp16 tensor sparse", "peak": 1e15, "sparse": true}],
    "memory": [{"level": "DRAM", "bandwidth": 1e11}]})");
  put("points-level-case.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "time": 0.01, "traffic": {"HBM": 1e9, "hbm": 1e8}}]})");
  put("points-dram-hbm.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "time": 0.01, "traffic": {"DRAM": 1e9, "HBM": 1e8}}]})");
  put("points-time-twice.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": 1e9, "time": 0.01, "time": 1}]})");
  put("kind-weird.json", R"({"schema": "roofline.machine", "version": 1, "name": "x",
    "compute": [{"name": "fp32", "peak": 1e12}],
    "memory": [{"level": "DRAM", "kind": "weird", "bandwidth": 1e11}]})");
  put("points-empty-name.json", R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "", "work": 1e9, "traffic": 1e9, "time": 0.01}]})");
  std::filesystem::create_directory(dir / "a-folder");
}

std::vector<Case> cases() {
  return {
      // ---- point ----
      {"zero time", {"point", kWork, kTraffic, "--time=0", kPeak, kBw}, 2, "time must be > 0"},
      {"negative time", {"point", kWork, kTraffic, "--time=-1", kPeak, kBw}, 2, "time"},
      {"NaN work", {"point", "--work=nan", kTraffic, kTime, kPeak, kBw}, 2, "--work"},
      {"infinite time", {"point", kWork, kTraffic, "--time=inf", kPeak, kBw}, 2, "--time"},
      {"huge work", {"point", "--work=1e400", kTraffic, kTime, kPeak, kBw}, 2, "--work"},
      {"zero work", {"point", "--work=0", kTraffic, kTime, kPeak, kBw}, 2, "work"},
      {"a bandwidth given as peak",
       {"point", kWork, kTraffic, kTime, "--peak=2 TB/s", kBw},
       2,
       "--peak"},
      {"a rate given as work",
       {"point", "--work=5 GFLOP/s", kTraffic, kTime, kPeak, kBw},
       2,
       "--work"},
      {"FLOPS/byte as a unit",
       {"point", kWork, kTraffic, kTime, "--peak=19.5 TFLOPS/byte", kBw},
       2,
       "--peak"},
      {"unknown precision",
       {"point", kWork, kTraffic, kTime, "--machine", kA100, "--precision=fp128"},
       2,
       "fp128"},
      {"unknown level",
       {"point", kWork, kTraffic, kTime, "--machine", kA100, "--level=L7"},
       2,
       "L7"},
      {"empty machine file",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/empty.json"},
       2,
       "empty.json: empty file"},
      {"blank machine file",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/blank.json"},
       2,
       "blank.json"},
      {"truncated machine file",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/truncated.json"},
       2,
       "truncated.json: line 1"},
      {"wrong version",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/wrong-version.json"},
       2,
       "version"},
      {"wrong schema",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/wrong-schema.json"},
       2,
       "schema"},
      {"point --json's output given as a points document",
       {"plot", "a100-80gb", "{dir}/point-analysis.json", "-o", "{out}.svg"},
       2,
       "schema: missing field: this is one analysed point (`roofline point --json`), not a "
       "\"roofline.points\" document"},
      {"negative bandwidth",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/negative-bandwidth.json"},
       2,
       "bandwidth"},
      {"zero peak",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/zero-peak.json"},
       2,
       "peak"},
      {"number beyond double",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/huge-number.json"},
       2,
       "huge-number.json"},
      {"wrong unit in a document",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/wrong-unit.json"},
       2,
       "peak"},
      {"a folder as machine",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/a-folder"},
       2,
       "is a directory"},
      {"unreadable path",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/empty.json/inside.json"},
       2,
       "inside.json"},
      {"unknown catalogue name",
       {"point", kWork, kTraffic, kTime, "--hw", "a100-80gbx"},
       2,
       "a100-80gbx"},
      {"negative time in points",
       {"point", "--points", "{dir}/points-negative-time.json", "--machine", kA100},
       2,
       "time"},
      {"zero work in points",
       {"point", "--points", "{dir}/points-zero-work.json", "--machine", kA100},
       2,
       "work"},
      {"text for a time",
       {"point", "--points", "{dir}/points-string-time.json", "--machine", kA100},
       2,
       "time"},
      {"an energy of 0 J (it would read as not measured)",
       {"point", "--points", "{dir}/points-energy0.json", "--machine", kA100},
       2,
       "energy: expected joules, a number > 0 (leave it out when not measured)"},
      {"a precision the machine lacks",
       {"point", "--points", "{dir}/points-fp8.json", "--machine", kA100},
       2,
       "fp8"},
      {"no points to place",
       {"point", "--points", "{dir}/points-none.json", "--machine", kA100},
       2,
       "points-none.json: no points to place"},
      {"no points to check",
       {"check", "{dir}/points-none.json", "--machine", kA100, "--min-attainment", "0.5", "-o",
        "{out}"},
       2,
       "points-none.json: no points: nothing to check"},
      {"a gate whose run spread is no number (1e-320 s beside 1e308 s)",
       {"check", "{dir}/points-spread-overflow.json", "--baseline",
        "{dir}/points-spread-overflow.json", "-o", "{out}"},
       2,
       "run.times: the spread of the rates 1/t is not a finite number"},
      {"a point with one level's traffic given twice",
       {"point", "--points", "{dir}/points-level-twice.json", "--machine", kA100},
       2,
       "traffic at level 'HBM' is given twice"},
      {"a point name with a line break",
       {"point", "--name", "k\nroofline check: passed", "-W", "1", "-Q", "1", "-T", "1",
        "--machine", kA100},
       2,
       "point name 'k\\u000aroofline check: passed' must be one line"},
      {"a default roof that names no roof",
       {"point", "-W", "1", "-Q", "1", "-T", "1", "--machine", "{dir}/default-missing.json"},
       2,
       "default_compute 'nonexist' names no compute roof"},
      {"touching threshold NaN",
       {"point", "-W", "1", "-Q", "1", "-T", "1", "--machine", kA100, "--touching", "nan"},
       2,
       "--touching: must be a number from 0.01 to 1 (got nan)"},
      {"diff of points named twice",
       {"diff", "{dir}/points-twice.json", "{dir}/points-twice.json", "-o", "{out}"},
       2,
       "two points are named 'x'; diff pairs points by name"},
      {"a chart beyond a double's range",
       {"plot", "{dir}/peak-1e308.json", "-o", "{dir}/chart.svg"},
       2,
       "chart: an axis would run"},
      // ---- energy ----
      {"energy costs whose peak per joule overflows (a chart would never end)",
       {"energy", "--peak", "1e12", "--bandwidth", "1e11", "--eps-flop", "1e-320", "--eps-mem",
        "1e-320", "--report", "{dir}/energy.svg"},
       2,
       "peak work per joule"},
      {"energy costs whose balance overflows",
       {"energy", "--peak", "1e12", "--bandwidth", "1e11", "--eps-flop", "1e-10", "--eps-mem",
        "1e300", "-o", "{out}"},
       2,
       "energy balance eps_mem/eps_flop is inf"},
      {"energy at an intensity where the roof is no number",
       {"energy", "--peak", "1e12", "--bandwidth", "1e11", "--eps-flop", "1e-10", "--eps-mem",
        "5e-10", "--intensity", "1e-320", "-o", "{out}"},
       2,
       "--intensity 1e-320"},
      // ---- kernel ----
      {"a stencil without an interior point",
       {"kernel", "stencil3d", "--nx=1", "--ny=1", "--nz=1"},
       2,
       "nx must be a whole number ≥ 3"},
      {"a fractional size", {"kernel", "axpy", "--n=1.5"}, 2, "n must be a whole number ≥ 1"},
      {"a roof choice that names no roof",
       {"plot", "--hw", "a100-80gb", "--roofs", ",", "-o", "{out}"},
       2,
       "names no roof (leave --roofs out for the default roofs)"},
      {"a negative cache",
       {"kernel", "gemm", "--m=64", "--n=64", "--k=64", "--cache=-1"},
       2,
       "gemm: cache must be a whole number ≥ 1 (got -1)"},
      {"a cache of 0 (not read as none given)",
       {"kernel", "gemm", "--m=64", "--n=64", "--k=64", "--cache=0"},
       2,
       "gemm: cache must be a whole number ≥ 1 (got 0)"},
      {"a column count of 0 (not read as the rows)",
       {"kernel", "spmv", "--rows=10", "--nnz=20", "--cols=0"},
       2,
       "spmv: cols must be a whole number ≥ 1 (got 0)"},
      {"a negative column count",
       {"kernel", "spmv", "--rows=10", "--nnz=20", "--cols=-5"},
       2,
       "spmv: cols must be a whole number ≥ 1 (got -5)"},
      {"more non-zeros than the matrix holds",
       {"kernel", "spmv", "--rows=10", "--nnz=1000"},
       2,
       "spmv: nnz 1000 exceeds rows × cols = 100"},
      {"unknown kernel", {"kernel", "nosuch", "--n=10"}, 2, "unknown kernel 'nosuch'"},
      {"negative size", {"kernel", "saxpy", "--n=-5"}, 2, "n must be"},
      {"zero size", {"kernel", "saxpy", "--n=0"}, 2, "n must be"},
      {"NaN size", {"kernel", "saxpy", "--n=nan"}, 2, "--n"},
      {"unknown dtype", {"kernel", "saxpy", "--n=10", "--dtype=fp7"}, 2, "fp7"},
      // ---- plot ----
      {"empty file to plot", {"plot", "{dir}/empty.json", "-o", "{out}"}, 2, "empty file"},
      {"a workload line where the roofs underflow",
       {"plot", "h100-sxm", "--at=1e-320", "--terminal"},
       2,
       "a roof, point or intensity lies beyond what a chart can draw"},
      {"a workload line at zero: the option named",
       {"plot", "h100-sxm", "--at=0", "-o", "{out}"},
       2,
       "--at: the workload intensity must be > 0 (got '0')"},
      {"a folder to plot", {"plot", "{dir}/a-folder", "-o", "{out}"}, 2, "is a directory"},
      {"points to plot that do not parse",
       {"plot", kA100, "{dir}/truncated.json", "-o", "{out}"},
       2,
       "truncated.json"},
      {"unknown chart format", {"plot", kA100, "-o", "{dir}/chart.pdf"}, 2, "'.pdf'"},
      {"chart into a missing folder",
       {"plot", kA100, "-o", "{dir}/no/such/chart.svg"},
       2,
       "does not exist"},
      // ---- hw ----
      {"unknown device", {"hw", "show", "nosuch-gpu"}, 2, "nosuch-gpu"},
      {"compare at zero intensity",
       {"hw", "compare", "a100-80gb", "h100-sxm", "--at=0"},
       2,
       "--at"},
      {"compare at NaN", {"hw", "compare", "a100-80gb", "h100-sxm", "--at=nan"}, 2, "--at"},
      {"compare with one device", {"hw", "compare", "a100-80gb"}, 2, "two"},
      {"compare at no points (with a chart: its roofs are the first point's)",
       {"hw", "compare", "a100-80gb", "h100-sxm", "--point", "{dir}/points-none.json", "--report",
        "{dir}/chart.svg"},
       2,
       "points-none.json has no points to compare"},
      {"compare a point with two byte counts at one roof (the first was read, as point refuses)",
       {"hw", "compare", "h100-sxm", "a100-80gb", "--point",
        "{dir}/points-two-names-one-roof.json"},
       2,
       "points-two-names-one-roof.json: point 'k': traffic at 'DRAM' and at 'HBM3' is both at the "
       "'HBM3' roof of machine 'h100-sxm'"},
      {"compare a point at a level no machine has: the file and point named",
       {"hw", "compare", "h100-sxm", "a100-80gb", "--point", "{dir}/points-level-l9.json"},
       2,
       "points-level-l9.json: point 'k': machine 'h100-sxm' has no memory roof for level 'L9'"},
      {"check names the point once (it said point 'k': point 'k')",
       {"check", "{dir}/points-two-names-one-roof.json", "--hw", "h100-sxm", "--min-attainment",
        "0.5"},
       2,
       "points-two-names-one-roof.json: point 'k': traffic at"},
      {"an extra catalogue folder that does not exist",
       {"hw", "list", "--hw-dir", "{dir}/no-such-folder", "-o", "{out}"},
       2,
       "no-such-folder: no such folder"},
      {"a ridge of a machine without memory roofs",
       {"hw", "ridges", "--add", "{dir}/only-compute.json", "-o", "{out}"},
       2,
       "the machine has no memory roof, so it has no ridge"},
      // ---- llm ----
      {"unknown model", {"llm", "--model=nosuch", "--hw=a100-80gb"}, 2, "nosuch"},
      {"zero batch", {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--batch=0"}, 2, "--batch"},
      {"negative context",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--context=-5"},
       2,
       "--context"},
      {"empty model config",
       {"llm", "--model={dir}/empty.json", "--hw=a100-80gb"},
       2,
       "empty.json"},
      {"a model with zero layers",
       {"llm", "--model={dir}/config-no-layers.json", "--hw=a100-80gb"},
       2,
       "num_hidden_layers"},
      {"unknown weight dtype",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--wdtype=fp5"},
       2,
       "fp5"},
      {"serving concurrency past the simulation's bound",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--concurrency=1e5"},
       2,
       "--concurrency: must be a whole number from 1 to 10000"},
      {"serving more tokens than are simulated",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--concurrency=8", "--num-requests=1e12"},
       2,
       "at most 1e+07 tokens are simulated"},
      {"a request longer than is costed",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--output-tokens=9999999"},
       2,
       "--output-tokens: must be a whole number from 1 to 1000000"},
      {"a zero chunk (0 is not 'not given')",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--output-tokens=10", "--chunk=0"},
       2,
       "--chunk: must be a finite number > 0"},
      {"a NaN concurrency",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--concurrency=nan"},
       2,
       "--concurrency: must be a finite number > 0 (got nan)"},
      {"an interconnect so slow that a step's time is no number",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--tp=8", "--interconnect-bandwidth=1e-320",
        "-o", "{out}"},
       2,
       "the roofs or options are beyond what can be computed"},
      {"data-parallel replicas past a double",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--dp=1e308", "--json"},
       2,
       "/data_parallel/tokens_per_s would be inf"},
      {"machines compared where a token has no cost",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb,h100-sxm", "--tp=8",
        "--interconnect-bandwidth=1e-320"},
       2,
       "so a token has no cost"},
      {"a sweep too large to compute (it ran out of memory: an internal error)",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--batch=1..1000000000",
        "--context=" +
            [] {
              std::string list = "1";
              for (int i = 2; i <= 4000; ++i) list += "," + std::to_string(i);
              return list;
            }()},
       2,
       "--batch × --context: 31 × 4000 = 124000 rows; at most 100000 are computed"},
      {"a serving run whose steps overflow (it said 'internal error: no work left')",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--tp=2", "--interconnect-bandwidth=1e-300",
        "--concurrency=2", "--output-tokens=2"},
       2,
       "llm: a serving step of llama-2-7b takes inf s, not a finite time"},
      {"a custom KV dtype of 1e300 bytes (an error naming other options and a JSON path)",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--kvdtype=custom:foo:1e300"},
       2,
       "--kvdtype custom:foo:1e300: a custom type's BYTES must be from 0.125 (one bit) to 64 per "
       "element"},
      {"a custom weight dtype of 1e-300 bytes (accepted before)",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--wdtype=custom:foo:1e-300"},
       2,
       "--wdtype custom:foo:1e-300: a custom type's BYTES must be from 0.125 (one bit) to 64"},
      {"a constant power without the costs it belongs to",
       {"energy", "--hw=a100-80gb", "--pi0=-5"},
       2,
       "--pi0 goes with --eps-flop and --eps-mem"},
      {"a negative constant power with the costs",
       {"energy", "--hw=a100-80gb", "--eps-flop=1e-10", "--eps-mem=5e-10", "--pi0=-5"},
       2,
       "(--eps-flop, --eps-mem, --pi0)"},
      // ---- import ----
      {"empty ncu export", {"import", "ncu", "{dir}/empty.json"}, 2, "empty.json"},
      {"truncated ncu export", {"import", "ncu", "{dir}/ncu.csv"}, 2, "ncu.csv: line"},
      {"truncated likwid export",
       {"import", "likwid", "{data}/import/likwid-truncated.csv"},
       2,
       "likwid-truncated.csv: line"},
      {"dcgm log without a machine", {"import", "dcgm", "{dir}/dcgm.txt"}, 2, "--hw"},
      {"a dcgm log on a peak of the command line, which names no pipe's precision",
       {"import", "dcgm", "{data}/import/real/dcgm-t4-triton-bert.txt", "--peak", "100T",
        "--bandwidth", "1T"},
       2,
       "has no matching roof (a peak given on the command line has the precision --precision "
       "names: fp64, fp32 or fp16 for a CUDA-core pipe; the tensor pipe needs a machine with a "
       "tensor roof, --hw)"},
      {"an ncu kernel ID given twice",
       {"import", "ncu", "{dir}/ncu-id-twice.csv"},
       2,
       "ncu-id-twice.csv: kernel 'saxpy' (ID 0, line 4): the kernel at line 3 has this ID too"},
      {"one likwid run given twice",
       {"import", "likwid", "{data}/import/likwid-flops-dp.csv",
        "{data}/import/likwid-flops-dp.csv"},
       2,
       "likwid-flops-dp.csv: given twice"},
      {"a roof's samples out of order",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/stats-disorder.json"},
       2,
       "stats-disorder.json: compute[0].stats.min: the slowest sample (2e+12) cannot exceed the "
       "median (1.8e+12)"},
      {"a roof's spread beyond a double",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/stats-tiny-median.json"},
       2,
       "compute[0].stats.median: the spread (max − min) / median is not a finite number"},
      {"a machine with only a sparse compute roof",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/only-sparse.json"},
       2,
       "machine 'x' has only sparse compute roofs (fp16 tensor sparse"},
      {"a sparse roof as the default",
       {"plot", "{dir}/sparse-default.json", "-o", "{out}"},
       2,
       "default_compute 'fp16 tensor sparse' is a sparse roof, which is never a default"},
      {"one level twice in two cases",
       {"point", "--points={dir}/points-level-case.json", "--machine", kA100},
       2,
       "point 'k': traffic at level 'hbm' is given twice"},
      {"DRAM and HBM, one roof of an HBM machine",
       {"point", "--points={dir}/points-dram-hbm.json", "--machine", kA100},
       2,
       "points-dram-hbm.json: point 'k': traffic at 'DRAM' and at 'HBM' is both at the 'HBM' "
       "roof of machine"},
      {"-Q at the default level and --traffic-at that level",
       {"point", kWork, kTraffic, kTime, "--machine", kA100, "--traffic-at", "HBM=1e8"},
       2,
       "point 'point': traffic at no level (the default) and at 'HBM' is both at the 'HBM' roof"},
      {"machines in other units compared",
       {"hw", "compare", "{data}/../../examples/custom/db/machine.json", "h100-sxm", "--at", "1"},
       2,
       "the roofs are in different units: tuple/disk read (db-server-example) against "
       "FLOP/byte (h100-sxm)"},
      {"a hexadecimal integer option (CLI11 read 0x2 as 2)",
       {"llm", "--model=llama-2-7b", "--hw=h100-sxm", "--tp=0x2"},
       2,
       "--tp: not a decimal number: 0x2"},
      {"an octal integer option (CLI11 read 010 as 8)",
       {"llm", "--model=llama-2-7b", "--hw=h100-sxm", "--tp=010"},
       2,
       "--tp: not a decimal number: 010"},
      {"a hexadecimal float option (CLI11 read 0x1p-1 as 0.5)",
       {"point", kWork, kTraffic, kTime, "--machine", kA100, "--touching=0x1p-1"},
       2,
       "--touching: not a decimal number: 0x1p-1"},
      {"a hexadecimal batch (strtod read 0x10 as 16)",
       {"llm", "--model=llama-2-7b", "--hw=h100-sxm", "--batch=0x10"},
       2,
       "--batch: '0x10' is not a whole number from 1 to 1e9"},
      {"a hexadecimal custom dtype size",
       {"llm", "--model=llama-2-7b", "--hw=h100-sxm", "--wdtype=custom:x:0x10"},
       2,
       "a custom type is written custom:NAME:BYTES[:int], BYTES > 0"},
      {"a negative board power (ignored before, the cost said 'not in the catalogue')",
       {"llm", "--model=llama-2-7b", "--hw={dir}/power-4.json", "--cost"},
       2,
       "power-4.json: info: power_w: must be > 0 (got -400)"},
      {"a zero board power", {"energy", "--hw={dir}/power-1.json"}, 2, "power_w: must be > 0"},
      {"a board power in words",
       {"llm", "--model=llama-2-7b", "--hw={dir}/power-14.json", "--cost"},
       2,
       "power_w: not a number (got 'four hundred'; expected a power (W))"},
      {"a board power in bytes",
       {"llm", "--model=llama-2-7b", "--hw={dir}/power-8.json", "--cost"},
       2,
       "power_w: unit 'B' is an amount of data (byte) (got '400 GB'; expected a power (W))"},
      {"an empty dtype (read as not given)",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--wdtype", ""},
       2,
       "--wdtype: an empty value (leave the option out for its default)"},
      {"an empty attainment",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--attainment", ""},
       2,
       "--attainment: an empty value"},
      {"one machine compared with itself through an alias",
       {"llm", "--model=llama-2-7b", "--hw=a100,a100-80gb"},
       2,
       "llm --hw: 'a100-80gb' and 'a100' are one machine ('a100-80gb')"},
      {"a latent-attention form for a model without it (ignored before)",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--mla=absorbed"},
       2,
       "--mla absorbed: llama-2-7b has no multi-head latent attention"},
      {"a custom dtype named as a built-in one (shown as fp16 whatever its size)",
       {"llm", "--model=llama-2-7b", "--hw=a100-80gb", "--kvdtype=custom:fp16:2"},
       2,
       "'fp16' is a built-in type's name; give the custom type its own"},
      {"a machine of a blank name",
       {"hw", "show", "{dir}/blank-name.json"},
       2,
       "name: an empty machine name"},
      {"llm on a machine counting tuples (read as FLOP/s before)",
       {"llm", "--model=llama-2-7b", "--hw={data}/../../examples/custom/db/machine.json"},
       2,
       "machine 'db-server-example' counts in tuple and disk read: llm needs roofs in FLOP/s and "
       "byte/s"},
      {"machines in other units on one chart",
       {"plot", "h100-sxm", "--compare", "{data}/../../examples/custom/db/machine.json", "-o",
        "{out}"},
       2,
       "the roofs are in different units"},
      {"a FLOP unit on a machine counting tuples",
       {"point", "--work=1 GFLOP", "--traffic=1e6", "--time=1", "--machine",
        "{data}/../../examples/custom/db/machine.json"},
       2,
       "--work: '1 GFLOP' names the unit 'FLOP', but the machine counts in tuple and disk read"},
      {"a key given twice in one object",
       {"point", "--points={dir}/points-time-twice.json", "--hw=h100-sxm"},
       2,
       "points-time-twice.json: the key 'time' is given twice in one object (under 'points')"},
      {"a hexadecimal number",
       {"point", "--work=0x10", kTraffic, kTime, kPeak, kBw},
       2,
       "--work: a hexadecimal number (got '0x10'"},
      {"a chart into a folder",
       {"plot", "h100-sxm", "-o", "{dir}/a-folder/"},
       2,
       "a-folder/: is a directory"},
      {"an unknown command", {"nosuch"}, 2, "unknown command 'nosuch' (commands: measure"},
      {"an unknown command asked for its help (the general help and exit 0 said it existed)",
       {"tour", "--help"},
       2,
       "unknown command 'tour' (commands: measure"},
      {"a device index beyond any machine",
       {"measure", "--cuda-device=-1"},
       2,
       "--cuda-device: Value -1 not in range 0 to 4095"},
      {"one catalogue machine twice by an alias",
       {"hw", "compare", "h100-sxm", "h100", "--at", "1"},
       2,
       "hw compare: 'h100' and 'h100-sxm' are one machine ('h100-sxm')"},
      {"a memory roof of an unknown kind",
       {"point", kWork, kTraffic, kTime, "--machine", "{dir}/kind-weird.json"},
       2,
       "kind-weird.json: memory[0].kind: expected cache, memory, interconnect, network, storage or "
       "custom (got 'weird')"},
      {"a machine added to the ridge table that has no roof of its precisions",
       {"hw", "ridges", "--add", "{data}/../../examples/custom/db/machine.json", "-o", "{out}"},
       2,
       "db/machine.json: no dense compute roof of fp64, "},
      {"a point with an empty name",
       {"point", "--points={dir}/points-empty-name.json", "--hw=h100-sxm"},
       2,
       "a point has an empty name"},
      {"a folder to import", {"import", "likwid", "{dir}/a-folder"}, 2, "is a directory"},
      {"a point at a level the machine has not, and at no other (point names the file)",
       {"point", "--points={dir}/points-level-l9.json", "--hw=h100-sxm"},
       2,
       "points-level-l9.json: none of its 1 points can be judged on machine 'h100-sxm' (no roof "
       "for their precision or levels: see the warnings)"},
      {"a point at a level the machine has not (check names the file)",
       {"check", "{dir}/points-level-l9.json", "--hw=h100-sxm", "--min-attainment=0.1"},
       2,
       "points-level-l9.json: point 'k': machine 'h100-sxm' has no memory roof for level 'L9'"},
      // Roofs given as --peak/--bandwidth --precision P judge P only.
      {"a precision the machine has no roof for (point names the file)",
       {"point", "--points={dir}/points-fp8.json", "--peak=1T", "--bandwidth=1T",
        "--precision=fp64"},
       2,
       "points-fp8.json: none of its 1 points can be judged on machine 'given roofs'"},
      {"a dcgm sample interval past a day",
       {"import", "dcgm", "{data}/import/real/dcgm-t4-triton-bert.txt", "--hw=l4",
        "--interval=1e308"},
       2,
       "--interval: must be a number from 0.001 to 86400 (got 1e308)"},
      // ---- profile ----
      {"a program that does not exist",
       {"profile", "--", "{dir}/no-such-program"},
       127,
       "no-such-program"},
      // W, Q and the machine are checked before the program runs (it would exit 127 here).
      {"profile: a negative Q",
       {"profile", "-W", "1e9", "-Q", "-5", "--", "{dir}/no-such-program"},
       2,
       "--traffic: must be > 0 (got '-5')"},
      {"profile: a Q of zero",
       {"profile", "-W", "1e9", "-Q", "0", "--", "{dir}/no-such-program"},
       2,
       "--traffic: must be > 0 (got '0')"},
      {"profile: a negative W",
       {"profile", "-W", "-1", "--", "{dir}/no-such-program"},
       2,
       "--work: must be > 0 (got '-1')"},
      {"two machines for one (--hw is --machine): CLI11 said 'At Most 1 required'",
       {"energy", "--hw", "a100-80gb", "--machine", "h100-sxm"},
       2,
       "--machine: given 2 times; give it once (--hw and --machine are one option: one machine)"},
      {"an option given twice",
       {"point", "-W", "1e9", "-W", "2e9", "-Q", "1e8", "-T", "1", "--peak", "1T", "--bandwidth",
        "1G"},
       2,
       "--work: given 2 times; give it once"},
      {"profile: an unknown machine",
       {"profile", "--hw", "no-such-machine-xyz", "--", "{dir}/no-such-program"},
       2,
       "no-such-machine-xyz"},
      {"profile: the recording on standard output beside the report (JSON and text mixed)",
       {"profile", "--save-counters", "-", "--", "{dir}/no-such-program"},
       2,
       "--save-counters -: standard output already carries the main output (no -o given)"},
      // ---- measure and run (refused before anything is measured) ----
      {"too many threads", {"measure", "--threads=4096", "-o", "{out}"}, 2, "--threads"},
      {"no threads (0 read as 'every core' before)",
       {"measure", "--threads=0", "-o", "{out}"},
       2,
       "--threads: Value 0 not in range 1 to 4096"},
      {"an empty precision between two commas (dropped before)",
       {"measure", "--precisions=fp64,,fp32", "-o", "{out}"},
       2,
       "--precisions: an empty name in the list 'fp64,,fp32'"},
      {"an empty level after the last comma",
       {"measure", "--levels=L1,", "-o", "{out}"},
       2,
       "--levels: an empty name in the list 'L1,'"},
      {"an empty level list (it would mean the defaults)",
       {"run", "--levels", "", "-o", "{out}"},
       2,
       "an empty name in the list ''"},
      {"an empty level list for measure",
       {"measure", "--levels", "", "-o", "{out}"},
       2,
       "an empty name in the list ''"},
      {"unknown measure precision",
       {"measure", "--precisions=fp128", "-o", "{out}"},
       2,
       "--precisions: unknown data type 'fp128'"},
      {"unknown measure level", {"measure", "--levels=L9", "-o", "{out}"}, 2, "L9"},
      {"measure into a folder", {"measure", "-o", "{dir}/a-folder"}, 2, "is a directory"},
      {"measure report of unknown format",
       {"measure", "-o", "{out}", "--report", "{dir}/r.docx"},
       2,
       "'.docx'"},
      {"unknown suite kernel", {"run", "nosuch", "-o", "{out}"}, 2, "unknown kernel 'nosuch'"},
      {"zero working set", {"run", "triad", "--size=0", "-o", "{out}"}, 2, "--size"},
      {"an empty size (read as the level sizes before)",
       {"run", "triad", "--size", "", "-o", "{out}"},
       2,
       "--size: an empty value (leave the option out for its default)"},
      {"an empty machine (read as 'measure this one' before)",
       {"run", "triad", "--machine", "", "-o", "{out}"},
       2,
       "--machine: an empty value"},
      {"more threads than CPUs with a machine given (ran two to a CPU before)",
       {"run", "triad", "--threads=4096", "--machine", "h100-sxm", "-o", "{out}"},
       2,
       "--threads: must be between 1 and "},
      {"suite report of unknown format",
       {"run", "triad", "--report", "{dir}/r.docx", "-o", "{out}"},
       2,
       "'.docx'"},
  };
}

std::string expand(std::string s, const std::string& dir) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{dir}", dir},
                                   {"{data}", ROOFLINE_TEST_DATA},
                                   {"{out}", dir + "/out.json"}}) {
    for (size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), value);
  }
  return s;
}

TEST(CliBadInputs, EveryCommandRefusesClearlyAndWritesNothing) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.what);
    TempDir d;
    write_fixtures(d.path);
    // The output a command was told to write already exists: it must stay as it was.
    const std::string out = d.path.string() + "/out.json";
    std::ofstream(out) << "previous\n";
    size_t files_before = 0;
    for (const auto& e : std::filesystem::directory_iterator(d.path)) (void)e, ++files_before;

    std::vector<std::string> args;
    for (const auto& a : c.args) args.push_back(expand(a, d.path.string()));
    const CliResult r = run_cli(args);

    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr: " << r.err;
    // One clear message: the error line comes first and says it is an error.
    EXPECT_TRUE(r.err.rfind("roofline: error: ", 0) == 0 ||
                r.err.find("roofline: error: ") != std::string::npos)
        << r.err;
    EXPECT_EQ(slurp(out), "previous\n");
    size_t files_after = 0;
    for (const auto& e : std::filesystem::directory_iterator(d.path)) (void)e, ++files_after;
    EXPECT_EQ(files_after, files_before) << "a file was created or left behind";
  }
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
