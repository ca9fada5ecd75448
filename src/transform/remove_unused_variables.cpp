// Unused-variable elimination: a Function-storage local or a Private
// global that nothing reads is removed, together with the Stores into it
// and the Access instructions that address into it. Parameters and every
// other storage class (interface, uniform, buffer, shared) stay: others can
// observe them.
//
// Algorithm: pointer_roots.h gives each Access result the variable it
// points into; one walk over all functions marks a variable read when it
// or a pointer into it is used in any way other than as the pointer of a
// Store or the base of an Access.
// One transform walk drops the Stores and Accesses of the unread
// variables, and compact_module() drops the variables (and any variable
// nothing declares). Linear.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/module_compaction.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

class UnusedVariables {
 public:
  explicit UnusedVariables(Module& m) : m_(m), roots_(m), read_(m.variable_count()) {}

  PassResult run() {
    const std::vector<bool> parameter = parameter_variables(m_);
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      const Function& f = m_.function(FunctionId(i));
      if (f.entry.valid()) visit(f, [&](const BlockVisit&, const Block& b) {
          for (const Instruction& inst : b.instructions) note_uses(inst);
          return VisitAction::VisitSubBlocks;
        });
    }
    std::vector<bool> drop(m_.variable_count());
    bool any = false;
    for (std::uint32_t v = 0; v < m_.variable_count(); ++v) {
      if (read_[v] || parameter[v]) continue;
      // Volatile Function or Private variables go too: nothing reads them.
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
        const VariableId v = roots_.root(inst.operands[0]);
        if (v.valid() && drop[v.index()]) return {Transform::remove()};
        return {};
      });
      if (!swept) return swept.failure();
    }
    std::vector<bool> all_functions(m_.function_count(), true);
    return compact_module(m_, variables_in_use(m_, all_functions, drop), all_functions);
  }

 private:
  void note_uses(const Instruction& inst) {
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      const VariableId v = roots_.root(o);
      if (!v.valid()) return;
      if (k == 0 && inst.opcode == Opcode::Store) return;  // written, not read
      if (is_chain_base(inst, k)) return;                  // read by whoever uses the chain
      read_[v.index()] = true;
    });
  }

  Module& m_;
  const PointerRoots roots_;
  std::vector<bool> read_;
};

}  // namespace

PassResult remove_unused_variables(Module& m) { return UnusedVariables(m).run(); }

}  // namespace sluice::transform
