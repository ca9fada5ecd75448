// State shared by every part of one emit() call: the module, the options,
// the names chosen for module-level entities, the extensions the text needs
// and the first error. Nothing here is global; each call has its own.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/module.h"
#include "output/glsl/expr.h"
#include "output/glsl/glsl_output.h"
#include "output/glsl/names.h"

namespace sluice::glsl_out {

// How a variable operand is spelled.
enum class VariableForm : std::uint8_t {
  Named,           // its name (variable_names)
  BuiltIn,         // a gl_ built-in (variable_names holds it)
  AnonymousBlock,  // a block without instance name: members are spelled bare
  BuiltInBlock,    // gl_PerVertex-like block: members are gl_ built-ins
};

struct EmitContext {
  EmitContext(const ir::Module& module, const Options& opts)
      : m(module), options(opts), es(opts.version == GlslVersion::V310es), vulkan(opts.flavour == Flavour::Vulkan) {}

  const ir::Module& m;
  Options options;
  bool es;
  bool vulkan;

  NameTable globals;
  std::vector<std::string> variable_names;  // by VariableId; locals are filled per function
  std::vector<VariableForm> variable_forms;
  std::vector<std::uint8_t> is_global;      // by VariableId
  // By VariableId: the block name that wraps a push constant of a non-block
  // type (GLSL keeps push constants in blocks).
  std::vector<std::string> wrapper_blocks;
  // By VariableId, for uniform, buffer and push-constant blocks: the block
  // name (the type's; a type that a second such variable uses, as SPIR-V
  // allows, is named again for it: GLSL block names are unique).
  std::vector<std::string> block_names;
  std::vector<std::string> function_names;  // by FunctionId
  std::vector<ir::TypeId> canonical;        // by TypeId: the type a struct or array of structs is spelled as
  std::vector<std::string> struct_names;    // by TypeId, for canonical non-block structs
  std::vector<std::vector<std::string>> member_names;  // by TypeId, for canonical structs and blocks
  std::vector<std::optional<Expr>> constants;  // by ConstantId, filled on first use
  // Specialization constants: the constant, its name (also in `constants`)
  // and its default value as a literal.
  struct SpecConstant {
    ir::ConstantId id;
    std::string name;
    std::string default_value;
  };
  std::vector<SpecConstant> spec_constants;
  // GLSL ES: the default precisions the header declares (chosen from the
  // module, so that most declarations need no qualifier).
  ir::Precision default_float = ir::Precision::High;
  ir::Precision default_int = ir::Precision::High;
  // By FunctionId: the function (or one it calls) may write memory other
  // than Function-storage variables (call_effects.h).
  std::vector<std::uint8_t> writes_memory;
  // By VariableId: a global that more than one function names.
  std::vector<std::uint8_t> shared_by_functions;
  // By VariableId: private globals that no text names (glslang's temporary
  // for the value of a call with converted out arguments, source_forms.h),
  // left undeclared.
  std::vector<std::uint8_t> unwritten_globals;
  // The function being emitted: each constant index out of its array,
  // vector or matrix (out_of_range_constant_index) and the local that
  // spells it.
  std::vector<std::pair<ir::ConstantId, std::string>> out_of_range_indices;
  std::set<std::string> extensions;
  std::optional<std::string> error;

  void fail(std::string message) {
    if (!error) error = std::move(message);
  }
  bool failed() const { return error.has_value(); }
};

}  // namespace sluice::glsl_out
