// Clusters are emitted by an explicit-stack walk of the construct tree, each
// block inside the cluster of its innermost construct, so that Graphviz's
// requirement that clusters nest holds by construction.
#include "frontend/spirv/cfg/dot.h"

#include <sstream>

namespace sluice::spirv_in::cfg {
namespace {

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out.push_back('\\');
    out.push_back(ch);
  }
  return out + "\"";
}

}  // namespace

std::string to_dot(const FunctionCfg& cfg) {
  std::ostringstream out;
  const auto& cs = cfg.constructs();
  const auto n = cfg.size();
  out << "digraph " << quoted(cfg.module().describe(cfg.function().id)) << " {\n  node [shape=box];\n";
  // Children of each construct (kNone = function level at index cs.size()).
  std::vector<std::vector<ConstructIndex>> kids(cs.size() + 1);
  std::vector<std::vector<BlockIndex>> members(cs.size() + 1);
  for (ConstructIndex c = 0; c < cs.size(); ++c) kids[cs[c].parent == kNone ? cs.size() : cs[c].parent].push_back(c);
  for (BlockIndex b = 0; b < n; ++b) {
    const ConstructIndex c = cfg.innermost(b);
    members[c == kNone ? cs.size() : c].push_back(b);
  }
  struct Frame {
    ConstructIndex c;
    std::size_t next;
  };
  std::vector<Frame> stack{{static_cast<ConstructIndex>(cs.size()), 0}};
  const auto open = [&](ConstructIndex c) {
    const std::string indent(2 * stack.size(), ' ');
    if (c != cs.size())
      out << indent << "subgraph cluster_" << c << " {\n"
          << indent << "  label=" << quoted(std::string(to_string(cs[c].kind)) + " " + cfg.describe(cs[c].entry))
          << ";\n";
    for (BlockIndex b : members[c]) {
      out << indent << "  b" << b << " [label=" << quoted(cfg.describe(b));
      if (!cfg.reachable(b)) out << ", style=dashed";
      out << "];\n";
    }
  };
  open(static_cast<ConstructIndex>(cs.size()));
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == kids[top.c].size()) {
      if (top.c != cs.size()) out << std::string(2 * stack.size(), ' ') << "}\n";
      stack.pop_back();
      continue;
    }
    const ConstructIndex c = kids[top.c][top.next++];
    stack.push_back({c, 0});
    open(c);
  }
  for (const Edge& e : cfg.edges()) {
    out << "  b" << e.from << " -> b" << e.to;
    switch (e.kind) {
      case EdgeKind::Branch: out << (e.back ? " [style=bold, color=red]" : ""); break;
      case EdgeKind::Merge: out << " [style=dashed, color=blue, constraint=false]"; break;
      case EdgeKind::Continue: out << " [style=dotted, color=darkgreen, constraint=false]"; break;
    }
    out << ";\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace sluice::spirv_in::cfg
