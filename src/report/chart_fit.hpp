#pragma once
// Text a chart fits to its canvas, measured by a `fits` test of the whole text (svg_text's
// text_width against the room): the lines that say the chart's warnings, roof labels cut
// between characters with their figure kept, and the subtitle shortened part by part.
// Texts are returned as given (cut, never escaped): the caller escapes them as every label.
#include <functional>
#include <string>
#include <vector>

namespace roofline::report {

using FitsTest = std::function<bool(const std::string&)>;

/// The lines a chart draws for its warnings (ReportInput::warnings): each "warning: TEXT", broken
/// between words into lines `fits` takes, each warning on lines of its own; at most `max_lines`
/// in all. Where they need more, the last line drawn ends "…" where it is cut, and says
/// "(+N more)" for the warnings not begun. A word wider than a line is cut between characters.
/// Empty without warnings.
std::vector<std::string> warning_lines(const std::vector<std::string>& warnings,
                                       const FitsTest& fits, size_t max_lines);

/// `s` cut between characters to the most that `fits(prefix + s + "…" + suffix)` takes, spaces
/// before the cut dropped: the cut text with its ellipsis ("…" alone when nothing of it fits).
/// The cut is found by halving (a few dozen measurements for any length).
std::string cut_to_fit(std::string s, const std::string& prefix, const std::string& suffix,
                       const FitsTest& fits);

/// A label "NAME TAIL" (TAIL the figure with its unit, " 7.373 TFLOP/s", and any mark after it)
/// that `fits` takes: whole where it fits, else NAME cut between characters with "…" before
/// TAIL; TAIL alone cut likewise where not even "… TAIL" fits.
std::string fit_label(const std::string& name, const std::string& tail, const FitsTest& fits);

/// A chart's title within `fits`: whole where it fits, else cut between characters with "…"
/// (the SVG's <title> keeps it whole). The cut is found by halving, so a title of any length
/// costs a few dozen measurements.
std::string fit_title(const std::string& title, const FitsTest& fits);

/// One part of a subtitle: its text (" · ridge I* = 9.564 FLOP/byte"), how it may be
/// shortened, and in which order parts give way (lower `keep` first).
struct SubtitlePart {
  std::string text;
  /// A shorter form tried before the part is cut or dropped ("" none): " · compared with 2
  /// machines" for the machines' names.
  std::string shorter;
  int keep = 0;
  /// Cut between characters with "…" (a name), rather than dropped whole (a figure with its
  /// unit, a count: never cut inside).
  bool cuttable = false;
};
/// The parts joined, within `fits`: while too long, the part of lowest `keep` is shortened, then
/// cut (cuttable: down to its first 12 characters and "…") or dropped; a part dropped leaves
/// " · …" where it was, once for a run of them, so the line says that something was cut only
/// when something was. The part of highest `keep` is cut as a last resort.
std::string fit_subtitle(std::vector<SubtitlePart> parts, const FitsTest& fits);

}  // namespace roofline::report
