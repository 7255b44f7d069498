// The energy roofline: Choi, Bedard, Fowler & Vuduc, "A roofline model of energy", IPDPS 2013
// (include/roofline/energy.hpp has the model's equations).
#include "roofline/energy.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/error.hpp"
#include "roofline/quantity.hpp"

namespace roofline {

void EnergyCosts::validate() const {
  auto check = [](double v, const char* name, bool strictly_positive) {
    if (!std::isfinite(v) || v < 0 || (strictly_positive && v == 0))
      throw InputError(std::string(name) + ": expected a finite number " +
                       (strictly_positive ? "> 0" : "≥ 0") + " (got " + format_number(v) + ")");
  };
  check(tau_flop, "tau_flop", true);
  check(tau_mem, "tau_mem", true);
  check(eps_flop, "eps_flop", true);
  // Moving a byte costs energy: ε_mem = 0 would put the energy balance point at I = 0, where
  // the log chart has no place and the balance ε_mem/ε_flop no meaning.
  check(eps_mem, "eps_mem", true);
  check(pi0, "pi0", false);
  // Each cost finite is not enough: the model's derived figures must be too, or a peak of inf
  // FLOP/J (ε_flop = 1e-320) or an energy balance of inf (ε_mem = 1e300) reaches the output.
  auto derived = [](double v, const std::string& what) {
    if (!std::isfinite(v) || !(v > 0))
      throw InputError(what + " is " + format_number(v) +
                       ": the costs are too far apart or too small to compute with");
  };
  derived(1 / effective_energy_per_flop(*this),
          "the peak work per joule 1/(eps_flop + pi0 · tau_flop)");
  derived(time_balance(*this), "the time balance tau_mem/tau_flop");
  derived(energy_balance(*this), "the energy balance eps_mem/eps_flop");
  // The most the model draws, at the ridge I = B_τ (work and traffic both at their peaks):
  // every other intensity draws less, so this one finite keeps every power finite.
  derived(model_power(*this, time_balance(*this)).value,
          "the power at the ridge pi·eps_flop + beta·eps_mem + pi0");
}

double time_balance(const EnergyCosts& c) {
  return c.tau_mem / c.tau_flop;
}

double energy_balance(const EnergyCosts& c) {
  return c.eps_mem / c.eps_flop;
}

double effective_energy_per_flop(const EnergyCosts& c) {
  return c.eps_flop + c.pi0 * c.tau_flop;
}

namespace {
double eta_flop(const EnergyCosts& c) {
  return c.eps_flop / effective_energy_per_flop(c);
}
}  // namespace

double effective_energy_balance(const EnergyCosts& c, double intensity) {
  const double eta = eta_flop(c);
  return eta * energy_balance(c) + (1 - eta) * std::max(0.0, time_balance(c) - intensity);
}

Seconds model_time(const EnergyCosts& c, Work work, Bytes traffic) {
  return Seconds(std::max(work.value * c.tau_flop, traffic.value * c.tau_mem));
}

Joule model_energy(const EnergyCosts& c, Work work, Bytes traffic) {
  return work * JoulePerWork(c.eps_flop) + traffic * JoulePerByte(c.eps_mem) +
         Watt(c.pi0) * model_time(c, work, traffic);
}

double work_per_joule(const EnergyCosts& c, double intensity) {
  return 1.0 /
         (effective_energy_per_flop(c) * (1 + effective_energy_balance(c, intensity) / intensity));
}

Watt model_power(const EnergyCosts& c, double intensity) {
  // Per unit of work: E/W = 1 / work_per_joule, T/W = max(τ_flop, τ_mem/I).
  const double time_per_work = std::max(c.tau_flop, c.tau_mem / intensity);
  return Watt((1.0 / work_per_joule(c, intensity)) / time_per_work);
}

double energy_balance_point(const EnergyCosts& c) {
  const double eta = eta_flop(c);
  const double be = eta * energy_balance(c);
  const double bt = time_balance(c);
  if (be >= bt) return be;
  return (be + (1 - eta) * bt) / (2 - eta);
}

}  // namespace roofline
