// Runner::draw_fragment and draw_stages: one render pass with a colour
// attachment per fragment output location, drawn with the generated vertex
// shader (or the caller's stages: vertex, optionally tessellation and
// geometry, fragment), then every attachment and storage buffer copied back
// to the host.
#include <algorithm>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "exec/resource_arena.h"
#include "exec/runner.h"
#include "exec/shader_resources.h"
#include "exec/vertex_shader.h"
#include "exec/vulkan_error.h"

namespace sluice::exec {
namespace {

struct OutputSlot {
  uint32_t location = 0;
  ScalarKind kind = ScalarKind::Float;
  uint32_t components = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t format_components = 4;
  bool unorm8 = false;
  DeviceImage image;
  HostBuffer readback;
};

// One slot per output location; arrays of outputs use consecutive ones.
Result<std::vector<OutputSlot>> output_slots(const SpirvModule& m, const ShaderInterface& iface, ColorFormat format) {
  std::vector<OutputSlot> slots;
  for (const auto& out : iface.outputs) {
    uint32_t type = out.type, n = 1;
    if (m.type(type).kind == SpirvType::Array) {
      n = m.type(type).count;
      type = m.type(type).element;
    }
    const ScalarVector sv = scalar_vector(m, type);
    if (sv.components == 0 || sv.bytes != 4)
      return Error{fmt::format("fragment output '{}' has a type the runner cannot render", out.name)};
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t location = out.location + i;
      auto it = std::find_if(slots.begin(), slots.end(), [&](const auto& s) { return s.location == location; });
      if (it == slots.end()) {
        slots.push_back({location, sv.kind, 0});
        it = slots.end() - 1;
      } else if (it->kind != sv.kind) {
        return Error{fmt::format("fragment outputs at location {} mix component types", location)};
      }
      it->components = std::max(it->components, out.component + sv.components);
    }
  }
  std::sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) { return a.location < b.location; });
  for (auto& s : slots) {
    s.format_components = s.components <= 2 ? s.components : 4;
    if (s.kind == ScalarKind::Float && format == ColorFormat::Unorm8) {
      s.format = VK_FORMAT_R8G8B8A8_UNORM;
      s.format_components = 4;
      s.unorm8 = true;
    } else {
      static const VkFormat kFloat[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT};
      static const VkFormat kInt[] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32A32_SINT};
      static const VkFormat kUint[] = {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32A32_UINT};
      const int i = s.format_components == 4 ? 2 : static_cast<int>(s.format_components) - 1;
      s.format = s.kind == ScalarKind::Int ? kInt[i] : s.kind == ScalarKind::Uint ? kUint[i] : kFloat[i];
    }
  }
  return slots;
}

Image read_image(const OutputSlot& s, uint32_t width, uint32_t height) {
  Image img;
  img.width = width;
  img.height = height;
  img.location = s.location;
  img.kind = s.kind;
  img.components = s.components;
  const size_t pixels = static_cast<size_t>(width) * height;
  img.rgba.assign(pixels * 4, 0.0f);
  const bool integer = s.kind == ScalarKind::Int || s.kind == ScalarKind::Uint;
  if (integer) img.integer_rgba.assign(pixels * 4, 0);
  const auto* bytes = static_cast<const uint8_t*>(s.readback.mapped);
  const uint32_t texel_bytes = s.unorm8 ? 4 : 4 * s.format_components;
  for (size_t p = 0; p < pixels; ++p) {
    const uint8_t* texel = bytes + p * texel_bytes;
    for (uint32_t c = 0; c < 4; ++c) {
      if (c >= s.components) {
        // Unwritten components: 0, alpha 1 (Vulkan leaves them undefined).
        img.rgba[p * 4 + c] = c == 3 ? 1.0f : 0.0f;
        if (integer) img.integer_rgba[p * 4 + c] = c == 3 ? 1 : 0;
        continue;
      }
      if (s.unorm8) {
        img.rgba[p * 4 + c] = static_cast<float>(texel[c]) / 255.0f;
      } else {
        uint32_t word;
        std::memcpy(&word, texel + 4 * c, 4);
        if (s.kind == ScalarKind::Float) {
          std::memcpy(&img.rgba[p * 4 + c], &word, 4);
        } else {
          img.integer_rgba[p * 4 + c] = word;
          img.rgba[p * 4 + c] = s.kind == ScalarKind::Int ? static_cast<float>(static_cast<int32_t>(word))
                                                          : static_cast<float>(word);
        }
      }
    }
  }
  return img;
}

VkShaderStageFlagBits vk_stage(ShaderStage s) {
  switch (s) {
    case ShaderStage::Vertex: return VK_SHADER_STAGE_VERTEX_BIT;
    case ShaderStage::Fragment: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case ShaderStage::Compute: return VK_SHADER_STAGE_COMPUTE_BIT;
    case ShaderStage::Geometry: return VK_SHADER_STAGE_GEOMETRY_BIT;
    case ShaderStage::TessControl: return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    case ShaderStage::TessEvaluation: return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
  }
  return VK_SHADER_STAGE_FRAGMENT_BIT;
}

VkPipelineStageFlags vk_pipeline_stage(ShaderStage s) {
  switch (s) {
    case ShaderStage::Vertex: return VK_PIPELINE_STAGE_VERTEX_SHADER_BIT;
    case ShaderStage::Geometry: return VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT;
    case ShaderStage::TessControl: return VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT;
    case ShaderStage::TessEvaluation: return VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT;
    case ShaderStage::Compute: return VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    case ShaderStage::Fragment: break;
  }
  return VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
}

struct VertexAttribute {
  std::uint32_t location = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  std::vector<std::uint32_t> words;  // four 32-bit values per vertex
};

struct VertexInputs {
  std::vector<VertexAttribute> attributes;
  std::uint32_t vertex_count = 0;
};

// The vertices: a triangle covering the viewport, or the rectangle's
// strip. Each 32-bit scalar or vector input of the vertex shader gets its
// own buffer: location 0 (a float vector) the position (x, y, 0, 1), the
// others values that differ per vertex, location and component (each
// vertex `repeat` times, for adjacency primitives): floats
// 0.25 * (vertex + 1) + 0.125 * location + 0.0625 * component, integers
// vertex + location + component + 1. Other inputs get no buffer (the
// pipeline then fails to build, which reports them).
VertexInputs vertex_inputs(const SpirvModule& m, const ShaderInterface& iface, const DrawOptions& options,
                           std::uint32_t repeat) {
  std::vector<float> xy;
  if (options.rect) {
    const auto& r = *options.rect;
    const float x0 = 2.0f * float(r.x) / float(options.width) - 1.0f;
    const float y0 = 2.0f * float(r.y) / float(options.height) - 1.0f;
    const float x1 = 2.0f * float(r.x + int32_t(r.width)) / float(options.width) - 1.0f;
    const float y1 = 2.0f * float(r.y + int32_t(r.height)) / float(options.height) - 1.0f;
    xy = {x0, y0, x1, y0, x0, y1, x1, y1};
  } else {
    xy = {-1, -1, 3, -1, -1, 3};
  }
  if (repeat > 1) {
    std::vector<float> repeated;
    for (std::size_t v = 0; v < xy.size() / 2; ++v)
      for (std::uint32_t r = 0; r < repeat; ++r) repeated.insert(repeated.end(), {xy[2 * v], xy[2 * v + 1]});
    xy = std::move(repeated);
  }
  VertexInputs out;
  out.vertex_count = static_cast<std::uint32_t>(xy.size() / 2);
  for (const auto& in : iface.inputs) {
    const ScalarVector sv = scalar_vector(m, in.type);
    if (sv.components == 0 || sv.bytes != 4) continue;
    static const VkFormat kFloat[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT,
                                      VK_FORMAT_R32G32B32A32_SFLOAT};
    static const VkFormat kInt[] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT,
                                    VK_FORMAT_R32G32B32A32_SINT};
    static const VkFormat kUint[] = {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32_UINT,
                                     VK_FORMAT_R32G32B32A32_UINT};
    const std::uint32_t c = std::min(sv.components, 4u) - 1;
    VertexAttribute a;
    a.location = in.location;
    a.format = sv.kind == ScalarKind::Int ? kInt[c] : sv.kind == ScalarKind::Uint ? kUint[c] : kFloat[c];
    for (std::uint32_t v = 0; v < out.vertex_count; ++v)
      for (std::uint32_t k = 0; k < 4; ++k) {
        std::uint32_t word = v + in.location + k + 1;
        if (sv.kind == ScalarKind::Float) {
          float f = 0.25f * float(v + 1) + 0.125f * float(in.location) + 0.0625f * float(k);
          if (in.location == 0) f = k < 2 ? xy[v * 2 + k] : k == 2 ? 0.0f : 1.0f;
          std::memcpy(&word, &f, 4);
        }
        a.words.push_back(word);
      }
    out.attributes.push_back(std::move(a));
  }
  return out;
}

}  // namespace

Result<RunOutput> Runner::draw_fragment(std::span<const uint32_t> fragment_spirv, uint32_t width, uint32_t height,
                                        const ResourceSpec& resources) {
  DrawOptions options;
  options.width = width;
  options.height = height;
  return draw_fragment(fragment_spirv, options, resources);
}

Result<RunOutput> Runner::draw_fragment(std::span<const uint32_t> fragment_spirv, const DrawOptions& options,
                                        const ResourceSpec& resources) {
  auto module = SpirvModule::parse(fragment_spirv);
  if (!module) return module.failure();
  auto iface = reflect_interface(*module, ShaderStage::Fragment);
  if (!iface) return iface.failure();
  auto vs_text = vertex_shader_assembly(*module, *iface);
  if (!vs_text) return vs_text.failure();
  auto vs_words = assemble_spirv(*vs_text);
  if (!vs_words) return internal_error("internal error in the generated vertex shader: " + vs_words.error());
  const PipelineStage stages[] = {{ShaderStage::Vertex, std::move(*vs_words)},
                                  {ShaderStage::Fragment, {fragment_spirv.begin(), fragment_spirv.end()}}};
  return draw_stages(stages, 1, options, resources);
}

Result<RunOutput> Runner::draw_stages(std::span<const PipelineStage> pipeline_stages, std::size_t resource_stage,
                                      const DrawOptions& options, const ResourceSpec& resources) {
  VulkanContext& ctx = *context_;
  if (!ctx.unusable_reason().empty()) return Error{ctx.unusable_reason()};
  const auto& limits = ctx.properties().limits;
  if (options.width == 0 || options.height == 0 || options.width > limits.maxFramebufferWidth ||
      options.height > limits.maxFramebufferHeight)
    return Error{fmt::format("framebuffer size {}x{} is outside the device's limits", options.width, options.height)};
  if (pipeline_stages.size() < 2 || pipeline_stages.front().stage != ShaderStage::Vertex ||
      pipeline_stages.back().stage != ShaderStage::Fragment || resource_stage >= pipeline_stages.size())
    return Error{"a graphics pipeline runs a vertex shader first and a fragment shader last"};
  bool tessellated = false;
  for (const auto& st : pipeline_stages) {
    if (st.stage == ShaderStage::Geometry && !ctx.features().geometryShader)
      return Error{"the device does not support geometry shaders (geometryShader)"};
    if ((st.stage == ShaderStage::TessControl || st.stage == ShaderStage::TessEvaluation) &&
        !ctx.features().tessellationShader)
      return Error{"the device does not support tessellation shaders (tessellationShader)"};
    tessellated = tessellated || st.stage == ShaderStage::TessControl;
  }
  if (tessellated && options.rect) return Error{"a tessellated draw covers the full-screen triangle, not a rectangle"};
  std::vector<SpirvModule> modules;
  for (const auto& st : pipeline_stages) {
    auto m = SpirvModule::parse(st.spirv);
    if (!m) return m.failure().prefixed(fmt::format("{} shader: ", shader_stage_name(st.stage)));
    modules.push_back(std::move(*m));
  }
  std::vector<ShaderInterface> ifaces;
  for (std::size_t i = 0; i < modules.size(); ++i) {
    auto reflected = reflect_interface(modules[i], pipeline_stages[i].stage);
    if (!reflected) return reflected.failure();
    ifaces.push_back(std::move(*reflected));
  }
  const SpirvModule& fragment = modules.back();
  const ShaderInterface* iface = &ifaces.back();
  auto slots_result = output_slots(fragment, *iface, options.color_format);
  if (!slots_result) return slots_result.failure();
  std::vector<OutputSlot> slots = std::move(*slots_result);
  const uint32_t attachment_count = slots.empty() ? 0 : slots.back().location + 1;
  if (attachment_count > limits.maxColorAttachments)
    return Error{fmt::format("output location {} exceeds the device's {} colour attachments", attachment_count - 1,
                             limits.maxColorAttachments)};

  ResourceArena arena(ctx);
  auto cmd = arena.command_buffer();
  if (!cmd) return cmd.failure();

  const ShaderStage bound_stage = pipeline_stages[resource_stage].stage;
  auto bound = bind_shader_resources(arena, *cmd, modules[resource_stage], ifaces[resource_stage], resources,
                                     vk_stage(bound_stage), vk_pipeline_stage(bound_stage));
  if (!bound) return bound.failure();

  // Attachments, render pass and framebuffer.
  std::vector<VkAttachmentDescription> attachments;
  std::vector<VkAttachmentReference> refs(attachment_count, {VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_UNDEFINED});
  std::vector<VkImageView> views;
  std::vector<VkClearValue> clears;
  for (auto& s : slots) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = s.format;
    info.extent = {options.width, options.height, 1};
    info.mipLevels = info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    auto image = arena.image(info, VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_ASPECT_COLOR_BIT);
    if (!image) return image.failure();
    s.image = *image;
    const uint32_t texel_bytes = s.unorm8 ? 4 : 4 * s.format_components;
    auto readback = arena.host_buffer(static_cast<VkDeviceSize>(options.width) * options.height * texel_bytes,
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    if (!readback) return readback.failure();
    s.readback = *readback;

    VkAttachmentDescription a{};
    a.format = s.format;
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    a.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    refs[s.location] = {static_cast<uint32_t>(attachments.size()), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    attachments.push_back(a);
    views.push_back(s.image.view);
    VkClearValue clear{};
    for (int c = 0; c < 4; ++c) {
      clear.color.float32[c] = options.clear_color[c];
      if (s.kind == ScalarKind::Int) clear.color.int32[c] = static_cast<int32_t>(options.clear_color[c]);
      if (s.kind == ScalarKind::Uint) clear.color.uint32[c] = static_cast<uint32_t>(options.clear_color[c]);
    }
    clears.push_back(clear);
  }
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = attachment_count;
  subpass.pColorAttachments = refs.data();
  // Attachment writes must finish before the copies that read them back.
  VkSubpassDependency to_transfer{};
  to_transfer.srcSubpass = 0;
  to_transfer.dstSubpass = VK_SUBPASS_EXTERNAL;
  to_transfer.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  to_transfer.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  to_transfer.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  to_transfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo rp_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rp_info.attachmentCount = static_cast<uint32_t>(attachments.size());
  rp_info.pAttachments = attachments.data();
  rp_info.subpassCount = 1;
  rp_info.pSubpasses = &subpass;
  rp_info.dependencyCount = 1;
  rp_info.pDependencies = &to_transfer;
  auto render_pass = arena.render_pass(rp_info);
  if (!render_pass) return render_pass.failure();
  VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb_info.renderPass = *render_pass;
  fb_info.attachmentCount = static_cast<uint32_t>(views.size());
  fb_info.pAttachments = views.data();
  fb_info.width = options.width;
  fb_info.height = options.height;
  fb_info.layers = 1;
  auto framebuffer = arena.framebuffer(fb_info);
  if (!framebuffer) return framebuffer.failure();

  // Pipeline.
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  for (std::size_t i = 0; i < pipeline_stages.size(); ++i) {
    auto module = arena.shader_module(pipeline_stages[i].spirv);
    if (!module) return module.failure();
    VkPipelineShaderStageCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage = vk_stage(pipeline_stages[i].stage);
    info.module = *module;
    info.pName = ifaces[i].entry_point.c_str();
    stages.push_back(info);
  }
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = tessellated    ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
                      : options.rect ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
                                     : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  // A geometry shader reads the primitives its input mode names.
  for (std::size_t i = 0; i < pipeline_stages.size() && !tessellated; ++i) {
    if (pipeline_stages[i].stage != ShaderStage::Geometry) continue;
    for (const auto& e : modules[i].entry_points())
      for (std::uint32_t mode : e.execution_modes) {
        if (mode == 19) assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;        // InputPoints
        if (mode == 20) assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;         // InputLines
        if (mode == 21) assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
        if (mode == 22) assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;     // Triangles
        if (mode == 23) assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
      }
  }
  // One vertex buffer per vertex shader input (vertex_inputs); adjacency
  // primitives take every vertex twice (the adjacent ones are the
  // primitive's own).
  const bool adjacency = assembly.topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY ||
                         assembly.topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
  const VertexInputs inputs = vertex_inputs(modules.front(), ifaces.front(), options, adjacency ? 2 : 1);
  std::vector<VkVertexInputBindingDescription> vbs;
  std::vector<VkVertexInputAttributeDescription> vas;
  for (std::uint32_t i = 0; i < inputs.attributes.size(); ++i) {
    vbs.push_back({i, 4 * sizeof(std::uint32_t), VK_VERTEX_INPUT_RATE_VERTEX});
    vas.push_back({inputs.attributes[i].location, i, inputs.attributes[i].format, 0});
  }
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vertex_input.vertexBindingDescriptionCount = static_cast<std::uint32_t>(vbs.size());
  vertex_input.pVertexBindingDescriptions = vbs.data();
  vertex_input.vertexAttributeDescriptionCount = static_cast<std::uint32_t>(vas.size());
  vertex_input.pVertexAttributeDescriptions = vas.data();
  VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
  tessellation.patchControlPoints = 3;  // the triangle's vertices
  VkViewport viewport{0, 0, float(options.width), float(options.height), 0, 1};
  VkRect2D scissor{{0, 0}, {options.width, options.height}};
  VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport_state.viewportCount = viewport_state.scissorCount = 1;
  viewport_state.pViewports = &viewport;
  viewport_state.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  std::vector<VkPipelineColorBlendAttachmentState> blend(attachment_count);
  for (auto& b : blend) b.colorWriteMask = 0xf;
  VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend_state.attachmentCount = attachment_count;
  blend_state.pAttachments = blend.data();
  VkGraphicsPipelineCreateInfo gp{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  gp.stageCount = static_cast<std::uint32_t>(stages.size());
  gp.pStages = stages.data();
  gp.pVertexInputState = &vertex_input;
  if (tessellated) gp.pTessellationState = &tessellation;
  gp.pInputAssemblyState = &assembly;
  gp.pViewportState = &viewport_state;
  gp.pRasterizationState = &raster;
  gp.pMultisampleState = &multisample;
  gp.pColorBlendState = &blend_state;
  gp.layout = bound->layout;
  gp.renderPass = *render_pass;
  auto pipeline = arena.graphics_pipeline(gp);
  if (!pipeline) return pipeline.failure().prefixed("creating the graphics pipeline: ");

  std::vector<HostBuffer> vertex_buffers;
  for (const auto& a : inputs.attributes) {
    auto buffer = arena.host_buffer(a.words.size() * sizeof(std::uint32_t), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    if (!buffer) return buffer.failure();
    std::memcpy(buffer->mapped, a.words.data(), a.words.size() * sizeof(std::uint32_t));
    vertex_buffers.push_back(*buffer);
  }

  VkRenderPassBeginInfo rp_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  rp_begin.renderPass = *render_pass;
  rp_begin.framebuffer = *framebuffer;
  rp_begin.renderArea = scissor;
  rp_begin.clearValueCount = static_cast<uint32_t>(clears.size());
  rp_begin.pClearValues = clears.data();
  // Timed (DrawOptions::timing): the render pass is recorded warmup +
  // repeats times, each between two timestamps (timestamps.h).
  std::optional<TimestampQueries> queries;
  if (options.timing.repeats) {
    auto q = TimestampQueries::create(ctx, options.timing.runs());
    if (!q) return q.failure();
    queries.emplace(std::move(*q));
    queries->reset(*cmd);
  }
  for (std::uint32_t run = 0; run < options.timing.runs(); ++run) {
    if (run)
      barrier_between_runs(*cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                           VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (queries) queries->begin(*cmd, run);
    vkCmdBeginRenderPass(*cmd, &rp_begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(*cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, *pipeline);
    record_bindings(*cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, *bound);
    for (std::uint32_t i = 0; i < vertex_buffers.size(); ++i) {
      VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(*cmd, i, 1, &vertex_buffers[i].buffer, &offset);
    }
    vkCmdDraw(*cmd, inputs.vertex_count, 1, 0, 0);
    vkCmdEndRenderPass(*cmd);
    if (queries) queries->end(*cmd, run);
  }

  for (const auto& s : slots) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {options.width, options.height, 1};
    vkCmdCopyImageToBuffer(*cmd, s.image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, s.readback.buffer, 1, &region);
  }
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(*cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
  SLUICE_VK_TRY(vkEndCommandBuffer(*cmd));
  SLUICE_TRY(ctx.submit_and_wait(*cmd));

  RunOutput out;
  for (const auto& s : slots) out.images.push_back(read_image(s, options.width, options.height));
  out.storage_buffers = read_storage_buffers(*bound);
  if (queries) {
    auto ms = queries->milliseconds(options.timing.warmup);
    if (!ms) return ms.failure();
    out.milliseconds = std::move(*ms);
  }
  return out;
}

}  // namespace sluice::exec
