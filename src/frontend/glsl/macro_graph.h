// The graph "the body of macro A names macro B" that the macro checks
// (macro_recursion.h, macro_expansion.h) reason about, and its strongly
// connected components.
#pragma once

#include <cstddef>
#include <map>
#include <string_view>
#include <vector>

#include "frontend/glsl/source_tokens.h"

namespace sluice::glsl_in::detail {

using Successors = std::vector<std::vector<std::size_t>>;  // per node, its successors

struct Components {
  std::vector<std::size_t> of;                 // per node, its component's index
  std::vector<std::vector<std::size_t>> list;  // per component, its nodes; successors' components come first
  std::vector<bool> cyclic;                    // per component: more than one node, or a node with an edge to itself
};

// A node per macro name (several definitions of a name are one node), and
// `any`: a body that pastes tokens (`##`) can make any macro's name, so it
// has an edge to `any`, which has an edge to every macro. Successor lists
// are sorted, without repeats.
struct MacroGraph {
  std::map<std::string_view, std::size_t> node;
  std::vector<std::string_view> names;  // per node but `any`
  std::size_t any = 0;                  // names.size()
  Successors succ;                      // names.size() + 1 lists
};

MacroGraph macro_graph(const std::vector<SourceToken>& tokens, const std::vector<MacroDefinition>& defs);

// Whether body token k of `d` starts a `##`.
inline bool pastes_at(const std::vector<SourceToken>& tokens, const MacroDefinition& d, std::size_t k) {
  return tokens[k].text == "#" && k + 1 < d.body_end && tokens[k + 1].text == "#";
}

// Tarjan's algorithm (R. Tarjan, "Depth-first search and linear graph
// algorithms", SIAM J. Comput. 1(2), 1972), iterative with an explicit
// stack: a component is completed after every component it reaches, so
// `list` is in reverse topological order. Linear in nodes + edges.
Components strongly_connected_components(const Successors& succ);

}  // namespace sluice::glsl_in::detail
