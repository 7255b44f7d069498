#pragma once
// Clocks, power and clock-event reasons from NVML (libnvidia-ml.so.1, shipped with the driver),
// opened at run time: a missing NVML is reported in the result, never an error. NVML is only
// read: the backend never sets a clock, a power limit or any other setting of the GPU.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/cuda/device/runtime.hpp"
#include "roofline/cuda.hpp"

namespace roofline::cuda::nvml {

/// NVML initialised for one device (by PCI bus id) for the life of the object.
class Session {
 public:
  explicit Session(const std::string& pci_bus_id);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  bool available() const { return reason_.empty(); }
  const std::string& reason() const { return reason_; }
  /// Clocks (MHz), their maxima, the applications clock, power (W) and its limit, temperature
  /// and the clock-event reasons. Without NVML: {"available": false, "reason": ...}.
  nlohmann::json snapshot() const;
  /// The SM clock now (MHz), 0 when it cannot be read.
  double sm_clock_mhz() const;
  /// The device's energy counter since the driver loaded (J; NVML counts mJ, Volta and later),
  /// nullopt when it cannot be read. Only differences between readings mean anything.
  std::optional<double> energy_joules() const;
  /// Why energy_joules() cannot be read ("" when it can).
  std::string energy_reason() const;

  struct Api;

 private:
  std::string reason_;
  std::unique_ptr<Api> api_;
  void* device_ = nullptr;
};

/// Samples the SM clock every 10 ms while the timed repetitions of a measurement run (an
/// rt::Probe), so that each roof's theory can be taken at the clock it actually ran, and takes
/// one full snapshot in the middle of the runs when asked to. It reads the energy counter at
/// the start and the end of the repetitions: the energy the device drew while they ran.
class ClockSampler : public rt::Probe {
 public:
  explicit ClockSampler(const Session& session);
  ~ClockSampler() override;
  ClockSampler(const ClockSampler&) = delete;
  ClockSampler& operator=(const ClockSampler&) = delete;

  void begin() override;
  void end() override;
  /// The samples (MHz) of the last begin()..end().
  std::vector<double> samples() const;
  /// Ask for a full snapshot during the next begin()..end() (after its fifth sample).
  void want_snapshot();
  /// The snapshot taken, null when none was.
  nlohmann::json snapshot() const;
  /// The energy of the last begin()..end() and its wall time, when the counter was read at both.
  std::optional<EnergyUnderLoad> energy() const;

 private:
  void loop();
  const Session& session_;
  mutable std::mutex mutex_;
  std::vector<double> samples_;
  nlohmann::json snapshot_;
  std::optional<double> energy_start_;
  std::chrono::steady_clock::time_point energy_start_time_;
  std::optional<EnergyUnderLoad> energy_;
  std::atomic<bool> active_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> want_snapshot_{false};
  std::thread thread_;
};

}  // namespace roofline::cuda::nvml
