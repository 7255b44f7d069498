// What a memory sample counts is what the kernel was given: the iterations the memory step
// declares per sample (MixJob::iterations_per_sample) times the bytes each iteration moves per
// array must equal the bytes the kernel ran on, for a whole pass and for a slice of a DRAM-sized
// working set alike. A kernel that counts what it is given stands in for the real one.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <atomic>
#include <vector>

#include "measure/cpu/mix_job.hpp"

namespace roofline::cpu {
namespace ROOFLINE_UNITY_ID {

std::atomic<size_t> given_bytes{0};  // bytes per array the kernel was asked to run on
std::atomic<int> calls{0};

void counting_run(double* const*, std::size_t bytes_per_array) {
  given_bytes += bytes_per_array;
  ++calls;
}

// An update-like mix: two arrays, 64 bytes of each per iteration.
const MemoryKernel kCounting{"counting", "copy", "test", 512, 2,  1,
                             1,          false,  128,    128, 64, &counting_run};

double counted_bytes(const std::vector<engine::Sample>& samples) {
  double b = 0;
  for (const auto& s : samples) b += s.iterations * kCounting.bytes_per_array_per_iteration;
  return b;
}

TEST(MixJob, ASampleCountsTheBytesOfTheSliceItRan) {
  engine::ThreadTeam team({0, 0});  // two threads
  constexpr size_t kChunk = 8u << 20;
  const Buffer buf(2 * kChunk);
  // A 12 MB working set against a "last-level cache" of 1 MB: sampled a slice at a time (the
  // counting kernel is instant, so any sample time below a pass gives slices).
  given_bytes = 0;
  calls = 0;
  MixJob job(team, buf, kChunk, kCounting, 12e6, 1e-9, false, 1e6);
  // Calibrated by one pass per thread: the buffer is paged in and no level is to be filled.
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(given_bytes.load(), 2 * job.arrays.bytes_per_array);
  ASSERT_GT(job.parts, 1);
  ASSERT_GT(job.part_bytes, 0u);
  EXPECT_EQ(job.part_bytes % 64, 0u);
  EXPECT_GE(double(job.part_bytes) * 2 * team.size(), 2 * 1e6);  // a slice ≥ 2 × the LLC
  std::vector<engine::Sample> out;
  given_bytes = 0;
  calls = 0;
  job.visit().take(5, out);
  ASSERT_EQ(out.size(), 5u);
  // One untimed slice first (it evicts what the measurement before left), then five timed ones,
  // each run by both threads.
  EXPECT_EQ(calls.load(), 6 * 2);
  EXPECT_EQ(given_bytes.load(), 6 * 2 * job.part_bytes);
  EXPECT_DOUBLE_EQ(counted_bytes(out), 5.0 * 2 * double(job.part_bytes));
  // The slices go round: the next visit starts where this one stopped.
  EXPECT_EQ(job.next_part, 5 % job.parts);
  // A working set just at 4 × the LLC cannot be cut into two slices of 2 × the LLC each once
  // rounded to whole iterations: it is taken a whole pass at a time.
  const MixJob edge(team, buf, kChunk, kCounting, 12e6, 1e-9, false, 3e6 - 10);
  EXPECT_EQ(edge.parts, 1);
}

TEST(MixJob, ASampleOfACacheLevelCountsItsWholePasses) {
  engine::ThreadTeam team({0});
  constexpr size_t kChunk = 1u << 20;
  const Buffer buf(kChunk);
  given_bytes = 0;
  calls = 0;
  MixJob job(team, buf, kChunk, kCounting, 32768, 1e-3, true);  // warm: a cache level
  // Brought into its level by one pass, then timed by the faster of two.
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(job.parts, 1);
  std::vector<engine::Sample> out;
  given_bytes = 0;
  calls = 0;
  job.visit().take(3, out);
  ASSERT_EQ(out.size(), 3u);
  // One untimed pass refills the level, then each sample is `passes` passes of 16 KiB per array.
  EXPECT_EQ(job.arrays.bytes_per_array, 16384u);
  EXPECT_EQ(given_bytes.load(), (1 + 3 * size_t(job.passes)) * 16384u);
  EXPECT_DOUBLE_EQ(counted_bytes(out), 3.0 * job.passes * 16384);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::cpu
