// What device a subcommand will run on, asked in a child process so that the
// calling process never loads the Vulkan driver (xcheck forks its workers
// afterwards; a driver that crashes takes only the child). render and
// xcheck use it for --workarounds=auto and for xcheck's stop-on-hang rule.
#pragma once

#include <string>

#include "exec/runner.h"
#include "transform/workarounds.h"

namespace sluice::tools {

struct DeviceProbe {
  std::string description = "no device";
  bool is_gpu = false;  // not a CPU device such as lavapipe
  transform::DeviceIdentity identity;
};

DeviceProbe probe_device(const exec::DeviceChoice& device);

}  // namespace sluice::tools
