// Declarations of module-level entities: mode layouts, specialization
// constants, structs, and each global with its layout qualifiers (the
// locations and bindings Vulkan needs come from interface.h).
#include "output/glsl/declarations.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "ir/typing.h"
#include "output/glsl/interface.h"
#include "output/glsl/module_names.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {

using ir::StorageClass;
using ir::TypeId;
using ir::TypeKind;
using ir::VariableId;

namespace {

std::string array_dims(const EmitContext& ctx, TypeId t) {
  std::string dims;
  while (t.valid() && t.index() < ctx.m.type_count()) {
    const ir::Type& a = ctx.m.type(t);
    if (a.kind == TypeKind::Array)
      dims += fmt::format("[{}]", a.count);
    else if (a.kind == TypeKind::UnsizedArray)
      dims += "[]";
    else
      break;
    t = a.element;
  }
  return dims;
}

std::string layout_text(const std::vector<std::string>& parts) {
  return parts.empty() ? "" : fmt::format("layout({}) ", fmt::join(parts, ", "));
}

std::vector<std::string> memory_qualifiers(const ir::Decorations& d) {
  std::vector<std::string> q;
  if (d.coherent) q.push_back("coherent");
  if (d.volatile_) q.push_back("volatile");
  if (d.restrict_) q.push_back("restrict");
  if (d.readonly) q.push_back("readonly");
  if (d.writeonly) q.push_back("writeonly");
  return q;
}

std::string words(const std::vector<std::string>& q) {
  std::string s;
  for (const auto& w : q) s += w + " ";
  return s;
}

std::vector<std::string> set_binding(const EmitContext& ctx, const ir::Decorations& d) {
  std::vector<std::string> parts;
  if (ctx.vulkan && d.set) parts.push_back(fmt::format("set = {}", *d.set));  // else set 0
  if (d.binding) parts.push_back(fmt::format("binding = {}", *d.binding));
  return parts;
}

// Transform feedback qualifiers of an output (its buffer, stride, offset).
void add_xfb(const ir::Decorations& d, bool with_offset, std::vector<std::string>& parts) {
  if (d.xfb_buffer) parts.push_back(fmt::format("xfb_buffer = {}", *d.xfb_buffer));
  if (d.xfb_stride) parts.push_back(fmt::format("xfb_stride = {}", *d.xfb_stride));
  if (with_offset && d.xfb_offset) parts.push_back(fmt::format("xfb_offset = {}", *d.xfb_offset));
}

// NVIDIA's layout qualifiers of an input or output (docs/ir.md,
// "Decorations"), each with the extension that declares it; desktop GLSL
// only, as the built-ins of those extensions (ir/built_in.h).
void add_nv_layout(EmitContext& ctx, const ir::Decorations& d, std::vector<std::string>& parts) {
  if (!d.passthrough && !d.viewport_relative && !d.secondary_view_offset) return;
  if (ctx.es) {
    ctx.fail("layout(passthrough), viewport_relative and secondary_view_offset do not exist in GLSL ES");
    return;
  }
  if (d.passthrough) {
    ctx.extensions.insert("GL_NV_geometry_shader_passthrough");
    parts.push_back("passthrough");
  }
  if (d.viewport_relative) {
    ctx.extensions.insert("GL_NV_viewport_array2");
    parts.push_back("viewport_relative");
  }
  if (d.secondary_view_offset) {
    ctx.extensions.insert("GL_NV_stereo_view_rendering");
    parts.push_back(fmt::format("secondary_view_offset = {}", *d.secondary_view_offset));
  }
}

bool is_per_vertex_output(const ir::Variable& v, StorageClass storage) {
  const std::string& b = v.decorations.built_in;
  return storage == StorageClass::Output &&
         (b == "Position" || b == "PointSize" || b == "ClipDistance" || b == "CullDistance");
}

class GlobalDeclarer {
 public:
  explicit GlobalDeclarer(EmitContext& ctx) : ctx_(ctx), m_(ctx.m) {}

  void declare(VariableId id, const ir::Decorations& d, std::string& out) {
    if (id.index() < ctx_.unwritten_globals.size() && ctx_.unwritten_globals[id.index()]) return;
    const ir::Variable& v = m_.variable(id);
    const TypeId pointee = pointee_of(ctx_, v);
    const StorageClass storage = storage_of(ctx_, v);
    const std::string& name = ctx_.variable_names[id.index()];
    switch (ctx_.variable_forms[id.index()]) {
      case VariableForm::BuiltIn:
        builtin_redeclaration(v, pointee, storage, name, out);
        return;
      case VariableForm::BuiltInBlock:
        // Redeclared only for a passthrough geometry input, whose qualifier
        // is the block's; uses spell the members alone.
        if (d.passthrough) builtin_block_redeclaration(d, pointee, storage, out);
        return;
      default: break;
    }
    if (block_type_of(ctx_, pointee).valid()) return block(id, d, pointee, storage, out);
    const std::string prec = precision_prefix(ctx_, pointee, v.precision, true);
    const std::string decl = declarator(ctx_, pointee, name);
    std::string init;
    if (v.initializer.valid()) init = " = " + constant_expr(ctx_, v.initializer).text;
    switch (storage) {
      case StorageClass::Input:
      case StorageClass::Output:
        out += varying(d, pointee, storage) + prec + decl + ";\n";
        return;
      case StorageClass::Uniform:
      case StorageClass::UniformConstant:
        if (contains_opaque(ctx_, pointee)) {
          out += opaque_uniform(d, pointee) + prec + decl + ";\n";
          return;
        }
        if (ctx_.vulkan) {
          ctx_.fail(fmt::format("uniform '{}' is outside a block; Vulkan GLSL keeps non-opaque uniforms in blocks",
                                name));
          return;
        }
        out += layout_text(d.location ? std::vector<std::string>{fmt::format("location = {}", *d.location)}
                                      : std::vector<std::string>{}) +
               "uniform " + prec + decl + init + ";\n";
        return;
      case StorageClass::Workgroup:
        if (m_.shader().stage != ir::ShaderStage::Compute)
          ctx_.fail(fmt::format("shared variable '{}' outside a compute shader", name));
        out += "shared " + prec + decl + ";\n";
        return;
      case StorageClass::Private: out += prec + decl + init + ";\n"; return;
      case StorageClass::PushConstant:
        // A block without instance name keeps uses spelled `name`.
        if (!ctx_.vulkan) ctx_.fail(fmt::format("push constant '{}' exists only in Vulkan GLSL", name));
        out += "layout(push_constant) uniform " + ctx_.wrapper_blocks[id.index()] + " {\n    " + prec + decl + ";\n};\n";
        return;
      case StorageClass::StorageBuffer:
        ctx_.fail(fmt::format("'{}': {} storage needs a block type", name, ir::to_string(storage)));
        return;
      case StorageClass::Function: return;  // never a global in valid IR
    }
  }

 private:
  void builtin_redeclaration(const ir::Variable& v, TypeId pointee, StorageClass storage, const std::string& name,
                             std::string& out) {
    if (is_per_vertex_output(v, storage) && captured_per_vertex()) {
      if (!per_vertex_declared_) per_vertex_redeclaration(out);
      per_vertex_declared_ = true;
      if (v.decorations.invariant) out += "invariant " + name + ";\n";
      return;
    }
    const std::string& b = v.decorations.built_in;
    std::vector<std::string> parts;
    add_nv_layout(ctx_, v.decorations, parts);
    if (((b == "ClipDistance" || b == "CullDistance") && m_.type(pointee).kind == TypeKind::Array) || !parts.empty())
      out += fmt::format("{}{} {};\n", layout_text(parts), storage == StorageClass::Input ? "in" : "out",
                         declarator(ctx_, pointee, name));
    if (v.decorations.invariant) out += "invariant " + name + ";\n";
  }

  void builtin_block_redeclaration(const ir::Decorations& d, TypeId bt, StorageClass storage, std::string& out) {
    std::vector<std::string> parts;
    add_nv_layout(ctx_, d, parts);
    std::string members;
    for (std::uint32_t i = 0; i < m_.type(bt).members.size(); ++i)
      members += "    " + declarator(ctx_, m_.type(bt).members[i].type, member_name(ctx_, bt, i)) + ";\n";
    out += layout_text(parts) + (storage == StorageClass::Input ? "in " : "out ") + m_.type(bt).name + " {\n" +
           members + "};\n";
  }

  // Whether transform feedback captures a gl_PerVertex output: then the
  // block is redeclared with the xfb qualifiers, holding every gl_PerVertex
  // output the module has.
  bool captured_per_vertex() const {
    for (VariableId g : m_.globals()) {
      const ir::Variable& v = m_.variable(g);
      if (is_per_vertex_output(v, storage_of(ctx_, v)) && (v.decorations.xfb_buffer || v.decorations.xfb_offset))
        return true;
    }
    return false;
  }

  // glslang ignores an xfb_stride on the redeclared block itself (the
  // buffer's stride then comes out as the members' extent) but takes one on
  // a member, so the stride goes on the first member, the buffer on the block.
  void per_vertex_redeclaration(std::string& out) {
    std::optional<std::uint32_t> buffer;
    std::string members;
    for (VariableId g : m_.globals()) {
      const ir::Variable& v = m_.variable(g);
      if (!is_per_vertex_output(v, storage_of(ctx_, v))) continue;
      std::vector<std::string> member_parts;
      if (!buffer && v.decorations.xfb_buffer) {
        buffer = v.decorations.xfb_buffer;
        if (v.decorations.xfb_stride) member_parts.push_back(fmt::format("xfb_stride = {}", *v.decorations.xfb_stride));
      }
      if (v.decorations.xfb_offset) member_parts.push_back(fmt::format("xfb_offset = {}", *v.decorations.xfb_offset));
      members += "    " + layout_text(member_parts) +
                 declarator(ctx_, pointee_of(ctx_, v), ctx_.variable_names[g.index()]) + ";\n";
    }
    out += layout_text(buffer ? std::vector<std::string>{fmt::format("xfb_buffer = {}", *buffer)}
                              : std::vector<std::string>{}) +
           "out gl_PerVertex {\n" + members + "};\n";
  }

  std::string varying(const ir::Decorations& d, TypeId pointee, StorageClass storage) {
    std::vector<std::string> parts;
    if (storage == StorageClass::Output) add_xfb(d, true, parts);
    if (d.location) parts.push_back(fmt::format("location = {}", *d.location));
    if (d.component) {
      if (ctx_.es) ctx_.fail("layout(component) does not exist in GLSL ES");
      parts.push_back(fmt::format("component = {}", *d.component));
    }
    if (d.index && storage == StorageClass::Output) {
      if (ctx_.es) ctx_.extensions.insert("GL_EXT_blend_func_extended");
      parts.push_back(fmt::format("index = {}", *d.index));
    }
    if (d.stream) parts.push_back(fmt::format("stream = {}", *d.stream));
    add_nv_layout(ctx_, d, parts);
    std::string q = layout_text(parts);
    if (d.invariant && storage == StorageClass::Output) q += "invariant ";
    if (d.patch) q += "patch ";
    q += interpolation(d, pointee, storage);
    return q + (storage == StorageClass::Input ? "in " : "out ");
  }

  // Integer fragment inputs (and in GLSL ES vertex outputs) must be flat;
  // the IR may leave that implicit.
  std::string interpolation(const ir::Decorations& d, TypeId t, StorageClass storage) {
    const ir::ShaderStage stage = m_.shader().stage;
    const bool interpolated = (stage == ir::ShaderStage::Fragment && storage == StorageClass::Input) ||
                              (ctx_.es && stage == ir::ShaderStage::Vertex && storage == StorageClass::Output);
    std::string q;
    if (d.interpolation == ir::Interpolation::Flat || (interpolated && holds_integers(ctx_, t))) {
      q += "flat ";
    } else if (d.interpolation == ir::Interpolation::NoPerspective) {
      if (ctx_.es) ctx_.fail("noperspective does not exist in GLSL ES");
      q += "noperspective ";
    }
    if (d.centroid) q += "centroid ";
    if (d.sample) {
      if (ctx_.es) ctx_.extensions.insert("GL_OES_shader_multisample_interpolation");
      q += "sample ";
    }
    return q;
  }

  std::string opaque_uniform(const ir::Decorations& d, TypeId pointee) {
    std::vector<std::string> parts;
    const TypeId e = innermost_element(ctx_, pointee);
    const ir::Type& t = m_.type(e);
    if (t.kind == TypeKind::Image && t.image.storage && !t.image.format.empty()) {
      if (!is_valid_identifier(t.image.format))
        ctx_.fail(fmt::format("image format '{}' is not a GLSL format qualifier", t.image.format));
      parts.push_back(t.image.format);
    }
    if (is_opaque(ctx_, e))
      for (auto& p : set_binding(ctx_, d)) parts.push_back(p);
    return layout_text(parts) + "uniform " + words(memory_qualifiers(d));
  }

  void block(VariableId id, const ir::Decorations& d, TypeId pointee, StorageClass storage, std::string& out) {
    const TypeId bt = block_type_of(ctx_, pointee);
    const ir::Type& t = m_.type(bt);
    std::vector<std::string> parts;
    std::string storage_word;
    bool std430 = true;
    // Vulkan's default layouts (std140 uniform, std430 buffer) go unstated
    // unless every member has an offset: a stated layout makes glslang
    // record all of them, and sources that state none get none.
    bool all_offsets = true;
    for (const auto& mem : t.members) all_offsets = all_offsets && mem.offset;
    const bool implicit = ctx_.vulkan && !all_offsets;
    bool laid_out = true;  // members follow std140/std430, so offsets can be checked
    switch (storage) {
      case StorageClass::Uniform:
      case StorageClass::UniformConstant:
        storage_word = "uniform";
        std430 = t.layout == ir::BlockLayout::Std430;
        if (std430) ctx_.fail(fmt::format("uniform block '{}' has std430 layout, which GLSL allows only for buffers",
                                          t.name));
        if (t.layout == ir::BlockLayout::Std140 && !implicit) parts.push_back("std140");
        laid_out = ctx_.vulkan || t.layout != ir::BlockLayout::None;
        for (auto& p : set_binding(ctx_, d)) parts.push_back(p);
        break;
      case StorageClass::StorageBuffer:
        storage_word = "buffer";
        std430 = t.layout != ir::BlockLayout::Std140;
        if (t.layout != ir::BlockLayout::None && !(implicit && std430)) parts.push_back(std430 ? "std430" : "std140");
        laid_out = ctx_.vulkan || t.layout != ir::BlockLayout::None;
        for (auto& p : set_binding(ctx_, d)) parts.push_back(p);
        break;
      case StorageClass::PushConstant:
        if (!ctx_.vulkan) ctx_.fail(fmt::format("push constant block '{}' exists only in Vulkan GLSL", t.name));
        storage_word = "uniform";
        parts.push_back("push_constant");
        std430 = t.layout != ir::BlockLayout::Std140;
        if (t.layout == ir::BlockLayout::Std140) parts.push_back("std140");
        break;
      case StorageClass::Input:
      case StorageClass::Output:
        storage_word = storage == StorageClass::Input ? "in" : "out";
        laid_out = false;
        if (d.location) parts.push_back(fmt::format("location = {}", *d.location));
        if (storage == StorageClass::Output) add_xfb(d, true, parts);
        if (d.stream) parts.push_back(fmt::format("stream = {}", *d.stream));
        add_nv_layout(ctx_, d, parts);
        if (d.patch) storage_word = "patch " + storage_word;
        break;
      default:
        ctx_.fail(fmt::format("block '{}' in {} storage", t.name, ir::to_string(storage)));
        return;
    }
    const bool varying = storage == StorageClass::Input || storage == StorageClass::Output;
    if (ctx_.vulkan && !varying && array_dims(ctx_, pointee).find("][") != std::string::npos)
      ctx_.fail(fmt::format("'{}': Vulkan has no arrays of arrays of blocks", ctx_.variable_names[id.index()]));
    // Built-in blocks keep the type's name (module_names names user blocks).
    const std::string& name = ctx_.block_names[id.index()].empty() ? t.name : ctx_.block_names[id.index()];
    out += layout_text(parts) + words(memory_qualifiers(d)) + storage_word + " " + name + " {\n";
    std::uint32_t cursor = 0;
    // [offset, end) of every member, to find overlaps once all are placed.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
    for (std::uint32_t i = 0; i < t.members.size(); ++i) {
      const ir::StructMember& mem = t.members[i];
      std::vector<std::string> mparts;
      const bool row_major = mem.matrix_layout == ir::MatrixLayout::RowMajor;
      if (laid_out) {
        const MemberLayout l = std_layout(ctx_, mem.type, std430, row_major);
        const std::uint32_t expected = round_up(cursor, l.align);
        if (mem.offset && *mem.offset % l.align != 0) {
          // GLSL 4.60 §4.4.5: an offset is a multiple of the member's
          // alignment. (Offsets out of member order, which the same section
          // forbids, glslang and SPIR-V take: they are written as given.)
          ctx_.fail(fmt::format("block '{}': member '{}' at offset {}, which {} does not allow (misaligned)", t.name,
                                mem.name, *mem.offset, std430 ? "std430" : "std140"));
          return;
        }
        ranges.emplace_back(mem.offset ? *mem.offset : expected, (mem.offset ? *mem.offset : expected) + l.size);
        if (mem.offset && *mem.offset != expected) {
          if (ctx_.es && !ctx_.vulkan) ctx_.fail(fmt::format("block '{}': member '{}' needs layout(offset), which GLSL ES lacks",
                                             t.name, mem.name));
          mparts.push_back(fmt::format("offset = {}", *mem.offset));
          cursor = *mem.offset + l.size;
        } else {
          cursor = expected + l.size;
        }
      }
      if (mem.location) mparts.push_back(fmt::format("location = {}", *mem.location));
      if (row_major) mparts.push_back("row_major");
      if (mem.xfb_offset) mparts.push_back(fmt::format("xfb_offset = {}", *mem.xfb_offset));
      std::string q = layout_text(mparts);
      if (varying) q += interpolation(ir::Decorations{}, mem.type, storage);
      q += precision_prefix(ctx_, mem.type, mem.precision, true);
      out += "    " + q + declarator(ctx_, mem.type, member_name(ctx_, bt, i)) + ";\n";
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t k = 1; k < ranges.size(); ++k)
      if (ranges[k].first < ranges[k - 1].second) {
        ctx_.fail(fmt::format("block '{}': members overlap at offset {}", t.name, ranges[k].first));
        return;
      }
    if (ctx_.variable_forms[id.index()] == VariableForm::AnonymousBlock)
      out += "};\n";
    else
      out += "} " + ctx_.variable_names[id.index()] + array_dims(ctx_, pointee) + ";\n";
  }

  EmitContext& ctx_;
  const ir::Module& m_;
  bool per_vertex_declared_ = false;
};

}  // namespace

namespace {

// The geometry and tessellation layout declarations (GLSL 4.60
// §4.4.1.2-4.4.2.2); GLSL ES has these stages with extensions.
std::string stage_layout(EmitContext& ctx) {
  const ir::ShaderInfo& s = ctx.m.shader();
  std::string out;
  switch (s.stage) {
    case ir::ShaderStage::Geometry: {
      if (ctx.es) ctx.extensions.insert("GL_EXT_geometry_shader");
      std::vector<std::string> in{ir::to_string(s.input_primitive)};
      if (s.invocations) in.push_back(fmt::format("invocations = {}", *s.invocations));
      out += fmt::format("layout({}) in;\n", fmt::join(in, ", "));
      out += fmt::format("layout({}, max_vertices = {}) out;\n", ir::to_string(s.output_primitive),
                         s.output_vertices.value_or(0));
      break;
    }
    case ir::ShaderStage::TessControl:
      if (ctx.es) ctx.extensions.insert("GL_EXT_tessellation_shader");
      if (s.output_vertices) out += fmt::format("layout(vertices = {}) out;\n", *s.output_vertices);
      break;
    case ir::ShaderStage::TessEvaluation: {
      if (ctx.es) ctx.extensions.insert("GL_EXT_tessellation_shader");
      std::vector<std::string> in;
      if (s.input_primitive != ir::Primitive::None) in.push_back(ir::to_string(s.input_primitive));
      if (s.spacing != ir::TessSpacing::None) in.push_back(ir::to_string(s.spacing));
      if (s.order != ir::VertexOrder::None) in.push_back(ir::to_string(s.order));
      if (s.point_mode) in.push_back("point_mode");
      if (!in.empty()) out += fmt::format("layout({}) in;\n", fmt::join(in, ", "));
      break;
    }
    default: break;
  }
  return out;
}

}  // namespace

std::string emit_declarations(EmitContext& ctx) {
  const ir::Module& m = ctx.m;
  std::string out;
  const ir::ShaderInfo& s = m.shader();
  if (s.stage == ir::ShaderStage::Fragment && s.early_fragment_tests) out += "layout(early_fragment_tests) in;\n";
  out += stage_layout(ctx);
  if (s.stage == ir::ShaderStage::Compute)
    out += fmt::format("layout(local_size_x = {}, local_size_y = {}, local_size_z = {}) in;\n", s.local_size[0],
                       s.local_size[1], s.local_size[2]);
  if (s.stage == ir::ShaderStage::Compute && ctx.vulkan) {
    // Specialized dimensions (Vulkan only); the local_size above is their default.
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i)
      if (s.local_size_spec_id[i])
        ids.push_back(fmt::format("local_size_{}_id = {}", "xyz"[i], *s.local_size_spec_id[i]));
    if (!ids.empty()) out += fmt::format("layout({}) in;\n", fmt::join(ids, ", "));
  }
  if (!out.empty()) out += "\n";

  for (const auto& sc : ctx.spec_constants) {
    const ir::Constant& c = m.constant(sc.id);
    out += fmt::format("{}const {} {} = {};\n", ctx.vulkan ? fmt::format("layout(constant_id = {}) ", *c.spec_id) : "",
                       type_text(ctx, c.type), sc.name, sc.default_value);
  }
  if (!ctx.spec_constants.empty()) out += "\n";

  // Structs that something uses, each after the structs it contains (an
  // interned type's parts always have lower ids).
  std::vector<char> used(m.type_count(), 0);
  auto mark = [&](TypeId t) {
    if (t.valid() && t.index() < used.size()) used[t.index()] = used[ctx.canonical[t.index()].index()] = 1;
  };
  for (std::uint32_t i = 0; i < m.variable_count(); ++i) mark(m.variable(VariableId(i)).type);
  for (std::uint32_t i = 0; i < m.register_count(); ++i) mark(m.reg(ir::RegisterId(i)).type);
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) mark(m.constant(ir::ConstantId(i)).type);
  for (std::uint32_t i = 0; i < m.function_count(); ++i) mark(m.function(ir::FunctionId(i)).return_type);
  for (std::uint32_t i = m.type_count(); i-- > 0;) {
    if (!used[i]) continue;
    const ir::Type& t = m.type(TypeId(i));
    if (t.kind == TypeKind::Struct)
      for (const auto& mem : t.members) mark(mem.type);
    else if (t.element.valid())
      mark(t.element);
  }
  for (std::uint32_t i = 0; i < m.type_count(); ++i) {
    const ir::Type& t = m.type(TypeId(i));
    if (!used[i] || t.kind != TypeKind::Struct || t.is_block || ctx.canonical[i].index() != i) continue;
    out += "struct " + ctx.struct_names[i] + " {\n";
    for (std::uint32_t k = 0; k < t.members.size(); ++k)
      out += "    " + precision_prefix(ctx, t.members[k].type, t.members[k].precision, true) +
             declarator(ctx, t.members[k].type, ctx.member_names[i][k]) + ";\n";
    out += "};\n\n";
  }

  const std::vector<ir::Decorations> slots = assign_interface_slots(ctx);
  GlobalDeclarer declarer(ctx);
  std::string globals;
  for (std::size_t i = 0; i < m.globals().size(); ++i) declarer.declare(m.globals()[i], slots[i], globals);
  if (!globals.empty()) out += globals + "\n";
  return out;
}

std::string emit_header(const EmitContext& ctx) {
  std::string out = ctx.es ? "#version 310 es\n" : "#version 450\n";
  for (const auto& e : ctx.extensions) out += "#extension " + e + " : require\n";
  auto word = [](ir::Precision p) {
    return p == ir::Precision::Low ? "lowp" : p == ir::Precision::Medium ? "mediump" : "highp";
  };
  if (ctx.es) out += fmt::format("precision {} float;\nprecision {} int;\n", word(ctx.default_float), word(ctx.default_int));
  return out + "\n";
}

}  // namespace sluice::glsl_out
