#!/usr/bin/env bash
# Asserts what `roofline run` must show on this machine (docs/tour.md):
#   - axpy at DRAM size reaches ≥ 0.80 of the measured DRAM roof; at L1/L2 size it moves up;
#   - fp16 vs fp32 axpy at DRAM size: intensity doubles and the point moves right (and up);
#   - the naive triple-loop gemm is far below every roof ("far-below");
#   - the tiled gemm moves up (and its traffic out of L3 is set by its tile);
#   - OpenBLAS dgemm and sgemm reach ≥ 0.70 of the fp64 / fp32 FMA roof, on the flat roof.
# The roofs come from `roofline measure --quick` when the binary has it; otherwise from a small
# measurement made here (FMA peaks and read-only bandwidth per cache level, best of 5, see below), which
# is independent of the suite's own kernels.
# Usage: bench/run_attainment.sh [path/to/roofline]   (default build/release/bin/roofline)
# Environment: KEEP=DIR keeps machine.json, points.json and the table in DIR;
#              MACHINE=FILE uses that machine document instead of measuring the roofs.
set -euo pipefail
BIN=${1:-build/release/bin/roofline}
[[ -x "$BIN" ]] || { echo "run_attainment: no roofline binary at $BIN (build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- roofs -----------------------------------------------------------------------------------
if [[ -n "${MACHINE:-}" ]]; then
  echo "== roofs: $MACHINE"
  cp "$MACHINE" "$work/machine.json"
elif "$BIN" --help 2>/dev/null | grep -qE "^ +measure( |$)"; then
  echo "== roofs: roofline measure --quick"
  "$BIN" measure --quick -o "$work/machine.json" >/dev/null
else
  echo "== roofs: quick measurement by bench/run_attainment.sh (roofline measure is not built)"
  grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo ||
    { echo "run_attainment: this roof helper needs AVX2+FMA" >&2; exit 3; }
  cat >"$work/roofs.cpp" <<'EOF'
// Quick roofs for the attainment check: FMA peaks (fp64, fp32; 256-bit AVX2 FMA), the SSE2
// fp64 peak (128-bit mul + add, what OpenBLAS's Prescott kernels use), and read-only bandwidth
// at working sets of half of L1 / L2 / L3 per thread and 4 × L3 for DRAM. Best of 5.
#include <immintrin.h>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static long cache(int index) {
  std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
  std::string s; f >> s; if (s.empty()) return 0;
  long v = std::atol(s.c_str()); if (s.back() == 'K') v *= 1024; if (s.back() == 'M') v *= 1048576;
  return v;
}
volatile double sink;
// 12 independent FMA chains per thread hide the FMA latency on two pipes.
static double fma_peak(bool fp32, long iters) {
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    double t0 = now(), flops = 0;
#pragma omp parallel reduction(+ : flops)
    {
      __m256d a[12]; __m256 s[12];
      for (int i = 0; i < 12; ++i) { a[i] = _mm256_set1_pd(i * 1e-3); s[i] = _mm256_set1_ps(i * 1e-3f); }
      const __m256d m = _mm256_set1_pd(0.999999), c = _mm256_set1_pd(1e-7);
      const __m256 mf = _mm256_set1_ps(0.999f), cf = _mm256_set1_ps(1e-4f);
      for (long it = 0; it < iters; ++it)
        for (int i = 0; i < 12; ++i) {
          if (fp32) s[i] = _mm256_fmadd_ps(s[i], mf, cf); else a[i] = _mm256_fmadd_pd(a[i], m, c);
        }
      double acc = 0; alignas(32) double o[4]; alignas(32) float of[8];
      for (int i = 0; i < 12; ++i) {
        _mm256_store_pd(o, a[i]); _mm256_store_ps(of, s[i]);
        acc += o[0] + of[0];
      }
      sink = acc;
      flops += double(iters) * 12 * (fp32 ? 16 : 8);
    }
    best = std::max(best, flops / (now() - t0));
  }
  return best;
}
static double sse2_peak(long iters) {
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    double t0 = now(), flops = 0;
#pragma omp parallel reduction(+ : flops)
    {
      __m128d p[8], q[8];
      for (int i = 0; i < 8; ++i) { p[i] = _mm_set1_pd(i); q[i] = _mm_set1_pd(i + 1); }
      const __m128d m = _mm_set1_pd(0.999999), c = _mm_set1_pd(1e-7);
      for (long it = 0; it < iters; ++it)
        for (int i = 0; i < 8; ++i) { p[i] = _mm_mul_pd(p[i], m); q[i] = _mm_add_pd(q[i], c); }
      alignas(16) double o[2]; double acc = 0;
      for (int i = 0; i < 8; ++i) { _mm_store_pd(o, _mm_add_pd(p[i], q[i])); acc += o[0]; }
      sink = acc;
      flops += double(iters) * 8 * 2 * 2;
    }
    best = std::max(best, flops / (now() - t0));
  }
  return best;
}
// Read-only sum over each thread's share; bytes named = bytes read. The sweeps run inside one
// parallel region (thread start-up would dominate an L1-size sweep); the accumulators carry
// across sweeps so none can be skipped.
static double load_bw(size_t bytes_per_thread, double bytes_per_rep) {
  const int nt = omp_get_max_threads();
  const size_t n = bytes_per_thread / 8 / 16 * 16;
  const long sweeps = std::max<long>(2, long(bytes_per_rep / (double(n) * 8)));
  std::vector<double*> buf(nt);
  double best = 0;
#pragma omp parallel
  {
    double* p = static_cast<double*>(std::aligned_alloc(64, n * 8));
    for (size_t i = 0; i < n; ++i) p[i] = 1.0;
    buf[omp_get_thread_num()] = p;
  }
  for (int rep = 0; rep < 6; ++rep) {
    const double t0 = now();
#pragma omp parallel
    {
      const double* p = buf[omp_get_thread_num()];
      __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
      for (long s = 0; s < sweeps; ++s)
        for (size_t i = 0; i < n; i += 16) {
          s0 = _mm256_add_pd(s0, _mm256_load_pd(p + i)); s1 = _mm256_add_pd(s1, _mm256_load_pd(p + i + 4));
          s2 = _mm256_add_pd(s2, _mm256_load_pd(p + i + 8)); s3 = _mm256_add_pd(s3, _mm256_load_pd(p + i + 12));
        }
      alignas(32) double o[4]; _mm256_store_pd(o, _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)));
      sink = o[0];
    }
    const double t = now() - t0;
    if (rep > 0) best = std::max(best, double(sweeps) * double(n) * 8 * nt / t);  // rep 0 warms up
  }
  for (double* p : buf) std::free(p);
  return best;
}
int main() {
  const long l1 = cache(0) ? cache(0) : 32768, l2 = cache(2) ? cache(2) : 524288, l3 = cache(3);
  const int nt = omp_get_max_threads();
  const double f64 = fma_peak(false, 20000000), f32 = fma_peak(true, 20000000), sse = sse2_peak(20000000);
  const double b1 = load_bw(l1 / 2, 2e9), b2 = load_bw(l2 / 2, 2e9);
  const double b3 = l3 ? load_bw(l3 / 2 / nt, 2e9) : 0;
  const double bd = load_bw(std::max<long>(4 * l3, 64L << 20) / nt, 1e9);
  std::printf("{\"schema\": \"roofline.machine\", \"version\": 1, \"name\": \"this machine (bench quick roofs)\",\n"
              " \"default_compute\": \"fp64 avx2 fma\", \"default_memory\": \"DRAM\",\n"
              " \"info\": {\"threads\": %d, \"measured_by\": \"bench/run_attainment.sh\"},\n"
              " \"compute\": [\n"
              "  {\"name\": \"fp64 avx2 fma\", \"precision\": \"fp64\", \"unit\": \"avx2 fma\", \"peak\": %.6g, \"provenance\": \"measured\", \"source\": \"12 FMA chains per thread, best of 5\"},\n"
              "  {\"name\": \"fp32 avx2 fma\", \"precision\": \"fp32\", \"unit\": \"avx2 fma\", \"peak\": %.6g, \"provenance\": \"measured\", \"source\": \"12 FMA chains per thread, best of 5\"},\n"
              "  {\"name\": \"fp64 sse2\", \"precision\": \"fp64\", \"unit\": \"sse2 mul+add\", \"peak\": %.6g, \"provenance\": \"measured\", \"source\": \"128-bit mul and add chains, best of 5\"}],\n"
              " \"memory\": [\n"
              "  {\"level\": \"L1\", \"kind\": \"cache\", \"bandwidth\": %.6g, \"provenance\": \"measured\", \"convention\": \"named\", \"source\": \"read-only sum, best of 5\"},\n"
              "  {\"level\": \"L2\", \"kind\": \"cache\", \"bandwidth\": %.6g, \"provenance\": \"measured\", \"convention\": \"named\", \"source\": \"read-only sum, best of 5\"},\n",
              nt, f64, f32, sse, b1, b2);
  if (b3 > 0)
    std::printf("  {\"level\": \"L3\", \"kind\": \"cache\", \"bandwidth\": %.6g, \"provenance\": \"measured\", \"convention\": \"named\", \"source\": \"read-only sum, best of 5\"},\n", b3);
  std::printf("  {\"level\": \"DRAM\", \"kind\": \"memory\", \"bandwidth\": %.6g, \"provenance\": \"measured\", \"convention\": \"named\", \"source\": \"read-only sum, best of 5\"}]}\n", bd);
}
EOF
  g++ -std=c++17 -O2 -mavx2 -mfma -fopenmp "$work/roofs.cpp" -o "$work/roofs"
  "$work/roofs" >"$work/machine.json"
fi
[[ -n "${KEEP:-}" ]] && mkdir -p "$KEEP" && cp "$work/machine.json" "$KEEP/"

# ---- points ----------------------------------------------------------------------------------
echo "== points: roofline run"
# axpy at every level; the gemm family at its default levels (naive: L2, L3; the others: L3,
# DRAM), so the naive and tiled gemm share the L3-size order n.
"$BIN" run axpy --levels L1,L2,L3,DRAM --machine "$work/machine.json" -o "$work/axpy.json" \
  | tee "$work/table.txt"
"$BIN" run gemm-naive gemm-tiled gemm-blas-fp64 gemm-blas-fp32 --machine "$work/machine.json" \
  -o "$work/gemm.json" | tee -a "$work/table.txt"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); a["points"]+=b["points"]; json.dump(a,open(sys.argv[3],"w"),indent=1)' \
  "$work/axpy.json" "$work/gemm.json" "$work/points.json"
if [[ -n "${KEEP:-}" ]]; then
  mkdir -p "$KEEP" && cp "$work/machine.json" "$work/points.json" "$work/table.txt" "$KEEP/"
fi

# ---- assertions ------------------------------------------------------------------------------
python3 - "$work/points.json" "$work/machine.json" <<'EOF'
import json, sys
pts = json.load(open(sys.argv[1]))["points"]
mach = json.load(open(sys.argv[2]))
by = {p["name"]: p for p in pts}
failures = []
def check(ok, what):
    print(("PASS " if ok else "FAIL ") + what)
    if not ok: failures.append(what)
def perf(p): return p["work"] / p["time"]
def level(p, lvl):
    for l in p["diagnosis"]["levels"]:
        if l["level"] == lvl: return l
    raise KeyError(lvl)
def peak(name):
    return next(c["peak"] for c in mach["compute"] if c["name"] == name)

d = by["axpy-fp64 @DRAM"]
a = level(d, "DRAM")["attainment"]
check(0.80 <= a <= 1.05, f"axpy-fp64 at DRAM size: attainment {a:.3f} of the measured DRAM roof (0.80 to 1.05)")
check(d["diagnosis"]["verdict"] == "memory-bound" and d["diagnosis"]["binding_level"] == "DRAM",
      f"axpy-fp64 at DRAM size is on the DRAM roof ({d['diagnosis']['verdict']}, {d['diagnosis']['binding_level']})")
for small in ("L1", "L2"):
    p = by[f"axpy-fp64 @{small}"]
    r = perf(p) / perf(d)
    check(r >= 1.5, f"axpy-fp64 at {small} size moves up: {r:.2f}x the DRAM-size P (>= 1.5)")
    check(p["diagnosis"]["binding_level"] == small, f"axpy-fp64 at {small} size is judged on the {small} roof")
h, s = by["axpy-fp16 @DRAM"], by["axpy-fp32 @DRAM"]
ih, is_ = level(h, "DRAM")["intensity"], level(s, "DRAM")["intensity"]
check(abs(ih / is_ - 2) < 1e-9, f"fp16 vs fp32 axpy: intensity {ih:.4g} vs {is_:.4g} (x{ih/is_:.3f}, = 2)")
check(perf(h) / perf(s) >= 1.3, f"fp16 axpy moves up along the DRAM roof too: P x{perf(h)/perf(s):.2f} (>= 1.3)")
naive = [p for n, p in by.items() if n.startswith("gemm-naive")]
for p in naive:
    check(p["diagnosis"]["verdict"] == "far-below",
          f"{p['name']}: {p['diagnosis']['verdict']} at {p['diagnosis']['attainment']:.3f} of attainable (far-below)")
for lvl in ("L3",):
    n, t = by[f"gemm-naive @{lvl}"], by[f"gemm-tiled @{lvl}"]
    check(perf(t) / perf(n) >= 3, f"tiled gemm moves up at {lvl} size: {perf(t)/perf(n):.1f}x naive (>= 3)")
    check(level(t, "L3")["intensity"] > level(n, "L1")["intensity"],
          f"tiled gemm's L3 intensity {level(t,'L3')['intensity']:.3g} is right of naive's L1 intensity {level(n,'L1')['intensity']:.3g}")
for prec, roof in (("fp64", "fp64 avx2 fma"), ("fp32", "fp32 avx2 fma")):
    for lvl in ("L3", "DRAM"):
        p = by.get(f"gemm-blas-{prec} @{lvl}")
        if p is None: continue
        try: pk = peak(p["diagnosis"]["compute_roof"])
        except StopIteration: pk = None
        frac = perf(p) / pk if pk else 0
        check(0.70 <= frac <= 1.05, f"OpenBLAS {prec} gemm at {lvl} size: {frac:.3f} of the '{p['diagnosis']['compute_roof']}' roof (0.70 to 1.05)")
        check(p["diagnosis"]["binding_roof"] == "compute" and
              p["diagnosis"]["verdict"] in ("compute-bound", "faster-unit-unused"),
              f"OpenBLAS {prec} gemm at {lvl} size sits on the flat roof ({p['diagnosis']['verdict']})")
for p in pts:
    check(p["run"]["check"] == "passed", f"{p['name']}: result check {p['run']['check']}")
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
EOF
