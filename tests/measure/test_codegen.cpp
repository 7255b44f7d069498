// What runs is what is declared: disassembles the kernels built into this very binary and
// counts, in each kernel's loop, the instructions its declaration states (work instructions for
// compute kernels; vector loads and stores for memory kernels). Kernels of every instruction set
// are checked, including those this CPU cannot run.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "roofline/cpu_backend.hpp"

namespace roofline::cpu {
namespace ROOFLINE_UNITY_ID {

struct Insn {
  unsigned long address = 0;
  std::string mnemonic;
  std::string operands;
};

// symbol → instructions, from `objdump -d` of this executable.
const std::map<std::string, std::vector<Insn>>& disassembly() {
  static const std::map<std::string, std::vector<Insn>> all = [] {
    std::map<std::string, std::vector<Insn>> out;
    // This process's own executable (resolved here: in the shell, /proc/self is the shell).
    std::error_code ec;
    const std::string exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec) return out;
    const std::string cmd = "objdump -d --no-show-raw-insn '" + exe + "' 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    std::string current;
    char line[4096];
    while (std::fgets(line, sizeof line, p)) {
      std::string s(line);
      if (!s.empty() && s.back() == '\n') s.pop_back();
      const auto lt = s.find(" <"), gt = s.rfind(">:");
      if (lt != std::string::npos && gt != std::string::npos && s.find('\t') == std::string::npos) {
        current = s.substr(lt + 2, gt - lt - 2);
        continue;
      }
      const auto colon = s.find(":\t");
      if (current.rfind("roofline_cpu_", 0) != 0 || colon == std::string::npos) continue;
      Insn in;
      in.address = std::stoul(s.substr(0, colon), nullptr, 16);
      std::string rest = s.substr(colon + 2);
      if (rest.rfind("{vex} ", 0) == 0) rest = rest.substr(6);
      const auto sp = rest.find_first_of(" \t");
      in.mnemonic = rest.substr(0, sp);
      if (sp != std::string::npos) {
        const auto op = rest.find_first_not_of(" \t", sp);
        if (op != std::string::npos) in.operands = rest.substr(op);
      }
      out[current].push_back(in);
    }
    pclose(p);
    return out;
  }();
  return all;
}

// The loop closed by the first (or last) backward conditional branch `branch`.
std::vector<Insn> loop_body(const std::vector<Insn>& f, const std::string& branch, bool first) {
  std::vector<Insn> body;
  for (size_t i = 0; i < f.size(); ++i) {
    const size_t idx = first ? i : f.size() - 1 - i;
    if (f[idx].mnemonic != branch) continue;
    const unsigned long target = std::stoul(f[idx].operands, nullptr, 16);
    if (target >= f[idx].address) continue;
    for (const auto& in : f)
      if (in.address >= target && in.address <= f[idx].address) body.push_back(in);
    return body;
  }
  return body;
}

// The last operand (AT&T: the destination), splitting at commas outside parentheses.
std::string last_operand(const std::string& ops) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i] == '(') ++depth;
    if (ops[i] == ')') --depth;
    if (ops[i] == ',' && depth == 0) start = i + 1;
  }
  return ops.substr(start);
}

int count(const std::vector<Insn>& body, const std::string& mnemonic) {
  int n = 0;
  for (const auto& in : body) n += in.mnemonic == mnemonic;
  return n;
}

void require_disassembly() {
  if (disassembly().empty()) GTEST_SKIP() << "objdump not available";
}

TEST(MeasureCodegen, ComputeLoopsExecuteTheDeclaredInstructions) {
  require_disassembly();
  int checked = 0;
  for (const CpuBackend* b : all_backends())
    for (const ComputeKernel& k : b->compute_kernels()) {
      SCOPED_TRACE(k.symbol);
      const auto it = disassembly().find(k.symbol);
      ASSERT_NE(it, disassembly().end()) << "kernel not found in the binary";
      const auto body = loop_body(it->second, "jne", false);
      ASSERT_FALSE(body.empty()) << "no loop found";
      int declared = 0;
      for (const auto& ins : k.body) {
        EXPECT_EQ(count(body, ins.mnemonic), ins.count) << ins.mnemonic;
        declared += ins.count;
      }
      // Nothing else in the loop but the counter and the branch.
      EXPECT_EQ(static_cast<int>(body.size()), declared + 2);
      // Registers of the declared width: ymm for 256-bit, zmm for 512-bit, tiles for AMX.
      const char* reg = is_amx(k.kind)        ? "%tmm"
                        : k.width_bits == 512 ? "%zmm"
                        : k.width_bits == 256 ? "%ymm"
                                              : "%xmm";
      for (const auto& in : body)
        if (in.mnemonic != "dec" && in.mnemonic != "jne") {
          EXPECT_NE(in.operands.find(reg), std::string::npos) << in.mnemonic << " " << in.operands;
        }
      ++checked;
    }
#if defined(__x86_64__)
  EXPECT_GE(checked, 20);
#endif
}

TEST(MeasureCodegen, MemoryLoopsLoadAndStoreWhatTheyDeclare) {
  require_disassembly();
  for (const CpuBackend* b : all_backends())
    for (const MemoryKernel& k : b->memory_kernels()) {
      SCOPED_TRACE(k.symbol);
      const auto it = disassembly().find(k.symbol);
      ASSERT_NE(it, disassembly().end());
      const auto body = loop_body(it->second, "jb", false);
      ASSERT_FALSE(body.empty());
      int loads = 0, stores = 0, nt = 0;
      for (const auto& in : body) {
        const auto paren = in.operands.find('(');
        if (paren == std::string::npos) continue;
        const bool store = last_operand(in.operands).find('(') != std::string::npos;
        if (store)
          ++stores;
        else
          ++loads;
        if (in.mnemonic.find("movnt") != std::string::npos) ++nt;
        const std::string reg = k.width_bits == 512 ? "%zmm" : "%ymm";
        EXPECT_NE(in.operands.find(reg), std::string::npos) << in.mnemonic << " " << in.operands;
      }
      EXPECT_EQ(loads, k.loads);
      EXPECT_EQ(stores, k.stores);
      EXPECT_EQ(nt, k.nontemporal ? k.stores : 0);
    }
}

TEST(MeasureCodegen, CurveInnerLoopHasEightFmas) {
  require_disassembly();
  for (const CpuBackend* b : all_backends())
    if (const CurveKernel* c = b->curve_kernel()) {
      SCOPED_TRACE(c->symbol);
      const auto it = disassembly().find(c->symbol);
      ASSERT_NE(it, disassembly().end());
      const auto inner = loop_body(it->second, "jne", true);
      // 8 FMAs per round, one on each loaded vector: work_per_group counts 2 FLOP × lanes each.
      EXPECT_EQ(count(inner, "vfmadd213pd"), 8);
      const auto outer = loop_body(it->second, "jne", false);
      EXPECT_EQ(count(outer, "vmovapd"), 8);  // 8 vectors loaded per group
      EXPECT_EQ(count(outer, "vaddpd"), 8);   // 4 + 4 adds (the light path skips the first 4)
      EXPECT_DOUBLE_EQ(c->work_per_group(0, false), 8.0 * (c->width_bits / 64));
    }
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::cpu
