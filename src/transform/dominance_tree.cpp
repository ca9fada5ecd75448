// See dominance_tree.h.
#include "transform/dominance_tree.h"

#include "ir/traversal.h"

namespace sluice::transform {

using namespace ir;

DominanceTree dominance_tree(const Function& f) {
  const std::size_t n = f.blocks.size();
  std::vector<BlockId> parent(n);
  std::vector<BlockId> order;
  auto set = [&](BlockId child, BlockId p) {
    if (child.valid() && child.index() < n) parent[child.index()] = p;
  };
  visit(f, [&](const BlockVisit& v, const Block& b) {
    order.push_back(v.id);
    const auto op = b.terminator_opcode();
    if (!op || !is_divergent(*op)) return VisitAction::VisitSubBlocks;
    set(b.merge, v.id);
    for (BlockId s : b.sub_blocks()) set(s, v.id);
    return VisitAction::VisitSubBlocks;
  });
  DominanceTree t;
  t.first.assign(n + 1, 0);
  for (BlockId b : order)
    if (parent[b.index()].valid()) ++t.first[parent[b.index()].index() + 1];
  for (std::size_t i = 0; i < n; ++i) t.first[i + 1] += t.first[i];
  t.children.resize(t.first[n]);
  std::vector<std::uint32_t> fill(t.first.begin(), t.first.end() - 1);
  for (BlockId b : order)
    if (parent[b.index()].valid()) t.children[fill[parent[b.index()].index()]++] = b;
  return t;
}

}  // namespace sluice::transform
