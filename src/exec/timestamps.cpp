#include "exec/timestamps.h"

#include <vulkan/vulkan.h>

#include "exec/vulkan_error.h"

namespace sluice::exec {

Result<TimestampQueries> TimestampQueries::create(VulkanContext& ctx, std::uint32_t runs) {
  std::uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical_device(), &families, nullptr);
  std::vector<VkQueueFamilyProperties> props(families);
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical_device(), &families, props.data());
  if (ctx.queue_family() >= families || props[ctx.queue_family()].timestampValidBits == 0 ||
      ctx.properties().limits.timestampPeriod <= 0)
    return Error{"the device's queue cannot write timestamps"};
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2 * runs;
  VkQueryPool pool = VK_NULL_HANDLE;
  SLUICE_VK_TRY(vkCreateQueryPool(ctx.device(), &info, nullptr, &pool));
  return TimestampQueries(ctx, pool, runs);
}

TimestampQueries::TimestampQueries(TimestampQueries&& other) noexcept
    : ctx_(other.ctx_), pool_(other.pool_), runs_(other.runs_) {
  other.pool_ = VK_NULL_HANDLE;
}

TimestampQueries::~TimestampQueries() {
  // After a timeout the pool may still be written: leak it (vulkan_context.h).
  if (pool_ != VK_NULL_HANDLE && !ctx_->abandoned()) vkDestroyQueryPool(ctx_->device(), pool_, nullptr);
}

void TimestampQueries::reset(VkCommandBuffer cmd) const { vkCmdResetQueryPool(cmd, pool_, 0, 2 * runs_); }

void TimestampQueries::begin(VkCommandBuffer cmd, std::uint32_t run) const {
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool_, 2 * run);
}

void TimestampQueries::end(VkCommandBuffer cmd, std::uint32_t run) const {
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 2 * run + 1);
}

Result<std::vector<double>> TimestampQueries::milliseconds(std::uint32_t first) const {
  std::vector<std::uint64_t> ticks(2 * runs_);
  SLUICE_VK_TRY(vkGetQueryPoolResults(ctx_->device(), pool_, 0, 2 * runs_, ticks.size() * sizeof(std::uint64_t),
                                      ticks.data(), sizeof(std::uint64_t),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  const double period_ns = ctx_->properties().limits.timestampPeriod;
  std::vector<double> ms;
  for (std::uint32_t r = first; r < runs_; ++r)
    ms.push_back(static_cast<double>(ticks[2 * r + 1] - ticks[2 * r]) * period_ns / 1e6);
  return ms;
}

void barrier_between_runs(VkCommandBuffer cmd, VkPipelineStageFlags stages, VkAccessFlags writes) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = writes;
  b.dstAccessMask = writes | VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &b, 0, nullptr, 0, nullptr);
}

}  // namespace sluice::exec
