// Unused-variable elimination: a Function-storage local or a Private
// global that nothing reads is removed, together with the Stores into it
// and the Access instructions that address into it. Parameters and every
// other storage class (interface, uniform, buffer, shared) stay: others can
// observe them.
//
// Algorithm: one pre-order walk over all functions (a pointer register is
// defined before it is used) gives each Access result the variable it
// points into; a variable is read when it or a pointer into it is used in
// any way other than as the pointer of a Store or the base of an Access.
// One transform walk drops the Stores and Accesses of the unread
// variables, and compact_module() drops the variables (and any variable
// nothing declares). Linear.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/module_compaction.h"
#include "transform/passes.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

class UnusedVariables {
 public:
  explicit UnusedVariables(Module& m) : m_(m), root_(m.register_count()), read_(m.variable_count()) {}

  PassResult run() {
    std::vector<bool> parameter(m_.variable_count());
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      const Function& f = m_.function(FunctionId(i));
      for (const FunctionParam& p : f.params)
        if (p.variable.index() < parameter.size()) parameter[p.variable.index()] = true;
      if (f.entry.valid()) visit(f, [&](const BlockVisit&, const Block& b) {
          for (const Instruction& inst : b.instructions) note_uses(inst);
          return VisitAction::VisitSubBlocks;
        });
    }
    std::vector<bool> drop(m_.variable_count());
    bool any = false;
    for (std::uint32_t v = 0; v < m_.variable_count(); ++v) {
      if (read_[v] || parameter[v]) continue;
      const TypeId t = m_.variable(VariableId(v)).type;
      if (!is_pointer(m_, t)) continue;
      const StorageClass s = m_.type(t).storage;
      if (s != StorageClass::Function && s != StorageClass::Private) continue;
      drop[v] = true;
      any = true;
    }
    if (any) {
      auto swept = for_each_instruction(m_, [&](InstructionSite&, const Instruction& inst) -> Transforms {
        const bool writes = inst.opcode == Opcode::Store || info(inst.opcode).family == OpcodeFamily::Access;
        if (!writes || inst.operands.empty()) return {};
        const VariableId v = variable_of(inst.operands[0]);
        if (v.valid() && drop[v.index()]) return {Transform::remove()};
        return {};
      });
      if (!swept) return Error{swept.error()};
    }
    std::vector<bool> all_functions(m_.function_count(), true);
    return compact_module(m_, variables_in_use(m_, all_functions, drop), all_functions);
  }

 private:
  // The variable a pointer operand points into; invalid for other operands.
  VariableId variable_of(Operand o) const {
    if (o.is_variable() && o.value() < read_.size()) return o.as_variable();
    if (o.is_register() && o.value() < root_.size()) return root_[o.value()];
    return {};
  }

  void note_uses(const Instruction& inst) {
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      const VariableId v = variable_of(o);
      if (!v.valid()) return;
      if (k == 0 && inst.opcode == Opcode::Store) return;  // written, not read
      if (k == 0 && info(inst.opcode).family == OpcodeFamily::Access && inst.result.valid() &&
          inst.result.index() < root_.size()) {
        root_[inst.result.index()] = v;
        return;
      }
      read_[v.index()] = true;
    });
  }

  Module& m_;
  std::vector<VariableId> root_;  // by register: the variable an Access result points into
  std::vector<bool> read_;
};

}  // namespace

PassResult remove_unused_variables(Module& m) { return UnusedVariables(m).run(); }

}  // namespace sluice::transform
