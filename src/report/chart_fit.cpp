#include "report/chart_fit.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

#include "report/chart.hpp"

namespace roofline::report {

namespace {

/// The byte length of the first j characters (code points) of `s`, for j = 0 … their count.
std::vector<size_t> code_point_ends(const std::string& s) {
  std::vector<size_t> ends{0};
  for (size_t i = 0; i < s.size(); ++i)
    if (i + 1 == s.size() || (static_cast<unsigned char>(s[i + 1]) & 0xC0) != 0x80)
      ends.push_back(i + 1);
  return ends;
}

/// The largest j in [lo, hi] for which `ok(j)` holds, where it holds up to some j and for none
/// after (a text's width grows with its characters); none when not even `ok(lo)`. By bisection:
/// a cut of a long text measures it log₂ n times, not once per character dropped.
std::optional<size_t> longest(size_t lo, size_t hi, const std::function<bool(size_t)>& ok) {
  if (lo > hi || !ok(lo)) return std::nullopt;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (ok(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
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

/// One warning broken between words into lines `fits` takes (a word too wide cut), its first
/// `most` lines: fewer only where the warning ends, so a long warning is not wrapped past what
/// is drawn.
std::vector<std::string> wrapped(const std::string& text, const FitsTest& fits, size_t most) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& w : words_of(text)) {
    if (lines.size() >= most) return lines;
    const std::string longer = line.empty() ? w : line + " " + w;
    if (fits(longer)) {
      line = longer;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line = fits(w) ? w : cut_to_fit(w, "", "", fits);
  }
  if (!line.empty() && lines.size() < most) lines.push_back(line);
  return lines;
}

}  // namespace

std::string cut_to_fit(std::string s, const std::string& prefix, const std::string& suffix,
                       const FitsTest& fits) {
  const std::vector<size_t> ends = code_point_ends(s);
  const auto kept = longest(1, ends.size() - 1, [&](size_t j) {
    return fits(prefix + s.substr(0, ends[j]) + "…" + suffix);
  });
  s.resize(kept ? ends[*kept] : 0);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s + "…";
}

std::vector<std::string> warning_lines(const std::vector<std::string>& warnings,
                                       const FitsTest& fits, size_t max_lines) {
  std::vector<std::string> out;
  if (max_lines == 0) return out;
  for (size_t k = 0; k < warnings.size(); ++k) {
    // Up to the line that is cut and the one after it, which is enough to cut it: that line
    // and the first word of the next do not fit together, so no cut reaches further.
    const std::vector<std::string> lines =
        wrapped("warning: " + warnings[k], fits, max_lines - out.size() + 1);
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
      if (l + 1 < lines.size()) text += " " + lines[l + 1];
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
  // The longest start that fits with "…" after it (cut_to_fit bisects: a title of any length
  // costs a few dozen measurements).
  return fits(title) ? title : cut_to_fit(title, "", "", fits);
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
  // The most characters that fit are found by bisection (longest).
  const auto cut_part = [&](size_t k, size_t least) {
    const std::string whole = parts[k].text;
    const std::vector<size_t> ends = code_point_ends(whole);
    const auto cut_at = [&](size_t j) {
      std::string shown = whole.substr(0, ends[j]);
      while (!shown.empty() && shown.back() == ' ') shown.pop_back();
      parts[k].text = shown + "…";
    };
    const size_t all = ends.size() - 1;
    const auto kept = all == 0 ? std::nullopt : longest(least, all - 1, [&](size_t j) {
      cut_at(j);
      return fits(joined());
    });
    if (kept) {
      cut_at(*kept);
      return true;
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
