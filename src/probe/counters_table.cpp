// The event tables as data: every encoding `roofline profile` programs, what a count is worth,
// and the public table it was read from. tests/probe/test_event_table.cpp compares each row
// with the checked-in extracts in tests/data/probe/events/ (README there names repository,
// path and commit of every extract), and each CPU model's list with Linux's mapfile.csv.
//
// x86 core PMUs: perf_event raw config = event | umask << 8. Uncore PMUs: encoded through the
// PMU's sysfs format files (encode_config), so the bit layout is the kernel's.
//
// Weights: Intel FP_ARITH_INST_RETIRED rows carry the lanes per count ("Each count represents N
// computation operations", checked against the extracts' descriptions; FM(N)ADD counts twice, so
// FMA = 2 FLOP); FP_ARITH_INST_RETIRED2 half precision: 128/256/512-bit vectors hold 8/16/32
// halves, the complex scalar 2. AMD PMCx003 counts FLOPs (MAC = 2), weight 1. DRAM: 64 B per
// CAS command or data-fabric beat (the kernel's scale 6.103515625e-5 MiB; the umc_mem_*_bandwidth
// metrics' "× 64"; "Requests with Data (64B)"). Lines: 64 B per L1/L2 fill.
//
// Levels of the line-fill events: Q at a level is the traffic that level serves to the one
// nearer the core (the suite's convention, hierarchical roofline). L1D.REPLACEMENT counts lines
// brought into L1 — served by L2 — so it is Q(L2); L2_LINES_IN.ALL counts lines brought into L2
// from L3 or memory: Q(L3). Write-backs are not fills and are not counted.
#include "roofline/counters.hpp"

namespace roofline::counters {
namespace {

constexpr const char* kLinux = "torvalds/linux";
constexpr const char* kLikwid = "RRZE-HPC/likwid";
constexpr const char* kLibpfm = "wcohen/libpfm4";
constexpr const char* kPerfEvents = "tools/perf/pmu-events/arch/x86/";

std::string pe(const char* file) {
  return std::string(kPerfEvents) + file;
}

std::vector<EventSource> make_sources() {
  return {
      {"linux:mapfile.csv", kLinux, pe("mapfile.csv"), "b333067ff3b0ee63e226a06633f3df12491028ab"},
      {"linux:mapfile.csv+amdzen5", kLinux, pe("mapfile.csv"),
       ""},  // the amdzen5 line, seen in the patch that adds it
      {"linux:broadwell/floating-point.json", kLinux, pe("broadwell/floating-point.json"),
       "037dd1308c6dfa64edd2dfcd1b8177a3f484a124"},
      {"linux:broadwell/cache.json", kLinux, pe("broadwell/cache.json"),
       "1775634ea406af3befaa8d4e0dc5b245f8cb8fe1"},
      {"linux:broadwellx/cache.json", kLinux, pe("broadwellx/cache.json"),
       "0604aa87b098740f2e517a584552591cbf2209d7"},
      {"linux:skylake/floating-point.json", kLinux, pe("skylake/floating-point.json"),
       "60a5825e9cbeed329d6a6fc0705b21d7c33c9e42"},
      {"linux:skylake/cache.json", kLinux, pe("skylake/cache.json"),
       "7b58b82b86c8b65a2b57a4c6cb96a460654f9e09"},
      {"linux:skylakex/floating-point.json", kLinux, pe("skylakex/floating-point.json"),
       "0604aa87b098740f2e517a584552591cbf2209d7"},
      {"linux:skylakex/cache.json", kLinux, pe("skylakex/cache.json"),
       "820e9906cf64142169134f35b996108303cf22ca"},
      {"linux:icelakex/floating-point.json", kLinux, pe("icelakex/floating-point.json"),
       "71af75b6929458d85f63c0649dc26d6f4c19729e"},
      {"linux:icelakex/cache.json", kLinux, pe("icelakex/cache.json"),
       "f25db21bbf9a47042665f7742d6054b5a27c0c2a"},
      {"linux:alderlake/floating-point.json", kLinux, pe("alderlake/floating-point.json"),
       "7b58b82b86c8b65a2b57a4c6cb96a460654f9e09"},
      {"linux:alderlake/cache.json", kLinux, pe("alderlake/cache.json"),
       "a94e42b12c906f14ba9e701db7604fba0383d0f4"},
      {"linux:sapphirerapids/floating-point.json", kLinux, pe("sapphirerapids/floating-point.json"),
       "db03dce9365dc4350698b885e723b01b90484525"},
      {"linux:sapphirerapids/cache.json", kLinux, pe("sapphirerapids/cache.json"),
       "34122105f9e89e76de510d684fcd0aa5de2ae5b0"},
      {"linux:graniterapids/floating-point.json", kLinux, pe("graniterapids/floating-point.json"),
       "0e08908841999354e86e85a38d3ad268a59924b2"},
      {"linux:graniterapids/uncore-memory.json", kLinux, pe("graniterapids/uncore-memory.json"),
       "917f63ad758076cb6261bda1d05e98a673947c95"},
      {"linux:sierraforest/uncore-memory.json", kLinux, pe("sierraforest/uncore-memory.json"),
       "7fed738791e03e0ea0fe431514c9c0ba20547f6f"},
      {"linux:uncore_snbep.c:gnr_uncore_imc_events", kLinux, "arch/x86/events/intel/uncore_snbep.c",
       ""},  // the patch adding gnr_uncore_imc_events, as posted
      {"linux:uncore_snbep.c:spr_uncore_imc_events", kLinux, "arch/x86/events/intel/uncore_snbep.c",
       ""},  // the patch adding spr_uncore_imc_events (lore 20230419214241.2310385-1)
      {"linux:uncore_snb.c", kLinux, "arch/x86/events/intel/uncore_snb.c",
       "0401bbf56da5f15a6fdb1adaad6dc4ec624ce5f2"},
      {"linux:amdzen1/floating-point.json", kLinux, pe("amdzen1/floating-point.json"),
       "41d91ec3de8a90167159275bde7ed65768723556"},
      {"linux:amdzen2/floating-point.json", kLinux, pe("amdzen2/floating-point.json"),
       "a94e42b12c906f14ba9e701db7604fba0383d0f4"},
      {"linux:amdzen3/floating-point.json", kLinux, pe("amdzen3/floating-point.json"),
       "8be98d2f2a0a262f8bf8a0bc1fdf522b3c7aab17"},
      {"linux:amdzen3/data-fabric.json", kLinux, pe("amdzen3/data-fabric.json"),
       "8cdf3792526ab681e1f4a0c202e779400b2b8177"},
      {"linux:amdzen4/floating-point.json", kLinux, pe("amdzen4/floating-point.json"),
       "4515dda146c17d2d088578cc39136f8d046d1b94"},
      {"linux:amdzen4/memory-controller.json", kLinux, pe("amdzen4/memory-controller.json"),
       "346878dacc81f53667381c8f4bb5018195ca10be"},
      {"linux:amdzen4/recommended.json:umc", kLinux, pe("amdzen4/recommended.json"),
       ""},  // the memory-controller metrics, as posted in the patch adding them
      {"linux:amdzen5/floating-point.json", kLinux, pe("amdzen5/floating-point.json"),
       "67f8bc848ee31831336bd478e57d2f993551902e"},
      {"linux:amdzen5/memory-controller.json", kLinux, pe("amdzen5/memory-controller.json"),
       "3c69140734a27f8b145f12fa0ae80c1fe36a02ca"},
      {"libpfm4:amd64_events_fam17h_zen2.h", kLibpfm, "lib/events/amd64_events_fam17h_zen2.h",
       "de4beb0da7530bc1dcd2f19582dfeca2ecb1d185"},
      {"likwid:perfmon_zen2_events.txt", kLikwid, "src/includes/perfmon_zen2_events.txt",
       "057dd23a6e02f44b5781ea10c0ef895e8046f08c"},
      {"likwid:perfmon_zen5_events.txt", kLikwid, "src/includes/perfmon_zen5_events.txt",
       "13ae8dbc3ab762727bdcf2b742ade482d7a2b54f"},
  };
}

// Intel FP_ARITH_INST_RETIRED (event 0xC7) rows for one list: doubles in group 1, singles in
// group 2, at most four to a group (four general-purpose counters per thread with SMT on).
// The 512-bit rows only where the list has them (AVX-512 parts).
void add_fp_arith(std::vector<TableEvent>& t, const std::string& table, const std::string& src,
                  bool with_512) {
  struct W {
    const char* name;
    unsigned umask;
    const char* precision;
    double lanes;
    int group;
    bool avx512;
  };
  const W rows[] = {
      {"SCALAR_DOUBLE", 0x01, "fp64", 1, 1, false},
      {"128B_PACKED_DOUBLE", 0x04, "fp64", 2, 1, false},
      {"256B_PACKED_DOUBLE", 0x10, "fp64", 4, 1, false},
      {"512B_PACKED_DOUBLE", 0x40, "fp64", 8, 1, true},
      {"SCALAR_SINGLE", 0x02, "fp32", 1, 2, false},
      {"128B_PACKED_SINGLE", 0x08, "fp32", 4, 2, false},
      {"256B_PACKED_SINGLE", 0x20, "fp32", 8, 2, false},
      {"512B_PACKED_SINGLE", 0x80, "fp32", 16, 2, true},
  };
  for (const auto& r : rows) {
    if (r.avx512 && !with_512) continue;
    const std::string name = std::string("FP_ARITH_INST_RETIRED.") + r.name;
    t.push_back({table,
                 name,
                 0xC7,
                 r.umask,
                 Role::flops,
                 r.precision,
                 r.lanes,
                 r.group,
                 r.avx512,
                 {{src, name}}});
  }
}

void add_lines(std::vector<TableEvent>& t, const std::string& table, unsigned l2_event,
               unsigned l2_umask, std::vector<SourceRef> l1_src, std::vector<SourceRef> l2_src) {
  t.push_back(
      {table, "L1D.REPLACEMENT", 0x51, 0x01, Role::level, "L2", 64, 5, false, std::move(l1_src)});
  t.push_back({table, "L2_LINES_IN.ALL", l2_event, l2_umask, Role::level, "L3", 64, 5, false,
               std::move(l2_src)});
}

std::vector<TableEvent> make_table() {
  std::vector<TableEvent> t;
  // --- Intel big cores ----------------------------------------------------------------------
  // Broadwell, Broadwell-DE, Broadwell-X: L2_LINES_IN.ALL is umask 0x07 (I, S, E states).
  add_fp_arith(t, "intel-bdw", "linux:broadwell/floating-point.json", false);
  add_lines(t, "intel-bdw", 0xF1, 0x07,
            {{"linux:broadwell/cache.json", "L1D.REPLACEMENT"},
             {"linux:broadwellx/cache.json", "L1D.REPLACEMENT"}},
            {{"linux:broadwell/cache.json", "L2_LINES_IN.ALL"},
             {"linux:broadwellx/cache.json", "L2_LINES_IN.ALL"}});
  // Skylake client (and Kaby/Coffee/Whiskey/Amber/Comet Lake on the same list).
  add_fp_arith(t, "intel-skl", "linux:skylake/floating-point.json", false);
  add_lines(t, "intel-skl", 0xF1, 0x1F, {{"linux:skylake/cache.json", "L1D.REPLACEMENT"}},
            {{"linux:skylake/cache.json", "L2_LINES_IN.ALL"}});
  // Skylake-X, Cascade Lake, Cooper Lake (model 0x55).
  add_fp_arith(t, "intel-skx", "linux:skylakex/floating-point.json", true);
  add_lines(t, "intel-skx", 0xF1, 0x1F, {{"linux:skylakex/cache.json", "L1D.REPLACEMENT"}},
            {{"linux:skylakex/cache.json", "L2_LINES_IN.ALL"}});
  // Ice Lake (client and server), Tiger Lake, Rocket Lake.
  add_fp_arith(t, "intel-icl", "linux:icelakex/floating-point.json", true);
  add_lines(t, "intel-icl", 0xF1, 0x1F, {{"linux:icelakex/cache.json", "L1D.REPLACEMENT"}},
            {{"linux:icelakex/cache.json", "L2_LINES_IN.ALL"}});
  // Alder/Raptor Lake and Meteor Lake P-cores (Unit cpu_core): L2_LINES_IN is event 0x25.
  add_fp_arith(t, "intel-adl", "linux:alderlake/floating-point.json", false);
  add_lines(t, "intel-adl", 0x25, 0x1F, {{"linux:alderlake/cache.json", "L1D.REPLACEMENT"}},
            {{"linux:alderlake/cache.json", "L2_LINES_IN.ALL"}});
  // Sapphire, Emerald and Granite Rapids: + FP_ARITH_INST_RETIRED2 (half precision, 0xCF).
  add_fp_arith(t, "intel-spr", "linux:sapphirerapids/floating-point.json", true);
  for (auto& e : t)
    if (e.table == "intel-spr")
      e.sources.push_back({"linux:graniterapids/floating-point.json", e.name});
  struct H {
    const char* name;
    unsigned umask;
    double halves;
    int group;
  };
  for (const H& h : {H{"SCALAR_HALF", 0x01, 1, 3}, H{"COMPLEX_SCALAR_HALF", 0x02, 2, 3},
                     H{"128B_PACKED_HALF", 0x04, 8, 3}, H{"256B_PACKED_HALF", 0x08, 16, 4},
                     H{"512B_PACKED_HALF", 0x10, 32, 4}}) {
    const std::string name = std::string("FP_ARITH_INST_RETIRED2.") + h.name;
    t.push_back({"intel-spr",
                 name,
                 0xCF,
                 h.umask,
                 Role::flops,
                 "fp16",
                 h.halves,
                 h.group,
                 false,
                 {{"linux:sapphirerapids/floating-point.json", name},
                  {"linux:graniterapids/floating-point.json", name}}});
  }
  add_lines(t, "intel-spr", 0x25, 0x1F, {{"linux:sapphirerapids/cache.json", "L1D.REPLACEMENT"}},
            {{"linux:sapphirerapids/cache.json", "L2_LINES_IN.ALL"}});

  // --- Intel memory controllers -------------------------------------------------------------
  // Granite Rapids / Sierra Forest: two schedulers (sub-channels) per channel, events 0x05 and
  // 0x06. Kernels with gnr_uncore_imc_events name them cas_count_{read,write}_sch{0,1}; older
  // ones reuse Sapphire Rapids' cas_count_read/write (event 0x05 only, half the traffic).
  struct G {
    const char* name;
    unsigned event, umask;
    const char* kernel;
  };
  for (const G& g : {G{"UNC_M_CAS_COUNT_SCH0.RD", 0x05, 0xCF, "cas_count_read_sch0"},
                     G{"UNC_M_CAS_COUNT_SCH1.RD", 0x06, 0xCF, "cas_count_read_sch1"},
                     G{"UNC_M_CAS_COUNT_SCH0.WR", 0x05, 0xF0, "cas_count_write_sch0"},
                     G{"UNC_M_CAS_COUNT_SCH1.WR", 0x06, 0xF0, "cas_count_write_sch1"}})
    t.push_back({"intel-gnr-imc",
                 g.name,
                 g.event,
                 g.umask,
                 Role::dram,
                 "DRAM",
                 64,
                 100,
                 false,
                 {{"linux:graniterapids/uncore-memory.json", g.name},
                  {"linux:sierraforest/uncore-memory.json", g.name},
                  {"linux:uncore_snbep.c:gnr_uncore_imc_events", g.kernel}}});
  // Intel client memory controllers (Tiger Lake, Alder/Raptor Lake, Meteor Lake): free-running
  // data_read / data_write counters, one 64-byte line per count. The encodings come from the
  // kernel's sysfs event files at run time; these rows say what they are and are checked
  // against the kernel's tgl_uncore_imc_events.
  t.push_back({"intel-client-imc-free-running",
               "data_read",
               0xFF,
               0x20,
               Role::dram,
               "DRAM",
               64,
               120,
               false,
               {{"linux:uncore_snb.c", "data_read"}}});
  t.push_back({"intel-client-imc-free-running",
               "data_write",
               0xFF,
               0x30,
               Role::dram,
               "DRAM",
               64,
               121,
               false,
               {{"linux:uncore_snb.c", "data_write"}}});

  // --- AMD PMCx003 "Retired SSE/AVX FLOPs" ---------------------------------------------------
  // Zen, Zen+ (family 17h models 00h-2Fh): bits 7:4 double precision, 3:0 single precision.
  t.push_back({"amd-zen1",
               "fp_ret_sse_avx_ops.dp",
               0x03,
               0xF0,
               Role::flops,
               "fp64",
               1,
               1,
               false,
               {{"linux:amdzen1/floating-point.json",
                 "fp_ret_sse_avx_ops.dp_mult_add_flops|fp_ret_sse_avx_ops.dp_div_flops|"
                 "fp_ret_sse_avx_ops.dp_mult_flops|fp_ret_sse_avx_ops.dp_add_sub_flops"}}});
  t.push_back({"amd-zen1",
               "fp_ret_sse_avx_ops.sp",
               0x03,
               0x0F,
               Role::flops,
               "fp32",
               1,
               2,
               false,
               {{"linux:amdzen1/floating-point.json",
                 "fp_ret_sse_avx_ops.sp_mult_add_flops|fp_ret_sse_avx_ops.sp_div_flops|"
                 "fp_ret_sse_avx_ops.sp_mult_flops|fp_ret_sse_avx_ops.sp_add_sub_flops"}}});
  // Zen 2 (family 17h models 30h and up): bits 3:0 select the operation for every precision;
  // bits 7:4 are not defined (libpfm4 and likwid define only 0x01-0x08, "ANY"/"ALL" = 0x0F;
  // Linux's "all" 0xff sets the undefined bits too). Precisions are not separated.
  t.push_back({"amd-zen2",
               "fp_ret_sse_avx_ops.all",
               0x03,
               0x0F,
               Role::flops,
               "fp",
               1,
               1,
               false,
               {{"libpfm4:amd64_events_fam17h_zen2.h", "RETIRED_SSE_AVX_FLOPS:ANY"},
                {"likwid:perfmon_zen2_events.txt", "RETIRED_SSE_AVX_FLOPS_ALL"},
                {"linux:amdzen2/floating-point.json", "fp_ret_sse_avx_ops.all", 0x0F}}});
  // Zen 3: the same four operation bits; Linux's "all" 0xff.
  t.push_back({"amd-zen3",
               "fp_ret_sse_avx_ops.all",
               0x03,
               0xFF,
               Role::flops,
               "fp",
               1,
               1,
               false,
               {{"linux:amdzen3/floating-point.json", "fp_ret_sse_avx_ops.all"}}});
  // Zen 4: + 0x10 bfloat16 MAC; "all" 0x1f.
  t.push_back({"amd-zen4",
               "fp_ret_sse_avx_ops.all",
               0x03,
               0x1F,
               Role::flops,
               "fp",
               1,
               1,
               false,
               {{"linux:amdzen4/floating-point.json", "fp_ret_sse_avx_ops.all"}}});
  // Zen 5: bits 7:4 select the data type, bits 3:0 the operation (add/sub, mult, div/sqrt, MAC).
  // Linux's list gives the data-type selects with the operation bits clear (0x20 ... 0xa0);
  // likwid ORs in all four operation bits (0x2F ... 0xAF), which counts every operation under
  // either reading of the operation bits. Two PMCx003 (each with its MergeEvent pair: four of
  // the six counters) to a group.
  struct Z {
    const char* linux_name;
    const char* likwid_name;
    unsigned umask;
    const char* precision;
    int group;
  };
  for (const Z& z :
       {Z{"fp_ret_sse_avx_ops.scalar_double_flops", "RETIRED_SSE_AVX_FLOPS_ALL_DP_SCALAR", 0x8F,
          "fp64", 1},
        Z{"fp_ret_sse_avx_ops.packed_double_flops", "RETIRED_SSE_AVX_FLOPS_ALL_DP_PACKED", 0xAF,
          "fp64", 1},
        Z{"fp_ret_sse_avx_ops.scalar_single_flops", "RETIRED_SSE_AVX_FLOPS_ALL_SP_SCALAR", 0x4F,
          "fp32", 2},
        Z{"fp_ret_sse_avx_ops.packed_single_flops", "RETIRED_SSE_AVX_FLOPS_ALL_SP_PACKED", 0x6F,
          "fp32", 2},
        Z{"fp_ret_sse_avx_ops.bfloat16_flops", "RETIRED_SSE_AVX_FLOPS_ALL_BF16", 0x2F, "bf16", 3}})
    t.push_back({"amd-zen5",
                 z.linux_name,
                 0x03,
                 z.umask,
                 Role::flops,
                 z.precision,
                 1,
                 z.group,
                 false,
                 {{"likwid:perfmon_zen5_events.txt", z.likwid_name},
                  {"linux:amdzen5/floating-point.json", z.linux_name, 0xF0}}});

  // --- AMD memory ---------------------------------------------------------------------------
  // Zen 1-3 data fabric: DRAM channel N is event 0x07 + 0x40·N, umask 0x38 ("Requests with
  // Data (64B)"); reads and writes together. Four DF counters: each channel in its own group,
  // multiplexed and scaled.
  for (unsigned ch = 0; ch < 8; ++ch) {
    const std::string name = "dram_channel_data_controller_" + std::to_string(ch);
    TableEvent e{"amd-df",
                 name,
                 0x07 + 0x40 * ch,
                 0x38,
                 Role::dram,
                 "DRAM",
                 64,
                 static_cast<int>(101 + ch),
                 false,
                 {{"linux:amdzen3/data-fabric.json", name}}};
    if (ch == 0)
      e.sources.push_back({"likwid:perfmon_zen2_events.txt", "DATA_FROM_LOCAL_DRAM_CHANNEL"});
    t.push_back(e);
  }
  // Zen 4/5 unified memory controllers (amd_umc_N, one PMU per channel): CAS commands for
  // reads and for writes (RdWrMask 1, 2), 64 B each.
  for (const auto& [name, mask] : {std::pair{"umc_cas_cmd.rd", 0x1u}, {"umc_cas_cmd.wr", 0x2u}})
    t.push_back({"amd-umc",
                 name,
                 0x0A,
                 mask,
                 Role::dram,
                 "DRAM",
                 64,
                 110,
                 false,
                 {{"linux:amdzen4/memory-controller.json", name},
                  {"linux:amdzen5/memory-controller.json", name}}});
  return t;
}

std::vector<CpuModel> make_models() {
  constexpr const char* I = "GenuineIntel";
  constexpr const char* A = "AuthenticAMD";
  std::vector<CpuModel> m;
  auto intel = [&](int model, const char* name, const char* list, const char* core, bool avx512,
                   bool fp16 = false, bool hybrid = false, const char* dram = "") {
    m.push_back({I, 6, model, model, name, list, core, dram, avx512, fp16, hybrid, false});
  };
  auto atom = [&](int model, const char* name, const char* list, const char* dram = "") {
    m.push_back({I, 6, model, model, name, list, "", dram, false, false, false, true});
  };
  intel(0x3D, "Broadwell", "broadwell", "intel-bdw", false);
  intel(0x47, "Broadwell", "broadwell", "intel-bdw", false);
  intel(0x56, "Broadwell-DE", "broadwellde", "intel-bdw", false);
  intel(0x4F, "Broadwell-X", "broadwellx", "intel-bdw", false);
  intel(0x4E, "Skylake", "skylake", "intel-skl", false);
  intel(0x5E, "Skylake", "skylake", "intel-skl", false);
  intel(0x8E, "Kaby/Coffee/Whiskey/Amber Lake", "skylake", "intel-skl", false);
  intel(0x9E, "Kaby/Coffee Lake", "skylake", "intel-skl", false);
  intel(0xA5, "Comet Lake", "skylake", "intel-skl", false);
  intel(0xA6, "Comet Lake", "skylake", "intel-skl", false);
  intel(0x55, "Skylake-X/Cascade Lake/Cooper Lake", "skylakex", "intel-skx", true);
  intel(0x7D, "Ice Lake", "icelake", "intel-icl", true);
  intel(0x7E, "Ice Lake", "icelake", "intel-icl", true);
  intel(0x6A, "Ice Lake-SP", "icelakex", "intel-icl", true);
  intel(0x6C, "Ice Lake-D", "icelakex", "intel-icl", true);
  intel(0x8C, "Tiger Lake", "tigerlake", "intel-icl", true);
  intel(0x8D, "Tiger Lake", "tigerlake", "intel-icl", true);
  intel(0xA7, "Rocket Lake", "rocketlake", "intel-icl", true);
  intel(0x97, "Alder Lake", "alderlake", "intel-adl", false, false, true);
  intel(0x9A, "Alder Lake", "alderlake", "intel-adl", false, false, true);
  intel(0xB7, "Raptor Lake", "alderlake", "intel-adl", false, false, true);
  intel(0xBA, "Raptor Lake", "alderlake", "intel-adl", false, false, true);
  intel(0xBF, "Raptor Lake", "alderlake", "intel-adl", false, false, true);
  intel(0xAA, "Meteor Lake", "meteorlake", "intel-adl", false, false, true);
  intel(0xAC, "Meteor Lake", "meteorlake", "intel-adl", false, false, true);
  intel(0x8F, "Sapphire Rapids", "sapphirerapids", "intel-spr", true, true);
  intel(0xCF, "Emerald Rapids", "emeraldrapids", "intel-spr", true, true);
  intel(0xAD, "Granite Rapids", "graniterapids", "intel-spr", true, true, false, "intel-gnr-imc");
  intel(0xAE, "Granite Rapids", "graniterapids", "intel-spr", true, true, false, "intel-gnr-imc");
  atom(0xAF, "Sierra Forest", "sierraforest", "intel-gnr-imc");
  atom(0xB6, "Grand Ridge", "grandridge");
  atom(0xBE, "Alder Lake-N", "alderlaken");
  atom(0x86, "Snow Ridge", "snowridgex");
  atom(0x96, "Elkhart Lake", "elkhartlake");
  atom(0x9C, "Jasper Lake", "elkhartlake");
  atom(0x5C, "Goldmont", "goldmont");
  atom(0x5F, "Goldmont", "goldmont");
  atom(0x7A, "Goldmont Plus", "goldmontplus");
  atom(0x57, "Knights Landing", "knightslanding");
  atom(0x85, "Knights Mill", "knightslanding");
  // AMD: family/model ranges as mapfile.csv gives them.
  auto amd = [&](int family, int lo, int hi, const char* name, const char* list, const char* core,
                 const char* dram, bool avx512) {
    m.push_back({A, family, lo, hi, name, list, core, dram, avx512, false, false, false});
  };
  amd(0x17, 0x00, 0x2F, "Zen/Zen+", "amdzen1", "amd-zen1", "amd-df", false);
  amd(0x17, 0x30, 0xFF, "Zen 2", "amdzen2", "amd-zen2", "amd-df", false);
  amd(0x19, 0x00, 0x0F, "Zen 3", "amdzen3", "amd-zen3", "amd-df", false);
  amd(0x19, 0x10, 0x1F, "Zen 4", "amdzen4", "amd-zen4", "amd-umc", true);
  amd(0x19, 0x20, 0x2F, "Zen 3", "amdzen3", "amd-zen3", "amd-df", false);
  amd(0x19, 0x30, 0x3F, "Zen 4", "amdzen4", "amd-zen4", "amd-umc", true);
  amd(0x19, 0x40, 0x5F, "Zen 3", "amdzen3", "amd-zen3", "amd-df", false);
  amd(0x19, 0x60, 0xFF, "Zen 4", "amdzen4", "amd-zen4", "amd-umc", true);
  amd(0x1A, 0x00, 0xFF, "Zen 5", "amdzen5", "amd-zen5", "amd-umc", true);
  return m;
}

}  // namespace

const std::vector<EventSource>& event_sources() {
  static const std::vector<EventSource> s = make_sources();
  return s;
}

const std::vector<TableEvent>& event_table() {
  static const std::vector<TableEvent> t = make_table();
  return t;
}

const std::vector<CpuModel>& cpu_models() {
  static const std::vector<CpuModel> m = make_models();
  return m;
}

const CpuModel* find_cpu_model(const CpuIdentity& cpu) {
  for (const auto& m : cpu_models())
    if (m.vendor == cpu.vendor && m.family == cpu.family && cpu.model >= m.model_lo &&
        cpu.model <= m.model_hi)
      return &m;
  return nullptr;
}

}  // namespace roofline::counters
