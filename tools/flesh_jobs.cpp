// See flesh_jobs.h.
#include "flesh_jobs.h"

#include <algorithm>

#include "xcheck_variants.h"

namespace sluice::tools {

FleshJobPlan plan_flesh_jobs(const std::vector<flesh::Test>& tests, const FleshRunConfig& config, int only_variant) {
  FleshJobPlan plan;
  plan.places.resize(tests.size());
  plan.own.resize(tests.size());
  auto wanted = [&](std::size_t v) {
    return config.variants[v] && (only_variant < 0 || static_cast<int>(v) == only_variant);
  };
  auto add_own = [&](std::size_t k, std::size_t v) {
    if (!plan.own[k]) plan.own[k] = flesh_variants(tests[k], config);
    const auto& step = (*plan.own[k])[v];
    auto& place = plan.places[k][v];
    place.run = true;
    if (!step.ok()) {
      place.error = first_line(step.failure.message);
      return;
    }
    place.job = plan.jobs.size();
    ++plan.pairs;
    plan.jobs.push_back({*step.value, tests[k].directions, static_cast<std::uint32_t>(tests[k].expected.size()),
                         tests[k].groups()});
  };
  const std::size_t per = std::max(1u, config.bundle);
  plan.bundles.reserve(tests.size());
  plan.bundle_variants.reserve(tests.size());
  for (std::size_t first = 0, end = 0; first < tests.size(); first = end) {
    // At most `per` tests and kBundleBlocks blocks (unless one test alone
    // has more): lavapipe's compile time grows faster than the module.
    std::uint32_t blocks = tests[first].cfg.size();
    for (end = first + 1; end < tests.size() && end - first < per && blocks + tests[end].cfg.size() <= kBundleBlocks; ++end)
      blocks += tests[end].cfg.size();
    std::vector<const flesh::Test*> members;
    for (std::size_t k = first; k < end; ++k)
      if (flesh::bundle_compatible(tests[first], tests[k])) members.push_back(&tests[k]);
    auto bundle = members.size() > 1 ? flesh::make_bundle(members) : Result<flesh::Bundle>(Error{"one test"});
    if (!bundle || members.size() != end - first) {
      for (std::size_t k = first; k < end; ++k)
        for (std::size_t v = 0; v < kFleshVariantCount; ++v)
          if (wanted(v)) add_own(k, v);
      continue;
    }
    const flesh::Bundle& b = plan.bundles.emplace_back(std::move(*bundle));
    const FleshVariantModules& modules = plan.bundle_variants.emplace_back(flesh_module_variants(b.spirv, config));
    for (std::size_t v = 0; v < kFleshVariantCount; ++v) {
      if (!wanted(v)) continue;
      if (!modules[v].ok()) {
        for (std::size_t k = first; k < end; ++k) add_own(k, v);
        continue;
      }
      for (std::size_t k = first; k < end; ++k) plan.places[k][v] = {true, plan.jobs.size(), b.slots[k - first].out_offset, ""};
      plan.pairs += end - first;
      plan.jobs.push_back({*modules[v].value, b.directions, b.output_words, b.groups, b.tests()});
    }
  }
  return plan;
}

}  // namespace sluice::tools
