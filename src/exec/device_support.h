// Whether the device the runner created can run a SPIR-V module: every
// OpCapability it declares must be enabled by a feature or an extension of
// the device (Vulkan 1.3 specification, appendix "SPIR-V Environment",
// section "Capabilities", which lists for each capability the feature or
// extension that allows it). Running a module that declares a capability the
// device did not enable is invalid usage, and a driver may do anything with
// it: NVIDIA's 580 driver loses the device on glslang's SPIR-V of
// spv.420.geom (EmitStreamVertex(1), capability GeometryStreams) when
// VK_EXT_transform_feedback is not enabled.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace sluice::exec {

class VulkanContext;

// Why the device cannot run `words` ("capability GeometryStreams needs
// VK_EXT_transform_feedback's geometryStreams, which the device does not
// offer"), or nothing when every capability it declares is enabled or is
// one this table does not know (those are left to the driver).
std::optional<std::string> unsupported_capability(std::span<const std::uint32_t> words, const VulkanContext& context);

}  // namespace sluice::exec
