// GPU time of repeated draws or dispatches (`sluice bench-run`): a
// timestamp query pool with two queries per run, written around each run
// in the command buffer (vkCmdWriteTimestamp at the top and the bottom of
// the pipeline; Vulkan 1.3 §18.5, "Timestamp Queries"), read back after the
// submission and converted with the device's timestampPeriod.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "exec/vulkan_context.h"
#include "ir/result.h"

namespace sluice::exec {

// How often a timed run repeats its draw or dispatch: `warmup` untimed
// runs first, then `repeats` timed ones (0: one plain run, nothing timed).
struct Timing {
  std::uint32_t warmup = 0;
  std::uint32_t repeats = 0;
  std::uint32_t runs() const { return repeats ? warmup + repeats : 1; }
};

class TimestampQueries {
 public:
  // A pool for `runs` runs; fails when the queue cannot write timestamps.
  static Result<TimestampQueries> create(VulkanContext& ctx, std::uint32_t runs);
  TimestampQueries(TimestampQueries&& other) noexcept;
  TimestampQueries& operator=(TimestampQueries&&) = delete;
  ~TimestampQueries();

  void reset(VkCommandBuffer cmd) const;
  void begin(VkCommandBuffer cmd, std::uint32_t run) const;
  void end(VkCommandBuffer cmd, std::uint32_t run) const;
  // After the submission: milliseconds of the runs from `first` on.
  Result<std::vector<double>> milliseconds(std::uint32_t first) const;

 private:
  TimestampQueries(VulkanContext& ctx, VkQueryPool pool, std::uint32_t runs) : ctx_(&ctx), pool_(pool), runs_(runs) {}
  VulkanContext* ctx_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  std::uint32_t runs_ = 0;
};

// A barrier between two runs: the next starts after the last one's writes.
void barrier_between_runs(VkCommandBuffer cmd, VkPipelineStageFlags stages, VkAccessFlags writes);

}  // namespace sluice::exec
