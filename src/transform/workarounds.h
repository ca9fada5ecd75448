// Driver workarounds, the ANGLE way: named rewrites of valid IR into a
// shape a particular driver runs correctly, each documented in
// docs/workarounds.md with the driver, the reduced shader, the rewrite and
// the evidence. `sluice compile` applies none unless asked
// (--workarounds=LIST|all); `render` and `xcheck` pick those of the device
// they run on (--workarounds=auto, their default).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::transform {

// What `auto` knows of a device (VkPhysicalDeviceProperties).
struct DeviceIdentity {
  std::uint32_t vendor_id = 0;  // PCI vendor: 0x10DE NVIDIA, 0x10005 Mesa (VK_VENDOR_ID_MESA: lavapipe)
  std::uint32_t driver_version = 0;
};

struct Workaround {
  std::string_view name;  // also the pass name (--passes) of its rewrite, when it is an IR rewrite
  std::string_view summary;
  std::uint32_t vendor_id;  // the devices `auto` applies it to
};

// Workarounds done by the SPIR-V output, not by an IR rewrite: the output's
// SSA promotion leaves in memory the variables that would need an OpPhi in
// a switch case entered by fall-through inside a loop
// (spirv::Options::fall_through_in_memory), or the vector variables that
// would need one in a loop header (spirv::Options::loop_vectors_in_memory),
// and a loop's one-block body is not its own continue target
// (spirv::Options::loop_latch); the pipeline sets the option when the name
// is selected. No pass of these names exists.
inline constexpr std::string_view kFallThroughInMemory = "fall-through-in-memory";
inline constexpr std::string_view kLoopVectorsInMemory = "loop-vectors-in-memory";
inline constexpr std::string_view kLoopLatch = "loop-latch";
// An IR rewrite (reload_uniforms_in_loops) whose output option
// (spirv::Options::uniform_loads_in_loops) the pipeline sets too.
inline constexpr std::string_view kReloadUniformsInLoops = "reload-uniforms-in-loops";

// Every workaround, in the order they run.
std::span<const Workaround> workarounds();

// "none", "all", "auto" (with the device) or "a,b": the names to apply.
// Unknown names, and "auto" without a device, are errors.
Result<std::vector<std::string>> select_workarounds(std::string_view spec, const DeviceIdentity* device);

// Runs the named workarounds' IR rewrites, in registry order (the SPIR-V
// output's, kFallThroughInMemory, kLoopVectorsInMemory and kLoopLatch, are the
// caller's to pass on).
Result<bool> apply_workarounds(ir::Module& m, std::span<const std::string> names);

}  // namespace sluice::transform
