#include "roofline/point.hpp"

#include <cmath>
#include <set>

#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline {

std::string stated_work_unit(const Point& p) {
  if (!p.work_unit.empty()) return p.work_unit;
  // "fp16", or a roof name that begins with its type ("fp32 vector", "int8 tensor").
  const std::string type = p.precision.substr(0, p.precision.find(' '));
  if (type.empty() || type.rfind("custom:", 0) == 0) return "";
  try {
    return work_unit_for(parse_dtype(type));
  } catch (const InputError&) {  // a roof's own name ("peak", "avx2 fma"): no type to go by
    return "";
  }
}

UnitSystem point_units(const Point& p, const UnitSystem& document) {
  if (document.work == "FLOP" && stated_work_unit(p) == "OP") return {"OP", document.traffic};
  return document;
}

const LevelTraffic& Point::traffic_at(const std::string& level) const {
  if (traffic.empty()) throw InputError("point '" + name + "': no traffic given");
  if (level.empty()) return traffic.front();
  for (const auto& t : traffic)
    if (t.level == level) return t;
  throw InputError("point '" + name + "': no traffic at level '" + level + "'");
}

void Point::validate() const {
  // Names first: every later message prints them.
  require_one_line(name, "point name");
  // A chart label, a table row and diff's matching all go by the name.
  if (name.empty()) throw InputError("a point has an empty name");
  // A name of blanks prints as nothing, as an empty one would.
  if (trim(name).empty()) throw InputError("a point has a blank name ('" + name + "')");
  std::set<std::string> levels;
  for (const auto& t : traffic) {
    require_one_line(t.level, "point '" + name + "': traffic level");
    // Two byte counts at one level would give two intensities at once.
    if (!levels.insert(lower(t.level)).second)
      throw InputError("point '" + name + "': traffic at level '" + t.level + "' is given twice");
  }
  auto bad = [&](const std::string& field, double v, const std::string& why) {
    throw InputError("point '" + name + "': " + field + " " + why + " (got " + format_number(v) +
                     ")");
  };
  if (!std::isfinite(work.value)) bad("work", work.value, "must be finite");
  if (work.value <= 0) bad("work", work.value, "must be > 0 (a point needs W to have an I)");
  if (!std::isfinite(time.value)) bad("time", time.value, "must be finite");
  if (time.value <= 0) bad("time", time.value, "must be > 0");
  if (traffic.empty()) throw InputError("point '" + name + "': traffic is missing");
  for (const auto& t : traffic) {
    const std::string field = t.level.empty() ? "traffic" : "traffic[" + t.level + "]";
    if (!std::isfinite(t.bytes.value)) bad(field, t.bytes.value, "must be finite");
    if (t.bytes.value <= 0) bad(field, t.bytes.value, "must be > 0");
  }
  if (!std::isfinite(weight) || weight < 0) bad("weight", weight, "must be finite and >= 0");
  if (!std::isfinite(energy) || energy < 0) bad("energy", energy, "must be finite and >= 0");
  // The derived quantities must be numbers too: W/T and W/Q of finite inputs can still
  // overflow (1e308 FLOP in 0.01 s) or underflow to 0, and an inf or a 0 would reach every
  // table and chart as "inf", "nan" or a point off the axes.
  auto derived = [&](const std::string& what, double v, const std::string& from) {
    if (!std::isfinite(v) || !std::isnormal(v))
      throw InputError("point '" + name + "': " + what + " = " + from + " is " +
                       (std::isfinite(v) ? "too small for a double (underflow)"
                                         : "too large for a double (overflow)") +
                       "; give W, Q and T in a range where their ratios are numbers");
  };
  derived("P = W/T", work.value / time.value,
          format_number(work.value) + " / " + format_number(time.value) + " s");
  for (const auto& t : traffic)
    derived("I = W/Q" + (t.level.empty() ? std::string() : " at " + t.level),
            work.value / t.bytes.value,
            format_number(work.value) + " / " + format_number(t.bytes.value));
}

bool precision_changed(const Point& before, const Point& after) {
  return !before.precision.empty() && !after.precision.empty() &&
         !iequals(before.precision, after.precision);
}

bool work_units_differ(const Point& before, const Point& after, const UnitSystem& document) {
  return point_units(before, document).work != point_units(after, document).work;
}

}  // namespace roofline
