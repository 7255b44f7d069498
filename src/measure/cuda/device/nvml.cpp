// NVML through dlopen. The toolkit ships no nvml.h here, so the few entry points used are
// declared below from NVML's stable C ABI (nvml.h: nvmlReturn_t is an int, 0 = success; clock
// types NVML_CLOCK_GRAPHICS 0, NVML_CLOCK_SM 1, NVML_CLOCK_MEM 2; NVML_TEMPERATURE_GPU 0).
#include "measure/cuda/device/nvml.hpp"

#include <dlfcn.h>

#include <cstdint>

#include "measure/cuda/internal.hpp"

namespace roofline::cuda::nvml {

namespace {

using Return = int;
struct DeviceSt;
using Device = DeviceSt*;

constexpr int kClockSm = 1;
constexpr int kClockMem = 2;
constexpr int kTemperatureGpu = 0;

class Library {
 public:
  Library() {
    handle_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
      const char* e = dlerror();
      reason_ = std::string("NVML not loadable: ") + (e ? e : "libnvidia-ml.so.1 not found");
      return;
    }
    bind(init_, "nvmlInit_v2");
    bind(shutdown_, "nvmlShutdown");
    bind(by_bus_id_, "nvmlDeviceGetHandleByPciBusId_v2");
    bind(clock_, "nvmlDeviceGetClockInfo");
    bind(max_clock_, "nvmlDeviceGetMaxClockInfo");
    bind(app_clock_, "nvmlDeviceGetApplicationsClock");
    bind(reasons_, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons_) bind(reasons_, "nvmlDeviceGetCurrentClocksThrottleReasons");
    bind(power_, "nvmlDeviceGetPowerUsage");
    bind(power_limit_, "nvmlDeviceGetPowerManagementLimit");
    bind(temperature_, "nvmlDeviceGetTemperature");
    bind(driver_, "nvmlSystemGetDriverVersion");
    if (!init_ || !by_bus_id_ || !clock_) reason_ = "NVML lacks nvmlInit_v2 or clock queries";
  }
  ~Library() {
    if (handle_) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  nlohmann::json snapshot(const std::string& bus_id) {
    if (!reason_.empty()) return {{"available", false}, {"reason", reason_}};
    if (Return r = init_(); r != 0)
      return {{"available", false},
              {"reason", "nvmlInit failed (NVML error " + std::to_string(r) + ")"}};
    nlohmann::json j = {{"available", true}};
    Device dev = nullptr;
    if (Return r = by_bus_id_(bus_id.c_str(), &dev); r != 0) {
      j = {{"available", false},
           {"reason",
            "NVML does not know PCI bus " + bus_id + " (error " + std::to_string(r) + ")"}};
    } else {
      unsigned v = 0;
      if (clock_(dev, kClockSm, &v) == 0) j["sm_clock_mhz"] = v;
      if (clock_(dev, kClockMem, &v) == 0) j["mem_clock_mhz"] = v;
      if (max_clock_ && max_clock_(dev, kClockSm, &v) == 0) j["sm_clock_max_mhz"] = v;
      if (max_clock_ && max_clock_(dev, kClockMem, &v) == 0) j["mem_clock_max_mhz"] = v;
      if (app_clock_ && app_clock_(dev, kClockSm, &v) == 0) j["sm_applications_clock_mhz"] = v;
      if (power_ && power_(dev, &v) == 0) j["power_w"] = v / 1000.0;
      if (power_limit_ && power_limit_(dev, &v) == 0) j["power_limit_w"] = v / 1000.0;
      if (temperature_ && temperature_(dev, kTemperatureGpu, &v) == 0) j["temperature_c"] = v;
      unsigned long long mask = 0;
      if (reasons_ && reasons_(dev, &mask) == 0) {
        j["clock_event_mask"] = mask;
        j["clock_event_reasons"] = detail::clock_event_names(mask);
      }
      char version[96] = {};
      if (driver_ && driver_(version, sizeof version) == 0) j["driver_version"] = version;
    }
    if (shutdown_) shutdown_();
    return j;
  }

 private:
  template <class F>
  void bind(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(handle_, name));
  }

  void* handle_ = nullptr;
  std::string reason_;
  Return (*init_)() = nullptr;
  Return (*shutdown_)() = nullptr;
  Return (*by_bus_id_)(const char*, Device*) = nullptr;
  Return (*clock_)(Device, int, unsigned*) = nullptr;
  Return (*max_clock_)(Device, int, unsigned*) = nullptr;
  Return (*app_clock_)(Device, int, unsigned*) = nullptr;
  Return (*reasons_)(Device, unsigned long long*) = nullptr;
  Return (*power_)(Device, unsigned*) = nullptr;
  Return (*power_limit_)(Device, unsigned*) = nullptr;
  Return (*temperature_)(Device, int, unsigned*) = nullptr;
  Return (*driver_)(char*, unsigned) = nullptr;
};

}  // namespace

nlohmann::json snapshot(const std::string& pci_bus_id) {
  Library lib;
  return lib.snapshot(pci_bus_id);
}

}  // namespace roofline::cuda::nvml
