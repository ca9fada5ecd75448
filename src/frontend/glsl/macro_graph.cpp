#include "frontend/glsl/macro_graph.h"

#include <algorithm>
#include <utility>

namespace sluice::glsl_in::detail {

MacroGraph macro_graph(const std::vector<SourceToken>& tokens, const std::vector<MacroDefinition>& defs) {
  MacroGraph g;
  for (const MacroDefinition& d : defs)
    if (g.node.emplace(tokens[d.name].text, g.names.size()).second) g.names.push_back(tokens[d.name].text);
  g.any = g.names.size();
  g.succ.resize(g.any + 1);
  for (std::size_t v = 0; v < g.any; ++v) g.succ[g.any].push_back(v);
  for (const MacroDefinition& d : defs) {
    auto& out = g.succ[g.node.at(tokens[d.name].text)];
    for (std::size_t k = d.body_begin; k < d.body_end; ++k) {
      if (const auto w = g.node.find(tokens[k].text); tokens[k].identifier && w != g.node.end()) out.push_back(w->second);
      if (pastes_at(tokens, d, k)) out.push_back(g.any);
    }
  }
  for (auto& out : g.succ) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return g;
}

Components strongly_connected_components(const Successors& succ) {
  const std::size_t n = succ.size();
  constexpr std::size_t kUnvisited = static_cast<std::size_t>(-1);
  std::vector<std::size_t> index(n, kUnvisited), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<std::size_t> stack;
  std::vector<std::pair<std::size_t, std::size_t>> calls;  // node, next successor to visit
  Components result;
  result.of.assign(n, kUnvisited);
  std::size_t counter = 0;
  const auto visit = [&](std::size_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    calls.emplace_back(v, 0);
  };
  for (std::size_t root = 0; root < n; ++root) {
    if (index[root] != kUnvisited) continue;
    visit(root);
    while (!calls.empty()) {
      const std::size_t v = calls.back().first;
      if (calls.back().second < succ[v].size()) {
        const std::size_t w = succ[v][calls.back().second++];
        if (index[w] == kUnvisited) visit(w);
        else if (on_stack[w]) low[v] = std::min(low[v], index[w]);
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[v]);
      if (low[v] != index[v]) continue;
      // v roots a component: the nodes above it on the stack.
      const std::size_t id = result.list.size();
      std::vector<std::size_t>& nodes = result.list.emplace_back();
      bool cyclic = false;
      for (std::size_t w = kUnvisited; w != v;) {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        result.of[w] = id;
        nodes.push_back(w);
        cyclic = cyclic || std::find(succ[w].begin(), succ[w].end(), w) != succ[w].end();
      }
      result.cyclic.push_back(cyclic || nodes.size() > 1);
    }
  }
  return result;
}

}  // namespace sluice::glsl_in::detail
