// perf_event plumbing with software events (they work in VMs) and running programs.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <time.h>

#include <chrono>
#include <filesystem>

#include "roofline/counters.hpp"
#include "roofline/error.hpp"

using namespace roofline::counters;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kSysfs = fs::path(ROOFLINE_TEST_DATA) / "import" / "sysfs";

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void spin_for(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  volatile double x = 1;
  while (std::chrono::steady_clock::now() < end) x = x * 1.0000001 + 1e-9;
}

TEST(PerfEvent, TaskClockCountsThisProcess) {
  const auto wall0 = std::chrono::steady_clock::now();
  CounterSet set;
  set.open(software_events(), 0, /*on_exec=*/false);
  if (set.opened() == 0)
    GTEST_SKIP() << "even software events are refused here: " << set.failures().at(0);
  const double cpu0 = thread_cpu_seconds();
  spin_for(0.05);
  const double cpu1 = thread_cpu_seconds();
  set.disable_all();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const auto r = set.read();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_GT(r[0].time_enabled, 0u);
  const auto t = combine(software_events(), r);
  // task-clock is the time the thread was on a CPU as the kernel sees it: at least the CPU time
  // the kernel accounts to the thread for the spin (less scheduling granularity), and at most
  // the wall time the counter was open. Under a hypervisor the two clocks part: task-clock runs
  // on the kernel's local clock and so also counts time the host took the virtual CPU away
  // (steal), which the thread's CPU-time clock leaves out — a spin of 0.05 s read 53 ms of
  // task-clock against 27 ms of thread CPU time on a loaded KVM guest.
  EXPECT_GE(t.cpu_seconds, 0.75 * (cpu1 - cpu0) - 0.004) << "task-clock " << r[0].value << " ns";
  EXPECT_LE(t.cpu_seconds, wall + 0.004) << "task-clock " << r[0].value << " ns";
}

TEST(PerfEvent, CountThisProcessSumsTheThreadsOfThisProcess) {
  // task-clock on every thread of this process over a spin of this thread: at least the CPU
  // time the kernel accounts to the spin (as TaskClockCountsThisProcess judges it; on a loaded
  // machine a 0.05 s spin may get far less than 0.05 s of CPU), one reading per event.
  double cpu = 0;
  const ProcessCount c = count_this_process(software_events(), [&cpu] {
    const double cpu0 = thread_cpu_seconds();
    spin_for(0.05);
    cpu = thread_cpu_seconds() - cpu0;
  });
  ASSERT_EQ(c.readings.size(), 1u);
  if (!c.failures.empty()) GTEST_SKIP() << "software events are refused here: " << c.failures[0];
  EXPECT_GE(c.counted_threads, 1);
  EXPECT_EQ(c.readings[0].name, software_events()[0].name);
  EXPECT_EQ(c.readings[0].time_running, c.readings[0].time_enabled);
  EXPECT_GE(combine(software_events(), c.readings).cpu_seconds, 0.75 * cpu - 0.004)
      << "task-clock " << c.readings[0].value << " ns";
}

TEST(PerfEvent, ProbeOfASysfsWithoutPmuGivesTheMissingMessage) {
  const PmuStatus s = probe_pmu(kSysfs / "kvm-no-pmu");
  EXPECT_TRUE(s.core_pmu.empty());
  EXPECT_TRUE(s.uncore_pmus.empty());
  const std::string m = explain_missing(s);
  EXPECT_NE(m.find("hardware counters are missing"), std::string::npos) << m;
  EXPECT_NE(explain_uncore_missing(s).find("no memory-controller PMU"), std::string::npos);
}

TEST(PerfEvent, ClientFreeRunningImcCountsDataReadAndWrite) {
  // Tiger Lake and later clients: uncore_imc_free_running_N data_read/data_write, 64 B each
  // (the kernel's scale 6.103515625e-5 MiB).
  const fs::path root = kSysfs / "intel-tgl-free-running";
  const PmuStatus s = probe_pmu(root);
  EXPECT_EQ(s.uncore_pmus, std::vector<std::string>{"uncore_imc_free_running_0"});
  EventPlan p;
  add_dram_events(p, {"GenuineIntel", 6, 0x8C, ""}, root);
  ASSERT_EQ(p.events.size(), 2u);
  EXPECT_TRUE(p.missing.empty());
  EXPECT_EQ(p.events[0].name, "uncore_imc_free_running_0/data_read/ (RD, cpu 0)");
  EXPECT_EQ(p.events[0].config, 0x20FFu);  // event=0xff,umask=0x20
  EXPECT_EQ(p.events[1].config, 0x30FFu);  // event=0xff,umask=0x30
  for (const auto& e : p.events) {
    EXPECT_EQ(e.role, Role::dram);
    EXPECT_EQ(e.type, 14u);
    EXPECT_NEAR(e.weight, 64.0, 1e-9);
    EXPECT_TRUE(e.system_wide);
  }
  EXPECT_NE(p.events[0].group, p.events[1].group);  // free-running: each on its own
}

TEST(PerfEvent, CounterSetReadsPmuTypesUnderTheGivenSysfs) {
  EventSpec e;
  e.name = "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE";
  e.pmu = "cpu";
  e.config = 0x01C7;
  CounterSet set;
  const fs::path root = kSysfs / "kvm-no-pmu";  // has no cpu/ (whatever this machine has)
  set.open({e}, 0, /*on_exec=*/false, root);
  ASSERT_EQ(set.failures().size(), 1u);
  EXPECT_EQ(set.failures()[0],
            "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE: PMU 'cpu' not found under " + root.string());
  EXPECT_EQ(set.opened(), 0u);
}

TEST(PerfEvent, ProbeOfThisMachineIsConsistent) {
  const PmuStatus s = probe_pmu();
  // Either the core PMU works, or the message says why not: never silence.
  if (s.core_pmu.empty() || !s.core_pmu_usable) {
    std::cout << "[ info ] " << explain_missing(s) << "\n";
    EXPECT_FALSE(explain_missing(s).empty());
  } else {
    EXPECT_TRUE(explain_missing(s).empty());
  }
  EXPECT_EQ(s.core_pmu.empty(), !fs::exists("/sys/bus/event_source/devices/cpu/type") &&
                                    !fs::exists("/sys/bus/event_source/devices/cpu_core/type"));
}

TEST(RunCounted, ExitStatusTimeAndVerbatimArguments) {
  RunOptions opt;
  opt.hardware = false;
  auto r = run_counted({"sleep", "0.05"}, opt);
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_GE(r.wall_seconds, 0.05);
  EXPECT_LT(r.wall_seconds, 10.0);
  r = run_counted({"sh", "-c", "exit 7"}, opt);
  EXPECT_EQ(r.exit_status, 7);
  // Arguments reach the program verbatim: spaces and ; are not split or interpreted.
  r = run_counted({"sh", "-c", "test \"$1\" = 'a b;c' && test \"$#\" = 1", "sh", "a b;c"}, opt);
  EXPECT_EQ(r.exit_status, 0);
  r = run_counted({"sh", "-c", "kill -TERM $$"}, opt);
  EXPECT_EQ(r.term_signal, 15);
  EXPECT_EQ(r.exit_status, 128 + 15);
}

TEST(RunCounted, ProgramThatDoesNotExist) {
  RunOptions opt;
  opt.hardware = false;
  try {
    run_counted({"/no/such/program-roofline"}, opt);
    FAIL() << "expected ExecError";
  } catch (const ExecError& e) {
    EXPECT_EQ(e.code(), 127);
    EXPECT_NE(std::string(e.what()).find("cannot run '/no/such/program-roofline'"),
              std::string::npos);
  }
  EXPECT_THROW(run_counted({}, opt), roofline::InputError);
}

TEST(RunCounted, CountsTheChildsCpuTimeWithTaskClock) {
  RunOptions opt;
  opt.hardware = false;
  const auto r = run_counted({"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"}, opt);
  ASSERT_EQ(r.exit_status, 0);
  if (!r.open_failures.empty()) GTEST_SKIP() << "software events refused: " << r.open_failures[0];
  EXPECT_GT(r.totals.cpu_seconds, 0.0);
  // The child cannot use more CPU than wall time × cores.
  EXPECT_LE(r.totals.cpu_seconds, r.wall_seconds * 256);
}
}  // namespace ROOFLINE_UNITY_ID
