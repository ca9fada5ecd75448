// Cascade suppression for the ub-check pass (docs/ub-check.md, "Cascades").
// A guard hands its instruction a defined substitute (index 0, divisor 1,
// an unwritten variable read as 0, ...); values computed from it are not
// the program's, and a check on them reports a condition only the
// substitute causes (`uv4 / u` with u unwritten is no division by zero of
// the program: its divisor is u's undefined value, already reported). Like
// MemorySanitizer's shadow propagation (Stepanov and Serebryany, CGO 2015),
// every value carries a taint, a bool that holds where the value comes from
// a substitute, and a report is suppressed where the operands its
// condition depends on are tainted:
//
//   taint(r)  = OR of the taints of r's operands, and of r's guard's own
//               substitution conditions (Guard::result_taint)
//   report(bad) becomes report(bad && !taint(the operands bad is about))
//
// (smoothstep(e, e, v) with v tainted still reports edge0 >= edge1.)
//
// Registers carry it in a map (the walk meets a definition before its
// uses: structured IR, one walk in order). Memory carries it in a shadow
// bool per variable, in the variable's storage (Function locals: Function;
// Private globals: Private) and false at first: a write sets the shadow of
// the variable it is rooted at to the writing instruction's operands'
// taint (a tainted value, or a tainted pointer: a store through a
// substituted index), a read ORs it in. A parameter's shadow is a Private
// bool its caller sets before the Call to the In argument's taint (GLSL
// forbids recursion, so one per parameter suffices). One shadow per
// variable: a write of one element stands for the whole variable, so a
// partly tainted array can still let a cascade through or, rarely, hide a
// finding on an element the substitute never touched. Linear: a constant
// number of instructions per operand.
#include "transform/pointer_roots.h"
#include "transform/ub_check_guard.h"

namespace sluice::transform::ub {

using namespace ir;

namespace {

bool is_shadowed(const Module& m, VariableId v) {
  const Variable& var = m.variable(v);
  const StorageClass storage = m.type(var.type).storage;
  return (storage == StorageClass::Function || storage == StorageClass::Private) && var.decorations.built_in.empty();
}

}  // namespace

Taints::Taints(Module& m, std::size_t functions) : roots_(m), shadow_(m.variable_count()) {
  const std::vector<bool> parameters = parameter_variables(m);
  const auto shadow_global = [&](VariableId v) {
    shadow_[v.index()] = add_shadow_bool(m, v, "sluice_ub_tainted_", StorageClass::Private);
    m.globals().push_back(shadow_[v.index()]);
  };
  const std::vector<VariableId> globals = m.globals();
  for (VariableId g : globals)
    if (m.type(m.variable(g).type).storage == StorageClass::Private && is_shadowed(m, g)) shadow_global(g);
  for (std::uint32_t f = 0; f < functions && f < m.function_count(); ++f) {
    const std::vector<FunctionParam> params = m.function(FunctionId(f)).params;
    for (const FunctionParam& p : params)
      if (p.direction == ParamDirection::In && p.variable.index() < shadow_.size() && is_shadowed(m, p.variable))
        shadow_global(p.variable);
    for (std::size_t b = 0; b < m.function(FunctionId(f)).blocks.size(); ++b) {
      const std::vector<VariableId> declared = m.function(FunctionId(f)).blocks[b].declarations;
      for (VariableId v : declared)
        if (v.index() < shadow_.size() && !parameters[v.index()] && is_shadowed(m, v)) {
          shadow_[v.index()] = add_shadow_bool(m, v, "sluice_ub_tainted_", StorageClass::Function);
          m.function(FunctionId(f)).blocks[b].declarations.push_back(shadow_[v.index()]);
        }
    }
  }
}

void Taints::before(Module& m, Guard& g, const Instruction& inst) {
  const auto shadow_of = [&](Operand pointer) -> VariableId {
    const VariableId root = roots_.root(pointer);
    return root.valid() && root.index() < shadow_.size() ? shadow_[root.index()] : VariableId{};
  };
  const bool call = inst.opcode == Opcode::Call && !inst.operands.empty() && inst.operands[0].is_function();
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    const Operand op = inst.operands[i];
    std::optional<Operand> taint;
    if (op.is_register())
      if (auto it = registers_.find(op.as_register().index()); it != registers_.end()) taint = it->second;
    if (op.is_register() || op.is_variable()) {
      const TypeId t = m.type_of(op);
      if (reads_through(operand_role(inst.opcode, i)) && t.valid() && is_pointer(m, t))
        if (const VariableId s = shadow_of(op); s.valid()) {
          const Operand loaded = g.op(Opcode::Load, {Operand(s)});
          taint = taint ? g.either(*taint, loaded) : loaded;
        }
    }
    if (taint) g.set_taint(i, *taint);
    // An In argument's taint goes to the callee's parameter shadow.
    if (call && i > 0) {
      const Function& callee = m.function(inst.operands[0].as_function());
      if (i - 1 < callee.params.size() && callee.params[i - 1].direction == ParamDirection::In) {
        const VariableId p = callee.params[i - 1].variable;
        if (p.index() < shadow_.size() && shadow_[p.index()].valid())
          g.before(Opcode::Store, {Operand(shadow_[p.index()]), taint ? *taint : Operand(m.bool_constant(false))});
      }
    }
  }
}

void Taints::after(Module& m, Guard& g, const Instruction& inst) {
  const std::optional<Operand> in = g.operand_taint();
  const std::optional<Operand> result = g.result_taint();
  if (inst.result.valid() && result) registers_[inst.result.index()] = *result;
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    const Operand op = inst.operands[i];
    if (!op.is_register() && !op.is_variable()) continue;
    bool writes = writes_through(operand_role(inst.opcode, i));
    if (operand_role(inst.opcode, i) == OperandRole::Argument && i > 0 && inst.operands[0].is_function()) {
      const Function& callee = m.function(inst.operands[0].as_function());
      const TypeId t = m.type_of(op);
      writes = i - 1 < callee.params.size() && t.valid() && is_pointer(m, t) &&
               callee.params[i - 1].direction != ParamDirection::In;
    }
    if (!writes) continue;
    const VariableId root = roots_.root(op);
    if (!root.valid() || root.index() >= shadow_.size() || !shadow_[root.index()].valid()) continue;
    g.after(Opcode::Store, {Operand(shadow_[root.index()]), in ? *in : Operand(m.bool_constant(false))});
  }
}

}  // namespace sluice::transform::ub
