// Module-level names: interface names are reserved first and kept exactly;
// structs, functions, other globals and specialization constants are
// sanitized and made unique around them.
#include "output/glsl/module_names.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "ir/built_in.h"
#include "ir/workgroup_size.h"
#include "output/glsl/builtins.h"
#include "output/glsl/interface.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {

using ir::StorageClass;
using ir::TypeId;
using ir::TypeKind;
using ir::VariableId;

const std::string& member_name(const EmitContext& ctx, TypeId struct_type, std::uint32_t index) {
  static const std::string kMissing = "_missing_member";
  if (!struct_type.valid() || struct_type.index() >= ctx.canonical.size()) return kMissing;
  const auto& names = ctx.member_names[ctx.canonical[struct_type.index()].index()];
  return index < names.size() ? names[index] : kMissing;
}

void name_module(EmitContext& ctx) {
  const ir::Module& m = ctx.m;
  ctx.variable_names.assign(m.variable_count(), "");
  ctx.variable_forms.assign(m.variable_count(), VariableForm::Named);
  ctx.is_global.assign(m.variable_count(), 0);
  ctx.struct_names.assign(m.type_count(), "");
  ctx.member_names.assign(m.type_count(), {});
  ctx.function_names.assign(m.function_count(), "");

  // Built-ins, and which globals are blocks of which kind.
  std::vector<VariableId> globals;
  std::vector<char> block_used(m.type_count(), 0);
  for (VariableId id : m.globals()) {
    const ir::Variable& v = m.variable(id);
    const StorageClass storage = storage_of(ctx, v);
    ctx.is_global[id.index()] = 1;
    if (!v.decorations.built_in.empty()) {
      ctx.variable_forms[id.index()] = VariableForm::BuiltIn;
      ctx.variable_names[id.index()] = builtin_variable_name(ctx, v.decorations.built_in, storage);
      continue;
    }
    const TypeId bt = block_type_of(ctx, pointee_of(ctx, v));
    if (bt.valid()) {
      // Block names are unique per interface: an input and an output
      // block may share one (a geometry shader's `in V {…} a[]; out V {…} b;`).
      // Uniform and buffer blocks sharing a type get names of their own
      // below; stages match in/out blocks by name, so those cannot.
      const bool input = storage == StorageClass::Input;
      if ((block_used[bt.index()] & (input ? 2 : 1)) && (input || storage == StorageClass::Output))
        ctx.fail(fmt::format("block type '{}' is used by two variables; GLSL block names are unique",
                             m.type(bt).name));
      block_used[bt.index()] |= input ? 2 : 1;
      const auto& members = m.type(bt).members;
      std::size_t builtins = 0;
      for (const auto& mem : members) builtins += !mem.built_in.empty();
      if (builtins == members.size() && bt != pointee_of(ctx, v)) {
        // gl_in[] / gl_out[]: named, and redeclared as an array of
        // gl_PerVertex holding the members the module has.
        ctx.variable_names[id.index()] = storage == StorageClass::Input ? "gl_in" : "gl_out";
        for (const auto& mem : members)
          ctx.member_names[bt.index()].push_back(builtin_variable_name(ctx, mem.built_in, storage));
        // glslang checks a redeclared block's members against the
        // extensions of its implicit block's members by position, not name
        // (a control shader's gl_in has gl_SecondaryPositionNV where a
        // redeclaration may put gl_PositionPerViewNV): a block holding one of
        // NVIDIA's members enables all of NVIDIA's per-vertex extensions.
        if (std::any_of(members.begin(), members.end(), [](const auto& mem) {
              const ir::BuiltInInfo* b = ir::find_built_in(mem.built_in);
              return b && (b->extension.starts_with("GL_NV_") || b->extension.starts_with("GL_NVX_"));
            }))
          for (const char* e : {"GL_NV_viewport_array2", "GL_NV_stereo_view_rendering", "GL_NVX_multiview_per_view_attributes"})
            ctx.extensions.insert(e);
        continue;
      }
      if (builtins == members.size()) {
        ctx.variable_forms[id.index()] = VariableForm::BuiltInBlock;
        for (const auto& mem : members)
          ctx.member_names[bt.index()].push_back(builtin_variable_name(ctx, mem.built_in, storage));
        continue;
      }
      if (builtins) ctx.fail(fmt::format("block '{}' mixes built-in and user members", m.type(bt).name));
      if (v.name.text.empty()) ctx.variable_forms[id.index()] = VariableForm::AnonymousBlock;
    }
    globals.push_back(id);
  }

  // Interface names first: they cannot change.
  auto exact = [&](const std::string& name, std::string_view what) {
    if (!is_valid_identifier(name))
      ctx.fail(fmt::format("{} '{}' is not a valid GLSL identifier and cannot be renamed", what, name));
    else if (!ctx.globals.take_exact(name))
      ctx.fail(fmt::format("{} '{}' clashes with another interface name", what, name));
  };
  for (VariableId id : globals) {
    const ir::Variable& v = m.variable(id);
    // Legacy built-ins a front end made user variables (gl_FragColor) are
    // reserved in the output's GLSL; they are renamed with the others.
    if (v.name.source != ir::NameSource::Interface || v.name.text.empty() || v.name.text.starts_with("gl_")) continue;
    exact(v.name.text, "interface variable");
    ctx.variable_names[id.index()] = v.name.text;
  }
  std::vector<char> block_named(m.type_count(), 0);
  // Block names taken, with the interfaces that took them (1 output, 2
  // input, 4 any other): an input block and a different output block may
  // share a name (GLSL 4.60 §4.3.9 matches blocks by name per interface;
  // glslang's reflection.options.geom has `in block {…} In[]; out block
  // {…} Out;`), as the SPIR-V reader gives them.
  std::map<std::string, unsigned> block_interfaces;
  ctx.block_names.assign(m.variable_count(), "");
  std::vector<VariableId> renamed_blocks;  // a second uniform/buffer block of one type
  for (VariableId id : globals) {
    const TypeId bt = block_type_of(ctx, pointee_of(ctx, m.variable(id)));
    if (!bt.valid()) continue;
    const ir::Type& t = m.type(bt);
    const StorageClass storage = storage_of(ctx, m.variable(id));
    if (block_named[bt.index()]++) {  // a second variable of one block type
      if (storage == StorageClass::Input || storage == StorageClass::Output) ctx.block_names[id.index()] = t.name;
      else renamed_blocks.push_back(id);  // named once every exact name is taken
      continue;
    }
    ctx.block_names[id.index()] = t.name;
    const unsigned interface = storage == StorageClass::Output ? 1 : storage == StorageClass::Input ? 2 : 4;
    if (auto it = block_interfaces.find(t.name); it != block_interfaces.end() && interface != 4 &&
                                                 !(it->second & (interface | 4))) {
      it->second |= interface;  // already reserved by the other interface's block
    } else {
      exact(t.name, "block name");
      block_interfaces[t.name] |= interface;
    }
    NameTable members;
    for (const auto& mem : t.members) {
      if (ctx.variable_forms[id.index()] == VariableForm::AnonymousBlock)
        exact(mem.name, "member of an anonymous block");
      else if (!is_valid_identifier(mem.name) || !members.take_exact(mem.name))
        ctx.fail(fmt::format("block '{}': member name '{}' is not a valid, unique GLSL identifier", t.name, mem.name));
      ctx.member_names[bt.index()].push_back(mem.name);
    }
  }
  for (VariableId id : renamed_blocks)
    ctx.block_names[id.index()] = ctx.globals.take(m.type(block_type_of(ctx, pointee_of(ctx, m.variable(id)))).name, "B");
  for (std::uint32_t i = 0; i < m.type_count(); ++i) {
    const ir::Type& t = m.type(TypeId(i));
    if (t.kind != TypeKind::Struct || t.is_block || ctx.canonical[i].index() != i) continue;
    ctx.struct_names[i] = ctx.globals.take(t.name, "S");
    if (ctx.vulkan && contains_opaque(ctx, TypeId(i)))
      ctx.fail(fmt::format("struct '{}' holds an opaque type, which Vulkan does not allow", t.name));
    NameTable members;
    for (const auto& mem : t.members) ctx.member_names[i].push_back(members.take(mem.name, "m"));
  }
  const ir::FunctionId entry = m.entry_point();
  if (entry.valid()) {
    ctx.globals.take_exact("main");
    ctx.function_names[entry.index()] = "main";
  }
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    if (ctx.function_names[i].empty()) ctx.function_names[i] = ctx.globals.take(m.function(ir::FunctionId(i)).name.text, "f");
  for (VariableId id : globals)
    if (ctx.variable_names[id.index()].empty() && ctx.variable_forms[id.index()] != VariableForm::AnonymousBlock)
      ctx.variable_names[id.index()] = ctx.globals.take(m.variable(id).name.text, "g");
  ctx.wrapper_blocks.assign(m.variable_count(), "");
  for (VariableId id : globals) {
    const ir::Variable& v = m.variable(id);
    if (storage_of(ctx, v) == StorageClass::PushConstant && !block_type_of(ctx, pointee_of(ctx, v)).valid())
      ctx.wrapper_blocks[id.index()] = ctx.globals.take(ctx.variable_names[id.index()] + "_block", "push_block");
  }

  // Specialization constants are declared by name; uses spell the name.
  for (std::uint32_t i = 0; i < m.constant_count(); ++i) {
    const ir::ConstantId c(i);
    if (!m.constant(c).spec_id || m.constant(c).is_composite()) continue;
    std::string value = constant_expr(ctx, c).text;
    std::string name = ctx.globals.take(fmt::format("spec{}", *m.constant(c).spec_id), "spec");
    ctx.constants[i] = Expr{name, Prec::Primary};
    ctx.spec_constants.push_back({c, std::move(name), std::move(value)});
  }
  // The uvec3 gl_WorkGroupSize reads when local_size_x_id specializes it.
  if (const ir::ConstantId size = ir::find_workgroup_size_constant(m); size.valid()) {
    if (ctx.constants.size() < m.constant_count()) ctx.constants.resize(m.constant_count());
    ctx.constants[size.index()] = Expr{"gl_WorkGroupSize", Prec::Primary};
  }
}

}  // namespace sluice::glsl_out
