// The capability table of device_support.h. Capabilities every Vulkan
// implementation supports (Shader, Matrix, ImageQuery, ...) are not listed;
// neither are ones this table does not know, which are left to the driver.
#include "exec/device_support.h"

#include <spirv/unified1/spirv.hpp11>

#include <fmt/format.h>

#include "exec/spirv_module.h"
#include "exec/vulkan_context.h"

namespace sluice::exec {
namespace {

using C = ::spv::Capability;
using Feature = VkBool32 VkPhysicalDeviceFeatures::*;

struct CoreRequirement {
  C capability;
  const char* capability_name;
  Feature feature;
  const char* feature_name;
};

#define SLUICE_CORE(cap, feature) {C::cap, #cap, &VkPhysicalDeviceFeatures::feature, #feature}
const CoreRequirement kCore[] = {
    SLUICE_CORE(Geometry, geometryShader),
    SLUICE_CORE(Tessellation, tessellationShader),
    SLUICE_CORE(Float64, shaderFloat64),
    SLUICE_CORE(Int64, shaderInt64),
    SLUICE_CORE(Int16, shaderInt16),
    SLUICE_CORE(TessellationPointSize, shaderTessellationAndGeometryPointSize),
    SLUICE_CORE(GeometryPointSize, shaderTessellationAndGeometryPointSize),
    SLUICE_CORE(ImageGatherExtended, shaderImageGatherExtended),
    SLUICE_CORE(StorageImageMultisample, shaderStorageImageMultisample),
    SLUICE_CORE(UniformBufferArrayDynamicIndexing, shaderUniformBufferArrayDynamicIndexing),
    SLUICE_CORE(SampledImageArrayDynamicIndexing, shaderSampledImageArrayDynamicIndexing),
    SLUICE_CORE(StorageBufferArrayDynamicIndexing, shaderStorageBufferArrayDynamicIndexing),
    SLUICE_CORE(StorageImageArrayDynamicIndexing, shaderStorageImageArrayDynamicIndexing),
    SLUICE_CORE(ClipDistance, shaderClipDistance),
    SLUICE_CORE(CullDistance, shaderCullDistance),
    SLUICE_CORE(ImageCubeArray, imageCubeArray),
    SLUICE_CORE(SampleRateShading, sampleRateShading),
    SLUICE_CORE(InterpolationFunction, sampleRateShading),
    SLUICE_CORE(SparseResidency, shaderResourceResidency),
    SLUICE_CORE(MinLod, shaderResourceMinLod),
    SLUICE_CORE(SampledCubeArray, imageCubeArray),
    SLUICE_CORE(ImageMSArray, shaderStorageImageMultisample),
    SLUICE_CORE(StorageImageExtendedFormats, shaderStorageImageExtendedFormats),
    SLUICE_CORE(StorageImageReadWithoutFormat, shaderStorageImageReadWithoutFormat),
    SLUICE_CORE(StorageImageWriteWithoutFormat, shaderStorageImageWriteWithoutFormat),
    SLUICE_CORE(MultiViewport, multiViewport),
};
#undef SLUICE_CORE

// Capabilities that only a device extension allows, with the extension.
struct ExtensionRequirement {
  C capability;
  const char* capability_name;
  const char* extension;
};

const ExtensionRequirement kExtensions[] = {
    {C::GeometryShaderPassthroughNV, "GeometryShaderPassthroughNV", "VK_NV_geometry_shader_passthrough"},
    {C::ShaderViewportMaskNV, "ShaderViewportMaskNV", "VK_NV_viewport_array2"},
    {C::ShaderStereoViewNV, "ShaderStereoViewNV", "VK_NV_stereo_view_rendering"},
    {C::PerViewAttributesNV, "PerViewAttributesNV", "VK_NVX_multiview_per_view_attributes"},
};

constexpr std::uint32_t kOutputLineStrip = 28, kOutputTriangleStrip = 29;

}  // namespace

std::optional<std::string> unsupported_capability(std::span<const std::uint32_t> words, const VulkanContext& context) {
  // A module the runner's reader cannot parse is not this check's business:
  // creating its pipeline reports what is wrong with it.
  auto module = SpirvModule::parse(words);
  if (!module) return std::nullopt;
  bool lines_or_triangles = false;
  for (const auto& entry : module->entry_points())
    for (std::uint32_t mode : entry.execution_modes)
      lines_or_triangles |= mode == kOutputLineStrip || mode == kOutputTriangleStrip;
  for (std::uint32_t word : module->capabilities()) {
    const auto capability = static_cast<C>(word);
    for (const auto& r : kCore)
      if (r.capability == capability && !(context.features().*r.feature))
        return fmt::format("capability {} needs the feature {}, which the device does not offer", r.capability_name,
                           r.feature_name);
    for (const auto& r : kExtensions)
      if (r.capability == capability && !context.enabled_device_extension(r.extension))
        return fmt::format("capability {} needs {}, which the runner does not enable on this device",
                           r.capability_name, r.extension);
    if (capability == C::TransformFeedback && !context.transform_feedback())
      return "capability TransformFeedback needs VK_EXT_transform_feedback's transformFeedback, which the device "
             "does not offer";
    if (capability == C::GeometryStreams && !context.geometry_streams())
      return "capability GeometryStreams needs VK_EXT_transform_feedback's geometryStreams, which the device does "
             "not offer";
  }
  // VK_EXT_transform_feedback: a geometry shader that emits to several
  // streams may output lines or triangles only where
  // transformFeedbackStreamsLinesTriangles is true (points otherwise).
  if (module->has_capability(static_cast<std::uint32_t>(C::GeometryStreams)) && lines_or_triangles &&
      !context.streams_lines_triangles())
    return "a geometry shader that emits to several vertex streams (capability GeometryStreams) and outputs lines or "
           "triangles needs VK_EXT_transform_feedback's transformFeedbackStreamsLinesTriangles, which the device does "
           "not offer";
  return std::nullopt;
}

}  // namespace sluice::exec
