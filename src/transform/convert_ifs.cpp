// If-conversion (spirv-opt's if-conversion): an If whose branches compute a
// few values, store them into local variables and merge becomes
// straight-line code with a Select per value.
//
//   If c { Merge a } else { Merge b }; Input: r   ->   r = Select c a b
//   If c { Merge a } else { Merge a }; Input: r   ->   (uses of r become a)
//   If c { Merge } [else { Merge }]               ->   nothing
//   If c { t = f(x); Store v t; Merge }           ->   t = f(x); o = Load v;
//                                                      Store v (Select c t o)
//
// A branch qualifies when it is one block without declarations and its
// instructions, besides the Merge, are
//   - computations that cannot fail or be observed when run although the
//     branch would not have run (no effects, no integer division or
//     remainder, whose zero divisor is undefined behaviour (SPIR-V 1.6
//     §3.52.13 OpSDiv), no derivatives, which need the branch's set of
//     invocations, no textures, no dynamic component index);
//   - accesses with literal or in-range constant indices into memory of
//     the invocation (Function, Private) or that nobody writes (Input,
//     Uniform, PushConstant), and loads through them or of such variables
//     that the branch did not store first;
//   - at most one Store per variable into whole Function variables of
//     scalar or vector type;
// and at most kMaxHoisted computations move out of the If's branches in all
// (both sides then run: spirv-opt hoists without a limit, but a long
// branch is cheaper skipped). A bool Select with a constant `false` (or
// `true`) side is LogicalAnd (or LogicalOr), as glslang writes `a && b`
// when b is cheap.
//
// The If becomes NextBlock into its merge block (simplify-control-flow then
// stitches the chain). Only scalar and vector values become a Select: for
// those Select is one instruction in every output. The merge input's Select
// has the merge input's register as its result, so its precision is kept;
// a stored Select takes the variable's precision.
//
// Algorithm: one read-only walk per function collects the Ifs whose
// branches qualify; each is then rewritten on its own (a rewrite touches
// only the If's block, its two branch blocks and its merge block, which no
// other collected If owns): the branches' computations move, in order,
// before the If's terminator, then a Load of each stored variable one side
// leaves alone, a Select and a Store per variable; uses of merge inputs
// replaced by a value are rewritten in one module-wide Substitution sweep,
// and the dropped branch blocks are compacted away. Linear.
#include <algorithm>
#include <optional>
#include <unordered_set>

#include "ir/constant_index.h"
#include "ir/structure.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/fold.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

constexpr std::size_t kMaxHoisted = 8;

bool selectable(const Module& m, TypeId t) {
  const TypeKind k = m.type(t).kind;
  return k == TypeKind::Scalar || k == TypeKind::Vector;
}

bool is_derivative(Opcode o) {
  switch (o) {
    case Opcode::DFdx: case Opcode::DFdy: case Opcode::Fwidth:
    case Opcode::DFdxFine: case Opcode::DFdyFine: case Opcode::FwidthFine:
    case Opcode::DFdxCoarse: case Opcode::DFdyCoarse: case Opcode::FwidthCoarse:
      return true;
    default: return false;
  }
}

// What one branch does: the computations that move before the If, and the
// value it stores into each variable (in order of the stores).
struct BranchPlan {
  std::vector<std::size_t> hoisted;                       // instruction indices
  std::vector<std::pair<VariableId, Operand>> stores;     // one per variable
  Operand merged;                                         // the Merge's value, if any
};

class IfConversion {
 public:
  IfConversion(Module& m, FunctionId f, const PointerRoots& roots, Substitution& subst)
      : m_(m), fid_(f), roots_(roots), subst_(subst) {}

  Result<bool> run() {
    std::vector<BlockId> candidates;
    const Function& f = m_.function(fid_);
    visit(f, [&](const BlockVisit& v, const Block& b) {
      const Instruction* t = b.terminator();
      if (t && t->opcode == Opcode::If && convertible(b)) candidates.push_back(v.id);
      return VisitAction::VisitSubBlocks;
    });
    if (candidates.empty()) return false;
    for (BlockId x : candidates)
      if (auto r = convert(x); !r) return r.failure();
    compact_blocks(fn());
    return true;
  }

 private:
  Function& fn() { return m_.function(fid_); }

  bool convertible(const Block& b) const {
    std::size_t budget = kMaxHoisted;
    const auto t = plan(b.if_true(), budget);
    if (!t) return false;
    std::optional<BranchPlan> e;
    if (b.if_false().valid() && !(e = plan(b.if_false(), budget))) return false;
    const RegisterId input = m_.function(fid_).block(b.merge).merge_input;
    if (!input.valid()) return true;
    if (!e) return false;
    return t->merged == e->merged || selectable(m_, m_.reg(input).type);
  }

  // Whether the computation `inst` may run although its branch would not.
  bool speculatable(const Instruction& inst) const {
    if (!is_pure_computation(inst.opcode) || is_derivative(inst.opcode)) return false;
    for (std::size_t i = 0; i < inst.operands.size(); ++i) {
      const OperandRole role = operand_role(inst.opcode, i);
      if (role != OperandRole::Value && role != OperandRole::Literal) return false;
    }
    if (inst.opcode == Opcode::IMod) return false;
    if (inst.opcode == Opcode::Div && inst.result.valid() &&
        component_kind(m_, m_.reg(inst.result).type) != ScalarKind::Float)
      return false;
    if (inst.opcode == Opcode::ExtractVectorComponentDynamic || inst.opcode == Opcode::ExtractArrayElement ||
        inst.opcode == Opcode::ExtractMatrixColumn)
      return constant_index_in(inst.operands[0], inst.operands[1]);
    return inst.opcode != Opcode::ConstructSampledImage;
  }

  // Whether `index` is a constant inside `composite`'s type (a value, or
  // the pointee of a pointer) of fixed length (ir/constant_index.h).
  bool constant_index_in(Operand composite, Operand index) const {
    if (!index.is_constant() || fold::depends_on_spec_constant(m_, index.as_constant()) ||
        m_.constant(index.as_constant()).is_composite())
      return false;
    TypeId t = m_.type_of(composite);
    if (m_.type(t).kind == TypeKind::Pointer) t = m_.type(t).element;
    const Type& ty = m_.type(t);
    if (ty.kind != TypeKind::Vector && ty.kind != TypeKind::Matrix && ty.kind != TypeKind::Array) return false;
    if (ty.kind == TypeKind::Array && ty.length.valid()) return false;  // a specialization-constant length
    return !constant_index_out_of_range(m_, t, index.as_constant());
  }

  std::optional<BranchPlan> plan(BlockId branch, std::size_t& budget) const {
    const Function& f = m_.function(fid_);
    if (!branch.valid() || branch.index() >= f.blocks.size()) return std::nullopt;
    const Block& b = f.block(branch);
    if (!b.declarations.empty() || b.merge_input.valid() || b.instructions.empty() ||
        b.instructions.back().opcode != Opcode::Merge)
      return std::nullopt;
    BranchPlan plan;
    const Instruction& merge = b.instructions.back();
    if (!merge.operands.empty()) plan.merged = merge.operands[0];
    std::unordered_set<std::uint32_t> safe_pointers;  // registers of accesses this branch makes
    std::unordered_set<std::uint32_t> stored;          // variables this branch stored
    for (std::size_t i = 0; i + 1 < b.instructions.size(); ++i) {
      const Instruction& inst = b.instructions[i];
      if (inst.opcode == Opcode::Store) {
        const Operand target = inst.operands[0];
        if (!target.is_variable()) return std::nullopt;
        const VariableId v = target.as_variable();
        const Type& pt = m_.type(m_.variable(v).type);
        if (pt.storage != StorageClass::Function || !selectable(m_, pt.element)) return std::nullopt;
        if (!stored.insert(v.index()).second) return std::nullopt;
        plan.stores.emplace_back(v, inst.operands[1]);
        continue;
      }
      if (budget == 0) return std::nullopt;
      if (info(inst.opcode).family == OpcodeFamily::Access || inst.opcode == Opcode::Load) {
        const Operand base = inst.operands[0];
        const VariableId root = roots_.root(base);
        if (!root.valid() || memory_kind(m_, root) == MemoryKind::Shared) return std::nullopt;
        if (!base.is_variable() && !(base.is_register() && safe_pointers.count(base.value()))) return std::nullopt;
        if (inst.opcode == Opcode::Load) {
          if (stored.count(root.index())) return std::nullopt;
        } else if (!safe_access(inst)) {
          return std::nullopt;
        } else if (inst.result.valid()) {
          safe_pointers.insert(inst.result.index());
        }
      } else if (!speculatable(inst)) {
        return std::nullopt;
      }
      --budget;
      plan.hoisted.push_back(i);
    }
    return plan;
  }

  bool safe_access(const Instruction& inst) const {
    switch (inst.opcode) {
      case Opcode::AccessStructField:
      case Opcode::AccessVectorComponent:
      case Opcode::AccessVectorComponentMulti:
        return true;  // literal indices, checked by the validator
      case Opcode::AccessArrayElement:
      case Opcode::AccessMatrixColumn:
      case Opcode::AccessVectorComponentDynamic:
        return constant_index_in(inst.operands[0], inst.operands[1]);
      default: return false;
    }
  }

  // Whether `op` is a bool constant (scalar or every component) equal to `value`.
  bool is_bool_constant(Operand op, bool value) const {
    if (!op.is_constant()) return false;
    const Constant& c = m_.constant(op.as_constant());
    if (c.is_composite()) {
      for (ConstantId part : c.components)
        if (!is_bool_constant(Operand(part), value)) return false;
      return !c.components.empty();
    }
    return constant_bool(m_, op) == value;
  }

  // `cond ? a : b` as an instruction with result `result` (a new register
  // when invalid): LogicalAnd / LogicalOr where one side is a bool constant
  // of the condition's type.
  Result<Instruction> select(Operand cond, Operand a, Operand b, RegisterId result, Precision precision) {
    Opcode op = Opcode::Select;
    std::vector<Operand> operands{cond, a, b};
    if (m_.type_of(a) == m_.type_of(cond)) {
      if (is_bool_constant(b, false)) op = Opcode::LogicalAnd, operands = {cond, a};
      else if (is_bool_constant(a, true)) op = Opcode::LogicalOr, operands = {cond, b};
    }
    if (result.valid()) return make_with_result_id(m_, op, result, operands);
    return make(m_, op, operands, {}, precision);
  }

  Status convert(BlockId x) {
    std::size_t budget = kMaxHoisted;
    const Block& b0 = fn().block(x);
    const BranchPlan t = *plan(b0.if_true(), budget);
    const BranchPlan e = b0.if_false().valid() ? *plan(b0.if_false(), budget) : BranchPlan{};
    const BlockId branches[2] = {b0.if_true(), b0.if_false()};
    const Operand cond = b0.instructions.back().operands[0];
    const BlockId merge = b0.merge;
    std::vector<Instruction> made;
    for (int side = 0; side < 2; ++side) {
      if (!branches[side].valid()) continue;
      auto& insts = fn().block(branches[side]).instructions;
      for (std::size_t i : (side == 0 ? t : e).hoisted) made.push_back(std::move(insts[i]));
    }
    // Each stored variable: the value of each side, its old value where a
    // side leaves it alone.
    std::vector<VariableId> variables;
    for (const auto* p : {&t, &e})
      for (const auto& [v, value] : p->stores)
        if (std::find(variables.begin(), variables.end(), v) == variables.end()) variables.push_back(v);
    auto stored_by = [](const BranchPlan& p, VariableId v) -> std::optional<Operand> {
      for (const auto& [w, value] : p.stores)
        if (w == v) return value;
      return std::nullopt;
    };
    for (VariableId v : variables) {
      std::optional<Operand> a = stored_by(t, v), c = stored_by(e, v);
      if (!a || !c) {
        const Operand load_operands[] = {Operand(v)};
        auto old = make(m_, Opcode::Load, load_operands, {}, m_.variable(v).precision);
        if (!old) return old.failure();
        (a ? c : a) = Operand(old->result);
        made.push_back(std::move(*old));
      }
      Operand value = *a;
      if (*a != *c) {
        auto s = select(cond, *a, *c, RegisterId{}, m_.variable(v).precision);
        if (!s) return s.failure();
        value = Operand(s->result);
        made.push_back(std::move(*s));
      }
      const Operand store_operands[] = {Operand(v), value};
      auto store = make(m_, Opcode::Store, store_operands);
      if (!store) return store.failure();
      made.push_back(std::move(*store));
    }
    const RegisterId input = fn().block(merge).merge_input;
    if (input.valid()) {
      if (t.merged == e.merged) {
        if (!subst_.replace(input, t.merged)) return ok();
      } else {
        auto s = select(cond, t.merged, e.merged, input, Precision::None);
        if (!s) return s.failure();
        auto& insts = fn().block(merge).instructions;
        insts.insert(insts.begin(), std::move(*s));
      }
      fn().block(merge).merge_input = RegisterId{};
    }
    Block& again = fn().block(x);
    Block discarded;
    move_structure(again, discarded);
    again.instructions.back() = Instruction{};
    again.instructions.back().opcode = Opcode::NextBlock;
    again.instructions.insert(again.instructions.end() - 1, std::make_move_iterator(made.begin()),
                              std::make_move_iterator(made.end()));
    again.merge = merge;
    return ok();
  }

  Module& m_;
  FunctionId fid_;
  const PointerRoots& roots_;
  Substitution& subst_;
};

}  // namespace

PassResult convert_ifs(Module& m) {
  bool changed = false;
  Substitution subst;  // one for the module: its tables grow to the register count once
  const PointerRoots roots(m);
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!m.function(FunctionId(i)).entry.valid()) continue;
    auto r = IfConversion(m, FunctionId(i), roots, subst).run();
    if (!r) return r;
    changed = *r || changed;
  }
  if (!subst.empty()) subst.apply(m);
  return changed;
}

}  // namespace sluice::transform
