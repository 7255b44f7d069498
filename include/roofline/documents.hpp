#pragma once
// The documents the tool reads and writes, as types (docs/schema.md): a points document and the
// document of `roofline run` (its points, each with the run that timed it, and how the runs were
// made). Pure data: io holds their JSON forms (io.hpp), the commands fill and read these structs.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/diagnosis.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// A points document (schema "roofline.points").
struct PointsDocument {
  std::vector<Point> points;
  /// What the document holds that is no point: `roofline run`'s bandwidth-only runs
  /// (run.bandwidth_only: W = 0, such as copy), named as a run's point is ("copy @L1"), with
  /// why. Data all the same: plot, point and check say each is not drawn, placed or judged.
  std::vector<PointLeftOut> not_points;
  std::string machine;  ///< optional: name of the machine the points were taken on
  UnitSystem units;
  std::string origin;
};

/// A document's points as judged against a machine's roofs (`roofline import`): each point
/// fitted to the roofs (its traffic at their levels only, the precision it is judged at) and
/// whether it is judged or only listed (no roof for its precision or level). In the order of
/// the document's points; without a machine, the points as they are and none judged.
struct JudgedPoints {
  std::vector<Point> fitted;
  std::vector<bool> judged;
};

/// What a command says of a bandwidth-only run it leaves out (PointsDocument::not_points), the
/// one text every command makes it from, `outcome` last ("not placed", "not drawn", "not
/// compared", "not judged"): the note "FILE: copy @L1 does no arithmetic (W = 0, so I = W/Q =
/// 0): a bandwidth run (Q/T = 1.2 GB/s), not a point: not drawn" (`file` "" leaves out "FILE: "),
/// or, `brief`, the phrase of a line that names the run already: "no arithmetic, W = 0: a
/// bandwidth run, not a point: not judged". Text as the document gives it: the caller escapes.
std::string bandwidth_run_note(const PointLeftOut& run, const std::string& outcome,
                               const std::string& file = "", bool brief = false);

/// Refuses points in other units than what they are put beside: InputError "FILE: points are in
/// W/Q but AGAINST W'/Q'" (`against`: "the machine's roofs are in", "a.json holds").
void refuse_other_units(const std::string& file, const UnitSystem& points,
                        const std::string& against, const UnitSystem& against_units);

/// One timed run of a suite kernel (`roofline run`, docs/run.md): W and compulsory Q from the
/// kernel catalogue, T measured over repetitions, the result checked.
struct RunRecord {
  std::string kernel;
  std::string level;  ///< where the working set sits
  std::string dtype;
  std::string variant;  ///< e.g. "OPENBLAS_CORETYPE=Prescott"; empty for the default run
  std::map<std::string, double> params;
  double working_set_bytes = 0;
  KernelCount count;
  std::vector<LevelTraffic> traffic;
  std::vector<double> times;  ///< seconds per call, one per repetition
  /// Seconds per call of the third-fastest repetition (the sustained rate, as roofs are
  /// measured: statistics.hpp); the point's T.
  double sustained = 0;
  double median = 0, min = 0, max = 0;
  double q1 = 0, q3 = 0;              ///< quartiles of the times per call (0 when unknown)
  bool noisy = false;                 ///< the statistics policy's judgement of the repetitions
  double seconds_per_repetition = 0;  ///< one timed repetition (≥ engine sample_seconds)
  int calls_per_repetition = 1;
  int threads = 1;
  std::string check = "passed";  ///< "passed" or what was wrong
  bool passed = true;
  std::string precision;
  std::string note;

  /// The relative spread of the rate over the repetitions, by the one policy (statistics.hpp,
  /// rate_spread_from_times: the one `noisy` judges and `check` compares runs by); from the
  /// min, median and max for a record without its times; 0 when neither gives one.
  double spread() const;
  /// The kernel as a table lists it: "kernel", or "kernel [variant]" for a variant's run.
  std::string label() const;
  /// The point: W per call, Q per level, T = sustained seconds per call; named label() + " @"
  /// + level.
  Point to_point() const;
};

/// The OpenBLAS library as a process finds it (the suite's blas_info(), `roofline run`): what
/// the BLAS kernels ran on, or why they could not.
struct BlasInfo {
  bool available = false;
  std::string corename;   ///< openblas_get_corename()
  std::string config;     ///< openblas_get_config()
  std::string best_core;  ///< best OPENBLAS_CORETYPE for this CPU ("" when unknown)
  bool generic = false;   ///< corename uses a narrower instruction set than best_core
  std::map<std::string, std::string> environment;  ///< OPENBLAS_* variables that were set
  std::string why_not;                             ///< why it is not available ("" when it is)
};

/// One run placed on a machine's roofs (the suite's place_runs; report's render_run_text).
struct PlacedRun {
  RunRecord result;
  Point point;
  std::optional<Diagnosis> diagnosis;
  std::string corename;     ///< BLAS kernels: the OpenBLAS core that ran
  std::string why_not;      ///< no diagnosis: why (no roof for the level, a refused point)
  std::string above_cause;  ///< attainment above 1: why the point can sit above its roof
  /// The kernel as the run's table lists it: result.label(), or "triad +write-allocate" for
  /// triad's second point (the point's name without its " @level").
  std::string kernel;
};

/// The runs of `roofline run` on a machine's roofs: the placed points and the bandwidth-only runs.
struct Placement {
  std::vector<PlacedRun> placed;
  std::vector<RunRecord> bandwidth_only;  ///< W = 0 (copy): a bandwidth, no point
};

/// A placed run: its point on the machine's roofs, the run, and the diagnosis or why none.
struct RunDocumentPoint {
  Point point;
  RunRecord run;
  std::optional<Diagnosis> diagnosis;
  std::string diagnosis_unavailable;  ///< no diagnosis: why
  std::string above_roof_cause;       ///< attainment above 1: why the point can sit above
};

/// A data cache as the run sized its working sets for it.
struct RunCache {
  int level = 1;
  double size_bytes = 0;
  int cores_sharing = 1;
  double size_per_core_bytes = 0;
  double reported_bytes = 0;  ///< the size the system reported, when `note` says why it differs
  std::string note;
};

/// The OpenBLAS library the BLAS kernels ran on.
struct RunBlas {
  std::string corename;
  std::string config;
  std::string best_core;
  bool generic = false;
  std::map<std::string, std::string> environment;
};

/// The document of `roofline run` (schema "roofline.points" with `run`, docs/schema.md).
struct RunDocument {
  std::string machine;
  std::vector<RunDocumentPoint> points;
  int threads = 1;
  bool quick = false;
  RunBlas blas;
  std::vector<RunCache> caches;
  std::vector<RunRecord> bandwidth_only;  ///< runs with W = 0 (copy): a bandwidth, no point
  double mem_available_bytes = 0;
};

/// What `roofline run --results-only` sends back to the run that started it (a child run under
/// another OPENBLAS_CORETYPE): the OpenBLAS core that ran and every run's record, not placed.
struct RunResultsDocument {
  std::string blas_corename;  ///< the core OpenBLAS ran (openblas_get_corename; "" without it)
  std::string blas_config;    ///< openblas_get_config
  std::vector<RunRecord> results;
};

}  // namespace roofline
