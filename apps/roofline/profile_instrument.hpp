#pragma once
// `roofline profile --instrument -- ./app args`: W by the flopcount plugin's instrumentation, Q by
// cache simulation, T from a native run (profile_instrument.cpp; docs/counters.md).
#include <string>
#include <vector>

#include "commands.hpp"

namespace roofline::cli {

struct InstrumentArgs {
  MachineOptions machine;
  std::string name;
  std::string sim_caches;             ///< --sim-caches: geometry instead of this machine's
  std::string simulate = "all";       ///< all | last | none
  std::string valgrind = "valgrind";  ///< --valgrind: the executable
  bool hardware = true;  ///< --events auto: PMU counts of the native run for comparison
  std::string sysfs = "/sys/bus/event_source/devices";
  bool json = false;
  std::string output;
  std::string report;  ///< --report FILE (checked by the caller: check_report_option)
  std::vector<std::string> command;
};

/// --report needs roofs: throws InputError when `report` is given without --machine/--hw, and
/// checks the path (check_report_path).
void check_report_option(const std::string& report, const MachineOptions& machine);
/// Writes the profile's points on the machine's roofs to `path` (format by extension), and says
/// the points it leaves out (`not_drawn`: the points' judged_point list, which their notes come
/// from too) in the chart and in a warning on stderr each, as `plot` does.
void write_profile_report(const std::string& path, const std::string& name,
                          const MachineDocument& m, const std::vector<Point>& points,
                          const std::vector<PointLeftOut>& not_drawn);

/// A signal's name: "SIGSEGV", "SIGABRT", ...; "signal N" for one without a name.
std::string signal_name(int sig);
/// The program was killed (a crash, a timeout): its time is not the time of its work, so no
/// point is placed and nothing written (`output` is left as it was); exits with its status.
[[noreturn]] void exit_killed(int sig, int exit_status, double wall_seconds,
                              const std::string& output);

/// Runs the program (three or four times), prints or writes the points; exits with the
/// program's status when it is not 0.
void run_profile_instrument(InstrumentArgs a);

}  // namespace roofline::cli
