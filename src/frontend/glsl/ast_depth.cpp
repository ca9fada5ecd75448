// Depth of glslang's AST, measured with an explicit stack on the heap: the
// translator recurses along the tree, so it only walks trees this check has
// found shallow enough (kMaxAstDepth).
#include "frontend/glsl/ast_depth.h"

#include <utility>
#include <vector>

#include <glslang/Include/intermediate.h>

namespace sluice::glsl_in::detail {

DepthReport measure_depth(TIntermNode* root, std::size_t limit) {
  DepthReport report;
  if (!root) return report;
  std::vector<std::pair<TIntermNode*, std::size_t>> stack;
  stack.emplace_back(root, 1);
  auto push = [&](TIntermNode* child, std::size_t depth) {
    if (child) stack.emplace_back(child, depth);
  };
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (depth > report.depth) {
      report.depth = depth;
      report.deepest = node;
    }
    if (depth > limit) return report;  // deep enough to refuse; stop early
    const std::size_t d = depth + 1;
    if (auto* a = node->getAsAggregate()) {
      for (TIntermNode* c : a->getSequence()) push(c, d);
    } else if (auto* b = node->getAsBinaryNode()) {
      push(b->getLeft(), d);
      push(b->getRight(), d);
    } else if (auto* u = node->getAsUnaryNode()) {
      push(u->getOperand(), d);
    } else if (auto* s = node->getAsSelectionNode()) {
      push(s->getCondition(), d);
      push(s->getTrueBlock(), d);
      push(s->getFalseBlock(), d);
    } else if (auto* l = node->getAsLoopNode()) {
      push(l->getBody(), d);
      push(l->getTest(), d);
      push(l->getTerminal(), d);
    } else if (auto* br = node->getAsBranchNode()) {
      push(br->getExpression(), d);
    } else if (auto* sw = node->getAsSwitchNode()) {
      push(sw->getCondition(), d);
      push(sw->getBody(), d);
    } else if (auto* sym = node->getAsSymbolNode()) {
      push(sym->getConstSubtree(), d);
    } else if (auto* m = node->getAsMethodNode()) {
      push(m->getObject(), d);
    }
  }
  return report;
}

}  // namespace sluice::glsl_in::detail
