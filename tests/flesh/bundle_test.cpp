// Bundles (src/flesh/bundle.h): K fleshed tests as K functions of one
// module pass spirv-val and `sluice cfg`, and one dispatch on lavapipe
// gives every test exactly its own expected output in its own slot.
#include <catch2/catch.hpp>

#include "exec/vulkan_context.h"
#include "flesh/batch_run.h"
#include "flesh/bundle.h"
#include "flesh/flesh.h"
#include "flesh/generate.h"
#include "flesh/check.h"

namespace fl = sluice::flesh;

TEST_CASE("a bundle of fleshed tests runs each test in its own slot") {
  auto ctx = sluice::exec::VulkanContext::create({});
  REQUIRE(ctx.ok());
  for (fl::Mode m : {fl::Mode::Basic, fl::Mode::PhiThreads, fl::Mode::Data}) {
    fl::CampaignOptions o;
    o.max_blocks = 20;
    o.flesh.mode = m;
    fl::Coverage coverage;
    std::vector<fl::Test> tests;
    for (std::uint64_t i = 0; i < 5; ++i) {
      auto t = fl::campaign_test(21, i, o, coverage);
      REQUIRE(t.ok());
      tests.push_back(std::move(*t));
    }
    std::vector<const fl::Test*> members;
    for (const auto& t : tests) members.push_back(&t);
    auto b = fl::make_bundle(members);
    INFO("mode " << fl::to_string(m));
    REQUIRE(b.ok());
    REQUIRE(fl::module_problem(b->spirv) == "");
    CHECK(b->tests() == 5);
    auto r = fl::run_batch(**ctx, {{b->spirv, b->directions, b->output_words, b->groups, b->tests()}});
    REQUIRE(r.ok());
    REQUIRE(r->outputs[0].ok());
    const auto& all = *r->outputs[0];
    for (std::size_t k = 0; k < tests.size(); ++k) {
      const auto first = all.begin() + b->slots[k].out_offset;
      const std::vector<std::uint32_t> got(first, first + std::ptrdiff_t(tests[k].expected.size()));
      INFO("test " << k);
      if (m == fl::Mode::Data) {
        // lavapipe's loop-exit value bug (docs/flesh.md, "Findings"): only the paths must agree.
        const std::uint32_t c = tests[k].capacity + 1;
        CHECK(std::vector<std::uint32_t>(got.begin(), got.begin() + c) ==
              std::vector<std::uint32_t>(tests[k].expected.begin(), tests[k].expected.begin() + c));
      } else {
        CHECK(got == tests[k].expected);
      }
    }
  }
}
