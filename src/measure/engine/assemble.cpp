// The one step from measurements to a machine document (engine.hpp): rates from declarations,
// the statistics policy, best mixes, theory beside measurement, judgements as warnings. Pure.
#include <algorithm>
#include <cmath>
#include <set>

#include "measure/engine/sampler.hpp"
#include "roofline/engine.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/statistics.hpp"
#include "roofline/strings.hpp"

#ifndef ROOFLINE_VERSION
#define ROOFLINE_VERSION "unknown"
#endif

namespace roofline::engine {

double work_rate(const Declaration& d, const Sample& s) {
  return d.work_per_iteration * s.iterations / s.seconds;
}

double byte_rate(const Declaration& d, const Sample& s, bool moved) {
  const double per = moved && d.moved_bytes_per_iteration > 0 ? d.moved_bytes_per_iteration
                                                              : d.bytes_per_iteration;
  return per * s.iterations / s.seconds;
}

double rate(const Declaration& d, const Sample& s) {
  return d.work_per_iteration > 0 ? work_rate(d, s) : byte_rate(d, s);
}

std::vector<double> rates(const Declaration& d, const std::vector<Sample>& samples) {
  std::vector<double> out;
  out.reserve(samples.size());
  for (const Sample& s : samples) out.push_back(rate(d, s));
  return out;
}

std::string Theory::formula(const std::string& work_unit) const {
  return std::to_string(units) + " " + unit_name + (units == 1 ? "" : "s") + " × " +
         format_number(clock_hz / 1e9, 4) + " GHz (" + clock_source + ") × " +
         format_number(work_per_cycle_per_unit, 4) + " " + work_unit + "/cycle/" + unit_name +
         (table.empty() ? "" : " (" + table + ")");
}

namespace {
using nlohmann::json;

/// Statistics of samples, checked: every sample positive and finite.
Statistics judged(const Declaration& d, const std::vector<Sample>& samples,
                  const std::string& what) {
  if (samples.empty()) throw InputError(what + ": no samples");
  std::vector<double> r;
  for (const Sample& s : samples) {
    if (!(s.seconds > 0) || !(s.iterations > 0) || !std::isfinite(s.seconds))
      throw InputError(what + ": a sample needs positive iterations and seconds");
    r.push_back(rate(d, s));
    if (!(r.back() > 0) || !std::isfinite(r.back()))
      throw InputError(what + ": a rate must be finite and > 0 (declaration " + d.kernel + ")");
  }
  return summarize_rates(r);
}

std::string samples_text(const Statistics& s, int rounds) {
  return "sustained best of " + std::to_string(s.repetitions) + " samples" +
         (rounds > 0 ? " in " + std::to_string(rounds) + " rounds" : std::string());
}

/// measured/theory at the median clock sample instead of the fastest (0 when the theory has no
/// clock samples, or they do not differ).
double clock_median_ratio(const Theory& t, double ratio) {
  if (!(t.clock_median_hz > 0) || !(t.clock_hz > t.clock_median_hz)) return 0;
  return ratio * t.clock_hz / t.clock_median_hz;
}

/// Theory beside measurement: the theoretical roof and its formula, and the judgement of a
/// ratio outside [kBelowTheoryLimit, kAboveTheoryLimit] (a warning, or the limit that explains
/// it written into the formula).
void judge_against_theory(const ComputeMeasurement& c, const Statistics& st,
                          const std::string& work_unit, ComputeRoof& roof, json& detail,
                          std::vector<std::string>& warnings) {
  const Declaration& d = c.declaration;
  if (c.theory && c.theory->value() > 0) {
    const double theory = c.theory->value();
    roof.theoretical = WorkRate(theory);
    roof.formula = c.theory->formula(work_unit);
    const double ratio = st.sustained / theory;
    detail["ratio"] = ratio;
    detail["theory_source"] = c.theory->source;
    if (!c.theory->limit.empty()) detail["limit"] = c.theory->limit;
    if (ratio > kAboveTheoryLimit) {
      warnings.push_back(roof.name + ": measured " + format_number(ratio, 3) +
                         "× the theoretical peak — a measurement problem (clock or table)");
    } else if (ratio < kBelowTheoryLimit) {
      // The same kernel on one core, against one core's theory: when it reaches the table
      // there, neither the kernel nor the table is what falls short.
      double one_ratio = 0;
      if (!c.one_core.empty() && c.one_core_theory && c.one_core_theory->value() > 0)
        one_ratio =
            judged(d, c.one_core, c.name + " (one core)").sustained / c.one_core_theory->value();
      if (c.other_work && *c.other_work > kOtherWorkLimit) {
        // Other work shared the CPUs: its share, not a limit of the cores or the table (a busy
        // loop on one of two CPUs read as "shared by the cores", 0.5 of the theory).
        detail["below_theory_cause"] = "other work";
        const std::string why = "other work took " + format_number(*c.other_work * 100, 2) +
                                "% of the measured CPUs' time while it ran";
        roof.formula += "; limit: none known — " + why + "; repeat on a quiet machine";
        warnings.push_back(roof.name + ": measured " + format_number(ratio, 3) +
                           " of the theoretical peak while " + why +
                           " (other processes, or other guests of a virtual machine): repeat "
                           "on a quiet machine");
      } else if (!c.theory->limit.empty()) {
        roof.formula += "; limit: " + c.theory->limit;
      } else if (one_ratio >= kBelowTheoryLimit) {
        detail["one_core_ratio"] = one_ratio;
        roof.formula += "; limit: shared by the cores (" + format_number(one_ratio, 3) +
                        " of the theory on one core)";
        warnings.push_back(
            roof.name + ": measured " + format_number(ratio, 3) + " of the theoretical peak on " +
            std::to_string(c.theory->units) + " cores but " + format_number(one_ratio, 3) +
            " on one core: the kernel and the table hold, and the cores share a limit the "
            "table does not model — a power or clock budget (the theory's clock is measured "
            "under integer load), or, on a virtual machine, other guests on the same physical "
            "cores");
      } else if (const double at_median = clock_median_ratio(*c.theory, ratio);
                 at_median >= kBelowTheoryLimit) {
        // The theory is at the fastest clock sample; the kernels ran at the clock of most of
        // them (on a shared host the clock moved 3.59–3.97 GHz between runs): a varying clock,
        // not a slow kernel or a wrong table.
        detail["below_theory_cause"] = "clock";
        const std::string why =
            "the clock varied (fastest sample " + format_number(c.theory->clock_hz / 1e9, 4) +
            " GHz, median " + format_number(c.theory->clock_median_hz / 1e9, 4) +
            " GHz): at the median clock it reads " + format_number(at_median, 3) + " of the theory";
        roof.formula += "; limit: none known — " + why + "; repeat on a quiet machine";
        // Still said: a busy host also reads the clock low, which would hide a slow kernel.
        warnings.push_back(roof.name + ": measured " + format_number(ratio, 3) +
                           " of the theoretical peak, but " + why +
                           " — repeat on a quiet machine before blaming the kernel or the table");
      } else if (st.repetitions >= 3 && (st.noisy || !st.confirmed())) {
        // Disturbed samples cannot tell a slow kernel from a busy machine: say which it may be
        // (with fewer than 3 samples there is no spread to judge: the warning below stands).
        detail["below_theory_cause"] = "noisy";
        roof.formula += "; limit: none known — measured while disturbed (spread " +
                        format_number(100 * st.iqr(), 2) + "%" +
                        (st.confirmed() ? "" : ", fastest samples apart") +
                        "); repeat on a quiet machine before blaming the kernel or the table";
        if (one_ratio > 0) {
          detail["one_core_ratio"] = one_ratio;
          roof.formula += " (one core: " + format_number(one_ratio, 3) + " of its theory)";
        }
      } else {
        warnings.push_back(roof.name + ": measured " + format_number(ratio, 3) +
                           " of the theoretical peak, and the table names no limit for it — "
                           "the kernel or the table (" +
                           c.theory->table + ") is wrong");
      }
    }
  } else {
    roof.formula = c.no_theory.empty() ? "no theoretical entry" : c.no_theory;
  }
}

/// A compute roof from its samples under the statistics policy, judged against its theory;
/// `detail` is its entry of measurement.compute.
ComputeRoof compute_roof(const ComputeMeasurement& c, const std::string& origin, json& detail,
                         std::vector<std::string>& warnings) {
  const Declaration& d = c.declaration;
  const Statistics st = judged(d, c.samples, c.name);
  ComputeRoof roof;
  roof.name = c.name;
  roof.precision = d.precision;
  roof.unit = c.unit;
  roof.integer = d.integer;
  roof.peak = WorkRate(st.sustained);
  roof.provenance = Provenance::measured;
  roof.source = origin + ": " + c.method + ", " + samples_text(st, c.rounds);
  roof.stats = st;
  const std::string work_unit = d.integer ? "OP" : "FLOP";
  detail = {{"roof", roof.name},
            {"kernel", d.kernel},
            {"work_per_iteration", d.work_per_iteration},
            {"counting", d.counting},
            {"work_unit", work_unit},
            {"width_bits", d.width_bits},
            {"class", d.instruction_class}};
  if (!c.isa.empty()) detail["isa"] = c.isa;
  if (c.chains > 0) detail["chains"] = c.chains;
  if (c.energy) detail["energy"] = energy_to_json(*c.energy);
  if (c.other_work) detail["other_work"] = *c.other_work;
  judge_against_theory(c, st, work_unit, roof, detail, warnings);
  return roof;
}

/// The same kernel on one core (measurement.one_core.compute.ROOF).
json one_core_compute(const ComputeMeasurement& c) {
  const Declaration& d = c.declaration;
  const Statistics one = judged(d, c.one_core, c.name + " (one core)");
  json o = {{"peak", one.sustained}, {"stats", statistics_to_json(one)}};
  if (c.one_core_theory && c.one_core_theory->value() > 0)
    o["theoretical"] = c.one_core_theory->value();
  return o;
}

/// A level's typed extras into measurement.memory.LEVEL: its sizes as the sweep found them,
/// the mix the backend planned, and the power while its best mix and each mix ran.
void add_level_detail(const MemoryMeasurement& l, json& lj) {
  if (l.sizes) {
    const LevelSizes& z = *l.sizes;
    lj["reported_size"] = z.reported_size;
    lj["plateau_edge"] = z.plateau_edge;
    if (z.plateau_edge_per_thread) lj["plateau_edge_per_thread"] = *z.plateau_edge_per_thread;
    lj["size_agrees"] = z.size_agrees;
    if (z.cache) {
      lj["size_per_instance"] = z.cache->size_per_instance;
      lj["cores_sharing"] = z.cache->cores_sharing;
      lj["size_per_core"] = z.cache->size_per_core;
      lj["size_words"] = z.cache->size_words;
    }
    if (!z.note.empty()) lj["note"] = z.note;
  }
  if (!l.planned_mix.empty()) lj["planned_mix"] = l.planned_mix;
  if (l.energy) lj["energy"] = energy_to_json(*l.energy);
  if (!l.mix_energy.empty()) {
    json mixes = json::object();
    for (const auto& [mix, e] : l.mix_energy) mixes[mix] = energy_to_json(e);
    lj["energy_mixes"] = mixes;
  }
}

/// A memory roof: the best of its access mixes under the statistics policy; `level_detail` is
/// measurement.memory.LEVEL, `one_core` its one-core entry (left null when not measured).
MemoryRoof memory_roof(const MemoryMeasurement& l, const std::string& origin, json& level_detail,
                       json& one_core) {
  if (l.mixes.empty()) throw InputError("memory level " + l.level + ": no access mix measured");
  MemoryRoof roof;
  roof.level = l.level;
  roof.kind = l.kind;
  roof.provenance = Provenance::measured;
  roof.convention = "named";
  roof.size_bytes = l.size_bytes;
  json mixes_moved = json::object(), mix_stats = json::object();
  const MixMeasurement* best = nullptr;
  Statistics best_stats;
  for (const MixMeasurement& mix : l.mixes) {
    const std::string& name = mix.declaration.instruction_class;
    const Statistics st = judged(mix.declaration, mix.samples, l.level + " " + name);
    roof.mixes[name] = st.sustained;
    std::vector<double> moved;
    for (const Sample& s : mix.samples) moved.push_back(byte_rate(mix.declaration, s, true));
    mixes_moved[name] = summarize_rates(moved).sustained;
    mix_stats[name] = statistics_to_json(st);
    if (!best || st.sustained > best_stats.sustained) {
      best = &mix;
      best_stats = st;
    }
  }
  const std::string best_mix = best->declaration.instruction_class;
  roof.bandwidth = ByteRate(best_stats.sustained);
  roof.stats = best_stats;
  roof.source = origin + ": highest of " + std::to_string(l.mixes.size()) + " access mix" +
                (l.mixes.size() == 1 ? "" : "es") + " (" + best_mix + "), " + l.method +
                ", working set " + format_bytes(Bytes(l.working_set_bytes)) + ", named bytes";
  json lj = {{"working_set", l.working_set_bytes},
             {"best_mix", best_mix},
             {"mixes_named", roof.mixes},
             {"mixes_moved", mixes_moved},
             {"mix_stats", mix_stats}};
  add_level_detail(l, lj);
  level_detail = lj;
  if (l.one_core) {
    const Statistics one =
        judged(l.one_core->declaration, l.one_core->samples, l.level + " (one core)");
    one_core = {{"mix", l.one_core->declaration.instruction_class},
                {"bandwidth", one.sustained},
                {"working_set", l.one_core_working_set_bytes},
                {"stats", statistics_to_json(one)}};
  }
  if (l.theoretical_bandwidth.value > 0) {
    roof.theoretical = l.theoretical_bandwidth;
    roof.formula = l.theory_formula;
  }
  return roof;
}

/// The empirical curve: its samples into the roof set, its detail (with points) returned.
json curve_of(const Measurements& m, RoofSet& roofs) {
  json points = json::array();
  for (const CurveMeasurement& c : m.curve) {
    const Statistics st = judged(c.declaration, c.samples, "curve point " + c.declaration.kernel);
    CurveSample cs;
    cs.intensity = Intensity(c.declaration.work_per_iteration / c.declaration.bytes_per_iteration);
    cs.performance = WorkRate(st.sustained);
    roofs.empirical_curve.push_back(cs);
    points.push_back({{"intensity", cs.intensity.value},
                      {"stats", statistics_to_json(st)},
                      {"rounds", c.rounds},
                      {"light", c.light}});
  }
  json curve = json::object();
  if (m.curve_setup)
    curve = {{"kernel", m.curve_setup->kernel},
             {"working_set", m.curve_setup->working_set_bytes},
             {"precision", m.curve_setup->precision}};
  curve["points"] = points;
  return curve;
}

/// The curve against the roofs it should lie under: a point above min(π, β·I) beyond the
/// run-to-run floor means the curve and the DRAM roof saw different machines (load came or
/// went between the phases), and noisy points mean the curve is uncertain — both said, not left
/// to a chart that crosses its own roof. Counts go into `curve` (measurement.curve).
void judge_curve(const Measurements& m, const RoofSet& roofs, json& curve,
                 std::vector<std::string>& warnings) {
  const ComputeRoof* pi = nullptr;
  try {
    pi = &roofs.select_compute(m.curve_setup ? m.curve_setup->precision : "");
  } catch (const InputError&) {
    return;  // no compute roof of the curve's precision: nothing to hold it against
  }
  const MemoryRoof* dram = roofs.find_memory("DRAM");
  if (!dram) return;
  int above = 0, noisy = 0;
  double worst = 1, worst_i = 0;
  for (std::size_t k = 0; k < roofs.empirical_curve.size(); ++k) {
    const CurveSample& c = roofs.empirical_curve[k];
    // P ≤ min(π, β·I): Williams, Waterman & Patterson 2009 (docs/model.md §1).
    const double bound = std::min(pi->peak.value, dram->bandwidth.value * c.intensity.value);
    const double over = c.performance.value / bound;
    if (over > 1 + kRunToRunMemory) ++above;
    if (over > worst) worst = over, worst_i = c.intensity.value;
    if (curve["points"][k]["stats"].value("noisy", false)) ++noisy;
  }
  const int n = static_cast<int>(roofs.empirical_curve.size());
  curve["above_roofs"] = above;
  curve["noisy_points"] = noisy;
  if (above > 0)
    warnings.push_back("empirical curve: " + std::to_string(above) + " of " + std::to_string(n) +
                       " points above min(π, β·I) of '" + pi->name + "' and DRAM (up to " +
                       format_number(worst, 3) + "× at I = " + format_number(worst_i, 4) +
                       " FLOP/byte): the curve and the DRAM roof were measured while the "
                       "machine changed (other load) — repeat on a quiet machine before reading "
                       "one against the other");
  if (2 * noisy > n)
    warnings.push_back("empirical curve: " + std::to_string(noisy) + " of " + std::to_string(n) +
                       " points noisy (" + noisy_rule_text() + "): its shape is uncertain");
}

/// The judgements, said plainly: noisy and unconfirmed roofs, and memory levels whose order
/// is inverted, as warnings and in `measurement`.
void judge_roofs(const RoofSet& roofs, json& measurement, std::vector<std::string>& warnings) {
  int noisy = 0, total = 0;
  std::vector<std::string> noisy_names, unconfirmed;
  auto judge = [&](const std::string& name, const std::optional<Statistics>& st) {
    if (!st) return;
    ++total;
    if (st->noisy) ++noisy, noisy_names.push_back(name);
    if (!st->confirmed()) unconfirmed.push_back(name);
  };
  for (const auto& c : roofs.compute) judge(c.name, c.stats);
  for (const auto& l : roofs.memory) judge(l.level, l.stats);
  auto list = [](const std::vector<std::string>& v) { return join(v); };
  if (noisy > 0)
    warnings.push_back(std::to_string(noisy) + " of " + std::to_string(total) + " roofs noisy (" +
                       noisy_rule_text() + "): " + list(noisy_names) +
                       (4 * noisy > total ? " — the machine is shared or busy; repeat the "
                                            "measurement before trusting small differences"
                                          : ""));
  if (!unconfirmed.empty())
    warnings.push_back(
        "not confirmed (the second- and third-fastest samples differ by more "
        "than " +
        format_number(100 * kAgreement, 2) + "%, even after retries): " + list(unconfirmed) +
        " — treat these roofs as uncertain");
  json inverted = json::array();
  std::vector<MemoryRoof> measured_memory;
  for (const auto& l : roofs.memory)
    if (l.provenance == Provenance::measured) measured_memory.push_back(l);
  for (const auto& [far, near] : inverted_levels(measured_memory)) {
    const auto bw = [&](const std::string& level) {
      return format_byte_rate(roofs.find_memory(level)->bandwidth);
    };
    warnings.push_back(far + " roof (" + bw(far) + ") above " + near + " roof (" + bw(near) +
                       "): a farther level cannot sustain more than a nearer one, so one of "
                       "them was measured while disturbed — repeat the measurement");
    inverted.push_back({{"farther", far}, {"nearer", near}});
  }
  measurement["noisy_roofs"] = noisy;
  measurement["noisy_roof_names"] = noisy_names;
  measurement["unconfirmed_roofs"] = unconfirmed;
  measurement["inverted_levels"] = inverted;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> inverted_levels(
    const std::vector<MemoryRoof>& nearest_first, double tolerance) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 1; i < nearest_first.size(); ++i) {
    const MemoryRoof& near = nearest_first[i - 1];
    const MemoryRoof& far = nearest_first[i];
    if (far.bandwidth.value > near.bandwidth.value * (1 + tolerance))
      out.emplace_back(far.level, near.level);
  }
  return out;
}

MachineDocument assemble(const Measurements& m) {
  MachineDocument doc;
  doc.roofs.name = m.name.empty() ? "this machine" : m.name;
  doc.origin = m.origin;
  json measurement = m.cpu_run                   ? cpu_run_to_json(*m.cpu_run)
                     : m.measurement.is_object() ? m.measurement
                                                 : json::object();
  std::vector<std::string> warnings = m.warnings;

  json compute_detail = json::array();
  json one_core_compute_detail = json::object();
  double other_work = 0;
  for (const ComputeMeasurement& c : m.compute) {
    json detail;
    doc.roofs.compute.push_back(compute_roof(c, m.origin, detail, warnings));
    if (!c.one_core.empty()) one_core_compute_detail[c.name] = one_core_compute(c);
    compute_detail.push_back(detail);
    other_work = std::max(other_work, c.other_work.value_or(0));
  }
  measurement["compute"] = compute_detail;
  // Said even where every roof reads near its theory: the clock the theory uses was read under
  // the same interference (a busy loop on one of two CPUs: roofs and clock both 2–5% low).
  if (other_work > kOtherWorkLimit)
    warnings.push_back("other work took " + format_number(other_work * 100, 2) +
                       "% of the measured CPUs' time during the compute roofs (other processes, "
                       "or other guests of a virtual machine): they and the clock may read low; "
                       "repeat on a quiet machine");

  json memory_detail = json::object();
  json one_core_memory = json::object();
  for (const MemoryMeasurement& l : m.memory) {
    json one;
    doc.roofs.memory.push_back(memory_roof(l, m.origin, memory_detail[l.level], one));
    if (!one.is_null()) one_core_memory[l.level] = one;
  }
  for (const ComputeRoof& c : m.unmeasured_compute)
    if (!doc.roofs.find_compute(c.name)) doc.roofs.compute.push_back(c);
  for (const MemoryRoof& l : m.unmeasured_memory)
    if (!doc.roofs.find_memory(l.level)) doc.roofs.memory.push_back(l);
  doc.roofs.default_compute = doc.roofs.find_compute(m.default_compute) ? m.default_compute : "";
  doc.roofs.default_memory = doc.roofs.find_memory(m.default_memory) ? m.default_memory : "";
  measurement["memory"] = memory_detail;
  if (!one_core_compute_detail.empty() || !one_core_memory.empty())
    measurement["one_core"] = {{"compute", one_core_compute_detail}, {"memory", one_core_memory}};
  if (!m.curve.empty()) {
    measurement["curve"] = curve_of(m, doc.roofs);
    judge_curve(m, doc.roofs, measurement["curve"], warnings);
  }

  judge_roofs(doc.roofs, measurement, warnings);
  measurement["retries_for_noise"] = m.retries_for_noise;
  measurement["seconds"] = m.seconds;
  measurement["warnings"] = warnings;
  measurement["statistic"] =
      "roof = sustained rate, the third-fastest sample (interference only slows a kernel down; "
      "three samples keep a lone lucky one from setting the roof); noisy = " +
      noisy_rule_text() + "; samples spread over each phase in rounds, timed by duration";
  set_info(doc, m.cpu ? cpu_description_to_json(*m.cpu) : m.info);
  if (m.sections.is_object())
    for (const auto& [k, v] : m.sections.items()) set_section(doc, k, v);
  set_section(doc, "measurement", measurement);
  doc.roofs.validate();
  return doc;
}

}  // namespace roofline::engine
