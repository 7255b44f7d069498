#pragma once
// The hardware catalogue (data/hardware, docs/hardware.md): datasheet machine documents, one
// per device, interchangeable with measured machines. This header adds what `roofline hw`
// needs on top of the loader in io.hpp: a summary of each entry, ridge points per precision
// (docs/model.md §8: I* = π/β, the memory-wall trajectory) and the checks every catalogue file must
// pass. It holds documents as core's type (roofline/machine_document.hpp) and carries no JSON.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "roofline/machine_document.hpp"
#include "roofline/machine_facts.hpp"
#include "roofline/roof.hpp"

namespace roofline {

/// What `hw list` shows of one entry; read from the document's `info` (catalogue fields,
/// docs/hardware.md). Fields a measured machine lacks stay empty.
struct HardwareSummary {
  std::string name;          ///< canonical catalogue name (file stem) or the document's name
  std::string display_name;  ///< info.display_name, else the name
  std::string vendor;
  std::string kind;  ///< gpu, cpu, tpu, accelerator (empty when unknown)
  std::optional<int> release_year;
  std::optional<double> memory_bytes;  ///< size of the default (main) memory roof, when given
  std::vector<std::string> aliases;
  std::filesystem::path path;
  MachineDocument machine;
  MachineFacts facts;  ///< machine_facts(machine)
};

/// Summary of a loaded machine document (catalogue entry or measured machine).
HardwareSummary summarize(const MachineDocument& m, const std::string& name,
                          const std::filesystem::path& path = {});

/// A catalogue name or alias, or a machine document's path, resolved (resolve_machine) and
/// summarised: named by its catalogue name when given by a name or alias, by the document's name
/// when given by its path.
HardwareSummary resolve_summary(const std::string& spec, const std::string& extra_dir);

/// A machine `hw ridges --add` asked for: its spec as given, and its name among the entries
/// (told apart from another of the same name: "vm (m1.json)").
struct AddedMachine {
  std::string spec;
  std::string name;
};
/// `hw ridges --add`: the machines of `specs` (resolve_summary) added to `entries`, in order.
/// One with no compute or no memory roof has no ridge: InputError "--add SPEC: the machine has
/// no compute roof, so it has no ridge" (memory, where only that is missing). One already among
/// the entries (the catalogue entry a name gives, one file given twice, a copy of a file) is
/// not added again; two files of one document name that differ (a machine measured before and
/// after a change) are two machines. Entries of one name are then told apart as `diff` and
/// `plot --compare` tell them (name_machines_apart: the file's name, else the spec given, a
/// catalogue entry by its own name). Returns each spec with the name its machine has in
/// `entries`.
std::vector<AddedMachine> add_machines(std::vector<HardwareSummary>& entries,
                                       const std::vector<std::string>& specs,
                                       const std::string& extra_dir);

/// Every catalogue entry, loaded. Files that fail to load are skipped and described in
/// `problems` ("FILE: message"), so one broken user file does not hide the others.
std::vector<HardwareSummary> load_catalogue(const std::string& extra_dir,
                                            std::vector<std::string>* problems = nullptr);

/// The filters of `hw list` (docs/hardware.md); an entry is listed when it passes every filter
/// that is set. Text filters compare case-insensitively.
struct HardwareFilter {
  std::string vendor;  ///< info.vendor, whole word ("nvidia")
  std::string kind;    ///< gpu, cpu, tpu, accelerator, soc
  /// A fragment of the name, display name or an alias, ignoring case, '-', '_' and spaces
  /// ("rtx 6000" finds rtx-6000-ada).
  std::string search;
  std::optional<int> year_min, year_max;  ///< release-year range, inclusive
  std::optional<double>
      memory_min;  ///< bytes of main memory at least (entries without a size fail)
};
/// The kinds an entry may have: gpu, cpu, tpu, accelerator, soc.
const std::vector<std::string>& hardware_kinds();
/// --year: "2024", "2022-2024", "2023-" (that year and later) or "-2020" (up to that year).
/// InputError naming the flag and the value otherwise.
void parse_year_filter(const std::string& text, HardwareFilter& filter);
/// --memory-min: a bare number is gigabytes ("80" = 80e9 bytes), otherwise a size with its unit
/// ("80 GB", "1.5 TB", "96 GiB"). Returns bytes; InputError on a malformed or negative value.
double parse_memory_min(const std::string& text);
/// True when the entry passes every filter that is set.
bool matches_filter(const HardwareSummary& entry, const HardwareFilter& filter);

/// One value of a catalogue entry with the document it comes from (what `hw show` prints under
/// "Sources", and what the checker requires for every value).
struct ValueSource {
  std::string value;   ///< what the figure is: "release year", "power", "NVLink latency", ...
  std::string figure;  ///< the figure as printed ("2024", "700 W", "unknown")
  std::string source;  ///< where it comes from (empty = missing, which the checker refuses)
};
/// Every sourced value of the document's info (release year, clock, power, interconnect
/// bandwidth and per-link latency, caches, recorded disagreements) and of its roofs, in that
/// order.
std::vector<ValueSource> value_sources(const MachineDocument& m);

/// The highest dense (never sparse) compute roof whose precision is one of `precisions`
/// (case-insensitive); nullptr when the machine has none.
const ComputeRoof* highest_dense_roof(const RoofSet& roofs,
                                      const std::vector<std::string>& precisions);

/// One ridge point I* = π/β of a compute roof against a memory roof (docs/model.md §2, §8).
struct RidgePoint {
  std::string label;  ///< the column it answers, e.g. "fp32" or "bf16/fp16"
  std::string compute_roof;
  WorkRate peak{0};
  std::string memory_level;
  ByteRate bandwidth{0};
  Intensity ridge{0};
  UnitSystem units;  ///< the compute roof's (RoofSet::units_of): I* in OP/byte on an integer roof
};

/// A precision group of the ridge table: a label and the precisions that answer it (the
/// highest dense roof among them is taken, e.g. "bf16/fp16" = V100's fp16 tensor roof, H100's
/// bf16 tensor roof).
struct PrecisionGroup {
  std::string label;
  std::vector<std::string> precisions;
};
/// The default groups: fp64, fp32, bf16/fp16 (the ridge trajectory of docs/model.md §8: V100 ≈ 139,
/// A100 ≈ 156, H100 ≈ 295, TPU v5e ≈ 240), fp8/int8.
const std::vector<PrecisionGroup>& default_precision_groups();
/// A group from a --precision value: a roof name of the machine picks that roof, otherwise the
/// value is a precision (or "a/b" alternatives).
PrecisionGroup precision_group(const std::string& spec);

/// The roof a --precision value picks (the one rule for `hw ridges` and `hw compare`): the
/// roof named by the group's label (a sparse one only when `sparse_by_name`), else the highest
/// dense roof of the group's precisions; nullptr when the machine has none.
const ComputeRoof* find_compute_roof(const RoofSet& roofs, const PrecisionGroup& group,
                                     bool sparse_by_name = false);
/// find_compute_roof for a --precision value ("bf16", "bf16/fp16" or a roof name; a roof named
/// explicitly may be sparse); "" = the machine's default roof; failing those, a roof that names
/// no precision (roofs given as two numbers judge every precision). InputError naming the
/// machine and its dense roofs when nothing matches.
const ComputeRoof& select_compute_roof(const RoofSet& roofs, const std::string& spec);

/// Roofs of several machines (roofs[k] on machines[k], as a comparison picks them) that are not
/// of one precision (V100's fp32 vector roof against TPU v5e's bf16 MXU roof): the machines and
/// their roofs named ("v100-sxm2 fp32 vector, tpu-v5e bf16 mxu") and the first default
/// precision group every machine has a roof of ("" when none), to compare like with like.
struct MixedPrecisions {
  std::string named;
  std::string common_group;
};
std::optional<MixedPrecisions> mixed_precisions(const std::vector<const RoofSet*>& machines,
                                                const std::vector<std::string>& roofs);

/// The roofs (one per machine, by name) that accumulate narrower than fp32 (accumulates_narrow:
/// GeForce's fp16-accumulate mode, twice its fp32-accumulate rate) while another machine's
/// roof does not: the warning that names them ("rtx-5090 fp16 tensor fp16-accumulate
/// accumulates narrower than fp32, ...: the ratio is about 2x in its favour"), one text for the
/// CLI and Python; empty when none or all do.
std::string narrow_against_full(const std::vector<const RoofSet*>& machines,
                                const std::vector<std::string>& roofs);

/// Whether the machine has a memory roof at `level` as RoofSet::select_memory finds it (by name,
/// or "DRAM"/"HBM"/"memory" for main memory); "" = any memory roof.
bool has_memory_level(const RoofSet& roofs, const std::string& level);
/// Ridge of the group's roof against `level` ("" = the default memory roof); nullopt when the
/// machine has no dense roof in the group (or, for a roof name, no such roof, a sparse one
/// included) or no memory roof at `level` (has_memory_level).
std::optional<RidgePoint> ridge_for(const RoofSet& roofs, const PrecisionGroup& group,
                                    const std::string& level = "");
/// The ridge of every dense compute roof against `level` ("" = the default memory roof).
std::vector<RidgePoint> ridges_per_roof(const RoofSet& roofs, const std::string& level = "");

/// One device of the ridge table (`roofline hw ridges`): its ridge per precision group (nullopt:
/// no dense roof of that group).
struct RidgeRow {
  const HardwareSummary* device = nullptr;
  std::vector<std::optional<RidgePoint>> ridges;  ///< one per group
};
/// The rows of the ridge table: every entry with a ridge in at least one group, in the order
/// given.
std::vector<RidgeRow> ridge_rows(const std::vector<HardwareSummary>& entries,
                                 const std::vector<PrecisionGroup>& groups,
                                 const std::string& level = "");

/// Problems of a catalogue file (empty = valid): the machine-document rules plus the
/// catalogue's own (docs/hardware.md): a source on every roof and a formula on every theoretical
/// one, a `datasheet` roof whose source is no third party's copy (else it is `reported`),
/// the sparse flag only on roofs named "... sparse", a file name equal to the lower-case
/// hyphenated name, the info fields (display name, sources of power and release year, a CPU's
/// base clock with max_turbo_mhz, a source on every cache), defaults that exist and are dense /
/// main memory, interconnects also present as roofs, a per-link latency (a number, or null =
/// unknown) only with its source, recorded disagreements with a source for each figure. In
/// short: no value without a source.
std::vector<std::string> catalogue_entry_problems(const std::filesystem::path& file);

/// True when `name` is lower-case letters, digits and single inner hyphens ("a100-80gb").
bool is_canonical_hardware_name(const std::string& name);

/// The key catalogue names and searches compare by: lower case without '-', '_' and spaces
/// ("H100 SXM" = "h100-sxm").
std::string hardware_key(const std::string& name);

}  // namespace roofline
