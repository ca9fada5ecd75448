// Resource creation and descriptor writing for one shader interface.
#include "exec/shader_resources.h"

#include <algorithm>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "exec/data_pattern.h"
#include "exec/pattern_textures.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {
namespace {

VkDescriptorType vk_descriptor_type(DescriptorKind kind) {
  switch (kind) {
    case DescriptorKind::UniformBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    case DescriptorKind::StorageBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    case DescriptorKind::CombinedImageSampler: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case DescriptorKind::SampledImage: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    case DescriptorKind::StorageImage: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case DescriptorKind::Sampler: return VK_DESCRIPTOR_TYPE_SAMPLER;
    case DescriptorKind::UniformTexelBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case DescriptorKind::StorageTexelBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
  }
  return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
}

// Nearest filtering and repeat addressing: results do not depend on the
// device's filtering precision. Shadow samplers compare with LESS_OR_EQUAL.
Result<VkSampler> make_sampler(ResourceArena& arena, bool compare) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = VK_FILTER_NEAREST;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  info.maxLod = 0.0f;
  info.compareEnable = compare ? VK_TRUE : VK_FALSE;
  info.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  return arena.sampler(info);
}

// Buffer contents: the caller's bytes if given, else the pattern.
Result<HostBuffer> make_buffer(ResourceArena& arena, const SpirvModule& module, const DescriptorBinding& b,
                               uint32_t element, const ResourceSpec& spec, std::vector<ScalarSlot>& slots) {
  const bool storage = b.kind == DescriptorKind::StorageBuffer;
  const BlockLayout layout = block_layout(module, b.block_type, storage ? spec.runtime_array_length : 0);
  uint64_t size = layout.static_size + (storage ? layout.runtime_stride * spec.runtime_array_length : 0);
  const BufferInit* init = nullptr;
  for (const auto& candidate : spec.buffers)
    if (candidate.set == b.set && candidate.binding == b.binding) init = &candidate;
  if (init) size = std::max<uint64_t>(size, init->bytes.size());
  size = std::max<uint64_t>((size + 15) / 16 * 16, 16);
  if (!storage && size > arena.context().properties().limits.maxUniformBufferRange)
    return Error{fmt::format("uniform buffer '{}' needs {} bytes, more than the device allows", b.name, size)};

  auto buffer = arena.host_buffer(size, storage ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  if (!buffer) return buffer;
  auto* bytes = static_cast<uint8_t*>(buffer->mapped);
  if (init)
    std::memcpy(bytes, init->bytes.data(), init->bytes.size());
  else
    fill_scalar_pattern({bytes, static_cast<size_t>(size)}, layout.slots, spec.seed,
                        descriptor_stream(b.set, b.binding, element));
  slots = layout.slots;
  // A runtime array made longer by the caller's data is compared in full.
  if (init && layout.runtime_stride && size > layout.static_size) {
    const uint32_t n = static_cast<uint32_t>((size - layout.static_size) / layout.runtime_stride);
    slots = block_layout(module, b.block_type, n).slots;
  }
  return buffer;
}

}  // namespace

Result<BoundResources> bind_shader_resources(ResourceArena& arena, VkCommandBuffer cmd, const SpirvModule& module,
                                             const ShaderInterface& iface, const ResourceSpec& spec,
                                             VkShaderStageFlags stages, VkPipelineStageFlags consumer_stages) {
  BoundResources bound;
  VkDevice device = arena.device();

  // Set layouts, one per set number up to the highest used.
  uint32_t set_count = 0;
  for (const auto& b : iface.bindings) set_count = std::max(set_count, b.set + 1);
  std::vector<std::vector<VkDescriptorSetLayoutBinding>> layout_bindings(set_count);
  std::map<VkDescriptorType, uint32_t> type_counts;
  for (const auto& b : iface.bindings) {
    VkDescriptorSetLayoutBinding lb{};
    lb.binding = b.binding;
    lb.descriptorType = vk_descriptor_type(b.kind);
    lb.descriptorCount = b.count;
    lb.stageFlags = stages;
    layout_bindings[b.set].push_back(lb);
    type_counts[lb.descriptorType] += b.count;
  }
  std::vector<VkDescriptorSetLayout> set_layouts;
  for (const auto& lbs : layout_bindings) {
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = static_cast<uint32_t>(lbs.size());
    info.pBindings = lbs.data();
    auto layout = arena.descriptor_set_layout(info);
    if (!layout) return layout.failure();
    set_layouts.push_back(*layout);
  }

  // Push constants.
  VkPushConstantRange range{stages, 0, iface.push_constant_size};
  if (iface.push_constant_size > 0) {
    if (iface.push_constant_size > arena.context().properties().limits.maxPushConstantsSize)
      return Error{fmt::format("the push-constant block needs {} bytes, more than the device's {}",
                               iface.push_constant_size, arena.context().properties().limits.maxPushConstantsSize)};
    bound.push_constants.assign(iface.push_constant_size, 0);
    if (spec.push_constants) {
      std::copy_n(spec.push_constants->begin(), std::min(spec.push_constants->size(), bound.push_constants.size()),
                  bound.push_constants.begin());
    } else {
      const BlockLayout layout = block_layout(module, iface.push_constant_type, 0);
      fill_scalar_pattern(bound.push_constants, layout.slots, spec.seed, push_constant_stream());
    }
    bound.push_stages = stages;
  }

  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = static_cast<uint32_t>(set_layouts.size());
  pl.pSetLayouts = set_layouts.data();
  pl.pushConstantRangeCount = iface.push_constant_size > 0 ? 1 : 0;
  pl.pPushConstantRanges = &range;
  auto pipeline_layout = arena.pipeline_layout(pl);
  if (!pipeline_layout) return pipeline_layout.failure();
  bound.layout = *pipeline_layout;
  if (set_count == 0) return bound;

  std::vector<VkDescriptorPoolSize> sizes;
  for (const auto& [type, count] : type_counts) sizes.push_back({type, count});
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = set_count;
  pool_info.poolSizeCount = static_cast<uint32_t>(sizes.size());
  pool_info.pPoolSizes = sizes.data();
  auto pool = arena.descriptor_pool(pool_info);
  if (!pool) return pool.failure();
  bound.sets.resize(set_count);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = *pool;
  alloc.descriptorSetCount = set_count;
  alloc.pSetLayouts = set_layouts.data();
  SLUICE_VK_TRY(vkAllocateDescriptorSets(device, &alloc, bound.sets.data()));

  // Resources and descriptor writes; the info arrays must outlive the update.
  std::vector<std::vector<VkDescriptorBufferInfo>> buffer_infos;
  std::vector<std::vector<VkDescriptorImageInfo>> image_infos;
  std::vector<std::vector<VkBufferView>> texel_views;
  std::vector<VkWriteDescriptorSet> writes;
  buffer_infos.reserve(iface.bindings.size());
  image_infos.reserve(iface.bindings.size());
  texel_views.reserve(iface.bindings.size());
  for (const auto& b : iface.bindings) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = bound.sets[b.set];
    w.dstBinding = b.binding;
    w.descriptorCount = b.count;
    w.descriptorType = vk_descriptor_type(b.kind);
    const bool storage_image = b.kind == DescriptorKind::StorageImage;
    switch (b.kind) {
      case DescriptorKind::UniformBuffer:
      case DescriptorKind::StorageBuffer: {
        auto& infos = buffer_infos.emplace_back();
        for (uint32_t e = 0; e < b.count; ++e) {
          std::vector<ScalarSlot> slots;
          auto buffer = make_buffer(arena, module, b, e, spec, slots);
          if (!buffer) return buffer.failure();
          infos.push_back({buffer->buffer, 0, VK_WHOLE_SIZE});
          if (b.kind == DescriptorKind::StorageBuffer) {
            const auto* initial = static_cast<const uint8_t*>(buffer->mapped);
            bound.storage_buffers.push_back({*buffer, b.set, b.binding, e, b.name, std::move(slots),
                                             std::vector<uint8_t>(initial, initial + buffer->size)});
          }
        }
        w.pBufferInfo = infos.data();
        break;
      }
      case DescriptorKind::CombinedImageSampler:
      case DescriptorKind::SampledImage:
      case DescriptorKind::StorageImage:
      case DescriptorKind::Sampler: {
        auto& infos = image_infos.emplace_back();
        for (uint32_t e = 0; e < b.count; ++e) {
          VkDescriptorImageInfo info{};
          if (b.kind != DescriptorKind::Sampler) {
            auto image = create_pattern_image(arena, cmd, b.image, storage_image, spec.texture_size, consumer_stages);
            if (!image) return image.failure().prefixed(fmt::format("'{}' (set {}, binding {}): ", b.name, b.set, b.binding));
            info.imageView = image->view;
            info.imageLayout = storage_image ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
          }
          if (b.kind == DescriptorKind::CombinedImageSampler || b.kind == DescriptorKind::Sampler) {
            auto sampler = make_sampler(arena, b.kind == DescriptorKind::CombinedImageSampler && b.image.depth);
            if (!sampler) return sampler.failure();
            info.sampler = *sampler;
          }
          infos.push_back(info);
        }
        w.pImageInfo = infos.data();
        break;
      }
      case DescriptorKind::UniformTexelBuffer:
      case DescriptorKind::StorageTexelBuffer: {
        auto& views = texel_views.emplace_back();
        for (uint32_t e = 0; e < b.count; ++e) {
          auto view = create_pattern_texel_buffer(arena, b.image, b.kind == DescriptorKind::StorageTexelBuffer,
                                                  spec.texture_size);
          if (!view) return view.failure().prefixed(fmt::format("'{}' (set {}, binding {}): ", b.name, b.set, b.binding));
          views.push_back(*view);
        }
        w.pTexelBufferView = views.data();
        break;
      }
    }
    writes.push_back(w);
  }
  vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return bound;
}

std::vector<BufferData> read_storage_buffers(const BoundResources& bound) {
  std::vector<BufferData> out;
  for (const auto& sb : bound.storage_buffers) {
    BufferData data;
    data.set = sb.set;
    data.binding = sb.binding;
    data.array_element = sb.array_element;
    data.name = sb.name;
    const auto* bytes = static_cast<const uint8_t*>(sb.buffer.mapped);
    data.bytes.assign(bytes, bytes + sb.buffer.size);
    data.slots = sb.slots;
    data.written = data.bytes != sb.initial;
    out.push_back(std::move(data));
  }
  return out;
}

void record_bindings(VkCommandBuffer cmd, VkPipelineBindPoint point, const BoundResources& bound) {
  if (!bound.sets.empty())
    vkCmdBindDescriptorSets(cmd, point, bound.layout, 0, static_cast<uint32_t>(bound.sets.size()), bound.sets.data(), 0,
                            nullptr);
  if (!bound.push_constants.empty())
    vkCmdPushConstants(cmd, bound.layout, bound.push_stages, 0, static_cast<uint32_t>(bound.push_constants.size()),
                       bound.push_constants.data());
}

}  // namespace sluice::exec
