// Graphviz output (dot.h). Blocks are reached with visit(), whose stack is
// on the heap, so deeply nested functions cost no native stack.
#include "ir/dot.h"

#include <fmt/format.h>

#include "ir/dump.h"
#include "ir/structure.h"
#include "ir/traversal.h"

namespace sluice::ir {
namespace {

// A double-quoted DOT string holding `lines`, each left-justified (\l).
std::string label(const std::vector<std::string>& lines) {
  std::string out = "\"";
  for (const std::string& line : lines) {
    for (char ch : line) {
      if (ch == '"' || ch == '\\') out += '\\';
      if (ch == '\n' || ch == '\r') continue;
      out += ch;
    }
    out += "\\l";
  }
  out += '"';
  return out;
}

// "Case 3:" / "Case Default:" as the dump titles a case block; the label
// is signed when the selector is an int.
std::string case_title(const Module& m, const Block& parent, BlockId sub) {
  for (std::size_t i = 0; i < parent.case_blocks.size() && i < parent.cases.size(); ++i) {
    if (parent.case_blocks[i] != sub) continue;
    const auto& value = parent.cases[i].value;
    if (!value) return "Case Default:";
    const Instruction* t = parent.terminator();
    const bool is_signed = t && !t->operands.empty() && m.type_of(t->operands[0]) == predefined::kInt;
    return is_signed ? fmt::format("Case {}:", static_cast<std::int32_t>(*value)) : fmt::format("Case {}:", *value);
  }
  return "Case ?:";
}

std::string edge_label(const Module& m, const Block& parent, BlockId sub, BlockKind kind) {
  switch (kind) {
    case BlockKind::IfTrue: return "true";
    case BlockKind::IfFalse: return "false";
    case BlockKind::LoopCondition: return "condition";
    case BlockKind::LoopBody: return "body";
    case BlockKind::LoopContinue: return "continue";
    case BlockKind::SwitchCase: {
      const std::string title = case_title(m, parent, sub);  // "Case 3:" -> "case 3"
      return title == "Case Default:" ? "case default" : "case " + title.substr(5, title.size() - 6);
    }
    default: return "";
  }
}

void function_cluster(const Module& m, FunctionId id, std::string& out) {
  const Function& f = m.function(id);
  const std::vector<BlockContext> ctx = compute_block_contexts(f);
  out += fmt::format("  subgraph cluster_f{} {{\n", id.index());
  out += fmt::format("    label={};\n", label({fmt::format("f{}: '{}'", id.index(), f.name.text)}));
  auto node = [&](BlockId b) { return fmt::format("f{}_b{}", id.index(), b.index()); };
  visit(f, [&](const BlockVisit& v, const Block& b) {
    std::vector<std::string> lines;
    const BlockContext& c = ctx[v.id.index()];
    lines.push_back(v.kind == BlockKind::SwitchCase && c.construct.valid()
                        ? case_title(m, f.block(c.construct), v.id)
                        : std::string(block_title(v.kind)));
    if (!b.declarations.empty()) {
      std::string d = "Declare:";
      for (std::size_t i = 0; i < b.declarations.size(); ++i)
        d += fmt::format("{} v{}", i ? "," : "", b.declarations[i].index());
      lines.push_back(d);
    }
    if (b.merge_input.valid()) {
      const bool known = b.merge_input.index() < m.register_count();
      const RegisterInfo info = known ? m.reg(b.merge_input) : RegisterInfo{};
      lines.push_back(fmt::format("Input: r{} (t{}){}", b.merge_input.index(), info.type.index(),
                                  info.precision == Precision::None
                                      ? ""
                                      : fmt::format(" [{}]", to_string(info.precision))));
    }
    for (const Instruction& inst : b.instructions) lines.push_back(dump_instruction(m, inst));
    out += fmt::format("    {} [label={}];\n", node(v.id), label(lines));
    const auto op = b.terminator_opcode();
    if (!op || !is_divergent(*op)) return VisitAction::VisitSubBlocks;
    for (auto [sub, kind] : b.sub_blocks_with_kind()) {
      if (sub.index() >= f.blocks.size()) continue;
      out += fmt::format("    {} -> {} [label=\"{}\"];\n", node(v.id), node(sub), edge_label(m, b, sub, kind));
    }
    if (b.merge.valid() && b.merge.index() < f.blocks.size())
      out += fmt::format("    {} -> {} [style=dashed, label=\"merge\"];\n", node(v.id), node(b.merge));
    return VisitAction::VisitSubBlocks;
  });
  out += "  }\n";
}

}  // namespace

std::string dot(const Module& m) {
  std::string out = "digraph module {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (std::uint32_t i = 0; i < m.function_count(); ++i) function_cluster(m, FunctionId(i), out);
  out += "}\n";
  return out;
}

}  // namespace sluice::ir
