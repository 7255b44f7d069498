#include "roofline/compare.hpp"

#include <cmath>
#include <functional>

#include "roofline/error.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline {

std::string to_string(Regime r) {
  switch (r) {
    case Regime::bandwidth:
      return "bandwidth ratio";
    case Regime::peak:
      return "peak ratio";
    case Regime::mixed:
      return "mixed";
    case Regime::reference:
      return "reference";
  }
  return "mixed";
}

// docs/model.md §7: at intensity I the best speedup from switching hardware is the ratio of the
// roof heights; left of both ridges it is β_B/β_A, right of both π_B/π_A, otherwise mixed.
namespace {
Comparison compare(const std::vector<const RoofSet*>& machines, Intensity i,
                   const std::function<const ComputeRoof&(size_t)>& compute_of,
                   const std::string& level) {
  if (machines.empty()) throw InputError("compare: no machine given");
  if (!(i.value > 0)) throw InputError("compare: intensity must be > 0");
  for (const RoofSet* m : machines) require_same_units(*machines.front(), *m);
  Comparison cmp;
  cmp.intensity = i;
  cmp.level = level;
  for (size_t k = 0; k < machines.size(); ++k) {
    const RoofSet* m = machines[k];
    const ComputeRoof& c = compute_of(k);
    // Without a level, at the roof the machine's chart heads with (its fastest link where it
    // has links only), as `plot --at` draws it.
    const MemoryRoof& mem = level.empty() ? m->headline_memory() : m->select_memory(level);
    MachineAtIntensity a;
    a.machine = m->name;
    a.compute_roof = c.name;
    a.compute_precision = c.precision;
    a.memory_level = mem.level;
    a.units = m->units_of(c);
    a.peak = c.peak;
    a.bandwidth = mem.bandwidth;
    a.ridge = ridge(c.peak, mem.bandwidth);
    a.attainable = attainable(c.peak, mem.bandwidth, i);
    a.memory_side = i < a.ridge;
    // β·I of a tiny intensity can underflow to 0 (then every ratio is 0/0): refused, as is a
    // ratio beyond a double's range, so no nan or inf is printed.
    if (!std::isnormal(a.attainable.value))
      throw InputError("compare: at I = " + format_number(i.value) + " the attainable " +
                       "performance of '" + m->name + "' is not a number a double can hold " +
                       "(give a larger intensity)");
    cmp.machines.push_back(a);
  }
  const auto& base = cmp.machines.front();
  for (const auto& a : cmp.machines) {
    cmp.ratios.push_back(a.attainable / base.attainable);
    if (!std::isfinite(cmp.ratios.back()) || !std::isnormal(cmp.ratios.back()))
      throw InputError("compare: the ratio of '" + a.machine + "' to '" + base.machine +
                       "' at I = " + format_number(i.value) + " is beyond a double's range");
    if (&a == &base)
      cmp.regimes.push_back(Regime::reference);
    else if (a.memory_side && base.memory_side)
      cmp.regimes.push_back(Regime::bandwidth);
    else if (!a.memory_side && !base.memory_side)
      cmp.regimes.push_back(Regime::peak);
    else
      cmp.regimes.push_back(Regime::mixed);
  }
  return cmp;
}
}  // namespace

bool other_work_than_first(const Comparison& c, size_t i) {
  return c.machines[i].units.work != c.machines.front().units.work;
}

namespace {
/// What the OP/s roofs of a comparison count: an integer operation (int8, int4), or one of
/// unnamed precision ("ops": a vendor's TOPS that names no type, docs/hardware.md), or either.
std::string operation_counted(const Comparison& c) {
  bool integer = false, unnamed = false;
  for (const auto& m : c.machines) {
    if (m.units.work != "OP") continue;
    (lower(m.compute_precision) == "ops" ? unnamed : integer) = true;
  }
  if (unnamed && integer) return "an integer operation or one of unnamed precision ('ops')";
  if (unnamed) return "an operation of unnamed precision ('ops': a TOPS figure that names no type)";
  return "an integer operation";
}
}  // namespace

std::string mixed_work_note(const Comparison& c) {
  std::string others;
  for (size_t i = 1; i < c.machines.size(); ++i)
    if (other_work_than_first(c, i))
      others += (others.empty() ? "" : ", ") + c.machines[i].machine + "'s '" +
                c.machines[i].compute_roof + "' (" + c.machines[i].units.work_rate() + ")";
  if (others.empty()) return "";
  const auto& base = c.machines.front();
  return "the roofs count different work: " + others + " against " + base.machine + "'s '" +
         base.compute_roof + "' (" + base.units.work_rate() + "); their ratio compares " +
         operation_counted(c) +
         " with a floating-point one, a speed-up only where the workload's operations map one "
         "to one (the same products at the other type), and I is read in each roof's own unit";
}

Comparison compare_at(const std::vector<const RoofSet*>& machines, Intensity i,
                      const std::string& precision, const std::string& level) {
  Comparison c = compare(
      machines, i,
      [&](size_t k) -> const ComputeRoof& { return machines[k]->select_compute(precision); },
      level);
  c.precision = precision;
  return c;
}

Comparison compare_roofs_at(const std::vector<const RoofSet*>& machines, Intensity i,
                            const std::vector<std::string>& compute_roofs,
                            const std::string& level) {
  if (compute_roofs.size() != machines.size())
    throw InputError("compare: " + std::to_string(compute_roofs.size()) +
                     " compute roofs named for " + std::to_string(machines.size()) + " machines");
  return compare(
      machines, i,
      [&](size_t k) -> const ComputeRoof& {
        const ComputeRoof* c = machines[k]->find_compute(compute_roofs[k]);
        if (!c)
          throw InputError("machine '" + machines[k]->name + "' has no compute roof named '" +
                           compute_roofs[k] + "'");
        return *c;
      },
      level);
}

}  // namespace roofline
