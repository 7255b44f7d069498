// Reading the flopcount runtime's documents (tools/flopcount/runtime/flopcount_rt.c writes them
// at program exit): counts per function and region (mode "count"), samples (mode "time").
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "roofline/error.hpp"
#include "roofline/instrument.hpp"
#include "roofline/io.hpp"

namespace roofline::instrument {
namespace fs = std::filesystem;
using nlohmann::json;

double total(const std::vector<OpCount>& ops, const std::string& kind) {
  double s = 0;
  for (const auto& o : ops)
    if (o.kind == kind) s += o.count;
  return s;
}

std::map<std::string, double> by_precision(const std::vector<OpCount>& ops) {
  std::map<std::string, double> m;
  for (const auto& o : ops)
    if (o.kind == "flops") m[o.precision] += o.count;
  return m;
}

std::string dominant_precision(const std::vector<OpCount>& ops) {
  const double w = total(ops);
  if (!(w > 0)) return "";
  for (const auto& [p, f] : by_precision(ops))
    if (f >= 0.9 * w) return p;
  return "";
}

namespace {

json parse_document(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(origin + ": not a flopcount document (" + e.what() + ")");
  }
  if (!j.is_object() || j.value("schema", "") != "roofline.flopcount")
    throw InputError(origin + ": schema: expected 'roofline.flopcount'");
  if (j.value("version", 0) != 1)
    throw InputError(origin + ": version: expected 1 (got " + j["version"].dump() + ")");
  return j;
}

double number(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) return 0;
  if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
    throw InputError(where + ": " + key + ": expected a count (got " + it->dump() + ")");
  return it->get<double>();
}

std::string text(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end()) return "";
  if (!it->is_string())
    throw InputError(where + ": " + key + ": expected text (got " + it->dump() + ")");
  return it->get<std::string>();
}

std::vector<OpCount> ops_of(const json& j, const std::string& where) {
  std::vector<OpCount> ops;
  const auto it = j.find("ops");
  if (it == j.end()) return ops;
  if (!it->is_array()) throw InputError(where + ": ops: expected an array");
  for (size_t i = 0; i < it->size(); ++i) {
    const json& o = (*it)[i];
    const std::string w = where + ".ops[" + std::to_string(i) + "]";
    if (!o.is_object()) throw InputError(w + ": expected an object");
    OpCount c;
    c.kind = text(o, "kind", w);
    c.precision = text(o, "precision", w);
    c.width = static_cast<int>(number(o, "width", w));
    c.masked = o.value("masked", false);
    c.count = number(o, "count", w);
    ops.push_back(c);
  }
  return ops;
}

/// Adds `more` into `into`, merging equal (kind, precision, width, masked).
void merge_ops(std::vector<OpCount>& into, const std::vector<OpCount>& more) {
  for (const auto& m : more) {
    auto it = std::find_if(into.begin(), into.end(), [&](const OpCount& o) {
      return o.kind == m.kind && o.precision == m.precision && o.width == m.width &&
             o.masked == m.masked;
    });
    if (it == into.end())
      into.push_back(m);
    else
      it->count += m.count;
  }
}

void merge(CountResult& into, const CountResult& more) {
  for (const auto& f : more.functions) {
    auto it = std::find_if(into.functions.begin(), into.functions.end(),
                           [&](const FunctionCount& g) { return g.name == f.name; });
    if (it == into.functions.end()) {
      into.functions.push_back(f);
    } else {
      it->calls += f.calls;
      merge_ops(it->ops, f.ops);
      if (it->file.empty()) it->file = f.file;
    }
  }
  for (const auto& r : more.regions) {
    auto it = std::find_if(into.regions.begin(), into.regions.end(),
                           [&](const RegionCount& g) { return g.name == r.name; });
    if (it == into.regions.end()) {
      into.regions.push_back(r);
    } else {
      it->calls += r.calls;
      merge_ops(it->ops, r.ops);
    }
  }
  into.processes += more.processes;
  into.dropped += more.dropped;
}

std::vector<fs::path> result_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("flopcount-", 0) == 0 && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

CountResult parse_count_results(const std::string& text_in, const std::string& origin) {
  const json j = parse_document(text_in, origin);
  if (j.value("mode", "") != "count")
    throw InputError(origin + ": mode: expected 'count' (got " + j["mode"].dump() + ")");
  CountResult r;
  r.processes = 1;
  r.dropped = number(j, "dropped", origin);
  CountResult one;
  if (j.contains("functions")) {
    if (!j["functions"].is_array()) throw InputError(origin + ": functions: expected an array");
    for (size_t i = 0; i < j["functions"].size(); ++i) {
      const json& f = j["functions"][i];
      const std::string w = origin + ": functions[" + std::to_string(i) + "]";
      if (!f.is_object()) throw InputError(w + ": expected an object");
      FunctionCount c;
      c.name = text(f, "name", w);
      if (c.name.empty()) throw InputError(w + ": name: missing");
      c.file = text(f, "file", w);
      c.line = static_cast<int>(number(f, "line", w));
      c.calls = number(f, "calls", w);
      c.skipped = text(f, "skipped", w);
      c.static_flops = number(f, "static_flops", w);
      c.ops = ops_of(f, w);
      one.functions.push_back(c);
    }
  }
  if (j.contains("regions")) {
    if (!j["regions"].is_array()) throw InputError(origin + ": regions: expected an array");
    for (size_t i = 0; i < j["regions"].size(); ++i) {
      const json& g = j["regions"][i];
      const std::string w = origin + ": regions[" + std::to_string(i) + "]";
      if (!g.is_object()) throw InputError(w + ": expected an object");
      RegionCount c;
      c.name = text(g, "name", w);
      c.calls = number(g, "calls", w);
      c.ops = ops_of(g, w);
      one.regions.push_back(c);
    }
  }
  // Functions of the same name in several modules (inline functions, static functions of the
  // same name) are merged.
  merge(r, one);
  r.processes = 1;
  return r;
}

CountResult read_count_results(const fs::path& dir) {
  CountResult all;
  for (const auto& p : result_files(dir)) {
    const std::string t = read_text_file(p, kMaxImportBytes);
    const json j = parse_document(t, p.string());
    if (j.value("mode", "") != "count") continue;
    merge(all, parse_count_results(t, p.string()));
  }
  return all;
}

SampleResult parse_sample_results(const std::string& text_in, const std::string& origin) {
  const json j = parse_document(text_in, origin);
  if (j.value("mode", "") != "time")
    throw InputError(origin + ": mode: expected 'time' (got " + j["mode"].dump() + ")");
  SampleResult r;
  r.sampler = text(j, "sampler", origin);
  r.interval_us = number(j, "interval_us", origin);
  r.cpu_seconds = number(j, "cpu_seconds", origin);
  r.total = static_cast<std::uint64_t>(number(j, "samples_total", origin));
  r.dropped = static_cast<std::uint64_t>(number(j, "samples_dropped", origin));
  r.threads = static_cast<int>(number(j, "threads", origin));
  r.problem = text(j, "sampling_problem", origin);
  if (j.contains("objects") && j["objects"].is_array())
    for (const auto& o : j["objects"]) {
      if (!o.is_object()) throw InputError(origin + ": objects: expected objects");
      r.objects.push_back(
          {text(o, "path", origin), static_cast<std::uint64_t>(number(o, "bias", origin))});
    }
  const int objects = static_cast<int>(r.objects.size());
  if (j.contains("samples") && j["samples"].is_array())
    for (const auto& s : j["samples"]) {
      if (!s.is_array() || s.size() != 4 || !s[0].is_number_integer() ||
          !s[1].is_number_unsigned() || !s[2].is_number_integer() || !s[3].is_number_unsigned())
        throw InputError(origin + ": samples: expected [object, offset, thread, count], got " +
                         s.dump());
      Sample x;
      x.object = s[0].get<int>();
      if (x.object < -1 || x.object >= objects)
        throw InputError(origin + ": samples: object " + std::to_string(x.object) +
                         " is not in objects");
      x.offset = s[1].get<std::uint64_t>();
      x.thread = s[2].get<int>();
      x.count = s[3].get<std::uint64_t>();
      r.samples.push_back(x);
    }
  if (j.contains("functions") && j["functions"].is_array())
    for (const auto& f : j["functions"]) {
      if (!f.is_object()) throw InputError(origin + ": functions: expected objects");
      SampleResult::Function fn;
      fn.name = text(f, "name", origin);
      fn.object = f.value("object", -1);
      fn.offset = static_cast<std::uint64_t>(number(f, "offset", origin));
      r.functions.push_back(fn);
    }
  return r;
}

std::vector<SampleResult> read_sample_results(const fs::path& dir) {
  std::vector<SampleResult> all;
  for (const auto& p : result_files(dir)) {
    const std::string t = read_text_file(p, kMaxImportBytes);
    const json j = parse_document(t, p.string());
    if (j.value("mode", "") != "time") continue;
    all.push_back(parse_sample_results(t, p.string()));
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const SampleResult& a, const SampleResult& b) { return a.total > b.total; });
  return all;
}

}  // namespace roofline::instrument
