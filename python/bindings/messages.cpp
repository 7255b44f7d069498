// The library's messages as Python says them: the library names its inputs by the CLI's flags
// ("--tp 3: must divide num_attention_heads"), which a Python caller never typed. Every error
// the bindings raise passes through python_message (module.cpp's exception translator), so a
// flag the package takes as a parameter is named as that parameter ("tp 3: must divide ...").
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <string>

#include "common.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline::python {

namespace {

/// A CLI flag and the Python parameter that takes the same value. Only flags whose value a
/// Python function takes are here; any other flag stays as it is.
const std::map<std::string, std::string>& flag_parameters() {
  static const std::map<std::string, std::string> names = {
      // roofline llm: the scenario keywords of the LLM functions, and their own parameters.
      {"tp", "tp"},
      {"pp", "pp"},
      {"cp", "cp"},
      {"ep", "ep"},
      {"micro-batches", "micro_batches"},
      {"link-latency", "link_latency_s"},
      {"interconnect-bandwidth", "interconnect_byte_per_s"},
      {"domain-size", "domain_size"},
      {"attainment", "attainment"},
      {"calibrate", "calibrate"},
      {"mla", "mla"},
      {"attention", "flash"},
      {"flash", "flash"},
      {"wdtype", "weights"},
      {"adtype", "activations"},
      {"kvdtype", "kv_cache"},
      {"cdtype", "compute"},
      {"batch", "batch"},
      {"context", "context"},
      {"prompt", "prompt"},
      {"output-tokens", "output_tokens"},
      {"chunk", "chunk"},
      {"concurrency", "concurrency"},
      {"requests", "requests"},
      {"max-batched-tokens", "max_batched_tokens"},
      {"num-requests", "total_requests"},
      {"spec-k", "k"},
      {"spec-alpha", "alpha"},
      {"draft", "draft"},
      {"draft-tp", "draft_tp"},
      {"train", "llm.train()"},
      {"dp", "dp"},
      {"global-batch", "global_batch"},
      {"micro-batch", "micro_batch"},
      {"seq", "sequence"},
      {"zero", "zero"},
      {"recompute", "recompute"},
      {"sequence-parallel", "sequence_parallel"},
      {"measured-tokens-per-s", "measured_tokens_per_s"},
      {"measured-step-s", "measured_step_s"},
      {"price-per-hour", "price_per_hour"},
      {"power-w", "power_w"},
      {"phase", "phase"},
      // roofline measure: Machine.measure.
      {"threads", "threads"},
      {"precisions", "precisions"},
      {"levels", "levels"},
      {"no-curve", "curve=False"},
      // The roofs and what is judged on them: diagnose, check, compare, energy, Chart.
      {"hw", "machine"},
      {"machine", "machine"},
      {"peak", "peak_flop_per_s"},
      {"bandwidth", "bandwidth_byte_per_s"},
      {"precision", "precision"},
      {"level", "level"},
      {"min-attainment", "min_attainment"},
      {"noise", "noise"},
      {"baseline", "baseline"},
      {"config", "config"},
      {"eps-flop", "eps_flop"},
      {"eps-mem", "eps_mem"},
      {"pi0", "pi0"},
      {"intensity", "intensities"},
      {"touching", "touching"},
      {"width", "columns"},
      // The hardware catalogue's folder: Machine, Machine.from_catalogue, catalogue.
      {"hw-dir", "hw_dir"},
  };
  return names;
}

/// The flags whose value the CLI reads as a quantity with a unit ("3 us") where Python takes a
/// plain number in SI base units: a hint's example value is given as Python's number.
const std::map<std::string, Dimension>& flag_dimensions() {
  static const std::map<std::string, Dimension> dims = {
      {"link-latency", Dimension::seconds}, {"interconnect-bandwidth", Dimension::byte_rate},
      {"peak", Dimension::work_rate},       {"bandwidth", Dimension::byte_rate},
      {"power-w", Dimension::power},
  };
  return dims;
}

bool flag_char(char c) {
  return std::islower(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '-';
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;  // UTF-8 text: part of a word
}

/// A number as Python writes it in a hint: "3e-06" as 3e-6, 1e+11 as 1e11.
std::string python_number(double v) {
  std::string out = printf_g(v, 6);
  const auto e = out.find('e');
  if (e == std::string::npos) return out;
  std::string mantissa = out.substr(0, e), exponent = out.substr(e + 1);
  const bool negative = exponent.front() == '-';
  exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return mantissa + "e" + (negative ? "-" : "") + exponent;
}

/// Where a flag ends at `i` (its first character after "--"), or npos when the text there is
/// no flag: a flag runs to a character that is no part of a flag and cannot continue a name
/// or a path ("--hw.json", "--x/y" and "--a_b" are no flags).
std::size_t flag_end(const std::string& m, std::size_t i) {
  std::size_t end = i;
  while (end < m.size() && flag_char(m[end])) ++end;
  if (end == i || m[end - 1] == '-') return std::string::npos;
  if (end == m.size()) return end;
  const char next = m[end];
  if (next == '/' || next == '\\' || next == '_' || std::isupper(static_cast<unsigned char>(next)))
    return std::string::npos;
  if (next == '.' && end + 1 < m.size() && m[end + 1] != ' ') return std::string::npos;
  return end;
}

/// What follows a translated flag, in Python's form: a quantity example (`, e.g. "3 us"`) as
/// the number in SI base units Python takes (`, e.g. 3e-6`); a metavariable (`--domain-size N`)
/// as a keyword (`domain_size=N`), and so a number in a hint (after "give" or "e.g."). Returns
/// how many characters of `m` from `end` it consumed, and appends its text to `out`.
std::size_t python_value(const std::string& m, std::size_t end, const std::string& flag, bool hint,
                         std::string& out) {
  static const std::string kExample = ", e.g. \"";
  const auto dim = flag_dimensions().find(flag);
  if (dim != flag_dimensions().end() && m.compare(end, kExample.size(), kExample) == 0) {
    const std::size_t close = m.find('"', end + kExample.size());
    if (close != std::string::npos) {
      try {
        const double v = parse_quantity(
            m.substr(end + kExample.size(), close - end - kExample.size()), dim->second);
        out += ", e.g. " + python_number(v);
        return close + 1 - end;
      } catch (const Error&) {
        // Not a quantity after all: the text stays as it is.
      }
    }
  }
  if (end < m.size() && m[end] == ' ') {
    std::size_t v = end + 1;
    while (v < m.size() && (word_char(m[v]) || m[v] == '.')) ++v;
    if (v > end + 1 && m[v - 1] == '.') --v;  // a sentence's full stop
    // A metavariable (N, FILE) or a number; a word ("give --eps-flop and ...") is no value.
    const std::string value = m.substr(end + 1, v - end - 1);
    const bool metavariable = !value.empty() && std::all_of(value.begin(), value.end(), [](char x) {
      return std::isupper(static_cast<unsigned char>(x)) || x == '_';
    });
    // A number only in a hint ("e.g. --draft-tp 1"): "--tp 3: must divide" says the value given.
    if (metavariable ||
        (hint && !value.empty() && std::isdigit(static_cast<unsigned char>(value[0])))) {
      out += "=" + value;
      return v - end;
    }
  }
  return 0;
}

/// Whether the quote character at `i` opens a quoted span: after a character that is no part
/// of a word ("point 'x'", not "the target's").
bool opens_quote(const std::string& m, std::size_t i) {
  return i == 0 || !word_char(m[i - 1]);
}

/// Whether the quote character at `i` closes a span: before a character that is no part of a
/// word, or at the end.
bool closes_quote(const std::string& m, std::size_t i) {
  return i + 1 == m.size() || !word_char(m[i + 1]);
}

}  // namespace

std::string python_message(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  char quote = 0;  // the quote of the span the text is in: nothing in it is translated
  for (std::size_t i = 0; i < message.size();) {
    const char c = message[i];
    if (quote != 0) {
      if (c == quote && closes_quote(message, i)) quote = 0;
      out += message[i++];
      continue;
    }
    if ((c == '\'' || c == '"') && opens_quote(message, i) &&
        message.find(c, i + 1) != std::string::npos) {
      quote = c;
      out += message[i++];
      continue;
    }
    // A flag: "--" at the start or after a space or punctuation that opens or separates, never
    // after a '/' (a path's name) or a part of a word.
    const bool starts = c == '-' && message.compare(i, 2, "--") == 0 &&
                        (i == 0 || std::string(" ([,;").find(message[i - 1]) != std::string::npos);
    const std::size_t end = starts ? flag_end(message, i + 2) : std::string::npos;
    if (end != std::string::npos) {
      const std::string flag = message.substr(i + 2, end - i - 2);
      const auto found = flag_parameters().find(flag);
      if (found != flag_parameters().end()) {
        const bool hint = out.ends_with("give ") || out.ends_with("e.g. ");
        out += found->second;
        i = end + python_value(message, end, flag, hint, out);
        continue;
      }
    }
    out += message[i++];
  }
  return out;
}

}  // namespace roofline::python
