// Cost per token: dollars from a price per device-hour, joules from the catalogue's power
// figure, each with where it comes from and what is missing.
#include <cmath>
#include <string>

#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline::llm {

DevicePower device_power(const MachineFacts& facts) {
  DevicePower p;
  if (facts.power.watts && *facts.power.watts > 0) p.watts = facts.power.watts;
  if (facts.power.source) p.source = *facts.power.source;
  return p;
}

TokenCost token_cost(double tokens_per_s, double devices, std::optional<double> price_per_hour,
                     const DevicePower& power, const std::string& machine) {
  if (!(tokens_per_s > 0) || !std::isfinite(tokens_per_s))
    throw InputError(machine + ": the throughput is " + format_number(tokens_per_s) +
                     " tokens/s, so a token has no cost: the roofs or options (--dp, "
                     "--interconnect-bandwidth, --link-latency) are beyond what can be computed");
  if (!(devices >= 1) || !std::isfinite(devices) || devices != std::floor(devices))
    throw InputError("devices: must be a whole number ≥ 1 (got " + format_number(devices) + ")");
  if (price_per_hour && (!(*price_per_hour >= 0) || !std::isfinite(*price_per_hour)))
    throw InputError("--price-per-hour: must be a number ≥ 0 (got " +
                     format_number(*price_per_hour) + ")");
  TokenCost c;
  c.devices = devices;
  c.tokens_per_s = tokens_per_s;
  c.price_per_hour = price_per_hour;
  if (price_per_hour)
    c.usd_per_million_tokens = *price_per_hour * devices / (tokens_per_s * 3600) * 1e6;
  else
    c.notes.push_back("no price given (--price-per-hour): $/M tokens not computed");
  c.power_w = power.watts;
  c.power_source = power.source;
  if (power.watts)
    c.joules_per_token = *power.watts * devices / tokens_per_s;
  else
    c.notes.push_back("the power of " + machine + " is not in the catalogue" +
                      (power.source.empty() ? "" : " (" + power.source + ")") +
                      ": J/token not computed (give --power-w)");
  // Finite inputs can still give a cost beyond a double (1e300 $/h, 1e-320 tokens/s).
  for (const auto& [value, what] :
       {std::pair{c.usd_per_million_tokens, "$/M tokens = price × devices / throughput"},
        std::pair{c.joules_per_token, "J/token = power × devices / throughput"}})
    if (value && !std::isfinite(*value))
      throw InputError(machine + ": " + what + " is beyond a double (" +
                       format_number(tokens_per_s) + " tokens/s on " + format_number(devices) +
                       " devices): the price, power or throughput is out of range");
  return c;
}

namespace {

double price_number(const std::string& t) {
  const double v = decimal_number(t).value_or(-1);
  if (v < 0)
    throw InputError("--price-per-hour: '" + t + "' is not a price ≥ 0 (dollars per device-hour)");
  return v;
}

}  // namespace

PriceList PriceList::parse(const std::string& spec) {
  PriceList l;
  if (spec.empty()) return l;
  if (spec.find('=') == std::string::npos) {
    l.set_all(price_number(spec));
    return l;
  }
  std::size_t start = 0;
  while (start <= spec.size()) {
    const auto comma = spec.find(',', start);
    const std::string item = spec.substr(start, comma == std::string::npos ? comma : comma - start);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--price-per-hour: '" + item + "' must be NAME=PRICE");
    const std::string name = item.substr(0, eq);
    l.refuse_priced(name);  // before the price is read, as the flag is read left to right
    l.add(name, price_number(item.substr(eq + 1)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return l;
}

void PriceList::refuse_priced(const std::string& name) const {
  for (const auto& [n, p] : by_name_)
    if (n == name) throw InputError("--price-per-hour: '" + name + "' is priced twice");
}

void PriceList::add(const std::string& name, double price) {
  refuse_priced(name);
  by_name_.emplace_back(name, price);
  used_.push_back(false);
}

std::optional<double> PriceList::of(const std::string& given, const std::string& machine,
                                    const std::string& catalogue) {
  if (all_) return all_;
  for (std::size_t i = 0; i < by_name_.size(); ++i)
    if ((!given.empty() && by_name_[i].first == given) ||
        (!machine.empty() && by_name_[i].first == machine) ||
        (!catalogue.empty() && hardware_key(by_name_[i].first) == hardware_key(catalogue))) {
      used_[i] = true;
      return by_name_[i].second;
    }
  return std::nullopt;
}

void PriceList::check_all_used(const std::vector<std::string>& machines) const {
  std::string list;
  for (const auto& m : machines) list += (list.empty() ? "" : ", ") + m;
  for (std::size_t i = 0; i < by_name_.size(); ++i)
    if (!used_[i])
      throw InputError("--price-per-hour: '" + by_name_[i].first + "' is none of the machines (" +
                       list + ")");
}

void check_dp(double dp) {
  if (!(dp >= 1) || !std::isfinite(dp) || dp != std::floor(dp))
    throw InputError("--dp: must be a whole number ≥ 1 (got " + format_number(dp) + ")");
}

ThroughputBasis throughput_basis(double decode_tokens_per_s, const RequestTiming* request,
                                 const ServingResult* serving, const SpeculativeResult* speculative,
                                 double replicas) {
  ThroughputBasis b;
  b.tokens_per_s = decode_tokens_per_s;
  if (request) {
    b.tokens_per_s = request->output_tokens_per_s;
    b.what = "the request's output";
  }
  if (serving) {
    b.tokens_per_s = serving->output_tokens_per_s;
    b.what = "serving output";
  }
  if (!speculative) return b;
  if (b.what == "decode") {
    // Decode alone: speculation is how it decodes, so the rate (and cost) is speculation's.
    b.tokens_per_s = speculative->tokens_per_s;
    b.what = "speculative decoding";
  } else {
    // The request and serving decode one token per step: said beside their cost.
    b.note = std::string(serving ? "the serving above" : "the request above") +
             " decodes one token per step: speculative decoding is not in this cost (it gives " +
             format_number(speculative->tokens_per_s * replicas, 4) + " tokens/s at decode, " +
             format_number(speculative->speedup, 3) + "× the plain step's)";
  }
  return b;
}

std::optional<DataParallelSummary> data_parallel_summary(const Scenario& s, double replicas,
                                                         const ThroughputBasis& b) {
  if (!(replicas > 1)) return std::nullopt;
  // The figure is every replica's: one replica's throughput × the replicas.
  return DataParallelSummary{replicas, replica_devices(s), b.tokens_per_s * replicas, b.what};
}

TokenCost basis_cost(const ThroughputBasis& b, const Scenario& s, double replicas,
                     std::optional<double> price_per_hour, const DevicePower& power,
                     const std::string& machine) {
  TokenCost c = token_cost(b.tokens_per_s * replicas, replica_devices(s) * replicas, price_per_hour,
                           power, machine);
  if (!b.note.empty()) c.notes.push_back(b.note);
  c.basis = b.what;
  return c;
}

std::string cost_basis_label(const std::string& what, double replicas) {
  return "(" + what + (replicas > 1 ? ", all " + format_number(replicas) + " replicas)" : ")");
}

}  // namespace roofline::llm
