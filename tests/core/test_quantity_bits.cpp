// Bits are bits (IEEE 1541, IEC 80000-13: "b" is the bit, "B" the byte): a network link given
// as "2 Gb/s" is 250 MB/s, not 2 GB/s.
#include <gtest/gtest.h>

#include "roofline/error.hpp"
#include "roofline/quantity.hpp"

using namespace roofline;

TEST(QuantityBits, BitRatesAreAnEighthOfByteRates) {
  EXPECT_DOUBLE_EQ(parse_quantity("2 Gb/s", Dimension::byte_rate), 2e9 / 8);
  EXPECT_DOUBLE_EQ(parse_quantity("2 Tbps", Dimension::byte_rate), 2e12 / 8);
  EXPECT_DOUBLE_EQ(parse_quantity("400 Gbit/s", Dimension::byte_rate), 50e9);
  EXPECT_DOUBLE_EQ(parse_quantity("16 b/s", Dimension::byte_rate), 2);
  EXPECT_DOUBLE_EQ(parse_quantity("100 Mbps", Dimension::byte_rate), 12.5e6);
  // Bytes stay bytes, in every spelling.
  EXPECT_DOUBLE_EQ(parse_quantity("2 GB/s", Dimension::byte_rate), 2e9);
  EXPECT_DOUBLE_EQ(parse_quantity("2 GBps", Dimension::byte_rate), 2e9);
  EXPECT_DOUBLE_EQ(parse_quantity("2 Gbyte/s", Dimension::byte_rate), 2e9);
  EXPECT_DOUBLE_EQ(parse_quantity("2 GiB/s", Dimension::byte_rate), 2.0 * (1 << 30));
}

TEST(QuantityBits, BitAmountsAndPerBitIntensities) {
  EXPECT_DOUBLE_EQ(parse_quantity("8 kb", Dimension::bytes), 1000);
  EXPECT_DOUBLE_EQ(parse_quantity("64 bit", Dimension::bytes), 8);
  EXPECT_DOUBLE_EQ(parse_quantity("1 Kib", Dimension::bytes), 128);
  EXPECT_DOUBLE_EQ(parse_quantity("32 KiB", Dimension::bytes), 32768);
  EXPECT_DOUBLE_EQ(parse_quantity("1 FLOP/bit", Dimension::intensity), 8);
  EXPECT_DOUBLE_EQ(parse_quantity("1 FLOP/b", Dimension::intensity), 8);
  EXPECT_DOUBLE_EQ(parse_quantity("1 FLOP/B", Dimension::intensity), 1);
  // A bit rate is still a bandwidth: not a performance, not an amount.
  EXPECT_THROW(parse_quantity("2 Gb/s", Dimension::work_rate, "--peak"), InputError);
  EXPECT_THROW(parse_quantity("2 Gb/s", Dimension::bytes, "--traffic"), InputError);
}

// Energy costs and power (the energy roofline's ε_flop, ε_mem, π0): "100 pJ" as datasheets and
// Horowitz's tables write them; a bare joule is read in the dimension asked for.
TEST(Quantity, EnergyAndPowerUnits) {
  EXPECT_DOUBLE_EQ(parse_quantity("100 pJ", Dimension::energy_per_work), 100e-12);
  EXPECT_DOUBLE_EQ(parse_quantity("0.1 nJ/FLOP", Dimension::energy_per_work), 0.1e-9);
  EXPECT_DOUBLE_EQ(parse_quantity("1e-10", Dimension::energy_per_work), 1e-10);
  EXPECT_DOUBLE_EQ(parse_quantity("500 pJ/B", Dimension::energy_per_byte), 500e-12);
  EXPECT_DOUBLE_EQ(parse_quantity("1 nJ", Dimension::energy_per_byte), 1e-9);
  EXPECT_DOUBLE_EQ(parse_quantity("10 pJ/b", Dimension::energy_per_byte), 80e-12);  // per bit
  EXPECT_DOUBLE_EQ(parse_quantity("30 W", Dimension::power), 30);
  EXPECT_DOUBLE_EQ(parse_quantity("1.5 kW", Dimension::power), 1500);
  EXPECT_DOUBLE_EQ(parse_quantity("30 J/s", Dimension::power), 30);
  // Units of another dimension are refused, naming the dimension each is.
  EXPECT_THROW(parse_quantity("1 nJ/B", Dimension::energy_per_work, "--eps-flop"), InputError);
  EXPECT_THROW(parse_quantity("1 nJ/FLOP", Dimension::energy_per_byte, "--eps-mem"), InputError);
  EXPECT_THROW(parse_quantity("30 W", Dimension::energy_per_work, "--eps-flop"), InputError);
  EXPECT_THROW(parse_quantity("1 nJ", Dimension::power, "--pi0"), InputError);
  try {
    parse_quantity("2 GB/s", Dimension::energy_per_byte, "--eps-mem");
    FAIL() << "a bandwidth was taken as an energy";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--eps-mem: unit 'B/s' is a bandwidth"), std::string::npos)
        << e.what();
  }
  // An energy per bit is named as what it is: an energy per amount of data, not "per byte".
  try {
    parse_quantity("10 pJ/b", Dimension::energy_per_work, "--eps-flop");
    FAIL() << "an energy per bit was taken as one per unit of work";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--eps-flop: unit 'J/b' is an energy per amount of "
                                         "data (J/B or J/b) (got '10 pJ/b'; expected an energy "
                                         "per unit of work (J/FLOP))"),
              std::string::npos)
        << e.what();
  }
  // Pico where it is met (times, energies); for rates and amounts a lower-case p is a peta
  // typed wrong, refused rather than read as 1e-12.
  EXPECT_DOUBLE_EQ(parse_quantity("5 ps", Dimension::seconds), 5e-12);
  try {
    parse_quantity("1 pflop/s", Dimension::work_rate, "--peak");
    FAIL() << "1 pflop/s was read as 1e-12 FLOP/s";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown unit or prefix 'pflop/s' (peta is P)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_quantity("2 pB", Dimension::bytes, "--traffic"), InputError);
  EXPECT_DOUBLE_EQ(parse_quantity("1 PFLOP/s", Dimension::work_rate), 1e15);
  // No fraction of a byte: "1 mB/s" is a mega typed in lower case, not 1e-3 B/s; milli stays
  // for times and for a rate of work (the tool prints "166.7 mFLOP/s").
  try {
    parse_quantity("1 mB/s", Dimension::byte_rate, "--bandwidth");
    FAIL() << "1 mB/s was read as 1e-3 B/s";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown unit or prefix 'mB/s' (mega is M"),
              std::string::npos)
        << e.what();
  }
  for (const char* text : {"1 mB", "1 m", "1 mbit"})
    EXPECT_THROW(parse_quantity(text, Dimension::bytes, "--traffic"), InputError) << text;
  // Work too, but for the spelling the tool prints: "1 mflop" was read as 1e-3 FLOP.
  for (const char* text : {"1 mflop", "1 mFlop", "1 m", "1 mop"})
    EXPECT_THROW(parse_quantity(text, Dimension::work, "--work"), InputError) << text;
  EXPECT_THROW(parse_quantity("1 mflop/s", Dimension::work_rate, "--peak"), InputError);
  EXPECT_DOUBLE_EQ(parse_quantity("166.7 mFLOP/s", Dimension::work_rate), 0.1667);
  EXPECT_DOUBLE_EQ(parse_quantity("2 mOP", Dimension::work), 2e-3);
  EXPECT_DOUBLE_EQ(parse_quantity("1 Mflop", Dimension::work), 1e6);
  EXPECT_THROW(parse_quantity("4m", Dimension::count, "--n"), InputError);
  // What is printed parses back: half a byte per second is 0.5 B/s, not 500 mB/s.
  EXPECT_EQ(format_byte_rate(ByteRate(0.5)), "0.5 B/s");
  EXPECT_EQ(format_bytes(Bytes(0.0125)), "0.0125 B");
  EXPECT_DOUBLE_EQ(parse_quantity(format_byte_rate(ByteRate(0.5)), Dimension::byte_rate), 0.5);
  EXPECT_DOUBLE_EQ(parse_quantity("1 MB/s", Dimension::byte_rate), 1e6);
  EXPECT_DOUBLE_EQ(parse_quantity("2 ms", Dimension::seconds), 2e-3);
  EXPECT_DOUBLE_EQ(parse_quantity("166.7 mFLOP/s", Dimension::work_rate), 0.1667);
}
