#pragma once
// The hardware catalogue (data/hardware, docs/hardware.md): datasheet machine documents, one
// per device, interchangeable with measured machines. This header adds what `roofline hw`
// needs on top of the loader in io.hpp: a summary of each entry, ridge points per precision
// (DIGEST §8: I* = π/β, the memory-wall trajectory) and the checks every catalogue file must
// pass.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "roofline/io.hpp"
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
  std::vector<std::string> aliases;
  std::filesystem::path path;
  MachineDocument machine;
};

/// Summary of a loaded machine document (catalogue entry or measured machine).
HardwareSummary summarize(const MachineDocument& m, const std::string& name,
                          const std::filesystem::path& path = {});

/// Every catalogue entry, loaded. Files that fail to load are skipped and described in
/// `problems` ("FILE: message"), so one broken user file does not hide the others.
std::vector<HardwareSummary> load_catalogue(const std::string& extra_dir,
                                            std::vector<std::string>* problems = nullptr);

/// The highest dense (never sparse) compute roof whose precision is one of `precisions`
/// (case-insensitive); nullptr when the machine has none.
const ComputeRoof* highest_dense_roof(const RoofSet& roofs,
                                      const std::vector<std::string>& precisions);

/// One ridge point I* = π/β of a compute roof against a memory roof (DIGEST §2, §8).
struct RidgePoint {
  std::string label;  ///< the column it answers, e.g. "fp32" or "bf16/fp16"
  std::string compute_roof;
  WorkRate peak{0};
  std::string memory_level;
  ByteRate bandwidth{0};
  Intensity ridge{0};
};

/// A precision group of the ridge table: a label and the precisions that answer it (the
/// highest dense roof among them is taken, e.g. "bf16/fp16" = V100's fp16 tensor roof, H100's
/// bf16 tensor roof).
struct PrecisionGroup {
  std::string label;
  std::vector<std::string> precisions;
};
/// The default groups: fp64, fp32, bf16/fp16 (the seed's trajectory: V100 ≈ 139, A100 ≈ 156,
/// H100 ≈ 295, TPU v5e ≈ 240), fp8/int8.
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
/// explicitly may be sparse); "" = the machine's default roof. InputError naming the machine
/// and its dense roofs when nothing matches.
const ComputeRoof& select_compute_roof(const RoofSet& roofs, const std::string& spec);

/// Ridge of the group's roof against `level` ("" = the default memory roof); nullopt when the
/// machine has no dense roof in the group (or, for a roof name, no such roof).
std::optional<RidgePoint> ridge_for(const RoofSet& roofs, const PrecisionGroup& group,
                                    const std::string& level = "");
/// The ridge of every dense compute roof against `level` ("" = the default memory roof).
std::vector<RidgePoint> ridges_per_roof(const RoofSet& roofs, const std::string& level = "");

/// Problems of a catalogue file (empty = valid): the machine-document rules plus the
/// catalogue's own (docs/hardware.md): a source on every roof and a formula on every theoretical
/// one, "integer" exactly on int precisions, the sparse flag only on roofs named "... sparse", a
/// file name equal to the lower-case hyphenated name, the info fields (display name, sources of
/// power and release year, a CPU's base clock with max_turbo_mhz, a source on every cache),
/// defaults that exist and are dense / main memory, interconnects also present as roofs.
std::vector<std::string> catalogue_entry_problems(const std::filesystem::path& file);

/// True when `name` is lower-case letters, digits and single inner hyphens ("a100-80gb").
bool is_canonical_hardware_name(const std::string& name);

}  // namespace roofline
