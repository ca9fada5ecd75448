// The reduction steps of `sluice flesh --reduce` (src/flesh/reduce.h):
// every step offered is a valid structured module, smaller than the test
// it comes from, and keeps the mutation's block; following steps always
// ends (here: taking the first step each time).
#include <catch2/catch.hpp>

#include "flesh/check.h"
#include "flesh/flesh.h"
#include "flesh/generate.h"
#include "flesh/reduce.h"

namespace fl = sluice::flesh;

TEST_CASE("reduction steps are valid, smaller, and keep the mutated block") {
  fl::Coverage coverage;
  for (std::uint64_t i = 0; i < 6; ++i) {
    fl::CampaignOptions o;
    o.max_blocks = 16;
    o.flesh.mode = i % 3 == 0 ? fl::Mode::Phi : fl::Mode::Basic;
    auto t = fl::campaign_test(9, i, o, coverage);
    REQUIRE(t.ok());
    fl::TestDescription d{t->cfg, t->seed, o.flesh, fl::choose_mutation(*t, i)};
    const auto steps = fl::reduction_steps(d);
    CHECK_FALSE(steps.empty());
    for (const auto& s : steps) {
      INFO(s.what << "\n" << fl::describe(s.description.cfg));
      CHECK(fl::reduction_size(s.description) < fl::reduction_size(d));
      CHECK(fl::structure_problem(s.test).empty());
      CHECK(s.description.mutation.kind == d.mutation.kind);
      CHECK(s.description.mutation.block < s.description.cfg.size());
    }
    // Greedy descent without a failure predicate: it ends, smaller, with
    // the shortest path (blocks that only a kept mutation needs may stay).
    fl::TestDescription cur = d;
    for (auto next = fl::reduction_steps(cur); !next.empty(); next = fl::reduction_steps(cur)) cur = next.front().description;
    INFO(fl::describe_test(fl::flesh(cur.cfg, cur.seed, cur.options).value(), 0, cur.mutation));
    CHECK(fl::reduction_size(cur) < fl::reduction_size(d));
    CHECK(cur.cfg.size() <= d.cfg.size());
    CHECK(cur.options.walk_bound == 0);
  }
}
