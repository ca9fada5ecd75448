// The block-tree source (src/flesh/tree_source.h): random Sluice IR trees
// put through Sluice's SPIR-V output. Every tree's module and every test
// fleshed from its CFG pass spirv-val and `sluice cfg`; generation is
// deterministic; the trees reach the shapes they count; and fleshed tree
// CFGs run on lavapipe with the predicted path.
#include <catch2/catch.hpp>

#include "exec/vulkan_context.h"
#include "flesh/batch_run.h"
#include "flesh/flesh.h"
#include "flesh/tree_source.h"
#include "flesh/check.h"

namespace fl = sluice::flesh;

TEST_CASE("block trees through the SPIR-V output pass spirv-val and sluice cfg, fleshed in every mode") {
  fl::Coverage coverage;
  std::uint32_t largest = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    fl::GenerateOptions g;
    g.blocks = 4 + static_cast<std::uint32_t>(seed % 50);
    fl::Coverage c;
    auto tree = fl::random_block_tree(seed, g, c);
    REQUIRE(tree.ok());
    auto words = fl::block_tree_spirv(*tree);
    INFO("seed " << seed << ": " << (words ? std::string() : words.error()));
    REQUIRE(words.ok());
    REQUIRE(fl::module_problem(*words) == "");
    fl::Coverage again;
    CHECK(fl::random_block_tree(seed, g, again).ok());
    CHECK(again.line() == c.line());
    c = fl::Coverage{};
    auto cfg = fl::tree_cfg(seed, g, c);
    REQUIRE(cfg.ok());
    largest = std::max(largest, cfg->size());
    // Every block that can run can reach an exit, so a chosen path ends.
    const auto reach = fl::reachable_blocks(*cfg);
    const auto dist = fl::exit_distances(*cfg);
    for (fl::BlockIndex b = 0; b < cfg->size(); ++b)
      if (reach[b]) REQUIRE(dist[b] != fl::kUnreachableDistance);
    fl::FleshOptions o;
    o.mode = static_cast<fl::Mode>(seed % 5);
    auto t = fl::flesh(*cfg, seed, o);
    REQUIRE(t.ok());
    INFO("mode " << fl::to_string(o.mode) << "\n" << fl::describe(*cfg));
    REQUIRE(fl::module_problem(t->spirv) == "");
    coverage.add(c);
  }
  CHECK(largest > 40);
  // The shapes a structured tree can produce; the rest (a loop header that
  // is its own continue target, an infinite loop, a default shared with a
  // case, blocks no edge reaches) only the direct generator makes.
  INFO(coverage.line());
  for (fl::Shape s : {fl::Shape::Selection, fl::Shape::SelectionWithoutElse, fl::Shape::UnreachableMerge,
                      fl::Shape::WhileLoop, fl::Shape::DoWhileLoop, fl::Shape::DoWhileFalse,
                      fl::Shape::MultiBlockContinue, fl::Shape::SelectionInContinue, fl::Shape::NestedLoop,
                      fl::Shape::Switch, fl::Shape::SwitchFallThrough, fl::Shape::SwitchDefaultMiddle,
                      fl::Shape::SwitchWithoutDefault, fl::Shape::Break, fl::Shape::SwitchBreak, fl::Shape::Continue,
                      fl::Shape::EarlyReturn, fl::Shape::Discard, fl::Shape::NextBlock})
    CHECK(coverage.counts[static_cast<std::size_t>(s)] > 0);
}

TEST_CASE("the block-tree source is deterministic and differs between seeds") {
  fl::CampaignOptions o;
  o.source = fl::Source::Tree;
  o.flesh.mode = fl::Mode::PhiThreads;
  fl::Coverage c1, c2, c3;
  auto a = fl::campaign_test(11, 3, o, c1);
  auto b = fl::campaign_test(11, 3, o, c2);
  auto other = fl::campaign_test(11, 4, o, c3);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(other.ok());
  CHECK(a->spirv == b->spirv);
  CHECK(a->directions == b->directions);
  CHECK(a->expected == b->expected);
  CHECK(c1.line() == c2.line());
  CHECK(a->spirv != other->spirv);
}

TEST_CASE("fleshed block-tree CFGs record the predicted path on lavapipe") {
  auto ctx = sluice::exec::VulkanContext::create({});
  REQUIRE(ctx.ok());
  fl::CampaignOptions o;
  o.source = fl::Source::Tree;
  o.max_blocks = 30;
  fl::Coverage coverage;
  std::vector<fl::Test> tests;
  for (fl::Mode m : {fl::Mode::Basic, fl::Mode::Phi, fl::Mode::Threads, fl::Mode::PhiThreads})
    for (std::uint64_t i = 0; i < 6; ++i) {
      o.flesh.mode = m;
      auto t = fl::campaign_test(5, i, o, coverage);
      REQUIRE(t.ok());
      tests.push_back(std::move(*t));
    }
  std::vector<fl::BatchJob> jobs;
  for (const auto& t : tests)
    jobs.push_back({t.spirv, t.directions, static_cast<std::uint32_t>(t.expected.size()), t.groups()});
  auto r = fl::run_batch(**ctx, jobs);
  REQUIRE(r.ok());
  for (std::size_t k = 0; k < tests.size(); ++k) {
    INFO("test " << k << " mode " << fl::to_string(tests[k].mode) << "\n" << fl::describe(tests[k].cfg));
    REQUIRE(r->outputs[k].ok());
    CHECK(*r->outputs[k] == tests[k].expected);
  }
}
