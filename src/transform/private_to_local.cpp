// Private-to-local (spirv-opt's private-to-local): a Private global that
// only the entry point's function uses becomes a Function local of it,
// declared in its entry block with the same initializer. The entry point
// runs once per invocation, so the variable's lifetime is the same; as a
// local, forward-stores and the SPIR-V output's promotion to SSA see it
// (GraphicsFuzz's global loop counters become phis). Without an
// initializer both are undefined until written (GLSL 4.60 §4.3, SPIR-V's
// OpVariable).
//
// Left alone: variables another function uses (a callee the inliner kept:
// the value must outlive each call), built-ins, volatile variables, and
// those with a name in no function (nothing to do; remove-unused-variables
// drops them).
//
// Algorithm: one walk over every function's instructions counts, per
// Private global, the functions that use it (directly or as an Access
// root: ir/pointer_roots.h); each qualifying variable gets a Function
// pointer type, the Access results rooted at it get the Function form of
// their pointer types, it leaves the globals and joins the entry block's
// declarations. Linear.
#include <algorithm>

#include "ir/operands.h"
#include "ir/pointer_roots.h"
#include "ir/traversal.h"
#include "transform/passes.h"

namespace sluice::transform {

using namespace ir;

PassResult private_to_local(Module& m) {
  const FunctionId entry = m.entry_point();
  if (!entry.valid() || !m.function(entry).entry.valid()) return false;
  constexpr std::uint32_t kUnused = ~0u, kShared = ~1u;
  std::vector<std::uint32_t> user(m.variable_count(), kUnused);  // the one function using it, or kShared
  std::vector<bool> candidate(m.variable_count(), false);
  for (VariableId v : m.globals()) {
    const Variable& var = m.variable(v);
    candidate[v.index()] = m.type(var.type).storage == StorageClass::Private && var.decorations.built_in.empty() &&
                           !var.decorations.volatile_;
  }
  const PointerRoots roots(m);
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const Function& f = m.function(FunctionId(i));
    if (!f.entry.valid()) continue;
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (const Instruction& inst : b.instructions)
        for_each_operand(inst, [&](const Operand& o, std::size_t) {
          const VariableId v = roots.root(o);
          if (!v.valid() || !candidate[v.index()]) return;
          std::uint32_t& u = user[v.index()];
          u = u == kUnused || u == i ? i : kShared;
        });
      return VisitAction::VisitSubBlocks;
    });
  }
  std::vector<bool> moved(m.variable_count(), false);
  bool any = false;
  for (VariableId v : m.globals())
    if (candidate[v.index()] && user[v.index()] == entry.index()) moved[v.index()] = any = true;
  if (!any) return false;
  // Retype the variables and the Access results rooted at them.
  auto function_form = [&](TypeId pointer) { return m.pointer_type(m.type(pointer).element, StorageClass::Function); };
  for (VariableId v : m.globals())
    if (moved[v.index()]) m.variable(v).type = function_form(m.variable(v).type);
  Function& f = m.function(entry);
  visit(f, [&](const BlockVisit&, const Block& b) {
    for (const Instruction& inst : b.instructions) {
      if (!inst.result.valid() || info(inst.opcode).family != OpcodeFamily::Access) continue;
      const VariableId root = roots.root(Operand(inst.result));
      if (root.valid() && moved[root.index()]) m.reg(inst.result).type = function_form(m.reg(inst.result).type);
    }
    return VisitAction::VisitSubBlocks;
  });
  auto& globals = m.globals();
  std::vector<VariableId>& declarations = f.block(f.entry).declarations;
  for (VariableId v : globals)
    if (moved[v.index()]) declarations.push_back(v);
  globals.erase(std::remove_if(globals.begin(), globals.end(), [&](VariableId v) { return moved[v.index()]; }),
                globals.end());
  return true;
}

}  // namespace sluice::transform
