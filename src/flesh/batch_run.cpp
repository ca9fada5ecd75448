#include "flesh/batch_run.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "exec/resource_arena.h"
#include "exec/vulkan_error.h"

namespace sluice::flesh {

Result<BatchResult> run_batch(exec::VulkanContext& ctx, const std::vector<BatchJob>& jobs) {
  BatchResult result;
  if (!ctx.unusable_reason().empty()) return Error{ctx.unusable_reason(), ErrorCode::Environment};
  if (jobs.empty()) return result;
  exec::ResourceArena arena(ctx);
  const VkDeviceSize align = std::max<VkDeviceSize>(16, ctx.properties().limits.minStorageBufferOffsetAlignment);
  auto round = [&](VkDeviceSize v) { return (v + align - 1) / align * align; };
  std::vector<VkDeviceSize> dir_at, out_at;
  VkDeviceSize dir_size = 0, out_size = 0;
  for (const BatchJob& j : jobs) {
    dir_at.push_back(dir_size);
    dir_size += round(std::max<VkDeviceSize>(4, j.directions.size_bytes()));
    out_at.push_back(out_size);
    out_size += round(std::max<VkDeviceSize>(4, VkDeviceSize(j.output_words) * 4));
  }
  auto dirs = arena.host_buffer(dir_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  if (!dirs) return dirs.failure();
  auto outs = arena.host_buffer(out_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  if (!outs) return outs.failure();
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (!jobs[i].directions.empty())
      std::memcpy(static_cast<char*>(dirs->mapped) + dir_at[i], jobs[i].directions.data(), jobs[i].directions.size_bytes());

  VkDescriptorSetLayoutBinding bindings[2]{};
  for (std::uint32_t b = 0; b < 2; ++b) {
    bindings[b].binding = b;
    bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 2;
  set_info.pBindings = bindings;
  auto set_layout = arena.descriptor_set_layout(set_info);
  if (!set_layout) return set_layout.failure();
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &*set_layout;
  auto layout = arena.pipeline_layout(layout_info);
  if (!layout) return layout.failure();
  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<std::uint32_t>(2 * jobs.size())};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = static_cast<std::uint32_t>(jobs.size());
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  auto pool = arena.descriptor_pool(pool_info);
  if (!pool) return pool.failure();

  auto cmd = arena.command_buffer();
  if (!cmd) return cmd.failure();
  std::vector<bool> recorded(jobs.size(), false);
  result.outputs.reserve(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    result.outputs.emplace_back(std::vector<std::uint32_t>{});
    auto shader = arena.shader_module(jobs[i].spirv);
    if (!shader) {
      result.outputs.back() = shader.failure();
      continue;
    }
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = *shader;
    info.stage.pName = "main";
    info.layout = *layout;
    auto pipeline = arena.compute_pipeline(info);
    if (!pipeline) {
      result.outputs.back() = pipeline.failure().prefixed("creating the compute pipeline: ");
      continue;
    }
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = *pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &*set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    SLUICE_VK_TRY(vkAllocateDescriptorSets(ctx.device(), &alloc, &set));
    VkDescriptorBufferInfo buffers[2]{
        {dirs->buffer, dir_at[i], std::max<VkDeviceSize>(4, jobs[i].directions.size_bytes())},
        {outs->buffer, out_at[i], std::max<VkDeviceSize>(4, VkDeviceSize(jobs[i].output_words) * 4)}};
    VkWriteDescriptorSet writes[2]{};
    for (std::uint32_t b = 0; b < 2; ++b) {
      writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[b].dstSet = set;
      writes[b].dstBinding = b;
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[b].pBufferInfo = &buffers[b];
    }
    vkUpdateDescriptorSets(ctx.device(), 2, writes, 0, nullptr);
    vkCmdBindPipeline(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, *pipeline);
    vkCmdBindDescriptorSets(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, *layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(*cmd, std::max(1u, jobs[i].groups), std::max(1u, jobs[i].groups_y), 1);
    recorded[i] = true;
  }
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(*cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                       nullptr, 0, nullptr);
  SLUICE_VK_TRY(vkEndCommandBuffer(*cmd));
  auto submitted = ctx.submit_and_wait(*cmd);
  if (!submitted) return submitted.failure();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!recorded[i]) continue;
    std::vector<std::uint32_t> words(jobs[i].output_words);
    std::memcpy(words.data(), static_cast<const char*>(outs->mapped) + out_at[i], words.size() * 4);
    result.outputs[i] = std::move(words);
  }
  return result;
}

}  // namespace sluice::flesh
