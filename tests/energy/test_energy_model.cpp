// The energy roofline (Choi, Bedard, Fowler & Vuduc, IPDPS 2013) against hand derivations from
// the paper's equations, each checked a second way from E = W·ε_flop + Q·ε_mem + π0·T directly.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <limits>

#include "roofline/energy.hpp"
#include "roofline/error.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {
// π = 100 GFLOP/s (τ_flop = 1e-11 s), β = 25 GB/s (τ_mem = 4e-11 s), ε_flop = 100 pJ,
// ε_mem = 500 pJ/byte, π0 = 10 W.
EnergyCosts costs() {
  EnergyCosts c;
  c.tau_flop = 1e-11;
  c.tau_mem = 4e-11;
  c.eps_flop = 1e-10;
  c.eps_mem = 5e-10;
  c.pi0 = 10;
  return c;
}

TEST(EnergyModel, BalancesAndEffectiveCosts) {
  const EnergyCosts c = costs();
  EXPECT_DOUBLE_EQ(time_balance(c), 4.0);    // 4e-11 / 1e-11
  EXPECT_DOUBLE_EQ(energy_balance(c), 5.0);  // 5e-10 / 1e-10
  // ε̂_flop = 1e-10 + 10 · 1e-11 = 2e-10 J, so η_flop = 0.5.
  EXPECT_DOUBLE_EQ(effective_energy_per_flop(c), 2e-10);
  // B̂_ε(1) = 0.5·5 + 0.5·(4 − 1) = 4; B̂_ε(8) = 0.5·5 + 0 = 2.5.
  EXPECT_DOUBLE_EQ(effective_energy_balance(c, 1), 4.0);
  EXPECT_DOUBLE_EQ(effective_energy_balance(c, 8), 2.5);
}

TEST(EnergyModel, TimeEnergyAndTheRoof) {
  const EnergyCosts c = costs();
  // W = 1, Q = 1 (I = 1): T = max(1e-11, 4e-11) = 4e-11 s;
  // E = 1e-10 + 5e-10 + 10·4e-11 = 1e-9 J; W/E = 1e9 FLOP/J = 1/(2e-10·(1 + 4/1)).
  EXPECT_DOUBLE_EQ(model_time(c, Work(1), Bytes(1)).value, 4e-11);
  EXPECT_NEAR(model_energy(c, Work(1), Bytes(1)).value, 1e-9, 1e-24);
  EXPECT_NEAR(work_per_joule(c, 1), 1e9, 1);
  // W = 8, Q = 1 (I = 8): T = 8e-11 s; E = 8e-10 + 5e-10 + 8e-10 = 2.1e-9 J;
  // W/E = 8/2.1e-9 = 3.8095e9 FLOP/J = 1/(2e-10·(1 + 2.5/8)).
  EXPECT_NEAR(model_energy(c, Work(8), Bytes(1)).value, 2.1e-9, 1e-23);
  EXPECT_NEAR(work_per_joule(c, 8), 8 / 2.1e-9, 8 / 2.1e-9 * 1e-12);
  // The roof rises towards 1/ε̂_flop = 5e9 FLOP/J and never passes it.
  EXPECT_LT(work_per_joule(c, 1e6), 5e9);
  EXPECT_NEAR(work_per_joule(c, 1e6), 5e9, 5e9 * 1e-5);
  // Power E/T: 1e-9 / 4e-11 = 25 W at I = 1; 2.1e-9 / 8e-11 = 26.25 W at I = 8.
  EXPECT_NEAR(model_power(c, 1).value, 25.0, 1e-12);
  EXPECT_NEAR(model_power(c, 8).value, 26.25, 1e-12);
}

TEST(EnergyModel, BalancePointHalvesThePeak) {
  const EnergyCosts c = costs();
  // η·B_ε = 2.5 < B_τ = 4: I = (2.5 + 0.5·4)/(2 − 0.5) = 3; B̂_ε(3) = 2.5 + 0.5·1 = 3 = I.
  EXPECT_DOUBLE_EQ(energy_balance_point(c), 3.0);
  EXPECT_DOUBLE_EQ(effective_energy_balance(c, 3), 3.0);
  // There W/E = 1/(2e-10 · 2) = 2.5e9: half of 1/ε̂_flop.
  EXPECT_NEAR(work_per_joule(c, 3), 2.5e9, 1e-3);
  // Without constant power η = 1 and the balance point is B_ε = 5 (≥ B_τ = 4).
  EnergyCosts z = c;
  z.pi0 = 0;
  EXPECT_DOUBLE_EQ(effective_energy_per_flop(z), 1e-10);
  EXPECT_DOUBLE_EQ(energy_balance_point(z), 5.0);
  EXPECT_NEAR(work_per_joule(z, 5), 0.5e10, 1e-3);
}

TEST(EnergyModel, BadCostsAreRefused) {
  EnergyCosts c = costs();
  c.validate();
  c.eps_flop = 0;
  EXPECT_THROW(c.validate(), InputError);
  c = costs();
  c.pi0 = -1;
  EXPECT_THROW(c.validate(), InputError);
  c = costs();
  c.tau_mem = std::numeric_limits<double>::infinity();
  EXPECT_THROW(c.validate(), InputError);
}
}  // namespace ROOFLINE_UNITY_ID
