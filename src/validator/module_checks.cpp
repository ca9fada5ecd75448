// Module-level checks of variables, globals and function signatures, the
// entry point and the call graph.
#include <fmt/format.h>

#include "ir/stage_interface.h"
#include "ir/typing.h"
#include "validator/context.h"

namespace sluice::validator::detail {

using ir::StorageClass;
using ir::TypeKind;

namespace {

// The type under any arrays (bounded by the type count: types are a DAG).
const ir::Type* without_arrays(const Context& ctx, const ir::Type* t) {
  for (std::uint32_t depth = 0; t && t->kind == TypeKind::Array && depth < ctx.m.type_count(); ++depth)
    t = ctx.usable_type(t->element);
  return t;
}

// Whether a bool is part of `type` outside a built-in member: a worklist
// over the type DAG, each type looked at once.
bool holds_bool_outside_built_ins(const Context& ctx, ir::TypeId type) {
  std::vector<std::uint8_t> seen(ctx.m.type_count(), 0);
  std::vector<ir::TypeId> work{type};
  while (!work.empty()) {
    const ir::TypeId id = work.back();
    work.pop_back();
    const ir::Type* t = ctx.usable_type(id);
    if (!t || seen[id.index()]) continue;
    seen[id.index()] = 1;
    if (t->kind == TypeKind::Scalar && t->scalar == ir::ScalarKind::Bool) return true;
    if (t->kind == TypeKind::Vector || t->kind == TypeKind::Array || t->kind == TypeKind::UnsizedArray)
      work.push_back(t->element);
    if (t->kind == TypeKind::Struct)
      for (const ir::StructMember& member : t->members)
        if (member.built_in.empty()) work.push_back(member.type);
  }
  return false;
}

// Decorations that only a stage's inputs and outputs carry: on a resource,
// push constant, shared or private variable SPIR-V for Vulkan refuses them
// (spirv-val: VUID-StandaloneSpirv-Flat-04670 for flat, noperspective,
// centroid and sample, Invariant-04677, Location-06672 for location and
// component; Index "must be in the Output storage class"), and GLSL has no
// spelling for them there (GLSL 4.60 §4.3.9, §4.5, §4.6.1: `centroid
// uniform` and `invariant buffer` do not compile). The one exception is a
// location on a Uniform or UniformConstant variable: OpenGL's default-block
// uniforms (`layout(location = 2) uniform vec4 c;`), which the IR keeps for
// OpenGL (outputs for Vulkan drop it).
void check_interface_only_decorations(Context& ctx, std::uint32_t i, StorageClass storage) {
  if (storage == StorageClass::Input || storage == StorageClass::Output) {
    if (storage == StorageClass::Input && ctx.m.variable(ir::VariableId(i)).decorations.index)
      ctx.report(fmt::format("v{}: index={} on an Input; only outputs (a fragment shader's, for dual-source "
                             "blending) have an index",
                             i, *ctx.m.variable(ir::VariableId(i)).decorations.index));
    return;
  }
  const ir::Decorations& d = ctx.m.variable(ir::VariableId(i)).decorations;
  std::vector<std::string> found;
  if (d.interpolation == ir::Interpolation::Flat) found.emplace_back("flat");
  if (d.interpolation == ir::Interpolation::NoPerspective) found.emplace_back("noperspective");
  if (d.centroid) found.emplace_back("centroid");
  if (d.sample) found.emplace_back("sample");
  if (d.invariant) found.emplace_back("invariant");
  if (d.component) found.emplace_back("component");
  if (d.index) found.emplace_back("index");
  if (d.location && storage != StorageClass::Uniform && storage != StorageClass::UniformConstant)
    found.emplace_back("location");
  if (!found.empty())
    ctx.report(fmt::format("v{}: {} on a {} variable; only inputs and outputs have {}", i, fmt::join(found, ", "),
                           ir::to_string(storage), found.size() == 1 ? "it" : "them"));
}

}  // namespace

void check_variables(Context& ctx) {
  const ir::Module& m = ctx.m;
  for (std::uint32_t i = 0; i < m.variable_count(); ++i) {
    const ir::Variable& v = m.variable(ir::VariableId(i));
    const ir::Type* t = ctx.usable_type(v.type);
    if (!t) {
      if (!v.type.valid() || v.type.index() >= m.type_count())
        ctx.report(fmt::format("v{}: type {} does not exist", i, id_text('t', v.type.index())));
      continue;
    }
    if (t->kind != TypeKind::Pointer) {
      ctx.report(fmt::format("v{}: type {} is not a pointer; variables are always pointers", i, ctx.type_name(v.type)));
      continue;
    }
    ctx.variable_ok[i] = 1;
    // Push constants are one block (Vulkan: VUID-StandaloneSpirv-PushConstant-06675,
    // 06808; GLSL: `layout(push_constant) uniform Name { ... }`); a plain struct
    // would give SPIR-V without the Block decoration and member offsets.
    if (t->storage == StorageClass::PushConstant) {
      const ir::Type* e = ctx.usable_type(t->element);
      if (e && !(e->kind == TypeKind::Struct && e->is_block))
        ctx.report(fmt::format("v{}: a PushConstant variable must be a block (a struct marked [block]), not {}", i,
                               ctx.type_name(t->element)));
    }
    // Vulkan's uniform buffers use the std140 rules unless the device enables
    // uniformBufferStandardLayout or scalarBlockLayout (Vulkan 1.3 §16.9.4
    // "Offset and Stride Assignment"; spirv-val: "must follow standard uniform
    // buffer layout rules"). Sluice targets no such feature, so a std430
    // Uniform block (glslang makes one under GL_EXT_scalar_block_layout) would
    // be SPIR-V that Vulkan 1.0 rejects.
    if (t->storage == StorageClass::Uniform) {
      const ir::Type* e = without_arrays(ctx, ctx.usable_type(t->element));
      if (e && e->kind == TypeKind::Struct && e->is_block && e->layout == ir::BlockLayout::Std430)
        ctx.report(fmt::format("v{}: a Uniform block with std430 layout; Vulkan uniform blocks are std140 unless "
                               "uniformBufferStandardLayout is enabled, which Sluice does not target (use std140, or "
                               "a buffer block)",
                               i));
    }
    // VUID-StandaloneSpirv-Input-07290: a bool crosses a stage boundary only
    // as a built-in (gl_FrontFacing, gl_HelperInvocation); GLSL 4.60 §4.3.4
    // and §4.3.6 forbid bool inputs and outputs.
    if ((t->storage == StorageClass::Input || t->storage == StorageClass::Output) && v.decorations.built_in.empty() &&
        holds_bool_outside_built_ins(ctx, t->element))
      ctx.report(fmt::format("v{}: an {} that holds a bool; only built-ins may (GLSL has no bool inputs or outputs)", i,
                             ir::to_string(t->storage)));
    // Interpolation qualifiers name how a fragment input is interpolated:
    // none on a vertex shader's inputs or a fragment shader's outputs
    // (VUID-StandaloneSpirv-Flat-06201, -06202; GLSL 4.60 §4.5).
    const ir::Decorations& d = v.decorations;
    const bool interpolated = d.interpolation != ir::Interpolation::Smooth || d.centroid || d.sample;
    const ir::ShaderStage stage = m.shader().stage;
    if (interpolated && ((stage == ir::ShaderStage::Vertex && t->storage == StorageClass::Input) ||
                         (stage == ir::ShaderStage::Fragment && t->storage == StorageClass::Output)))
      ctx.report(fmt::format("v{}: an interpolation qualifier (flat, noperspective, centroid or sample) on a {} {}", i,
                             ir::to_string(stage), ir::to_string(t->storage)));
    check_interface_only_decorations(ctx, i, t->storage);
    // readonly/writeonly are memory qualifiers of storage images and buffer
    // blocks (GLSL 4.60 §4.10; SPIR-V's NonWritable/NonReadable, which
    // spirv-val allows on storage images, uniform blocks and storage buffers).
    if (v.decorations.readonly || v.decorations.writeonly) {
      const ir::Type* e = without_arrays(ctx, ctx.usable_type(t->element));
      const bool storage_image = e && e->kind == TypeKind::Image && e->image.storage;
      const bool buffer_block = e && e->kind == TypeKind::Struct && e->is_block &&
                                (t->storage == StorageClass::StorageBuffer ||
                                 (t->storage == StorageClass::Uniform && !v.decorations.writeonly));
      if (!storage_image && !buffer_block)
        ctx.report(fmt::format("v{}: {} applies only to storage images and buffer blocks, not {}", i,
                               v.decorations.readonly ? "readonly" : "writeonly", ctx.type_name(t->element)));
    }
    // VUID-StandaloneSpirv-Location-04918: a variable whose block gives its
    // members locations has none itself; only inputs and outputs have them.
    if (const ir::Type* e = ctx.usable_type(t->element); e && ir::has_member_locations(m, t->element)) {
      if (t->storage != StorageClass::Input && t->storage != StorageClass::Output)
        ctx.report(fmt::format("v{}: block members with locations in {} storage; only inputs and outputs have them", i,
                               ir::to_string(t->storage)));
      if (v.decorations.location)
        ctx.report(fmt::format("v{}: has location={} but its block's members have their own locations", i,
                               *v.decorations.location));
      else if (m.type(ir::location_type(m, v)).kind != TypeKind::Struct)
        ctx.report(fmt::format("v{}: an array of blocks whose members have locations; only a block or a "
                               "per-vertex array of them may give its members locations",
                               i));
    }
    if (!v.initializer.valid()) continue;
    if (v.initializer.index() >= m.constant_count()) {
      ctx.report(fmt::format("v{}: initializer c{} does not exist", i, v.initializer.index()));
    } else if (ctx.constant_ok[v.initializer.index()] && m.constant(v.initializer).type != t->element) {
      ctx.report(fmt::format("v{}: initializer c{} has type {}, but the variable holds {}", i, v.initializer.index(),
                             ctx.type_name(m.constant(v.initializer).type), ctx.type_name(t->element)));
    }
  }
}

void check_globals(Context& ctx) {
  const ir::Module& m = ctx.m;
  for (ir::VariableId v : m.globals()) {
    if (!v.valid() || v.index() >= m.variable_count()) {
      ctx.report(fmt::format("Globals: {} does not exist", id_text('v', v.index())));
      continue;
    }
    if (ctx.is_global[v.index()]) {
      ctx.report(fmt::format("Globals: v{} is listed twice", v.index()));
      continue;
    }
    ctx.is_global[v.index()] = 1;
    ctx.variable_declared[v.index()] = 1;
    if (ctx.variable_ok[v.index()] && ctx.storage_of(v) == StorageClass::Function)
      ctx.report(
          fmt::format("Globals: v{} has Function storage; globals live in the other storage classes", v.index()));
  }
}

void check_function_signatures(Context& ctx) {
  const ir::Module& m = ctx.m;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const ir::FunctionId fid(i);
    const ir::Function& f = m.function(fid);
    const Where where{fid, {}, -1};
    bool ok = true;
    const ir::Type* ret = ctx.usable_type(f.return_type);
    if (!ret) {
      ok = false;
      if (!f.return_type.valid() || f.return_type.index() >= m.type_count())
        ctx.report(fmt::format("return type {} does not exist", id_text('t', f.return_type.index())), where);
    } else if (ret->kind == TypeKind::Pointer || ret->kind == TypeKind::UnsizedArray) {
      ctx.report(fmt::format("returns {}; functions return values", ctx.type_name(f.return_type)), where);
    }
    for (const ir::FunctionParam& p : f.params) {
      const ir::VariableId v = p.variable;
      if (!v.valid() || v.index() >= m.variable_count()) {
        ctx.report(fmt::format("parameter {} does not exist", id_text('v', v.index())), where);
        ok = false;
        continue;
      }
      if (p.direction > ir::ParamDirection::InOut)
        ctx.report(fmt::format("parameter v{} has no valid direction", v.index()), where);
      if (ctx.variable_declared[v.index()]) {
        ctx.report(fmt::format("parameter v{} is already a global or a parameter", v.index()), where);
        continue;
      }
      ctx.variable_declared[v.index()] = 1;
      ctx.param_of[v.index()] = i;
      if (!ctx.variable_ok[v.index()]) {
        ok = false;
        continue;
      }
      const StorageClass s = ctx.storage_of(v);
      if (s != StorageClass::Function)
        ctx.report(fmt::format("parameter v{} has {} storage; parameters are Function-storage variables", v.index(),
                               ir::to_string(s)),
                   where);
    }
    ctx.function_ok[i] = ok ? 1 : 0;
  }
}

void check_entry_point(Context& ctx) {
  const ir::Module& m = ctx.m;
  if (m.function_count() == 0) return;
  ir::FunctionId main;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (m.function(ir::FunctionId(i)).name.text != "main") continue;
    if (main.valid()) {
      ctx.report(fmt::format("f{} and f{} are both named 'main'; there is one entry point", main.index(), i));
      continue;
    }
    main = ir::FunctionId(i);
  }
  if (!main.valid()) {
    ctx.report("no entry point: no function is named 'main'");
    return;
  }
  const ir::Function& f = m.function(main);
  const Where where{main, {}, -1};
  if (f.return_type != ir::predefined::kVoid)
    ctx.report(fmt::format("the entry point returns {}; it must return void", ctx.type_name(f.return_type)), where);
  if (!f.params.empty())
    ctx.report(fmt::format("the entry point takes {} parameters; it must take none", f.params.size()), where);
}

// Depth-first search with colours on an explicit stack; an edge to a
// function still on the stack closes a cycle, which is reported with the
// stack's path from that function.
void check_no_recursion(Context& ctx) {
  const std::size_t n = ctx.callees.size();
  enum : std::uint8_t { kUnseen, kOnStack, kDone };
  std::vector<std::uint8_t> state(n, kUnseen);
  struct Frame {
    std::uint32_t function;
    std::size_t next_edge;
  };
  std::vector<Frame> stack;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (state[root] != kUnseen) continue;
    state[root] = kOnStack;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      Frame& top = stack.back();
      const auto& edges = ctx.callees[top.function];
      if (top.next_edge == edges.size()) {
        state[top.function] = kDone;
        stack.pop_back();
        continue;
      }
      const std::uint32_t callee = edges[top.next_edge++];
      if (state[callee] == kUnseen) {
        state[callee] = kOnStack;
        stack.push_back({callee, 0});
      } else if (state[callee] == kOnStack) {
        std::string path;
        std::size_t from = stack.size();
        while (from > 0 && stack[from - 1].function != callee) --from;
        for (std::size_t k = from == 0 ? 0 : from - 1; k < stack.size(); ++k)
          path += ctx.function_name(ir::FunctionId(stack[k].function)) + " -> ";
        path += ctx.function_name(ir::FunctionId(callee));
        ctx.report(fmt::format("recursion is not allowed: call cycle {}", path),
                   Where{ir::FunctionId(top.function), {}, -1});
      }
    }
  }
}

// Typing compares types by id (ir::check_result_type), so each type must
// be in the table once: the id the module's index gives it is its own.
void check_types_interned(Context& ctx) {
  const ir::Module& m = ctx.m;
  for (std::uint32_t i = 0; i < m.type_count(); ++i) {
    const auto got = m.find_type(m.type(ir::TypeId(i)));
    if (got && got->index() != i) {
      ctx.report(fmt::format("t{} duplicates t{}; types are interned, each once", i, got->index()));
      return;
    }
  }
}

}  // namespace sluice::validator::detail
