// The engine's pure step: measurements (declarations + samples) → machine document. Rates come
// from the declarations, roofs from the statistics policy, a level's roof from its best mix,
// theory beside measurement with its judgement, noise said plainly.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <tuple>

#include "measure/engine/other_work.hpp"
#include "measure/engine/sampler.hpp"
#include "roofline/engine.hpp"
#include "roofline/io.hpp"
#include "roofline/statistics.hpp"

namespace roofline::engine {
namespace ROOFLINE_UNITY_ID {

Declaration fma512() {
  Declaration d;
  d.kernel = "roofline_cpu_fma_pd512";
  d.precision = "fp64";
  d.width_bits = 512;
  d.instruction_class = "fma";
  d.work_per_iteration = 192;  // 12 × vfmadd213pd zmm × 8 lanes × 2 FLOP
  d.counting = "FMA = 2 FLOP per lane";
  return d;
}

Declaration mix(const char* name, double named, double moved) {
  Declaration d;
  d.kernel = std::string("mem512_") + name;
  d.instruction_class = name;
  d.bytes_per_iteration = named;
  d.moved_bytes_per_iteration = moved;
  return d;
}

/// `n` samples of `iterations` iterations, the k-th taking seconds × (1 + k·step).
std::vector<Sample> samples(int n, double iterations, double seconds, double step = 0.001) {
  std::vector<Sample> v;
  for (int k = 0; k < n; ++k) v.push_back({iterations, seconds * (1 + k * step)});
  return v;
}

Measurements two_roofs() {
  Measurements m;
  m.name = "box";
  m.origin = "roofline measure";
  ComputeMeasurement c;
  c.name = "fp64 512-bit fma";
  c.unit = "512-bit fma";
  c.declaration = fma512();
  c.method = "avx512 kernel roofline_cpu_fma_pd512, 2 pinned threads";
  // 1e6 iterations in 1 ms: 192 GFLOP/s for the fastest sample.
  c.samples = samples(20, 1e6, 1e-3);
  c.rounds = 10;
  Theory t;
  t.units = 2;
  t.clock_hz = 3e9;
  t.work_per_cycle_per_unit = 32;  // 192 GFLOP/s at 2 × 3 GHz
  t.table = "zen5";
  t.source = "AMD SOG";
  c.theory = t;
  m.compute.push_back(c);
  MemoryMeasurement l;
  l.level = "DRAM";
  l.kind = "memory";
  l.working_set_bytes = 128e6;
  l.method = "avx512 kernels, 2 pinned threads";
  // copy_nt: 64 named bytes per iteration; load: 32; copy: 64 named, 96 moved.
  l.mixes.push_back({mix("load", 32, 32), samples(12, 1e6, 1e-3)});       // 32 GB/s
  l.mixes.push_back({mix("copy", 64, 96), samples(12, 1e6, 2e-3)});       // 32 GB/s named
  l.mixes.push_back({mix("copy_nt", 64, 64), samples(12, 1e6, 1.5e-3)});  // 42.7 GB/s
  m.memory.push_back(l);
  m.default_compute = "fp64 512-bit fma";
  m.default_memory = "DRAM";
  m.info = {{"kind", "cpu"}};
  m.seconds = 7.5;
  return m;
}

TEST(Engine, RatesComeFromTheDeclaration) {
  EXPECT_DOUBLE_EQ(work_rate(fma512(), {1e6, 1e-3}), 192e9);
  EXPECT_DOUBLE_EQ(byte_rate(mix("copy", 64, 96), {1e6, 2e-3}), 32e9);
  EXPECT_DOUBLE_EQ(byte_rate(mix("copy", 64, 96), {1e6, 2e-3}, true), 48e9);
  // Moved bytes default to the named ones.
  EXPECT_DOUBLE_EQ(byte_rate(mix("load", 32, 0), {1e6, 1e-3}, true), 32e9);
  EXPECT_DOUBLE_EQ(rate(fma512(), {1e6, 1e-3}), 192e9);
  EXPECT_DOUBLE_EQ(rate(mix("load", 32, 0), {1e6, 1e-3}), 32e9);
}

TEST(Engine, AssembleAppliesThePolicyAndPicksTheBestMix) {
  const MachineDocument d = assemble(two_roofs());
  ASSERT_EQ(d.roofs.compute.size(), 1u);
  const ComputeRoof& c = d.roofs.compute[0];
  // The third-fastest of 20 samples: 192 GFLOP/s / 1.002.
  EXPECT_DOUBLE_EQ(c.peak.value, 192e9 / 1.002);
  ASSERT_TRUE(c.stats.has_value());
  EXPECT_EQ(c.stats->repetitions, 20);
  EXPECT_DOUBLE_EQ(c.peak.value, c.stats->sustained);
  EXPECT_FALSE(c.stats->noisy);
  ASSERT_TRUE(c.theoretical.has_value());
  EXPECT_DOUBLE_EQ(c.theoretical->value, 192e9);
  EXPECT_NE(c.formula.find("2 cores × 3 GHz (measured) × 32 FLOP/cycle/core (zen5)"),
            std::string::npos)
      << c.formula;
  EXPECT_NE(c.source.find("sustained best of 20 samples in 10 rounds"), std::string::npos);
  EXPECT_EQ(d.roofs.default_compute, "fp64 512-bit fma");

  ASSERT_EQ(d.roofs.memory.size(), 1u);
  const MemoryRoof& l = d.roofs.memory[0];
  EXPECT_EQ(l.level, "DRAM");
  EXPECT_EQ(l.convention, "named");
  EXPECT_DOUBLE_EQ(l.bandwidth.value, 64e6 / (1.5e-3 * 1.002));  // copy_nt, the best mix
  EXPECT_DOUBLE_EQ(l.mixes.at("load"), 32e9 / 1.002);
  EXPECT_DOUBLE_EQ(l.mixes.at("copy"), 32e9 / 1.002);
  EXPECT_NE(l.source.find("highest of 3 access mixes (copy_nt)"), std::string::npos) << l.source;
  const auto& meas = section_json(d, "measurement");
  EXPECT_EQ(meas.at("memory").at("DRAM").at("best_mix"), "copy_nt");
  // Moved bytes: copy's write-allocate read (96 bytes per iteration moved, 64 named).
  EXPECT_DOUBLE_EQ(meas.at("memory").at("DRAM").at("mixes_moved").at("copy").get<double>(),
                   48e9 / 1.002);
  EXPECT_DOUBLE_EQ(meas.at("compute").at(0).at("ratio").get<double>(), 1 / 1.002);
  EXPECT_EQ(meas.at("noisy_roofs"), 0);
  EXPECT_DOUBLE_EQ(meas.at("seconds").get<double>(), 7.5);
  // The document reads back through the validated reader.
  const MachineDocument back = machine_from_json(machine_to_json(d), "engine");
  EXPECT_DOUBLE_EQ(back.roofs.compute[0].stats->q3, c.stats->q3);
  EXPECT_DOUBLE_EQ(back.roofs.compute[0].stats->second, c.stats->second);
  EXPECT_EQ(back.roofs.compute[0].stats->confirmed(), c.stats->confirmed());
}

TEST(Engine, TheoryOutsideItsBandIsJudged) {
  auto warnings_for = [](double work_per_cycle, const std::string& limit) {
    Measurements m = two_roofs();
    m.compute[0].theory->work_per_cycle_per_unit = work_per_cycle;
    m.compute[0].theory->limit = limit;
    const MachineDocument d = assemble(m);
    std::string all;
    for (const auto& w :
         section_json(d, "measurement").at("warnings").get<std::vector<std::string>>())
      all += w;
    return std::make_pair(all, d.roofs.compute[0].formula);
  };
  // Theory 40 FLOP/cycle: measured 0.80 of it, and no limit named: the kernel or the table.
  auto [below, f1] = warnings_for(40, "");
  EXPECT_NE(below.find("the kernel or the table (zen5) is wrong"), std::string::npos) << below;
  // The same with the limit named: printed beside the roof, no warning.
  auto [explained, f2] = warnings_for(40, "dependent vpaddd");
  EXPECT_EQ(explained.find("is wrong"), std::string::npos) << explained;
  EXPECT_NE(f2.find("limit: dependent vpaddd"), std::string::npos) << f2;
  // Theory 28: measured 1.14 of it — a measurement problem.
  auto [above, f3] = warnings_for(28, "");
  EXPECT_NE(above.find("× the theoretical peak — a measurement problem"), std::string::npos);
  // Inside [0.92, 1.05]: nothing said.
  auto [fine, f4] = warnings_for(32, "");
  EXPECT_EQ(fine.find("theoretical"), std::string::npos) << fine;
  // 0.798 on both cores (the third-fastest sample, 1.002 ms), but on one core 0.99 of one core's
  // theory (40 FLOP/cycle × 3 GHz = 120 GFLOP/s; 192 FLOP per iteration, so 1e6 iterations take
  // 192e6 / 118.8e9 s): the kernel and the table hold, the cores share a limit.
  Measurements m = two_roofs();
  m.compute[0].theory->work_per_cycle_per_unit = 40;
  Theory one = *m.compute[0].theory;
  one.units = 1;
  m.compute[0].one_core_theory = one;
  m.compute[0].one_core = samples(20, 1e6, 192e6 / 118.8e9, 0);
  const MachineDocument d = assemble(m);
  std::string shared;
  for (const auto& w :
       section_json(d, "measurement").at("warnings").get<std::vector<std::string>>())
    shared += w;
  EXPECT_NE(shared.find("fp64 512-bit fma: measured 0.798 of the theoretical peak on 2 cores but "
                        "0.99 on one core: the kernel and the table hold"),
            std::string::npos)
      << shared;
  EXPECT_EQ(shared.find("is wrong"), std::string::npos) << shared;
  EXPECT_NE(d.roofs.compute[0].formula.find("; limit: shared by the cores (0.99 of the theory on "
                                            "one core)"),
            std::string::npos)
      << d.roofs.compute[0].formula;
  EXPECT_DOUBLE_EQ(
      section_json(d, "measurement").at("compute")[0].at("one_core_ratio").get<double>(), 0.99);
}

// A roof read low while other work shared the measured CPUs is put down to that work, not to a
// limit of the cores (a busy loop on one of two CPUs had read "limit: shared by the cores").
TEST(Engine, ARoofBelowTheoryWhileOtherWorkRanIsPutDownToIt) {
  const auto judged = [](std::optional<double> other) {
    Measurements m = two_roofs();
    m.compute[0].theory->work_per_cycle_per_unit = 40;  // measured 0.798 of it
    Theory one = *m.compute[0].theory;
    one.units = 1;
    m.compute[0].one_core_theory = one;
    m.compute[0].one_core = samples(20, 1e6, 192e6 / 118.8e9, 0);  // 0.99 on one core
    m.compute[0].other_work = other;
    const MachineDocument d = assemble(m);
    std::string said;
    for (const auto& w :
         section_json(d, "measurement").at("warnings").get<std::vector<std::string>>())
      said += w;
    return std::make_tuple(said, d.roofs.compute[0].formula,
                           section_json(d, "measurement").at("compute")[0]);
  };
  const auto [busy, busy_formula, busy_detail] = judged(0.25);
  EXPECT_NE(busy.find("fp64 512-bit fma: measured 0.798 of the theoretical peak while other work "
                      "took 25% of the measured CPUs' time while it ran"),
            std::string::npos)
      << busy;
  EXPECT_EQ(busy.find("the cores share a limit"), std::string::npos) << busy;
  EXPECT_NE(busy_formula.find("; limit: none known — other work took 25% of the measured CPUs' "
                              "time while it ran; repeat on a quiet machine"),
            std::string::npos)
      << busy_formula;
  EXPECT_EQ(busy_detail.at("below_theory_cause"), "other work");
  EXPECT_DOUBLE_EQ(busy_detail.at("other_work").get<double>(), 0.25);
  EXPECT_NE(busy.find("other work took 25% of the measured CPUs' time during the compute roofs"),
            std::string::npos)
      << busy;
  // Under the limit (kernel threads, interrupts), or not known: the cores' shared limit.
  for (std::optional<double> quiet : {std::optional<double>(0.01), std::optional<double>()}) {
    const auto [said, formula, detail] = judged(quiet);
    EXPECT_NE(formula.find("; limit: shared by the cores"), std::string::npos) << formula;
    EXPECT_EQ(detail.contains("other_work"), quiet.has_value());
    EXPECT_EQ(said.find("other work took"), std::string::npos) << said;
  }
}

// /proc/stat and /proc/self/stat as Linux writes them (proc(5)): busy = user + nice + system +
// irq + softirq + steal of the listed CPUs, own = utime + stime, in clock ticks.
TEST(Engine, OtherWorkReadsProcStat) {
  const std::string stat =
      "cpu  9000 10 2000 50000 300 0 40 7 0 0\n"
      "cpu0 4000 5 1000 25000 100 0 20 3 0 0\n"
      "cpu1 5000 5 1000 25000 200 0 20 4 0 0\n"
      "intr 123456 0 0\nctxt 42\n";
  EXPECT_DOUBLE_EQ(*busy_seconds(stat, {1}, 100), (5000 + 5 + 1000 + 0 + 20 + 4) / 100.0);
  EXPECT_DOUBLE_EQ(*busy_seconds(stat, {0, 1, 1}, 100),
                   (4000 + 5 + 1000 + 20 + 3 + 5000 + 5 + 1000 + 20 + 4) / 100.0);
  EXPECT_FALSE(busy_seconds(stat, {2}, 100));            // no such CPU
  EXPECT_FALSE(busy_seconds("cpu0 1 2 3\n", {0}, 100));  // a short line
  const std::string self =
      "4242 (my (odd) prog) R 1 4242 4242 0 -1 4194304 100 0 0 0 1234 56 0 0 20 0 3 0 99 0 0\n";
  EXPECT_DOUBLE_EQ(*own_seconds(self, 100), (1234 + 56) / 100.0);
  EXPECT_FALSE(own_seconds("4242 no parenthesis", 100));
}

TEST(Engine, ACurveAboveItsRoofsOrMostlyNoisyIsSaid) {
  // π = 192 GFLOP/s / 1.002 (fp64), β(DRAM) = 64 B / 1.5 ms × 1e6 / 1.002 = 42.6 GB/s.
  Measurements m = two_roofs();
  m.curve_setup = CurveSetup{"roofline_cpu_curve", 1.5e8, "fp64"};
  auto point = [](double bytes, double seconds, double step) {
    CurveMeasurement p;
    p.declaration = fma512();  // 192 FLOP per iteration
    p.declaration.bytes_per_iteration = bytes;
    p.samples = samples(6, 1e6, seconds, step);
    return p;
  };
  // I = 192/384 = 0.5: 19.2 GFLOP/s / 1.002 under β·I = 21.3. I = 3: 96 GFLOP/s / 1.002 under
  // min(π, 128): both under the roofs, nothing said.
  m.curve = {point(384, 1e-2, 0.001), point(64, 2e-3, 0.001)};
  const MachineDocument quiet = assemble(m);
  std::string all;
  for (const auto& w :
       section_json(quiet, "measurement").at("warnings").get<std::vector<std::string>>())
    all += w;
  EXPECT_EQ(all.find("empirical curve"), std::string::npos) << all;
  EXPECT_EQ(section_json(quiet, "measurement").at("curve").at("above_roofs"), 0);
  // I = 0.5 at 38.4 GFLOP/s / 1.002: 1.8 × β·I (the DRAM roof measured under load, the curve
  // not), and both points noisy (samples 40% apart): two warnings.
  m.curve = {point(384, 5e-3, 0.08), point(64, 2e-3, 0.08)};
  const MachineDocument busy = assemble(m);
  all.clear();
  for (const auto& w :
       section_json(busy, "measurement").at("warnings").get<std::vector<std::string>>())
    all += w;
  EXPECT_NE(all.find("empirical curve: 1 of 2 points above min(π, β·I) of 'fp64 512-bit fma' and "
                     "DRAM (up to "),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("empirical curve: 2 of 2 points noisy"), std::string::npos) << all;
  EXPECT_EQ(section_json(busy, "measurement").at("curve").at("above_roofs"), 1);
  EXPECT_EQ(section_json(busy, "measurement").at("curve").at("noisy_points"), 2);
}

TEST(Engine, ARoofBelowTheoryByAVaryingClockIsNotBlamedOnTheKernelOrTheTable) {
  // 0.80 of a 40 FLOP/cycle theory at the fastest clock sample (3 GHz); the samples' median is
  // 2.4 GHz, at which the roof reads 0.80 × 3 / 2.4 = 0.998 of the theory: the clock varied.
  Measurements m = two_roofs();
  m.compute[0].theory->work_per_cycle_per_unit = 40;
  m.compute[0].theory->clock_median_hz = 0.8 * m.compute[0].theory->clock_hz;
  const MachineDocument d = assemble(m);
  std::string all;
  for (const auto& w :
       section_json(d, "measurement").at("warnings").get<std::vector<std::string>>())
    all += w;
  EXPECT_EQ(all.find("is wrong"), std::string::npos) << all;
  EXPECT_NE(all.find("fp64 512-bit fma: measured 0.798 of the theoretical peak, but the clock "
                     "varied"),
            std::string::npos)
      << all;
  const std::string& f = d.roofs.compute[0].formula;
  EXPECT_NE(f.find("; limit: none known — the clock varied (fastest sample 3 GHz, median 2.4 "
                   "GHz): at the median clock it reads 0.998 of the theory"),
            std::string::npos)
      << f;
  EXPECT_EQ(section_json(d, "measurement").at("compute")[0].at("below_theory_cause"), "clock");
  // A median clock that explains too little (at it 0.80 × 3 / 2.9 = 0.825) leaves the warning.
  m.compute[0].theory->clock_median_hz = 2.9e9;
  const MachineDocument d2 = assemble(m);
  std::string all2;
  for (const auto& w :
       section_json(d2, "measurement").at("warnings").get<std::vector<std::string>>())
    all2 += w;
  EXPECT_NE(all2.find("the kernel or the table (zen5) is wrong"), std::string::npos) << all2;
}

TEST(Engine, ANoisyRoofBelowTheoryIsNotBlamedOnTheKernelOrTheTable) {
  // 0.80 of a 40 FLOP/cycle theory, no limit in the table, but a third of the samples 40% slower
  // (interquartile range above 10%: noisy): the cause may be the machine, so the roof says so
  // instead of the "kernel or table is wrong" warning.
  Measurements m = two_roofs();
  m.compute[0].theory->work_per_cycle_per_unit = 40;
  for (size_t k = 0; k < 8; ++k) m.compute[0].samples[k + 12].seconds *= 1.4;
  const MachineDocument d = assemble(m);
  std::string all;
  for (const auto& w :
       section_json(d, "measurement").at("warnings").get<std::vector<std::string>>())
    all += w;
  EXPECT_EQ(all.find("is wrong"), std::string::npos) << all;
  const std::string& f = d.roofs.compute[0].formula;
  EXPECT_NE(f.find("; limit: none known — measured while disturbed (spread "), std::string::npos)
      << f;
  EXPECT_NE(f.find("repeat on a quiet machine"), std::string::npos) << f;
  EXPECT_EQ(section_json(d, "measurement").at("compute")[0].at("below_theory_cause"), "noisy");
  ASSERT_TRUE(d.roofs.compute[0].stats && d.roofs.compute[0].stats->noisy);
}

TEST(Engine, NoiseAndInversionsAreSaidPlainly) {
  Measurements m = two_roofs();
  // Half of the FMA samples at 60% (a busy neighbour): noisy, listed by name.
  for (size_t k = 0; k < 10; ++k) m.compute[0].samples[k].seconds /= 0.6;
  MemoryMeasurement l3;
  l3.level = "L3";
  l3.working_set_bytes = 8e6;
  l3.method = "avx512 kernels";
  l3.mixes.push_back({mix("load", 32, 32), samples(12, 1e6, 1e-3)});  // 32 GB/s < DRAM's 42.7
  m.memory.insert(m.memory.begin(), l3);
  const MachineDocument d = assemble(m);
  const auto& meas = section_json(d, "measurement");
  EXPECT_EQ(meas.at("noisy_roofs"), 1);
  EXPECT_EQ(meas.at("noisy_roof_names").at(0), "fp64 512-bit fma");
  std::string all;
  for (const auto& w : meas.at("warnings")) all += w.get<std::string>() + "\n";
  EXPECT_NE(all.find("1 of 3 roofs noisy"), std::string::npos) << all;
  EXPECT_NE(all.find("DRAM roof"), std::string::npos) << all;
  ASSERT_EQ(meas.at("inverted_levels").size(), 1u);
  EXPECT_EQ(meas.at("inverted_levels").at(0).at("farther"), "DRAM");
  EXPECT_EQ(meas.at("inverted_levels").at(0).at("nearer"), "L3");
}

TEST(Engine, TheoryOfMemoryAndUnmeasuredRoofsAndSectionsAreKept) {
  // What the CUDA backend reports beside its samples: HBM's theoretical bandwidth, theoretical
  // roofs it did not measure, a device section.
  Measurements m = two_roofs();
  m.memory[0].theoretical_bandwidth = ByteRate(51.2e9);
  m.memory[0].theory_formula = "bus 64 bit / 8 × 3.2 GHz × 2";
  ComputeRoof fp8;
  fp8.name = "fp8 tensor";
  fp8.precision = "fp8-e4m3";
  fp8.peak = WorkRate(1e15);
  fp8.provenance = Provenance::theoretical;
  m.unmeasured_compute = {fp8};
  ComputeRoof dup = fp8;
  dup.name = "fp64 512-bit fma";  // a measured roof of the same name wins
  m.unmeasured_compute.push_back(dup);
  MemoryRoof l1;
  l1.level = "L1";
  l1.kind = "cache";
  l1.bandwidth = ByteRate(1e14);  // above DRAM, but theoretical: no inversion judged
  l1.provenance = Provenance::theoretical;
  m.unmeasured_memory = {l1};
  m.sections = {{"device", {{"name", "test gpu"}}}};
  m.default_compute = "fp8 tensor";
  const MachineDocument d = assemble(m);
  ASSERT_TRUE(d.roofs.find_memory("DRAM")->theoretical.has_value());
  EXPECT_DOUBLE_EQ(d.roofs.find_memory("DRAM")->theoretical->value, 51.2e9);
  EXPECT_EQ(d.roofs.find_memory("DRAM")->formula, "bus 64 bit / 8 × 3.2 GHz × 2");
  ASSERT_NE(d.roofs.find_compute("fp8 tensor"), nullptr);
  EXPECT_EQ(d.roofs.find_compute("fp8 tensor")->provenance, Provenance::theoretical);
  EXPECT_EQ(d.roofs.find_compute("fp64 512-bit fma")->provenance, Provenance::measured);
  EXPECT_EQ(d.roofs.compute.size(), 2u);
  EXPECT_EQ(d.roofs.default_compute, "fp8 tensor");
  EXPECT_TRUE(section_json(d, "measurement").at("inverted_levels").empty());
  EXPECT_EQ(section_json(d, "device").at("name"), "test gpu");
}

// What a backend says besides its samples, typed, lands in the measurement section under the
// names docs/schema.md gives: the kernel's ISA and chains and its power on a compute roof; a
// level's sizes against its plateau, the cache as the topology gives it, the planned mix and
// the power of each mix; each curve point's rounds and variant, and how the curve ran.
TEST(Engine, TypedExtrasLandInTheMeasurementSection) {
  Measurements m = two_roofs();
  m.compute[0].isa = "avx512";
  m.compute[0].chains = 12;
  m.compute[0].energy = VisitEnergy{30, 2, 4};
  LevelSizes z;
  z.reported_size = 65536;
  z.plateau_edge = 262144;
  z.plateau_edge_per_thread = 131072;
  z.size_agrees = false;
  z.cache = CacheShare{32768, 1, 32768, "32.77 kB per core, 65.54 kB for 2 threads"};
  z.note = "the plateau ends at 256 KiB";
  MemoryMeasurement& l = m.memory[0];
  l.sizes = z;
  l.planned_mix = "copy_nt";
  l.energy = VisitEnergy{12, 3, 6};
  l.mix_energy = {{"load", VisitEnergy{10, 2, 6}}, {"copy_nt", VisitEnergy{12, 3, 6}}};
  CurveMeasurement p;
  p.declaration = fma512();
  p.declaration.bytes_per_iteration = 64;
  p.samples = samples(6, 1e6, 1e-3);
  p.rounds = 8;
  p.light = true;
  m.curve = {p};
  m.curve_setup = CurveSetup{"roofline_cpu_curve", 1.5e8, "fp64"};
  const nlohmann::json j = section_json(assemble(m), "measurement");

  const nlohmann::json& c = j.at("compute").at(0);
  EXPECT_EQ(c.at("isa"), "avx512");
  EXPECT_EQ(c.at("chains").get<int>(), 12);
  EXPECT_EQ(c.at("energy"),
            (nlohmann::json{{"joules", 30.0}, {"seconds", 2.0}, {"power_w", 15.0}, {"visits", 4}}));
  const nlohmann::json& d = j.at("memory").at("DRAM");
  EXPECT_EQ(d.at("reported_size").get<double>(), 65536);
  EXPECT_EQ(d.at("plateau_edge").get<double>(), 262144);
  EXPECT_EQ(d.at("plateau_edge_per_thread").get<double>(), 131072);
  EXPECT_FALSE(d.at("size_agrees").get<bool>());
  EXPECT_EQ(d.at("size_per_instance").get<double>(), 32768);
  EXPECT_EQ(d.at("cores_sharing").get<int>(), 1);
  EXPECT_EQ(d.at("size_per_core").get<double>(), 32768);
  EXPECT_EQ(d.at("size_words"), "32.77 kB per core, 65.54 kB for 2 threads");
  EXPECT_EQ(d.at("note"), "the plateau ends at 256 KiB");
  EXPECT_EQ(d.at("planned_mix"), "copy_nt");
  EXPECT_EQ(d.at("energy").at("power_w").get<double>(), 4.0);
  EXPECT_EQ(d.at("energy_mixes").at("load").at("power_w").get<double>(), 5.0);
  EXPECT_EQ(d.at("energy_mixes").at("copy_nt").at("visits").get<int>(), 6);
  EXPECT_EQ(d.at("best_mix"), "copy_nt");  // the typed extras sit beside the engine's own keys
  const nlohmann::json& curve = j.at("curve");
  EXPECT_EQ(curve.at("kernel"), "roofline_cpu_curve");
  EXPECT_EQ(curve.at("working_set").get<double>(), 1.5e8);
  EXPECT_EQ(curve.at("precision"), "fp64");
  EXPECT_EQ(curve.at("points").at(0).at("rounds").get<int>(), 8);
  EXPECT_TRUE(curve.at("points").at(0).at("light").get<bool>());
  EXPECT_DOUBLE_EQ(curve.at("points").at(0).at("intensity").get<double>(), 3.0);  // 192 / 64

  // Nothing said, nothing written: a DRAM level without sizes, a roof without ISA or power.
  const nlohmann::json bare = section_json(assemble(two_roofs()), "measurement");
  for (const char* key : {"isa", "chains", "energy"})
    EXPECT_FALSE(bare.at("compute").at(0).contains(key)) << key;
  for (const char* key : {"reported_size", "size_agrees", "planned_mix", "energy", "energy_mixes"})
    EXPECT_FALSE(bare.at("memory").at("DRAM").contains(key)) << key;
  EXPECT_FALSE(bare.contains("curve"));
}

// The CPU backend's typed description and run record become the document's info and the start
// of its measurement section under docs/schema.md's names, and io's one reader (machine_facts)
// reads back what the summary shows.
TEST(Engine, CpuRecordsBecomeTheDocumentsInfoAndMeasurement) {
  Measurements m = two_roofs();
  m.info = {{"vendor", "not this one"}};  // the typed record wins over a backend's JSON
  CpuDescription d;
  d.vendor = "AuthenticAMD";
  d.cpu = "AMD EPYC 7B13";
  d.family = 25;
  d.model = 1;
  d.microarchitecture = "zen3";
  d.cores = 4;
  d.logical_cpus = 8;
  d.threads = 4;
  d.pinned = true;
  d.clock_hz = Hertz(3.1e9);
  d.clock_one_core_hz = Hertz(3.4e9);
  CpuCacheRecord l2{2, 524288, 1, 64, 524288, 4, 2097152, 2097152, 0, ""};
  CpuCacheRecord l3{
      3, 33554432, 8,        64,        4194304,
      1, 33554432, 33554432, 268435456, "reported 256 MiB, more than the package has"};
  d.caches = {l2, l3};
  d.features = {"sse2", "avx2"};
  d.backends = {"sse2", "avx2"};
  d.memory_available = 8e9;
  m.cpu = d;
  CpuRunRecord r;
  r.tool_version = "9.9";
  r.quick = true;
  r.threads = 4;
  r.cpus = {0, 2, 4, 6};
  r.topology_source = "sysfs";
  r.sample_seconds = 0.5;
  r.clock = {Hertz(3.1e9), Hertz(3.4e9), "dependent adds",
             summarize_rates({3.0e9, 3.05e9, 3.1e9, 3.1e9})};
  r.sweep = WorkingSetSweepRecord{
      "roofline_cpu_mem256_load", "named", {{65536, 4e11}, {1.6e8, 4e10}}, {{32768, 131072, 4e11}}};
  r.energy.available = true;
  r.energy.zones = {"package-0 (intel-rapl:0)"};  // idle_power_w: a reading failed
  r.phase_seconds = {{"power_at_rest", 0.25}, {"compute", 3.0}};
  r.memory_part_seconds = std::vector<std::pair<std::string, double>>{{"sweep", 1.5}};
  m.cpu_run = r;
  const MachineDocument doc = assemble(m);

  const nlohmann::json info = info_json(doc);
  EXPECT_EQ(info.at("kind"), "cpu");
  EXPECT_EQ(info.at("vendor"), "AuthenticAMD");
  EXPECT_EQ(info.at("family").get<int>(), 25);
  EXPECT_EQ(info.at("logical_cpus").get<int>(), 8);
  EXPECT_EQ(info.at("clock_one_core_hz").get<double>(), 3.4e9);
  EXPECT_EQ(info.at("caches").size(), 2u);
  EXPECT_EQ(info.at("caches").at(0).at("size_machine").get<double>(), 2097152);
  EXPECT_FALSE(info.at("caches").at(0).contains("reported_size"));  // believed: no note
  EXPECT_EQ(info.at("caches").at(1).at("reported_size").get<double>(), 268435456);
  EXPECT_EQ(info.at("caches").at(1).at("cores_sharing").get<int>(), 8);
  EXPECT_EQ(info.at("features"), (nlohmann::json{"sse2", "avx2"}));
  EXPECT_EQ(info.at("memory_available").get<double>(), 8e9);

  const nlohmann::json& j = section_json(doc, "measurement");
  EXPECT_EQ(j.at("tool"), "roofline");
  EXPECT_EQ(j.at("tool_version"), "9.9");
  EXPECT_TRUE(j.at("quick").get<bool>());
  EXPECT_EQ(j.at("cpus"), (nlohmann::json{0, 2, 4, 6}));
  EXPECT_EQ(j.at("clock").at("stats").at("repetitions").get<int>(), 4);
  EXPECT_EQ(j.at("clock").at("one_core_hz").get<double>(), 3.4e9);
  EXPECT_EQ(j.at("sweep").at("points").at(1).at("bytes").get<double>(), 1.6e8);
  EXPECT_EQ(j.at("sweep").at("plateaus").at(0).at("max_bytes").get<double>(), 131072);
  EXPECT_TRUE(j.at("energy").at("available").get<bool>());
  EXPECT_TRUE(j.at("energy").at("idle_power_w").is_null());
  EXPECT_EQ(j.at("phase_seconds").at("compute").get<double>(), 3.0);
  EXPECT_EQ(j.at("memory_part_seconds").at("sweep").get<double>(), 1.5);
  EXPECT_EQ(j.at("memory").at("DRAM").at("best_mix"), "copy_nt");  // the engine's part beside it

  const MachineFacts f = machine_facts(doc);
  EXPECT_EQ(f.cpu, "AMD EPYC 7B13");
  EXPECT_EQ(f.microarchitecture, "zen3");
  ASSERT_TRUE(f.clock_hz && f.threads);
  EXPECT_EQ(*f.clock_hz, 3.1e9);
  EXPECT_EQ(*f.threads, 4);

  r.energy.idle_power_w = 31.5;
  m.cpu_run = r;
  EXPECT_EQ(section_json(assemble(m), "measurement").at("energy").at("idle_power_w").get<double>(),
            31.5);

  // Without a power interface the reason is written, not the zones; without a sweep (the probe
  // plan) no sweep key.
  r.energy = PowerAtRestRecord{};
  r.energy.why = "no /sys/class/powercap";
  r.sweep.reset();
  r.memory_part_seconds.reset();
  m.cpu_run = r;
  const nlohmann::json bare = section_json(assemble(m), "measurement");
  EXPECT_EQ(bare.at("energy"),
            (nlohmann::json{{"available", false}, {"why", "no /sys/class/powercap"}}));
  EXPECT_FALSE(bare.contains("sweep"));
  EXPECT_FALSE(bare.contains("memory_part_seconds"));
}

TEST(Engine, BadMeasurementsAreRefused) {
  Measurements m = two_roofs();
  m.compute[0].samples.clear();
  EXPECT_THROW(assemble(m), InputError);
  m = two_roofs();
  m.memory[0].mixes[0].samples[0].seconds = 0;
  EXPECT_THROW(assemble(m), InputError);
  m = two_roofs();
  m.memory[0].mixes.clear();
  EXPECT_THROW(assemble(m), InputError);
}

TEST(Engine, TheRegistryKnowsTheDevicesAndNamesThemOnError) {
  ASSERT_GE(backends().size(), 2u);
  EXPECT_EQ(backends().front()->name(), "cpu");
  EXPECT_EQ(find_backend("cpu").name(), "cpu");
  EXPECT_EQ(find_backend("").name(), "cpu");
  EXPECT_EQ(find_backend("cuda").name(), "cuda");
  try {
    find_backend("tpu");
    FAIL() << "tpu accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'tpu'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("cpu, cuda"), std::string::npos);
  }
}

TEST(Engine, TheClockIsSampledInEveryRetryRound) {
  // A measurement whose fastest samples disagree (a rate that doubles each sample) is retried;
  // the clock, a reference, is taken with it in every retry round, so that it sees the same
  // windows of the machine's speed; a measurement that needs no retry is not taken again.
  Declaration d = fma512();
  double next = 1;
  std::vector<Visit> visits{{d,
                             [&](int n, std::vector<Sample>& out) {
                               for (int i = 0; i < n; ++i) out.push_back({next *= 2, 1.0});
                             }},
                            {d,
                             [](int n, std::vector<Sample>& out) {
                               for (int i = 0; i < n; ++i) out.push_back({1000, 1.0});
                             }},
                            {d,
                             [](int n, std::vector<Sample>& out) {
                               for (int i = 0; i < n; ++i) out.push_back({1000, 1.0});
                             },
                             /*reference=*/true}};
  Phase phase;
  phase.seconds = 0;
  phase.min_rounds = 5;
  phase.max_rounds = 20;
  MeasureOptions o;
  Progress progress(o);
  const PhaseResult r = interleave(visits, phase, progress);
  EXPECT_EQ(r.rounds, 5);
  EXPECT_EQ(r.retried, 1);
  ASSERT_GT(r.samples[0].size(), 5u);  // retried: at least min_retry_rounds more
  EXPECT_EQ(r.samples[1].size(), 5u);
  EXPECT_EQ(r.samples[2].size(), r.samples[0].size());
}

TEST(Engine, RetriesTakeAtMostAQuarterOfThePhasesTime) {
  // A measurement that never settles is retried until the retry time runs out: a quarter of
  // the 0.4 s the base rounds took. Each round takes at least 10 ms (a sleep), so at most
  // 0.1 s / 10 ms + 1 = 11 retry rounds fit; retrying for half as long would allow 21.
  Declaration d = fma512();
  double next = 1;
  std::vector<Visit> visits{{d, [&](int n, std::vector<Sample>& out) {
                               for (int i = 0; i < n; ++i) {
                                 std::this_thread::sleep_for(std::chrono::milliseconds(10));
                                 out.push_back({next *= 1.5, 1.0});
                               }
                             }}};
  Phase phase;
  phase.seconds = 0.4;
  phase.min_rounds = 3;
  MeasureOptions o;
  Progress progress(o);
  const PhaseResult r = interleave(visits, phase, progress);
  EXPECT_EQ(r.retried, 1);
  const auto retry_rounds = static_cast<int>(r.samples[0].size()) - r.rounds;
  EXPECT_GE(retry_rounds, 1);  // at least min_retry_rounds
  EXPECT_LE(retry_rounds, 11);
}

TEST(Engine, EnergyIsReadAroundEveryVisitAndGivesEachMeasurementItsPower) {
  // A counter that gains 10 J per second of wall time (a 10 W machine) and one that gains 25 W
  // while the second measurement runs: each measurement gets the joules of its own visits, so
  // its average power is 10 and 35 W. Reads happen just outside the visit's timing, so the
  // power can only come out a hair above; a failed read leaves that visit out.
  Declaration d = fma512();
  double extra = 0;
  bool fail_reads = false;
  EnergyReader reader = [&]() -> std::optional<double> {
    if (fail_reads) return std::nullopt;
    return 10.0 * now_seconds() + extra;
  };
  auto sleeper = [](std::vector<Sample>& out) {
    std::this_thread::sleep_for(std::chrono::milliseconds(4));
    out.push_back({1000, 1.0});
  };
  std::vector<Visit> visits{{d,
                             [&](int n, std::vector<Sample>& out) {
                               for (int i = 0; i < n; ++i) sleeper(out);
                             }},
                            {d, [&](int n, std::vector<Sample>& out) {
                               for (int i = 0; i < n; ++i) {
                                 const double t0 = now_seconds();
                                 sleeper(out);
                                 extra += 25.0 * (now_seconds() - t0);  // 25 W more while it runs
                               }
                             }}};
  Phase phase;
  phase.seconds = 0;
  phase.min_rounds = 4;
  phase.max_rounds = 4;
  phase.energy = reader;
  MeasureOptions o;
  Progress progress(o);
  PhaseResult r = interleave(visits, phase, progress);
  ASSERT_EQ(r.energy.size(), 2u);
  EXPECT_EQ(r.energy[0].visits, 4);
  EXPECT_GE(r.energy[0].seconds, 4 * 0.004);
  EXPECT_NEAR(r.energy[0].watts(), 10.0, 0.5);
  EXPECT_NEAR(r.energy[1].watts(), 35.0, 1.5);
  const nlohmann::json j = energy_to_json(r.energy[1]);
  EXPECT_DOUBLE_EQ(j.at("power_w").get<double>(), r.energy[1].joules / r.energy[1].seconds);
  EXPECT_EQ(j.at("visits").get<int>(), 4);

  fail_reads = true;
  r = interleave(visits, phase, progress);
  ASSERT_EQ(r.energy.size(), 2u);
  EXPECT_EQ(r.energy[0].visits, 0);
  EXPECT_EQ(r.energy[0].watts(), 0);
  phase.energy = {};
  r = interleave(visits, phase, progress);
  EXPECT_TRUE(r.energy.empty());  // no counter: nothing recorded, nothing invented
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::engine
