// Measuring how deep glslang's AST nests, without recursing.
#pragma once

#include <cstddef>

class TIntermNode;

namespace sluice::glsl_in::detail {

struct DepthReport {
  std::size_t depth = 0;          // nodes on the longest root-to-leaf path seen
  TIntermNode* deepest = nullptr; // a node at that depth (for the diagnostic's location)
};

// Walks the tree under `root`; stops early once a path is longer than `limit`.
DepthReport measure_depth(TIntermNode* root, std::size_t limit);

}  // namespace sluice::glsl_in::detail
