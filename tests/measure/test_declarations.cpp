// Every kernel's declaration is self-consistent: work = instructions × lanes × work per lane,
// bytes per iteration follow from loads, stores and write-allocate, names are unique.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <map>
#include <set>
#include <string>

#include "roofline/cpu_analysis.hpp"
#include "roofline/cpu_backend.hpp"

namespace roofline::cpu {
namespace ROOFLINE_UNITY_ID {

TEST(MeasureDeclarations, ComputeWorkFollowsFromInstructionsAndLanes) {
  std::set<std::string> symbols;
  int n = 0;
  for (const CpuBackend* b : all_backends()) {
    // A roof once per backend; a wider backend may measure a narrower one's roof again (the
    // plan keeps the widest backend's kernel: test_plan.cpp).
    std::set<std::string> roofs;
    for (const ComputeKernel& k : b->compute_kernels()) {
      ++n;
      EXPECT_TRUE(symbols.insert(k.symbol).second) << k.symbol;
      EXPECT_TRUE(roofs.insert(k.roof_name()).second) << k.roof_name();
      ASSERT_FALSE(k.body.empty()) << k.symbol;
      const double per_lane = k.kind == KernelClass::fp_add_mul ? 1 : 2;
      EXPECT_DOUBLE_EQ(k.work_per_iteration, k.work_instructions * k.lanes() * per_lane)
          << k.symbol;
      int counted = 0;
      for (const auto& ins : k.body) counted += ins.count;
      EXPECT_GE(counted, k.work_instructions) << k.symbol;
    }
  }
#if defined(__x86_64__)
  EXPECT_GE(n, 20);  // fp64/fp32 × widths × {fma, add+mul} + integer + VNNI/BF16/FP16
#endif
}

TEST(MeasureDeclarations, KnownKernelsDeclareTheTextbookWork) {
  std::map<std::string, double> work;
  for (const CpuBackend* b : all_backends())
    for (const ComputeKernel& k : b->compute_kernels()) work[k.symbol] = k.work_per_iteration;
#if defined(__x86_64__)
  // 12 × vfmadd213pd ymm: 12 × 4 lanes × 2 FLOP.
  EXPECT_EQ(work.at("roofline_cpu_fma_pd256"), 96);
  EXPECT_EQ(work.at("roofline_cpu_fma_ps512"), 12 * 16 * 2);
  EXPECT_EQ(work.at("roofline_cpu_fma_sd"), 24);
  // 7 adds + 7 multiplies of 8 fp32 lanes; 12 + 12 of 8 fp64 lanes.
  EXPECT_EQ(work.at("roofline_cpu_addmul_ps256"), 112);
  EXPECT_EQ(work.at("roofline_cpu_addmul_pd512"), 24 * 8);
  // 6 × vpmaddwd ymm: 16 int16 products × 2 OP.
  EXPECT_EQ(work.at("roofline_cpu_int16_256"), 192);
  // 4 × vpmaddubsw ymm: 32 int8 products × 2 OP.
  EXPECT_EQ(work.at("roofline_cpu_int8_256"), 256);
  // 12 × vpdpbusd zmm: 64 int8 products × 2 OP.
  EXPECT_EQ(work.at("roofline_cpu_vnni512"), 12 * 64 * 2);
  EXPECT_EQ(work.at("roofline_cpu_fma_ph512"), 12 * 32 * 2);
  // 4 tile dot products of 16 × 16 results, each a sum of 32 bf16 (64 int8) products: the
  // 16384 FLOP and 32768 OP per instruction behind Intel's 1024 and 2048 per cycle.
  EXPECT_EQ(work.at("roofline_cpu_amx_bf16"), 4 * 16 * 16 * 32 * 2);
  EXPECT_EQ(work.at("roofline_cpu_amx_int8"), 4 * 16 * 16 * 64 * 2);
#endif
}

TEST(MeasureDeclarations, MemoryBytesFollowFromLoadsStoresAndWriteAllocate) {
  for (const CpuBackend* b : all_backends())
    for (const MemoryKernel& k : b->memory_kernels()) {
      const int vb = k.width_bits / 8;
      EXPECT_EQ(k.named_bytes_per_iteration, (k.loads + k.stores) * vb) << k.symbol;
      EXPECT_EQ(k.bytes_per_array_per_iteration, 4 * vb) << k.symbol;
      const std::string mix = k.mix;
      // Write-allocate: lines stored with ordinary stores but not read first are also read.
      const bool stores_unread = mix == "copy" || mix == "triad" || mix == "write";
      EXPECT_EQ(k.moved_bytes_per_iteration,
                k.named_bytes_per_iteration + (stores_unread ? k.stores * vb : 0))
          << k.symbol;
      if (k.nontemporal) {
        EXPECT_EQ(k.moved_bytes_per_iteration, k.named_bytes_per_iteration);
      }
    }
}

TEST(MeasureDeclarations, StreamConventionsPerElement) {
  // STREAM counts copy 16, triad 24 bytes per fp64 element; daxpy 24, update 16, load 8, write 8.
  for (const CpuBackend* b : all_backends())
    for (const MemoryKernel& k : b->memory_kernels()) {
      const double elements = k.bytes_per_array_per_iteration / 8.0;
      const std::map<std::string, double> named = {
          {"load", 8},   {"update", 16},   {"copy", 16},  {"copy_nt", 16},
          {"triad", 24}, {"triad_nt", 24}, {"daxpy", 24}, {"write", 8}};
      EXPECT_EQ(k.named_bytes_per_iteration / elements, named.at(k.mix)) << k.symbol;
    }
}

TEST(MeasureDeclarations, CurveIntensitySpansSixteenthToTwoHundredFiftySix) {
  for (const CpuBackend* b : all_backends())
    if (const CurveKernel* c = b->curve_kernel()) {
      const double lanes = c->width_bits / 64.0;
      // light: 4 of 8 vectors added, 1 FLOP per lane, over 8 vectors of bytes.
      EXPECT_DOUBLE_EQ(c->work_per_group(0, true) / c->bytes_per_group, 1.0 / 16);
      EXPECT_DOUBLE_EQ(c->work_per_group(1024, false), 8 * lanes * (2 * 1024 + 1));
      EXPECT_NEAR(c->work_per_group(1024, false) / c->bytes_per_group, 256.1, 0.1);
    }
}

TEST(MeasureRates, ComputedFromTheDeclaration) {
  // The engine computes every rate from the kernel's declaration (engine::work_rate/byte_rate).
  for (const CpuBackend* b : all_backends())
    for (const ComputeKernel& k : b->compute_kernels()) {
      const engine::Declaration d = declaration_of(k);
      EXPECT_EQ(d.kernel, std::string(k.symbol));
      EXPECT_EQ(d.width_bits, k.width_bits);
      EXPECT_EQ(d.instruction_class, to_string(k.kind));
      EXPECT_EQ(d.integer, k.integer);
      // 1e6 iterations on each of 2 threads in 1 ms.
      EXPECT_DOUBLE_EQ(engine::work_rate(d, {2e6, 1e-3}), k.work_per_iteration * 2e9);
      EXPECT_DOUBLE_EQ(engine::rate(d, {2e6, 1e-3}), k.work_per_iteration * 2e9);
    }
  for (const CpuBackend* b : all_backends())
    for (const MemoryKernel& k : b->memory_kernels()) {
      const engine::Declaration d = declaration_of(k);
      EXPECT_EQ(d.instruction_class, std::string(k.mix));
      const double per_array = 1 << 20;
      const double iters =
          per_array / k.bytes_per_array_per_iteration * 3 * 2;  // 3 passes, 2 threads
      EXPECT_DOUBLE_EQ(engine::byte_rate(d, {iters, 0.5}),
                       k.named_bytes_per_iteration * iters / 0.5);
      EXPECT_DOUBLE_EQ(engine::byte_rate(d, {iters, 0.5}, true),
                       k.moved_bytes_per_iteration * iters / 0.5);
      EXPECT_DOUBLE_EQ(engine::rate(d, {iters, 0.5}), engine::byte_rate(d, {iters, 0.5}));
    }
}

TEST(MeasureDeclarations, AddMulKernelsHaveChainsToSpare) {
  // Add and multiply chains each carry a 3-cycle dependency on two pipes (AMD Zen): 6 + 6
  // chains are exactly latency × pipes and settle below the issue rate; 7 + 7 (16 registers) or
  // 12 + 12 (AVX-512) leave slack. Every chain is stored and checked.
  for (const CpuBackend* b : all_backends())
    for (const ComputeKernel& k : b->compute_kernels()) {
      EXPECT_LE(k.chains, kMaxChains) << k.symbol;
      if (k.kind != KernelClass::fp_add_mul) continue;
      SCOPED_TRACE(k.symbol);
      ASSERT_EQ(k.body.size(), 2u);
      EXPECT_EQ(k.body[0].count, k.body[1].count);  // a 50/50 mix, as the table assumes
      EXPECT_GE(k.body[0].count, 7);
      EXPECT_EQ(k.chains, k.body[0].count + k.body[1].count);
      EXPECT_EQ(k.work_instructions, k.chains);
      if (k.width_bits == 512) {
        EXPECT_EQ(k.chains, 24);
      }
    }
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::cpu
