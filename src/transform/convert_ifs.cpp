// If-conversion (spirv-opt's if-conversion): an If whose branches do
// nothing but merge goes away.
//
//   If c { Merge a } else { Merge b }; Input: r   ->   r = Select c a b
//   If c { Merge a } else { Merge a }; Input: r   ->   (uses of r become a)
//   If c { Merge } [else { Merge }]               ->   nothing
//
// The If becomes NextBlock into its merge block (simplify-control-flow then stitches
// the chain). Only scalar and vector merge inputs become a Select: for
// those Select is one instruction in every output. The Select's result is
// the merge input's register, so its precision is kept.
//
// Algorithm: one read-only walk per function collects the Ifs whose true
// (and false, if any) chain is a single block without declarations whose
// only instruction is `Merge`; each is then rewritten on its own (a
// rewrite touches only the If's block, its two branch blocks and its merge
// block, which no other collected If owns), uses of merge inputs replaced
// by a value are rewritten in one module-wide Substitution sweep, and the
// dropped branch blocks are compacted away. Linear.
#include "ir/structure.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/passes.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

bool selectable(const Module& m, TypeId t) {
  const TypeKind k = m.type(t).kind;
  return k == TypeKind::Scalar || k == TypeKind::Vector;
}

class IfConversion {
 public:
  IfConversion(Module& m, FunctionId f, Substitution& subst) : m_(m), fid_(f), subst_(subst) {}

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
    const Function& f = m_.function(fid_);
    if (!only_merges(f, b.if_true())) return false;
    if (b.if_false().valid() && !only_merges(f, b.if_false())) return false;
    const RegisterId input = f.block(b.merge).merge_input;
    if (!input.valid()) return true;
    const Operand a = value_of(b.if_true()), c = value_of(b.if_false());
    return a == c || selectable(m_, m_.reg(input).type);
  }

  Operand value_of(BlockId branch) const {
    if (!branch.valid()) return {};
    const Instruction& merge = m_.function(fid_).block(branch).instructions[0];
    return merge.operands.empty() ? Operand{} : merge.operands[0];
  }

  Status convert(BlockId x) {
    Block& b = fn().block(x);
    const Operand cond = b.instructions.back().operands[0];
    const Operand a = value_of(b.if_true()), c = value_of(b.if_false());
    const BlockId merge = b.merge;
    const RegisterId input = fn().block(merge).merge_input;
    if (input.valid()) {
      if (a == c) {
        if (!subst_.replace(input, a)) return ok();
      } else {
        const Operand operands[] = {cond, a, c};
        auto select = make_with_result_id(m_, Opcode::Select, input, operands);
        if (!select) return select.failure();
        auto& insts = fn().block(merge).instructions;
        insts.insert(insts.begin(), std::move(*select));
      }
      fn().block(merge).merge_input = RegisterId{};
    }
    Block& again = fn().block(x);
    Block discarded;
    move_structure(again, discarded);
    again.instructions.back() = Instruction{};
    again.instructions.back().opcode = Opcode::NextBlock;
    again.merge = merge;
    return ok();
  }

  Module& m_;
  FunctionId fid_;
  Substitution& subst_;
};

}  // namespace

PassResult convert_ifs(Module& m) {
  bool changed = false;
  Substitution subst;  // one for the module: its tables grow to the register count once
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!m.function(FunctionId(i)).entry.valid()) continue;
    auto r = IfConversion(m, FunctionId(i), subst).run();
    if (!r) return r;
    changed = *r || changed;
  }
  if (!subst.empty()) subst.apply(m);
  return changed;
}

}  // namespace sluice::transform
