#include "report/svg_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "report/chart.hpp"
#include "roofline/error.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::report {

std::string svg_num(double v) {
  std::string s = printf_f(v, 2);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string svg_exact(double v) {
  return printf_g(v, 9);
}

std::string svg_attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml_text(value) + "\"";
}

std::string svg_attr(const std::string& name, double value) {
  return " " + name + "=\"" + svg_num(value) + "\"";
}

std::string svg_text(double x, double y, const std::string& s, const std::string& cls,
                     const std::string& anchor, const std::string& extra) {
  return "<text" + svg_attr("x", x) + svg_attr("y", y) + svg_attr("class", cls) +
         (anchor == "start" ? std::string() : svg_attr("text-anchor", anchor)) + extra + ">" +
         xml_text(s) + "</text>\n";
}

namespace {
// Advance widths of the printable ASCII characters (U+0020..U+007E) in DejaVu Sans and DejaVu
// Sans Bold, in 1/1000 em, read from the fonts' hmtx tables (DejaVu fonts 2.37, Debian
// fonts-dejavu-core). DejaVu Sans is the first family the charts ask for and the widest of the
// fallbacks (Helvetica, Arial), so a box measured with it holds the text in any of them.
constexpr short kRegular[95] = {
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361,  318, 337, 636, 636, 636,
    636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632,
    575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635,  611, 732, 684, 989, 685,
    611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352,  635, 634, 278, 278, 579,
    278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592,  525, 636, 337, 636, 838};
constexpr short kBold[95] = {
    348,  456, 521, 838, 696, 1002, 872, 306,  457, 457, 523, 838, 380, 415,  380, 365,
    696,  696, 696, 696, 696, 696,  696, 696,  696, 696, 400, 400, 838, 838,  838, 580,
    1000, 774, 762, 734, 830, 683,  683, 821,  837, 372, 372, 775, 637, 995,  837, 850,
    733,  850, 770, 720, 682, 812,  774, 1103, 771, 724, 725, 457, 365, 457,  838, 500,
    500,  675, 716, 593, 716, 678,  435, 716,  712, 343, 343, 665, 343, 1042, 712, 687,
    716,  716, 493, 595, 478, 712,  652, 924,  645, 652, 582, 712, 365, 712,  838};

/// Width of one code point outside ASCII, same source: the middle dot and en dash are narrow,
/// the ellipsis 1 em, and the mathematical signs the charts use (× ≈ ± → ≤) 0.838 em.
double other_width(unsigned cp, bool bold) {
  if (cp == 0x00B7) return bold ? 0.380 : 0.318;  // ·
  if (cp == 0x2013) return 0.5;                   // –
  if (cp == 0x2026) return 1.0;                   // …
  if (cp == 0x00B2 || cp == 0x00B3) return bold ? 0.438 : 0.401;
  if (cp == 0x00B5) return bold ? 0.736 : 0.636;  // µ
  return 0.838;
}
}  // namespace

double text_width(const std::string& raw, double font, bool bold) {
  // Measured as drawn: svg_text shows control and bidirectional characters escaped ("\u0001"
  // is six characters wide, not none), so a name full of them is sized on what is shown.
  const std::string s = terminal_safe_lines(raw);
  double em = 0;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    unsigned cp = b;
    size_t len = 1;
    if (b >= 0xF0)
      cp = b & 0x07u, len = 4;
    else if (b >= 0xE0)
      cp = b & 0x0Fu, len = 3;
    else if (b >= 0xC0)
      cp = b & 0x1Fu, len = 2;
    for (size_t k = 1; k < len && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    i += len;
    if (cp >= 0x20 && cp < 0x7F)
      em += (bold ? kBold : kRegular)[cp - 0x20] / 1000.0;
    else if (cp >= 0x80)
      em += other_width(cp, bold);
  }
  return em * font;
}

void unknown_chart_format(const std::filesystem::path& path, const std::string& ext,
                          const std::string& chart, const std::string& known) {
  if (ext.empty())
    throw InputError(path.string() + ": no extension to tell the format" + chart + " (use " +
                     known + ")");
  throw InputError(path.string() + ": unknown format '" + ext + "'" + chart + " (use " + known +
                   ")");
}

std::string lower_extension(const std::filesystem::path& path) {
  std::error_code ec;
  if ((!path.empty() && path.string().back() == '/') || std::filesystem::is_directory(path, ec))
    throw InputError(path.string() + ": is a directory (give a file name: chart.svg)");
  return lower(path.extension().string());
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
