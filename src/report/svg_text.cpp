#include "report/svg_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "report/chart.hpp"

namespace roofline::report {

std::string svg_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s(buf);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string svg_exact(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string svg_attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml_escape(value) + "\"";
}

std::string svg_attr(const std::string& name, double value) {
  return " " + name + "=\"" + svg_num(value) + "\"";
}

std::string svg_text(double x, double y, const std::string& s, const std::string& cls,
                     const std::string& anchor, const std::string& extra) {
  return "<text" + svg_attr("x", x) + svg_attr("y", y) + svg_attr("class", cls) +
         (anchor == "start" ? std::string() : svg_attr("text-anchor", anchor)) + extra + ">" +
         xml_escape(s) + "</text>\n";
}

double text_width(const std::string& s, double font) {
  return static_cast<double>(text_columns(s)) * font * 0.58;
}

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

const char* const kAxesStyleLight = R"(
.bg{fill:#ffffff}
text{fill:#1f2328;font-family:"DejaVu Sans","Helvetica Neue",Helvetica,Arial,sans-serif}
.title{font-size:17px;font-weight:600}
.subtitle{font-size:12px;fill:#57606a}
.tick{font-size:11.5px;fill:#3d444d}
.axis-title{font-size:13.5px;font-weight:600}
.frame{fill:none;stroke:#3d444d;stroke-width:1}
.tick-mark{stroke:#3d444d;stroke-width:1}
.grid-major{stroke:#d0d7de;stroke-width:.8}
.grid-minor{stroke:#eef1f4;stroke-width:.6}
.legend-text{font-size:11.5px}
)";
const char* const kAxesStyleDark = R"(
@media (prefers-color-scheme: dark){
.bg{fill:#0d1117}
text{fill:#e6edf3}
.subtitle{fill:#9ea7b3}
.tick{fill:#c9d1d9}
.frame,.tick-mark{stroke:#8b949e}
.grid-major{stroke:#30363d}
.grid-minor{stroke:#1c2128}
}
)";

}  // namespace roofline::report
