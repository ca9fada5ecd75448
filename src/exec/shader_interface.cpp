// Classifies a module's global variables into descriptors, push constants
// and stage inputs/outputs.
#include "exec/shader_interface.h"

#include <algorithm>

#include <fmt/format.h>

#include "exec/vulkan_error.h"

namespace sluice::exec {
namespace {

uint32_t model_of(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return spv::Vertex;
    case ShaderStage::Fragment: return spv::Fragment;
    case ShaderStage::Compute: return spv::GLCompute;
    case ShaderStage::Geometry: return spv::Geometry;
    case ShaderStage::TessControl: return spv::TessellationControl;
    case ShaderStage::TessEvaluation: return spv::TessellationEvaluation;
  }
  return spv::Fragment;
}

ScalarKind sampled_kind(const SpirvModule& m, uint32_t type_id) {
  const SpirvType& t = m.type(type_id);
  if (t.kind == SpirvType::Int) return t.is_signed ? ScalarKind::Int : ScalarKind::Uint;
  return ScalarKind::Float;
}

ImageShape image_shape(const SpirvModule& m, const SpirvType& image) {
  ImageShape s;
  s.dim = image.dim;
  s.arrayed = image.arrayed != 0;
  s.multisampled = image.multisampled != 0;
  s.depth = image.depth == 1;
  s.format = image.format;
  s.sampled_kind = sampled_kind(m, image.sampled_type);
  return s;
}

// Fills `b` from the variable's type (arrays of descriptors unwrapped).
Result<bool> classify(const SpirvModule& m, const SpirvVariable& v, DescriptorBinding& b) {
  uint32_t type_id = v.type;
  while (m.type(type_id).kind == SpirvType::Array) {
    b.count *= std::max(1u, m.type(type_id).count);
    type_id = m.type(type_id).element;
  }
  const SpirvType& t = m.type(type_id);
  if (t.kind == SpirvType::RuntimeArray)
    return Error{fmt::format("descriptor '{}' (set {}, binding {}) is a runtime array of descriptors, which needs "
                             "descriptor indexing; not supported",
                             b.name, b.set, b.binding)};
  if (v.storage_class == spv::Uniform || v.storage_class == spv::StorageBuffer) {
    if (t.kind != SpirvType::Struct) return Error{fmt::format("buffer '{}' is not a struct", b.name)};
    const bool storage = v.storage_class == spv::StorageBuffer || m.decorations(type_id).buffer_block;
    b.kind = storage ? DescriptorKind::StorageBuffer : DescriptorKind::UniformBuffer;
    b.block_type = type_id;
    if (b.name.empty()) b.name = m.name(type_id);
    return true;
  }
  switch (t.kind) {
    case SpirvType::Sampler: b.kind = DescriptorKind::Sampler; return true;
    case SpirvType::SampledImage:
      b.kind = DescriptorKind::CombinedImageSampler;
      b.image = image_shape(m, m.type(t.element));
      if (b.image.dim == spv::Buffer) b.kind = DescriptorKind::UniformTexelBuffer;
      return true;
    case SpirvType::Image:
      b.image = image_shape(m, t);
      if (t.dim == spv::SubpassData)
        return Error{fmt::format("'{}' is a subpass input (input attachment); not supported", b.name)};
      if (t.dim == spv::Buffer)
        b.kind = t.sampled == 2 ? DescriptorKind::StorageTexelBuffer : DescriptorKind::UniformTexelBuffer;
      else
        b.kind = t.sampled == 2 ? DescriptorKind::StorageImage : DescriptorKind::SampledImage;
      return true;
    default:
      return Error{fmt::format("descriptor '{}' (set {}, binding {}) has a type the runner does not support", b.name,
                               b.set, b.binding)};
  }
}

bool is_builtin(const SpirvModule& m, const SpirvVariable& v) {
  if (m.decorations(v.id).builtin) return true;
  uint32_t type_id = v.type;
  while (m.type(type_id).kind == SpirvType::Array) type_id = m.type(type_id).element;
  const SpirvType& t = m.type(type_id);
  if (t.kind != SpirvType::Struct) return false;
  for (uint32_t i = 0; i < t.members.size(); ++i)
    if (m.member_decorations(type_id, i).builtin) return true;
  return false;
}

bool is_patch_block(const SpirvModule& m, const SpirvVariable& v) {
  uint32_t type_id = v.type;
  while (m.type(type_id).kind == SpirvType::Array) type_id = m.type(type_id).element;
  const SpirvType& t = m.type(type_id);
  return t.kind == SpirvType::Struct && !t.members.empty() && m.member_decorations(type_id, 0).patch;
}

std::optional<uint32_t> location_of(const SpirvModule& m, const SpirvVariable& v) {
  if (auto loc = m.decorations(v.id).location) return loc;
  // A block whose members carry the locations.
  uint32_t type_id = v.type;
  while (m.type(type_id).kind == SpirvType::Array) type_id = m.type(type_id).element;
  if (m.type(type_id).kind == SpirvType::Struct) return m.member_decorations(type_id, 0).location;
  return std::nullopt;
}

}  // namespace

const char* shader_stage_name(ShaderStage stage) {
  switch (stage) {
    case ShaderStage::Vertex: return "vertex";
    case ShaderStage::Fragment: return "fragment";
    case ShaderStage::Compute: return "compute";
    case ShaderStage::Geometry: return "geometry";
    case ShaderStage::TessControl: return "tessellation control";
    case ShaderStage::TessEvaluation: return "tessellation evaluation";
  }
  return "?";
}

const char* descriptor_kind_name(DescriptorKind kind) {
  switch (kind) {
    case DescriptorKind::UniformBuffer: return "uniform buffer";
    case DescriptorKind::StorageBuffer: return "storage buffer";
    case DescriptorKind::CombinedImageSampler: return "combined image sampler";
    case DescriptorKind::SampledImage: return "sampled image";
    case DescriptorKind::StorageImage: return "storage image";
    case DescriptorKind::Sampler: return "sampler";
    case DescriptorKind::UniformTexelBuffer: return "uniform texel buffer";
    case DescriptorKind::StorageTexelBuffer: return "storage texel buffer";
  }
  return "?";
}

Result<ShaderInterface> reflect_interface(const SpirvModule& module, ShaderStage stage) {
  const SpirvEntryPoint* entry = nullptr;
  for (const auto& e : module.entry_points())
    if (e.model == model_of(stage)) {
      entry = &e;
      break;
    }
  if (!entry) return Error{fmt::format("the SPIR-V module has no {} entry point", shader_stage_name(stage))};

  ShaderInterface iface;
  iface.stage = stage;
  iface.entry_point = entry->name;
  iface.local_size = entry->local_size;
  auto in_interface = [&](uint32_t id) {
    return std::find(entry->interface.begin(), entry->interface.end(), id) != entry->interface.end();
  };

  for (const auto& v : module.variables()) {
    const auto& d = module.decorations(v.id);
    switch (v.storage_class) {
      case spv::UniformConstant:
      case spv::Uniform:
      case spv::StorageBuffer: {
        if (!d.binding && !d.descriptor_set) continue;  // e.g. a plain OpenGL uniform; nothing to bind
        DescriptorBinding b;
        b.set = d.descriptor_set.value_or(0);
        b.binding = d.binding.value_or(0);
        b.name = module.name(v.id);
        SLUICE_TRY(classify(module, v, b));
        auto same = std::find_if(iface.bindings.begin(), iface.bindings.end(),
                                 [&](const auto& o) { return o.set == b.set && o.binding == b.binding; });
        if (same != iface.bindings.end()) {
          if (same->kind != b.kind)
            return Error{fmt::format("set {} binding {} is declared both as {} and as {}", b.set, b.binding,
                                     descriptor_kind_name(same->kind), descriptor_kind_name(b.kind))};
          same->count = std::max(same->count, b.count);
          continue;
        }
        iface.bindings.push_back(std::move(b));
        break;
      }
      case spv::PushConstant:
        iface.push_constant_type = v.type;
        iface.push_constant_size = static_cast<uint32_t>((layout_size(module, v.type) + 3) / 4 * 4);
        break;
      case spv::Input:
      case spv::Output: {
        if (!in_interface(v.id) || is_builtin(module, v)) continue;
        StageVariable sv;
        sv.variable_id = v.id;
        sv.type = v.type;
        const auto loc = location_of(module, v);
        if (!loc)
          return Error{fmt::format("{} variable '{}' has no Location", v.storage_class == spv::Input ? "input" : "output",
                                   module.name(v.id))};
        sv.location = *loc;
        sv.component = d.component.value_or(0);
        // glslang decorates a patch block's members Patch, not the variable.
        sv.patch = d.patch || is_patch_block(module, v);
        sv.name = module.name(v.id);
        (v.storage_class == spv::Input ? iface.inputs : iface.outputs).push_back(std::move(sv));
        break;
      }
      default:
        break;
    }
  }
  auto by_binding = [](const auto& a, const auto& b) { return std::tie(a.set, a.binding) < std::tie(b.set, b.binding); };
  std::sort(iface.bindings.begin(), iface.bindings.end(), by_binding);
  auto by_location = [](const auto& a, const auto& b) {
    return std::tie(a.location, a.component) < std::tie(b.location, b.component);
  };
  std::sort(iface.inputs.begin(), iface.inputs.end(), by_location);
  std::sort(iface.outputs.begin(), iface.outputs.end(), by_location);
  return iface;
}

}  // namespace sluice::exec
