// A function nested 100,000 Ifs deep goes through the builder, the dump,
// the parser, visit(), compute_block_contexts(), dot() and
// the destructor without recursing: run under the default 8 MB stack, any
// recursion per level would overflow it.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "ir/builder.h"
#include "ir/dot.h"
#include "ir/dump.h"
#include "ir/parse.h"
#include "ir/structure.h"
#include "ir/traversal.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;

namespace {

constexpr std::uint32_t kDepth = 100000;

// main() { if (true) { if (true) { ... } } return; }: each If's true block
// holds the next If, each merge block leaves its enclosing If.
std::optional<Module> build_nested_ifs(std::uint32_t depth, BlockId& innermost) {
  Module m;
  Builder b(m);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  std::vector<BlockId> merges;
  merges.reserve(depth);
  for (std::uint32_t i = 0; i < depth; ++i) {
    auto blocks = b.branch_if(kTrue, false);
    if (!blocks) return std::nullopt;
    merges.push_back(blocks->merge);
    b.set_block(blocks->true_block);
  }
  innermost = b.block();
  if (!b.terminate(Opcode::Merge)) return std::nullopt;
  for (std::uint32_t i = depth; i-- > 0;) {
    b.set_block(merges[i]);
    if (!b.terminate(i == 0 ? Opcode::Return : Opcode::Merge)) return std::nullopt;
  }
  return m;
}

std::uint32_t max_depth(const std::vector<BlockContext>& contexts) {
  std::uint32_t d = 0;
  for (const BlockContext& c : contexts) d = std::max(d, c.depth);
  return d;
}

}  // namespace

TEST_CASE("100,000 nested Ifs: build, dump, parse, walk and destroy without recursion") {
  std::string text;
  {
    BlockId innermost;
    std::optional<Module> built = build_nested_ifs(kDepth, innermost);
    REQUIRE(built);
    const Function& f = built->function(FunctionId(0));
    REQUIRE(f.blocks.size() == 2 * kDepth + 1);
    const auto contexts = compute_block_contexts(f);
    CHECK(contexts[innermost.index()].depth == kDepth);
    CHECK(contexts[innermost.index()].reachable);
    text = dump(*built);
    // Deep lines write their depth as a number, so the text grows linearly.
    CHECK(text.size() < 400 * std::size_t{kDepth});
    CHECK(text.find(fmt::format("    |{}|   If True Block:", kDepth)) != std::string::npos);
    CHECK(dot(*built).size() > kDepth);
  }  // the built module is destroyed here

  ParseResult parsed = parse_module(text, "deep.ir");
  INFO(render(parsed.diagnostics, text));
  REQUIRE(parsed.ok());
  CHECK(dump(*parsed.module) == text);
  const Function& f = parsed.module->function(FunctionId(0));
  CHECK(max_depth(compute_block_contexts(f)) == kDepth);

  std::size_t visited = 0;
  visit(f, [&](const BlockVisit&, const Block&) {
    ++visited;
    return VisitAction::VisitSubBlocks;
  });
  CHECK(visited == 2 * kDepth + 1);
  Module copy = *parsed.module;
  parsed.module.reset();
  CHECK(copy.function(FunctionId(0)).blocks.size() == 2 * kDepth + 1);
}

TEST_CASE("lines deeper than the drawn depth use the numbered prefix, which reads back at any depth") {
  BlockId innermost;
  std::optional<Module> built = build_nested_ifs(20, innermost);
  REQUIRE(built);
  const std::string text = dump(*built);
  // Depth 16 is drawn bar by bar; depth 17 is numbered.
  std::string drawn = "    ";
  for (int i = 0; i < 16; ++i) drawn += "|   ";
  CHECK(text.find(drawn + "If True Block:") != std::string::npos);
  CHECK(text.find("    |17|   If True Block:") != std::string::npos);
  // A hand-written file may number shallow depths too.
  std::string numbered = text;
  const std::string depth1 = "\n    |   If True Block:";
  REQUIRE(numbered.find(depth1) != std::string::npos);
  numbered.replace(numbered.find(depth1), depth1.size(), "\n    |1|   If True Block:");
  ParseResult parsed = parse_module(numbered, "numbered.ir");
  INFO(render(parsed.diagnostics, numbered));
  REQUIRE(parsed.ok());
  CHECK(dump(*parsed.module) == text);
}
