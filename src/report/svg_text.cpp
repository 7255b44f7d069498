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

}  // namespace roofline::report
