// Fleshed tests written as AmberScript replay in Sluice's own Amber
// executor (compute pipelines, RUN x y z, EXPECT on data buffers): the
// unmutated script passes, a mutant's script fails its EXPECT, and the
// compute subset's bad input is refused with the line.
#include <catch2/catch.hpp>

#include "exec/amber_executor.h"
#include "exec/runner.h"
#include "flesh/amber.h"
#include "flesh/flesh.h"
#include "flesh/generate.h"

namespace fl = sluice::flesh;
namespace am = sluice::exec::amber;

namespace {

sluice::exec::Runner& runner() {
  static sluice::exec::Runner r = [] {
    auto x = sluice::exec::Runner::create(sluice::exec::DeviceChoice{});
    if (!x) FAIL("cannot create the CPU runner: " << x.error());
    return std::move(*x);
  }();
  return r;
}

}  // namespace

TEST_CASE("fleshed Amber scripts replay in Sluice's Amber executor") {
  for (fl::Mode mode : {fl::Mode::Basic, fl::Mode::Phi, fl::Mode::Threads, fl::Mode::PhiThreads}) {
    fl::CampaignOptions o;
    o.flesh.mode = mode;
    fl::Coverage coverage;
    for (std::uint64_t i = 0; i < 3; ++i) {
      auto t = fl::campaign_test(5, i, o, coverage);
      REQUIRE(t.ok());
      const std::string text = fl::amber_script(*t, "t");
      auto script = am::parse_script(text);
      REQUIRE(script.ok());
      auto outcome = am::execute_script(runner(), *script);
      INFO(fl::to_string(mode) << " test " << i);
      REQUIRE(outcome.ok());
      REQUIRE(outcome->expects.size() == 1);
      CHECK(outcome->passed());

      // The same script with a mutant's SPIR-V fails its EXPECT.
      fl::Test mutant = *t;
      mutant.assembly = fl::emit_assembly(*t, fl::choose_mutation(*t, i));
      auto bad = am::parse_script(fl::amber_script(mutant, "m"));
      REQUIRE(bad.ok());
      auto bad_outcome = am::execute_script(runner(), *bad);
      REQUIRE(bad_outcome.ok());
      CHECK_FALSE(bad_outcome->passed());
      CHECK_THAT(bad_outcome->summary(), Catch::Contains("EXPECT out failed at byte"));
    }
  }
}

TEST_CASE("the compute subset refuses bad input with its line") {
  auto bad_count = am::parse_script("PIPELINE compute p\nEND\nRUN p 0 1 1\n");
  REQUIRE_FALSE(bad_count.ok());
  CHECK(bad_count.error() == "line 3: RUN workgroup counts must be 1-65535");
  auto no_eq = am::parse_script("BUFFER b DATA_TYPE uint32 DATA 1 END\nEXPECT b IDX 0 LT 1\n");
  REQUIRE_FALSE(no_eq.ok());
  CHECK(no_eq.error() == "line 2: expected EQ but found 'LT'");
  auto kind = am::parse_script("PIPELINE raytracing p\nEND\n");
  REQUIRE_FALSE(kind.ok());
  CHECK(kind.error() == "line 1: raytracing pipelines are not supported");
}
