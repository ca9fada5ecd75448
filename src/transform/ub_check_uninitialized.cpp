// The uninitialized-read check of the ub-check pass (docs/ub-check.md):
// a read of a variable on a path where this invocation never wrote it.
// GLSL 4.60 §4.3 leaves a variable declared without initializer undefined
// until written; SPIR-V gives an OpVariable without initializer an
// undefined value. Decided at run time, per invocation, with shadow state
// (not a static guess): every Function local (not a parameter) and Private
// global without initializer, not built-in and not volatile, gets a bool
// flag, false at first, in the same storage and scope (Function memory and
// Private memory belong to one invocation, so the flag does too):
//
//   Store v x / increments / out pointers / call arguments to out and
//   inout parameters, rooted at v     ->  the instruction; Store flag true
//   r = Load p, rooted at v           ->  w = Load flag;
//                                         Call sluice_ub_report(!w, uninitialized-read, location)
//                                         r' = Load p; r = Select(w, r', 0)
//
// A write through an Access chain marks the whole variable written (a
// partly written array reads as written: no false report, possibly a
// missed one), and so does a call that may write it; a value passed to an
// inout parameter is not reported (the callee may only write it). The
// loaded value becomes zero where unwritten (scalars, vectors, bools; a
// composite keeps what the load gave), so the checked program continues
// with a defined value. Roots come from ir/pointer_roots.h; one pass over
// the operands of each instruction, by their roles (ir/opcode.def): linear.
#include <string>

#include "transform/pointer_roots.h"
#include "transform/ub_check_guard.h"

namespace sluice::transform::ub {

using namespace ir;

namespace {

bool is_candidate(const Module& m, VariableId v, const std::vector<bool>& parameters) {
  const Variable& var = m.variable(v);
  const StorageClass storage = m.type(var.type).storage;
  return (storage == StorageClass::Function || storage == StorageClass::Private) && !var.initializer.valid() &&
         var.decorations.built_in.empty() && !var.decorations.volatile_ &&
         !(v.index() < parameters.size() && parameters[v.index()]);
}

}  // namespace

VariableId add_shadow_bool(Module& m, VariableId v, std::string_view prefix, StorageClass storage) {
  Variable flag;
  flag.name = Name{std::string(prefix) + m.variable(v).name.text, NameSource::Internal};
  flag.type = m.pointer_type(predefined::kBool, storage);
  flag.initializer = m.bool_constant(false);
  return m.add_variable(std::move(flag));
}

Shadows::Shadows(Module& m, std::size_t functions) : roots_(m), flag_(m.variable_count()) {
  const std::vector<bool> parameters = parameter_variables(m);
  const std::vector<VariableId> globals = m.globals();
  for (VariableId g : globals)
    if (m.type(m.variable(g).type).storage == StorageClass::Private && is_candidate(m, g, parameters)) {
      flag_[g.index()] = add_shadow_bool(m, g, "sluice_ub_written_", StorageClass::Private);
      m.globals().push_back(flag_[g.index()]);
    }
  for (std::uint32_t f = 0; f < functions && f < m.function_count(); ++f)
    for (std::size_t b = 0; b < m.function(FunctionId(f)).blocks.size(); ++b) {
      const std::vector<VariableId> declared = m.function(FunctionId(f)).blocks[b].declarations;
      for (VariableId v : declared)
        if (v.index() < flag_.size() && is_candidate(m, v, parameters)) {
          flag_[v.index()] = add_shadow_bool(m, v, "sluice_ub_written_", StorageClass::Function);
          m.function(FunctionId(f)).blocks[b].declarations.push_back(flag_[v.index()]);
        }
    }
}

void Shadows::guard(Module& m, Guard& g, const Instruction& inst) const {
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    const Operand op = inst.operands[i];
    if (!op.is_register() && !op.is_variable()) continue;
    const OperandRole role = operand_role(inst.opcode, i);
    bool reads = reads_through(role);
    bool writes = writes_through(role);
    if (role == OperandRole::Argument && i > 0 && inst.operands[0].is_function()) {
      const Function& callee = m.function(inst.operands[0].as_function());
      const TypeId t = m.type_of(op);
      if (i - 1 < callee.params.size() && t.valid() && is_pointer(m, t))
        writes = callee.params[i - 1].direction != ParamDirection::In;
    }
    if (!reads && !writes) continue;
    const VariableId root = roots_.root(op);
    if (!root.valid() || root.index() >= flag_.size() || !flag_[root.index()].valid()) continue;
    const Operand flag(flag_[root.index()]);
    if (reads) {
      const Operand written = g.op(Opcode::Load, {flag});
      g.report(g.op(Opcode::LogicalNot, {written}), UbCheck::UninitializedRead, {i});
      const TypeId t = inst.result.valid() ? m.reg(inst.result).type : TypeId{};
      if (inst.opcode == Opcode::Load && t.valid() && (is_scalar(m, t) || is_vector(m, t))) g.define_result(written);
    }
    if (writes) g.after(Opcode::Store, {flag, Operand(m.bool_constant(true))});
  }
}

}  // namespace sluice::transform::ub
