// Cost per token: dollars from a price per device-hour, joules from the catalogue's power
// figure, each with where it comes from and what is missing.
#include <cmath>
#include <string>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"

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

}  // namespace roofline::llm
