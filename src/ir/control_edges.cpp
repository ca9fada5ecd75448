// Jumps filed by construct; control_edges.h gives the algorithm.
#include "ir/control_edges.h"

#include "ir/traversal.h"

namespace sluice::ir {

using namespace ir;

BlockId ControlEdges::target_construct(const Function& f, BlockId b) const {
  const auto op = f.block(b).terminator_opcode();
  if (!op) return {};
  const BlockContext& c = context[b.index()];
  auto owner_of = [&](BlockId merge) {
    return merge.valid() && merge.index() < owner.size() ? owner[merge.index()] : BlockId{};
  };
  switch (*op) {
    case Opcode::Merge: return owner_of(c.merge_target);
    case Opcode::Break: return owner_of(c.break_target);
    case Opcode::Continue:
    case Opcode::LoopIf: return c.loop;
    default: return {};
  }
}

void ControlEdges::moved(BlockId from, BlockId into) {
  exits[into.index()] = std::move(exits[from.index()]);
  continues[into.index()] = std::move(continues[from.index()]);
  loop_ifs[into.index()] = std::move(loop_ifs[from.index()]);
  exits[from.index()].clear();
  continues[from.index()].clear();
  loop_ifs[from.index()].clear();
}

ControlEdges compute_control_edges(const Function& f) {
  ControlEdges e;
  const std::size_t n = f.blocks.size();
  e.context = compute_block_contexts(f);
  e.owner.resize(n);
  e.exits.resize(n);
  e.continues.resize(n);
  e.loop_ifs.resize(n);
  std::vector<BlockId> reachable;
  visit(f, [&](const BlockVisit& v, const Block& b) {
    reachable.push_back(v.id);
    const auto op = b.terminator_opcode();
    if (op && is_divergent(*op) && b.merge.valid() && b.merge.index() < n) e.owner[b.merge.index()] = v.id;
    return VisitAction::VisitSubBlocks;
  });
  for (BlockId b : reachable) {
    const BlockId target = e.target_construct(f, b);
    if (!target.valid() || target.index() >= n) continue;
    switch (*f.block(b).terminator_opcode()) {
      case Opcode::Merge:
      case Opcode::Break: e.exits[target.index()].push_back(b); break;
      case Opcode::Continue: e.continues[target.index()].push_back(b); break;
      case Opcode::LoopIf: e.loop_ifs[target.index()].push_back(b); break;
      default: break;
    }
  }
  return e;
}

}  // namespace sluice::ir
