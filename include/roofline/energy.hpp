#pragma once
// The energy roofline of Choi, Bedard, Fowler & Vuduc, "A roofline model of energy", IPDPS 2013
// (docs/energy.md). A machine costs
//   τ_flop = 1/π seconds and ε_flop joules per unit of work (FLOP),
//   τ_mem  = 1/β seconds and ε_mem  joules per unit of traffic (byte),
//   π0 watts of constant power, drawn for as long as the computation runs;
// an algorithm does W work and Q traffic at intensity I = W/Q. Then (the paper's model):
//   T = max(W·τ_flop, Q·τ_mem)                                   (time overlaps)
//   E = W·ε_flop + Q·ε_mem + π0·T                                (energy does not)
//   B_τ = τ_mem/τ_flop = π/β              the time balance (the ridge)
//   B_ε = ε_mem/ε_flop                     the energy balance
//   ε̂_flop = ε_flop + π0·τ_flop,  η_flop = ε_flop/ε̂_flop
//   B̂_ε(I) = η_flop·B_ε + (1 − η_flop)·max(0, B_τ − I)  the effective energy balance
//   E = W·ε̂_flop·(1 + B̂_ε(I)/I)          so the energy-efficiency roof is
//   W/E = 1 / (ε̂_flop·(1 + B̂_ε(I)/I))    work per joule against I, at most 1/ε̂_flop.
// The balance point is the I where the memory term equals the work term, I = B̂_ε(I): there the
// roof is half its peak 1/ε̂_flop.
#include <string>

#include "roofline/units.hpp"

namespace roofline {

struct EnergyCosts {
  double tau_flop = 0;  ///< s per unit of work: 1/π
  double tau_mem = 0;   ///< s per unit of traffic: 1/β
  double eps_flop = 0;  ///< J per unit of work
  double eps_mem = 0;   ///< J per unit of traffic
  double pi0 = 0;       ///< constant power, W
  /// τ > 0, ε ≥ 0 (ε_flop > 0), π0 ≥ 0, all finite. Throws InputError naming the field.
  void validate() const;
};

/// A workload placed on the energy roofline: I = W/Q and W/E (its measured work per joule).
struct EnergyPoint {
  std::string name;
  double intensity = 0;       ///< W/Q, work unit per traffic unit
  double work_per_joule = 0;  ///< W/E
};

/// B_τ = τ_mem / τ_flop (= π/β, the ridge).
double time_balance(const EnergyCosts& c);
/// B_ε = ε_mem / ε_flop.
double energy_balance(const EnergyCosts& c);
/// ε̂_flop = ε_flop + π0·τ_flop: the energy of one unit of work including constant power.
double effective_energy_per_flop(const EnergyCosts& c);
/// B̂_ε(I) = η_flop·B_ε + (1 − η_flop)·max(0, B_τ − I), η_flop = ε_flop/ε̂_flop.
double effective_energy_balance(const EnergyCosts& c, double intensity);
/// T = max(W·τ_flop, Q·τ_mem).
Seconds model_time(const EnergyCosts& c, Work work, Bytes traffic);
/// E = W·ε_flop + Q·ε_mem + π0·T.
Joule model_energy(const EnergyCosts& c, Work work, Bytes traffic);
/// The energy-efficiency roof: work per joule at intensity I, 1/(ε̂_flop·(1 + B̂_ε(I)/I)).
double work_per_joule(const EnergyCosts& c, double intensity);
/// Average power E/T at intensity I (per unit of work: (E/W)/(T/W)).
Watt model_power(const EnergyCosts& c, double intensity);
/// The balance point: the I with I = B̂_ε(I). When η_flop·B_ε ≥ B_τ it is η_flop·B_ε; otherwise
/// (η_flop·B_ε + (1 − η_flop)·B_τ) / (2 − η_flop), which is then below B_τ.
double energy_balance_point(const EnergyCosts& c);

}  // namespace roofline
