#include <gtest/gtest.h>

#include <functional>
#include <type_traits>

#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/units.hpp"

using namespace roofline;

TEST(Units, CrossUnitOperationsGiveTheRightTypes) {
  Work w(2e9);
  Bytes q(12e9);
  Seconds t(0.5);
  static_assert(std::is_same_v<decltype(w / q), Intensity>);
  static_assert(std::is_same_v<decltype(w / t), WorkRate>);
  static_assert(std::is_same_v<decltype(q / t), ByteRate>);
  static_assert(std::is_same_v<decltype(WorkRate(1) / ByteRate(1)), Intensity>);
  static_assert(std::is_same_v<decltype(ByteRate(1) * Intensity(1)), WorkRate>);
  // Mixing unrelated units does not compile (no operator exists): W + Q, W/T compared to I.
  static_assert(!std::is_invocable_v<std::plus<>, Work, Bytes>);
  static_assert(!std::is_invocable_v<std::less<>, WorkRate, Intensity>);
  // A clock is its own unit: not a rate of work, nor a plain number a rate can take.
  static_assert(!std::is_invocable_v<std::plus<>, Hertz, WorkRate>);
  static_assert(!std::is_convertible_v<Hertz, double> && !std::is_convertible_v<double, Hertz>);
  EXPECT_DOUBLE_EQ((w / q).value, 1.0 / 6.0);
  EXPECT_DOUBLE_EQ((w / t).value, 4e9);
  // docs/model.md §2: achieved performance = intensity × achieved bandwidth.
  EXPECT_DOUBLE_EQ(((w / q) * (q / t)).value, (w / t).value);
}

TEST(Units, EnergyUnitsGiveTheRightTypes) {
  const Work w(4);
  const Bytes q(2);
  const Seconds t(0.5);
  static_assert(std::is_same_v<decltype(Watt(1) * Seconds(1)), Joule>);
  static_assert(std::is_same_v<decltype(Seconds(1) * Watt(1)), Joule>);
  static_assert(std::is_same_v<decltype(Joule(1) / Seconds(1)), Watt>);
  static_assert(std::is_same_v<decltype(w * JoulePerWork(1)), Joule>);
  static_assert(std::is_same_v<decltype(JoulePerWork(1) * w), Joule>);
  static_assert(std::is_same_v<decltype(Joule(1) / w), JoulePerWork>);
  static_assert(std::is_same_v<decltype(q * JoulePerByte(1)), Joule>);
  static_assert(std::is_same_v<decltype(JoulePerByte(1) * q), Joule>);
  static_assert(std::is_same_v<decltype(Joule(1) / q), JoulePerByte>);
  static_assert(std::is_same_v<decltype(Joule(1) / Watt(1)), Seconds>);
  static_assert(std::is_same_v<decltype(Joule(1) / Joule(1)), double>);
  // Energy is no work, power no rate of work, and the costs of work and traffic do not mix.
  static_assert(!std::is_invocable_v<std::plus<>, Joule, Work>);
  static_assert(!std::is_invocable_v<std::plus<>, Watt, WorkRate>);
  static_assert(!std::is_invocable_v<std::plus<>, JoulePerWork, JoulePerByte>);
  static_assert(!std::is_invocable_v<std::multiplies<>, Work, JoulePerByte>);
  static_assert(!std::is_invocable_v<std::multiplies<>, Bytes, JoulePerWork>);
  static_assert(!std::is_invocable_v<std::multiplies<>, Watt, Work>);
  static_assert(!std::is_invocable_v<std::divides<>, Joule, WorkRate>);
  static_assert(!std::is_convertible_v<double, Joule> && !std::is_convertible_v<Watt, double>);
  // docs/energy.md: E = W·ε_flop + Q·ε_mem + π0·T.
  const Joule e = w * JoulePerWork(1e-10) + q * JoulePerByte(5e-10) + Watt(20) * t;
  EXPECT_DOUBLE_EQ(e.value, 4e-10 + 1e-9 + 10);
  EXPECT_DOUBLE_EQ((e / t).value, e.value / 0.5);
  EXPECT_DOUBLE_EQ((Joule(8) / w).value, 2);
  EXPECT_DOUBLE_EQ((Joule(8) / q).value, 4);
}

TEST(Units, PrintsRatesWithASlashNeverFlops) {
  UnitSystem u;
  EXPECT_EQ(u.work_rate(), "FLOP/s");
  EXPECT_EQ(u.intensity(), "FLOP/byte");
  EXPECT_EQ(format_work_rate(WorkRate(19.5e12)), "19.5 TFLOP/s");
  EXPECT_EQ(format_byte_rate(ByteRate(2.039e12)), "2.039 TB/s");
  EXPECT_EQ(format_intensity(Intensity(1.0 / 6.0)), "0.1667 FLOP/byte");
  EXPECT_EQ(format_intensity(Intensity(9.75), UnitSystem::op()), "9.75 OP/byte");
  EXPECT_EQ(format_seconds(Seconds(0.0125)), "12.5 ms");
  // Long times take no prefix that reads as milli ("8.488 Ms" was a TTFT of 98 days).
  EXPECT_EQ(format_seconds(Seconds(8.488e6)), "8488000 s (98.24 days)");
  EXPECT_EQ(format_seconds(Seconds(7200)), "7200 s (2 h)");
  EXPECT_EQ(format_seconds(Seconds(999.96)), "1000 s");
  EXPECT_EQ(format_seconds(Seconds(1e9)), "1e+09 s (31.69 years)");
  EXPECT_EQ(format_seconds(Seconds(12.5)), "12.5 s");
  EXPECT_EQ(format_work(Work(3e23)), "3e+23 FLOP");
  EXPECT_EQ(format_bytes(Bytes(14e9)), "14 GB");
  EXPECT_EQ(format_work_rate(WorkRate(999.96e9)), "1 TFLOP/s");
  // A count without unit or prefix ends at its number: "7e+27  parameters" had two spaces.
  EXPECT_EQ(format_si(7e27, ""), "7e+27");
  EXPECT_EQ(format_si(500, ""), "500");
  EXPECT_EQ(format_si(6.74e9, ""), "6.74 G");
  for (double v : {1.0, 1e3, 4.2e9, 1e12, 3.3e15, 0.5, 1e-7})
    EXPECT_EQ(format_work_rate(WorkRate(v)).find("FLOPS"), std::string::npos);
  UnitSystem custom{"tuple", "I/O operation"};
  EXPECT_EQ(custom.intensity(), "tuple/I/O operation");
  EXPECT_EQ(custom.work_rate(), "tuple/s");
}

// A subnormal value (8e-322) underflows to 0 when divided by the largest prefixes: it is printed
// in the base unit and parses back (found by fuzz/fuzz_quantity.cpp: the logarithm of the 0 was
// cast to int).
TEST(Units, PrintsSubnormalValues) {
  const std::string printed = format_byte_rate(ByteRate(8e-322));
  EXPECT_EQ(printed, "8.004e-322 B/s") << printed;  // the nearest subnormal
  EXPECT_NEAR(parse_quantity(printed, Dimension::byte_rate) / 8e-322, 1.0, 1e-3) << printed;
}

// Beyond the prefixes (E above, n below) a value is plain scientific notation of the base unit:
// "1e-21 nFLOP/s" mixed both, and read as a nano value.
TEST(Units, BeyondThePrefixesPrintsTheBaseUnit) {
  EXPECT_EQ(format_work_rate(WorkRate(1e-30)), "1e-30 FLOP/s");
  EXPECT_EQ(format_work(Work(1e-21)), "1e-21 FLOP");
  EXPECT_EQ(format_si(1.5e-13, "s"), "1.5e-13 s");
  EXPECT_EQ(format_si(1e-30, "", 3), "1e-30");
  EXPECT_EQ(format_work_rate(WorkRate(1e25)), "1e+25 FLOP/s");
  // Down to 0.001 n the prefix stays: "0.1 nJ/FLOP" as the energy model is given.
  EXPECT_EQ(format_si(1e-10, "J/FLOP"), "0.1 nJ/FLOP");
  EXPECT_EQ(format_si(1e-12, "s"), "0.001 ns");
  EXPECT_EQ(format_si(0.99e-12, "s"), "9.9e-13 s");
  EXPECT_EQ(format_si(-1e-30, "FLOP"), "-1e-30 FLOP");
  // Printed values parse back.
  EXPECT_DOUBLE_EQ(parse_quantity("1e-30 FLOP/s", Dimension::work_rate), 1e-30);
}

TEST(Quantity, ParsesPrefixesAndUnits) {
  EXPECT_DOUBLE_EQ(parse_quantity("19.5T", Dimension::work_rate), 19.5e12);
  EXPECT_DOUBLE_EQ(parse_quantity("19.5 TFLOP/s", Dimension::work_rate), 19.5e12);
  EXPECT_DOUBLE_EQ(parse_quantity("312 TFLOPS", Dimension::work_rate), 312e12);
  EXPECT_DOUBLE_EQ(parse_quantity("2 TB/s", Dimension::byte_rate), 2e12);
  EXPECT_DOUBLE_EQ(parse_quantity("4.8e12", Dimension::byte_rate), 4.8e12);
  EXPECT_DOUBLE_EQ(parse_quantity("32 KiB", Dimension::bytes), 32768);
  EXPECT_DOUBLE_EQ(parse_quantity("1.2 GB", Dimension::bytes), 1.2e9);
  EXPECT_DOUBLE_EQ(parse_quantity("10 ms", Dimension::seconds), 0.01);
  EXPECT_DOUBLE_EQ(parse_quantity("250us", Dimension::seconds), 250e-6);
  // Micro as written: µ (U+00B5, the micro sign) and μ (U+03BC, Greek mu).
  EXPECT_DOUBLE_EQ(parse_quantity("5 \u00b5s", Dimension::seconds), 5e-6);
  EXPECT_DOUBLE_EQ(parse_quantity("5 \u03bcs", Dimension::seconds), 5e-6);
  EXPECT_DOUBLE_EQ(parse_quantity("5 ns", Dimension::seconds), 5e-9);
  EXPECT_DOUBLE_EQ(parse_quantity("1e6", Dimension::count), 1e6);
  EXPECT_DOUBLE_EQ(parse_quantity("4M", Dimension::count), 4e6);
  EXPECT_DOUBLE_EQ(parse_quantity("9.75 FLOP/byte", Dimension::intensity), 9.75);
  // Minutes and hours; "1m" alone is refused (it was read as 1 ms, 60 000x off a minute).
  EXPECT_DOUBLE_EQ(parse_quantity("2 min", Dimension::seconds), 120);
  EXPECT_DOUBLE_EQ(parse_quantity("1.5 h", Dimension::seconds), 5400);
  EXPECT_DOUBLE_EQ(parse_quantity("1ms", Dimension::seconds), 1e-3);
  EXPECT_THROW(parse_quantity("1m", Dimension::work), InputError);  // a mega in lower case?
  try {
    parse_quantity("1m", Dimension::seconds, "--time");
    ADD_FAILURE() << "1m read as a time";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--time: 'm' alone is milli (1 ms), or was a minute meant (1 min)? Give the unit "
                 "(got '1m'; expected a time (s))");
  }
  EXPECT_THROW(parse_quantity("2 min", Dimension::work), InputError);
  EXPECT_THROW(parse_quantity("1 mh", Dimension::seconds), InputError);  // not 3.6 s
  EXPECT_THROW(parse_quantity("1 kmin", Dimension::seconds), InputError);
  EXPECT_THROW(parse_quantity("1M", Dimension::seconds), InputError);  // not 1e6 s
  EXPECT_THROW(parse_quantity("2k", Dimension::seconds), InputError);
  EXPECT_DOUBLE_EQ(parse_quantity("250u", Dimension::seconds), 250e-6);  // small prefixes stay
}

// The work unit a value names: "2 TOP" is integer work, "2 TFLOP" floating-point work, a bare
// number neither ("2 TOP" was read as 2 TFLOP).
TEST(Quantity, NamesTheWorkUnitItWasGivenIn) {
  EXPECT_EQ(work_unit_named("2 TOP", Dimension::work), "OP");
  EXPECT_EQ(work_unit_named("2 GOP", Dimension::work), "OP");
  EXPECT_EQ(work_unit_named("5 op", Dimension::work), "OP");
  EXPECT_EQ(work_unit_named("2 TFLOP", Dimension::work), "FLOP");
  EXPECT_EQ(work_unit_named("3 flops_total", Dimension::work), "FLOP");
  EXPECT_EQ(work_unit_named("624 TOP/s", Dimension::work_rate), "OP");
  EXPECT_EQ(work_unit_named("2e12", Dimension::work), "");
  EXPECT_EQ(work_unit_named("2T", Dimension::work), "");
  EXPECT_THROW(work_unit_named("2 TB", Dimension::work), InputError);
}

TEST(Quantity, ParsesIntoTheQuantitysOwnType) {
  static_assert(std::is_same_v<decltype(parse<ByteRate>("")), ByteRate>);
  static_assert(std::is_same_v<decltype(parse<Intensity>("")), Intensity>);
  EXPECT_DOUBLE_EQ(parse<ByteRate>("2 TB/s", "--bandwidth").value, 2e12);
  EXPECT_DOUBLE_EQ(parse<WorkRate>("19.5 TFLOP/s").value, 19.5e12);
  EXPECT_DOUBLE_EQ(parse<Bytes>("32 KiB").value, 32768);
  EXPECT_DOUBLE_EQ(parse<Seconds>("10 ms").value, 0.01);
  EXPECT_DOUBLE_EQ(parse<Work>("2 GFLOP").value, 2e9);
  EXPECT_DOUBLE_EQ(parse<Intensity>("9.75 FLOP/byte").value, 9.75);
  // The type picks the dimension: a work rate where a bandwidth is parsed is refused, naming
  // the flag.
  try {
    parse<ByteRate>("19.5 TFLOP/s", "--bandwidth");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--bandwidth"), std::string::npos) << e.what();
  }
}

TEST(Quantity, RejectsWrongDimensionsAndGarbage) {
  EXPECT_THROW(parse_quantity("19.5 TFLOP/s", Dimension::byte_rate, "--bandwidth"), InputError);
  try {
    parse_quantity("2 TB/s", Dimension::work_rate, "--peak");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--peak"), std::string::npos) << m;
    EXPECT_NE(m.find("bandwidth"), std::string::npos) << m;
  }
  for (const char* bad : {"", "abc", "nan", "inf", "1e400", "3 parsecs", "1 Q"})
    EXPECT_THROW(parse_quantity(bad, Dimension::work_rate), InputError) << bad;
  EXPECT_THROW(parse_quantity("10 s", Dimension::count), InputError);
}

TEST(DataTypes, SizesFromTheSeed) {
  // docs/model.md §3: FP64 8, FP32 4, FP16/BF16 2, FP8/INT8 1 byte; int4 half a byte.
  EXPECT_EQ(parse_dtype("fp64").bytes, 8);
  EXPECT_EQ(parse_dtype("double").bytes, 8);
  EXPECT_EQ(parse_dtype("fp32").bytes, 4);
  EXPECT_EQ(parse_dtype("tf32").bytes, 4);
  EXPECT_EQ(parse_dtype("fp16").bytes, 2);
  EXPECT_EQ(parse_dtype("BF16").bytes, 2);
  EXPECT_EQ(parse_dtype("fp8").name, "fp8-e4m3");
  EXPECT_EQ(parse_dtype("fp8-e5m2").bytes, 1);
  EXPECT_EQ(parse_dtype("int8").bytes, 1);
  EXPECT_TRUE(parse_dtype("int8").integer);
  EXPECT_EQ(parse_dtype("int4").bytes, 0.5);
  EXPECT_EQ(work_unit_for(parse_dtype("int8")), "OP");
  EXPECT_EQ(work_unit_for(parse_dtype("bf16")), "FLOP");
  const DataType c = parse_dtype("custom:nf4:0.5");
  EXPECT_EQ(c.name, "nf4");
  EXPECT_EQ(c.bytes, 0.5);
  EXPECT_THROW(parse_dtype("fp7"), InputError);
  EXPECT_THROW(parse_dtype("custom:x:-1"), InputError);
  EXPECT_THROW(parse_dtype("custom:x"), InputError);
  // The name is printed in tables and reprs: a line break or ESC in it is refused, and the
  // message shows it escaped.
  try {
    parse_dtype("custom:a\nforged\x1b[31m:2");
    ADD_FAILURE() << "a control character in a custom type's name was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("custom:a\\u000aforged\\u001b[31m:2"), std::string::npos)
        << e.what();
  }
}
