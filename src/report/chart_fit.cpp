#include "report/chart_fit.hpp"

#include <algorithm>
#include <numeric>

#include "report/chart.hpp"
#include "roofline/utf8.hpp"

namespace roofline::report {

namespace {

/// `s` cut between characters until `fits(prefix + s + "…" + suffix)`: the cut text with its
/// ellipsis ("…" alone when nothing of it fits).
std::string cut_to_fit(std::string s, const std::string& prefix, const std::string& suffix,
                       const FitsTest& fits) {
  while (!s.empty() && !fits(prefix + s + "…" + suffix)) drop_last_code_point(s);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s + "…";
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find(' ', at);
    const std::string w = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!w.empty()) out.push_back(w);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

/// One warning broken between words into lines `fits` takes (a word too wide cut).
std::vector<std::string> wrapped(const std::string& text, const FitsTest& fits) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& w : words_of(text)) {
    const std::string longer = line.empty() ? w : line + " " + w;
    if (fits(longer)) {
      line = longer;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line = fits(w) ? w : cut_to_fit(w, "", "", fits);
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::vector<std::string> warning_lines(const std::vector<std::string>& warnings,
                                       const FitsTest& fits, size_t max_lines) {
  std::vector<std::string> out;
  if (max_lines == 0) return out;
  for (size_t k = 0; k < warnings.size(); ++k) {
    const std::vector<std::string> lines = wrapped("warning: " + warnings[k], fits);
    for (size_t l = 0; l < lines.size(); ++l) {
      const bool last_of_all = k + 1 == warnings.size() && l + 1 == lines.size();
      if (out.size() + 1 < max_lines || last_of_all) {
        out.push_back(lines[l]);
        continue;
      }
      // The last line there is room for: what is left of this warning cut, and the count of
      // the warnings not begun.
      const size_t rest = warnings.size() - k - 1;
      const std::string more = rest == 0 ? "" : " (+" + std::to_string(rest) + " more)";
      std::string text = lines[l];
      for (size_t m = l + 1; m < lines.size(); ++m) text += " " + lines[m];
      if (fits(text + more)) {
        out.push_back(text + more);
      } else {
        out.push_back(cut_to_fit(text, "", more, fits) + more);
      }
      return out;
    }
  }
  return out;
}

std::string fit_label(const std::string& name, const std::string& tail, const FitsTest& fits) {
  if (fits(name + tail)) return name + tail;
  if (const std::string cut = cut_to_fit(name, "", tail, fits); cut != "…") return cut + tail;
  // Not even the figure with an ellipsis before it: the figure itself cut.
  std::string t = tail;
  while (!t.empty() && t.front() == ' ') t.erase(0, 1);
  return cut_to_fit(t, "", "", fits);
}

std::string fit_title(const std::string& title, const FitsTest& fits) {
  if (fits(title)) return title;
  // The longest start that fits with "…" after it: a longer start is never narrower.
  size_t lo = 0, hi = title.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (fits(cut_at_code_point(title, mid) + "…"))
      lo = mid;
    else
      hi = mid - 1;
  }
  return cut_to_fit(cut_at_code_point(title, lo), "", "", fits);
}

std::string fit_subtitle(std::vector<SubtitlePart> parts, const FitsTest& fits) {
  std::vector<bool> dropped(parts.size(), false);
  const auto joined = [&] {
    std::string s;
    bool gap = false;  // a run of dropped parts says " · …" once
    for (size_t k = 0; k < parts.size(); ++k) {
      if (dropped[k]) {
        if (!gap) s += " · …";
        gap = true;
        continue;
      }
      gap = false;
      s += parts[k].text;
    }
    return s;
  };
  // Part k cut between characters, down to `least` characters of its own, until the line fits.
  const auto cut_part = [&](size_t k, size_t least) {
    const std::string whole = parts[k].text;
    std::string cut = whole;
    while (text_columns(cut) > least) {
      drop_last_code_point(cut);
      std::string shown = cut;
      while (!shown.empty() && shown.back() == ' ') shown.pop_back();
      parts[k].text = shown + "…";
      if (fits(joined())) return true;
    }
    parts[k].text = whole;
    return false;
  };
  if (fits(joined())) return joined();
  std::vector<size_t> order(parts.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return parts[a].keep < parts[b].keep; });
  // First the shorter forms, least important part first; then cut or drop, in the same order.
  for (size_t k : order) {
    if (parts[k].shorter.empty()) continue;
    parts[k].text = parts[k].shorter;
    if (fits(joined())) return joined();
  }
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    const size_t k = order[i];
    // A name keeps at least 12 characters of its own where it is cut, else it gives way whole.
    if (parts[k].cuttable && cut_part(k, 12)) return joined();
    dropped[k] = true;
    if (fits(joined())) return joined();
  }
  // The most important part itself, cut.
  cut_part(order.back(), 0);
  return joined();
}

}  // namespace roofline::report
