// A fleshed test's NAME.cfg (src/flesh/test_file.h): written and read back
// it fleshes to the same module byte for byte, in every mode and with a
// mutation; bad text is an error at its line and column.
#include <catch2/catch.hpp>

#include "flesh/flesh.h"
#include "flesh/generate.h"
#include "flesh/test_file.h"

namespace fl = sluice::flesh;

TEST_CASE("a test description read back fleshes to the same test") {
  fl::Coverage coverage;
  for (fl::Mode mode : {fl::Mode::Basic, fl::Mode::Phi, fl::Mode::Threads, fl::Mode::PhiThreads, fl::Mode::Data})
    for (std::uint64_t i = 0; i < 6; ++i) {
      fl::CampaignOptions o;
      o.flesh.mode = mode;
      o.flesh.walk_bound = 20;
      auto t = fl::campaign_test(5, i, o, coverage);
      REQUIRE(t.ok());
      const fl::Mutation m = i % 2 ? fl::choose_mutation(*t, i) : fl::Mutation{};
      const std::string text = fl::describe_test(*t, 20, m);
      auto d = fl::parse_test_description(text, "t.cfg");
      INFO(text);
      REQUIRE(d.ok());
      CHECK(d->mutation.kind == m.kind);
      CHECK(d->mutation.block == m.block);
      auto again = fl::flesh(d->cfg, d->seed, d->options);
      REQUIRE(again.ok());
      CHECK(again->assembly == t->assembly);
      CHECK(again->spirv == t->spirv);
      CHECK(again->expected == t->expected);
      CHECK(fl::describe_test(*again, d->options.walk_bound, d->mutation) == text);
    }
}

TEST_CASE("a bad test description is an error at its line and column") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"mode fancy\n%1: return\n", "t.cfg:1:6: expected a mode: basic, phi, threads, phi+threads or data"},
      {"seed 12x\n%1: return\n", "t.cfg:1:6: '12x': expected a number up to 18446744073709551615"},
      {"colour red\n", "t.cfg:1:1: unknown setting 'colour' (mode, seed, walk, invocations, local-size, mutation)"},
      {"%1: br %2\n%2: jump %1\n", "t.cfg:2:5: unknown terminator 'jump' (br, br_cond, switch, return, unreachable)"},
      {"%1: br %3\n%2: return\n", "t.cfg:1:8: block %3 does not exist (the last block is %2)"},
      {"%1: return\n%1: return\n", "t.cfg:2:1: block %1 is defined twice"},
      {"%2: return\n", "t.cfg:1:1: block %1 is missing: blocks are numbered 1 to 2"},
      {"%1: br_cond %2\n%2: return\n", "t.cfg:1:15: 'br_cond' takes 2 targets"},
      {"%1: selection merge %2 br_cond %2 %2\n%2: return\n", "t.cfg:1:21: expected a block '%N;', found '%2'"},
      {"%1: switch default %2 1:%2 1:%2\n%2: return\n", "t.cfg:1:28: case literal 1 appears twice"},
      {"%1: switch default %2=1 1:%2\n%2: return\n", "t.cfg:1:20: the default's selector 1 is a case literal"},
      {"%1: return\nwalk 3\n", "t.cfg:2:1: settings come before the first block"},
      {"; nothing\n", "t.cfg:1:1: no blocks: expected lines '%N: ... terminator'"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto d = fl::parse_test_description(c.text, "t.cfg");
    REQUIRE_FALSE(d.ok());
    CHECK(d.failure().text() == c.error);
  }
}
