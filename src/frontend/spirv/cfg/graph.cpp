// Adjacency arrays and an iterative depth-first search. The DFS keeps an
// explicit stack of (node, next successor) pairs so that a chain of a
// million blocks costs memory, not native stack.
#include "frontend/spirv/cfg/graph.h"

namespace sluice::spirv_in::cfg {

Graph Graph::from_edges(std::uint32_t size, const std::vector<std::pair<Node, Node>>& edges) {
  Graph g;
  g.size = size;
  g.succ_begin.assign(size + 1, 0);
  g.pred_begin.assign(size + 1, 0);
  for (const auto& [from, to] : edges) {
    ++g.succ_begin[from + 1];
    ++g.pred_begin[to + 1];
  }
  for (std::uint32_t n = 0; n < size; ++n) {
    g.succ_begin[n + 1] += g.succ_begin[n];
    g.pred_begin[n + 1] += g.pred_begin[n];
  }
  g.succ.resize(edges.size());
  g.pred.resize(edges.size());
  std::vector<std::uint32_t> s_fill(g.succ_begin.begin(), g.succ_begin.end() - 1);
  std::vector<std::uint32_t> p_fill(g.pred_begin.begin(), g.pred_begin.end() - 1);
  for (const auto& [from, to] : edges) {
    g.succ[s_fill[from]++] = to;
    g.pred[p_fill[to]++] = from;
  }
  return g;
}

Graph Graph::reversed() const {
  Graph r;
  r.size = size;
  r.succ_begin = pred_begin;
  r.succ = pred;
  r.pred_begin = succ_begin;
  r.pred = succ;
  return r;
}

DepthFirst depth_first(const Graph& graph, Node root) {
  DepthFirst out;
  out.rpo_number.assign(graph.size, kNoNode);
  out.retreating.assign(graph.succ.size(), false);
  enum : std::uint8_t { kUnseen, kOnStack, kDone };
  std::vector<std::uint8_t> state(graph.size, kUnseen);
  std::vector<Node> post_order;
  post_order.reserve(graph.size);
  struct Frame {
    Node node;
    std::uint32_t next;  // index into graph.succ
  };
  std::vector<Frame> stack;
  if (root < graph.size) {
    stack.push_back({root, graph.succ_begin[root]});
    state[root] = kOnStack;
  }
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == graph.succ_begin[top.node + 1]) {
      state[top.node] = kDone;
      post_order.push_back(top.node);
      stack.pop_back();
      continue;
    }
    const std::uint32_t k = top.next++;
    const Node s = graph.succ[k];
    if (state[s] == kOnStack) {
      out.retreating[k] = true;
    } else if (state[s] == kUnseen) {
      state[s] = kOnStack;
      stack.push_back({s, graph.succ_begin[s]});
    }
  }
  out.reverse_post_order.assign(post_order.rbegin(), post_order.rend());
  for (std::uint32_t i = 0; i < out.reverse_post_order.size(); ++i) out.rpo_number[out.reverse_post_order[i]] = i;
  return out;
}

}  // namespace sluice::spirv_in::cfg
