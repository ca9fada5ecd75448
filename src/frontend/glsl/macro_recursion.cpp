// The test of macro_recursion.h, linear in the source's size: the shared
// scanner (source_tokens.h) collects each `#define`'s name and body; the
// body of each definition is searched for a `(` that it does not close; the
// graph "macro A's body names macro B" is split into strongly connected
// components (macro_graph.h) to tell which macros lie on a cycle, and two
// breadth-first searches from those tell which macros are reached from a
// cycle or reach one.
#include "frontend/glsl/macro_recursion.h"

#include <algorithm>
#include <vector>

#include "frontend/glsl/macro_graph.h"
#include "frontend/glsl/source_tokens.h"

namespace sluice::glsl_in::detail {
namespace {
namespace macro_scan {

// Whether the body leaves a `(` open.
bool leaves_parenthesis_open(const std::vector<SourceToken>& t, const MacroDefinition& d) {
  std::size_t open = 0;
  for (std::size_t k = d.body_begin; k < d.body_end; ++k) {
    if (t[k].text == "(") ++open;
    else if (t[k].text == ")" && open > 0) --open;
  }
  return open > 0;
}

// Which nodes of the graph lie on a cycle.
std::vector<bool> on_cycle(const Successors& succ) {
  const Components c = strongly_connected_components(succ);
  std::vector<bool> cyclic(succ.size());
  for (std::size_t v = 0; v < succ.size(); ++v) cyclic[v] = c.cyclic[c.of[v]];
  return cyclic;
}

// For each node, a node on a cycle that reaches it or that it reaches
// (itself when it is on one), or kNone: breadth-first from the cycles,
// forward along `succ`, then backward.
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

std::vector<std::size_t> cycle_near(const Successors& succ, const std::vector<bool>& cyclic) {
  const std::size_t n = succ.size();
  std::vector<std::vector<std::size_t>> pred(n);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t w : succ[v]) pred[w].push_back(v);
  std::vector<std::size_t> near(n, kNone);
  const std::vector<std::vector<std::size_t>>* graphs[] = {&succ, &pred};
  for (const auto* edges : graphs) {
    std::vector<std::size_t> forward(n, kNone), queue;
    for (std::size_t v = 0; v < n; ++v)
      if (cyclic[v]) {
        forward[v] = v;
        queue.push_back(v);
      }
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (std::size_t w : (*edges)[queue[head]])
        if (forward[w] == kNone) {
          forward[w] = forward[queue[head]];
          queue.push_back(w);
        }
    for (std::size_t v = 0; v < n; ++v)
      if (near[v] == kNone) near[v] = forward[v];
  }
  return near;
}

}  // namespace macro_scan
}  // namespace

std::optional<RunawayMacro> find_runaway_macro(std::string_view source) {
  const std::vector<SourceToken> tokens = tokenize_source(source);
  const std::vector<MacroDefinition> defs = macro_definitions(tokens);
  if (defs.empty()) return std::nullopt;
  const MacroGraph graph = macro_graph(tokens, defs);
  const Successors& succ = graph.succ;
  const std::size_t any = graph.any;
  const std::vector<std::size_t> near = macro_scan::cycle_near(succ, macro_scan::on_cycle(succ));
  // A macro on a cycle first (the one that recurses), then one near a cycle.
  for (const bool on_it : {true, false})
    for (const MacroDefinition& d : defs) {
      const std::size_t v = graph.node.at(tokens[d.name].text), cycle = near[v];
      if (cycle != macro_scan::kNone && (cycle == v) == on_it && macro_scan::leaves_parenthesis_open(tokens, d))
        return RunawayMacro{std::string(tokens[d.name].text), cycle == any ? std::string() : std::string(graph.names[cycle]),
                            tokens[d.name].line, tokens[d.name].column};
    }
  return std::nullopt;
}

}  // namespace sluice::glsl_in::detail
