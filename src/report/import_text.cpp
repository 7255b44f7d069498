// `roofline import`'s text: the points an import made, each judged against a machine's roofs or
// only listed; and a list of points, each analysed or briefly (`profile`'s points).
#include "roofline/diagnosis.hpp"
#include "roofline/import.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

namespace roofline {

std::string render_import_text(const std::string& tool, const std::vector<std::string>& files,
                               const std::vector<Point>& points,
                               const std::vector<std::string>& notes, const RoofSet* roofs,
                               const JudgedPoints& fit, bool color) {
  std::string t = tool + " import of " + join(files) + ": " + std::to_string(points.size()) +
                  " point" + (points.size() == 1 ? "" : "s") + "\n";
  for (const auto& n : notes) t += "  " + n + "\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    const bool judged = roofs && fit.judged[i];
    t += "\n";
    if (judged)
      t += render_point_analysis(fit.fitted[i], diagnose(fit.fitted[i], *roofs), *roofs, color);
    else
      t += render_point_brief(p) +
           (roofs ? "  not judged: no roof for its precision or level (see notes)\n" : "");
    if (judged && !p.note.empty()) t += "  source: " + p.note + "\n";
  }
  return t;
}

std::string render_points_text(const std::vector<Point>& points, const RoofSet* roofs, bool color) {
  std::string t;
  for (const auto& p : points) {
    t += "\n";
    t += roofs ? render_point_analysis(p, diagnose(p, *roofs), *roofs, color)
               : render_point_brief(p);
  }
  return t;
}

}  // namespace roofline
