// The direct CFG generator (src/flesh/generate.h): every CFG it makes,
// fleshed in every mode, passes spirv-val and Sluice's own SPIR-V 1.6r2
// structured-control-flow analysis (`sluice cfg`), over a few hundred
// seeds; it is deterministic; and it reaches every shape it counts.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "flesh/check.h"
#include "flesh/flesh.h"
#include "flesh/generate.h"

namespace fl = sluice::flesh;

namespace {

// spirv-val's and the cfg analysis's complaints about one test, or "".
std::string check(const fl::Test& t) { return fl::structure_problem(t); }

}  // namespace

TEST_CASE("generated CFGs pass spirv-val and sluice cfg in every mode") {
  fl::Coverage coverage;
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    fl::GenerateOptions g;
    g.blocks = 4 + static_cast<std::uint32_t>(seed % 60);
    fl::Coverage c;
    const fl::Cfg cfg = fl::generate_cfg(seed, g, c);
    coverage.add(c);
    // Every block that can run can reach an exit, so a chosen path ends.
    const auto reach = fl::reachable_blocks(cfg);
    const auto dist = fl::exit_distances(cfg);
    for (fl::BlockIndex b = 0; b < cfg.size(); ++b)
      if (reach[b]) REQUIRE(dist[b] != fl::kUnreachableDistance);
    const fl::Mode mode = static_cast<fl::Mode>(seed % 5);
    fl::FleshOptions o;
    o.mode = mode;
    auto t = fl::flesh(cfg, seed, o);
    REQUIRE(t.ok());
    const std::string problem = check(*t);
    INFO("seed " << seed << " mode " << fl::to_string(mode) << "\n" << fl::describe(cfg) << "\n" << t->assembly);
    REQUIRE(problem == "");
    ++checked;
  }
  CHECK(checked == 300);
  INFO(coverage.line());
  for (std::size_t i = 0; i < fl::kDirectShapeCount; ++i) CHECK(coverage.counts[i] > 0);
}

TEST_CASE("large generated CFGs (thousands of blocks) are valid") {
  for (std::uint64_t seed : {7u, 8u}) {
    fl::GenerateOptions g;
    g.blocks = 2000;
    fl::Coverage c;
    const fl::Cfg cfg = fl::generate_cfg(seed, g, c);
    CHECK(cfg.size() > 1000);
    auto t = fl::flesh(cfg, seed, {});
    REQUIRE(t.ok());
    INFO("seed " << seed);
    CHECK(check(*t) == "");
  }
}

TEST_CASE("generation and fleshing are deterministic") {
  for (std::uint64_t seed : {3u, 99u}) {
    fl::Coverage c1, c2;
    fl::GenerateOptions g;
    g.blocks = 50;
    auto a = fl::flesh(fl::generate_cfg(seed, g, c1), seed, {fl::Mode::PhiThreads});
    auto b = fl::flesh(fl::generate_cfg(seed, g, c2), seed, {fl::Mode::PhiThreads});
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a->assembly == b->assembly);
    CHECK(a->spirv == b->spirv);
    CHECK(a->directions == b->directions);
    CHECK(c1.line() == c2.line());
  }
}
