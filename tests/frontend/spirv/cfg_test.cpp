// The structured-control-flow analysis on the paper's examples (Klimis et
// al., POPL 2023, Figures 2-9, cfg_figures/*.spvasm, constructs old and new
// as the paper gives them) and on one CFG per rule (cfg_rules/<id>.spvasm,
// each reported with exactly its rule id).
#include <catch2/catch.hpp>

#include "cfg_test_util.h"
#include "frontend/spirv/cfg/dot.h"
#include "frontend/spirv/cfg/rules.h"

using namespace sluice::spirv_in;
using namespace sluice::spirv_in::test;

namespace {

Module parse_or_fail(const std::filesystem::path& p) {
  ParseResult r = parse_assembly(read_text(p));
  if (!r.ok()) FAIL(p.string() << ": " << r.error().describe());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("cfg: the paper's figures, constructs by 1.6r2 and by 1.6r1") {
  int figures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(cfg_test_dir() / "cfg_figures")) {
    const std::string text = read_text(entry.path());
    SECTION(entry.path().filename().string()) {
      const Module m = parse_or_fail(entry.path());
      REQUIRE(m.functions.size() == 1);
      const cfg::FunctionCfg now = cfg::analyze(m, m.functions[0]);
      const cfg::FunctionCfg old = cfg::analyze(m, m.functions[0], cfg::Mode::Legacy);
      CHECK(computed_constructs(now) == expected_constructs(comments(text, "new")));
      CHECK(computed_constructs(old) == expected_constructs(comments(text, "old")));
      const auto invalid = comments(text, "invalid");
      if (invalid.empty()) {
        CHECK(text.find("; valid\n") != std::string::npos);
        CHECK(rule_ids(now).empty());
      } else {
        CHECK(rule_ids(now) == words(invalid[0]));
      }
      CHECK(old.violations().empty());  // legacy mode checks nothing
    }
    ++figures;
  }
  CHECK(figures == 9);
}

TEST_CASE("cfg: one CFG per rule, reported with exactly that rule") {
  std::set<std::string> covered;
  for (const auto& entry : std::filesystem::directory_iterator(cfg_test_dir() / "cfg_rules")) {
    const std::string text = read_text(entry.path());
    const std::string id = entry.path().stem().string();
    covered.insert(id);
    SECTION(id) {
      const Module m = parse_or_fail(entry.path());
      const cfg::FunctionCfg f = cfg::analyze(m, m.functions[0]);
      const auto expect = comments(text, "expect");
      REQUIRE(expect.size() == 1);
      CHECK(words(expect[0]).count(id) == 1);
      CHECK(rule_ids(f) == words(expect[0]));
      // Messages name the blocks by id.
      for (const auto& v : f.violations()) CHECK(v.message.find('%') != std::string::npos);
    }
  }
  for (const cfg::RuleInfo& r : cfg::kRules) CHECK(covered.count(std::string(r.id)) == 1);
}

TEST_CASE("cfg: queries on Figure 2") {
  const Module m = parse_or_fail(cfg_test_dir() / "cfg_figures" / "fig2.spvasm");
  const Function& fn = m.functions[0];
  const cfg::FunctionCfg f = cfg::analyze(m, fn);
  const auto b = [&](Id label) { return fn.block_of(label); };
  CHECK(f.structurally_dominates(b(2), b(8)));
  CHECK_FALSE(f.structurally_dominates(b(3), b(7)));  // continue edge 2 -> 7
  CHECK(f.structurally_post_dominates(b(7), b(6)));
  CHECK_FALSE(f.structurally_post_dominates(b(7), b(2)));  // merge edge 2 -> 8
  int back = 0, merge = 0, cont = 0;
  for (const cfg::Edge& e : f.edges()) {
    back += e.back;
    merge += e.kind == cfg::EdgeKind::Merge;
    cont += e.kind == cfg::EdgeKind::Continue;
    if (e.back) CHECK((e.from == b(7) && e.to == b(2)));
  }
  CHECK(back == 1);
  CHECK(merge == 2);
  CHECK(cont == 1);
  const cfg::ConstructIndex sel = f.innermost(b(4));
  REQUIRE(sel != kNone);
  CHECK(f.constructs()[sel].kind == cfg::ConstructKind::Selection);
  CHECK(f.constructs()[sel].entry == b(3));
  const cfg::ConstructIndex loop = f.constructs()[sel].parent;
  REQUIRE(loop != kNone);
  CHECK(f.constructs()[loop].kind == cfg::ConstructKind::Loop);
  CHECK(f.innermost(b(6)) == loop);
  CHECK(f.constructs()[f.innermost(b(7))].kind == cfg::ConstructKind::Continue);
  CHECK(f.innermost(b(8)) == kNone);
  CHECK(f.innermost(b(1)) == kNone);
  const std::string dot = cfg::to_dot(f);
  CHECK(dot.find("subgraph cluster_") != std::string::npos);
  CHECK(dot.find("style=dashed, color=blue") != std::string::npos);
  CHECK(dot.find("style=dotted") != std::string::npos);
}

TEST_CASE("cfg: function declarations and Kernel modules") {
  const ParseResult decl = parse_assembly(R"(OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %f LinkageAttributes "f" Import
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
OpFunctionEnd
)");
  REQUIRE(decl.ok());
  REQUIRE(decl.value().functions.size() == 1);
  const cfg::FunctionCfg f = cfg::analyze(decl.value(), decl.value().functions[0]);
  CHECK(f.valid());
  CHECK(f.constructs().empty());
  // Unstructured control flow is allowed without the Shader capability.
  const ParseResult kernel = parse_assembly(R"(OpCapability Kernel
OpCapability Addresses
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%c = OpConstantTrue %bool
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%1 = OpLabel
OpBranchConditional %c %2 %3
%2 = OpLabel
OpReturn
%3 = OpLabel
OpReturn
OpFunctionEnd
)");
  REQUIRE(kernel.ok());
  const cfg::FunctionCfg k = cfg::analyze(kernel.value(), kernel.value().functions[0]);
  CHECK_FALSE(k.rules_apply());
  CHECK(k.valid());
}
