// See device_probe.h.
#include "device_probe.h"

#include <chrono>
#include <cstdio>

#include <fmt/format.h>

#include "process_pool.h"

namespace sluice::tools {

DeviceProbe probe_device(const exec::DeviceChoice& device) {
  // A probe that dies (a driver crash) leaves what the user asked for.
  DeviceProbe probe;
  probe.is_gpu = device.kind == exec::DeviceChoice::Gpu;
  run_in_children(
      1, 1, std::chrono::seconds(60),
      [&](std::size_t) {
        auto runner = exec::Runner::create(device);
        if (!runner) return "cpu 0 0\tno device: " + runner.error();
        const VkPhysicalDeviceProperties& p = runner->context().properties();
        const bool cpu = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
        return fmt::format("{} {} {}\t{}", cpu ? "cpu" : "gpu", p.vendorID, p.driverVersion, runner->device_name());
      },
      [&](std::size_t, ChildResult r) {
        if (r.died) return;
        const auto tab = r.output.find('\t');
        if (tab == std::string::npos) return;
        char kind[4] = {};
        unsigned vendor = 0, driver = 0;
        if (std::sscanf(r.output.substr(0, tab).c_str(), "%3s %u %u", kind, &vendor, &driver) != 3) return;
        probe.is_gpu = std::string(kind) == "gpu";
        probe.identity = {vendor, driver};
        const std::string rest = r.output.substr(tab + 1);
        probe.description = rest.substr(0, rest.find('\n'));
      });
  return probe;
}

}  // namespace sluice::tools
