#pragma once
// What a machine document says besides its roofs, typed: the catalogue's facts (display name,
// release year, clock, power, interconnects, caches, sources, disagreements; docs/hardware.md)
// and a measured machine's (CPU, clock, threads, what the memory step reached, warnings;
// docs/schema.md). io reads them from a document's JSON in one place (machine_facts() in
// io.hpp); the commands that show or use these facts read the structs, not the JSON.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/quantity.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// info.clock of a catalogue entry: the clock the peaks assume (boost for accelerators, base
/// for CPUs: docs/model.md §9), null where the vendor does not publish it.
struct ClockFacts {
  std::string basis;  ///< "boost" or "base"
  std::optional<double> mhz;
  bool lists_max_turbo = false;  ///< a CPU entry records its maximum turbo beside the base
  std::optional<double> max_turbo_mhz;
  std::string source;
};

/// The board or package power (info.power_w, info.power_source).
struct PowerFacts {
  bool listed = false;          ///< power_w is present (a null means "not published")
  std::optional<double> watts;  ///< the figure when it is a number (not checked for sign)
  std::string written;          ///< power_w as the file writes it, for messages
  std::optional<std::string> source;
};

/// The longest per-message latency α a link may be given: microseconds (NVLink, InfiniBand) to
/// milliseconds (a wide-area link); 1e9 s in a document put a decode step at 1e11 s. One bound
/// for a machine document's latency, `roofline llm --link-latency` and Python's link_latency_s.
inline constexpr double kMostLinkLatencyS = 1;
/// "WHAT: 5 s is beyond any link's latency (at most 1 s[; got GOT])": WHAT names the field or
/// flag, GOT the value as written where it was text.
inline std::string link_latency_beyond(const std::string& what, double seconds,
                                       const std::string& got = "") {
  return what + ": " + format_number(seconds) + " s is beyond any link's latency (at most " +
         format_number(kMostLinkLatencyS) + " s" + (got.empty() ? "" : "; got " + got) + ")";
}

/// One entry of info.interconnects: bandwidth, per-message latency α and how many devices one
/// domain of the link joins, each with the source the file names.
struct InterconnectFacts {
  std::string name;
  std::optional<double> bandwidth;  ///< byte/s, aggregate over links and directions
  std::string source;
  bool lists_latency = false;         ///< a latency field is present (null: no source gives it)
  std::optional<Seconds> latency;     ///< from latency, latency_s, latency_us or latency_ns
  std::string latency_source;         ///< as written (empty when the file names none)
  std::optional<double> domain_size;  ///< from domain_size, domain_devices or max_devices
  std::string domain_source;
  /// What to know before collectives are costed over this link, said where they are (`llm`): a
  /// link to the host or to the device's own CPU, not one between devices, or one standing in
  /// for a faster link the catalogue lacks. Empty for a link between devices.
  std::string caveat;
  /// Why a latency or domain field that is there could not be read (empty when all read):
  /// reported when the link is used (llm::link_facts) and by the catalogue checker.
  std::string problem;
};

struct CacheFacts {
  std::string level;
  double size_bytes = 0;
  std::string source;
};

/// A value on which sources disagree: each figure with its source, the one used and why.
struct DiscrepancyFacts {
  struct Figure {
    std::string figure;
    std::string source;
  };
  std::string value;
  std::vector<Figure> figures;
  std::string used;
  std::string reason;
};

/// What the memory step of `roofline measure` recorded of one level (measurement.memory.LEVEL):
/// the capacity per core and the working set the measuring threads reached.
struct LevelReach {
  double size_per_core = 0;
  double reported_size = 0;
  /// Where the working-set sweep's plateau of the level ended over the measuring threads (0:
  /// not recorded), and whether that agreed with the reported capacity.
  double plateau_edge = 0;
  bool size_agrees = true;
};

/// "MAJOR.MINOR" with digits on both sides ("9.0", "10.3", "12.0"): an NVIDIA compute capability.
bool is_compute_capability(const std::string& text);

struct MachineFacts {
  // Catalogue entries (docs/hardware.md).
  std::string display_name;
  std::string vendor;
  std::string kind;
  std::vector<std::string> aliases;
  bool lists_release_year = false;
  std::optional<int> release_year;
  std::string release_source;
  std::optional<ClockFacts> clock;
  PowerFacts power;
  std::vector<InterconnectFacts> interconnects;
  /// info.nvlink_domain / info.scale_up_domain: the devices one scale-up domain joins, for
  /// documents that give it for the machine rather than per link.
  std::optional<double> scale_up_domain;
  std::string scale_up_domain_source;
  std::string scale_up_domain_problem;  ///< as InterconnectFacts::problem
  std::vector<CacheFacts> caches;
  std::vector<std::string> sources;
  std::vector<std::string> unverified;
  std::vector<std::string> notes;
  std::vector<DiscrepancyFacts> discrepancies;
  /// An NVIDIA GPU's compute capability ("9.0"; a catalogue entry's with its source, a measured
  /// GPU's from the device), "" when not given or not of the form MAJOR.MINOR.
  std::string compute_capability;
  std::string compute_capability_source;

  // Measured machines (docs/schema.md, `roofline measure`).
  std::string cpu;
  std::string microarchitecture;
  std::optional<double> clock_hz;
  std::optional<int> threads;
  std::map<std::string, LevelReach> memory_reach;  ///< by memory level
  std::vector<std::string> warnings;               ///< measurement.warnings
  std::optional<double> measured_seconds;          ///< measurement.seconds

  /// The interconnect named `name`, else nullptr.
  const InterconnectFacts* interconnect(const std::string& name) const {
    for (const auto& l : interconnects)
      if (l.name == name) return &l;
    return nullptr;
  }
};

}  // namespace roofline
