// Dead-register elimination: instructions whose opcode has no side effects
// (opcode.def) and whose result nobody uses, and merge inputs nobody reads
// (the Merge/Break values that fed them go too). A Load of a volatile
// variable counts as a side effect.
//
// Algorithm (mark and sweep over use counts, module-wide since registers
// are numbered module-wide):
//   1. one walk counts the uses of every register and notes where each is
//      defined (instruction, or merge input of a block);
//   2. a worklist starts with every removable definition without uses;
//      removing one decrements the use counts of its operands (for a merge
//      input: of the values its Merge/Break feeders pass, found through
//      compute_control_edges), which may add them to the worklist;
//   3. one transform walk drops the dead instructions, and the dead merge
//      inputs and their feeders' operands are cleared.
// Each definition enters the worklist at most once: linear.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/control_edges.h"
#include "transform/passes.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

constexpr std::uint32_t kMergeInput = ~0u;

struct Definition {
  FunctionId function;
  BlockId block;
  std::uint32_t index = 0;  // instruction index, or kMergeInput
};

class DeadRegisters {
 public:
  explicit DeadRegisters(Module& m)
      : m_(m), uses_(m.register_count()), defs_(m.register_count()), dead_(m.register_count()) {}

  bool run() {
    edges_.resize(m_.function_count());
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) count(FunctionId(i));
    std::vector<RegisterId> work;
    for (std::uint32_t r = 0; r < defs_.size(); ++r)
      if (uses_[r] == 0 && removable(RegisterId(r))) work.push_back(RegisterId(r));
    bool any = false;
    while (!work.empty()) {
      const RegisterId r = work.back();
      work.pop_back();
      if (dead_[r.index()]) continue;
      dead_[r.index()] = true;
      any = true;
      release(r, work);
    }
    if (!any) return false;
    auto swept = for_each_instruction(m_, [&](InstructionSite&, const Instruction& inst) -> Transforms {
      if (inst.result.valid() && inst.result.index() < dead_.size() && dead_[inst.result.index()])
        return {Transform::remove()};
      return {};
    });
    (void)swept;  // the callback never touches terminators, so it cannot fail
    return true;
  }

 private:
  Function& fn(FunctionId f) { return m_.function(f); }

  void count(FunctionId f) {
    if (!fn(f).entry.valid()) return;
    edges_[f.index()] = compute_control_edges(fn(f));
    ir::visit(fn(f), [&](const BlockVisit& v, const Block& b) {
      if (b.merge_input.valid() && b.merge_input.index() < defs_.size())
        defs_[b.merge_input.index()] = Definition{f, v.id, kMergeInput};
      for (std::uint32_t i = 0; i < b.instructions.size(); ++i) {
        const Instruction& inst = b.instructions[i];
        for_each_register_use(inst, [&](RegisterId r) {
          if (r.index() < uses_.size()) ++uses_[r.index()];
        });
        if (inst.result.valid() && inst.result.index() < defs_.size())
          defs_[inst.result.index()] = Definition{f, v.id, i};
      }
      return VisitAction::VisitSubBlocks;
    });
  }

  bool removable(RegisterId r) {
    const Definition& d = defs_[r.index()];
    if (!d.function.valid()) return false;
    if (d.index == kMergeInput) return true;
    const Instruction& inst = fn(d.function).block(d.block).instructions[d.index];
    if (info(inst.opcode).has_side_effects) return false;
    if (inst.opcode == Opcode::Load && inst.operands[0].is_variable() &&
        m_.variable(inst.operands[0].as_variable()).decorations.volatile_)
      return false;
    return true;
  }

  void unuse(Operand o, std::vector<RegisterId>& work) {
    if (!o.is_register() || o.value() >= uses_.size()) return;
    if (--uses_[o.value()] == 0 && removable(o.as_register())) work.push_back(o.as_register());
  }

  void release(RegisterId r, std::vector<RegisterId>& work) {
    const Definition& d = defs_[r.index()];
    Function& f = fn(d.function);
    if (d.index != kMergeInput) {
      for (Operand o : f.block(d.block).instructions[d.index].operands) unuse(o, work);
      return;
    }
    // A merge input: its feeders stop passing a value.
    f.block(d.block).merge_input = RegisterId{};
    const ControlEdges& e = edges_[d.function.index()];
    const BlockId construct = d.block.index() < e.owner.size() ? e.owner[d.block.index()] : BlockId{};
    if (!construct.valid()) return;
    for (BlockId feeder : e.exits[construct.index()]) {
      Instruction& t = f.block(feeder).instructions.back();
      for (Operand o : t.operands) unuse(o, work);
      t.operands.clear();
    }
  }

  Module& m_;
  std::vector<std::uint32_t> uses_;
  std::vector<Definition> defs_;
  std::vector<bool> dead_;
  std::vector<ControlEdges> edges_;
};

}  // namespace

PassResult eliminate_dead_registers(Module& m) { return DeadRegisters(m).run(); }

}  // namespace sluice::transform
