// The host side of the GPU check, without a GPU: grids from occupancy, the clock under load,
// finding the toolkit's libraries, the record file a run writes as it goes, and the acceptance
// check (upper bounds at the sustained clock, H200 targets, the cuBLAS peer, the run's time).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include "unity_id.hpp"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "measure/cuda/check.hpp"
#include "measure/cuda/internal.hpp"
#include "roofline/error.hpp"

using namespace roofline;
using namespace roofline::cuda;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {

// An H200 (and H100 SXM, A100) SM as cudaGetDeviceProperties reports it: 2048 threads, 32
// blocks, 65536 registers, 228 KiB of shared memory, 1 KiB reserved per block.
detail::OccupancyInput sm90(int block, int registers, double shared = 0) {
  detail::OccupancyInput in;
  in.max_threads_per_sm = 2048;
  in.max_blocks_per_sm = 32;
  in.registers_per_sm = 65536;
  in.shared_per_sm_bytes = 233472;
  in.reserved_shared_per_block_bytes = 1024;
  in.block_threads = block;
  in.registers_per_thread = registers;
  in.shared_per_block_bytes = shared;
  return in;
}

fs::path temp_file(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("roofline_cuda_check_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The records of an H200 run that meets every target: theory at the clock each unit ran.
std::vector<nlohmann::json> h200_run() {
  using J = nlohmann::json;
  return {
      J{{"record", "start"}},
      J{{"record", "device"},
        {"device", {{"name", "NVIDIA H200"}}},
        {"theory",
         J::array({J{{"name", "fp8-e4m3 tensor"}, {"unit", "FLOP/s"}, {"rate", 2.14e15}}})}},
      J{{"record", "roof"}, {"name", "L2"}, {"unit", "B/s"}, {"rate", 10.2e12}},
      J{{"record", "roof"},
        {"name", "HBM"},
        {"unit", "B/s"},
        {"rate", 4.45e12},
        {"theory", 4.917e12}},
      J{{"record", "roof"},
        {"name", "fp64 cuda cores"},
        {"unit", "FLOP/s"},
        {"rate", 32.9e12},
        {"theory", 33.45e12},
        {"clock", {{"sm_clock_hz", 1.98e9}, {"samples", 20}, {"load", "fp64 FMA"}}}},
      J{{"record", "roof"},
        {"name", "fp32 cuda cores"},
        {"unit", "FLOP/s"},
        {"rate", 65.0e12},
        {"theory", 66.9e12}},
      J{{"record", "roof"},
        {"name", "fp64 tensor"},
        {"unit", "FLOP/s"},
        {"rate", 59e12},
        {"theory", 66.9e12}},
      J{{"record", "roof"},
        {"name", "bf16 tensor"},
        {"unit", "FLOP/s"},
        {"rate", 800e12},
        {"theory", 989.4e12},
        {"clock", {{"sm_clock_hz", 1.83e9}, {"samples", 25}, {"load", "bf16 GEMM 8192³"}}}},
      J{{"record", "peer"},
        {"roof", "bf16 tensor"},
        {"peer", "cuBLAS cublasGemmEx, 8192³"},
        {"rate", 805e12}},
      J{{"record", "unavailable"}, {"what", "fp8-e4m3 tensor: cuBLASLt offers no algorithm"}},
      J{{"record", "done"}, {"seconds", 48.5}},
  };
}

nlohmann::json* find_roof(std::vector<nlohmann::json>& records, const std::string& name) {
  for (auto& r : records)
    if (r.value("record", "") == "roof" && r.value("name", "") == name) return &r;
  return nullptr;
}

bool mentions(const std::vector<std::string>& lines, const std::string& what) {
  for (const std::string& l : lines)
    if (l.find(what) != std::string::npos) return true;
  return false;
}

TEST(CudaOccupancy, BlocksPerSmAsTheCalculatorCountsThem) {
  // Registers per warp round up to 256; each of the 4 sub-partitions holds 16384.
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 20)), 8);  // thread limit: 2048 / 256
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 32)), 8);  // 1024/warp: 16 warps/quarter
  // The read kernel's 38 registers: 1216 → 1280 per warp, 12 warps per quarter, 48 per SM: 6
  // blocks of 8 warps, not the 8 a 2048/256 grid assumes.
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 38)), 6);
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 64)), 4);
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 255)), 1);  // 8192/warp: 2 per quarter
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 256)), 0);  // over 255 per thread
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(1024, 64)), 1);
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(64, 16)), 32);  // the 32-block limit
  // Shared memory: (16 KiB + 1 KiB reserved) fits 13 times in 228 KiB, the threads 8 times.
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 31, 16384)), 8);
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 31, 100 * 1024)), 2);
  EXPECT_EQ(detail::occupancy_blocks_per_sm(sm90(256, 31, 300 * 1024)), 0);
  EXPECT_THROW(detail::occupancy_blocks_per_sm(sm90(0, 32)), InputError);
  detail::OccupancyInput none = sm90(256, 32);
  none.registers_per_sm = 0;
  EXPECT_THROW(detail::occupancy_blocks_per_sm(none), InputError);
}

TEST(CudaOccupancy, PersistentGridIsSmsTimesResidentBlocks) {
  EXPECT_EQ(detail::persistent_grid(132, 8, "fma_f32"), 1056);
  EXPECT_EQ(detail::persistent_grid(132, 6, "read_l2"), 792);
  EXPECT_EQ(detail::persistent_grid(108, detail::occupancy_blocks_per_sm(sm90(256, 38)), "read_l2"),
            648);
  try {
    detail::persistent_grid(132, 0, "read_l2");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("read_l2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(detail::persistent_grid(0, 8, "x"), Error);
}

TEST(CudaClocks, ClockUnderLoadIsTheMedianOfItsSamples) {
  const auto c = detail::clock_under_load({1980, 1755, 1755, 1830, 1755, 0}, "bf16 GEMM 8192³");
  ASSERT_TRUE(c.has_value());
  EXPECT_DOUBLE_EQ(c->sm_clock_hz, 1755e6);
  EXPECT_EQ(c->samples, 5);  // the 0 (a failed read) is not a sample
  EXPECT_EQ(c->load, "bf16 GEMM 8192³");
  EXPECT_DOUBLE_EQ(detail::clock_under_load({1830, 1980}, "x", 2)->sm_clock_hz, 1905e6);
  EXPECT_FALSE(detail::clock_under_load({1830, 1980}, "x").has_value());  // fewer than 3
  EXPECT_FALSE(detail::clock_under_load({}, "x").has_value());
}

TEST(CudaLibraries, CandidatesInSearchOrder) {
  detail::LibrarySearch s;
  s.cuda_home = "/opt/cuda";
  s.build_library_dir = "/usr/local/cuda/lib";
  s.toolkit_roots = {"/usr/local/cuda", "/usr/local/cuda-13.0"};
  s.extra_dirs = {"/usr/lib/x86_64-linux-gnu", ""};
  const auto c = detail::library_candidates("libcublasLt.so.13", s);
  const std::vector<std::string> want = {
      "libcublasLt.so.13",
      "/opt/cuda/lib64/libcublasLt.so.13",
      "/opt/cuda/lib/libcublasLt.so.13",
      "/opt/cuda/targets/x86_64-linux/lib/libcublasLt.so.13",
      "/usr/local/cuda/lib/libcublasLt.so.13",
      "/usr/local/cuda/lib64/libcublasLt.so.13",
      "/usr/local/cuda/targets/x86_64-linux/lib/libcublasLt.so.13",
      "/usr/local/cuda-13.0/lib64/libcublasLt.so.13",
      "/usr/local/cuda-13.0/lib/libcublasLt.so.13",
      "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcublasLt.so.13",
      "/usr/lib/x86_64-linux-gnu/libcublasLt.so.13"};
  EXPECT_EQ(c, want);  // the build's directory once, though a root repeats it
}

TEST(CudaLibraries, SearchTakesCudaHomeFromTheEnvironment) {
  const char* old = std::getenv("CUDA_HOME");
  const std::string saved = old ? old : "";
  setenv("CUDA_HOME", "/somewhere/cuda", 1);
  const detail::LibrarySearch s = detail::library_search_here("/build/lib");
  EXPECT_EQ(s.cuda_home, "/somewhere/cuda");
  EXPECT_EQ(s.build_library_dir, "/build/lib");
  EXPECT_NE(std::find(s.extra_dirs.begin(), s.extra_dirs.end(), "/usr/local/nvidia/lib64"),
            s.extra_dirs.end());
  for (const std::string& root : s.toolkit_roots) EXPECT_TRUE(fs::is_directory(root)) << root;
  if (old)
    setenv("CUDA_HOME", saved.c_str(), 1);
  else
    unsetenv("CUDA_HOME");
}

TEST(CudaLibraries, WheelLibraryDirsOfEachSitePackages) {
  // Two virtual environments, one with CUDA 13 wheels (nvidia/cu13/lib), one with CUDA 12
  // wheels (nvidia/cublas/lib), and one without NVIDIA's wheels.
  const fs::path root = temp_file("wheels").parent_path() / "opt";
  fs::create_directories(root / "torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib");
  fs::create_directories(root / "old/.venv/lib/python3.10/site-packages/nvidia/cublas/lib");
  fs::create_directories(root / "plain/.venv/lib/python3.11/site-packages");
  const auto dirs = detail::wheel_library_dirs(
      {(root / "*/.venv/lib/python3*/site-packages").string(), "/no/such/*/site-packages"});
  const std::vector<std::string> want = {
      (root / "old/.venv/lib/python3.10/site-packages/nvidia/cublas/lib").string(),
      (root / "torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib").string()};
  EXPECT_EQ(dirs, want);  // glob(3) sorts its matches
  fs::remove_all(root.parent_path());
}

TEST(CudaLibraries, OpenLibraryTriesEachCandidateAndSaysWhy) {
  const detail::OpenedLibrary missing =
      detail::open_library({"/no/such/dir/libfoo.so.1", "libroofline-no-such-library.so.7"});
  EXPECT_EQ(missing.handle, nullptr);
  ASSERT_EQ(missing.failures.size(), 2u);
  EXPECT_NE(missing.failures[0].find("/no/such/dir/libfoo.so.1: no such file"), std::string::npos);
  EXPECT_NE(missing.failures[1].find("libroofline-no-such-library.so.7"), std::string::npos);
  const std::string why = missing.why_not("libfoo.so.1");
  EXPECT_EQ(why.rfind("libfoo.so.1 not found (tried: ", 0), 0u) << why;
  // A library every glibc system has, by soname: the loader's choice is reported as a path.
  const detail::OpenedLibrary m = detail::open_library({"/no/such/libm.so.6", "libm.so.6"});
  ASSERT_NE(m.handle, nullptr) << m.why_not("libm.so.6");
  EXPECT_EQ(m.failures.size(), 1u);
  EXPECT_NE(m.path.find('/'), std::string::npos) << m.path;
  EXPECT_TRUE(fs::exists(m.path)) << m.path;
}

TEST(CudaRecords, WrittenAndReadBack) {
  const fs::path p = temp_file("records.jsonl");
  {
    check::RecordWriter w(p.string());
    for (const auto& r : h200_run()) w.write(r);
  }
  const check::RecordFile f = check::read_records(p.string());
  EXPECT_FALSE(f.truncated.has_value());
  ASSERT_EQ(f.records.size(), h200_run().size());
  EXPECT_EQ(f.records[3].at("name"), "HBM");
  EXPECT_DOUBLE_EQ(f.records[3].at("rate").get<double>(), 4.45e12);
  // One record per line.
  const std::string text = slurp(p);
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), h200_run().size());
  // A second run replaces an earlier run's records.
  {
    check::RecordWriter w(p.string());
    w.write({{"record", "start"}});
  }
  EXPECT_EQ(check::read_records(p.string()).records.size(), 1u);
  fs::remove_all(p.parent_path());
}

TEST(CudaRecords, AKilledWriterLeavesEveryRecordBeforeTheKill) {
  const fs::path p = temp_file("killed.jsonl");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    check::RecordWriter w(p.string());
    for (int i = 0; i < 3; ++i) w.write({{"record", "roof"}, {"name", "r" + std::to_string(i)}});
    raise(SIGKILL);  // no destructor, no flush: what is in the file was written by write(2)
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  const check::RecordFile f = check::read_records(p.string());
  ASSERT_EQ(f.records.size(), 3u);
  EXPECT_EQ(f.records[2].at("name"), "r2");
  fs::remove_all(p.parent_path());
}

TEST(CudaRecords, ACutOffLastLineIsReportedAndOtherDamageIsAnError) {
  const fs::path p = temp_file("cut.jsonl");
  std::ofstream(p) << "{\"record\":\"start\"}\n{\"record\":\"roof\",\"name\":\"HBM\",\"ra";
  const check::RecordFile f = check::read_records(p.string());
  EXPECT_EQ(f.records.size(), 1u);
  ASSERT_TRUE(f.truncated.has_value());
  EXPECT_NE(f.truncated->find(":2: the last line is cut off"), std::string::npos) << *f.truncated;

  std::ofstream(p) << "{\"record\":\"start\"}\nnot json\n{\"record\":\"done\"}\n";
  try {
    check::read_records(p.string());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ":2:"), std::string::npos) << e.what();
  }
  std::ofstream(p) << "[1, 2]\n{\"record\":\"done\"}\n";
  EXPECT_THROW(check::read_records(p.string()), InputError);
  EXPECT_THROW(check::read_records((p.parent_path() / "absent.jsonl").string()), InputError);
  fs::remove_all(p.parent_path());
}

TEST(CudaRecords, WriterRefusesToReplaceAFileThatIsNotOurs) {
  const fs::path p = temp_file("notes.txt");
  std::ofstream(p) << "my notes\n";
  EXPECT_THROW(check::RecordWriter(p.string()), InputError);
  EXPECT_EQ(slurp(p), "my notes\n");  // untouched
  EXPECT_THROW(check::RecordWriter((p.parent_path() / "no/such/dir/r.jsonl").string()), InputError);
  fs::remove_all(p.parent_path());
}

TEST(CudaCheck, AnH200RunThatMeetsEveryTargetPasses) {
  const check::Verdict v = check::judge(h200_run(), check::h200_targets());
  EXPECT_TRUE(v.pass()) << check::render(v);
  EXPECT_TRUE(v.finished);
  ASSERT_TRUE(v.seconds.has_value());
  EXPECT_DOUBLE_EQ(*v.seconds, 48.5);
  // Rows: the roofs named by the targets first, those with neither measurement nor theory nor
  // reason (fp16 cuda cores here) left out; fp8 shown with its theory and why it is missing.
  std::vector<std::string> names;
  for (const auto& r : v.rows) names.push_back(r.roof);
  EXPECT_EQ(names, (std::vector<std::string>{"HBM", "L2", "fp64 cuda cores", "fp32 cuda cores",
                                             "fp64 tensor", "bf16 tensor", "fp8-e4m3 tensor"}));
  EXPECT_TRUE(mentions(v.notes, "fp8-e4m3 tensor: cuBLASLt offers no algorithm"));
  const std::string text = check::render(v);
  EXPECT_NE(text.find("gpu check: PASS"), std::string::npos) << text;
  // measured/theory and roof/cuBLAS of bf16: 800/989.4 and 800/805.
  EXPECT_NE(text.find("0.809"), std::string::npos) << text;
  EXPECT_NE(text.find("0.994"), std::string::npos) << text;
  EXPECT_NE(text.find("1.83 GHz under load"), std::string::npos) << text;
  EXPECT_NE(text.find("memory clock"), std::string::npos) << text;  // HBM's theory
  EXPECT_NE(text.find("48.5 s"), std::string::npos) << text;
}

TEST(CudaCheck, PowerFiguresAreShownNotJudged) {
  // NVML's energy counter around the repetitions (record "energy": the power at rest; a roof's
  // "energy": its joules over its seconds): notes for the energy roofline, never a failure.
  auto records = h200_run();
  records.insert(records.begin() + 2,
                 nlohmann::json{{"record", "energy"},
                                {"energy", {{"available", true}, {"idle_power_w", 112.5}}}});
  (*find_roof(records, "HBM"))["energy"] = {
      {"joules", 97.5}, {"seconds", 0.25}, {"power_w", 390.0}};
  (*find_roof(records, "fp64 cuda cores"))["energy"] = {{"power_w", 455.25}};
  const check::Verdict v = check::judge(records, check::h200_targets());
  EXPECT_TRUE(v.pass()) << check::render(v);
  EXPECT_TRUE(mentions(v.notes, "power at rest (NVML): 112.5 W")) << check::render(v);
  EXPECT_TRUE(mentions(v.notes, "power while measured (NVML): HBM 390 W, fp64 cuda cores 455.2 W"))
      << check::render(v);
  // A counter that gave nothing at rest is said so, not shown as an empty reason.
  records[2]["energy"] = {{"available", true}, {"idle_power_w", nullptr}};
  EXPECT_TRUE(mentions(check::judge(records, check::h200_targets()).notes,
                       "power at rest not read: the counter gave no increase"));
  // Without the counter, the reason is shown.
  records[2]["energy"] = {{"available", false}, {"why", "NVML lacks the energy counter"}};
  EXPECT_TRUE(mentions(check::judge(records, check::h200_targets()).notes,
                       "energy not read: NVML lacks the energy counter"));
}

TEST(CudaCheck, ARoofAboveItsTheoryFails) {
  auto records = h200_run();
  (*find_roof(records, "bf16 tensor"))["rate"] = 1.03 * 989.4e12;  // e.g. FLOP counted twice
  check::Verdict v = check::judge(records, check::h200_targets());
  EXPECT_FALSE(v.pass());
  EXPECT_TRUE(mentions(v.failures, "bf16 tensor: ")) << check::render(v);
  EXPECT_TRUE(mentions(v.failures, "1.030 × its theory")) << check::render(v);
  // 1.02 × is still allowed (noise, a clock read between two samples); the bound holds for any
  // device, with no targets at all.
  (*find_roof(records, "bf16 tensor"))["rate"] = 1.019 * 989.4e12;
  (*find_roof(records, "HBM"))["rate"] = 1.05 * 4.917e12;
  v = check::judge(records, check::bounds_only());
  ASSERT_EQ(v.failures.size(), 1u) << check::render(v);
  EXPECT_EQ(v.failures[0].rfind("HBM: ", 0), 0u) << v.failures[0];
}

TEST(CudaCheck, LowerTargetsAndThePeerAndTheTime) {
  auto records = h200_run();
  (*find_roof(records, "HBM"))["rate"] = 4.0e12;          // below 0.90 × 4.8 TB/s
  (*find_roof(records, "bf16 tensor"))["rate"] = 780e12;  // below 0.80 × 989.4 and cuBLAS
  records.back()["seconds"] = 75.0;
  const check::Verdict v = check::judge(records, check::h200_targets());
  EXPECT_EQ(v.failures.size(), 4u) << check::render(v);
  EXPECT_TRUE(mentions(v.failures, "HBM: 4 TB/s < 4.32 TB/s"));
  EXPECT_TRUE(mentions(v.failures, "bf16 tensor: 780 TFLOP/s < 791.5 TFLOP/s"));
  EXPECT_TRUE(mentions(v.failures, "× cuBLAS's 805 TFLOP/s"));
  EXPECT_TRUE(mentions(v.failures, "took 75 s (at most 60 s)"));
  // Within 2% below cuBLAS is the same rate.
  records = h200_run();
  (*find_roof(records, "bf16 tensor"))["rate"] = 0.985 * 805e12;
  EXPECT_TRUE(check::judge(records, check::h200_targets()).pass());
}

TEST(CudaCheck, MissingRoofsPeersAndAnUnfinishedRunFail) {
  auto records = h200_run();
  records.erase(records.begin() + 6);  // fp64 tensor
  records.insert(
      records.begin() + 6,
      nlohmann::json{{"record", "unavailable"}, {"what", "fp64 tensor: cuBLASLt not loadable: x"}});
  records.erase(records.begin() + 8);  // the bf16 peer
  records.pop_back();                  // no "done": stopped by the timeout
  const check::Verdict v = check::judge(records, check::h200_targets());
  EXPECT_FALSE(v.finished);
  EXPECT_TRUE(mentions(v.failures, "fp64 tensor: not measured (fp64 tensor: cuBLASLt not"))
      << check::render(v);
  EXPECT_TRUE(mentions(v.failures, "bf16 tensor: no cuBLAS rate measured"));
  EXPECT_TRUE(mentions(v.failures, "did not finish"));
  EXPECT_NE(check::render(v).find("- (not finished)"), std::string::npos);

  EXPECT_TRUE(mentions(check::judge({}, check::h200_targets()).failures, "no records"));
  // A roof with a target that nothing in the records names still fails as not measured.
  records = h200_run();
  records.erase(records.begin() + 3);  // HBM
  const check::Verdict no_hbm = check::judge(records, check::h200_targets());
  EXPECT_TRUE(mentions(no_hbm.failures, "HBM: not measured"));
  EXPECT_NE(check::render(no_hbm).find("≥ 4.32 TB/s (0.9 × 4.8 TB/s)"), std::string::npos)
      << check::render(no_hbm);
  const check::Verdict nodev = check::judge(
      std::vector<nlohmann::json>{
          nlohmann::json{{"record", "start"}},
          nlohmann::json{{"record", "error"}, {"what", "no GPU: no CUDA device: x"}}},
      check::bounds_only());
  EXPECT_TRUE(mentions(nodev.failures, "the measurement failed: no GPU"));
  EXPECT_TRUE(mentions(nodev.failures, "no device record"));
}

TEST(CudaCheck, TextFromRecordsIsMadePrintable) {
  auto records = h200_run();
  (*find_roof(records, "L2"))["name"] = "L2\x1b[2J";
  const std::string text = check::render(check::judge(records, check::bounds_only()));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_NE(text.find("L2\\u001b[2J"), std::string::npos) << text;
}
}  // namespace ROOFLINE_UNITY_ID
