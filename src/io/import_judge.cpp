// What `roofline import` makes of an importer's points: each fitted to a machine's roofs and
// judged or only listed, and the points document it writes with --json.
#include <map>
#include <set>

#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {

/// Notes that say the same of many points ("NAME: L2 traffic left out: ...") as one line:
/// `point_notes` holds (point name, note without the name).
std::vector<std::string> grouped_notes(
    const std::vector<std::pair<std::string, std::string>>& point_notes) {
  std::map<std::string, std::vector<std::string>> by_text;
  std::vector<std::string> order, out;
  for (const auto& [name, text] : point_notes) {
    auto& names = by_text[text];
    if (names.empty()) order.push_back(text);
    names.push_back(name);
  }
  for (const auto& text : order) {
    const auto& names = by_text[text];
    if (names.size() == 1) {
      out.push_back(names[0] + ": " + text);
      continue;
    }
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i) list += (i ? ", " : "") + names[i];
    if (names.size() > 3) list += ", ...";
    out.push_back(std::to_string(names.size()) + " points (" + list + "): " + text);
  }
  return out;
}

/// --precision may not put work on a roof that counts other operations: the counters' FLOP of
/// an fp32 kernel against an int8 roof's OP/s is no bound (docs/import.md). Refused before
/// anything is written, naming the points and the precision their counters give.
void refuse_other_work(const std::string& precision, const std::vector<Point>& points,
                       const RoofSet& roofs, const ComputeRoof& chosen) {
  std::string named, why;
  size_t count = 0;
  for (const auto& p : points) {
    const std::string unit = stated_work_unit(p);
    const std::string mismatch = roofs.work_mismatch(chosen, unit);
    if (mismatch.empty()) continue;
    if (why.empty()) why = mismatch;
    if (++count <= 3)
      named += (named.empty() ? "'" : ", '") + p.name + "' (" + p.precision + ", " + unit + ")";
  }
  if (count == 0) return;
  if (count > 3) named += " and " + std::to_string(count - 3) + " more";
  throw InputError("--precision " + precision + ": the counters of " +
                   (count == 1 ? "point " : std::to_string(count) + " points, ") + named +
                   ", count other work than the roof: " + why +
                   "; name a roof that counts their work, or leave --precision out");
}

/// --precision names the roof every point is judged against, in place of the precision its
/// counters gave (an import's points always have one): a value the machine has no roof for
/// is refused, naming its roofs, before anything is written.
void choose_precision(ImportResult& res, const RoofSet& roofs, const std::string& precision) {
  const ComputeRoof& chosen = roofs.select_compute(precision);
  std::set<std::string> own;  // the precisions that would have judged a point elsewhere
  for (const auto& p : res.doc.points) {
    if (p.precision.empty() || p.precision == chosen.name) continue;
    const ComputeRoof* theirs = nullptr;
    try {
      theirs = &roofs.select_compute(p.precision);
    } catch (const InputError&) {  // no roof of its own: --precision gives it one
    }
    if (theirs != &chosen) own.insert(p.precision);
  }
  if (!own.empty())
    res.notes.push_back("judged against roof '" + chosen.name + "' (--precision " + precision +
                        ") in place of the precision" + (own.size() > 1 ? "s " : " ") +
                        join({own.begin(), own.end()}) + " the counters give");
  refuse_other_work(precision, res.doc.points, roofs, chosen);
}

}  // namespace

void require_import_points(const ImportResult& res, const std::string& origin) {
  if (!res.doc.points.empty()) return;
  std::string why;
  for (std::size_t i = 0; i < res.notes.size() && i < 5; ++i) why += "\n  " + res.notes[i];
  if (res.notes.size() > 5) why += "\n  ... (" + std::to_string(res.notes.size() - 5) + " more)";
  throw InputError(origin + ": no point could be made from it" +
                   (why.empty() ? std::string() : ":" + why));
}

JudgedPoints judge_import(ImportResult& res, const RoofSet* roofs, const std::string& precision) {
  JudgedPoints out{res.doc.points, std::vector<bool>(res.doc.points.size(), roofs != nullptr)};
  if (!roofs) return out;
  std::vector<std::pair<std::string, std::string>> point_notes;
  std::vector<std::string> notes;
  if (!precision.empty()) choose_precision(res, *roofs, precision);
  for (std::size_t i = 0; i < res.doc.points.size(); ++i) {
    Point& p = out.fitted[i];
    notes.clear();
    auto fitted = fit_levels(p.traffic, roofs, notes, p.name);
    if (!precision.empty()) {
      p.work_unit = stated_work_unit(p);  // the counters' unit stays with W
      p.precision = precision;
    }
    if (fitted.empty()) {
      // No level the machine has a roof for: the point keeps its traffic, not judged.
      out.judged[i] = false;
    } else {
      p.traffic = std::move(fitted);
      out.judged[i] = fit_precision(p, *roofs, notes);
    }
    res.doc.points[i].work_unit = p.work_unit;
    res.doc.points[i].precision = p.precision;
    for (const auto& n : notes)
      point_notes.emplace_back(p.name,
                               n.rfind(p.name + ": ", 0) == 0 ? n.substr(p.name.size() + 2) : n);
  }
  const auto g = grouped_notes(point_notes);
  res.notes.insert(res.notes.end(), g.begin(), g.end());
  res.doc.machine = roofs->name;
  return out;
}

std::string import_json_text(const ImportResult& res, const std::string& tool,
                             const std::vector<std::string>& files, const RoofSet* roofs,
                             const JudgedPoints& fit) {
  PointsDocument head_doc = res.doc;
  head_doc.points.clear();
  nlohmann::json head = points_to_json(head_doc);
  head.erase("points");
  head["source"] = tool;
  head["file"] = files.front();
  if (files.size() > 1) head["files"] = files;
  head["notes"] = res.notes;
  const auto& pts = res.doc.points;
  std::vector<std::pair<std::string, JsonElement>> arrays;
  arrays.emplace_back("points", [&](std::size_t i, nlohmann::json& e) {
    if (i >= pts.size()) return false;
    e = point_to_json(pts[i]);
    return true;
  });
  if (roofs)
    arrays.emplace_back("analysis", [&](std::size_t i, nlohmann::json& e) {
      if (i >= pts.size()) return false;
      if (fit.judged[i]) {
        e = analysis_to_json(fit.fitted[i], diagnose(fit.fitted[i], *roofs), *roofs);
      } else {
        e = point_to_json(pts[i]);
        e["machine"] = roofs->name;
        e["diagnosis"] = nullptr;  // no roof for its precision: see the notes
      }
      return true;
    });
  const std::string text = json_text_with_arrays(head, arrays);
  // Nothing written here is refused later (docs/architecture.md): the readers take a points
  // document up to kMaxPointsBytes.
  if (text.size() > kMaxPointsBytes)
    throw InputError(join(files) + ": the points document would be " +
                     format_bytes(Bytes(static_cast<double>(text.size()))) + ", above the " +
                     exact_binary_size_text(kMaxPointsBytes) +
                     " a points document may hold: import fewer kernels (ncu --kernel-name, "
                     "--launch-count) or fewer files at once");
  return text;
}

}  // namespace roofline
