// Runs many fleshed compute shaders in one Vulkan submission: one pipeline
// per shader, all dispatches recorded into one command buffer, each with
// its own descriptor set pointing at its own aligned region of one shared
// directions buffer and one shared output buffer. The paper measured about
// 18 tests/s on Mesa and 4.7 on NVIDIA with a submission (and buffer
// copies) per test (Klimis et al., POPL 2023, §6.2); batching amortises the
// submission, the fence wait and the buffer mapping over the whole batch.
//
// Every shader must declare the fleshing interface (flesh.h): set 0,
// binding 0 the directions, binding 1 the output, both storage buffers.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "exec/vulkan_context.h"
#include "ir/result.h"

namespace sluice::flesh {

struct BatchJob {
  std::span<const std::uint32_t> spirv;
  std::span<const std::uint32_t> directions;
  std::uint32_t output_words = 0;
  std::uint32_t groups = 1;    // workgroups along x
  std::uint32_t groups_y = 1;  // along y: a bundle's tests (bundle.h)
};

struct BatchResult {
  // Per job: its output words, or why it could not run (e.g. the driver
  // refused to create its pipeline).
  std::vector<Result<std::vector<std::uint32_t>>> outputs;
};

// A Result error means the submission as a whole failed (a timeout or a
// lost device: the context is unusable afterwards).
Result<BatchResult> run_batch(exec::VulkanContext& context, const std::vector<BatchJob>& jobs);

}  // namespace sluice::flesh
