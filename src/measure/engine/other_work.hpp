#pragma once
// Other work on the measured CPUs while a phase ran (docs/measure.md "Statistics and trust"):
// the CPUs' busy time from /proc/stat (user, nice, system, irq, softirq and steal: a hypervisor's
// other guests count too) less this process's own CPU time, over the CPUs' time. A roof read low
// while another process shared its CPUs is that process's share, not a limit of the cores.
#include <optional>
#include <string>
#include <vector>

namespace roofline::engine {

/// Busy seconds of the listed CPUs (each counted once) in a /proc/stat text; nullopt when one
/// of them has no line or a line does not read.
std::optional<double> busy_seconds(const std::string& proc_stat, const std::vector<int>& cpus,
                                   double ticks_per_s);
/// This process's CPU seconds (utime + stime, all threads) in a /proc/PID/stat text.
std::optional<double> own_seconds(const std::string& self_stat, double ticks_per_s);

/// Brackets a phase: constructed at its start, share() at its end.
class OtherWork {
 public:
  explicit OtherWork(std::vector<int> cpus);
  /// The share (0 to 1) of the CPUs' time that other work took since construction; nullopt
  /// where /proc cannot be read (not Linux) or the phase was too short to tell (< 20 ticks).
  std::optional<double> share() const;

 private:
  std::vector<int> cpus_;
  double ticks_per_s_ = 100;
  std::optional<double> busy0_, own0_;
  double wall0_ = 0;
};

}  // namespace roofline::engine
