// Loads of variables nothing ever writes. A Private global or a
// Function-storage local (not a parameter) without an initializer that no
// instruction anywhere in the module writes — no Store, increment, call
// argument or output pointer (modf, frexp, ...) reaches it, directly or
// through an Access chain — holds an undefined value wherever it is read:
// GLSL leaves such variables uninitialized, SPIR-V gives an OpVariable
// without initializer an undefined value, and spirv-opt turns such loads
// into OpUndef. The IR has no undefined value, so each such Load becomes
// the zero (null) constant of its type: a valid choice for an undefined
// value, and the one implementations give in practice, which folding can
// then carry further. Interface, uniform, buffer and shared variables,
// volatile ones and parameters are never touched.
//
// Algorithm: pointer_roots.h maps each Access result to the variable it
// points into; one walk over all functions marks a variable written when
// it, or a pointer into it, is used as anything other than the pointer of
// a Load or the base of an Access;
// one transform walk then replaces the Loads rooted at unwritten
// candidates (a Substitution sweep rewrites their uses). Zero constants
// are interned once per type. Linear.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

// Composites larger than this stay loads: a zero constant the size of a big
// array costs more words than the load it replaces.
constexpr std::uint32_t kMaxZeroScalars = 64;

class UninitializedLoads {
 public:
  explicit UninitializedLoads(Module& m)
      : m_(m), roots_(m), written_(m.variable_count()), candidate_(m.variable_count()),
        zero_(m.type_count()) {}

  PassResult run() {
    find_candidates();
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      const Function& f = m_.function(FunctionId(i));
      if (!f.entry.valid()) continue;
      visit(f, [&](const BlockVisit&, const Block& b) {
        for (const Instruction& inst : b.instructions) note_uses(inst);
        return VisitAction::VisitSubBlocks;
      });
    }
    bool any_candidate = false;
    for (std::uint32_t v = 0; v < candidate_.size(); ++v) {
      candidate_[v] = candidate_[v] && !written_[v];
      any_candidate = any_candidate || candidate_[v];
    }
    if (!any_candidate) return false;
    Substitution subst;
    auto swept = for_each_instruction(m_, [&](InstructionSite&, const Instruction& inst) -> Transforms {
      if (inst.opcode != Opcode::Load || !inst.result.valid() || inst.operands.empty()) return {};
      const VariableId v = roots_.root(inst.operands[0]);
      if (!v.valid() || !candidate_[v.index()]) return {};
      const ConstantId zero = zero_constant(m_.reg(inst.result).type);
      if (!zero.valid() || !subst.replace(inst.result, Operand(zero))) return {};
      return {Transform::remove()};
    });
    if (!swept) return swept.failure();
    if (subst.empty()) return false;
    subst.apply(m_);
    return true;
  }

 private:
  void find_candidates() {
    const std::vector<bool> parameter = parameter_variables(m_);
    for (std::uint32_t v = 0; v < m_.variable_count(); ++v) {
      const Variable& var = m_.variable(VariableId(v));
      candidate_[v] = !parameter[v] && !var.initializer.valid() && var.decorations.built_in.empty() &&
                      is_invocation_memory(m_, VariableId(v));
    }
  }

  void note_uses(const Instruction& inst) {
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      const VariableId v = roots_.root(o);
      if (!v.valid()) return;
      if (k == 0 && inst.opcode == Opcode::Load) return;
      if (is_chain_base(inst, k)) return;  // written only if the chain's users write
      written_[v.index()] = true;
    });
  }

  // The null constant of `t`, or invalid for types without one here
  // (opaque, pointers, runtime or specialization-sized arrays) and for
  // composites of more than kMaxZeroScalars scalars. Memoized by type;
  // recursion only follows the type's nesting.
  ConstantId zero_constant(TypeId t) {
    if (t.index() >= zero_.size()) return {};
    Zero& memo = zero_[t.index()];
    if (memo.done) return memo.constant;
    memo.done = true;
    const Type& type = m_.type(t);
    std::vector<TypeId> parts;
    switch (type.kind) {
      case TypeKind::Scalar: {
        Constant c;
        c.type = t;
        zero_[t.index()] = Zero{true, m_.intern(c), 1};
        return zero_[t.index()].constant;
      }
      case TypeKind::Vector:
      case TypeKind::Matrix:
      case TypeKind::Array:
        if (type.kind == TypeKind::Array && type.length.valid()) return {};
        if (type.count > kMaxZeroScalars) return {};
        parts.assign(type.count, type.element);
        break;
      case TypeKind::Struct:
        for (const StructMember& member : type.members) parts.push_back(member.type);
        break;
      default: return {};
    }
    std::vector<ConstantId> components;
    std::uint32_t scalars = 0;
    for (TypeId p : parts) {
      const ConstantId z = zero_constant(p);
      if (!z.valid()) return {};
      scalars += zero_[p.index()].scalars;
      if (scalars > kMaxZeroScalars) return {};
      components.push_back(z);
    }
    if (components.empty()) return {};
    const ConstantId c = m_.composite_constant(t, components);
    zero_[t.index()] = Zero{true, c, scalars};
    return c;
  }

  struct Zero {
    bool done = false;
    ConstantId constant;
    std::uint32_t scalars = 0;
  };

  Module& m_;
  const PointerRoots roots_;
  std::vector<bool> written_, candidate_;
  std::vector<Zero> zero_;  // by type
};

}  // namespace

PassResult replace_uninitialized_loads(Module& m) { return UninitializedLoads(m).run(); }

}  // namespace sluice::transform
