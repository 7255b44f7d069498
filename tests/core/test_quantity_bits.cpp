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
