// NVML through dlopen. The toolkit ships no nvml.h here, so the few entry points used are
// declared below from NVML's stable C ABI (nvml.h: nvmlReturn_t is an int, 0 = success; clock
// types NVML_CLOCK_GRAPHICS 0, NVML_CLOCK_SM 1, NVML_CLOCK_MEM 2; NVML_TEMPERATURE_GPU 0).
// Only queries are bound: nothing here can change a setting of the GPU.
#include "measure/cuda/device/nvml.hpp"

#include <dlfcn.h>

#include <chrono>
#include <cstdint>

#include "measure/cuda/device/libraries.hpp"
#include "measure/cuda/internal.hpp"
#include "roofline/io.hpp"

namespace roofline::cuda::nvml {

// NVML's types (named, not in an anonymous namespace: Session::Api has external linkage).
using Return = int;
struct DeviceSt;
using Device = DeviceSt*;

namespace {

constexpr int kClockSm = 1;
constexpr int kClockMem = 2;
constexpr int kTemperatureGpu = 0;

}  // namespace

struct Session::Api {
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  Return (*by_bus_id)(const char*, Device*) = nullptr;
  Return (*clock)(Device, int, unsigned*) = nullptr;
  Return (*max_clock)(Device, int, unsigned*) = nullptr;
  Return (*app_clock)(Device, int, unsigned*) = nullptr;
  Return (*reasons)(Device, unsigned long long*) = nullptr;
  Return (*power)(Device, unsigned*) = nullptr;
  Return (*power_limit)(Device, unsigned*) = nullptr;
  Return (*temperature)(Device, int, unsigned*) = nullptr;
  Return (*driver)(char*, unsigned) = nullptr;
  Return (*energy)(Device, unsigned long long*) = nullptr;
  bool initialised = false;
};

Session::Session(const std::string& pci_bus_id) : api_(std::make_unique<Api>()) {
  const libs::Library& lib = libs::nvml();
  if (!lib.handle) {
    reason_ = "NVML not loadable: " + lib.reason;
    return;
  }
  auto bind = [&](auto& f, const char* name) {
    f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib.handle, name));
  };
  Api& a = *api_;
  bind(a.init, "nvmlInit_v2");
  bind(a.shutdown, "nvmlShutdown");
  bind(a.by_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  bind(a.clock, "nvmlDeviceGetClockInfo");
  bind(a.max_clock, "nvmlDeviceGetMaxClockInfo");
  bind(a.app_clock, "nvmlDeviceGetApplicationsClock");
  bind(a.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!a.reasons) bind(a.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  bind(a.power, "nvmlDeviceGetPowerUsage");
  bind(a.power_limit, "nvmlDeviceGetPowerManagementLimit");
  bind(a.temperature, "nvmlDeviceGetTemperature");
  bind(a.driver, "nvmlSystemGetDriverVersion");
  bind(a.energy, "nvmlDeviceGetTotalEnergyConsumption");
  if (!a.init || !a.by_bus_id || !a.clock) {
    reason_ = "NVML (" + lib.path + ") lacks nvmlInit_v2 or the clock queries";
    return;
  }
  if (Return r = a.init(); r != 0) {
    reason_ = "nvmlInit failed (NVML error " + std::to_string(r) + ")";
    return;
  }
  a.initialised = true;
  Device dev = nullptr;
  if (Return r = a.by_bus_id(pci_bus_id.c_str(), &dev); r != 0 || !dev) {
    reason_ = "NVML does not know PCI bus " + pci_bus_id + " (error " + std::to_string(r) + ")";
    return;
  }
  device_ = dev;
}

Session::~Session() {
  if (api_ && api_->initialised && api_->shutdown) api_->shutdown();
}

double Session::sm_clock_mhz() const {
  if (!available()) return 0;
  unsigned v = 0;
  return api_->clock(static_cast<Device>(device_), kClockSm, &v) == 0 ? v : 0.0;
}

std::optional<double> Session::energy_joules() const {
  if (!available() || !api_->energy) return std::nullopt;
  unsigned long long mj = 0;
  if (api_->energy(static_cast<Device>(device_), &mj) != 0) return std::nullopt;
  return static_cast<double>(mj) * 1e-3;
}

std::string Session::energy_reason() const {
  if (!available()) return reason_;
  if (!api_->energy) return "NVML lacks nvmlDeviceGetTotalEnergyConsumption";
  if (!energy_joules())
    return "nvmlDeviceGetTotalEnergyConsumption failed (the device has no energy counter: it "
           "needs Volta or later)";
  return "";
}

nlohmann::json Session::snapshot() const {
  if (!available()) return {{"available", false}, {"reason", reason_}};
  const Api& a = *api_;
  const auto dev = static_cast<Device>(device_);
  nlohmann::json j = {{"available", true}};
  unsigned v = 0;
  if (a.clock(dev, kClockSm, &v) == 0) j["sm_clock_mhz"] = v;
  if (a.clock(dev, kClockMem, &v) == 0) j["mem_clock_mhz"] = v;
  if (a.max_clock && a.max_clock(dev, kClockSm, &v) == 0) j["sm_clock_max_mhz"] = v;
  if (a.max_clock && a.max_clock(dev, kClockMem, &v) == 0) j["mem_clock_max_mhz"] = v;
  if (a.app_clock && a.app_clock(dev, kClockSm, &v) == 0) j["sm_applications_clock_mhz"] = v;
  if (a.power && a.power(dev, &v) == 0) j["power_w"] = v / 1000.0;
  if (a.power_limit && a.power_limit(dev, &v) == 0) j["power_limit_w"] = v / 1000.0;
  if (a.temperature && a.temperature(dev, kTemperatureGpu, &v) == 0) j["temperature_c"] = v;
  unsigned long long mask = 0;
  if (a.reasons && a.reasons(dev, &mask) == 0) {
    j["clock_event_mask"] = mask;
    j["clock_event_reasons"] = detail::clock_event_names(mask);
  }
  char version[96] = {};
  if (a.driver && a.driver(version, sizeof version) == 0) j["driver_version"] = version;
  return j;
}

ClockSampler::ClockSampler(const Session& session) : session_(session) {
  if (session_.available()) {
    const EndingSignalsHeld held;  // the sampler never takes the signals that end a command
    thread_ = std::thread([this] { loop(); });
  }
}

ClockSampler::~ClockSampler() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void ClockSampler::begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  samples_.clear();
  energy_.reset();
  energy_start_ = session_.energy_joules();
  energy_start_time_ = std::chrono::steady_clock::now();
  active_ = true;
}

void ClockSampler::want_snapshot() {
  std::lock_guard<std::mutex> lock(mutex_);
  snapshot_ = nullptr;
  want_snapshot_ = true;
}

void ClockSampler::end() {
  active_ = false;
  std::lock_guard<std::mutex> lock(mutex_);  // waits for a sample being taken
  const auto e1 = session_.energy_joules();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - energy_start_time_).count();
  if (energy_start_ && e1 && *e1 >= *energy_start_ && seconds > 0)
    energy_ = EnergyUnderLoad{*e1 - *energy_start_, seconds};
}

std::optional<EnergyUnderLoad> ClockSampler::energy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return energy_;
}

std::vector<double> ClockSampler::samples() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return samples_;
}

nlohmann::json ClockSampler::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return snapshot_;
}

void ClockSampler::loop() {
  while (!stop_) {
    if (active_) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (active_) {
        if (const double mhz = session_.sm_clock_mhz(); mhz > 0) samples_.push_back(mhz);
        if (want_snapshot_ && samples_.size() >= 5) {
          snapshot_ = session_.snapshot();
          want_snapshot_ = false;
        }
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace roofline::cuda::nvml
