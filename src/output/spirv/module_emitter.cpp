// The module: global variables with their decorations, every function, the
// entry point and its execution modes, then the sections concatenated in
// SPIR-V's logical layout (capabilities, imports, memory model, entry point,
// modes, names, decorations, types/constants/globals, functions).
//
// For Vulkan targets every user Input/Output variable needs a Location and
// every resource a DescriptorSet and Binding; variables without them get the
// lowest free ones in declaration order (as glslang's --aml/--amb do), and
// integer and double fragment inputs get the Flat decoration Vulkan requires
// (VUID-StandaloneSpirv-Flat-04744).
#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "ir/stage_interface.h"
#include "ir/typing.h"
#include "ir/workgroup_size.h"
#include "output/spirv/context.h"
#include "output/spirv/function_emitter.h"

namespace sluice::spirv::detail {
namespace {

constexpr std::uint32_t kMagic = 0x07230203;

// A built-in block, or an array of them (gl_in[], gl_out[]).
bool has_built_in_members(const ir::Module& m, ir::TypeId id) {
  const ir::Type* t = &m.type(id);
  while (t->kind == ir::TypeKind::Array) t = &m.type(t->element);
  return t->kind == ir::TypeKind::Struct &&
         std::any_of(t->members.begin(), t->members.end(), [](const auto& member) { return !member.built_in.empty(); });
}

class ModuleEmitter {
 public:
  ModuleEmitter(const ir::Module& m, const Options& o) : m_(m), mc_(m, o) {}
  Result<std::vector<std::uint32_t>> run();

 private:
  void emit_globals();
  void decorate_global(ir::VariableId v, std::uint32_t id);
  void emit_entry_point(ir::FunctionId entry);
  void emit_stage_modes(const std::function<void(spv::ExecutionMode, std::initializer_list<std::uint32_t>)>& mode);
  std::vector<std::uint32_t> assemble();

  const ir::Module& m_;
  ModuleContext mc_;
  std::set<std::uint32_t> used_locations_[2];        // Input, Output
  std::set<std::pair<std::uint32_t, std::uint32_t>> used_bindings_;  // (set, binding)
};

Result<std::vector<std::uint32_t>> ModuleEmitter::run() {
  // Valid IR (emit() validated it): every id exists, `main` is the entry
  // point and takes nothing, and no call recurses.
  if (mc_.failed()) return mc_.failure();
  const ir::FunctionId entry = mc_.entry;
  emit_globals();
  std::vector<std::uint32_t> local_slots(m_.variable_count(), 0);  // shared: see FunctionEmitter's constructor
  for (std::uint32_t i = 0; i < m_.function_count() && !mc_.failed(); ++i)
    FunctionEmitter(mc_, ir::FunctionId(i), local_slots).emit();
  if (!mc_.failed()) emit_entry_point(entry);
  if (mc_.failed()) return mc_.failure();
  return assemble();
}

void ModuleEmitter::emit_globals() {
  // Explicit locations and bindings first, so automatic ones avoid them.
  for (ir::VariableId v : m_.globals()) {
    const ir::Variable& var = m_.variable(v);
    const ir::Type& pt = m_.type(var.type);
    const ir::Decorations& d = var.decorations;
    const bool io = pt.storage == ir::StorageClass::Input || pt.storage == ir::StorageClass::Output;
    auto& used = used_locations_[pt.storage == ir::StorageClass::Output];
    if (d.location && io) {
      const std::uint32_t n = ir::location_slots(m_, ir::location_type(m_, var));
      for (std::uint32_t i = 0; i < n; ++i) used.insert(*d.location + i);
    } else if (io && ir::has_member_locations(m_, pt.element)) {
      const ir::Type* block = &m_.type(ir::location_type(m_, var));
      for (const ir::StructMember& mem : block->members)
        for (std::uint32_t i = 0; i < ir::location_slots(m_, mem.type); ++i) used.insert(*mem.location + i);
    }
    if (d.binding) used_bindings_.emplace(d.set.value_or(0), *d.binding);
  }
  for (ir::VariableId v : m_.globals()) {
    if (mc_.global_ids[v.index()] != 0) continue;  // listed twice
    const ir::Variable& var = m_.variable(v);
    const ir::Type& pt = m_.type(var.type);
    Flavour flavour = kPlain;
    switch (pt.storage) {
      case ir::StorageClass::Function:
        return mc_.fail(fmt::format("global '{}' is in Function storage", var.name.text));
      case ir::StorageClass::Uniform:
      case ir::StorageClass::StorageBuffer:
      case ir::StorageClass::PushConstant: {
        ir::TypeId block = pt.element;
        int levels = 0;
        for (; m_.type(block).kind == ir::TypeKind::Array; ++levels) block = m_.type(block).element;  // arrays of blocks
        // A block or one array of them (VUID-StandaloneSpirv-Uniform-06807); GLSL 4.30
        // allows arrays of arrays of blocks, Vulkan does not.
        if (levels > 1 && mc_.features.vulkan)
          return mc_.fail(fmt::format("'{}' is an array of arrays of blocks; Vulkan allows a block or one array of "
                                      "blocks (VUID-StandaloneSpirv-Uniform-06807)",
                                      var.name.text));
        // A uniform outside a block (OpenGL's `uniform float x;`) has no
        // Vulkan form (VUID-StandaloneSpirv-Uniform-06676), as the GLSL
        // output's Vulkan flavour says too.
        if (mc_.features.vulkan && !(m_.type(block).kind == ir::TypeKind::Struct && m_.type(block).is_block))
          return mc_.fail(fmt::format("'{}' is a {} variable outside a block, which Vulkan does not allow",
                                      var.name.text, ir::to_string(pt.storage)));
        const ir::BlockLayout declared = m_.type(block).layout;
        const ir::BlockLayout layout = declared != ir::BlockLayout::None ? declared
                                       : pt.storage == ir::StorageClass::Uniform ? ir::BlockLayout::Std140
                                                                                 : ir::BlockLayout::Std430;
        flavour = layout == ir::BlockLayout::Std140 ? kStd140 : kStd430;
        if (pt.storage == ir::StorageClass::StorageBuffer && !mc_.features.storage_buffer_class())
          flavour |= kBufferBit;
        break;
      }
      case ir::StorageClass::UniformConstant:
        // Vulkan's UniformConstant variables are handles of images and
        // samplers (VUID-StandaloneSpirv-UniformConstant-04655); OpenGL's
        // `uniform float x;` has no Vulkan form. A struct holding a sampler
        // gets the struct's own diagnostic (types.cpp).
        if (mc_.features.vulkan && !ir::contains_opaque(m_, pt.element))
          return mc_.fail(fmt::format("'{}' is a uniform of type {} outside a block, which Vulkan does not allow "
                                      "(VUID-StandaloneSpirv-UniformConstant-04655)",
                                      var.name.text, ir::describe_type(m_, pt.element)));
        break;
      default: break;
    }
    const std::uint32_t pointer_type = mc_.pointer_type(pt.element, pt.storage, flavour);
    const std::uint32_t id = mc_.new_id();
    const auto storage = static_cast<std::uint32_t>(mc_.storage_class(pt.storage));
    if (var.initializer.valid()) {
      if (pt.storage != ir::StorageClass::Private && pt.storage != ir::StorageClass::Output)
        return mc_.fail(fmt::format("global '{}': only Private and Output variables can have an initializer",
                                    var.name.text));
      const std::uint32_t init = mc_.constant(var.initializer);
      mc_.globals.op(spv::Op::OpVariable, {pointer_type, id, storage, init});
    } else {
      mc_.globals.op(spv::Op::OpVariable, {pointer_type, id, storage});
    }
    mc_.global_ids[v.index()] = id;
    mc_.global_flavours[v.index()] = flavour;
    mc_.name(id, var.name.text);
    mc_.relax(id, var.precision, pt.element);
    decorate_global(v, id);
  }
}

void ModuleEmitter::decorate_global(ir::VariableId v, std::uint32_t id) {
  const ir::Variable& var = m_.variable(v);
  const ir::Type& pt = m_.type(var.type);
  const ir::Decorations& d = var.decorations;
  const bool io = pt.storage == ir::StorageClass::Input || pt.storage == ir::StorageClass::Output;
  const bool resource = pt.storage == ir::StorageClass::Uniform || pt.storage == ir::StorageClass::StorageBuffer ||
                        pt.storage == ir::StorageClass::UniformConstant;
  const ir::ShaderStage stage = m_.shader().stage;
  if (!d.built_in.empty()) {
    const auto b = built_in_from_name(d.built_in);
    if (!b) return mc_.fail(fmt::format("unknown built-in '{}' on '{}'", d.built_in, var.name.text));
    mc_.decorate(id, spv::Decoration::BuiltIn, {static_cast<std::uint32_t>(*b)});
    mc_.require_built_in(*b);
  }
  const bool needs_location = io && d.built_in.empty() && !has_built_in_members(m_, pt.element) &&
                              !ir::has_member_locations(m_, pt.element);
  // A location outside the interface is an OpenGL default-block uniform's
  // (the IR validator allows it on Uniform and UniformConstant variables
  // only); Vulkan has no such uniforms and refuses the decoration there
  // (VUID-StandaloneSpirv-Location-06672), so Vulkan targets drop it, as
  // the GLSL output's Vulkan flavour does (glslang accepts
  // `layout(location = 3) uniform sampler2D s;` for Vulkan and ignores it).
  if (d.location && (io || !mc_.features.vulkan)) {
    mc_.decorate(id, spv::Decoration::Location, {*d.location});
  } else if (needs_location && mc_.features.vulkan) {
    auto& used = used_locations_[pt.storage == ir::StorageClass::Output];
    const std::uint32_t count = ir::location_slots(m_, ir::location_type(m_, var));
    std::uint32_t at = 0;
    for (bool free = false; !free;) {
      free = true;
      for (std::uint32_t i = 0; i < count; ++i)
        if (used.count(at + i)) {
          free = false;
          at = at + i + 1;
          break;
        }
    }
    for (std::uint32_t i = 0; i < count; ++i) used.insert(at + i);
    mc_.decorate(id, spv::Decoration::Location, {at});
  }
  if (d.component) mc_.decorate(id, spv::Decoration::Component, {*d.component});
  if (d.index) mc_.decorate(id, spv::Decoration::Index, {*d.index});
  if (resource && (d.set || mc_.features.vulkan)) mc_.decorate(id, spv::Decoration::DescriptorSet, {d.set.value_or(0)});
  if (d.binding) {
    mc_.decorate(id, spv::Decoration::Binding, {*d.binding});
  } else if (resource && mc_.features.vulkan) {
    const std::uint32_t set = d.set.value_or(0);
    std::uint32_t binding = 0;
    while (used_bindings_.count({set, binding})) ++binding;
    used_bindings_.emplace(set, binding);
    mc_.decorate(id, spv::Decoration::Binding, {binding});
  }
  // Vulkan: integer and double fragment inputs are never interpolated and must
  // say so (VUID-StandaloneSpirv-Flat-04744).
  const bool int_fragment_input = pt.storage == ir::StorageClass::Input && stage == ir::ShaderStage::Fragment &&
                                  d.built_in.empty() && mc_.layouts.facts(pt.element).contains_int;
  if (d.interpolation == ir::Interpolation::Flat || int_fragment_input) mc_.decorate(id, spv::Decoration::Flat);
  if (d.interpolation == ir::Interpolation::NoPerspective) mc_.decorate(id, spv::Decoration::NoPerspective);
  if (d.centroid) mc_.decorate(id, spv::Decoration::Centroid);
  if (d.sample) {
    mc_.decorate(id, spv::Decoration::Sample);
    mc_.require(spv::Capability::SampleRateShading);
  }
  if (d.invariant) mc_.decorate(id, spv::Decoration::Invariant);
  if (d.patch) mc_.decorate(id, spv::Decoration::Patch);
  if (d.stream) {
    mc_.require(spv::Capability::GeometryStreams);
    mc_.decorate(id, spv::Decoration::Stream, {*d.stream});
  }
  // NVIDIA's decorations, with the capabilities and extensions glslang
  // declares for them (SPV_NV_geometry_shader_passthrough,
  // SPV_NV_viewport_array2, SPV_NV_stereo_view_rendering).
  if (d.passthrough) {
    mc_.decorate(id, spv::Decoration::PassthroughNV);
    mc_.require(spv::Capability::GeometryShaderPassthroughNV);
    mc_.require_extension("SPV_NV_geometry_shader_passthrough");
  }
  if (d.viewport_relative) {
    mc_.decorate(id, spv::Decoration::ViewportRelativeNV);
    mc_.require_viewport_mask();
  }
  if (d.secondary_view_offset) {
    mc_.decorate(id, spv::Decoration::SecondaryViewportRelativeNV,
                 {static_cast<std::uint32_t>(*d.secondary_view_offset)});
    mc_.require_stereo_view();
  }
  if (d.xfb_buffer) mc_.decorate(id, spv::Decoration::XfbBuffer, {*d.xfb_buffer});
  if (d.xfb_stride) mc_.decorate(id, spv::Decoration::XfbStride, {*d.xfb_stride});
  if (d.xfb_offset) mc_.decorate(id, spv::Decoration::Offset, {*d.xfb_offset});
  if (resource || pt.storage == ir::StorageClass::Workgroup) {
    if (d.readonly) mc_.decorate(id, spv::Decoration::NonWritable);
    if (d.writeonly) mc_.decorate(id, spv::Decoration::NonReadable);
    if (d.coherent) mc_.decorate(id, spv::Decoration::Coherent);
    if (d.volatile_) mc_.decorate(id, spv::Decoration::Volatile);
    if (d.restrict_) mc_.decorate(id, spv::Decoration::Restrict);
  }
}

void ModuleEmitter::emit_entry_point(ir::FunctionId entry) {
  const ir::ShaderInfo& shader = m_.shader();
  spv::ExecutionModel model = spv::ExecutionModel::Fragment;
  if (shader.stage == ir::ShaderStage::Vertex) model = spv::ExecutionModel::Vertex;
  if (shader.stage == ir::ShaderStage::Compute) model = spv::ExecutionModel::GLCompute;
  if (shader.stage == ir::ShaderStage::Geometry) model = spv::ExecutionModel::Geometry;
  if (shader.stage == ir::ShaderStage::TessControl) model = spv::ExecutionModel::TessellationControl;
  if (shader.stage == ir::ShaderStage::TessEvaluation) model = spv::ExecutionModel::TessellationEvaluation;
  const std::uint32_t function = mc_.function_id(entry);
  // Before SPIR-V 1.4 the interface lists the Input and Output variables;
  // from 1.4 on, every global the entry point may touch.
  Words& out = mc_.entry_points;
  const std::size_t at = out.begin(spv::Op::OpEntryPoint);
  out.push(static_cast<std::uint32_t>(model));
  out.push(function);
  out.append_string(mc_.options.entry_point_name);
  std::set<std::uint32_t> listed;
  for (ir::VariableId v : m_.globals()) {
    const std::uint32_t id = mc_.global_ids[v.index()];
    const ir::StorageClass s = m_.type(m_.variable(v).type).storage;
    const bool io = s == ir::StorageClass::Input || s == ir::StorageClass::Output;
    if ((io || mc_.features.interface_lists_all_globals()) && listed.insert(id).second) out.push(id);
  }
  out.finish(at, spv::Op::OpEntryPoint);
  auto mode = [&](spv::ExecutionMode em, std::initializer_list<std::uint32_t> extra = {}) {
    const std::size_t m = mc_.execution_modes.begin(spv::Op::OpExecutionMode);
    mc_.execution_modes.push(function);
    mc_.execution_modes.push(static_cast<std::uint32_t>(em));
    for (std::uint32_t w : extra) mc_.execution_modes.push(w);
    mc_.execution_modes.finish(m, spv::Op::OpExecutionMode);
  };
  if (shader.stage == ir::ShaderStage::Fragment) {
    mode(spv::ExecutionMode::OriginUpperLeft);
    if (shader.early_fragment_tests) mode(spv::ExecutionMode::EarlyFragmentTests);
    if (shader.depth_replacing) mode(spv::ExecutionMode::DepthReplacing);
  }
  emit_stage_modes(mode);
  if (shader.transform_feedback) {
    mc_.require(spv::Capability::TransformFeedback);
    mode(spv::ExecutionMode::Xfb);
  }
  // SPIR-V 1.4 made SPV_KHR_float_controls core (SPIR-V spec, appendix
  // "Changes": 1.4); before it the mode needs the extension, which not every
  // device has, so it is left out there.
  if (mc_.options.preserve_float_specials && spirv_version(mc_.options.target) >= 0x00010400u) {
    mc_.require(spv::Capability::SignedZeroInfNanPreserve);
    mode(spv::ExecutionMode::SignedZeroInfNanPreserve, {32});
  }
  if (shader.stage == ir::ShaderStage::Compute)
    mode(spv::ExecutionMode::LocalSize, {shader.local_size[0], shader.local_size[1], shader.local_size[2]});
  // As glslang: a specialized size is the WorkgroupSize built-in, which
  // overrides LocalSize (LocalSizeId would need SPIR-V 1.2).
  if (ir::has_specialized_workgroup_size(shader))
    mc_.decorate(mc_.workgroup_size_constant(shader), spv::Decoration::BuiltIn,
                 {static_cast<std::uint32_t>(spv::BuiltIn::WorkgroupSize)});
}

void ModuleEmitter::emit_stage_modes(const std::function<void(spv::ExecutionMode, std::initializer_list<std::uint32_t>)>& mode) {
  // The geometry and tessellation execution modes (SPIR-V spec 3.6), in
  // glslang's order; Invocations is always given (default 1), as glslang does.
  const ir::ShaderInfo& shader = m_.shader();
  auto primitive = [&](ir::Primitive p, bool output) -> std::optional<spv::ExecutionMode> {
    switch (p) {
      case ir::Primitive::Points: return output ? spv::ExecutionMode::OutputPoints : spv::ExecutionMode::InputPoints;
      case ir::Primitive::Lines: return spv::ExecutionMode::InputLines;
      case ir::Primitive::LinesAdjacency: return spv::ExecutionMode::InputLinesAdjacency;
      case ir::Primitive::Triangles: return spv::ExecutionMode::Triangles;
      case ir::Primitive::TrianglesAdjacency: return spv::ExecutionMode::InputTrianglesAdjacency;
      case ir::Primitive::LineStrip: return spv::ExecutionMode::OutputLineStrip;
      case ir::Primitive::TriangleStrip: return spv::ExecutionMode::OutputTriangleStrip;
      case ir::Primitive::Quads: return spv::ExecutionMode::Quads;
      case ir::Primitive::Isolines: return spv::ExecutionMode::Isolines;
      case ir::Primitive::None: break;
    }
    return std::nullopt;
  };
  switch (shader.stage) {
    case ir::ShaderStage::Geometry:
      mc_.require(spv::Capability::Geometry);
      if (auto em = primitive(shader.input_primitive, false)) mode(*em, {});
      mode(spv::ExecutionMode::Invocations, {shader.invocations.value_or(1)});
      if (auto em = primitive(shader.output_primitive, true)) mode(*em, {});
      mode(spv::ExecutionMode::OutputVertices, {shader.output_vertices.value_or(0)});
      break;
    case ir::ShaderStage::TessControl:
      mc_.require(spv::Capability::Tessellation);
      if (shader.output_vertices) mode(spv::ExecutionMode::OutputVertices, {*shader.output_vertices});
      break;
    case ir::ShaderStage::TessEvaluation:
      mc_.require(spv::Capability::Tessellation);
      if (auto em = primitive(shader.input_primitive, false)) mode(*em, {});
      if (shader.spacing == ir::TessSpacing::Equal) mode(spv::ExecutionMode::SpacingEqual, {});
      if (shader.spacing == ir::TessSpacing::FractionalEven) mode(spv::ExecutionMode::SpacingFractionalEven, {});
      if (shader.spacing == ir::TessSpacing::FractionalOdd) mode(spv::ExecutionMode::SpacingFractionalOdd, {});
      if (shader.order == ir::VertexOrder::Cw) mode(spv::ExecutionMode::VertexOrderCw, {});
      if (shader.order == ir::VertexOrder::Ccw) mode(spv::ExecutionMode::VertexOrderCcw, {});
      if (shader.point_mode) mode(spv::ExecutionMode::PointMode, {});
      break;
    default: break;
  }
}

std::vector<std::uint32_t> ModuleEmitter::assemble() {
  // -g: OpString (made while the functions were emitted), then OpSource
  // naming the first source file (SPIR-V 2.4, layout section 7a); before
  // the header, which holds the id bound.
  Words source;
  if (mc_.options.debug_lines && !mc_.m.source_files().empty())
    source.op(spv::Op::OpSource, {static_cast<std::uint32_t>(spv::SourceLanguage::Unknown), 0, mc_.source_file(0)});
  Words head;
  for (const auto& [capability, used] : mc_.capabilities())
    if (used) head.op(spv::Op::OpCapability, {capability});
  for (const std::string& extension : mc_.extensions()) head.op_with_string(spv::Op::OpExtension, {}, extension);
  if (mc_.glsl_import_id()) head.op_with_string(spv::Op::OpExtInstImport, {mc_.glsl_import_id()}, "GLSL.std.450");
  head.op(spv::Op::OpMemoryModel, {static_cast<std::uint32_t>(spv::AddressingModel::Logical),
                                   static_cast<std::uint32_t>(spv::MemoryModel::GLSL450)});
  std::vector<std::uint32_t> words{kMagic, mc_.features.version, 0, mc_.bound(), 0};
  std::vector<const Words*> sections = {&head, &mc_.entry_points, &mc_.execution_modes, &mc_.sources, &source,
                                        &mc_.names, &mc_.annotations, &mc_.globals};
  for (const Words& f : mc_.functions) sections.push_back(&f);
  std::size_t total = words.size();
  for (const Words* s : sections) total += s->size();
  words.reserve(total);
  for (const Words* s : sections) words.insert(words.end(), s->words.begin(), s->words.end());
  return words;
}

}  // namespace

Result<std::vector<std::uint32_t>> emit_module(const ir::Module& m, const Options& options) {
  return ModuleEmitter(m, options).run();
}

}  // namespace sluice::spirv::detail
