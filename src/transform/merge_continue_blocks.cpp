// Continue-block merging: a loop's continue block that only the end of its
// body reaches moves into that end, and the loop has no continue block.
//
//   Loop { Cond } { Body …; Continue } { Cont; Continue }
//     ->   Loop { Cond } { Body …; Cont; Continue }
//
// Why: Mesa's SPIR-V reader (vtn) runs a non-empty continue construct at
// the top of the next iteration behind a flag; a `for` loop's increment in
// a continue block of its own costs lavapipe about 8% on a tight loop
// (docs/performance.md, nbody.comp), where the SPIR-V output then makes a
// one-block body its own continue target (cfg.h), as spirv-opt leaves it.
//
// Moving the code is right when no `continue` statement jumps to the
// continue block: the only Continue of this loop in its body chain ends the
// chain's last block, which then runs exactly the paths that ran the
// continue block. The continue block must be one block without
// declarations (a chain with structure stays; it is rare).
//
// Algorithm: one scope-model pass (ir/structure.h) per function counts, per
// loop, the Continue terminators of its body; each qualifying loop's
// continue instructions are appended before the body end's Continue, the
// loop's continue slot is cleared and compact_blocks() drops the blocks.
// Linear.
#include "ir/structure.h"
#include "transform/passes.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

bool merge_in_function(Function& f) {
  const std::vector<BlockContext> contexts = compute_block_contexts(f);
  // Per loop block: how many Continues its body chains hold.
  std::vector<std::uint32_t> continues(f.blocks.size(), 0);
  for (std::size_t i = 0; i < f.blocks.size(); ++i) {
    const BlockContext& c = contexts[i];
    const Instruction* t = f.blocks[i].terminator();
    if (!c.reachable || !t || t->opcode != Opcode::Continue || !c.loop.valid()) continue;
    if (c.loop_part != BlockKind::LoopBody) continue;
    ++continues[c.loop.index()];
  }
  bool changed = false;
  for (std::size_t i = 0; i < f.blocks.size(); ++i) {
    const Block& loop = f.blocks[i];
    const Instruction* t = loop.terminator();
    if (!contexts[i].reachable || !t || (t->opcode != Opcode::Loop && t->opcode != Opcode::DoLoop)) continue;
    const BlockId cont = loop.loop_continue();
    if (!cont.valid() || continues[i] != 1) continue;
    const Block& c = f.block(cont);
    const Instruction* ct = c.terminator();
    if (!ct || ct->opcode != Opcode::Continue || !c.declarations.empty()) continue;
    const BlockId end = chain_end(f, loop.loop_body());
    const Instruction* et = f.block(end).terminator();
    if (!et || et->opcode != Opcode::Continue) continue;
    std::vector<Instruction> moved(c.instructions.begin(), c.instructions.end() - 1);
    auto& insts = f.block(end).instructions;
    insts.insert(insts.end() - 1, std::make_move_iterator(moved.begin()), std::make_move_iterator(moved.end()));
    f.blocks[i].sub_blocks_storage[2] = BlockId{};
    changed = true;
  }
  if (changed) compact_blocks(f);
  return changed;
}

}  // namespace

PassResult merge_continue_blocks(Module& m) {
  bool changed = false;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    Function& f = m.function(FunctionId(i));
    if (f.entry.valid()) changed = merge_in_function(f) || changed;
  }
  return changed;
}

}  // namespace sluice::transform
