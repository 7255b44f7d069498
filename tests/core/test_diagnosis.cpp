#include <gtest/gtest.h>
#include "unity_id.hpp"

#include "roofline/diagnosis.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "test_machines.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {
// A point with intensity I (at the default level) and performance P, W = 1e12.
Point at(double intensity, double performance, std::string precision = "fp32") {
  Point p;
  p.name = "p";
  p.work = Work(1e12);
  p.traffic = {{"", Bytes(1e12 / intensity)}};
  p.time = Seconds(1e12 / performance);
  p.precision = std::move(precision);
  return p;
}
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// docs/model.md §6, row 1: far below both roofs — how it runs, not the hardware.
TEST(Diagnosis, Row1FarBelowBothRoofs) {
  const Diagnosis d = diagnose(at(1.0 / 6, 0.01e12), test::seed_a100());
  EXPECT_EQ(d.verdict, Verdict::far_below);
  EXPECT_FALSE(d.touching);
  EXPECT_NEAR(d.attainable.value, 2e12 / 6, 1);
  EXPECT_NEAR(d.headroom.factor, 33.33, 0.01);
  EXPECT_TRUE(contains(d.title, "far below both roofs"));
  EXPECT_TRUE(contains(d.prescription, "memory access pattern"));
  EXPECT_TRUE(contains(d.prescription, "parallelism"));
  EXPECT_TRUE(contains(d.prescription, "launch"));
}

// Row 2: on the slanted roof — data movement; reduce Q, move right.
TEST(Diagnosis, Row2OnTheSlantedRoof) {
  const Diagnosis d = diagnose(at(1.0 / 6, 0.30e12), test::seed_a100());
  EXPECT_EQ(d.verdict, Verdict::memory_bound);
  EXPECT_TRUE(d.touching);
  EXPECT_TRUE(d.binding_is_memory);
  EXPECT_EQ(d.binding_level, "HBM");
  EXPECT_NEAR(d.attainment, 0.9, 1e-9);
  EXPECT_TRUE(contains(d.title, "data movement"));
  for (const char* remedy : {"fuse", "tiling", "quantisation", "batch"})
    EXPECT_TRUE(contains(d.prescription, remedy)) << remedy;
}

// Row 3: on the flat roof, nothing faster available — compute; reduce W.
TEST(Diagnosis, Row3OnTheFlatRoof) {
  RoofSet s = test::seed_a100();
  s.compute.pop_back();  // only fp32 left: no higher roof
  const Diagnosis d = diagnose(at(170.67, 18e12), s);
  EXPECT_EQ(d.verdict, Verdict::compute_bound);
  EXPECT_FALSE(d.binding_is_memory);
  EXPECT_TRUE(contains(d.title, "compute is the bottleneck"));
  EXPECT_TRUE(contains(d.prescription, "Reduce W"));
}

// Row 4: a higher flat roof is empty above it — a faster unit is unused.
TEST(Diagnosis, Row4HigherRoofEmptyAbove) {
  const Diagnosis d = diagnose(at(170.67, 18e12), test::seed_a100());
  EXPECT_EQ(d.verdict, Verdict::faster_unit_unused);
  ASSERT_EQ(d.empty_roofs_above.size(), 1u);
  EXPECT_EQ(d.empty_roofs_above[0].name, "fp16 tensor");
  EXPECT_DOUBLE_EQ(d.empty_roofs_above[0].gain, 16);
  EXPECT_TRUE(contains(d.prescription, "fp16 tensor"));
  EXPECT_TRUE(contains(d.prescription, "precision"));
}

// The gain of a faster unit is at the point's own I: the memory roof caps every unit alike. At
// I = 12 on 2 TB/s any unit allows 24 TFLOP/s, 1.23× fp32's 19.5: no faster unit (it was
// "fp16 tensor (16x)", the peaks' ratio); at I = 100, fp16 tensor allows 200 T: 10.3×.
TEST(Diagnosis, Row4GainIsAtThePointsIntensity) {
  const Diagnosis d = diagnose(at(12, 19e12), test::seed_a100());
  EXPECT_EQ(d.verdict, Verdict::compute_bound);
  EXPECT_TRUE(d.empty_roofs_above.empty());
  const Diagnosis e = diagnose(at(100, 19e12), test::seed_a100());
  EXPECT_EQ(e.verdict, Verdict::faster_unit_unused);
  ASSERT_EQ(e.empty_roofs_above.size(), 1u);
  EXPECT_DOUBLE_EQ(e.empty_roofs_above[0].gain, 200e12 / 19.5e12);
  EXPECT_TRUE(contains(e.prescription, "fp16 tensor (10.3x)")) << e.prescription;
}

// A faster unit for floating-point work is never an integer roof, nor the reverse: an int8
// roof's OP/s counts other operations (it was named "int8 tensor (32x)" for fp32 work).
TEST(Diagnosis, Row4NamesOnlyRoofsThatCountTheSameWork) {
  RoofSet s = test::seed_a100();
  ComputeRoof int8 = test::compute("int8 tensor", "int8", 624e12);
  int8.integer = true;
  s.compute.push_back(int8);
  const Diagnosis d = diagnose(at(170.67, 18e12), s);
  EXPECT_EQ(d.verdict, Verdict::faster_unit_unused);
  ASSERT_EQ(d.empty_roofs_above.size(), 1u);
  EXPECT_EQ(d.empty_roofs_above[0].name, "fp16 tensor");
  EXPECT_FALSE(contains(d.prescription, "int8"));
  // On the int8 roof itself the fp16 one (below it anyway) and the fp32 one are not named; an
  // int4 roof above it is.
  ComputeRoof int4 = test::compute("int4 tensor", "int4", 1248e12);
  int4.integer = true;
  s.compute.push_back(int4);
  const Diagnosis i = diagnose(at(1000, 600e12, "int8"), s);
  ASSERT_EQ(i.empty_roofs_above.size(), 1u);
  EXPECT_EQ(i.empty_roofs_above[0].name, "int4 tensor");
}

// W counts what its point says (a unit given, else its precision's type): FLOP judged on an
// integer roof is refused, naming the point and the roof (it was read in OP).
TEST(Diagnosis, RefusesWorkOnARoofThatCountsOtherWork) {
  RoofSet s = test::seed_a100();
  ComputeRoof int8 = test::compute("int8 tensor", "int8", 624e12);
  int8.integer = true;
  s.compute.push_back(int8);
  Point p = at(100, 100e12, "int8");
  EXPECT_EQ(stated_work_unit(p), "OP");
  EXPECT_NO_THROW(diagnose(p, s));
  p.work_unit = "FLOP";
  try {
    diagnose(p, s);
    FAIL() << "FLOP judged on an OP/s roof";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "point 'p': W counts FLOP")) << what;
    EXPECT_TRUE(contains(what, "roof 'int8 tensor'")) << what;
  }
  EXPECT_EQ(stated_work_unit(at(1, 1, "fp32 vector")), "FLOP");
  EXPECT_EQ(stated_work_unit(at(1, 1, "peak")), "");
  EXPECT_EQ(stated_work_unit(at(1, 1, "")), "");
  // No precision: OP work goes to the integer roof, with a note that the default was passed over.
  Point op = at(100, 100e12, "");
  op.work_unit = "OP";
  s.default_compute = "fp32";
  const Diagnosis d = diagnose(op, s);
  EXPECT_EQ(d.compute_roof, "int8 tensor");
  ASSERT_FALSE(d.notes.empty());
  EXPECT_TRUE(contains(d.notes.front(), "the default roof 'fp32' counts FLOP/s")) << d.notes[0];
}

// Row 5: touching a roof — the roof it touches says which spec to upgrade.
TEST(Diagnosis, Row5TheRoofTouchedNamesTheSpec) {
  const Diagnosis mem = diagnose(at(1.0 / 6, 0.30e12), test::seed_a100());
  ASSERT_FALSE(mem.notes.empty());
  EXPECT_TRUE(contains(mem.notes.front(), "HBM bandwidth"));
  const Diagnosis cmp = diagnose(at(170.67, 18e12), test::seed_a100());
  EXPECT_TRUE(contains(cmp.notes.front(), "'fp32' peak"));
  const Diagnosis far = diagnose(at(1.0 / 6, 0.01e12), test::seed_a100());
  EXPECT_TRUE(far.notes.empty());
}

// Row 6: above a roof — impossible; list the likely causes.
TEST(Diagnosis, Row6AboveTheFlatRoof) {
  const Diagnosis d = diagnose(at(170.67, 30e12), test::seed_a100());
  EXPECT_EQ(d.verdict, Verdict::above_roof);
  EXPECT_TRUE(contains(d.title, "impossible"));
  std::string all;
  for (const auto& c : d.causes) all += c + "\n";
  EXPECT_TRUE(contains(all, "FMA")) << all;
  EXPECT_TRUE(contains(all, "precision")) << all;
  EXPECT_TRUE(contains(all, "model vs hardware")) << all;
}

TEST(Diagnosis, Row6AboveTheSlantedRoof) {
  // An fp32 SAXPY-like point at 0.5 TFLOP/s with I = 1/6: β·I = 0.333 T — cache reuse drawn
  // against the HBM roof.
  const Diagnosis d = diagnose(at(1.0 / 6, 0.5e12), test::seed_a100());
  EXPECT_EQ(d.verdict, Verdict::above_roof);
  std::string all;
  for (const auto& c : d.causes) all += c + "\n";
  EXPECT_TRUE(contains(all, "cache")) << all;
  EXPECT_TRUE(contains(all, "underestimated")) << all;
}

// Left of the ridge and above both roofs: the factor is over the slanted roof that sets the
// attainable rate, the flat roof's named beside it with its own (it said "above the flat roof
// by 4x" where P was 2x the flat roof), and the causes of both are listed.
TEST(Diagnosis, Row6AboveBothRoofsNamesEachWithItsFactor) {
  RoofSet r;
  r.name = "m";
  ComputeRoof peak;
  peak.name = "peak";
  peak.precision = "fp32";
  peak.peak = WorkRate(1e12);
  r.compute = {peak};
  MemoryRoof dram;
  dram.level = "DRAM";
  dram.bandwidth = ByteRate(1e12);
  r.memory = {dram};
  const Diagnosis d = diagnose(at(0.5, 2e12), r);  // I = 0.5: attainable 0.5 T, P = 2 T
  EXPECT_EQ(d.verdict, Verdict::above_roof);
  EXPECT_EQ(d.title,
            "above the slanted DRAM roof by 4x (and the flat 'peak' roof by 2x): impossible, the "
            "measurement or the roof is wrong");
  std::string all;
  for (const auto& c : d.causes) all += c + "\n";
  EXPECT_TRUE(contains(all, "FMA")) << all;
  EXPECT_TRUE(contains(all, "underestimated")) << all;
}

TEST(Diagnosis, TouchingThresholdIsAParameter) {
  const Point p = at(1.0 / 6, 0.25e12);  // 75% of attainable
  EXPECT_EQ(diagnose(p, test::seed_a100()).verdict, Verdict::far_below);
  DiagnosisOptions loose;
  loose.touching = 0.7;
  EXPECT_EQ(diagnose(p, test::seed_a100(), loose).verdict, Verdict::memory_bound);
}

// Not touching is "far below both roofs" below 80%, the default threshold (docs/model.md §6:
// within 20%, about 0.1 decade); from 80% up to a higher threshold it is just below the roof
// that binds it, with the threshold it falls short of (at 86% with --touching 0.9 it read "far
// below both roofs").
TEST(Diagnosis, BelowATouchingThresholdAbove80PercentIsJustBelowItsRoof) {
  DiagnosisOptions strict;
  strict.touching = 0.9;
  // Slanted side: I = 1/6 on 2 TB/s allows 333.3 GFLOP/s; 86% of it.
  Diagnosis d = diagnose(at(1.0 / 6, 0.86 * 2e12 / 6), test::seed_a100(), strict);
  EXPECT_EQ(d.verdict, Verdict::just_below);
  EXPECT_EQ(to_string(d.verdict), "just-below");
  EXPECT_EQ(d.title,
            "just below the slanted HBM roof (86% of attainable, 1.16x headroom; within 20%, "
            "short of the touching threshold 90%): not yet read as a hardware limit");
  EXPECT_TRUE(contains(d.prescription, "Within 20% of the slanted HBM roof")) << d.prescription;
  // Flat side: I = 100 under fp32's 19.5 TFLOP/s (the point's precision).
  d = diagnose(at(100, 0.81 * 19.5e12), test::seed_a100(), strict);
  EXPECT_EQ(d.verdict, Verdict::just_below);
  EXPECT_EQ(d.title.rfind("just below the flat 'fp32' roof (81% of attainable, 1.23x headroom;", 0),
            0u)
      << d.title;
  // Just under 80% it is far below, with digits enough to tell it from 80%.
  d = diagnose(at(1.0 / 6, 0.79999 * 2e12 / 6), test::seed_a100(), strict);
  EXPECT_EQ(d.verdict, Verdict::far_below);
  EXPECT_EQ(d.title.rfind("far below both roofs (79.999% of attainable, 1.25x headroom)", 0), 0u)
      << d.title;
  // The default threshold leaves no room between: 86% touches, 50% is far below.
  EXPECT_EQ(diagnose(at(1.0 / 6, 0.86 * 2e12 / 6), test::seed_a100()).verdict,
            Verdict::memory_bound);
  EXPECT_EQ(diagnose(at(1.0 / 6, 0.5 * 2e12 / 6), test::seed_a100())
                .title.rfind("far below both roofs (50% of attainable, 2x headroom)", 0),
            0u);
}

// The just-below band's edges, on the flat fp32 roof of 19.5 TFLOP/s (W and π whole numbers, so
// P/π is the double nearest the ratio: 15.6e12 / 19.5e12 is 0.8 itself): from exactly 80%, which
// is just below, up to the touching threshold, which touches; below 80%, or at any threshold up
// to 0.8, far below as before.
Point flat_at(double flop_per_s) {
  Point p;
  p.name = "p";
  p.work = Work(flop_per_s);
  p.traffic = {{"", Bytes(1e10)}};  // I well right of the ridge (9.75 FLOP/byte)
  p.time = Seconds(1);
  p.precision = "fp32";
  return p;
}
TEST(Diagnosis, JustBelowBandRunsFrom80PercentToTheTouchingThreshold) {
  const RoofSet roofs = test::seed_a100();
  DiagnosisOptions strict;
  strict.touching = 0.9;
  Diagnosis d = diagnose(flat_at(15.6e12), roofs, strict);
  ASSERT_EQ(d.attainment, 0.8);
  EXPECT_EQ(d.verdict, Verdict::just_below);  // exactly 80%: in the band
  EXPECT_EQ(d.title.rfind("just below the flat 'fp32' roof (80% of attainable, 1.25x headroom;", 0),
            0u)
      << d.title;
  d = diagnose(flat_at(15.5999e12), roofs, strict);  // 79.9995%: just under
  EXPECT_EQ(d.verdict, Verdict::far_below);
  EXPECT_EQ(d.title.rfind("far below both roofs", 0), 0u) << d.title;
  d = diagnose(flat_at(17.5499e12), roofs, strict);  // 89.99949%: just short of 0.9
  EXPECT_EQ(d.verdict, Verdict::just_below);
  d = diagnose(flat_at(17.55e12), roofs, strict);  // 90%: at the threshold, touching
  ASSERT_EQ(d.attainment, 0.9);
  EXPECT_TRUE(d.touching);
  EXPECT_EQ(d.verdict, Verdict::faster_unit_unused);  // fp16 tensor, 16x, is empty above it
  // A threshold of 1: everything from 80% up to the roof itself is just below.
  strict.touching = 1;
  EXPECT_EQ(diagnose(flat_at(19.4e12), roofs, strict).verdict, Verdict::just_below);
  // Thresholds of 0.8 and below leave no band: the default's 79.9995% and 80%, and 0.7's 75%
  // (touching) and 69% (far below).
  EXPECT_EQ(diagnose(flat_at(15.5999e12), roofs).verdict, Verdict::far_below);
  EXPECT_EQ(diagnose(flat_at(15.6e12), roofs).verdict, Verdict::faster_unit_unused);
  DiagnosisOptions loose;
  loose.touching = 0.7;
  EXPECT_EQ(diagnose(flat_at(0.75 * 19.5e12), roofs, loose).verdict, Verdict::faster_unit_unused);
  EXPECT_EQ(diagnose(flat_at(0.69 * 19.5e12), roofs, loose).verdict, Verdict::far_below);
}

TEST(Diagnosis, HierarchicalPointCacheRoofBinds) {
  Point p = at(1, 1.2e12);
  p.traffic = {{"HBM", Bytes(1e12)}, {"L2", Bytes(4e12)}};  // I_HBM = 1, I_L2 = 0.25
  const Diagnosis d = diagnose(p, test::a100());
  ASSERT_EQ(d.levels.size(), 2u);
  EXPECT_EQ(d.binding_level, "L2");  // 5 TB/s × 0.25 = 1.25 T < 2.039 T
  EXPECT_NEAR(d.attainable.value, 1.25e12, 1);
  EXPECT_EQ(d.verdict, Verdict::memory_bound);
  bool note = false;
  for (const auto& n : d.notes) note = note || contains(n, "cache bandwidth is the limit");
  EXPECT_TRUE(note);
}

// Two levels both compute-side bind at π alike: the default memory level is taken whatever
// order the traffic is given in, and the analysis's I is the binding level's (a Python dict's
// order changed the level and the I a point was drawn at: 0.25 one way, 2 the other).
TEST(Diagnosis, ATieOfLevelsDoesNotDependOnTheirOrder) {
  Point p = at(1, 1e12);
  p.work = Work(4e14);
  p.traffic = {{"L2", Bytes(1e12)}, {"HBM", Bytes(1e12)}};  // I = 400 at both: π binds both
  Point q = p;
  std::swap(q.traffic[0], q.traffic[1]);
  q.traffic[0].bytes = Bytes(2e12);  // I(HBM) 200 in q, still compute-side
  for (const Point* x : {&p, &q}) {
    const Diagnosis d = diagnose(*x, test::a100());
    EXPECT_EQ(d.binding_level, "HBM");
    EXPECT_FALSE(d.binding_is_memory);
    EXPECT_DOUBLE_EQ(binding_intensity(d).value, x == &p ? 400 : 200);
  }
  // Memory-side, the lower roof binds in either order, and I is that level's.
  Point r = at(1, 1e12);
  r.traffic = {{"L2", Bytes(4e12)}, {"HBM", Bytes(1e12)}};  // I_L2 0.25 binds (1.25 T)
  EXPECT_DOUBLE_EQ(binding_intensity(diagnose(r, test::a100())).value, 0.25);
  std::swap(r.traffic[0], r.traffic[1]);
  EXPECT_DOUBLE_EQ(binding_intensity(diagnose(r, test::a100())).value, 0.25);
}

TEST(Diagnosis, HierarchicalPointCacheHeadroom) {
  Point p = at(1, 1.9e12);
  p.traffic = {{"HBM", Bytes(1e12)}, {"L2", Bytes(1e12)}};
  const Diagnosis d = diagnose(p, test::a100());
  EXPECT_EQ(d.binding_level, "HBM");
  EXPECT_EQ(d.verdict, Verdict::memory_bound);
  bool note = false;
  for (const auto& n : d.notes)
    note = note || (contains(n, "On the HBM roof with L2 headroom (") &&
                    contains(n,
                             "x): only less HBM traffic raises it — reuse from cache "
                             "(tiling) where the algorithm reads data more than once"));
  EXPECT_TRUE(note);
  // Far below its roof, the point is not "on" it: no such note (an axpy far below its DRAM roof
  // was promised gains from tiling).
  Point far = p;
  far.time = Seconds(far.time.value * 4);  // P = 0.475 T, 23% of the attainable 2.039 T
  const Diagnosis f = diagnose(far, test::a100());
  EXPECT_EQ(f.verdict, Verdict::far_below);
  for (const auto& n : f.notes) EXPECT_FALSE(contains(n, "headroom (")) << n;
}

TEST(Diagnosis, CustomUnitsReachTheText) {
  RoofSet s = test::seed_a100();
  s.units = {"tuple", "I/O operation"};
  const Diagnosis d = diagnose(at(1.0 / 6, 0.30e12), s);
  EXPECT_TRUE(contains(d.title, "I/O operation")) << d.title;
  EXPECT_TRUE(contains(d.prescription, "per tuple")) << d.prescription;
}

TEST(Diagnosis, BadPointsAreRejected) {
  Point p = at(1, 1e9);
  p.time = Seconds(0);
  EXPECT_THROW(diagnose(p, test::seed_a100()), InputError);
  p = at(1, 1e9);
  p.work = Work(0);
  EXPECT_THROW(diagnose(p, test::seed_a100()), InputError);
  p = at(1, 1e9);
  p.traffic[0].bytes = Bytes(std::nan(""));
  EXPECT_THROW(diagnose(p, test::seed_a100()), InputError);
  p = at(1, 1e9, "fp8");
  EXPECT_THROW(diagnose(p, test::seed_a100()), InputError);  // no fp8 roof
}

// A point whose work runs on no matrix engine (an axpy: Point::vector_only) is judged on its
// type's vector roof, as `roofline kernel` judges the kernel (vector_roof_for): an fp16 point at
// I = 1e4 on the A100 binds at the vector units' 78 TFLOP/s, not the tensor cores' 312.
TEST(Diagnosis, AVectorOnlyPointIsJudgedOnTheVectorRoof) {
  RoofSet s = test::a100();
  s.compute.push_back(test::compute("fp16 vector", "fp16", 78e12));
  s.compute.back().unit = "vector";
  s.compute[2].unit = "tensor";
  Point p = at(1e4, 1e12, "fp16");
  EXPECT_EQ(diagnose(p, s).compute_roof, "fp16 tensor");
  EXPECT_DOUBLE_EQ(diagnose(p, s).attainable.value, 312e12);
  p.vector_only = true;
  Diagnosis d = diagnose(p, s);
  EXPECT_EQ(d.compute_roof, "fp16 vector");
  EXPECT_DOUBLE_EQ(d.attainable.value, 78e12);
  // A roof named as the precision is used as named.
  p.precision = "fp16 tensor";
  EXPECT_EQ(diagnose(p, s).compute_roof, "fp16 tensor");
  // No vector roof of the type: the tensor roof, with a note that the bound is optimistic.
  s.compute.pop_back();
  p.precision = "fp16";
  d = diagnose(p, s);
  EXPECT_EQ(d.compute_roof, "fp16 tensor");
  ASSERT_FALSE(d.notes.empty());
  bool said = false;
  for (const auto& n : d.notes)
    said = said || contains(n,
                            "Judged on 'fp16 tensor', the only fp16 roof: point 'p' is no "
                            "matrix product, which that unit runs, so the bound is optimistic");
  EXPECT_TRUE(said);
}

// Work on no matrix engine cannot move to one: an fp16 axpy at 90% of the fp16 vector roof
// is compute-bound, not told to "move to the faster unit: fp16 tensor (4x)".
TEST(Diagnosis, AVectorOnlyPointIsNotSentToTheMatrixEngine) {
  RoofSet s = test::a100();
  s.compute.push_back(test::compute("fp16 vector", "fp16", 78e12));
  s.compute.back().unit = "vector";
  s.compute[2].unit = "tensor";
  Point p = at(1e4, 0.9 * 78e12, "fp16 vector");  // judged on fp16 vector, as named
  Diagnosis d = diagnose(p, s);
  EXPECT_EQ(d.verdict, Verdict::faster_unit_unused);  // a point of a unit's own: the tensor roof
  p.precision = "fp16";
  p.vector_only = true;
  d = diagnose(p, s);
  EXPECT_EQ(d.compute_roof, "fp16 vector");
  EXPECT_EQ(d.verdict, Verdict::compute_bound);
  for (const auto& e : d.empty_roofs_above) EXPECT_NE(e.name, "fp16 tensor");
}

// Roofs given as "TYPE UNIT" hold the type and the unit apart, as a catalogue roof does: an fp16
// point finds "fp16 tensor" (it was refused: no roof for 'fp16').
TEST(Diagnosis, AGivenRoofOfATypeAndItsUnitIsFoundByItsType) {
  const RoofSet g = given_roofs({"given", WorkRate(1e12), ByteRate(1e11), "fp16 tensor", "DRAM"});
  EXPECT_EQ(g.compute.front().name, "fp16 tensor");
  EXPECT_EQ(g.compute.front().precision, "fp16");
  EXPECT_EQ(g.compute.front().unit, "tensor");
  EXPECT_EQ(g.select_compute("fp16").name, "fp16 tensor");
  EXPECT_EQ(g.select_compute("fp16 tensor").name, "fp16 tensor");
  EXPECT_EQ(diagnose(at(100, 1e11, "fp16"), g).compute_roof, "fp16 tensor");
  const RoofSet i8 = given_roofs({"given", WorkRate(1e12), ByteRate(1e11), "int8 tensor", "DRAM"});
  EXPECT_TRUE(i8.compute.front().integer);
}

// Roofs given without a precision stand for every precision and only for one: a key that names
// no roof and no precision (a typo) is refused (is_roof_precision), not the given peak.
TEST(Diagnosis, GivenRoofsStandForPrecisionsOnly) {
  const RoofSet any = given_roofs({"given", WorkRate(1e12), ByteRate(1e11), "", "DRAM"});
  EXPECT_EQ(any.select_compute("fp8").name, "peak");
  EXPECT_EQ(any.select_compute("bf16 tensor").name, "peak");
  try {
    any.select_compute("banana");
    FAIL() << "'banana' was taken for a precision";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(),
                         "no compute roof for 'banana' (roofs: peak): 'banana' names "
                         "no roof and no precision"))
        << e.what();
  }
  EXPECT_THROW(diagnose(at(1, 1e9, "fp99"), any), InputError);
  EXPECT_TRUE(is_roof_precision("FP16") && is_roof_precision("fp4") && is_roof_precision("ops"));
  // A type PyTorch names and the library has no size for: still a precision (an index product).
  EXPECT_EQ(any.select_compute("int64").name, "peak");
  EXPECT_FALSE(is_roof_precision("banana") || is_roof_precision(""));
  // Every precision the tool's own producers write is judged on roofs given as numbers:
  // flopcount's names (tools/flopcount/runtime/flopcount_rt.c precision_name), roofline.torch's
  // (_DTYPE_PRECISION) and the ncu importer's "tensor" (tensor work of no known type). fp80 and
  // "tensor" were refused here ("names no roof and no precision").
  for (const char* p : {"fp16", "bf16", "fp32", "fp64", "fp80", "fp128", "int8", "int16", "int32",
                        "int64", "bool", "complex32", "complex64", "complex128", "tensor"}) {
    EXPECT_TRUE(is_point_precision(p)) << p;
    EXPECT_EQ(any.select_compute(p).name, "peak") << p;
  }
  EXPECT_FALSE(is_point_precision("banana"));
  // A catalogue roof is of a datasheet's type: not PyTorch's bool, not "tensor".
  for (const char* p : {"bool", "int64", "complex64", "tensor", "fp80"})
    EXPECT_FALSE(is_roof_precision(p)) << p;
  EXPECT_NO_THROW(require_roof_precision("fp16 tensor", "precision"));
  EXPECT_THROW(require_roof_precision("banana tensor", "precision"), InputError);
}
// fit_to_roofs, the rule point, plot, check, Python's diagnose() and Chart share: a level the
// machine lacks is left out of the point and said once per reason, naming the points; a point
// with no roof for its precision, or no level left, is left out and said.
TEST(FitToRoofs, LeavesOutWhatTheMachineCannotJudgeAndSaysIt) {
  const RoofSet s = test::seed_a100();  // fp32, fp16 tensor; HBM only
  auto point = [](const std::string& name, std::vector<LevelTraffic> traffic,
                  const std::string& precision = "") {
    Point p;
    p.name = name;
    p.work = Work(1e9);
    p.time = Seconds(1e-3);
    p.traffic = std::move(traffic);
    p.precision = precision;
    return p;
  };
  const FittedPoints f =
      fit_to_roofs({point("a", {{"L2", Bytes(1e9)}, {"DRAM", Bytes(1e8)}}),
                    point("b", {{"L2", Bytes(1e9)}, {"HBM", Bytes(1e8)}}),
                    point("c", {{"L1", Bytes(1e9)}}), point("d", {{"HBM", Bytes(1e8)}}, "fp64")},
                   s);
  ASSERT_EQ(f.points.size(), 2u);
  EXPECT_EQ(f.points[0].name, "a");
  ASSERT_EQ(f.points[0].traffic.size(), 1u);
  EXPECT_EQ(f.points[0].traffic[0].level, "DRAM");  // read as HBM, kept by its name
  ASSERT_EQ(f.warnings.size(), 3u);
  EXPECT_EQ(f.warnings[0].rfind("point 'c' not judged: machine 'seed-a100' has no memory roof "
                                "for level 'L1'",
                                0),
            0u)
      << f.warnings[0];
  EXPECT_EQ(f.warnings[1].rfind("point 'd' not judged: machine 'seed-a100' has no compute roof "
                                "for 'fp64'",
                                0),
            0u)
      << f.warnings[1];
  EXPECT_EQ(f.warnings[2].rfind("points 'a', 'b' judged at their other levels: machine "
                                "'seed-a100' has no memory roof for level 'L2'",
                                0),
            0u)
      << f.warnings[2];
  // The points left out, each with the short reason a chart's line gives and the whole message
  // its warning was made from (one list: ReportInput::not_drawn).
  ASSERT_EQ(f.left_out.size(), 2u);
  EXPECT_EQ(f.left_out[0].name, "c");
  EXPECT_EQ(f.left_out[0].reason, "no roof for level L1");
  EXPECT_EQ(f.warnings[0], "point 'c' not judged: " + f.left_out[0].detail);
  EXPECT_EQ(f.left_out[1].name, "d");
  EXPECT_EQ(f.left_out[1].reason, "no roof for fp64");
  EXPECT_EQ(f.warnings[1], "point 'd' not judged: " + f.left_out[1].detail);
}

// The reasons a chart's line gives: every level the point names, and a point of no precision
// whose W is OP on a machine of floating-point roofs alone.
TEST(FitToRoofs, ShortReasonsNameTheLevelsOrTheWork) {
  const RoofSet s = test::seed_a100();  // fp32, fp16 tensor; HBM only
  Point p;
  p.name = "two levels";
  p.work = Work(1e9);
  p.time = Seconds(1e-3);
  p.traffic = {{"L1", Bytes(1e9)}, {"L2", Bytes(1e9)}};
  Point q = p;
  q.name = "integer";
  q.traffic = {{"HBM", Bytes(1e9)}};
  q.work_unit = "OP";
  const FittedPoints f = fit_to_roofs({p, q}, s);
  EXPECT_TRUE(f.points.empty());
  ASSERT_EQ(f.left_out.size(), 2u);
  EXPECT_EQ(f.left_out[0].reason, "no roof for levels L1, L2");
  EXPECT_EQ(f.left_out[1].reason, "no dense roof counting OP");
  // Two points of one reason are one warning, as before.
  const FittedPoints twice = fit_to_roofs({p, p}, s);
  ASSERT_EQ(twice.left_out.size(), 2u);
  ASSERT_EQ(twice.warnings.size(), 1u);
  EXPECT_EQ(twice.warnings[0].rfind("points 'two levels', 'two levels' not judged: ", 0), 0u)
      << twice.warnings[0];
}

}  // namespace ROOFLINE_UNITY_ID
