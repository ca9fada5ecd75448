// Graphviz output: one cluster per function, one node per block, labelled
// edges to sub-blocks and dashed edges to merge blocks.
#include <catch2/catch.hpp>

#include "all_constructs.h"
#include "golden_file.h"
#include "ir/dot.h"
#include "ir/traversal.h"

using namespace sluice;
using namespace sluice::ir;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// Lines of the graph that contain every one of `parts` and not `excluded`.
std::size_t count_lines(const std::string& text, std::initializer_list<std::string> parts,
                        const std::string& excluded = "\n") {
  std::size_t n = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    const std::string line = text.substr(begin, end - begin);
    bool all = line.find(excluded) == std::string::npos;
    for (const std::string& p : parts) all = all && line.find(p) != std::string::npos;
    if (all) ++n;
    begin = end + 1;
  }
  return n;
}

}  // namespace

TEST_CASE("the ANGLE example as a graph") {
  const Module m = testing::build_angle_example();
  const std::string graph = dot(m);
  testing::check_golden("angle_example.dot", graph);
  CHECK(graph.starts_with("digraph module {\n"));
  CHECK(graph.ends_with("}\n"));
  CHECK(count(graph, "subgraph cluster_f") == m.function_count());

  std::size_t blocks = 0, divergent = 0;
  visit(m.function(FunctionId(0)), [&](const BlockVisit&, const Block& b) {
    ++blocks;
    const auto op = b.terminator_opcode();
    if (op && is_divergent(*op)) ++divergent;
    return VisitAction::VisitSubBlocks;
  });
  CHECK(count_lines(graph, {"    f0_b", " [label="}, " -> ") == blocks);
  CHECK(count(graph, " [style=dashed, label=\"merge\"];") == divergent);
  for (const char* role : {"condition", "body", "continue", "true", "false"})
    CHECK(count_lines(graph, {" -> f0_b", std::string(" [label=\"") + role + "\"];"}) == 1);
  // Blocks show their lines as the dump prints them.
  CHECK(graph.find("Loop Condition:\\l") != std::string::npos);
  CHECK(graph.find("r1   (t4) =    LessThan r0 c9\\l") != std::string::npos);
}

TEST_CASE("case edges carry their labels and names are escaped") {
  Module m = testing::build_all_constructs();
  m.function(FunctionId(0)).name.text = "say \"hi\" \\ bye";
  const std::string graph = dot(m);
  CHECK(count(graph, "subgraph cluster_f") == 2);
  for (const char* label : {"case 1", "case default", "case -3"})
    CHECK(count(graph, std::string(" [label=\"") + label + "\"];") == 1);
  CHECK(graph.find("Case Default:\\l") != std::string::npos);
  CHECK(graph.find("f0: 'say \\\"hi\\\" \\\\ bye'") != std::string::npos);
}
