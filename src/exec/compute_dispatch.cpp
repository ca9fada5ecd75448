// Runner::dispatch_compute: one dispatch of a compute shader, then its
// storage buffers copied back to the host. Timed (Timing), the dispatch is
// recorded warmup + repeats times, a barrier between each two, each
// between two timestamps.
#include <optional>

#include <fmt/format.h>

#include "exec/resource_arena.h"
#include "exec/runner.h"
#include "exec/shader_resources.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {

Result<RunOutput> Runner::dispatch_compute(std::span<const uint32_t> compute_spirv, DispatchSize size,
                                           const ResourceSpec& resources, Timing timing) {
  VulkanContext& ctx = *context_;
  if (!ctx.unusable_reason().empty()) return Error{ctx.unusable_reason()};
  const auto& limits = ctx.properties().limits;
  if (size.x == 0 || size.y == 0 || size.z == 0 || size.x > limits.maxComputeWorkGroupCount[0] ||
      size.y > limits.maxComputeWorkGroupCount[1] || size.z > limits.maxComputeWorkGroupCount[2])
    return Error{fmt::format("dispatch size {}x{}x{} is outside the device's limits", size.x, size.y, size.z)};

  auto module = SpirvModule::parse(compute_spirv);
  if (!module) return module.failure();
  auto iface = reflect_interface(*module, ShaderStage::Compute);
  if (!iface) return iface.failure();

  ResourceArena arena(ctx);
  auto cmd = arena.command_buffer();
  if (!cmd) return cmd.failure();
  auto bound = bind_shader_resources(arena, *cmd, *module, *iface, resources, VK_SHADER_STAGE_COMPUTE_BIT,
                                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  if (!bound) return bound.failure();

  auto shader = arena.shader_module(compute_spirv);
  if (!shader) return shader.failure();
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = *shader;
  info.stage.pName = iface->entry_point.c_str();
  info.layout = bound->layout;
  auto pipeline = arena.compute_pipeline(info);
  if (!pipeline) return pipeline.failure().prefixed("creating the compute pipeline: ");

  std::optional<TimestampQueries> queries;
  if (timing.repeats) {
    auto q = TimestampQueries::create(ctx, timing.runs());
    if (!q) return q.failure();
    queries.emplace(std::move(*q));
    queries->reset(*cmd);
  }
  vkCmdBindPipeline(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, *pipeline);
  record_bindings(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, *bound);
  for (std::uint32_t run = 0; run < timing.runs(); ++run) {
    if (run) barrier_between_runs(*cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    if (queries) queries->begin(*cmd, run);
    vkCmdDispatch(*cmd, size.x, size.y, size.z);
    if (queries) queries->end(*cmd, run);
  }
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(*cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                       nullptr, 0, nullptr);
  SLUICE_VK_TRY(vkEndCommandBuffer(*cmd));
  SLUICE_TRY(ctx.submit_and_wait(*cmd));

  RunOutput out;
  out.storage_buffers = read_storage_buffers(*bound);
  if (queries) {
    auto ms = queries->milliseconds(timing.warmup);
    if (!ms) return ms.failure();
    out.milliseconds = std::move(*ms);
  }
  return out;
}

}  // namespace sluice::exec
