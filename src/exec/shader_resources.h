// Creates every resource a shader's interface asks for (descriptor set
// layouts, pipeline layout, buffers, textures, samplers, push constants),
// fills them from ResourceSpec or the deterministic pattern, and writes the
// descriptor sets. Shared by the graphics and compute paths.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "exec/resource_arena.h"
#include "exec/runner.h"
#include "exec/shader_interface.h"

namespace sluice::exec {

struct BoundStorageBuffer {
  HostBuffer buffer;
  uint32_t set = 0, binding = 0, array_element = 0;
  std::string name;
  std::vector<ScalarSlot> slots;
  std::vector<uint8_t> initial;  // the contents bound, to tell whether the run wrote it
};

struct BoundResources {
  VkPipelineLayout layout = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;  // indexed by set number; empty sets included
  std::vector<uint8_t> push_constants;
  VkShaderStageFlags push_stages = 0;
  std::vector<BoundStorageBuffer> storage_buffers;
};

// `cmd` receives image uploads; `stages` are the shader stages that see the
// resources; `consumer_stages` the pipeline stages that read them.
Result<BoundResources> bind_shader_resources(ResourceArena& arena, VkCommandBuffer cmd, const SpirvModule& module,
                                             const ShaderInterface& iface, const ResourceSpec& spec,
                                             VkShaderStageFlags stages, VkPipelineStageFlags consumer_stages);

// Records binding `bound`'s descriptor sets and push constants for the
// pipeline bound at `point` (after vkCmdBindPipeline).
void record_bindings(VkCommandBuffer cmd, VkPipelineBindPoint point, const BoundResources& bound);

// Copies the storage buffers' contents out after the run.
std::vector<BufferData> read_storage_buffers(const BoundResources& bound);

}  // namespace sluice::exec
