#pragma once
// The partial results of a GPU measurement (one JSON object per line, written as each result is
// measured: Options::record) and the acceptance check judged from them: every measured roof at
// most 1.02 × its theory at the clock it ran, the device's lower targets, the tensor roofs
// against cuBLAS measured in the same run, the measuring time. Host-only and pure (no CUDA):
// tested on every build, and the same code judges a finished run and one stopped by a timeout.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline::cuda::check {

// ---- the record file (JSON lines) ----

/// Appends records to a file, one JSON object per line, each with one write(2), so that a
/// process killed at any point leaves every record written before it whole. Creates the file or
/// truncates one that holds records already; refuses (InputError) to replace a file that holds
/// something else.
class RecordWriter {
 public:
  explicit RecordWriter(const std::string& path);
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;
  /// Writes `record` and a newline; throws Error naming the file when the write fails.
  void write(const nlohmann::json& record);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

/// The records of a file and what was wrong with it.
struct RecordFile {
  std::vector<nlohmann::json> records;
  /// A last line cut off by a stop in the middle of a write, reported, not an error.
  std::optional<std::string> truncated;
};

/// Reads a record file. A last line that is not whole JSON is reported in `truncated`; any
/// other line that is not a JSON object with a "record" field is an InputError naming the file
/// and line.
RecordFile read_records(const std::string& path);

// ---- the acceptance check ----

/// A lower target: the roof's rate must reach `fraction × reference`.
struct LowerTarget {
  std::string roof;      ///< roof name ("HBM", "bf16 tensor", "fp64 cuda cores")
  double fraction = 0;   ///< e.g. 0.90
  double reference = 0;  ///< the datasheet figure, e.g. 4.8e12 B/s
  std::string unit;      ///< "B/s", "FLOP/s" or "OP/s"
  std::string source;    ///< where the reference comes from
};

struct Targets {
  std::string name;  ///< "h200", or "bounds only"
  std::vector<LowerTarget> lower;
  /// A roof above upper_ratio × its theory fails: the work or bytes are miscounted, the clock
  /// was read low, or the timer is wrong.
  double upper_ratio = 1.02;
  /// Roofs that must reach their cuBLAS peer's rate (within peer_tolerance) in the same run.
  std::vector<std::string> at_least_peer;
  double peer_tolerance = 0.02;
  /// The longest the measurement may take (seconds; 0: no limit).
  double max_seconds = 0;
  /// Roofs printed even when the records lack them (then listed as not measured).
  std::vector<std::string> shown;
};

/// The H200 targets (docs/cuda.md): HBM ≥ 0.90 × 4.8 TB/s, bf16 dense ≥ 0.80 × 989.4 TFLOP/s
/// and at least cuBLAS's rate, fp64 tensor ≥ 0.85 × 67 and fp64 CUDA cores ≥ 0.85 × 34
/// TFLOP/s, ≤ 60 s of measuring; every roof ≤ 1.02 × its theory.
Targets h200_targets();
/// Only the upper bounds (any GPU).
Targets bounds_only();

/// One line of the check's table.
struct Row {
  std::string roof;
  std::string unit;  ///< "B/s", "FLOP/s" or "OP/s"
  std::optional<double> rate;
  std::optional<double> theory;
  std::string clock;  ///< the SM clock the theory is at, e.g. "1.83 GHz under load"
  std::optional<double> peer;
  std::string peer_name;
  std::string peer_missing;           ///< why there is no peer, when the records say
  std::string target;                 ///< the lower target as text, empty when none
  std::vector<std::string> failures;  ///< empty: the row passes
};

struct Verdict {
  std::vector<Row> rows;
  std::vector<std::string> failures;  ///< everything that failed, rows and run
  std::vector<std::string> notes;     ///< unavailable roofs, a cut-off file, clocks
  std::optional<double> seconds;      ///< the measurement's time, when it finished
  bool finished = false;              ///< a "done" record was written
  bool pass() const { return failures.empty(); }
};

/// Judges the records of one run against `targets`.
Verdict judge(const std::vector<nlohmann::json>& records, const Targets& targets);

/// The verdict as a table and a last line "gpu check: PASS" or "gpu check: FAIL (n problems)".
/// Text taken from the records is escaped by terminal_safe() (roofline/sanitize.hpp).
std::string render(const Verdict& v);

}  // namespace roofline::cuda::check
