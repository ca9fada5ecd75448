// The shader runner: executes any SPIR-V fragment or compute shader on a
// Vulkan device without a window and returns what it produced.
//
//   auto runner = sluice::exec::Runner::create({});          // lavapipe
//   auto out = runner->draw_fragment(spirv, {.width = 64, .height = 64});
//   // out->images[0] is location 0, RGBA floats, top row first
//
// Resources the shader declares (uniform and storage buffers, push constants,
// textures, samplers, storage images, texel buffers) are created from its
// SPIR-V and filled with deterministic data (data_pattern.h) unless the
// caller supplies buffer contents in ResourceSpec.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "exec/block_layout.h"
#include "exec/shader_interface.h"
#include "exec/timestamps.h"
#include "exec/vulkan_context.h"
#include "ir/result.h"

namespace sluice::exec {

// One colour output location after a draw.
struct Image {
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t location = 0;
  ScalarKind kind = ScalarKind::Float;
  uint32_t components = 4;  // components the shader declares at this location (1-4)
  // width * height RGBA values, row 0 at the top (gl_FragCoord.y = 0.5).
  // Components the shader does not write read 0, alpha 1. Integer outputs are
  // converted here for display; integer_rgba holds their exact values.
  std::vector<float> rgba;
  std::vector<uint32_t> integer_rgba;  // filled only for Int and Uint images

  float at(uint32_t x, uint32_t y, uint32_t channel) const {
    return rgba[(static_cast<size_t>(y) * width + x) * 4 + channel];
  }
};

// The contents of one storage buffer after a run.
struct BufferData {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t array_element = 0;
  std::string name;
  std::vector<uint8_t> bytes;
  std::vector<ScalarSlot> slots;  // where each scalar of the block lies, for comparison
  // False when the run left the buffer as it was bound (its contents then
  // say nothing about the shader; a variant that does not declare the
  // buffer at all, e.g. after remove-unused-interface, compares equal).
  bool written = true;
};

struct RunOutput {
  std::vector<Image> images;                // fragment outputs, by location
  std::vector<BufferData> storage_buffers;  // by (set, binding, element)
  std::vector<double> milliseconds;         // timed runs (Timing): GPU time of each repeat
};

// Caller-supplied contents for one buffer binding (every element of an
// arrayed binding). Shorter data is zero-padded to the size the shader
// declares; longer data makes the buffer longer.
struct BufferInit {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::vector<uint8_t> bytes;
};

struct ResourceSpec {
  uint64_t seed = 1;
  std::vector<BufferInit> buffers;
  std::optional<std::vector<uint8_t>> push_constants;
  uint32_t runtime_array_length = 16;  // elements of a trailing runtime array in generated buffers
  uint32_t texture_size = 8;           // width = height (= depth for 3D) of generated textures
};

enum class ColorFormat {
  Float32,  // R32G32B32A32_SFLOAT (or fewer components): exact shader output
  Unorm8,   // R8G8B8A8_UNORM: what Amber's B8G8R8A8_UNORM framebuffers hold
};

struct PixelRect {
  int32_t x = 0, y = 0;
  uint32_t width = 0, height = 0;
};

struct DrawOptions {
  uint32_t width = 256;
  uint32_t height = 256;
  std::array<float, 4> clear_color{0, 0, 0, 0};
  ColorFormat color_format = ColorFormat::Float32;
  // Draws this pixel rectangle as a 4-vertex triangle strip (Amber's
  // DRAW_RECT) instead of one full-screen triangle.
  std::optional<PixelRect> rect;
  // Repeats the render pass and times each one (timestamps.h); the images
  // read back are the last run's.
  Timing timing;
};

// One shader of a pipeline the caller assembles (Runner::draw_stages).
struct PipelineStage {
  ShaderStage stage = ShaderStage::Vertex;
  std::vector<uint32_t> spirv;
};

struct DispatchSize {
  uint32_t x = 1, y = 1, z = 1;
};

class Runner {
 public:
  static Result<Runner> create(const DeviceChoice& choice);
  static Result<Runner> create(const ContextOptions& options);
  Runner(Runner&&) noexcept;
  Runner& operator=(Runner&&) noexcept;
  ~Runner();

  // The device in use, e.g. "llvmpipe (LLVM 15.0.6, 256 bits) (device 0, cpu, ...)".
  std::string device_name() const;
  bool supports_extension(const std::string& name) const;

  // Draws with the built-in vertex shader (a full-screen triangle whose
  // outputs match the fragment shader's inputs) into one image per output
  // location, and reads everything back.
  Result<RunOutput> draw_fragment(std::span<const uint32_t> fragment_spirv, const DrawOptions& options,
                                  const ResourceSpec& resources = {});
  Result<RunOutput> draw_fragment(std::span<const uint32_t> fragment_spirv, uint32_t width, uint32_t height,
                                  const ResourceSpec& resources = {});
  // Draws with the caller's stages, in pipeline order: vertex, then
  // optionally tessellation control and evaluation (patches of 3 vertices)
  // and geometry, and fragment last, whose outputs make the images. The
  // vertex shader's inputs are fed as draw_stages' vertex_inputs describes
  // (location 0: the full-screen triangle's or the rectangle's positions);
  // the resources (ResourceSpec) are those stage `resource_stage` declares.
  // Needs the device's geometryShader / tessellationShader features.
  Result<RunOutput> draw_stages(std::span<const PipelineStage> stages, std::size_t resource_stage,
                                const DrawOptions& options, const ResourceSpec& resources = {});
  // Dispatches the compute shader and reads back its storage buffers.
  // With `timing`, the dispatch is repeated and timed (timestamps.h).
  Result<RunOutput> dispatch_compute(std::span<const uint32_t> compute_spirv, DispatchSize size,
                                     const ResourceSpec& resources = {}, Timing timing = {});

  VulkanContext& context() { return *context_; }

 private:
  explicit Runner(std::unique_ptr<VulkanContext> context);
  std::unique_ptr<VulkanContext> context_;
};

}  // namespace sluice::exec
