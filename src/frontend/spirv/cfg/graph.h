// A directed graph over the blocks of one function, stored as adjacency
// arrays (CSR), and the traversals the structured-control-flow analysis
// needs: iterative depth-first search (no native recursion, so nesting depth
// costs heap, not stack), reverse post-order and back edges.
#pragma once

#include <cstdint>
#include <vector>

namespace sluice::spirv_in::cfg {

using Node = std::uint32_t;
inline constexpr Node kNoNode = 0xffffffffu;

struct Graph {
  std::uint32_t size = 0;
  std::vector<std::uint32_t> succ_begin, succ;  // succ[succ_begin[n] .. succ_begin[n+1])
  std::vector<std::uint32_t> pred_begin, pred;

  // From an edge list; parallel edges are kept.
  static Graph from_edges(std::uint32_t size, const std::vector<std::pair<Node, Node>>& edges);
  // The same graph with every edge reversed.
  Graph reversed() const;

  struct Range {
    const std::uint32_t* b;
    const std::uint32_t* e;
    const std::uint32_t* begin() const { return b; }
    const std::uint32_t* end() const { return e; }
    std::size_t size() const { return static_cast<std::size_t>(e - b); }
  };
  Range successors(Node n) const { return {succ.data() + succ_begin[n], succ.data() + succ_begin[n + 1]}; }
  Range predecessors(Node n) const { return {pred.data() + pred_begin[n], pred.data() + pred_begin[n + 1]}; }
};

// One depth-first search from `root`, successors in stored order.
struct DepthFirst {
  std::vector<Node> reverse_post_order;     // reachable nodes only
  std::vector<std::uint32_t> rpo_number;    // kNoNode when unreachable
  // For each edge index k of graph.succ: true when it leads to a node that
  // is on the DFS stack (an ancestor, or the node itself), i.e. a retreating
  // edge of this search.
  std::vector<bool> retreating;
};
DepthFirst depth_first(const Graph& graph, Node root);

}  // namespace sluice::spirv_in::cfg
